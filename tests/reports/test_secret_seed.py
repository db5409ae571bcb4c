"""The tournament seed is a secret: no page, no record, no line of the run's output or progress
shows it, drawn or given; the site is a folder without the store; the organiser reveals the seed
deliberately (``arena report --reveal-seed``), and only once every match is played."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import tomli_w
from click.testing import CliRunner

from arena.cli import cli
from tests.reports.conftest import ROOT
from tests.reports.test_site import read_record_script
from tournaments.store import STORE_NAME, Store

GIVEN_SEED = 4_815_162_342_108_901_733  # 19 digits, as a drawn one has: no accidental match


def write_config(folder: Path, seed: int | None) -> Path:
    data = {"name": "Secret", "game": "block",
            "entrants": [str(ROOT / "bots" / "random"), str(ROOT / "bots" / "heavy")],
            "options": {"target": 10}, "format": {"players": 2, "rounds": 2},
            "ratings": {"draw_probability": 0.01}, "output": "out"}
    if seed is not None:
        data["seed"] = seed
    path = folder / "secret.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


def site_text(site: Path) -> dict[Path, bytes]:
    """Every file of the site as a reader can read it (records unpacked to their JSON)."""
    import json

    files = {}
    for f in sorted(site.rglob("*")):
        if f.is_file():
            data = f.read_bytes()
            if f.parent.name == "records" and f.suffix == ".js":
                data = json.dumps(read_record_script(f)[1]).encode()
            files[f] = data
    return files


def assert_secret(seed: int, site: Path, *outputs: str) -> None:
    digits = str(seed)
    for f, data in site_text(site).items():
        assert digits.encode() not in data, f
    for text in outputs:
        assert digits not in text


def stored_seed(out: Path) -> int:
    with Store.open(out) as store:
        return store.meta.config_dict()["seed"]


@pytest.mark.parametrize("given", [None, GIVEN_SEED], ids=["drawn", "given"])
def test_no_page_record_or_output_shows_the_seed(tmp_path: Path, given: int | None) -> None:
    runner = CliRunner()
    config = write_config(tmp_path, given)
    out = tmp_path / "out"
    run = runner.invoke(cli, ["tournament", "run", str(config), "-w", "1"])  # with its progress
    assert run.exit_code == 0, run.stdout + run.stderr
    seed = stored_seed(out)
    assert given is None or seed == given
    site = out / "site"
    # the run's report is in the site folder, and the path it prints says so
    index = next(line for line in run.stdout.splitlines() if line.startswith("report: "))
    assert Path(index.removeprefix("report: ").split()[0]) == (site / "index.html").resolve()
    assert not (out / "index.html").exists()
    # the site is a folder without the store: publishing it as it is publishes no seed
    assert (out / STORE_NAME).is_file()
    assert not any(f.name.startswith(STORE_NAME) for f in site.rglob("*"))
    assert_secret(seed, site, run.stdout, run.stderr)
    assert ">secret<" in (site / "index.html").read_text(encoding="utf-8")

    for command in (["report", str(out)], ["ratings", str(out)],
                    ["tournament", "replay", str(out), "1"]):
        result = runner.invoke(cli, command)
        assert result.exit_code == 0, result.stdout + result.stderr
        assert_secret(seed, site, result.stdout, result.stderr)

    # the organiser reveals it once the tournament is over
    reveal = runner.invoke(cli, ["report", str(out), "--reveal-seed"])
    assert reveal.exit_code == 0, reveal.stdout + reveal.stderr
    assert f">{seed}<" in (site / "index.html").read_text(encoding="utf-8")
    assert [f for f, data in site_text(site).items() if str(seed).encode() in data] == [
        site / "index.html"]
    # and only when asked: rendering again without the flag keeps it secret again
    again = runner.invoke(cli, ["report", str(out)])
    assert again.exit_code == 0
    assert_secret(seed, site)


def test_the_seed_stays_secret_until_every_match_is_played(tmp_path: Path) -> None:
    runner = CliRunner()
    config = write_config(tmp_path, None)
    out = tmp_path / "out"
    assert runner.invoke(cli, ["tournament", "run", str(config), "-w", "1", "-q"]).exit_code == 0
    seed = stored_seed(out)
    with sqlite3.connect(out / STORE_NAME) as conn:  # a tournament stopped after 3 of 4 matches
        conn.execute("DELETE FROM matches WHERE id = 4")
    result = runner.invoke(cli, ["report", str(out), "--reveal-seed", "--site", str(tmp_path / "s")])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"arena: error: {out}: 3 of 4 matches played; the seed stays secret "
                             "until every match is played (anyone who knew it could work out the "
                             "deals still to come)\n")
    assert not (tmp_path / "s").exists() and str(seed) not in result.output


@pytest.mark.parametrize("where", ["output", "parent"])
def test_a_site_folder_holding_the_store_is_refused(two_player, tmp_path: Path, where: str) -> None:
    """The site is published as it is, so it must not hold the store (and its seed)."""
    import shutil

    out = tmp_path / "t" / "out"
    shutil.copytree(two_player.store_dir, out)
    site = out if where == "output" else out.parent
    result = CliRunner().invoke(cli, ["report", str(out), "--site", str(site)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"arena: error: site folder {str(site)!r} holds the tournament store "
        f"{str((out / STORE_NAME).resolve())!r}, which must not be published (it keeps the secret "
        "seed); write the site to another folder\n")
    assert not (site / "index.html").exists()


def test_an_old_report_beside_the_store_is_pointed_out(two_player, tmp_path: Path) -> None:
    """An older arena wrote the site next to the store, seed and all: `arena report` says so."""
    import shutil

    out = tmp_path / "out"
    shutil.copytree(two_player.store_dir, out)
    (out / "index.html").write_text("an old report, showing the seed", encoding="utf-8")
    result = CliRunner().invoke(cli, ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "site" / "index.html").is_file()
    assert f"note: {out / 'index.html'} and the pages beside it are" in result.stderr
    assert "delete the old one" in result.stderr
