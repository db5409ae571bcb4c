"""What the formats of a fixed schedule share (a round-robin, a gauntlet): every table known in
advance, played ``rounds`` times, every match left played at once, no verdict of their own."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arena.game import Game
from tournaments.formats.protocol import ConfigError, FormatConfig, Outcome, Start, StoreView, Summary
from tournaments.plan import PlannedMatch, Slot, join_slots
from tournaments.schedule import Schedule

SCHEDULE_KEYS = ("rounds", "duplicate", "max_tables")


class FixedCourse:
    """Every match left, in one batch; decided by nothing but having played them."""

    def __init__(self, todo: list[PlannedMatch]) -> None:
        self.todo: list[PlannedMatch] | None = todo
        self.left = len(todo)

    def batch(self, keep: Callable[[PlannedMatch], bool]) -> list[PlannedMatch]:
        todo, self.todo = self.todo or [], None
        return [m for m in todo if keep(m)]

    def add(self, result: Outcome) -> None:
        pass

    def status(self) -> str | None:
        return None

    @property
    def decided(self) -> bool:
        return False

    def summary(self, names: Mapping[int, str], order: Callable[[], Sequence[int]]) -> Summary | None:
        return None


class FixedFormat:
    """A format of a fixed schedule; a subclass gives its tables and a late entrant's groups."""

    name = ""
    keys: tuple[str, ...] = SCHEDULE_KEYS
    late_entrants = True
    new_versions = True
    fixed = True

    def check(self, given: Mapping[str, Any], values: Mapping[str, Any], players: int,
              game: Game, source: str) -> dict[str, Any]:
        return {}

    def describe(self, f: FormatConfig) -> str:
        dup = ", duplicate deals" if f.duplicate else ""
        return (f"{self.name}, {f.players} players per table, {f.rounds} "
                f"round{'s' if f.rounds != 1 else ''}{dup}")

    def facts(self, f: FormatConfig) -> dict[str, Any]:
        return {"rounds": f.rounds, "duplicate deals": f.duplicate}

    def entrants(self, f: FormatConfig, names: Sequence[str],
                 paths: Callable[[], Sequence[str]]) -> tuple[int, ...]:
        raise NotImplementedError

    def schedule(self, entrants: int, f: FormatConfig, seed: int,
                 candidates: Sequence[int]) -> Schedule:
        raise NotImplementedError

    def planned(self, f: FormatConfig, entrants: int, schedule: Schedule) -> int:
        return len(schedule)

    def groups(self, f: FormatConfig, newcomer: int, others: Sequence[int],
               candidates: Sequence[int]) -> list[tuple[int, ...]]:
        raise NotImplementedError

    def join_slots(self, f: FormatConfig, newcomer: int, others: Sequence[int],
                   candidates: Sequence[int], slots: Sequence[Slot], sampled: bool,
                   seed: int) -> list[Slot]:
        return join_slots(self.groups(f, newcomer, others, candidates), newcomer, slots, sampled,
                          seed)

    def start(self, run: Start) -> FixedCourse:
        return FixedCourse(run.todo)

    def read(self, store: StoreView, order: Sequence[int]) -> Summary | None:
        return None


def need_entrants(names: Sequence[str], f: FormatConfig, what: str) -> None:
    if len(names) < max(2, f.players):
        raise ConfigError(f"'entrants': {len(names)} entrant(s) for tables of {f.players}; "
                          f"{what} needs at least {max(2, f.players)}")


__all__ = ["FixedCourse", "FixedFormat", "SCHEDULE_KEYS", "need_entrants"]
