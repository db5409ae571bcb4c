"""View-model dataclasses: what each page shows, already formatted, with root-relative links.

Templates only lay these out; ``reports.model.SiteModel`` builds them from ``TournamentData``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


# ----- small pieces ------------------------------------------------------------------------------
@dataclass(frozen=True)
class BotRef:
    """A link to a bot's page, with the bot's colour in charts."""

    id: int
    name: str
    href: str
    colour: str


@dataclass(frozen=True)
class PageLink:
    label: str
    href: str
    current: bool = False


@dataclass(frozen=True)
class Pager:
    """Links between the pages of one split list."""

    pages: list[PageLink]
    prev: str | None
    next: str | None
    summary: str  # "matches 501–1,000 of 10,000"


@dataclass(frozen=True)
class SeatCell:
    bot: BotRef
    score: str
    rank: int | None
    status: str
    ok: bool


@dataclass(frozen=True)
class MatchRow:
    """A line of a match list."""

    id: int
    number: int
    href: str
    seats: list[SeatCell]
    played: bool
    failed: bool
    duration: str
    outcome: str  # "A won", "draw", "B failed: timeout"


# ----- index -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class UncertaintyBar:
    """Positions and widths in percent of the shared scale: μ ± 3σ whisker, μ ± σ box, μ mark."""

    lo3: str
    w3: str
    lo1: str
    w1: str
    mu: str


@dataclass(frozen=True)
class LeaderRow:
    rank: int
    bot: BotRef
    exposed: str
    mu: str
    sigma: str
    bar: UncertaintyBar
    matches: int
    wins: int
    draws: int
    win_rate: str
    avg_score: str
    failures: int
    reference: str | None = None  # a reference entrant's line: "Above greedy: 2 of 5 entrants …"
    version: str = ""  # "v2": the version ranked, once an entrant has more than one
    tie: str | None = None  # level with the next row: "Level with bob on μ − 3σ; ahead on wins, 3 to 1"


@dataclass(frozen=True)
class FieldRow:
    """An entrant out of the standings: withdrawn or suspended, and why."""

    bot: BotRef
    state: str
    reason: str


@dataclass(frozen=True)
class SubmissionRow:
    """A submission not admitted: the folder's name, when, why, the bot's stderr tail."""

    name: str
    seen_at: str
    reason: str
    stderr_tail: str
    playing: BotRef | None = None  # the bot of its folder, whose previous version plays on


@dataclass(frozen=True)
class VersionRow:
    """One version of a bot: when it arrived, its state, its rating and record."""

    number: int
    arrived: str
    state: str
    exposed: str
    matches: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class Tick:
    pos: str  # percent
    label: str


@dataclass(frozen=True)
class H2HCell:
    main: str
    sub: str
    title: str
    background: str
    colour: str
    empty: bool = False
    self_cell: bool = False


@dataclass(frozen=True)
class H2HRow:
    bot: BotRef
    cells: list[H2HCell]


@dataclass(frozen=True)
class PairRow:
    """One pair of entrants on the head-to-head page: the first's outcomes per duplicate set
    against the second, its score and Elo with their 95 % intervals, P(it ranks above)."""

    a: BotRef
    b: BotRef
    sets: int
    counts: str       # "3 · 10 · 25 · 9 · 1": sets by the first's points 0, ½, … k
    score: str        # "54.2% (49.1–59.3%)"
    elo: str          # "+29.3 ± 35.6"
    p_above: str      # "93.1%"
    pending: int      # sets begun and not finished: not counted yet
    rule: str = ""    # what the format says of the pair (an adaptive run's neighbours), if anything


@dataclass(frozen=True)
class FormatBox:
    """The format's box on the index page: its verdict or standing, as the format says it
    (``tournaments.formats.protocol.Box``)."""

    id: str           # the section's id
    headline: str     # "SPRT: H1 accepted"
    line: str         # the run's last line, in full
    facts: list[Fact]
    caption: str
    header: list[str]
    rows: list[list[str]]
    note: str
    tone: str         # "h1", "h0" or "none": the box's colour
    numeric: bool     # the table's cells are numbers


@dataclass(frozen=True)
class HeadToHead:
    two_player: bool
    bots: list[BotRef]
    rows: list[H2HRow]
    legend_low: str
    legend_high: str
    legend_stops: list[str]
    shown: int  # bots in this matrix (the top of the leaderboard)
    total: int  # bots in the tournament
    pairs: list[PairRow] = field(default_factory=list)  # the full page only: every pair met
    outcomes: str = ""  # what a pair's counts are: "0, ½, 1, 1½, 2 points of 2"


@dataclass(frozen=True)
class Fact:
    label: str
    value: str


@dataclass
class IndexView:
    name: str
    game_title: str
    facts: list[Fact]
    options: list[Fact]
    leaderboard: list[LeaderRow]
    any_draws: bool
    scale_ticks: list[Tick]
    head_to_head: HeadToHead
    chart_svg: Any  # markupsafe.Markup, built by reports.charts
    chart_legend: list[BotRef]
    chart_coloured: int  # the chart draws the first this many of chart_legend in colour
    match_pages: list[PageLink]
    failed_matches: list[MatchRow]
    failed_total: int
    live: str | None = None  # the note of a report refreshed while the tournament runs
    box: FormatBox | None = None  # the format's verdict or standing, if it has one
    out_of_play: list[FieldRow] = field(default_factory=list)  # withdrawn and suspended bots
    submissions: list[SubmissionRow] = field(default_factory=list)  # not admitted, and why
    tie_rule: str = ""  # what orders bots level on μ − 3σ (tournaments.ratings.tie_rule)
    order: tuple[str, str] = ("", "")  # which model orders the pages: (the lede's, the note)


# ----- per bot -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class OpponentRow:
    bot: BotRef
    matches: int
    wins: int
    draws: int
    losses: int
    score_rate: str
    avg_place: str
    avg_score: str
    avg_opponent_score: str
    background: str
    colour: str


@dataclass(frozen=True)
class FailureExample:
    """One match of a kind of failure: its number, the replay at the failure, the whole reason."""

    number: int
    href: str
    reason: str


@dataclass(frozen=True)
class FailureGroup:
    """Failures of one kind: a status and the shape of the reason (``model.failure_kind``)."""

    status: str
    kind: str
    count: int
    examples: list[FailureExample]  # the first few


@dataclass(frozen=True)
class FailureDetail:
    match: MatchRow
    status: str
    reason: str
    stderr_tail: str


@dataclass
class BotView:
    bot: BotRef
    rank: int
    description: str
    facts: list[Fact]
    opponents: list[OpponentRow]
    two_player: bool
    failure_groups: list[FailureGroup]
    failures: list[FailureDetail]
    failures_total: int
    matches: list[MatchRow]
    pager: Pager
    versions: list[VersionRow] = field(default_factory=list)  # once there is more than one
    state: str = ""  # "withdrawn: ..." or "suspended: ...": why it is out of the standings
    refused: list[SubmissionRow] = field(default_factory=list)  # its folder's refused versions


@dataclass
class BotMatchesView:
    bot: BotRef
    matches: list[MatchRow]
    pager: Pager


@dataclass
class MatchListView:
    matches: list[MatchRow]
    pager: Pager


