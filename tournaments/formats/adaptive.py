"""The adaptive format (``[format] type = "adaptive"``): duplicate sets chosen where the ranking is
in doubt, until every pair of neighbours in it is settled or ``max_matches`` runs out.

Everything here is a pure function of the played results; nothing is read or written.

**The ranking.** Entrants are ordered by a logistic (Bradley–Terry) Elo fitted by maximum
likelihood to every pair's points in every match played: A scores 1 against B in a match when it
ranks above B, ½ on equal ranks, 0 below, and the model says A's expected score against B is
``1 / (1 + 10^(-(elo_A - elo_B)/400))``. Each entrant also holds one drawn match against a virtual
entrant of Elo 0, so that an entrant with no match (a newcomer) or only wins still has a finite
Elo. Equal Elo (to a thousandth) is ordered by entrant id.

**What the stop promises.** No entrant stands above one that beats it by more than ``margin``
(in score rate): an indifference zone, for the whole ranking at once. The stop comes when the
chances that each pair of the ranking (neighbours or not) stands the wrong way round by more
than the margin add up to at most 1 − ``confidence``; their sum bounds the chance that the
ranking is wrong anywhere. Whatever the truth inside the zone (copies, near-ties), that can be
reached, so the stop comes. A neighbour pair is *settled* once that sum is reached, or once the
pairs across it (one at or above it, one below) hold at most its share, (1 − ``confidence``) /
(entrants − 1): *ordered* when its chance of being the wrong way round at all is within that
share too, else *level*.

**The chances.** A belief about the entrants' strengths, given every match: the fit's Elos as a
normal estimate, its covariance the inverse of the fit's information (so a pair is also compared
through its common opponents), scaled by the field's *dispersion* (:func:`dispersion`: the
pairs' set scores spread less than independent wins and losses would, since a duplicate set
cancels luck and a draw is half a point), under a prior that the field's strengths are drawn
from one normal distribution, its spread estimated from the field and never below the margin
(``stats.field_posterior``). It pulls a pair that met in few sets towards the field, so that a
lucky start is not taken at its word. The chance is the belief's, a Bayesian one: on fields
whose strengths spread as the prior says it is calibrated however often it is looked at, and
the stop's rankings are right as often as it promises (benchmarks/adaptive.py); it is no bound
for every truth: for two entrants whose truth sits just beyond the margin it stops on the wrong
order more often than 1 − ``confidence`` (about 11 % at 95 %, docs/tournaments.md). A pair's
bounds (``low``, ``high``) are the belief's quantiles at ``confidence``.

**The choice.** A batch holds ``batch_sets`` sets. Each goes to the neighbour pair in doubt that
has not met yet, else to the one where one more set lowers most the chance that the ranking is
wrong, as far as it rests on that pair (:func:`urgency`: its own chance of standing the wrong way
round beyond the margin, and its part of every wider pair's across it, in proportion to its
variance among the neighbour pairs between them), the sets already chosen for it this batch
counted; then to the one whose entrants have played fewest sets (a newcomer first), then the
higher in the ranking. So the sets go where they settle most: a pair that one set nearly
settles gets it before a pair that needs dozens, and a pair that looks level yields to the
others as its sets grow. With more than
two players the table is the window of consecutive ranks around that pair holding the most pairs
in doubt. A set is one deal played once per cyclic rotation of its table's seats, the direction
around the table alternating from set to set. Set ``d`` (counted from 0) has the deal seed
``seeds.deal_seed(seed, d)``; match ids count from 1 in planning order. So the plan is a function
of the results of the batches before it: :class:`Plan` replays it from the stored results.

**A field that moves.** A new version, a late entrant, a withdrawal or a suspension begins a new
:class:`Epoch` after every stored match: its plan counts the earlier results among the versions
in play as known (``prior``), numbers its matches and deals after the stored ones, and counts the
matches before it against ``max_matches`` (``spent``). A newcomer, with no set yet, is chosen first.
Stored matches that do not follow the plan (made by an earlier arena's choice rule) begin a new
epoch the same way (:func:`resumed_plan`).
"""
from __future__ import annotations

import dataclasses
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, NamedTuple

from arena.errors import ArenaError
from arena.game import Game
from arena.text import visible_line
from tournaments.formats.protocol import Box, ConfigError, FormatConfig, Outcome, Start, StoreView
from tournaments.plan import PlannedMatch, Slot, among
from tournaments.schedule import Schedule, ScheduledMatch
from tournaments.seeds import deal_seed
from tournaments.stats import bradley_terry_elo, elo_to_score, field_posterior, points, score_to_elo

MATCHES_PER_WORKER = 4    # a batch: about this many matches for each match played at once
PRIOR_SETS = 20.0         # pseudo-sets of the model's own spread added to the dispersion's count
ORDERED, LEVEL, IN_DOUBT = "ordered", "level", "in doubt"
SETTLED, MAX_MATCHES = "settled", "max_matches"
EPOCH_KEY = "adaptive_epoch"  # the store's meta key of the current Epoch
ELO_SCALE = 400 / math.log(10)  # Elo per unit of the logistic model's natural log of strength
EVEN_MATCH = 0.25         # an even match's information on a difference of that log (p (1 - p))


class PlanMismatch(ArenaError):
    """A stored match that the plan gives to other entrants: the store's plan was made by
    another choice rule (an earlier arena)."""


class Met(NamedTuple):
    """A played match as the planner reads it: the entrant id in each seat, the ranks (1 = first)
    and its duplicate set (the deal number its matches share)."""

    seats: Sequence[int]
    ranks: Sequence[int]
    deal: int


@dataclass(frozen=True)
class Settings:
    players: int
    confidence: float
    margin: float
    max_matches: int
    seed: int
    batch_sets: int

    @staticmethod
    def of(fmt: FormatConfig, seed: int, workers: int) -> Settings:
        assert fmt.confidence is not None and fmt.margin is not None and fmt.max_matches is not None
        return Settings(fmt.players, fmt.confidence, fmt.margin, fmt.max_matches, seed,
                        batch_sets(workers, fmt.players))


def batch_sets(workers: int, players: int) -> int:
    """Sets in a batch for ``workers`` matches at once: about MATCHES_PER_WORKER matches each."""
    return max(1, math.ceil(MATCHES_PER_WORKER * max(1, workers) / players))


def round_robin_matches(entrants: int, players: int) -> int:
    """Matches in one round of the round-robin of the same field: every table, every rotation."""
    return math.comb(entrants, players) * players


# ----- the pair statistics ----------------------------------------------------------------------

@dataclass(frozen=True)
class PairState:
    """Two neighbours of the ranking: the upper one's expected score against the lower one by the
    ranking's fit, its one-sided lower bound, and the stopping rule's view of them."""

    above: int
    below: int
    sets: int             # complete sets the two met in
    score: float | None   # ``above``'s expected score against ``below`` by the belief; None: no data
    low: float            # at least this, at ``confidence``, by the belief (its quantile)
    high: float           # at most this, the same way
    ordered: float        # the confidence at which ``above`` is shown stronger (low above ½)
    level: float          # the confidence at which it is shown not weaker by more than the margin
    state: str            # ordered | level | in doubt
    needed: int = 0       # while in doubt: about how many more sets of the two settle it

    @property
    def shown(self) -> float:
        """The confidence of the state shown (the larger one while in doubt)."""
        if self.state == ORDERED:
            return self.ordered
        if self.state == LEVEL:
            return self.level
        return max(self.ordered, self.level)


def wrong_chance(diff: float, spread: float, step: float) -> float:
    """The chance, by the fit's belief about two entrants (their Elo difference ``diff``, of
    standard error ``spread``: normal), that the upper one is in truth below the lower one by
    more than ``step`` (Elo): that the pair stands the wrong way round beyond the margin."""
    if not math.isfinite(spread) or spread <= 0:
        return 1.0
    return NormalDist().cdf(-(diff + step) / spread)


def pair_state(above: int, below: int, sets: int, diff: float, spread: float, confidence: float,
               margin: float, players: int = 2, allowed: float | None = None,
               settled: bool | None = None) -> PairState:
    """The neighbour pair (``above``, ``below``) whose Elo difference by the fit is ``diff`` with
    standard error ``spread`` (Elo; the dispersion already counted), and who met in ``sets``
    complete sets. It is settled (``settled``, else when its own chance of standing the wrong
    way round beyond the margin is at most ``allowed``, by default 1 − ``confidence``):
    *ordered* when its chance of being the weaker at all is at most ``allowed`` too, else
    *level*."""
    if not math.isfinite(spread) or spread <= 0:
        return PairState(above, below, sets, None, 0.0, 1.0, 0.0, 0.0, IN_DOUBT)
    allowed = 1 - confidence if allowed is None else allowed
    step = score_to_elo(0.5 + margin)
    z = NormalDist().inv_cdf(confidence)
    low, high = diff - z * spread, diff + z * spread
    ordered = NormalDist().cdf(diff / spread)
    level = 1 - wrong_chance(diff, spread, step)
    if settled is None:
        settled = 1 - level <= allowed
    state = IN_DOUBT if not settled else ORDERED if 1 - ordered <= allowed else LEVEL
    needed = 0
    if state == IN_DOUBT:  # the standard error that settles it by itself, the difference kept ...
        target = (max(diff, 0.0) + step) / NormalDist().inv_cdf(1 - min(0.5, allowed))
        more = ELO_SCALE ** 2 * (1 / target ** 2 - 1 / spread ** 2)
        # ... as sets of the two, each as ``players`` even matches
        needed = max(1, math.ceil(more / (players * EVEN_MATCH)))
    return PairState(above, below, sets, elo_to_score(diff), elo_to_score(low),
                     elo_to_score(high), ordered, level, state, needed)


class Tally:
    """Every pair's points, counted as matches arrive: per match for the ranking's fit, per
    complete duplicate set for the intervals."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.points: dict[tuple[int, int], float] = defaultdict(float)  # (a, b): a's points vs b
        self.games: dict[tuple[int, int], int] = defaultdict(int)       # a < b: matches together
        self.sets: dict[tuple[int, int], list[float]] = defaultdict(list)  # a < b: a's set rates
        self.entrant_sets: dict[int, int] = defaultdict(int)
        self.moments: dict[tuple[int, int], list[float]] = {}  # a < b: sets, Σ rate, Σ rate²
        self._open: dict[tuple[int, int, int], list[float]] = defaultdict(list)  # (deal, a, b)
        self._seated: dict[int, int] = defaultdict(int)  # deal -> matches counted

    def add(self, match: Any) -> None:
        """Count one match (an object with ``seats``, ``ranks`` and ``deal``)."""
        seats, ranks = list(match.seats), list(match.ranks)
        for sa, a in enumerate(seats):
            for sb, b in enumerate(seats):
                if a < b:
                    pts = points(ranks, sa, sb)
                    self.points[(a, b)] += pts
                    self.points[(b, a)] += 1 - pts
                    self.games[(a, b)] += 1
                    got = self._open[(match.deal, a, b)]
                    got.append(pts)
                    if len(got) == self.players:  # the set is complete for this pair
                        rate = sum(got) / self.players
                        self.sets[(a, b)].append(rate)
                        m = self.moments.setdefault((a, b), [0.0, 0.0, 0.0])
                        m[0] += 1
                        m[1] += rate
                        m[2] += rate * rate
                        del self._open[(match.deal, a, b)]
        self._seated[match.deal] += 1
        if self._seated[match.deal] == self.players:
            for e in set(seats):
                self.entrant_sets[e] += 1

    def rates(self, a: int, b: int) -> list[float]:
        """a's score rate against b in each complete set they met in."""
        if a < b:
            return self.sets.get((a, b), [])
        return [1 - x for x in self.sets.get((b, a), [])]


@dataclass(frozen=True)
class Standing:
    """The ranking after some results, and every neighbour pair's state."""

    ranking: tuple[int, ...]           # entrant ids, best first
    elo: dict[int, float]
    pairs: tuple[PairState, ...]       # neighbours, from the top
    sets: dict[int, int]               # complete sets each entrant played
    spread: tuple[float, ...]          # each neighbour pair's Elo difference: its standard error
    cuts: tuple[float, ...] = ()       # below each rank: the chance a pair across it is wrong
    wrong: float = 1.0                 # the chance that any pair of the ranking is wrong
    blame: tuple[float, ...] = ()      # each neighbour pair's share of the others' (see urgency)
    centre: dict[int, float] = field(default_factory=dict)  # Elo pulled to the field's mean

    @property
    def settled(self) -> bool:
        return all(p.state != IN_DOUBT for p in self.pairs)

    def count(self, state: str) -> int:
        return sum(1 for p in self.pairs if p.state == state)


def dispersion(tally: Tally, elo: Mapping[int, float]) -> float:
    """How the spread of the pairs' set scores compares with the fit's own (independent matches of
    a win or a loss): the observed squares of their distance from the fit's expected score over
    the model's variance, summed over every pair's complete sets, with PRIOR_SETS sets at 1.
    Duplicate sets (the luck cancels) and draws make it smaller than 1; it scales the fit's
    variances."""
    k = tally.players
    prior = PRIOR_SETS * EVEN_MATCH / k
    seen, model = prior, prior
    for (a, b), (n, total, squares) in tally.moments.items():
        if a in elo and b in elo:
            p = elo_to_score(elo[a] - elo[b])
            seen += squares - 2 * p * total + n * p * p
            model += n * p * (1 - p) / k
    return seen / model


def standing(entrants: Sequence[int], tally: Tally, confidence: float, margin: float,
             start: Mapping[int, float] | None = None) -> Standing:
    elo = bradley_terry_elo(entrants, tally.games, tally.points, start)
    ranking = tuple(sorted(entrants, key=lambda e: (-round(elo[e], 3), e)))
    neighbours = list(zip(ranking, ranking[1:]))
    n = len(ranking)
    step = score_to_elo(0.5 + margin)
    centre, spread = field_posterior(elo, tally.games, dispersion(tally, elo), step)
    # every pair of the ranking, neighbours or not: its chance of standing the wrong way round
    # beyond the margin; their sum bounds the chance that the ranking is wrong anywhere, and
    # each cut (below rank r) holds the pairs across it
    cuts = [0.0] * max(0, n - 1)
    blame = [0.0] * max(0, n - 1)  # Σ over the pairs across r, not neighbours: w / Σ variances
    variance = [spread[pair] ** 2 for pair in neighbours]
    wrong = 0.0
    for i in range(n):
        total = 0.0
        for j in range(i + 1, n):
            a, b = ranking[i], ranking[j]
            w = wrong_chance(centre[a] - centre[b], spread[(a, b)], step)
            wrong += w
            total += variance[j - 1]
            for r in range(i, j):
                cuts[r] += w
                if j > i + 1 and total > 0:
                    blame[r] += w / total
    alpha = 1 - confidence
    share = alpha / max(1, n - 1)
    pairs = tuple(pair_state(a, b, len(tally.rates(a, b)), centre[a] - centre[b],
                             spread[(a, b)], confidence, margin, tally.players, share,
                             wrong <= alpha or cuts[r] <= share)
                  for r, (a, b) in enumerate(neighbours))
    return Standing(ranking, elo, pairs, {e: tally.entrant_sets.get(e, 0) for e in entrants},
                    tuple(spread[pair] for pair in neighbours), tuple(cuts), wrong,
                    tuple(blame), centre)


def standing_of(entrants: Sequence[int], played: Iterable[Any], players: int, confidence: float,
                margin: float) -> Standing:
    """The standing after ``played`` (objects with ``seats``, ``ranks`` and ``deal``: the
    matches among the current ``entrants``; others are left out)."""
    tally = Tally(players)
    known = set(entrants)
    for m in played:
        if all(e in known for e in m.seats):
            tally.add(m)
    return standing(entrants, tally, confidence, margin)


def urgency(now: Standing, r: int, extra: int, players: int, margin: float) -> float:
    """How much the chance that the ranking is wrong rests on neighbour pair ``r``: its own
    chance of standing the wrong way round beyond the margin, and its part of every wider pair's
    across it (the pairs it separates), in proportion to its variance among the neighbour pairs
    between them (the least known link carries most of the doubt); with the ``extra`` sets
    already chosen for it this batch counted (as ``players`` even matches each)."""
    above, below = now.ranking[r], now.ranking[r + 1]
    diff = now.centre[above] - now.centre[below]
    information = 1 / now.spread[r] ** 2 + extra * players * EVEN_MATCH / ELO_SCALE ** 2
    own = wrong_chance(diff, 1 / math.sqrt(information), score_to_elo(0.5 + margin))
    return own + now.blame[r] / information


def choose_tables(now: Standing, count: int, players: int, margin: float) -> list[tuple[int, ...]]:
    """The tables of the next ``count`` sets (entrant ids in ranking order); none when settled."""
    doubt = [r for r, p in enumerate(now.pairs) if p.state == IN_DOUBT]
    if not doubt:
        return []

    def gain(r: int, chosen: int) -> float:  # how much one more set of pair r settles
        return (urgency(now, r, chosen, players, margin)
                - urgency(now, r, chosen + 1, players, margin))

    extra = {r: 0 for r in range(len(now.pairs))}
    sets = dict(now.sets)
    rank = now.ranking
    n = len(rank)
    tables = []
    for _ in range(count):
        r = max(doubt, key=lambda r: (now.pairs[r].sets + extra[r] == 0, gain(r, extra[r]),
                                      -(sets[rank[r]] + sets[rank[r + 1]]), -r))
        starts = range(max(0, r + 2 - players), min(r, n - players) + 1)
        start = max(starts, key=lambda s: (sum(1 for q in range(s, s + players - 1) if q in doubt),
                                           -s))
        table = rank[start:start + players]
        for q in range(start, start + players - 1):
            extra[q] += 1
        for e in table:
            sets[e] += 1
        tables.append(table)
    return tables


def make_matches(tables: Sequence[tuple[int, ...]], seed: int, first_id: int, first_deal: int,
                 batch: int) -> list[ScheduledMatch]:
    """The matches of the sets at ``tables``: one deal each, once per rotation of the seats."""
    matches: list[ScheduledMatch] = []
    for t, table in enumerate(tables):
        deal = first_deal + t
        base = table if deal % 2 == 0 else table[::-1]
        size = len(base)
        for rotation in range(size):
            matches.append(ScheduledMatch(
                id=first_id + len(matches), round=batch, table=deal, rotation=rotation, deal=deal,
                seed=deal_seed(seed, deal), seats=tuple(base[(i + rotation) % size]
                                                        for i in range(size))))
    return matches


@dataclass
class Plan:
    """The adaptive tournament batch by batch: a batch is planned from the results of the batches
    before it, so replaying the stored results plans the same batches again."""

    settings: Settings
    entrants: tuple[int, ...]
    first_id: int = 1              # the id of the first match it plans, ...
    first_deal: int = 0            # ... and its deal number (both after an earlier field's)
    prior: tuple[Met, ...] = ()    # results among these entrants from before (an earlier field)
    spent: int = 0                 # matches played before, counted against max_matches
    batches: list[list[ScheduledMatch]] = field(default_factory=list)
    stop: str | None = None        # settled | max_matches, once over
    counted: int = 0               # matches in the complete batches counted
    tally: Tally = field(init=False)
    now: Standing = field(init=False)

    def __post_init__(self) -> None:
        self.tally = Tally(self.settings.players)
        for met in self.prior:
            self.tally.add(met)
        self.now = standing(self.entrants, self.tally, self.settings.confidence,
                            self.settings.margin)
        self._plan_next()

    @property
    def planned(self) -> int:
        return sum(len(b) for b in self.batches)

    def _plan_next(self) -> None:
        s = self.settings
        if self.now.settled:
            self.stop = SETTLED
            return
        room = (s.max_matches - self.spent - self.planned) // s.players
        if room <= 0:
            self.stop = MAX_MATCHES
            return
        tables = choose_tables(self.now, min(s.batch_sets, room), s.players, s.margin)
        first_deal = self.first_deal + self.planned // s.players
        self.batches.append(make_matches(tables, s.seed, self.first_id + self.planned, first_deal,
                                         len(self.batches)))

    def advance(self, results: Mapping[int, Any]) -> str | None:
        """Count every batch now complete in ``results`` (match id -> an object with ``seats``
        and ``ranks``), planning the next after each; returns the stop, if over."""
        while self.stop is None and all(m.id in results for m in self.batches[-1]):
            for m in self.batches[-1]:
                got = results[m.id]
                if tuple(got.seats) != m.seats:
                    raise PlanMismatch(f"match {m.id} was played by entrants {list(got.seats)}, but "
                                     f"the adaptive plan gives it to {list(m.seats)} (a store "
                                     "made by another version of arena?)")
                self.tally.add(Met(m.seats, got.ranks, m.deal))
            self.counted += len(self.batches[-1])
            self.now = standing(self.entrants, self.tally, self.settings.confidence,
                                self.settings.margin, self.now.elo)
            self._plan_next()
        return self.stop

    def left(self, results: Mapping[int, Any]) -> list[ScheduledMatch]:
        """The matches of the current batch not played yet (none once over)."""
        if self.stop is not None:
            return []
        return [m for m in self.batches[-1] if m.id not in results]

    def status(self) -> str:
        """For the progress line: the stopping rule's state."""
        n = self.now
        return (f"settled {len(n.pairs) - n.count(IN_DOUBT)}/{len(n.pairs)} neighbour pairs "
                f"({n.count(ORDERED)} ordered, {n.count(LEVEL)} level; chance of a wrong order "
                f"{_pct(min(1.0, n.wrong))})")

    def summary(self, names: Mapping[int, str]) -> Summary:
        s = self.settings
        return Summary(stop=self.stop, matches=self.spent + self.counted, max_matches=s.max_matches,
                       round_robin=round_robin_matches(len(self.entrants), s.players),
                       confidence=s.confidence, margin=s.margin,
                       ranking=tuple(names[e] for e in self.now.ranking),
                       elo=tuple(self.now.elo[e] for e in self.now.ranking),
                       pairs=self.now.pairs, names=dict(names), wrong=self.now.wrong)


@dataclass(frozen=True)
class Summary:
    """Where an adaptive tournament stands: the stop, the ranking and its neighbour pairs."""

    stop: str | None            # settled | max_matches | None (not over)
    matches: int                # matches of the complete batches counted
    max_matches: int
    round_robin: int            # matches in one round of the round-robin of this field
    confidence: float
    margin: float
    ranking: tuple[str, ...]    # best first
    elo: tuple[float, ...]      # the fitted Elo, in ranking order
    pairs: tuple[PairState, ...]
    names: dict[int, str]
    wrong: float | None = None  # the chance that anyone stands above one beating it by more

    @property
    def headline(self) -> str:
        if self.stop == SETTLED:
            return "Adaptive: ranking settled"
        if self.stop == MAX_MATCHES:
            return "Adaptive: max_matches reached"
        return "Adaptive: not settled yet"

    def pair_text(self, p: PairState) -> str:
        """The pair's state in words: ``settled: A above B (A scores 61 %, at least 55 % at 95 %
        confidence)``, ``in doubt: about 40 more sets needed (...)``."""
        a, b = self.names[p.above], self.names[p.below]
        if p.score is None:
            return f"in doubt: {a} and {b}, no result yet"
        conf = f"{100 * self.confidence:g} %"
        evidence = f"{a} scores {_pct(p.score)} against {b}, at least {_pct(p.low)}"
        if p.state == ORDERED:
            return f"settled: {a} above {b} ({evidence} at {conf} confidence)"
        if p.state == LEVEL:
            return (f"settled: {a} not below {b} by more than {_pct(self.margin)} ({evidence} at "
                    f"{conf} confidence)")
        return (f"in doubt: {a} and {b}, about {p.needed} more set{'s' if p.needed != 1 else ''} "
                f"needed ({evidence} so far at {conf} confidence)")

    def line(self) -> str:
        """The one line a run ends with."""
        doubt = sum(1 for p in self.pairs if p.state == IN_DOUBT)
        ordered = sum(1 for p in self.pairs if p.state == ORDERED)
        rounds = self.matches / self.round_robin if self.round_robin else 0.0
        return (f"{self.headline} after {self.matches} matches ({rounds:.2f} round-robin rounds "
                f"of {self.round_robin}; at most {self.max_matches}): of {len(self.pairs)} "
                f"neighbour pairs {ordered} ordered, {len(self.pairs) - ordered - doubt} level, "
                f"{doubt} in doubt (confidence {self.confidence:g} for the whole ranking, margin "
                f"{self.margin:g})")

    # ----- as a format's summary (tournaments.formats.protocol.Summary) -----

    @property
    def finished(self) -> bool:
        return self.stop is not None

    def text(self) -> str:
        """The ranking's neighbour pairs, one a line, then the stop (the last line)."""
        lines = ["neighbour pairs of the ranking (the adaptive format's stopping rule):"]
        lines += [f"  {visible_line(self.pair_text(p))}" for p in self.pairs]
        return "\n".join([*lines, self.line()])

    def box(self) -> Box:
        rounds = self.matches / self.round_robin if self.round_robin else 0.0
        stopped = {SETTLED: "settled: the whole ranking within the margin, at the confidence",
                   MAX_MATCHES: f"max_matches ({self.max_matches:,}) reached"}
        facts: tuple[tuple[str, str], ...] = (
            ("Stopped", stopped.get(self.stop or "", "not yet")),
            ("Matches", f"{self.matches:,}, {rounds:.2f} times the {self.round_robin:,} of one "
                        "round-robin round of this field"),
            ("Ranking", " > ".join(self.ranking)))
        if self.wrong is not None:
            facts += (("Chance of a wrong order", f"{_pct(min(1.0, self.wrong))} that anyone "
                       f"stands above an entrant that beats it by more than {_pct(self.margin)} "
                       f"(the stop asks at most {_pct(1 - self.confidence)})"),)
        rows = tuple((self.names[p.above], self.names[p.below], p.state, self.pair_text(p))
                     for p in self.pairs)
        return Box(id=NAME, headline=self.headline, line=self.line(), facts=facts,
                   caption="Neighbours in the ranking: their state, in the belief's expected score "
                           "of the one above against the one below and its lower bound",
                   header=("Above", "Below", "State", "In words"), rows=rows,
                   note="An adaptive tournament plays duplicate sets where its ranking is in "
                        "doubt, until the chance that anyone stands above an entrant that beats "
                        "it by more than the margin is at most 1 minus the confidence, for the "
                        "whole ranking at once (by a belief fitted to every match, calibrated on "
                        "simulated fields: whatever their truth inside the margin, a pair "
                        "settles), or max_matches is reached. The ranking is the order of an "
                        "Elo fitted to every match; the leaderboard and every page of this "
                        "report follow it.",
                   tone="h1" if self.stop == SETTLED else "none")

    def ranking_ids(self) -> tuple[int, ...]:
        ids = {name: e for e, name in self.names.items()}
        return tuple(ids[name] for name in self.ranking if name in ids)

    def ranked_by(self) -> tuple[str, str]:
        return ("ranked by the adaptive run's settled ranking",
                "Ranked, on every page of this report, by the adaptive run's ranking: the order "
                "of an Elo fitted to every match, which its stopping rule settled pair by pair "
                "(the box above).")

    def rules(self) -> dict[tuple[int, int], str]:
        out = {}
        for p in self.pairs:
            out[(p.above, p.below)] = out[(p.below, p.above)] = self.pair_text(p)
        return out

    def renamed(self, name: Callable[[str], str], ident: Callable[[int], int]) -> Summary:
        """Its pairs by entrant id, its ranking by name."""
        return dataclasses.replace(
            self, names={ident(e): name(n) for e, n in self.names.items()},
            ranking=tuple(name(n) for n in self.ranking),
            pairs=tuple(dataclasses.replace(p, above=ident(p.above), below=ident(p.below))
                        for p in self.pairs))


def _pct(rate: float) -> str:
    """A rate as a person reads it: whole percent (a tenth near 0 or 100)."""
    shown = f"{100 * rate:.0f}"
    if shown in ("0", "100") and 0 < rate < 1:
        shown = f"{100 * rate:.1f}"
    return f"{shown} %"


def replay(settings: Settings, entrants: Sequence[int], results: Mapping[int, Any]) -> Plan:
    """The plan as far as ``results`` (match id -> seats and ranks) take it."""
    plan = Plan(settings, tuple(entrants))
    plan.advance(results)
    return plan


@dataclass(frozen=True)
class Epoch:
    """The plan of one field: the versions it plans for (entrant id -> version) and where its
    matches start. A field that moves (a new version, a late entrant, a withdrawal, a
    suspension) starts a new epoch after every stored match; its plan counts the results among
    its versions from before as known, so a newcomer, holding none, is chosen first."""

    field: dict[int, int]
    first_id: int
    first_deal: int

    def to_json(self) -> dict[str, Any]:
        return {"field": {str(e): v for e, v in self.field.items()}, "first_id": self.first_id,
                "first_deal": self.first_deal}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Epoch:
        return Epoch({int(e): int(v) for e, v in data["field"].items()}, int(data["first_id"]),
                     int(data["first_deal"]))

    @staticmethod
    def after(field: Mapping[int, int], rows: Sequence[Any]) -> Epoch:
        """A new epoch for ``field`` after the stored matches ``rows``."""
        return Epoch(dict(field), 1 + max((r.id for r in rows), default=0),
                     1 + max((r.deal for r in rows), default=-1))


def epoch_plan(settings: Settings, epoch: Epoch, rows: Sequence[Any]) -> Plan:
    """The plan of ``epoch`` as far as the stored matches ``rows`` (with ``seats``, ``ranks``,
    ``deal`` and ``versions``) take it."""
    before = [r for r in rows if r.id < epoch.first_id]
    plan = Plan(settings, tuple(sorted(epoch.field)), epoch.first_id, epoch.first_deal,
                tuple(Met(r.seats, r.ranks, r.deal) for r in before if among(epoch.field, r)),
                len(before))
    plan.advance({r.id: r for r in rows if r.id >= epoch.first_id})
    return plan


def resumed_plan(settings: Settings, epoch: Epoch, rows: Sequence[Any]) -> tuple[Plan, Epoch]:
    """The plan of ``epoch`` as far as the stored ``rows`` take it; when they do not follow it (a
    plan made by an earlier arena's choice rule), a new epoch after every stored match, which
    counts them all as known and plans on from there."""
    try:
        return epoch_plan(settings, epoch, rows), epoch
    except PlanMismatch:
        again = Epoch.after(epoch.field, rows)
        return epoch_plan(settings, again, rows), again


def store_summary(store: Any) -> Summary:
    """Where the adaptive tournament in a (read-only) ``tournaments.store.Store`` stands. The
    batch size is the one of its first run (its workers)."""
    config = store.meta.config()
    runs = store.meta.runs()
    workers = runs[0].workers if runs else 1
    rows = store.matches.all()
    saved = store.meta.get(EPOCH_KEY)
    epoch = Epoch.from_json(saved) if saved else Epoch.after(store.field.current(), [])
    plan, _ = resumed_plan(Settings.of(config.format, config.seed, workers), epoch, rows)
    return plan.summary({e.id: e.name for e in store.field.entrants()})


# ----- the format (tournaments.formats.protocol) -----------------------------------------------

NAME = "adaptive"
DEFAULTS = {"confidence": 0.95, "margin": 0.05, "max_matches": 5000}


class AdaptiveRun:
    """An adaptive tournament's run: the plan of the field in play (:class:`Epoch`), replayed
    from the stored results, or begun afresh after them when the field has moved since (a new
    version, a late entrant, a withdrawal, a suspension). Its batch size follows the workers of
    the tournament's first run, whatever this one has."""

    def __init__(self, run: Start) -> None:
        self.run = run
        self.results: dict[int, Any] = {}
        self.plan = self.replan()
        self.left = max(0, self.settings.max_matches - len(run.rows))

    def replan(self) -> Plan:
        run, store = self.run, self.run.store
        rows = store.matches.all()
        self.results.update((r.id, r) for r in rows)
        current = store.field.current()
        saved = store.meta.get(EPOCH_KEY)
        epoch = Epoch.from_json(saved) if saved else None
        if epoch is None or epoch.field != current:
            epoch = Epoch.after(current, rows)
            store.meta.set(EPOCH_KEY, epoch.to_json())
        self.settings = Settings.of(run.config, run.seed, run.first_workers)
        plan, self.epoch = resumed_plan(self.settings, epoch, rows)
        if self.epoch != epoch:
            store.meta.set(EPOCH_KEY, self.epoch.to_json())
            run.say(f"the adaptive plan of {run.output!r} was made by an earlier arena: its "
                    f"{len(rows)} stored matches count as known, and the plan goes on from them")
        return plan

    def batch(self, keep: Callable[[PlannedMatch], bool]) -> list[PlannedMatch]:
        """What is left of the current batch, until the plan is over; an entrant suspended
        meanwhile (``keep`` refuses its matches) ends the epoch, and the field left is planned
        (also when the plan was just over: the standing it ends with is the field's in play)."""
        while True:
            while self.plan.advance(self.results) is None:
                field = self.epoch.field
                left = [PlannedMatch(m.id, -1, m.round, m.table, m.rotation, m.deal, m.seed,
                                     m.seats, tuple(field[e] for e in m.seats))
                        for m in self.plan.left(self.results)]
                kept = [m for m in left if keep(m)]
                if kept:
                    return kept
                self.plan = self.replan()
            if self.run.store.field.current() == self.epoch.field:
                return []
            self.plan = self.replan()

    def add(self, result: Outcome) -> None:
        self.results[result.id] = result
        self.plan.advance(self.results)

    def status(self) -> str | None:
        return self.plan.status()

    @property
    def decided(self) -> bool:
        return self.plan.stop is not None

    def summary(self, names: Mapping[int, str], order: Callable[[], Sequence[int]]) -> Summary:
        return self.plan.summary(names)


class Adaptive:
    """The format: no schedule in advance; duplicate sets where the ranking is in doubt."""

    name = NAME
    keys: tuple[str, ...] = tuple(DEFAULTS)
    late_entrants = True
    new_versions = True
    fixed = False

    def check(self, given: Mapping[str, Any], values: Mapping[str, Any], players: int,
              game: Game, source: str) -> dict[str, Any]:
        out = {k: values[k] if values[k] is not None else v for k, v in DEFAULTS.items()}
        if not 0.5 <= out["confidence"] < 1:
            raise ConfigError(f"{source}: 'format.confidence' must be at least 0.5 and less than "
                              f"1, got {out['confidence']!r}")
        if not 0 < out["margin"] < 0.5:
            raise ConfigError(f"{source}: 'format.margin' must be between 0 and 0.5 (exclusive), "
                              f"got {out['margin']!r}")
        if out["max_matches"] < 1:
            raise ConfigError(f"{source}: 'format.max_matches' must be at least 1, got "
                              f"{out['max_matches']}")
        if out["max_matches"] < players:
            raise ConfigError(f"{source}: 'format.max_matches' is {out['max_matches']}, less than "
                              f"one duplicate set of {players} matches")
        for key in ("confidence", "margin"):
            out[key] = float(out[key])
        return out

    def describe(self, f: FormatConfig) -> str:
        return (f"{NAME} (confidence {f.confidence:g}, margin {f.margin:g}), {f.players} players "
                f"per table, duplicate sets, at most {f.max_matches} matches")

    def facts(self, f: FormatConfig) -> dict[str, str]:
        return {"stopping rule": f"confidence {f.confidence:g} for the whole ranking, margin "
                                 f"{f.margin:g}, at most {f.max_matches} matches"}

    def entrants(self, f: FormatConfig, names: Sequence[str],
                 paths: Callable[[], Sequence[str]]) -> tuple[int, ...]:
        if len(names) < max(2, f.players):
            raise ConfigError(f"'entrants': {len(names)} entrant(s) for tables of {f.players}; "
                              f"an adaptive tournament needs at least {max(2, f.players)}")
        return ()

    def schedule(self, entrants: int, f: FormatConfig, seed: int,
                 candidates: Sequence[int]) -> Schedule:
        return Schedule((), (), 0)  # planned batch by batch from the results

    def planned(self, f: FormatConfig, entrants: int, schedule: Schedule) -> int:
        return f.max_matches or 0

    def join_slots(self, f: FormatConfig, newcomer: int, others: Sequence[int],
                   candidates: Sequence[int], slots: Sequence[Slot], sampled: bool,
                   seed: int) -> list[Slot]:
        return []  # it chooses a newcomer's sets itself, first

    def start(self, run: Start) -> AdaptiveRun:
        return AdaptiveRun(run)

    def read(self, store: StoreView, order: Sequence[int]) -> Summary:
        return store_summary(store)


ADAPTIVE = Adaptive()


__all__ = ["ADAPTIVE", "AdaptiveRun", "EPOCH_KEY", "Epoch", "IN_DOUBT", "LEVEL", "MAX_MATCHES",
           "NAME", "ORDERED", "SETTLED", "Met",
           "PairState", "Plan", "PlanMismatch", "epoch_plan", "resumed_plan",
           "Settings", "Standing", "Summary", "Tally", "batch_sets", "choose_tables",
           "make_matches", "pair_state", "replay", "urgency", "wrong_chance",
           "round_robin_matches", "standing", "standing_of", "store_summary"]
