"""The report reads the store once, read-only, and closes it before any page is rendered: the
whole site (and an anonymous one) renders with the store file gone."""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

import reports.render
from reports import render_site
from reports.data import TournamentData
from reports.source import load
from tests.reports.conftest import Site
from tests.reports.test_site import read_record_script
from tournaments.store import Store, store_path


def open_on(path: Path) -> list[str]:
    """This process's open files at ``path`` or beside it (its -wal and -shm files)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(path.resolve())):
            found.append(target)
    return found


def copy_store(site: Site, folder: Path, *, anonymous: bool = False) -> Path:
    folder.mkdir(parents=True)
    shutil.copy(store_path(site.store_dir), store_path(folder))
    if anonymous:
        with Store.open(folder, write=True) as store:
            store.meta.set_report(True, [])
    return folder


def files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def gone_before_rendering(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """``reports.render.write_site`` made to remove the store file first (noting what was still
    open on it), as if the store were taken away the moment the reading stage ended."""
    real = reports.render.write_site
    seen: list[list[str]] = []

    def write_site(data: TournamentData, out: Path, **kw: Any) -> Path:
        path = store_path(Path(out).parent)
        seen.append(open_on(path))
        for name in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            name.unlink(missing_ok=True)
        return real(data, out, **kw)

    monkeypatch.setattr(reports.render, "write_site", write_site)
    return seen


def test_the_site_renders_with_the_store_closed_and_removed(
        two_player: Site, tmp_path: Path, gone_before_rendering: list[list[str]]) -> None:
    folder = copy_store(two_player, tmp_path / "out")
    with Store.open(folder) as store:
        ids = sorted(m.id for m in store.matches.all())
    render_site(folder)
    assert gone_before_rendering == [[]]  # closed before rendering began
    assert not store_path(folder).exists()
    site = folder / "site"
    assert files(site) == files(two_player.site_dir)  # every page, record and asset
    for name in files(site):
        assert (site / name).read_bytes() == (two_player.site_dir / name).read_bytes(), name
    assert {int(p.stem) for p in (site / "records").glob("*.js")} == set(ids)


def test_an_anonymous_site_renders_with_the_store_closed_and_removed(
        two_player: Site, tmp_path: Path, gone_before_rendering: list[list[str]]) -> None:
    folder = copy_store(two_player, tmp_path / "out", anonymous=True)
    with Store.open(folder) as store:
        ids = sorted(m.id for m in store.matches.all())
        names = [e.name for e in store.field.entrants()]
    render_site(folder)
    assert gone_before_rendering == [[]] and not store_path(folder).exists()
    site = folder / "site"
    assert {int(p.stem) for p in (site / "records").glob("*.js")} == set(ids)
    for match_id in ids:  # every replay whole, under aliases
        got, record = read_record_script(site / "records" / f"{match_id}.js")
        assert got == match_id and record["decisions"] and len(record["seats"]) == 2
        assert not {s["name"] for s in record["seats"]} & set(names)
    assert files(site) - {n for n in files(site) if n.startswith(("records/", "bots/"))} == \
        files(two_player.site_dir) - {n for n in files(two_player.site_dir)
                                      if n.startswith(("records/", "bots/"))}
    assert len(list((site / "bots").glob("*.html"))) == len(list((two_player.site_dir / "bots").glob("*.html")))
    text = "".join((site / n).read_text(encoding="utf-8") for n in files(site) if n.endswith(".html"))
    assert not [n for n in names if n in text]


def test_the_reader_closes_the_store_and_reads_only_the_records_not_published(
        two_player: Site, tmp_path: Path) -> None:
    folder = copy_store(two_player, tmp_path / "out")
    with Store.open(folder) as store:
        ids = sorted(m.id for m in store.matches.all())
        stored = dict(store.matches.record_blobs())
    asked: list[bool] = []

    def published(anonymous: bool) -> set[int]:
        asked.append(anonymous)
        return set(ids[:2])

    reading = load(folder, records=published)
    assert open_on(store_path(folder)) == []
    assert asked == [False]
    assert reading.data.records == {i: stored[i] for i in ids[2:]}
    assert load(folder).data.records == {}  # a live index or the authors' pages: none read
