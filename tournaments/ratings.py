"""Ratings: TrueSkill over the stored matches, applied in schedule order.

- One explicit ``trueskill.TrueSkill`` environment per tournament (never the module's global
  ``setup()``), with the package's standard μ, σ, β, τ and a draw probability that suits the
  game: the config's ``ratings.draw_probability``, or else the share of tied neighbours in the
  final ranking over seeded random playouts of the game with the tournament's options
  (:func:`estimate_draw_probability`; fixed when the store is created).
- A match is rated by its final ranks (1 = first; equal ranks are a tie), N players at once; a
  failed bot ranks last (the referee's rule).
- Matches are applied in schedule order, whatever order they finished in, so a parallel run and a
  serial run rate exactly alike.
- Only the matches among the current versions are rated (``store.matches.current()``): a match with
  an old, withdrawn or suspended version leaves the standings of everyone in it, and a withdrawn
  or suspended entrant has no standing.
- The leaderboard sorts by ``expose()`` = μ − 3σ, trueskill's documented leaderboard key, as
  shown (to 2 decimals); entrants level on it are ordered by :data:`TIE_BREAKS`, the one rule
  (:func:`leaderboard_order`), and each broken tie says what broke it (:class:`TieBreak`).
"""
from __future__ import annotations

import dataclasses
import random
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import trueskill

from arena.games import get_game
from arena.record import OK
from arena.text import visible_line
from tournaments.seeds import derive_seed
from tournaments.store import Entrant, MatchRow, Store

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = SIGMA / 100
DRAW_PLAYOUTS = 200


def make_env(draw_probability: float) -> trueskill.TrueSkill:
    """The rating environment of one tournament."""
    return trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU,
                               draw_probability=draw_probability, backend=None)


def estimate_draw_probability(game_name: str, options: dict[str, Any], players: int,
                              playouts: int = DRAW_PLAYOUTS, seed: int = 0) -> float:
    """How often neighbours in a final ranking tie, over seeded uniformly random playouts.

    TrueSkill's draw probability is the chance that two players next to each other in the ranking
    draw; random play is a rough but game-aware stand-in for equally matched bots. Never below
    1/(playouts × (players − 1)) (ties may be rare, not impossible) nor above 0.9.
    """
    game = get_game(game_name)
    floor = 1 / (playouts * (players - 1))
    if not game.can_draw:
        return round(floor, 4)  # only failed seats ever share a rank
    opts = game.make_options(players, options)
    rng = random.Random(derive_seed(seed, "draw-estimate"))
    neighbours = ties = 0
    for i in range(playouts):
        state = game.new_match(opts, derive_seed(seed, "draw-estimate", i))
        while not state.is_terminal():  # every match ends: the game caps its length
            state.apply(rng.choice(state.legal_actions()))
        ranks = sorted(state.result().ranks)
        neighbours += len(ranks) - 1
        ties += sum(1 for a, b in zip(ranks, ranks[1:]) if a == b)
    return round(min(0.9, max(floor, ties / max(1, neighbours))), 4)


# What orders entrants level on μ − 3σ as shown (to 2 decimals), in this order; then the name.
# "their matches against each other": the points of each in the matches among the level entrants
# only (1 for ranking above another of them, ½ for ranking level with one), a head-to-head.
TIE_BREAKS = ("their matches against each other", "wins", "average score")


def tie_rule(key: str = "μ − 3σ") -> str:
    """The rule in words, as the leaderboards say it (``key``: how they write μ − 3σ)."""
    return (f"bots level on {key} as shown are ordered by {TIE_BREAKS[0]}, then by "
            f"{TIE_BREAKS[1]}, then by {TIE_BREAKS[2]}")


@dataclass(frozen=True)
class TieBreak:
    """Why an entrant ranks above the next one, level with it on μ − 3σ as shown: the first of
    :data:`TIE_BREAKS` (or ``"name"``) that tells them apart, with both values as shown."""

    by: str
    ours: str
    theirs: str

    def text(self) -> str:
        """``ahead on wins, 12 to 10`` (what follows the two names)."""
        if self.by == "name":
            return "level on everything else too; ordered by name"
        return f"ahead on {self.by}, {self.ours} to {self.theirs}"


@dataclass(frozen=True)
class Standing:
    """One entrant's line of the leaderboard."""

    entrant: Entrant
    mu: float
    sigma: float
    matches: int
    wins: int      # sole first place
    draws: int     # first place shared
    losses: int
    average_score: float
    failures: dict[str, int] = field(default_factory=dict)  # status -> count (timeouts, crashes...)
    tie: TieBreak | None = None  # level with the next entrant on μ − 3σ as shown: what broke it

    @property
    def conservative(self) -> float:
        """μ − 3σ: the leaderboard key (trueskill's ``expose``)."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> str:
        """μ − 3σ as the leaderboards show it, to 2 decimals: equal texts are level."""
        text = f"{self.conservative:.2f}"
        return "0.00" if text == "-0.00" else text

    @property
    def failure_count(self) -> int:
        return sum(self.failures.values())


@dataclass(frozen=True)
class HistoryPoint:
    """Every entrant's (μ, σ) right after match ``match_id`` was rated."""

    match_id: int
    ratings: tuple[tuple[float, float], ...]  # indexed by entrant id


@dataclass(frozen=True)
class Pair:
    """Entrant a's results in the matches it played with entrant b at the table: won (ranked
    above b), drawn (level with b), lost (below b), its finishing places and both scores summed."""

    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    places: int = 0          # a's finishing places, summed
    score: int = 0           # a's scores, summed
    opponent_score: int = 0  # b's scores, summed

    @property
    def score_rate(self) -> float:
        """Wins and half the draws, of the matches."""
        return (self.wins + 0.5 * self.draws) / self.matches


class Result(Protocol):
    """A played match as the pair table reads it (``MatchRow``, or the report's ``MatchInfo``)."""

    @property
    def seats(self) -> tuple[int, ...]: ...
    @property
    def ranks(self) -> tuple[int, ...]: ...
    @property
    def scores(self) -> tuple[int, ...]: ...


def pair_table(matches: Iterable[Result]) -> dict[tuple[int, int], Pair]:
    """The head-to-head table: per ordered pair (a, b) of entrants who met, a's :class:`Pair`
    (an entrant at a table with itself meets no one)."""
    counts: dict[tuple[int, int], list[int]] = {}
    for m in matches:
        for sa, a in enumerate(m.seats):
            ra, score = m.ranks[sa], m.scores[sa]
            for sb, b in enumerate(m.seats):
                if sa == sb or a == b:
                    continue
                c = counts.get((a, b))
                if c is None:
                    c = counts[(a, b)] = [0, 0, 0, 0, 0, 0, 0]
                rb = m.ranks[sb]
                c[0] += 1
                c[1 if ra < rb else 3 if ra > rb else 2] += 1
                c[4] += ra
                c[5] += score
                c[6] += m.scores[sb]
    return {k: Pair(*c) for k, c in counts.items()}


@dataclass(frozen=True)
class Ratings:
    draw_probability: float
    standings: list[Standing]                 # best first
    history: list[HistoryPoint]               # schedule order
    pairs: dict[tuple[int, int], Pair]        # the head-to-head table (:func:`pair_table`)
    rated: int                                # matches rated
    planned: int                              # matches in the schedule
    players: int = 2                          # at a table

    @property
    def head_to_head(self) -> dict[tuple[int, int], tuple[int, int, int]] | None:
        """(a, b) -> a's wins, draws and losses against b, in a 2-player game (None in others)."""
        if self.players != 2:
            return None
        return {k: (p.wins, p.draws, p.losses) for k, p in self.pairs.items()}

    def standing(self, name: str) -> Standing:
        return next(s for s in self.standings if s.entrant.name == name)


def rate(entrants: Sequence[Entrant], matches: Sequence[MatchRow], draw_probability: float,
         *, players: int, planned: int | None = None,
         ranked: set[int] | None = None) -> Ratings:
    """Rate ``matches`` in schedule (id) order; the standings hold the entrants in ``ranked``
    (all when None)."""
    env = make_env(draw_probability)
    current = [env.create_rating() for _ in entrants]
    played = Counter[int]()
    results = {e.id: Counter[str]() for e in entrants}
    score_sum = Counter[int]()
    failures: dict[int, Counter[str]] = {e.id: Counter() for e in entrants}
    history: list[HistoryPoint] = []
    for match in sorted(matches, key=lambda m: m.id):
        groups = [(current[e],) for e in match.seats]
        rated = env.rate(groups, ranks=list(match.ranks))
        for seat, entrant in enumerate(match.seats):
            current[entrant] = rated[seat][0]
            played[entrant] += 1
            score_sum[entrant] += match.scores[seat]
            results[entrant][_outcome(match.ranks, seat)] += 1
            if match.statuses[seat] != OK:
                failures[entrant][match.statuses[seat]] += 1
        history.append(HistoryPoint(match.id, tuple((r.mu, r.sigma) for r in current)))
    standings = [
        Standing(entrant=e, mu=current[e.id].mu, sigma=current[e.id].sigma, matches=played[e.id],
                 wins=results[e.id]["win"], draws=results[e.id]["draw"],
                 losses=results[e.id]["loss"],
                 average_score=score_sum[e.id] / played[e.id] if played[e.id] else 0.0,
                 failures=dict(sorted(failures[e.id].items())))
        for e in entrants if ranked is None or e.id in ranked
    ]
    return Ratings(
        draw_probability=draw_probability, standings=leaderboard_order(standings, matches),
        history=history,
        pairs=pair_table(matches), rated=len(history),
        planned=planned if planned is not None else len(history), players=players)


def leaderboard_order(standings: Sequence[Standing], matches: Sequence[MatchRow]) -> list[Standing]:
    """The leaderboard's one order: by μ − 3σ as shown (to 2 decimals), best first; entrants level
    on it by :data:`TIE_BREAKS` (their matches against each other, then wins, then average score),
    then by name. The entrant above a level one carries the :class:`TieBreak` that put it there."""
    ordered = sorted(standings, key=lambda s: (-s.conservative, s.entrant.name))
    board: list[Standing] = []
    while ordered:
        level = [s for s in ordered if s.shown == ordered[0].shown]
        ordered = ordered[len(level):]
        if len(level) == 1:
            board += level
            continue
        points = _points_among({s.entrant.id for s in level}, matches)
        keys = {s.entrant.id: (points[s.entrant.id], s.wins, round(s.average_score, 1)) for s in level}
        level.sort(key=lambda s: (*(-k for k in keys[s.entrant.id]), s.entrant.name))
        for above, below in zip(level, level[1:]):
            tie = next((TieBreak(by, _shown(a), _shown(b))
                        for by, a, b in zip(TIE_BREAKS, keys[above.entrant.id], keys[below.entrant.id])
                        if _shown(a) != _shown(b)), TieBreak("name", above.entrant.name, below.entrant.name))
            board.append(dataclasses.replace(above, tie=tie))
        board.append(level[-1])
    return board


def _points_among(level: set[int], matches: Sequence[MatchRow]) -> dict[int, float]:
    """Each level entrant's points in the matches among the level entrants only: per other level
    entrant at the table, 1 for ranking above it, ½ for ranking with it."""
    points = {e: 0.0 for e in level}
    for match in matches:
        seats = [(e, r) for e, r in zip(match.seats, match.ranks) if e in level]
        for e, r in seats:
            points[e] += sum(1.0 if r < r2 else 0.5 if r == r2 else 0.0
                             for e2, r2 in seats if e2 != e)
    return points


def _shown(value: float) -> str:
    """A tie-break value as the leaderboard shows it: 12, 4.5 (points, wins, an average score to
    one decimal, which is what it is compared at)."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _outcome(ranks: Sequence[int], seat: int) -> str:
    if ranks[seat] != 1:
        return "loss"
    return "draw" if sum(1 for r in ranks if r == 1) > 1 else "win"


def compute_ratings(store: Store) -> Ratings:
    """The ratings of a store so far: the matches among current versions only, and the entrants
    in play (a withdrawn or suspended entrant is out of the standings)."""
    config = store.meta.config()
    return rate(store.field.entrants(), store.matches.current(), store.meta.draw_probability,
                players=config.format.players, planned=store.meta.planned,
                ranked=set(store.field.current()))


def version_ratings(store: Store) -> dict[tuple[int, int], Standing]:
    """(entrant id, version) -> the standing of that version, every version rated as a player
    of its own over every match it played (against whichever versions it met)."""
    config = store.meta.config()
    entrants = {e.id: e for e in store.field.entrants()}
    keys = [(v.entrant, v.version) for v in store.field.versions()]
    index = {key: i for i, key in enumerate(keys)}
    players = [Entrant(i, f"{entrants[e].name} v{v}", entrants[e].path, "")
               for i, (e, v) in enumerate(keys)]
    rows = [dataclasses.replace(m, seats=tuple(index[(e, v)] for e, v in zip(m.seats, m.versions)))
            for m in store.matches.iter()
            if all((e, v) in index for e, v in zip(m.seats, m.versions))]
    rated = rate(players, rows, store.meta.draw_probability, players=config.format.players)
    return {keys[s.entrant.id]: s for s in rated.standings}


# ----- terminal tables ------------------------------------------------------------------------

def in_order(ratings: Ratings, order: Sequence[int], words: str) -> tuple[Ratings, str]:
    """The leaderboard in the order of a format that ranks the field itself (``order``: entrant
    ids, best first, as the report follows it; ``words``: its name, the format's ``ranked_by``),
    and the heading that says which order it is and where μ − 3σ would differ; with no such
    order, TrueSkill's μ − 3σ and its tie rule."""
    if not order:
        return ratings, f"ranked by mu - 3 sigma; {tie_rule('mu - 3 sigma')}"
    place = {e: i for i, e in enumerate(order)}
    trueskill = ratings.standings
    standings = sorted((dataclasses.replace(s, tie=None) for s in trueskill),
                       key=lambda s: place.get(s.entrant.id, len(place)))  # stable: μ − 3σ after
    moved = sum(1 for a, b in zip(trueskill, standings) if a.entrant.id != b.entrant.id)
    differ = (f"mu - 3 sigma would place {moved} of {len(standings)} bots elsewhere" if moved
              else "mu - 3 sigma gives the same order")
    heading = (f"{words}; mu - 3 sigma, mu and sigma are shown for the uncertainty of each "
               f"rating, not as the order: {differ}")
    return dataclasses.replace(ratings, standings=standings), heading


def format_leaderboard(ratings: Ratings) -> str:
    """The leaderboard as a plain-text table, best first."""
    header = ("rank", "entrant", "mu-3sigma", "mu", "sigma", "matches", "wins", "avg score",
              "failures")
    rows = []
    for i, s in enumerate(ratings.standings, 1):
        fails = str(s.failure_count)
        if s.failures:
            fails += " (" + ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in s.failures.items()) + ")"
        rows.append((str(i), visible_line(s.entrant.name), f"{s.conservative:.2f}", f"{s.mu:.2f}",
                     f"{s.sigma:.2f}", str(s.matches), str(s.wins), f"{s.average_score:.1f}", fails))
    right = {0, 2, 3, 4, 5, 6, 7}
    return "\n".join([_table(header, rows, right), *tie_lines(ratings.standings)])


def tie_lines(standings: Sequence[Standing]) -> list[str]:
    """Under the leaderboard, for each tie broken: who is level with whom, and what put the one
    above the other."""
    return [f"tie: {visible_line(a.entrant.name)} and {visible_line(b.entrant.name)} are level on "
            f"mu-3sigma {a.shown}; {visible_line(a.entrant.name)} is {a.tie.text()}"
            for a, b in zip(standings, standings[1:]) if a.tie is not None]


def format_head_to_head(ratings: Ratings) -> str:
    """Wins-draws-losses of each row entrant against each column entrant (2-player games)."""
    h2h = ratings.head_to_head
    if h2h is None:
        return ""
    order = [s.entrant for s in ratings.standings]
    header = ("", "entrant", *(str(i) for i in range(1, len(order) + 1)))
    rows = []
    for i, a in enumerate(order, 1):
        cells = []
        for b in order:
            if a.id == b.id:
                cells.append("-")
            else:
                won, drawn, lost = h2h.get((a.id, b.id), (0, 0, 0))
                cells.append(f"{won}-{drawn}-{lost}" if won + drawn + lost else ".")
        rows.append((str(i), visible_line(a.name), *cells))
    return _table(header, rows, right=set(range(2, len(header))) | {0})


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: wide (East Asian) characters take two, combining
    marks none, so that names like '小明' or 'José' keep the table's columns in line."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _pad(text: str, width: int, right: bool) -> str:
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> str:
    widths = [max(display_width(r[i]) for r in (header, *rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(_pad(c, w, i in right)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])
