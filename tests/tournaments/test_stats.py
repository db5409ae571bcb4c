"""Pair statistics and the SPRT's arithmetic (tournaments/stats.py, tournaments/formats/sprt.py).

The reference values are computed here again from the formulas' text (bisection where the module
takes Newton steps, plain sums where it loops), and checked against the numbers fastchess
publishes in its own tests (app/tests/sprt_test.cpp: "logistic pentanomial" and "logistic
trinomial", to 1 %, the precision they are published with).
"""
from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from tournaments.config import FormatConfig
from tournaments.formats.sprt import H0, H1, Played, SequentialTest, summarize
from tournaments.stats import (
    bradley_terry_elo,
    bradley_terry_spread,
    elo_to_score,
    estimate,
    field_posterior,
    llr_logistic,
    mle_expected,
    pair_counts,
    score_to_elo,
    sprt_bounds,
)

# ----- references, from the formulas' text -------------------------------------------------------

def ref_llr(counts: list[int], elo0: float, elo1: float) -> float:
    """Van den Bergh's generalized LLR: zero counts become 0.001; for each hypothesis the most
    likely distribution with expectation s is p̂_i / (1 + θ (a_i − s)), θ the root of
    Σ p̂_i (a_i − s) / (1 + θ (a_i − s)) = 0 (found by bisection); LLR = N Σ p̂_i log(p1_i / p0_i)."""
    reg = [c if c else 1e-3 for c in counts]
    n = sum(reg)
    values = [i / (len(reg) - 1) for i in range(len(reg))]
    freq = [c / n for c in reg]

    def mle(elo: float) -> list[float]:
        s = 1 / (1 + 10 ** (-elo / 400))
        lo, hi = -1 / (1 - s) + 1e-12, 1 / s - 1e-12
        for _ in range(300):
            mid = (lo + hi) / 2
            f = sum(p * (a - s) / (1 + mid * (a - s)) for a, p in zip(values, freq))
            lo, hi = (mid, hi) if f > 0 else (lo, mid)
        theta = (lo + hi) / 2
        return [p / (1 + theta * (a - s)) for a, p in zip(values, freq)]

    p0, p1 = mle(elo0), mle(elo1)
    return n * sum(p * math.log(b / a) for p, a, b in zip(freq, p0, p1))


def ref_elo(counts: list[int]) -> tuple[float, float, float]:
    """fishtest's get_elo for a count of length 2n+1: (elo, elo_low, elo_high) at 95 %."""
    reg = [c if c else 1e-3 for c in counts]
    n = (len(reg) - 1) / 2
    games = sum(reg) * n
    mu = sum(c * i / 2 for i, c in enumerate(reg)) / games
    var = sum(c * (i / 2 - n * mu) ** 2 for i, c in enumerate(reg)) / games
    half = 1.959963984540054 * math.sqrt(var) / math.sqrt(games)

    def elo(x: float) -> float:
        x = min(max(x, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / x - 1)

    return elo(mu), elo(mu - half), elo(mu + half)


PENTANOMIALS = [  # (counts LL..WW, elo0, elo1)
    ([10789, 19328, 33806, 19402, 10543], -3, 1),  # fishtest stat_util's own example count
    ([1, 60, 500, 1200, 600], 0, 50),
    ([3, 10, 25, 9, 1], 0, 50),
    ([0, 2, 5, 11, 7], 0, 20),
    ([4, 0, 0, 0, 1], -10, 10),
]


@pytest.mark.parametrize("counts, elo0, elo1", PENTANOMIALS)
def test_the_llr_is_van_den_berghs_generalized_llr(counts: list[int], elo0: float,
                                                   elo1: float) -> None:
    assert llr_logistic(counts, elo0, elo1) == pytest.approx(ref_llr(counts, elo0, elo1), abs=1e-7)


@pytest.mark.parametrize("counts, elo0, elo1, published", [
    ([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, -3.07),  # fastchess: logistic pentanomial 1
    ([871, 26175, 55003 + 980, 26678, 821], 0, 2, -4.98),      # fastchess: logistic pentanomial 2
    ([21184, 40708, 21404], 0.5, 2.5, -1.57),                  # fastchess: logistic trinomial 1
    ([57030, 106593, 57433], 0, 2, -2.59),                     # fastchess: logistic trinomial 2
])
def test_the_llr_matches_fastchess_published_numbers(counts: list[int], elo0: float, elo1: float,
                                                     published: float) -> None:
    assert llr_logistic(counts, elo0, elo1) == pytest.approx(published, rel=0.01)
    assert llr_logistic(counts, elo0, elo1) == pytest.approx(ref_llr(counts, elo0, elo1), abs=1e-6)


@pytest.mark.parametrize("counts", [c for c, _, _ in PENTANOMIALS] + [[5, 20, 7], [0, 1, 3, 0, 2, 1, 0]])
def test_the_elo_estimate_is_fishtests_get_elo(counts: list[int]) -> None:
    e = estimate(counts)
    elo, low, high = ref_elo(counts)
    assert e is not None
    assert (e.elo, e.elo_low, e.elo_high) == pytest.approx((elo, low, high), abs=1e-9)
    assert e.elo_margin == pytest.approx((high - low) / 2)  # fishtest's "± elo95"
    assert e.sets == sum(counts) and e.matches == sum(counts) * (len(counts) - 1) // 2
    assert e.score_low <= e.score <= e.score_high


def test_the_mle_keeps_the_expectation_and_sums_to_one() -> None:
    counts = [3, 10, 25, 9, 1]
    n = sum(counts)
    pdf = [(i / 4, c / n) for i, c in enumerate(counts)]
    for s in (0.3, 0.5, elo_to_score(50), 0.9):
        p = mle_expected(pdf, s)
        assert sum(p) == pytest.approx(1, abs=1e-12)
        assert sum(a * q for (a, _), q in zip(pdf, p)) == pytest.approx(s, abs=1e-12)
    # with the observed mean as the hypothesis, the most likely distribution is the observed one
    mean = sum(a * p for a, p in pdf)
    assert mle_expected(pdf, mean) == pytest.approx([p for _, p in pdf], abs=1e-12)


def test_logistic_elo_and_the_bounds() -> None:
    assert elo_to_score(0) == 0.5 and elo_to_score(400) == pytest.approx(10 / 11)
    assert score_to_elo(elo_to_score(123.4)) == pytest.approx(123.4)
    assert score_to_elo(1.0) == score_to_elo(0.999) == pytest.approx(1199.83, abs=0.01)  # clamped
    lower, upper = sprt_bounds(0.05, 0.05)
    assert (lower, upper) == pytest.approx((-2.944439, 2.944439), abs=1e-6)
    assert sprt_bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))


# ----- edge cases -----------------------------------------------------------------------------

def test_an_empty_count_has_no_evidence_and_no_estimate() -> None:
    assert llr_logistic([0, 0, 0, 0, 0], 0, 50) == 0.0
    assert estimate([0, 0, 0, 0, 0]) is None


def test_all_draws_is_evidence_for_h0_and_an_even_score() -> None:
    small, large = (llr_logistic([0, 0, n, 0, 0], 0, 50) for n in (10, 40))
    assert large < small < 0  # every pair even: nothing like 50 Elo, more so the more pairs
    assert small == pytest.approx(ref_llr([0, 0, 10, 0, 0], 0, 50), abs=1e-7)
    e = estimate([0, 0, 40, 0, 0])
    assert e is not None and e.score == pytest.approx(0.5) and e.elo == pytest.approx(0, abs=1e-9)
    assert e.elo_low < 0 < e.elo_high


def test_all_wins_is_evidence_for_h1_and_a_finite_elo() -> None:
    llr = llr_logistic([0, 0, 0, 0, 10], 0, 50)
    assert llr > 0 and llr == pytest.approx(ref_llr([0, 0, 0, 0, 10], 0, 50), abs=1e-7)
    e = estimate([0, 0, 0, 0, 10])
    assert e is not None and 800 < e.elo_low < e.elo <= 1200 and e.los == pytest.approx(1)
    e = estimate([10, 0, 0, 0, 0])
    assert e is not None and -1200 <= e.elo < -800


# ----- counting per duplicate set ---------------------------------------------------------------

def match(seed: int, seats: tuple[int, ...], ranks: tuple[int, ...]) -> SimpleNamespace:
    return SimpleNamespace(seed=seed, seats=seats, ranks=ranks)


def test_outcomes_are_counted_per_complete_duplicate_set() -> None:
    matches = [
        match(1, (0, 1), (1, 2)), match(1, (1, 0), (2, 1)),  # 0 wins both: 2 points
        match(2, (0, 1), (1, 1)), match(2, (1, 0), (1, 2)),  # a draw, then 1 wins: ½
        match(3, (0, 1), (2, 1)), match(3, (1, 0), (1, 2)),  # 1 wins both: 0
        match(4, (0, 1), (1, 2)),                            # a set half played: left out
    ]
    counts = pair_counts(matches, set_size=2)
    assert counts[(0, 1)].counts == (1, 1, 0, 0, 1) and counts[(0, 1)].incomplete == 1
    assert counts[(1, 0)].counts == (1, 0, 0, 1, 1)  # the mirror image
    assert counts[(0, 1)].sets == 3 and counts[(0, 1)].per_set == 2


def test_three_players_give_seven_outcomes_per_set() -> None:
    seats = [(0, 1, 2), (1, 2, 0), (2, 0, 1)]  # a table of three in its three rotations
    ranks = [(1, 2, 3), (1, 2, 3), (1, 2, 3)]  # seat 0 always first, seat 2 always last
    counts = pair_counts([match(9, s, r) for s, r in zip(seats, ranks)], set_size=3)
    # 0 against 1: first (seat 0), last (seat 2 of rotation 1), second above third (rotation 2)
    assert counts[(0, 1)].counts == (0, 0, 0, 0, 1, 0, 0)  # 2 points of 3
    assert len(counts) == 6


def test_without_duplicate_deals_a_set_is_one_match() -> None:
    counts = pair_counts([match(1, (0, 1), (1, 2)), match(2, (1, 0), (1, 1))], set_size=1)
    assert counts[(0, 1)].counts == (0, 1, 1)  # loss, draw, win


# ----- the sequential test ----------------------------------------------------------------------

FMT = FormatConfig(type="sprt", elo0=0.0, elo1=50.0, alpha=0.05, beta=0.05, max_matches=200)


def pairs_of(points: list[float]) -> dict[int, Played]:
    """Results of pairs in which the candidate (entrant 0) scores these points, seats alternating
    like the schedule's."""
    shares = {2.0: (1, 1), 1.5: (1, 0.5), 1.0: (1, 0), 0.5: (0.5, 0), 0.0: (0, 0)}
    ranks_of = {1: (1, 2), 0.5: (1, 1), 0: (2, 1)}  # (candidate's rank, baseline's rank)
    out = {}
    for p, pts in enumerate(points):
        for k, share in enumerate(shares[pts]):
            cand, base = ranks_of[share]
            seats = (0, 1) if (p + k) % 2 == 0 else (1, 0)
            out[2 * p + k + 1] = Played(seats, (cand, base) if seats == (0, 1) else (base, cand))
    return out


def test_the_test_stops_at_the_first_pair_past_a_bound() -> None:
    results = pairs_of([2.0] * 40)
    test = SequentialTest(FMT)
    assert test.advance(results) == H1
    lower, upper = sprt_bounds(0.05, 0.05)
    first = next(n for n in range(1, 41) if ref_llr([0, 0, 0, 0, n], 0, 50) >= upper)
    assert test.pairs == first and test.counts == [0, 0, 0, 0, first]
    assert test.llr == pytest.approx(ref_llr([0, 0, 0, 0, first], 0, 50))
    losses = SequentialTest(FMT)
    assert losses.advance(pairs_of([0.0, 0.5] * 20)) == H0 and losses.llr <= lower


def test_the_verdict_depends_on_the_results_only() -> None:
    """Results given all at once, pair by pair, or with gaps filled later: the same verdict at
    the same pair, and nothing after it counted."""
    points = [2.0, 1.0, 1.5, 0.5, 2.0, 1.5, 1.0, 2.0, 1.5, 2.0] * 4
    results = pairs_of(points)
    whole = SequentialTest(FMT)
    whole.advance(results)
    piecewise = SequentialTest(FMT)
    seen: dict[int, Played] = {}
    for mid in sorted(results, reverse=True):  # the last first: nothing counts until the gap closes
        seen[mid] = results[mid]
        piecewise.advance(seen)
        if mid > 1:
            assert piecewise.pairs == 0
    assert whole.verdict == piecewise.verdict == H1
    assert whole.counts == piecewise.counts and whole.llr == piecewise.llr
    assert 2 * whole.pairs < len(results)  # stopped before the end


def test_the_summary_line() -> None:
    summary = summarize(FMT, ["cand", "base"], pairs_of([2.0] * 40))
    line = summary.line()
    assert line.startswith("SPRT: H1 accepted after ")
    assert "cand (candidate) against base (baseline)" in line and "Elo +" in line
    assert f"LLR {summary.llr:.2f} (bounds -2.94, 2.94" in line
    assert summarize(FMT, ["cand", "base"], {}).line().startswith("SPRT: no verdict yet after 0 ")
    short = FormatConfig(type="sprt", elo0=0.0, elo1=50.0, alpha=0.05, beta=0.05, max_matches=20)
    even = summarize(short, ["cand", "base"], pairs_of([1.0, 1.5, 0.5, 1.0, 1.0] * 2))
    assert even.verdict is None and even.finished
    assert even.line().startswith("SPRT: no verdict after 10 duplicate pairs (20 matches), "
                                  "max_matches 20 reached")


# ----- the ranking's fit and its spread -------------------------------------------------------------

SCALE = 400 / math.log(10)  # Elo per unit of the natural log of strength


def test_the_spread_of_two_entrants_who_split_their_matches() -> None:
    """n even matches between 0 and 1, and each one's drawn match against the virtual entrant:
    both at Elo 0, every match's information ¼, so the curvature is ¼ [[1 + n, −n], [−n, 1 + n]]
    and the variance of the difference (natural log) is 8 / (1 + 2n)."""
    for n in (1, 10, 100):
        elo = bradley_terry_elo((0, 1), {(0, 1): n}, {(0, 1): n / 2})
        assert elo[0] == pytest.approx(0.0, abs=1e-6) and elo[1] == pytest.approx(0.0, abs=1e-6)
        spread = bradley_terry_spread(elo, {(0, 1): n}, [(0, 1), (1, 0)])
        assert spread[(0, 1)] == pytest.approx(SCALE * math.sqrt(8 / (1 + 2 * n)))
        assert spread[(1, 0)] == spread[(0, 1)]


def test_two_entrants_who_never_met_are_compared_through_a_common_opponent() -> None:
    """0 and 2 met only 1, in 20 matches each: their difference is known, less well than a
    direct one (the two links' variances nearly add up); an entrant with no match at all is
    known only through the virtual entrant."""
    games = {(0, 1): 20, (1, 2): 20}
    elo = bradley_terry_elo((0, 1, 2, 3), games, {(0, 1): 12.0, (1, 2): 12.0})
    assert elo[0] > elo[1] > elo[2]
    spread = bradley_terry_spread(elo, games, [(0, 1), (1, 2), (0, 2), (0, 3)])
    assert spread[(0, 1)] == pytest.approx(spread[(1, 2)])
    assert spread[(0, 2)] ** 2 == pytest.approx(2 * spread[(0, 1)] ** 2, rel=0.1)
    assert spread[(0, 2)] ** 2 < 2 * spread[(0, 1)] ** 2
    assert spread[(0, 3)] > 3 * spread[(0, 2)]


def test_the_field_posterior_pulls_a_lucky_start_towards_the_field() -> None:
    """Five entrants far apart, known well (200 matches a neighbour pair), and a sixth that won
    its 6 matches against the weakest: its fitted lead is big and barely known, and the prior
    fitted to the field pulls it back (the well-known pairs hardly move); a field whose spread
    is below ``least`` is held at ``least``, so the prior alone never makes two entrants level."""
    games = {(i, i + 1): 200 for i in range(4)} | {(4, 5): 6}
    won = {(i, i + 1): 140.0 for i in range(4)} | {(4, 5): 0.0}
    elo = bradley_terry_elo(range(6), games, won)
    centre, errors = field_posterior(elo, games, 1.0, 35.0)
    assert centre[5] - centre[4] < 0.8 * (elo[5] - elo[4])
    assert centre[0] - centre[1] == pytest.approx(elo[0] - elo[1], rel=0.05)
    assert errors[(0, 1)] == errors[(1, 0)] < errors[(4, 5)]
    tie = bradley_terry_elo((0, 1), {(0, 1): 4}, {(0, 1): 2.0})
    _, wide = field_posterior(tie, {(0, 1): 4}, 1.0, 35.0)
    assert wide[(0, 1)] > 35.0  # the prior's spread of a difference, √2 × 35, and the data's
