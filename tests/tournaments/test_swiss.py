"""The Swiss system (``tournaments.formats.swiss``): its pairings, byes and standings as pure
functions of the results, and a real run stopped half-way that resumes to the same pairings."""
from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from arena.errors import ArenaError
from tournaments.backends import Finished, MatchJob, SerialBackend
from tournaments.config import ConfigError, load_config
from tournaments.formats.swiss import (
    ROUNDS_KEY,
    Round,
    next_round,
    pair_round,
    round_count,
    round_matches,
    summarize,
    tally,
)
from tournaments.run import prepare, run_tournament
from tournaments.store import Store

from .conftest import small_config, write_config


class Result(NamedTuple):
    seats: tuple[int, ...]
    ranks: tuple[int, ...]


def play_out(entrants: list[int], rounds: int, strength: dict[int, int],
             seed: int = 5) -> tuple[list[Round], dict[int, Result]]:
    """Every round paired and played: the stronger entrant wins each match."""
    played: list[Round] = []
    results: dict[int, Result] = {}
    for index in range(rounds):
        found = next_round(entrants, played, results, set(entrants), seed)
        assert found is not None, f"round {index} could not be paired"
        played.append(found)
        for m in round_matches(played, index, seed, {}):
            a, b = m.seats
            results[m.id] = Result(m.seats, (1, 2) if strength[a] > strength[b] else (2, 1))
    return played, results


def test_rounds_default_to_log2_plus_two_within_what_the_field_allows() -> None:
    assert [round_count(0, n) for n in (8, 16, 100, 9)] == [5, 6, 9, 6]  # ⌈log₂ N⌉ + 2
    assert round_count(0, 4) == 3 and round_count(0, 3) == 3  # N − 1 (even), N (odd) at most
    assert round_count(2, 16) == 2  # as the config says


def test_a_round_pairs_close_standings_and_backtracks_rather_than_repeat() -> None:
    assert pair_round([0, 1, 2, 3, 4, 5], set(), set()) == ([(0, 1), (2, 3), (4, 5)], None)
    assert pair_round([0, 1, 2, 3, 4, 5], {frozenset((0, 1))}, set()) == (
        [(0, 2), (1, 3), (4, 5)], None)
    # 0–1 leaves 2–3, who met: 0 takes 2 instead
    assert pair_round([0, 1, 2, 3], {frozenset((2, 3))}, set()) == ([(0, 2), (1, 3)], None)
    everyone = {frozenset(p) for p in itertools.combinations(range(4), 2)}
    assert pair_round([0, 1, 2, 3], everyone, set()) is None


def test_an_odd_field_gives_the_lowest_without_one_a_bye() -> None:
    assert pair_round([0, 1, 2, 3, 4], set(), set()) == ([(0, 1), (2, 3)], 4)
    assert pair_round([0, 1, 2, 3, 4], set(), {4}) == ([(0, 1), (2, 4)], 3)


@pytest.mark.parametrize("n", [5, 7, 8])
def test_every_round_no_pair_twice_one_bye_each_at_most_seats_balanced(n: int) -> None:
    entrants = list(range(n))
    total = round_count(0, n)
    played, _ = play_out(entrants, total, {e: (e * 7) % n for e in entrants})
    pairs = [frozenset(p) for r in played for p in r.pairs]
    assert len(pairs) == len(set(pairs)) == total * (n // 2)  # no pair met twice
    for r in played:  # everybody once a round: at a table or on the bye
        seated = [e for p in r.pairs for e in p] + ([r.bye] if r.bye is not None else [])
        assert sorted(seated) == entrants
        assert (r.bye is not None) == (n % 2 == 1)
    byes = [r.bye for r in played if r.bye is not None]
    assert len(byes) == len(set(byes))  # never twice to one entrant
    balance = Counter[int]()  # tables sat first at, less those sat second at
    for r in played:  # of a pair, the one that sat first less often sits first
        for first, second in r.pairs:
            assert balance[first] <= balance[second], (r, first, second, balance)
        for first, second in r.pairs:
            balance[first] += 1
            balance[second] -= 1
    assert sum(abs(b) for b in balance.values()) <= n + 2  # most within one of even


def test_a_bye_scores_as_a_won_pairing_and_a_pairing_is_its_two_matches() -> None:
    rounds = [Round(((0, 1),), bye=2)]
    # 0 wins the first match and loses the second: a drawn pairing, ½ each
    results = {1: Result((0, 1), (1, 2)), 2: Result((1, 0), (1, 2))}
    t = tally([0, 1, 2], rounds, results, {0, 1, 2})
    assert t.score == {0: 0.5, 1: 0.5, 2: 1.0} and t.complete == 1
    results[2] = Result((1, 0), (2, 1))  # 0 wins both
    assert tally([0, 1, 2], rounds, results, {0, 1, 2}).score == {0: 1.0, 1: 0.0, 2: 1.0}
    unplayed = tally([0, 1, 2], rounds, {1: results[1]}, {0, 1, 2})
    assert unplayed.complete == 0 and unplayed.score[0] == 0.0


def test_standings_by_score_then_buchholz_then_trueskill() -> None:
    # round 1: 0 beats 1, 2 beats 3; round 2: 0 beats 2, 1 beats 3
    rounds = [Round(((0, 1), (2, 3))), Round(((0, 2), (1, 3)))]
    win = {(0, 1), (2, 3), (0, 2), (1, 3)}
    results = {}
    for deal, (a, b) in enumerate(p for r in rounds for p in r.pairs):
        ranks = (1, 2) if (a, b) in win else (2, 1)
        results[2 * deal + 1] = Result((a, b), ranks)
        results[2 * deal + 2] = Result((b, a), ranks[::-1])
    names = {0: "a", 1: "b", 2: "c", 3: "d"}
    # scores 2, 1, 1, 0; 1 and 2 level on score, 2's opponents scored more (Buchholz 2 + 0 = 2
    # against 1's 2 + 0 = 2): level again, so TrueSkill's order decides
    for order, second in (([0, 1, 2, 3], 1), ([0, 2, 1, 3], 2)):
        s = summarize([0, 1, 2, 3], rounds, results, {0, 1, 2, 3}, 2, True, names, order)
        assert [row[0] for row in s.standings] == [0, second, 3 - second, 3]
    rounds3 = [*rounds, Round(((2, 1), (0, 3)))]  # 2 beats 1, 0 beats 3: 0 3, 2 2, 1 1, 3 0
    results[9], results[10] = Result((2, 1), (1, 2)), Result((1, 2), (2, 1))
    results[11], results[12] = Result((0, 3), (1, 2)), Result((3, 0), (2, 1))
    s = summarize([0, 1, 2, 3], rounds3, results, {0, 1, 2, 3}, 3, True, names, [3, 2, 1, 0])
    assert [row[:2] for row in s.standings] == [(0, 3.0), (2, 2.0), (1, 1.0), (3, 0.0)]
    assert s.ranking_ids() == (0, 2, 1, 3)


def test_buchholz_breaks_a_tie_in_score() -> None:
    rounds = [Round(((0, 1), (2, 3)))]  # 0 and 2 win; 0 beat 1, who then beats 3 in round 2
    rounds.append(Round(((0, 2), (1, 3))))
    results: dict[int, Result] = {}
    winners = [0, 2, 2, 1]  # of each pairing in order: 0, 2, then 2 beats 0, 1 beats 3
    for deal, ((a, b), w) in enumerate(zip((p for r in rounds for p in r.pairs), winners)):
        ranks = (1, 2) if w == a else (2, 1)
        results[2 * deal + 1] = Result((a, b), ranks)
        results[2 * deal + 2] = Result((b, a), ranks[::-1])
    s = summarize([0, 1, 2, 3], rounds, results, {0, 1, 2, 3}, 2, True,
                  {e: str(e) for e in range(4)}, [3, 1, 0, 2])
    # 0 and 1 both score 1: 0 met 1 (1) and 2 (2): Buchholz 3; 1 met 0 (1) and 3 (0): 1
    assert [row[:3] for row in s.standings] == [(2, 2.0, 1.0), (0, 1.0, 3.0), (1, 1.0, 1.0),
                                                 (3, 0.0, 3.0)]


def test_more_than_two_players_a_table_is_refused_in_one_line(tmp_path: Path,
                                                               bots: dict[str, Path]) -> None:
    data = small_config([bots["alpha"], bots["beta"], bots["gamma"]],
                        format={"type": "swiss", "players": 3})
    with pytest.raises(ConfigError) as caught:
        load_config(write_config(tmp_path / "t.toml", data))
    assert str(caught.value).endswith("'format.players' is 3; type = 'swiss' seats two players a "
                                      "table")
    assert "\n" not in str(caught.value)


class StopAfter(SerialBackend):
    """Stops (as a first Ctrl-C does) after ``matches`` matches."""

    def __init__(self, matches: int) -> None:
        super().__init__()
        self.left = matches

    def run(self, jobs: Iterable[MatchJob]) -> Iterator[Finished]:
        for finished in super().run(jobs):
            yield finished
            self.left -= 1
            if self.left == 0:
                self.stop()


def stored(output: Path) -> tuple[list[tuple[Any, ...]], Any]:
    with Store.open(output) as store:
        return ([(r.id, r.round, r.seats, r.seed, r.ranks) for r in store.matches.iter()],
                store.meta.get(ROUNDS_KEY))


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_stopped_run_resumes_to_the_same_pairings_and_the_field_stays(
        tmp_path: Path, bots: dict[str, Path]) -> None:
    """Three entrants (a bye every round, three rounds): a run stopped in round 2 and resumed
    stores the very matches, pairings and byes of a run never stopped; then a late entrant and
    a new version are refused."""
    entrants = [bots["alpha"], bots["beta"], bots["gamma"]]
    data = small_config(entrants)
    data["format"] = {"type": "swiss", "players": 2}  # rounds: the default, 3 for 3 entrants
    config = write_config(tmp_path / "t.toml", data)
    whole = run_tournament(prepare(load_config(config), tmp_path / "whole"),
                           backend=SerialBackend(), progress=False, say=lambda _: None)
    assert whole.outcome == "complete" and whole.played == 6
    assert whole.summary is not None and whole.summary.line().startswith(
        "Swiss: final standings after 3 of 3 rounds: ")
    first = run_tournament(prepare(load_config(config), tmp_path / "halves"),
                           backend=StopAfter(3), progress=False, say=lambda _: None)
    assert first.outcome == "stopped" and first.played == 3
    rest = run_tournament(prepare(load_config(config), tmp_path / "halves"),
                          backend=SerialBackend(), progress=False, say=lambda _: None)
    assert rest.outcome == "complete" and rest.played == 3
    matches, rounds = stored(tmp_path / "whole")
    assert stored(tmp_path / "halves") == (matches, rounds)
    assert sorted(r["bye"] for r in rounds) == [0, 1, 2]  # one bye each, never twice
    assert json.dumps(rounds)  # kept as JSON in the store
    assert rest.summary is not None and rest.summary.line() == whole.summary.line()

    late = {**data, "entrants": [*data["entrants"], str(bots["first"])]}
    with pytest.raises(ArenaError, match="a tournament of type 'swiss' takes no late entrants"):
        run_tournament(prepare(load_config(write_config(tmp_path / "late.toml", late)),
                               tmp_path / "whole"), backend=SerialBackend(), progress=False,
                       say=lambda _: None)
    (bots["alpha"] / "main.py").write_text((bots["alpha"] / "main.py").read_text() + "# v2\n")
    said: list[str] = []
    again = run_tournament(prepare(load_config(config), tmp_path / "whole"),
                           backend=SerialBackend(), progress=False, say=said.append)
    assert again.played == 0 and again.outcome == "complete"
    assert any("takes no new versions" in line for line in said), said
    with Store.open(tmp_path / "whole") as store:
        assert store.field.current() == {0: 1, 1: 1, 2: 1}


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_run_killed_mid_round_resumes_to_the_same_pairings(tmp_path: Path,
                                                             bots: dict[str, Path]) -> None:
    """Five entrants (five rounds, a bye each): the command killed (SIGKILL) after a few matches
    and run again stores the matches, pairings and byes of a run never killed."""
    import os
    import signal
    import subprocess

    from .test_kill_resume import ARENA, assert_all_gone, descendants, wait_for
    from .test_kill_resume import stored as count

    data = small_config([bots["alpha"], bots["beta"], bots["gamma"], bots["first"],
                         bots["crash"]])
    data["format"] = {"type": "swiss", "players": 2, "suspend_after": 0}
    config = write_config(tmp_path / "t.toml", data)
    whole = run_tournament(prepare(load_config(config), tmp_path / "whole"),
                           backend=SerialBackend(), progress=False, say=lambda _: None)
    assert whole.outcome == "complete" and whole.played == 20  # 5 rounds of 2 pairings

    def start() -> subprocess.Popen:
        return subprocess.Popen([*ARENA, "tournament", "run", str(config), "-q", "--workers", "2",
                                 "--output", str(tmp_path / "killed")], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)

    proc = start()
    wait_for(tmp_path / "killed", 5, proc, timeout=120)
    children = descendants(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()
    assert_all_gone(children)
    assert 5 <= count(tmp_path / "killed") < 20
    again = start()
    out, err = again.communicate(timeout=180)
    assert again.returncode == 0, err
    assert "Swiss: final standings after 5 of 5 rounds" in out
    assert stored(tmp_path / "killed") == stored(tmp_path / "whole")


def test_the_report_box_shows_the_standings() -> None:
    rounds = [Round(((0, 1),), bye=2)]
    results = {1: Result((0, 1), (1, 2)), 2: Result((1, 0), (2, 1))}  # 0 wins both
    s = summarize([0, 1, 2], rounds, results, {0, 1, 2}, 3, False,
                  {0: "ann", 1: "bob", 2: "cy"}, [2, 0, 1])
    box = s.box()
    assert box.id == "swiss" and box.headline == "Swiss: standings so far"
    assert box.header == ("Rank", "Bot", "Score", "Buchholz", "Byes")
    # ann and cy both 1 point; ann's Buchholz (bob's 0) equals cy's (none): TrueSkill puts cy first
    assert box.rows == (("1", "cy", "1", "0", "1"), ("2", "ann", "1", "0", "0"),
                        ("3", "bob", "0", "1", "0"))
    assert dict(box.facts) == {"Rounds": "1 of 3"}
    renamed = s.renamed(str.upper, lambda e: e + 10)
    assert renamed.box().rows[0][:2] == ("1", "CY") and renamed.ranking_ids() == (12, 10, 11)
