"""Real adaptive tournaments: the bundled Block bots with a copy (two equal entrants) settle in
class order, and a run killed and resumed with another worker count plays the same sets."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.bots import bundled_bots
from arena.cli import cli
from tournaments.formats.adaptive import LEVEL, ORDERED, SETTLED, store_summary
from tournaments.store import Store, store_path

from .conftest import small_config, write_config
from .test_kill_resume import ARENA, assert_all_gone, descendants, stored, wait_for

BLOCK = {b.name: b.path for b in bundled_bots("block")}


def run(config: Path, output: Path, workers: int) -> subprocess.Popen:
    return subprocess.Popen(
        [*ARENA, "tournament", "run", str(config), "--workers", str(workers), "--output",
         str(output)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)


def seats(output: Path) -> list[tuple[int, int, tuple[int, ...]]]:
    with Store.open(output) as store:
        return [(r.id, r.seed, r.seats) for r in store.matches.iter()]


@pytest.fixture(scope="module")
def field(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """greedy, a copy of greedy and random, one deal a match; a wide margin (0.2) so that the two
    equal copies are shown level in a few sets; played by two workers."""
    root = tmp_path_factory.mktemp("adaptive")
    entrants = [{"path": str(BLOCK["greedy"]), "name": "greedy"},
                {"path": str(BLOCK["random"]), "name": "random"},
                {"path": str(BLOCK["greedy"]), "name": "greedy-copy"}]
    data = small_config(entrants)
    data["format"] = {"type": "adaptive", "players": 2, "margin": 0.2, "max_matches": 400}
    config = write_config(root / "t.toml", data)
    proc = run(config, root / "reference", 2)
    out, err = proc.communicate(timeout=280)
    assert proc.returncode == 0, err
    return {"root": root, "config": config, "out": out, "err": err}


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_greedy_and_its_copy_settle_level_above_random(field: dict[str, Any]) -> None:
    out, err = field["out"], field["err"]
    last = out.strip().splitlines()[-1]
    assert last.startswith("Adaptive: ranking settled after "), out
    # with a margin of 0.2 the stop asks only that no one stands above one who beats it by more
    # than 20 %: greedy's lead over random (about 62 %) need not be shown a lead
    assert "of 2 neighbour pairs" in last and "0 in doubt" in last
    assert "settled 0/2 neighbour pairs (0 ordered, 0 level; " in err and "/400 matches" in err
    with Store.open(field["root"] / "reference") as store:
        summary = store_summary(store)
    assert summary.stop == SETTLED and summary.matches < 400
    assert set(summary.ranking[:2]) == {"greedy", "greedy-copy"} and summary.ranking[2] == "random"
    assert [p.state for p in summary.pairs][0] == LEVEL and summary.pairs[1].state in (LEVEL, ORDERED)
    assert summary.line() == last  # the store replays to the run's own standing
    ratings = CliRunner().invoke(cli, ["ratings", str(field["root"] / "reference")])
    assert ratings.exit_code == 0 and ratings.output.strip().splitlines()[-1] == last
    # the terminal's leaderboard follows the settled ranking, as the report does, and says so
    lines = ratings.output.splitlines()
    assert "ranked by the adaptive run's settled ranking; mu - 3 sigma" in lines[1]
    board = [line.split()[1] for line in lines[4:7]]
    assert board == list(summary.ranking), ratings.output
    # settled before max_matches: no deal is to come, so the seed may be published
    report = CliRunner().invoke(cli, ["report", str(field["root"] / "reference"), "--reveal-seed"])
    assert report.exit_code == 0, report.output
    assert "<dd>7</dd>" in (field["root"] / "reference" / "site" / "index.html").read_text()


def workers_used(output: Path) -> set[str]:
    """The worker processes that played the stored matches ("pid N")."""
    with sqlite3.connect(store_path(output)) as db:
        return {w for (w,) in db.execute("SELECT DISTINCT worker FROM matches")}


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_its_batches_are_played_by_the_same_two_workers(field: dict[str, Any]) -> None:
    """The workers (and their bots' fork servers) are kept from batch to batch, not started
    again for each: many batches, two worker processes."""
    with Store.open(field["root"] / "reference") as store:
        played = store.matches.count()[0]
    assert played >= 3 * 4 * 2  # batches of 4 sets of 2 matches for two workers
    assert len(workers_used(field["root"] / "reference")) == 2


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_killed_and_resumed_with_one_worker_it_plays_the_same_sets(field: dict[str, Any]) -> None:
    output = field["root"] / "killed"
    proc = run(field["config"], output, 2)
    wait_for(output, 12, proc, timeout=120)
    children = descendants(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()
    assert_all_gone(children)
    before = stored(output)
    proc = run(field["config"], output, 1)  # the batches keep the first run's size
    out, err = proc.communicate(timeout=280)
    assert proc.returncode == 0, err
    assert f"resuming: {before} of 400 matches already played" in err
    assert out.strip().splitlines()[-1] == field["out"].strip().splitlines()[-1]
    assert seats(output) == seats(field["root"] / "reference")
