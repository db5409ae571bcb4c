"""An adaptive tournament whose field moves: a late entrant and a new version enter the plan
the same way (tournaments.formats.adaptive.Epoch), chosen first since nothing is known of them yet.

Real bot folders, real bot subprocesses one match at a time (``SerialBackend``), a real store.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

import tournaments.formats.adaptive
from tournaments.backends import Finished, MatchJob, SerialBackend
from tournaments.config import load_config
from tournaments.formats.adaptive import IN_DOUBT, SETTLED, Standing, store_summary
from tournaments.run import prepare, run_tournament
from tournaments.store import Store

from .conftest import HASH_BOT, make_bot, small_config, write_config
from .test_versions import change, run


def stored(out: Path) -> dict[int, tuple[tuple[int, ...], tuple[int, ...], int]]:
    with Store.open(out) as store:
        return {m.id: (m.seats, m.versions, m.seed) for m in store.matches.all()}


def three_bots(tmp_path: Path, bots: dict[str, Path]) -> Path:
    """The config of an adaptive tournament of the bots folder, left with alpha, beta and gamma
    (a wide margin shows them level in a few sets)."""
    data = small_config([str(tmp_path / "bots" / "*")])
    data["format"] = {"type": "adaptive", "players": 2, "margin": 0.45, "max_matches": 400}
    for name in ("first", "crash"):
        for f in sorted((bots[name]).iterdir()):
            f.unlink()
        bots[name].rmdir()
    return write_config(tmp_path / "t.toml", data)


def test_a_late_entrant_and_a_new_version_are_planned_first(tmp_path: Path,
                                                            bots: dict[str, Path]) -> None:
    """Three bots settle (a wide margin shows them level in a few sets); a fourth joins: the
    next run's first batch seats it at every table, on deals never dealt, with ids after every
    stored match; then one bot changes: its new version is planned first, and its old version's
    matches no longer count."""
    config = three_bots(tmp_path, bots)
    out = tmp_path / "out"
    first = run(config, out)
    assert first.summary is not None and first.summary.stop == SETTLED
    before = stored(out)
    assert first.played == len(before) > 0

    make_bot(tmp_path / "bots", "delta", HASH_BOT, "d")
    second = run(config, out)
    assert second.summary is not None and second.summary.stop == SETTLED
    after = stored(out)
    assert {mid: after[mid] for mid in before} == before      # nothing stored changes
    new = sorted(mid for mid in after if mid not in before)
    assert new == list(range(max(before) + 1, max(after) + 1)) and len(new) == second.played
    with Store.open(out) as store:
        delta = next(e.id for e in store.field.entrants() if e.name == "delta")
    first_batch = new[:4]  # one worker: two sets of two matches
    assert all(delta in after[mid][0] for mid in first_batch)
    assert not {after[mid][2] for mid in new} & {r[2] for r in before.values()}  # fresh deals
    assert "delta" in second.summary.ranking

    change(bots["beta"])
    third = run(config, out)
    latest = stored(out)
    with Store.open(out) as store:
        beta = next(e.id for e in store.field.entrants() if e.name == "beta")
        assert store.field.current()[beta] == 2
        summary = store_summary(store)
    newest = sorted(mid for mid in latest if mid not in after)
    assert third.played == len(newest) > 0
    assert all(beta in latest[mid][0] for mid in newest[:4])  # the new version first
    assert all(dict(zip(seats, versions)).get(beta, 2) == 2
               for seats, versions, _ in (latest[mid] for mid in newest))
    assert summary.stop == SETTLED and summary.matches == len(latest)
    assert summary.line() == third.summary.line()  # the store replays to the run's standing


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


def lowest_pair_first(now: Standing, count: int, players: int, margin: float
                      ) -> list[tuple[int, ...]]:
    """Another choice rule (an earlier arena's, say): every set to the lowest pair in doubt."""
    r = max(r for r, p in enumerate(now.pairs) if p.state == IN_DOUBT)
    return [now.ranking[r:r + 2]] * count


def test_a_plan_made_by_an_earlier_choice_rule_goes_on_from_its_matches(
        tmp_path: Path, bots: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A store whose matches follow another choice rule (stopped half-way through a batch) is
    read and resumed, not refused: its matches count as known, a new epoch plans on from them
    (saying so once), and the next resume replays that epoch."""
    config = three_bots(tmp_path, bots)
    out = tmp_path / "out"
    monkeypatch.setattr(tournaments.formats.adaptive, "choose_tables", lowest_pair_first)
    earlier = run_tournament(prepare(load_config(config), out), backend=StopAfter(6),
                             progress=False, say=lambda _line: None)
    assert earlier.outcome == "stopped" and earlier.played == 6
    monkeypatch.undo()
    before = stored(out)
    with Store.open(out) as store:
        assert store_summary(store).matches == 6  # the report reads it
    lines: list[str] = []
    resumed = run(config, out, lines)
    assert resumed.summary is not None and resumed.summary.stop == SETTLED
    assert [line for line in lines if "made by an earlier arena" in line] == [
        f"the adaptive plan of {str(out)!r} was made by an earlier arena: its 6 stored matches "
        "count as known, and the plan goes on from them"]
    after = stored(out)
    assert {mid: after[mid] for mid in before} == before
    assert sorted(set(after) - set(before)) == list(range(7, max(after) + 1))
    again: list[str] = []
    assert run(config, out, again).played == 0
    assert not [line for line in again if "earlier arena" in line]
    with Store.open(out) as store:
        assert store_summary(store).line() == resumed.summary.line()
