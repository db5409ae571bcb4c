"""Points of Domino Cribbage: a tile played in the play, and the show of a hand or the crib
(docs/games/domino-cribbage.md, The play and The show).

Both return itemised points: a list of ``{"kind": ..., "points": ...}`` maps (the show's items also
name their ``tiles``), the way the events record them, so that a checker can agree or disagree
with each item.
"""
from __future__ import annotations

from itertools import combinations, product
from typing import Any

from arena.games.domino_cribbage.tiles import IS_DOUBLE, TEXT, VALUE

PAIR_KINDS = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}
FIFTEEN = {"kind": "fifteen", "points": 2}
THIRTY_ONE = {"kind": "thirty-one", "points": 2}
RUN_ITEMS = {n: {"kind": "run", "length": n, "points": n} for n in range(3, 14)}
PAIR_ITEMS = {k: {"kind": kind, "points": pts} for k, (kind, pts) in PAIR_KINDS.items()}


def peg_items(seq: list[int], count: int, rescore_zero: bool = True) -> list[dict[str, Any]]:
    """The points of the tile just played, whose value is ``seq[-1]``.

    ``seq`` holds the values of the current count sequence in order (the starter first when it
    opens the count), ``count`` the count after the play. Items, in this order: fifteen (the count
    is 15 after the play; a 0 tile played at 15 scores it again only with ``rescore_zero``),
    thirty-one, the pair family of the trailing equal values (2, 6 or 12), the longest run of the
    last n >= 3 values (distinct and consecutive in any order). The items are shared constants:
    do not change them.
    """
    items = []
    last = seq[-1]
    if count == 15 and (rescore_zero or last != 0):
        items.append(FIFTEEN)
    elif count == 31:
        items.append(THIRTY_ONE)
    n = len(seq)
    k = 1
    while k < n and seq[-1 - k] == last:
        k += 1
    if k >= 2:
        items.append(PAIR_ITEMS[k])
    elif n >= 3:
        # a run needs distinct values, so it cannot follow a pair
        for size in range(n, 2, -1):
            window = seq[-size:]
            if max(window) - min(window) == size - 1 and len(set(window)) == size:
                items.append(RUN_ITEMS[size])
                break
    return items


def peg_points(seq: list[int], count: int, rescore_zero: bool = True) -> int:
    return sum(item["points"] for item in peg_items(seq, count, rescore_zero))


_SUBSETS = [c for size in range(2, 6) for c in combinations(range(5), size)]


def show_items(tiles: list[int], starter: int, double_bonus: int = 1,
               starter_double_counts: bool = True) -> list[dict[str, Any]]:
    """The itemised show of four tiles (a hand or the crib) with the starter.

    Items, in this order: each subset of the five tiles whose values sum to 15 (2 each); each
    unordered pair of equal values (2 each, so three of a kind makes 6 and four 12); each run,
    one tile of each value of a maximal block of L >= 3 consecutive values (L each: a double run
    is two items); each double tile (``double_bonus`` each, the starter only with
    ``starter_double_counts``). Every item names its ``tiles``.
    """
    five = list(tiles) + [starter]
    values = [VALUE[t] for t in five]
    items: list[dict[str, Any]] = []
    for subset in _SUBSETS:
        if sum(values[i] for i in subset) == 15:
            items.append({"kind": "fifteen", "tiles": [TEXT[five[i]] for i in subset], "points": 2})
    for i, j in combinations(range(5), 2):
        if values[i] == values[j]:
            items.append({"kind": "pair", "tiles": [TEXT[five[i]], TEXT[five[j]]], "points": 2})
    by_value: dict[int, list[int]] = {}
    for t, v in zip(five, values):
        by_value.setdefault(v, []).append(t)
    present = sorted(by_value)
    start = 0
    while start < len(present):
        end = start
        while end + 1 < len(present) and present[end + 1] == present[end] + 1:
            end += 1
        length = end - start + 1
        if length >= 3:
            for combo in product(*(by_value[v] for v in present[start:end + 1])):
                items.append({"kind": "run", "tiles": [TEXT[t] for t in combo], "points": length})
        start = end + 1
    if double_bonus:
        for index, t in enumerate(five):
            if IS_DOUBLE[t] and (index < 4 or starter_double_counts):
                items.append({"kind": "double", "tiles": [TEXT[t]], "points": double_bonus})
    return items


def show_points(tiles: list[int], starter: int, double_bonus: int = 1,
                starter_double_counts: bool = True) -> int:
    return sum(i["points"] for i in show_items(tiles, starter, double_bonus, starter_double_counts))
