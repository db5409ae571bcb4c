"""What a report is made of: one tournament's entrants, matches, ratings and records, read once.

``reports.source`` reads them from the store and closes it; everything after it (``model``,
``charts``, ``render``) works on these plain dataclasses, so the pages can be tested and
benchmarked without caring how the rows were stored.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tournaments.ratings import Pair, TieBreak


@dataclass(frozen=True)
class VersionInfo:
    """One admitted version of an entrant, rated as a player of its own over every match it
    played."""

    number: int
    arrived_at: str
    state: str        # current, old, withdrawn, suspended
    mu: float = 25.0
    sigma: float = 25.0 / 3
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def exposed(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class EntrantInfo:
    """A bot entered in the tournament. ``id`` is stable; names are untrusted text."""

    id: int
    name: str
    path: str = ""  # the organiser's folder: never published (it can hold a student's name)
    description: str = ""  # bot.toml's description
    version: int = 1  # the latest version (the one ranked, when it plays)
    state: str = "current"  # of the latest version: current, withdrawn or suspended
    reason: str = ""  # why withdrawn or suspended
    versions: tuple[VersionInfo, ...] = ()
    colour: int = -1  # its colour place (reports.colours); -1: its rank among the entrant ids


@dataclass(frozen=True)
class SubmissionInfo:
    """A submission seen and not admitted: the folder's name (never its path), why, and the
    last lines the bot wrote to stderr."""

    name: str
    seen_at: str
    reason: str
    stderr_tail: str = ""
    entrant: int | None = None  # the entrant of its folder, whose previous version plays on


@dataclass(frozen=True)
class MatchInfo:
    """One match of the schedule with its result (per seat, in seat order)."""

    id: int
    number: int  # 1-based position in schedule order
    seats: tuple[int, ...]  # entrant id per seat
    seed: int
    status: str = "done"  # "done" once played; anything else has no result yet
    scores: tuple[int, ...] = ()
    ranks: tuple[int, ...] = ()
    statuses: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    stderr_tails: tuple[str, ...] = ()
    time_ms: tuple[float, ...] = ()
    duration_ms: float = 0.0
    versions: tuple[int, ...] = ()  # the version of each seat's entrant
    current: bool = True  # played by the current versions (rated), or by an older field

    @property
    def played(self) -> bool:
        return self.status == "done" and len(self.ranks) == len(self.seats)

    @property
    def failed(self) -> bool:
        return any(s != "ok" for s in self.statuses)


@dataclass(frozen=True)
class Standing:
    """One row of the rating table: TrueSkill μ, σ and the match counts behind them."""

    entrant: int
    mu: float
    sigma: float
    matches: int
    wins: int
    draws: int
    avg_score: float
    failures: int
    tie: TieBreak | None = None  # level with the next one on μ − 3σ as shown: what put it above

    @property
    def exposed(self) -> float:
        """μ − 3σ: the conservative estimate that trueskill documents as the sort key."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class RatingPoint:
    """An entrant's rating after the match at ``number`` (schedule order)."""

    number: int
    mu: float
    sigma: float


@dataclass
class TournamentData:
    """Everything a report shows. Matches are in schedule order; standings in rating order."""

    name: str
    game: str
    options: dict[str, Any]
    seed: int | None  # the tournament seed: None (kept secret) unless the organiser reveals it
    entrants: list[EntrantInfo]
    matches: list[MatchInfo]
    standings: list[Standing]
    history: dict[int, list[RatingPoint]]  # entrant id -> rating after each of its matches
    # match id -> its packed record as stored (arena.record), for records/<id>.js: the matches
    # whose record the site does not hold yet
    records: dict[int, bytes] = field(default_factory=dict)
    # (a, b) -> a's results with b at the table, over the rated matches (tournaments.ratings)
    pairs: dict[tuple[int, int], Pair] = field(default_factory=dict)
    # an entrant out of play -> the same table over its own last version's matches
    own_pairs: dict[int, dict[tuple[int, int], Pair]] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)  # more config to show: format, time control…
    duration_s: float | None = None
    planned: int | None = None  # matches in the schedule, played or not
    initial_mu: float = 25.0
    initial_sigma: float = 25.0 / 3
    duplicate: bool = True  # the matches of a duplicate set share their seed (one set per match if not)
    summary: Any = None  # the format's summary (tournaments.formats.protocol.Summary), if any
    references: frozenset[int] = frozenset()  # entrants marked reference = true: the grade bars
    anonymous: bool = False  # names and folders replaced by aliases (reports.anonymous)
    submissions: list[SubmissionInfo] = field(default_factory=list)  # not admitted, and why

    @property
    def num_players(self) -> int:
        n = self.options.get("num_players")
        if isinstance(n, int):
            return n
        return max((len(m.seats) for m in self.matches), default=2)
