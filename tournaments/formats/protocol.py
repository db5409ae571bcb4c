"""What a tournament format is to the rest of arena: one small protocol.

A format (``[format] type = ...``) is one module of ``tournaments/formats/`` holding one object
that follows :class:`Format`, named once in the registry (``tournaments/formats/__init__.py``).
The config, the entrants' check, the field, the run, the command line and the report know a
format only through it:

- **its keys**: which ``[format]`` keys it takes beyond ``type``, ``players`` and
  ``suspend_after``, their check and defaults (:meth:`Format.check`), and its one line for people
  (:meth:`Format.describe`);
- **its field**: how many entrants it needs and who its candidates are (:meth:`Format.entrants`),
  whether late entrants and new versions are admitted, and what a late entrant plays
  (:meth:`Format.join_slots`);
- **its schedule**: the first schedule (:meth:`Format.schedule`, empty for a format that plans as
  it goes) and the matches it plays at most (:meth:`Format.planned`);
- **its run** (:meth:`Format.start`, a :class:`Course`): what to play next given what is stored,
  what a result changes, its status line, and when it is decided;
- **its summary** (:class:`Summary`): the line a run ends with, its verdict, and what its box on
  the report's index shows (:class:`Box`); read back from a store by :meth:`Format.read`.

Everything a format reads comes to it as values (the stored matches, the field in play); the one
thing it may keep in the store is its own ``meta`` value (the adaptive format's epoch).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from arena.errors import ArenaError
from arena.game import Game
from tournaments.plan import PlannedMatch, Slot
from tournaments.schedule import Schedule


class ConfigError(ArenaError):
    """A tournament config that cannot be used; the message names the file and the key."""


DEFAULT_MAX_TABLES = 500
DEFAULT_SUSPEND_AFTER = 5
COMMON_KEYS = ("type", "players", "suspend_after")  # every format's


@dataclass(frozen=True)
class FormatConfig:
    type: str = ""  # the registry's first format when empty (config.py fills it in)
    players: int = 2
    rounds: int = 1
    duplicate: bool = True
    max_tables: int = DEFAULT_MAX_TABLES
    candidates: tuple[str, ...] = ()
    # the sequential test's keys; None in every other format
    elo0: float | None = None
    elo1: float | None = None
    alpha: float | None = None
    beta: float | None = None
    max_matches: int | None = None
    suspend_after: int = DEFAULT_SUSPEND_AFTER  # how the field is kept, not which matches
    # the adaptive format's keys; None in every other format
    confidence: float | None = None
    margin: float | None = None


class Result(Protocol):
    """A stored match as a format reads it (``tournaments.store.MatchRow`` is one, and so is
    :class:`Outcome`)."""

    @property
    def id(self) -> int: ...
    @property
    def slot(self) -> int: ...
    @property
    def rotation(self) -> int: ...
    @property
    def deal(self) -> int: ...
    @property
    def seats(self) -> tuple[int, ...]: ...
    @property
    def versions(self) -> tuple[int, ...]: ...
    @property
    def ranks(self) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class Outcome:
    """A match just played, as a value: the planned match and the ranks it ended with."""

    match: PlannedMatch
    ranks: tuple[int, ...]

    @property
    def id(self) -> int:
        return self.match.id

    @property
    def slot(self) -> int:
        return self.match.slot

    @property
    def rotation(self) -> int:
        return self.match.rotation

    @property
    def deal(self) -> int:
        return self.match.deal

    @property
    def seats(self) -> tuple[int, ...]:
        return self.match.seats

    @property
    def versions(self) -> tuple[int, ...]:
        return self.match.versions


class MatchesView(Protocol):
    """What a format reads of the store's matches (``tournaments.store.matches.Matches``; its rows
    are ``MatchRow``, which the store's package knows and this one may not import)."""

    def all(self) -> Sequence[Any]: ...
    def current(self) -> Sequence[Any]: ...


class FieldView(Protocol):
    """What a format reads of the store's field (``tournaments.store.field.Field``)."""

    def current(self) -> dict[int, int]: ...
    def entrants(self) -> Sequence[Any]: ...
    def slots(self) -> Sequence[Slot]: ...


class MetaView(Protocol):
    """What a format reads of the store's meta (``tournaments.store.meta.Meta``), and its one
    value of its own."""

    def config(self) -> Any: ...
    def runs(self) -> Sequence[Any]: ...
    def get(self, key: str) -> Any: ...
    def set(self, key: str, value: Any) -> None: ...


class StoreView(Protocol):
    """What a format may read of a store (``tournaments.store.Store``): its rooms."""

    @property
    def matches(self) -> MatchesView: ...
    @property
    def field(self) -> FieldView: ...
    @property
    def meta(self) -> MetaView: ...


@dataclass(frozen=True)
class Box:
    """What a format's box on the report's index shows: plain text, escaped by the page."""

    id: str                        # the section's id on the page
    headline: str
    line: str                      # the run's last line, in full
    facts: tuple[tuple[str, str], ...]
    caption: str                   # the table's
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str
    tone: str = "none"             # the box's colour: "h1" (decided for), "h0" (against), "none"
    numeric: bool = False          # the table's cells are numbers (right-aligned)


class Summary(Protocol):
    """Where a format's run stands: its verdict, the lines it ends with, its report box."""

    @property
    def finished(self) -> bool:
        """Decided or out of matches: nothing more is dealt (the report may reveal the seed)."""

    def line(self) -> str:
        """The one line a run ends with."""

    def text(self) -> str:
        """Everything a finished run prints of it (the last line is :meth:`line`)."""

    def box(self) -> Box: ...

    def ranking_ids(self) -> tuple[int, ...]:
        """Entrant ids, best first, when the format ranks the field itself; () for TrueSkill's."""

    def ranked_by(self) -> tuple[str, str]:
        """For a format with a ranking: (the report's few words, the sentence that says it)."""

    def rules(self) -> dict[tuple[int, int], str]:
        """(a, b) -> what the format says of the pair, in words (both orders), for the report."""

    def renamed(self, name: Callable[[str], str], ident: Callable[[int], int]) -> Summary:
        """The same under other names and entrant ids (an anonymous report's, its aliases)."""


class Course(Protocol):
    """One run of a format: what to play next, and what each result changes."""

    def batch(self, keep: Callable[[PlannedMatch], bool]) -> list[PlannedMatch]:
        """The next matches to play, among those ``keep`` takes (not a suspended entrant's);
        [] when there is nothing more to play."""

    def add(self, result: Outcome) -> None:
        """A match was played and stored."""

    def status(self) -> str | None:
        """The progress line's detail (an SPRT's LLR), if any."""

    @property
    def left(self) -> int:
        """At most this many matches are still to play (the progress bar's total)."""

    @property
    def decided(self) -> bool:
        """Its own stop was reached: a run stopped now is complete."""

    def summary(self, names: Mapping[int, str], order: Callable[[], Sequence[int]]) -> Summary | None:
        """Where it stands (``order``: entrant ids by TrueSkill, best first, made when asked)."""


@dataclass
class Start:
    """What a format's run starts from: all values but the store's meta for its own state."""

    config: FormatConfig
    seed: int
    todo: list[PlannedMatch]          # the matches still needed among the current versions
    rows: Sequence[Any]               # every stored match (tournaments.store.MatchRow)
    current_rows: Sequence[Any]       # those among the current versions
    slots: Sequence[Slot]
    current: dict[int, int]           # entrant id -> version in play
    workers: int                      # matches played at once by this run's backend
    store: StoreView
    output: str
    say: Callable[[str], None]
    first_workers: int = 1            # the workers of the tournament's first run


class Format(Protocol):
    """A tournament format (see the module's docstring)."""

    name: str
    keys: tuple[str, ...]        # its ``[format]`` keys besides COMMON_KEYS
    late_entrants: bool          # a folder that appears later joins
    new_versions: bool           # a bot whose files change plays on as a new version
    fixed: bool                  # its matches are all known in advance (a schedule)

    def check(self, given: Mapping[str, Any], values: Mapping[str, Any], players: int,
              game: Game, source: str) -> dict[str, Any]:
        """Its keys checked (``given``: as written; ``values``: defaults filled in; ``players``:
        the seats a table has): the FormatConfig fields it sets. One ConfigError naming the key."""

    def describe(self, f: FormatConfig) -> str:
        """After the tournament's name and game: ``round-robin, 2 players per table, ...``."""

    def facts(self, f: FormatConfig) -> dict[str, Any]:
        """The report's facts of the format (after ``format``): rounds, its test, ..."""

    def entrants(self, f: FormatConfig, names: Sequence[str],
                 paths: Callable[[], Sequence[str]]) -> tuple[int, ...]:
        """Check there are entrants enough; the candidates' indexes (a gauntlet's)."""

    def schedule(self, entrants: int, f: FormatConfig, seed: int,
                 candidates: Sequence[int]) -> Schedule:
        """The first schedule (empty for a format that plans as it goes)."""

    def planned(self, f: FormatConfig, entrants: int, schedule: Schedule) -> int:
        """The matches it plays at most."""

    def join_slots(self, f: FormatConfig, newcomer: int, others: Sequence[int],
                   candidates: Sequence[int], slots: Sequence[Slot], sampled: bool,
                   seed: int) -> list[Slot]:
        """The slots a late entrant adds."""

    def start(self, run: Start) -> Course: ...

    def read(self, store: StoreView, order: Sequence[int]) -> Summary | None:
        """Where a stored tournament stands (``order``: TrueSkill's, best first)."""


__all__ = ["Box", "COMMON_KEYS", "ConfigError", "Course", "DEFAULT_MAX_TABLES",
           "DEFAULT_SUSPEND_AFTER", "Format", "FormatConfig", "Outcome", "Result", "Start",
           "StoreView", "Summary"]
