"""Scoring of a finished Block deal (block.md §7, rule B-2, B-4)."""
from __future__ import annotations


def deal_points(remaining: list[int], domino_by: int | None) -> list[int]:
    """Points each seat wins for one deal, from the pip totals left in each hand.

    - Domino by ``w``: ``w`` scores the sum of the others' pips.
    - Blocked (``domino_by is None``): the sole lowest ``w`` scores the others' sum minus its own
      (once); a tie for lowest scores nothing. Nobody else ever scores.
    """
    points = [0] * len(remaining)
    total = sum(remaining)
    if domino_by is not None:
        points[domino_by] = total - remaining[domino_by]
        return points
    low = min(remaining)
    lowest = [seat for seat, r in enumerate(remaining) if r == low]
    if len(lowest) == 1:
        w = lowest[0]
        points[w] = total - 2 * remaining[w]
    return points
