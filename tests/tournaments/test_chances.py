"""The chance that one entrant is stronger than another (``tournaments.chances``), the report's
"P(stronger)": calibrated on simulated fields with known strengths (of the claims made at about
p, about a fraction p come true), copies among them and fields of copies alone; and two copies
after two duplicate sets are not called 94 % apart, as TrueSkill's σ called them."""
from __future__ import annotations

import math
import random
from collections.abc import Iterator
from itertools import combinations
from typing import NamedTuple

import pytest

from tournaments.chances import chances
from tournaments.formats.adaptive import Met

BINS = 5           # claims oriented to at least ½, in bins of 10 points: 50-60 % … 90-100 %
MIN_CLAIMS = 200   # in each bin
TOLERANCE = 0.05   # the bin's mean claim and how often its claims came true


class Claim(NamedTuple):
    p: float       # the chance given that the first is stronger, at least ½
    true: float    # 1 when it is, 0 when the other is, ½ when they are equal (copies)


def ranks(a: float, b: float, luck: float, rng: random.Random, draws: float) -> list[int]:
    """One 2-player match: a draw with chance ``draws``, else the stronger performance wins (a
    strength, the seat's luck of the deal, a noise of its own)."""
    if rng.random() < draws:
        return [1, 1]
    return [1, 2] if a + luck + rng.gauss(0, 1) > b - luck + rng.gauss(0, 1) else [2, 1]


def field_claims(strength: list[float], rounds: int, duplicate: bool, draws: float,
                 rng: random.Random) -> Iterator[Claim]:
    """Play ``rounds`` round-robin rounds (each pair one set: two matches, the seats swapped, on
    one deal whose luck both see in turn when ``duplicate``), then every pair's claim."""
    n = len(strength)
    played, deal = [], 0
    for _ in range(rounds):
        for a, b in combinations(range(n), 2):
            luck = rng.gauss(0, 1) if duplicate else 0.0
            played.append(Met((a, b), ranks(strength[a], strength[b], luck, rng, draws), deal))
            luck = luck if duplicate else 0.0
            played.append(Met((b, a), ranks(strength[b], strength[a], -luck, rng, draws), deal))
            deal += 1
    got = chances(range(n), played, 2)
    for a, b in combinations(range(n), 2):
        p = got[(a, b)]
        true = 0.5 if strength[a] == strength[b] else float(strength[a] > strength[b])
        yield Claim(p, true) if p >= 0.5 else Claim(1 - p, 1 - true)


def claims(seed: int) -> list[Claim]:
    """Fields of 10 entrants after 1 to 5 rounds: strengths drawn from N(0, sd) with three copies
    of one entrant, one match per deal or duplicate sets, with draws or without; and fields of
    ten copies of one bot."""
    rng = random.Random(seed)
    out: list[Claim] = []
    for k in range(60):
        sd = (0.3, 0.6, 1.2)[k % 3]
        strength = [rng.gauss(0, sd) for _ in range(8)]
        strength += [strength[0]] * 2  # three copies of entrant 0
        rng.shuffle(strength)
        if k % 10 == 9:
            strength = [0.0] * 10  # copies alone
        out += field_claims(strength, 1 + k % 5, duplicate=k % 2 == 0, draws=(0.0, 0.15)[k // 2 % 2],
                            rng=rng)
    return out


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_chance_of_being_stronger_comes_true_as_often_as_it_says() -> None:
    got = claims(1) + claims(2) + claims(3)
    for b in range(BINS):
        low, high = 0.5 + b / 10, 0.6 + b / 10
        inside = [c for c in got if low <= c.p < high or (b == BINS - 1 and c.p == 1.0)]
        assert len(inside) >= MIN_CLAIMS, (low, len(inside))
        said = sum(c.p for c in inside) / len(inside)
        came = sum(c.true for c in inside) / len(inside)
        assert abs(said - came) <= TOLERANCE, (low, said, came, len(inside))


def test_copies_after_two_duplicate_sets_are_no_surer_than_a_coin() -> None:
    """Three copies of one deterministic bot after two duplicate sets a pair: the first seat wins
    every match (its seat's luck), so each set is split and every record is 50 %, as for the
    copies of greedy whose TrueSkill ratings called one above the other at 94 %."""
    played = []
    for pair, (a, b) in enumerate(combinations(range(3), 2)):
        for deal in (2 * pair, 2 * pair + 1):
            played.append(Met((a, b), [1, 2], deal))
            played.append(Met((b, a), [1, 2], deal))
    got = chances(range(3), played, 2)
    assert all(abs(p - 0.5) < 0.05 for p in got.values()), got


def test_a_field_that_differs_is_told_apart() -> None:
    """Four entrants far apart after three rounds: each is called stronger than the ones below it
    with a high chance (a prior estimated from the field shrinks only what it should)."""
    rng = random.Random(5)
    strength = [3.0, 1.5, 0.0, -1.5]
    played, deal = [], 0
    for _ in range(3):
        for a, b in combinations(range(4), 2):
            played.append(Met((a, b), ranks(strength[a], strength[b], 0.0, rng, 0.0), deal))
            played.append(Met((b, a), ranks(strength[b], strength[a], 0.0, rng, 0.0), deal))
            deal += 1
    got = chances(range(4), played, 2)
    assert all(got[(a, b)] > 0.75 for a, b in combinations(range(4), 2)), got
    assert math.isclose(got[(0, 1)] + got[(1, 0)], 1.0)
