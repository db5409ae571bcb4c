"""The live report: while a tournament runs, its index is rendered every few seconds and reloads
itself in the browser; at the end the whole report is rendered without the reloading."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from reports.live import LiveReport
from tests.reports.conftest import ROOT
from tournaments.backends import SerialBackend
from tournaments.config import parse_config
from tournaments.run import prepare, run_tournament


class Watching(SerialBackend):
    """Plays serially, and after the second match waits for the live index and keeps its text."""

    def __init__(self, index: Path) -> None:
        super().__init__()
        self.index = index
        self.seen: str | None = None

    def run(self, jobs):
        for n, finished in enumerate(super().run(jobs), start=1):
            yield finished
            if n == 2:
                deadline = time.monotonic() + 15
                while time.monotonic() < deadline:
                    if self.index.is_file() and "2 of" in self.index.read_text(encoding="utf-8"):
                        break
                    time.sleep(0.05)
                self.seen = self.index.read_text(encoding="utf-8") if self.index.is_file() else None


@pytest.mark.parametrize("seed", [None, 3_141_592_653_589_793_238], ids=["drawn", "given"])
def test_the_index_refreshes_while_the_tournament_runs(tmp_path: Path, seed: int | None) -> None:
    config = parse_config({
        "name": "Live", "game": "block", **({} if seed is None else {"seed": seed}),
        "entrants": [str(ROOT / "bots" / "random"), str(ROOT / "bots" / "heavy")],
        "options": {"target": 10},
        "format": {"players": 2, "rounds": 2},
        "ratings": {"draw_probability": 0.01},
    }, base_dir=tmp_path, source="test", stem="live")
    out = tmp_path / "out"
    backend = Watching(out / "site" / "index.html")  # the site folder, without the store
    prepared = prepare(config, out)
    result = run_tournament(prepared, backend=backend, progress=False,
                            say=lambda _: None, on_results=LiveReport(out, 0.1))
    assert result.outcome == "complete"
    # during the run: the leaderboard so far, reloading itself
    assert backend.seen is not None
    assert '<meta http-equiv="refresh" content="30">' in backend.seen
    assert "The tournament is running" in backend.seen
    assert 'id="leaderboard"' in backend.seen
    # the page projected during the run keeps the tournament seed secret
    assert str(prepared.config.seed) not in backend.seen and ">secret<" in backend.seen
    # at the end: the whole report, not reloading
    assert result.report == out / "site" / "index.html"
    html = result.report.read_text(encoding="utf-8")
    assert "http-equiv" not in html and "The tournament is running" not in html
    assert f"{result.total} played of {result.total}" in html
    site = out / "site"
    assert (site / "replay.html").is_file()
    assert len(list((site / "records").glob("*.js"))) == result.total
    assert not (out / "index.html").exists()


def test_a_run_stopped_at_once_leaves_an_index_that_no_longer_reloads(two_player,
                                                                     tmp_path: Path) -> None:
    """Ctrl-C twice: the live index in the site folder stays as it was, without its reloading."""
    import shutil

    out = tmp_path / "out"
    shutil.copytree(two_player.store_dir, out)
    index = out / "site" / "index.html"
    live = LiveReport(out, 0.05)
    live.started(print)
    deadline = time.monotonic() + 15
    while not (index.is_file() and "http-equiv" in index.read_text(encoding="utf-8")):
        assert time.monotonic() < deadline, "no live index in the site folder"
        time.sleep(0.02)
    assert live.finished("aborted") is None
    html = index.read_text(encoding="utf-8")
    assert "http-equiv" not in html and "The tournament is running" in html


def test_the_pages_are_rendered_in_a_process_of_their_own(tmp_path: Path) -> None:
    """A large report is seconds of Python: rendered in the run's (or the contest server's)
    process, it would hold the interpreter that the run and the server's pages need."""
    import os

    from reports.live import Renderer

    config = parse_config({
        "name": "Apart", "game": "block",
        "entrants": [str(ROOT / "bots" / "random"), str(ROOT / "bots" / "heavy")],
        "options": {"target": 10}, "format": {"players": 2, "rounds": 1},
    }, base_dir=tmp_path, source="test", stem="apart")
    out = tmp_path / "out"
    run_tournament(prepare(config, out), backend=SerialBackend(), progress=False,
                   say=lambda _: None)
    renderer = Renderer()
    try:
        index = renderer.render(out)
        pids = set(renderer.pids())
    finally:
        renderer.close()
    assert index == out / "site" / "index.html" and index.is_file()
    assert pids and os.getpid() not in pids
    assert not renderer.pids()  # closed: its process is gone


def test_each_template_is_compiled_once_per_process() -> None:
    """The contest server renders an author's page on every request: compiling its template
    each time took most of the request."""
    from reports.render import environment

    assert environment() is environment()
    assert environment().get_template("author.html.j2") is environment().get_template("author.html.j2")
