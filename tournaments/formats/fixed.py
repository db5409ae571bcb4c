"""What a tournament plays next, batch by batch, when its results decide it: an SPRT's next
matches in schedule order until its test decides (``tournaments.sprt``), an adaptive
tournament's next duplicate sets until its ranking is settled (``tournaments.adaptive``). Each is
a function of the stored results, so a resumed run plays on as the uninterrupted one would have;
``tournaments.run`` plays the batches and stores their results."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tournaments.adaptive import EPOCH_KEY, Epoch, Plan, Settings, resumed_plan
from tournaments.config import TournamentConfig
from tournaments.plan import PlannedMatch
from tournaments.sprt import Played, SequentialTest
from tournaments.store import Store


def sprt_batches(todo: list[PlannedMatch], test: SequentialTest | None,
                 stored: dict[int, Played], size: int, position: Callable[[PlannedMatch], int],
                 keep: Callable[[PlannedMatch], bool]) -> Iterator[list[PlannedMatch]]:
    """What to play: every match left at once; for an SPRT, the next ``size`` matches left in
    schedule order (but those ``keep`` refuses: a suspended entrant's), for as long as the test
    has no verdict (it looks after every batch)."""
    if test is None:
        yield todo
        return
    while test.advance(stored) is None:
        left = [m for m in todo if position(m) not in stored and keep(m)]
        if not left:
            return
        yield left[:size]


class AdaptiveRun:
    """An adaptive tournament's plan for the field in play (``tournaments.adaptive.Epoch``):
    replayed from the stored results, or begun afresh after them when the field has moved since
    (a new version, a late entrant, a withdrawal, a suspension). Its batch size follows the
    workers of the tournament's first run, whatever this one has."""

    def __init__(self, config: TournamentConfig, output: Path, store: Store,
                 stored: dict[int, Any], say: Callable[[str], None]) -> None:
        self.config, self.output, self.say = config, output, say
        self.store = store
        self.stored = stored
        self.plan = self.replan()

    def replan(self) -> Plan:
        config, store = self.config, self.store
        assert config.seed is not None  # prepare() gave the config its seed
        rows = store.matches()
        self.stored.update((r.id, Played(r.seats, r.ranks)) for r in rows)
        current = store.current()
        saved = store.meta(EPOCH_KEY)
        epoch = Epoch.from_json(saved) if saved else None
        if epoch is None or epoch.field != current:
            epoch = Epoch.after(current, rows)
            store.set_meta(EPOCH_KEY, epoch.to_json())
        settings = Settings.of(config.format, config.seed, store.runs()[0]["workers"])
        plan, self.epoch = resumed_plan(settings, epoch, rows)
        if self.epoch != epoch:
            store.set_meta(EPOCH_KEY, self.epoch.to_json())
            self.say(f"the adaptive plan of {str(self.output)!r} was made by an earlier arena: "
                     f"its {len(rows)} stored matches count as known, and the plan goes on from "
                     "them")
        return plan

    def batches(self, keep: Callable[[PlannedMatch], bool]) -> Iterator[list[PlannedMatch]]:
        """What is left of the current batch, until the plan is over; an entrant suspended
        meanwhile (``keep`` refuses its matches) ends the epoch, and the field left is planned
        (also when the plan was just over: the standing it ends with is the field's in play)."""
        while True:
            while self.plan.advance(self.stored) is None:
                field = self.epoch.field
                left = [PlannedMatch(m.id, -1, m.round, m.table, m.rotation, m.deal, m.seed,
                                     m.seats, tuple(field[e] for e in m.seats))
                        for m in self.plan.left(self.stored)]
                kept = [m for m in left if keep(m)]
                if kept:
                    yield kept
                else:
                    self.plan = self.replan()
            if self.store.current() == self.epoch.field:
                return
            self.plan = self.replan()


__all__ = ["AdaptiveRun", "sprt_batches"]
