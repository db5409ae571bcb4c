"""Statistics of pairs of entrants under duplicate play: pure functions, no I/O.

**Outcomes per duplicate set.** The matches of a duplicate set share one deal (one seed), and two
entrants at its table meet in each of its ``k`` matches (``k`` = the players per table; 1 without
duplicate deals). Entrant A's points against B in a match are 1 when A ranks above B, ½ on equal
ranks, 0 below; a set is summed, so it ends with 0, ½, 1, …, k points: ``2k + 1`` outcomes, and
``counts[i]`` is how many complete sets A ended with ``i/2`` points. For two players (``k`` = 2)
these are the five outcomes of a pair of matches on one deal with the seats swapped, 0, ½, 1, 1½
or 2 points of 2: the *pentanomial* count chess engine testers use. A set is counted only once
every one of its matches is played.

**The formulas followed** (cited, not copied; the numbers the tests check come from them):

- Logistic Elo: score ``s = 1 / (1 + 10^(-elo/400))`` and back (fishtest
  ``server/fishtest/stats/stat_util.py``: ``L`` and ``elo``, which clamps the score to
  [0.001, 0.999]).
- Regularisation: a count of zero becomes 0.001 before any estimate, so that all wins, all draws
  or a single outcome still give finite numbers (fishtest ``LLRcalc.regularize``; fastchess
  ``app/src/matchmaking/sprt/sprt.cpp`` does the same).
- The generalized log-likelihood ratio of H1 (expected score ``s1 = L(elo1)``) against H0
  (``s0 = L(elo0)``): for each hypothesis the maximum-likelihood distribution over the outcomes
  whose expectation is ``s`` is ``p_i = p̂_i / (1 + θ (a_i − s))``, where ``a_i`` is the outcome's
  score in [0, 1] and θ solves the secular equation ``Σ p̂_i (a_i − s) / (1 + θ (a_i − s)) = 0``
  (Michel Van den Bergh, "Comments on normalized Elo" and "support_MLE_multinomial",
  Proposition 1.1); the LLR is ``N Σ p̂_i (log p1_i − log p0_i)`` (fishtest
  ``LLRcalc.LLR_logistic``/``LLRjumps``/``MLE_expected``; fastchess ``getLLR_logistic``).
- Wald's bounds: H0 is accepted when the LLR falls to ``log(β / (1 − α))``, H1 when it reaches
  ``log((1 − β) / α)``.
- The Elo estimate and its 95 % interval: the mean score per match and its normal-approximation
  interval from the spread of the set scores, turned into Elo (fishtest ``stat_util.get_elo``).
- The adaptive format's stop: the same normal estimate under a normal prior of one spread τ,
  estimated by moments (the fitted strengths' variance less the trace of their covariance)
  and held at the margin or above (``field_posterior``); the chance that the ranking is wrong
  is bounded by the sum of its pairs' chances (Boole). A Bayesian chance stays calibrated
  under optional stopping when the prior is right (the posterior is a martingale; Berger and
  Wolpert, "The Likelihood Principle", 1988), which a fixed truth need not be.
- Elo fitted to a field: the Bradley–Terry model's maximum likelihood (Zermelo; Hunter, "MM
  algorithms for generalized Bradley–Terry models", 2004), with one drawn match each against a
  virtual entrant of Elo 0.
- The chance that A is the stronger: the fit's normal estimate (covariance: the inverse
  information, scaled by the dispersion) under a normal prior on the strengths of spread τ,
  mixed over τ by its marginal likelihood (empirical Bayes with the spread's uncertainty kept;
  Efron and Morris, "Stein's estimation rule and its competitors", 1973).
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

REGULARIZE = 1e-3      # what a zero count becomes before estimating (fishtest, fastchess)
SCORE_CLAMP = 1e-3     # scores are clamped to [0.001, 0.999] before turning into Elo (fishtest)
CONFIDENCE = 0.95
FIT_TOLERANCE = 1e-9   # Newton steps (natural log of the strength) smaller than this: done
FIT_ITERATIONS = 200
MAX_STEP = 2.0         # no Newton step larger than this (a safeguard far from the optimum)
ELO_SCALE = 400 / math.log(10)  # Elo per unit of the natural log of the strength


# ----- Elo and scores ---------------------------------------------------------------------------

def elo_to_score(elo: float) -> float:
    """The expected score per match of a side ``elo`` logistic Elo stronger."""
    return 1 / (1 + 10 ** (-elo / 400))


def score_to_elo(score: float) -> float:
    """The logistic Elo difference of an expected score, clamped to [0.001, 0.999] (±1200 Elo)."""
    score = min(max(score, SCORE_CLAMP), 1 - SCORE_CLAMP)
    return -400 * math.log10(1 / score - 1)


def regularize(counts: Sequence[float]) -> list[float]:
    """``counts`` with every zero replaced by a small prior (0.001)."""
    return [c if c else REGULARIZE for c in counts]


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds on the LLR: (accept H0 at or below, accept H1 at or above)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


# ----- the log-likelihood ratio ------------------------------------------------------------------

def _secular(pdf: Sequence[tuple[float, float]]) -> float:
    """θ solving Σ p_i a_i / (1 + θ a_i) = 0 for values a_i of both signs.

    The left side falls strictly from +∞ to −∞ on (−1/max a, −1/min a); a Newton step is taken
    whenever it stays inside the bracket, else the bracket is halved."""
    lo = -1 / max(a for a, _ in pdf)
    hi = -1 / min(a for a, _ in pdf)
    x = 0.0
    for _ in range(200):
        f = sum(p * a / (1 + x * a) for a, p in pdf)
        if f == 0:
            return x
        if f > 0:
            lo = x
        else:
            hi = x
        slope = -sum(p * a * a / (1 + x * a) ** 2 for a, p in pdf)
        step = x - f / slope
        nxt = step if lo < step < hi else (lo + hi) / 2
        if abs(nxt - x) <= 1e-15 * max(1.0, abs(x)):
            return nxt
        x = nxt
    return x


def mle_expected(pdf: Sequence[tuple[float, float]], s: float) -> list[float]:
    """The most likely distribution over ``pdf``'s values whose expectation is ``s``, given the
    observed frequencies (Van den Bergh, Proposition 1.1): its probabilities, in ``pdf``'s order."""
    shifted = [(a - s, p) for a, p in pdf]
    theta = _secular(shifted)
    return [p / (1 + theta * a) for a, p in shifted]


def _pdf(counts: Sequence[float]) -> tuple[float, list[tuple[float, float]]]:
    """(N, [(score of outcome i in [0, 1], observed frequency)]) of regularized counts."""
    reg = regularize(counts)
    n = sum(reg)
    last = len(reg) - 1
    return n, [(i / last, c / n) for i, c in enumerate(reg)]


def llr_logistic(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``), logistic Elo,
    for outcome counts of any length 2k+1 (5: the pentanomial; 3: loss, draw, win). No count: 0."""
    if not any(counts):
        return 0.0
    n, pdf = _pdf(counts)
    p0 = mle_expected(pdf, elo_to_score(elo0))
    p1 = mle_expected(pdf, elo_to_score(elo1))
    return n * sum(p * (math.log(b) - math.log(a)) for (_, p), a, b in zip(pdf, p0, p1))


# ----- estimates ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Estimate:
    """The score per match of one side of a pair, its interval, and the same in Elo."""

    sets: int            # complete duplicate sets counted
    matches: int         # matches in them
    score: float         # mean points per match, 0..1
    score_low: float     # its 95 % interval
    score_high: float
    elo: float           # score_to_elo(score)
    elo_low: float
    elo_high: float
    los: float           # likelihood of superiority: P(true score > ½), normal approximation

    @property
    def elo_margin(self) -> float:
        """Half the Elo interval's width: fishtest's "± elo95"."""
        return (self.elo_high - self.elo_low) / 2


def estimate(counts: Sequence[int], confidence: float = CONFIDENCE) -> Estimate | None:
    """Score and Elo with their interval from outcome counts of length 2k+1 (k matches a set),
    regularized as fishtest's ``get_elo`` does; None for no count at all."""
    if not any(counts):
        return None
    reg = regularize(counts)
    k = (len(reg) - 1) / 2
    sets = sum(reg)
    games = sets * k
    mu = sum(c * i / 2 for i, c in enumerate(reg)) / games
    var = sum(c * (i / 2 - k * mu) ** 2 for i, c in enumerate(reg)) / games
    spread = math.sqrt(var / games)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    low, high = mu - z * spread, mu + z * spread
    los = NormalDist().cdf((mu - 0.5) / spread) if spread > 0 else float(mu > 0.5)
    return Estimate(sets=sum(counts), matches=int(sum(counts) * k), score=mu,
                    score_low=max(0.0, low), score_high=min(1.0, high),
                    elo=score_to_elo(mu), elo_low=score_to_elo(low), elo_high=score_to_elo(high),
                    los=los)


# ----- Elo fitted to a field, and a belief about its strengths -------------------------------------

def bradley_terry_elo(entrants: Sequence[int], games: Mapping[tuple[int, int], int],
                      won: Mapping[tuple[int, int], float],
                      start: Mapping[int, float] | None = None) -> dict[int, float]:
    """Bradley–Terry Elo by maximum likelihood, one drawn match against a virtual entrant of Elo 0
    each (Newton steps entrant by entrant, a concave likelihood). ``games[(a, b)]`` (a < b): their
    matches together; ``won[(a, b)]``: a's points in them; ``start``: a fit to begin from."""
    ids = list(entrants)
    known = set(ids)
    scale = 400 / math.log(10)
    theta = {e: (start or {}).get(e, 0.0) / scale for e in ids}
    opponents: dict[int, list[tuple[int, int]]] = {e: [] for e in ids}
    wins = {e: 0.5 for e in ids}
    for (a, b), n in games.items():
        if a in known and b in known:
            opponents[a].append((b, n))
            opponents[b].append((a, n))
            wins[a] += won[(a, b)]
            wins[b] += n - won[(a, b)]
    gamma = {e: math.exp(theta[e]) for e in ids}
    for _ in range(FIT_ITERATIONS):
        worst = 0.0
        for e in ids:
            g = gamma[e]
            p = g / (g + 1)  # against the virtual entrant
            grad, curve = wins[e] - p, p * (1 - p)
            for o, n in opponents[e]:
                p = g / (g + gamma[o])
                grad -= n * p
                curve += n * p * (1 - p)
            step = max(-MAX_STEP, min(MAX_STEP, grad / curve))
            theta[e] += step
            gamma[e] = math.exp(theta[e])
            worst = max(worst, abs(step))
        if worst < FIT_TOLERANCE:
            break
    return {e: scale * theta[e] for e in ids}



def bradley_terry_information(elo: Mapping[int, float], games: Mapping[tuple[int, int], int]
                              ) -> list[list[float]]:
    """The observed Fisher information of :func:`bradley_terry_elo`'s fit at ``elo``, on the
    natural log of the strengths, rows and columns in ``elo``'s order (the virtual entrant's drawn
    match included, so every diagonal dominates)."""
    ids = list(elo)
    at = {e: i for i, e in enumerate(ids)}
    n = len(ids)
    theta = [elo[e] / ELO_SCALE for e in ids]
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        p = 1 / (1 + math.exp(-theta[i]))
        info[i][i] = p * (1 - p)
    for (a, b), count in games.items():
        if a in at and b in at:
            i, j = at[a], at[b]
            p = 1 / (1 + math.exp(theta[j] - theta[i]))
            w = count * p * (1 - p)
            info[i][i] += w
            info[j][j] += w
            info[i][j] -= w
            info[j][i] -= w
    return info


def inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """The inverse of a positive definite matrix (:func:`solve`)."""
    return solve(matrix)[0]


def bradley_terry_spread(elo: Mapping[int, float], games: Mapping[tuple[int, int], int],
                         pairs: Iterable[tuple[int, int]]) -> dict[tuple[int, int], float]:
    """The standard error (Elo) of ``elo[a] - elo[b]`` for each ``(a, b)`` in ``pairs``, from the
    fit of :func:`bradley_terry_elo` at ``elo``: the inverse of its likelihood's curvature
    (:func:`bradley_terry_information`), which folds in every match, so that two entrants who
    never met are still compared through their opponents."""
    at = {e: i for i, e in enumerate(elo)}
    cov = inverse(bradley_terry_information(elo, games))
    return {(a, b): ELO_SCALE * math.sqrt(max(0.0, cov[at[a]][at[a]] + cov[at[b]][at[b]]
                                              - 2 * cov[at[a]][at[b]]))
            for a, b in pairs}


SPREADS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.55, 0.7, 0.85, 1.0, 1.25, 1.5, 2.0, 3.0)  # the spreads tried


def solve(matrix: Sequence[Sequence[float]]) -> tuple[list[list[float]], float]:
    """The inverse of a positive definite matrix and the log of its determinant (Gauss–Jordan
    without pivoting; every pivot is positive)."""
    n = len(matrix)
    work = [list(row) for row in matrix]
    out = [[float(r == c) for c in range(n)] for r in range(n)]
    log_det = 0.0
    for c in range(n):
        log_det += math.log(work[c][c])
        pivot = 1 / work[c][c]
        work[c] = [x * pivot for x in work[c]]
        out[c] = [x * pivot for x in out[c]]
        # the columns of ``work`` before c are eliminated already, those of ``out`` after c
        # untouched (zero in row c): the rows change only in the others
        right, left = work[c][c:], out[c][:c + 1]
        for r in range(n):
            f = work[r][c]
            if r != c and f:
                work[r][c:] = [x - f * y for x, y in zip(work[r][c:], right)]
                out[r][:c + 1] = [x - f * y for x, y in zip(out[r][:c + 1], left)]
    return out, log_det


def field_posterior(elo: Mapping[int, float], games: Mapping[tuple[int, int], int],
                    dispersion: float, least: float) -> tuple[dict[int, float],
                                                              dict[tuple[int, int], float]]:
    """The strengths (Elo) of :func:`bradley_terry_elo`'s fit at ``elo`` pulled towards the
    field's mean by a normal prior, and the standard error of every difference: the fit as a
    normal estimate (its covariance the inverse of the information, scaled by ``dispersion``),
    the prior's spread τ estimated from the field (the fitted strengths' variance less what
    their own errors account for), never below ``least`` Elo. Returns (entrant -> Elo,
    (a, b) -> the standard error of a's Elo minus b's)."""
    ids = list(elo)
    n = len(ids)
    info = [[x / dispersion for x in row] for row in bradley_terry_information(elo, games)]
    cov = inverse(info)
    theta = [elo[e] / ELO_SCALE for e in ids]
    mean = sum(theta) / n
    spread = sum((t - mean) ** 2 for t in theta)
    noise = sum(cov[i][i] for i in range(n)) - sum(map(sum, cov)) / n  # Σ var(θ̂_i − mean)
    tau2 = max((least / ELO_SCALE) ** 2, (spread - noise) / max(1, n - 1))
    post = inverse([[info[r][c] + (1 / tau2 if r == c else 0.0) for c in range(n)]
                    for r in range(n)])
    pulled = [sum(info[r][c] * theta[c] for c in range(n)) + mean / tau2 for r in range(n)]
    centre = [sum(post[r][c] * pulled[c] for c in range(n)) for r in range(n)]
    errors = {(a, b): ELO_SCALE * math.sqrt(max(0.0, post[i][i] + post[j][j] - 2 * post[i][j]))
              for i, a in enumerate(ids) for j, b in enumerate(ids) if i != j}
    return {e: ELO_SCALE * c for e, c in zip(ids, centre)}, errors


def chances_above(elo: Mapping[int, float], games: Mapping[tuple[int, int], int],
                  dispersion: float = 1.0) -> dict[tuple[int, int], float]:
    """For every two entrants (a, b): the chance that a is truly the stronger, given the fit of
    :func:`bradley_terry_elo` at ``elo`` (a normal estimate, its covariance the inverse of the
    information, scaled by ``dispersion``: how the results spread against the model's
    independent wins and losses) and a prior that the field's strengths are drawn from one
    normal distribution of unknown spread τ. Each τ of SPREADS (0: a field of copies, where every
    chance is ½) is weighed by how likely it makes the fitted Elos (their spread against what
    their own errors account for), equally a priori; the chance is the mixture of the normal
    posteriors' Φ(mean difference / its standard deviation). Hedging over τ, rather than taking
    its estimate for certain, keeps a field of copies or of near-ties from being called apart."""
    ids = list(elo)
    n = len(ids)
    if n < 2:
        return {}
    info = [[x / dispersion for x in row] for row in bradley_terry_information(elo, games)]
    cov = inverse(info)
    theta = [elo[e] / ELO_SCALE for e in ids]
    mean = sum(theta) / n
    dev = [t - mean for t in theta]
    weights, chances = [], []
    for tau in SPREADS:
        if tau == 0:  # no spread: the data are noise around one strength
            inv, log_det = solve(cov)
            chance = [[0.5] * n for _ in range(n)]
        else:
            inv, log_det = solve([[cov[r][c] + (tau * tau if r == c else 0.0) for c in range(n)]
                                   for r in range(n)])
            precision = [[info[r][c] + (1 / tau ** 2 if r == c else 0.0) for c in range(n)]
                         for r in range(n)]
            post = inverse(precision)
            pulled = [sum(info[r][c] * theta[c] for c in range(n)) + mean / tau ** 2
                      for r in range(n)]
            centre = [sum(post[r][c] * pulled[c] for c in range(n)) for r in range(n)]
            chance = [[NormalDist().cdf((centre[i] - centre[j]) / math.sqrt(max(
                1e-300, post[i][i] + post[j][j] - 2 * post[i][j]))) if i != j else 0.5
                for j in range(n)] for i in range(n)]
        quad = sum(dev[r] * inv[r][c] * dev[c] for r in range(n) for c in range(n))
        weights.append(-0.5 * (quad + log_det))
        chances.append(chance)
    top = max(weights)
    weights = [math.exp(w - top) for w in weights]
    total = sum(weights)
    return {(a, b): sum(w * ch[i][j] for w, ch in zip(weights, chances)) / total
            for i, a in enumerate(ids) for j, b in enumerate(ids) if i != j}

# ----- counting outcomes per duplicate set ------------------------------------------------------

def points(ranks: Sequence[int], seat_a: int, seat_b: int) -> float:
    """A's points against B in one match: 1 ranked above, ½ equal, 0 below (1 = first)."""
    if ranks[seat_a] < ranks[seat_b]:
        return 1.0
    return 0.5 if ranks[seat_a] == ranks[seat_b] else 0.0


@dataclass(frozen=True)
class PairCounts:
    """A's outcomes against B, one count per number of points in a complete duplicate set."""

    a: int
    b: int
    counts: tuple[int, ...]   # counts[i]: complete sets in which A scored i/2 points
    incomplete: int = 0       # sets met in but not all played yet (left out of the counts)

    @property
    def sets(self) -> int:
        return sum(self.counts)

    @property
    def per_set(self) -> int:
        """Matches of a pair in one set (2 for two players with duplicate deals)."""
        return (len(self.counts) - 1) // 2

    def estimate(self) -> Estimate | None:
        return estimate(self.counts)

    def llr(self, elo0: float, elo1: float) -> float:
        return llr_logistic(self.counts, elo0, elo1)


def pair_counts(matches: Iterable[Any], set_size: int) -> dict[tuple[int, int], PairCounts]:
    """Outcome counts of every ordered pair (A, B) of entrants who met, from ``matches`` (objects
    with ``seed``, ``seats`` and ``ranks``: the matches of a duplicate set share their seed).
    ``set_size`` is how many matches of a set seat any two entrants of its table: the players per
    table with duplicate deals, else 1."""
    points_in: dict[tuple[int, int], dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for n, m in enumerate(matches):
        key = m.seed if set_size > 1 else n  # without duplicate deals, each match is its own set
        for sa, a in enumerate(m.seats):
            for sb, b in enumerate(m.seats):
                if sa != sb and a != b:
                    points_in[(a, b)][key].append(points(m.ranks, sa, sb))
    out = {}
    for (a, b), sets in points_in.items():
        counts = [0] * (2 * set_size + 1)
        incomplete = 0
        for pts in sets.values():
            if len(pts) == set_size:
                counts[round(2 * sum(pts))] += 1
            else:
                incomplete += 1
        out[(a, b)] = PairCounts(a, b, tuple(counts), incomplete)
    return out


__all__ = ["Estimate", "PairCounts", "bradley_terry_elo", "bradley_terry_information",
           "bradley_terry_spread", "chances_above", "elo_to_score", "inverse", "solve",
           "estimate", "llr_logistic", "mle_expected",
           "pair_counts", "points", "regularize", "score_to_elo", "field_posterior",
           "sprt_bounds"]
