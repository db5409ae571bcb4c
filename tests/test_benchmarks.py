"""The benchmarks that play matches take the game as an argument and play it generically: the
short matches are capped through the game's own length option, the hello names the game."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.games import DEFAULT_GAME, GAMES, get_game
from arena.options import options_from_dict
from benchmarks.match_fixed_cost import capped_values
from benchmarks.sandbox_startup import hello

ROOT = Path(__file__).resolve().parent.parent
MATCH_BENCHMARKS = ("batched_formats", "cluster_throughput", "match_fixed_cost", "match_phases", "new_version",
                    "referee_overhead", "render_report", "sandbox_startup", "tournament_throughput")


@pytest.mark.parametrize("name", MATCH_BENCHMARKS)
def test_each_match_benchmark_takes_any_game_and_defaults_to_the_registrys(name):
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{name}.py"), "--help"],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    text = " ".join(run.stdout.split())
    assert "--game" in text and f"(default {DEFAULT_GAME})" in text, text
    assert all(game in text for game in GAMES), text
    bad = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{name}.py"), "--game", "chess"],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert bad.returncode == 2 and "'chess'" in bad.stderr.splitlines()[-1], bad.stderr


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_short_matches_are_capped_at_one_deal_or_round(name):
    game = get_game(name)
    values = capped_values(game, 2, 1)
    assert game.length_cap(game.make_options(2, values)) == 1
    assert game.length_cap(game.make_options(2, {})) > 1  # else the cap would change nothing
    if name == "block":
        assert values == {"max_deals": 1}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_startup_benchmarks_hello_names_the_game_with_its_resolved_options(name):
    message = hello(name)
    game = get_game(name)
    assert message["game"] == name and message["num_players"] == 2
    assert options_from_dict(game, message["options"]) == game.make_options(2)


@pytest.mark.timeout(300)
def test_one_new_version_plays_its_share_and_no_more():
    """benchmarks/new_version.py, small: four entrants (six pairs), one of them changed; it plays
    its three pairs in both seats, 2/4 of the schedule, and says so."""
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "new_version.py"),
                          "--entrants", "4", "--workers", "1"],
                         capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "matches played for the new version: 6 (needed 6)" in run.stdout
    assert "2/4 of the schedule: 6 -> equal" in run.stdout
def test_the_adaptive_benchmark_compares_with_the_round_robin_on_a_small_field():
    """A smoke size of benchmarks/adaptive.py (the real planner against simulated fields of both
    kinds): a row per kind, each with the round-robin's matches and the stop's."""
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "adaptive.py"), "--sizes", "4",
                          "--seeds", "3", "--margin", "0.2"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert "margin 0.2" in lines[0] and "sd 0.9, draws 0.15" in lines[0]
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert set(rows) == {"class", "continuous"}, run.stdout
    for row in rows.values():
        assert row[1] == "4" and row[3] == "rounds,", run.stdout
        rr, stop, ratio = int(row[4]), float(row[5]), float(row[6])
        assert abs(ratio - stop / rr) <= 0.005 + 0.5 / rr, run.stdout  # the stop's mean, rounded
        assert row[8] == "100%", run.stdout  # the stop came by itself in every seed


def test_the_openspiel_speed_benchmark_plays_the_same_matches_on_both_sides():
    """benchmarks/openspiel_speed.py, tiny: arena's side and OpenSpiel's loop reach the same
    returns in every match (exit code 1 if not; 2 only says the ratio missed its target)."""
    pytest.importorskip("pyspiel")
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "openspiel_speed.py"),
                          "--game", "leduc_poker", "--seconds", "0.2", "--rounds", "1"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode in (0, 2), run.stdout + run.stderr
    assert "ratio arena / OpenSpiel's loop:" in run.stdout
