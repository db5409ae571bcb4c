"""Scoring helpers of Thousand: rounding, the bid ceiling, the write-off half, redeal hands
(docs/games/thousand.md §5, §6, §8; rules T-6, T-10, T-19, T-21)."""
from __future__ import annotations

from arena.games.thousand.cards import ACE_MARRIAGE_VALUE, MARRIAGE_VALUE, NINES, POINTS, has_four_aces, marriages_in


def round5(points: int) -> int:
    """A defender's score: the nearest multiple of 5 (…2 down, …3 up; T-10). Works below zero."""
    return (points + 2) // 5 * 5


def half_up5(contract: int) -> int:
    """What each opponent scores after a write-off: ceil(contract / 10) * 5 (T-19)."""
    return -(-contract // 10) * 5


def ceil5(x: int) -> int:
    return -(-x // 5) * 5


def marriage_total(hand, ace_marriage: bool) -> int:
    total = sum(MARRIAGE_VALUE[s] for s in marriages_in(hand))
    if ace_marriage and has_four_aces(hand):
        total += ACE_MARRIAGE_VALUE
    return total


def max_bid(hand, cap: int, ace_marriage: bool = False) -> int:
    """The highest bid or raise the hand allows: min(cap, 120 + marriages held) (T-6)."""
    return min(cap, 120 + marriage_total(hand, ace_marriage))


def prikup_score(prikup) -> int:
    """The sitting-out dealer's score in the 4-player game: the prikup's card points plus any
    marriage in it, rounded like a defender's score (docs/games/thousand.md §12, T-23)."""
    return round5(sum(POINTS[c] for c in prikup) + sum(MARRIAGE_VALUE[s] for s in marriages_in(prikup)))


def may_demand_redeal(hand, forced_100_declarer: bool) -> bool:
    """After the exchange: four nines (three for a forced-100 declarer) or < 14 card points (T-21)."""
    nines = sum(1 for c in hand if c in NINES)
    return nines >= (3 if forced_100_declarer else 4) or sum(POINTS[c] for c in hand) < 14
