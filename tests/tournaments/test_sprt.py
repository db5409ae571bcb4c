"""``[format] type = "sprt"``: its config, its schedule, and real runs of bundled bots that reach a
verdict, stopped and resumed (the arithmetic is in test_stats.py)."""
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
from tournaments.backends import SerialBackend
from tournaments.config import load_config
from tournaments.formats import make_schedule
from tournaments.formats.sprt import store_summary
from tournaments.run import prepare, run_tournament
from tournaments.store import Store, store_path

from .conftest import small_config, write_config
from .test_kill_resume import ARENA, assert_all_gone, descendants, start_run, stored, wait_for

BLOCK = {b.name: b.path for b in bundled_bots("block")}


def sprt_config(entrants: list[Any], **fmt: Any) -> dict[str, Any]:
    """Two Block bots, one deal a match, the SPRT's defaults but a small max_matches."""
    data = small_config(entrants, format={"type": "sprt", "max_matches": 400, **fmt})
    del data["format"]["rounds"], data["format"]["players"]  # 2: Block's default
    return data


# ----- the config ---------------------------------------------------------------------------

@pytest.mark.parametrize("change, key", [
    ({"format": {"players": 3}}, "'format.players'"),
    ({"game": "thousand", "options": {}}, "'format.players' defaults to thousand's 3"),
    ({"format": {"rounds": 2}}, "'format.rounds'"),
    ({"format": {"duplicate": True}}, "'format.duplicate'"),
    ({"format": {"max_tables": 10}}, "'format.max_tables'"),
    ({"format": {"elo0": 10, "elo1": 10}}, "'format.elo1'"),
    ({"format": {"alpha": 1.5}}, "'format.alpha'"),
    ({"format": {"beta": 0}}, "'format.beta'"),
    ({"format": {"alpha": 0.5, "beta": 0.5}}, "'format.alpha'"),
    ({"format": {"max_matches": 401}}, "'format.max_matches'"),
    ({"format": {"elo1": "big"}}, "'format.elo1'"),
])
def test_a_bad_sprt_config_is_one_line_naming_the_key(tmp_path: Path, change: dict[str, Any],
                                                      key: str) -> None:
    data = sprt_config([BLOCK["greedy"], BLOCK["random"]])
    for name, value in change.items():
        data[name] = {**data[name], **value} if name == "format" else value
    path = write_config(tmp_path / "t.toml", data)
    result = CliRunner().invoke(cli, ["tournament", "run", str(path)])
    assert result.exit_code == 2, result.output
    assert key in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "t-results").exists()  # nothing written


def test_sprt_keys_are_refused_in_another_format(tmp_path: Path) -> None:
    data = small_config([BLOCK["greedy"], BLOCK["random"]], format={"elo1": 20})
    result = CliRunner().invoke(cli, ["tournament", "run", str(write_config(tmp_path / "t.toml", data))])
    assert result.exit_code == 2 and ("'format.elo1' is not for type = 'round-robin'; only type = 'sprt' takes it"
                                     in result.stderr)


def test_an_sprt_has_exactly_two_entrants(tmp_path: Path) -> None:
    data = sprt_config([BLOCK["greedy"], BLOCK["random"], BLOCK["heavy"]])
    result = CliRunner().invoke(cli, ["tournament", "run", str(write_config(tmp_path / "t.toml", data))])
    assert result.exit_code == 2 and "'entrants'" in result.stderr and "there are 3" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_defaults_and_the_schedule_of_duplicate_pairs(tmp_path: Path) -> None:
    data = sprt_config([BLOCK["greedy"], BLOCK["random"]])
    del data["format"]["max_matches"]
    config = load_config(write_config(tmp_path / "t.toml", data))
    f = config.format
    assert (f.elo0, f.elo1, f.alpha, f.beta, f.max_matches) == (0, 50, 0.05, 0.05, 2000)
    schedule = make_schedule(2, f, seed=7)
    assert len(schedule) == 2000
    for p in range(1000):  # pair p is matches 2p+1 and 2p+2: one deal, the seats swapped
        first, second = schedule.matches[2 * p], schedule.matches[2 * p + 1]
        assert (first.id, second.id) == (2 * p + 1, 2 * p + 2)
        assert first.deal == second.deal == p and first.seed == second.seed
        assert second.seats == first.seats[::-1] and sorted(first.seats) == [0, 1]
    assert {m.seats for m in schedule.matches[::4]} == {(0, 1)}  # the first seat alternates
    assert {m.seats for m in schedule.matches[2::4]} == {(1, 0)}
    assert len({m.seed for m in schedule.matches}) == 1000
    assert "sprt (elo0 0, elo1 50, alpha 0.05, beta 0.05)" in config.describe()


def test_a_round_robin_store_keeps_its_identity(tmp_path: Path) -> None:
    """The SPRT's keys are absent (None) from other formats' configs, so a store written before
    they existed is the same tournament."""
    data = small_config([BLOCK["greedy"], BLOCK["random"]])
    identity = load_config(write_config(tmp_path / "t.toml", data)).identity()
    assert all(identity["format"][k] is None for k in ("elo0", "elo1", "alpha", "beta",
                                                       "max_matches"))


# ----- real runs ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def greedy_vs_random(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The bundled greedy Block bot against the bundled random one, the SPRT's defaults (elo0 0,
    elo1 50, alpha = beta = 0.05), played through to its verdict by one serial worker."""
    root = tmp_path_factory.mktemp("sprt")
    config = write_config(root / "t.toml", sprt_config([BLOCK["greedy"], BLOCK["random"]]))
    result = run_tournament(prepare(load_config(config), root / "reference"),
                            backend=SerialBackend(), progress=False)
    assert result.summary is not None
    return {"root": root, "config": config, "line": result.summary.line(), "result": result}


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_greedy_against_random_is_a_clear_h1(greedy_vs_random: dict[str, Any]) -> None:
    result, line = greedy_vs_random["result"], greedy_vs_random["line"]
    assert line.startswith("SPRT: H1 accepted after ")
    assert "greedy (candidate) against random (baseline)" in line
    assert result.outcome == "complete" and result.done < 400  # it stopped early
    summary = result.summary
    assert summary.llr >= summary.upper and summary.estimate.elo > 50
    # a batch is 4 matches for one worker: the last one ends at most a pair after the verdict
    assert 2 * summary.pairs <= result.done <= 2 * summary.pairs + 2


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_command_line_ends_with_the_verdict_and_ratings_repeat_it(
        greedy_vs_random: dict[str, Any], tmp_path: Path) -> None:
    """Two workers (a batch of twice the size) reach the same verdict as one; `arena tournament
    run` ends with it, the progress shows the LLR, and `arena ratings` says it again."""
    output = tmp_path / "out"
    proc = subprocess.run(
        [*ARENA, "tournament", "run", str(greedy_vs_random["config"]), "--workers", "2",
         "--output", str(output)], capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == greedy_vs_random["line"]
    assert proc.stdout.count("SPRT: ") == 1  # once, as the last line
    assert "LLR 0.00 (-2.94, 2.94)" in proc.stderr and "/400 matches" in proc.stderr
    ratings = CliRunner().invoke(cli, ["ratings", str(output)])
    assert ratings.exit_code == 0 and greedy_vs_random["line"] in ratings.output
    # its batches (of 8 matches) were played by the same two workers, kept from batch to batch
    with sqlite3.connect(store_path(output)) as db:
        played, workers = db.execute("SELECT COUNT(*), COUNT(DISTINCT worker) FROM matches").fetchone()
    assert played > 3 * 8 and workers == 2


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_killed_and_resumed_it_reaches_the_same_verdict(greedy_vs_random: dict[str, Any],
                                                        tmp_path: Path) -> None:
    output = tmp_path / "killed"
    proc = start_run(greedy_vs_random["config"], output)
    wait_for(output, 20, proc, timeout=120)
    children = descendants(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()
    assert_all_gone(children)
    before = stored(output)
    with Store.open(output) as store:
        assert store_summary(store).verdict is None  # killed before the verdict
    proc = start_run(greedy_vs_random["config"], output)
    out, err = proc.communicate(timeout=240)
    assert proc.returncode == 0, err
    assert f"resuming: {before} of 400 matches already played" in err
    assert out.strip().splitlines()[-1] == greedy_vs_random["line"]
    again = subprocess.run([*ARENA, "tournament", "run", str(greedy_vs_random["config"]),
                            "--output", str(output)], capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and "played 0 matches" in again.stdout  # decided: nothing more
    assert again.stdout.strip().splitlines()[-1] == greedy_vs_random["line"]



@pytest.mark.slow
@pytest.mark.timeout(300)
def test_ctrl_c_stops_between_batches_and_the_resume_reaches_the_same_verdict(
        greedy_vs_random: dict[str, Any], tmp_path: Path) -> None:
    output = tmp_path / "stopped"
    proc = start_run(greedy_vs_random["config"], output)
    wait_for(output, 10, proc, timeout=120)
    children = descendants(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole process group
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "stopping after the matches in flight" in err and "Traceback" not in err
    assert out.strip().splitlines()[-1].startswith("SPRT: no verdict yet after ")
    assert_all_gone(children)
    with Store.open(output) as store:
        assert [r.outcome for r in store.meta.runs()] == ["stopped"]
    before = stored(output)
    proc = start_run(greedy_vs_random["config"], output)
    out, err = proc.communicate(timeout=240)
    assert proc.returncode == 0, err
    assert f"resuming: {before} of 400 matches already played" in err
    assert out.strip().splitlines()[-1] == greedy_vs_random["line"]
