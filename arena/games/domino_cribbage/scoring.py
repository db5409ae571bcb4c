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
    if count == 15:
        if rescore_zero or last != 0:
            items.append(FIFTEEN)
    elif count == 31:
        items.append(THIRTY_ONE)
    n = len(seq)
    if n < 2:
        return items
    if seq[-2] == last:
        k = 2
        while k < n and seq[-1 - k] == last:
            k += 1
        items.append(PAIR_ITEMS[k])
        return items  # a run needs distinct values, so it cannot end in a pair
    # the longest run: grow the window back from the last value until a value repeats (no
    # longer window can be a run then); a window of size i is a run when max - min = i - 1
    seen = {last}
    lo = hi = last
    best = 0
    for i in range(2, n + 1):
        x = seq[-i]
        if x in seen:
            break
        seen.add(x)
        if x < lo:
            lo = x
        elif x > hi:
            hi = x
        if i >= 3 and hi - lo == i - 1:
            best = i
    if best:
        items.append(RUN_ITEMS[best])
    return items


def peg_points(seq: list[int], count: int, rescore_zero: bool = True) -> int:
    return sum(item["points"] for item in peg_items(seq, count, rescore_zero))


_SUBSETS = [c for size in range(2, 6) for c in combinations(range(5), size)]
_PAIRS = list(combinations(range(5), 2))
# sorted values of five tiles -> (((kind, positions, points), ...), their points) for the
# fifteens, pairs and runs
_TEMPLATES: dict[tuple[int, ...], tuple[tuple[tuple[str, tuple[int, ...], int], ...], int]] = {}


def _templates(values: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...], int], ...]:
    """The scoring combinations of five values in ascending order, as positions among them."""
    out: list[tuple[str, tuple[int, ...], int]] = []
    for subset in _SUBSETS:
        if sum(values[i] for i in subset) == 15:
            out.append(("fifteen", subset, 2))
    for i, j in _PAIRS:
        if values[i] == values[j]:
            out.append(("pair", (i, j), 2))
    by_value: dict[int, list[int]] = {}
    for i, v in enumerate(values):
        by_value.setdefault(v, []).append(i)
    present = sorted(by_value)
    start = 0
    while start < len(present):
        end = start
        while end + 1 < len(present) and present[end + 1] == present[end] + 1:
            end += 1
        length = end - start + 1
        if length >= 3:
            for combo in product(*(by_value[v] for v in present[start:end + 1])):
                out.append(("run", combo, length))
        start = end + 1
    return tuple(out)


def show(tiles: list[int], starter: int, double_bonus: int = 1,
         starter_double_counts: bool = True) -> tuple[int, list[dict[str, Any]]]:
    """The show of four tiles (a hand or the crib) with the starter: ``(points, items)``.

    Items, in this order: each subset of the five tiles whose values sum to 15 (2 each); each
    unordered pair of equal values (2 each, so three of a kind makes 6 and four 12); each run,
    one tile of each value of a maximal block of L >= 3 consecutive values (L each: a double run
    is two items); each double tile (``double_bonus`` each, the starter only with
    ``starter_double_counts``). Every item names its ``tiles``, in ascending order of value (equal
    values: the hand's tiles in canonical order, then the starter).
    """
    five = sorted(tiles)
    five.append(starter)
    five.sort(key=VALUE.__getitem__)  # stable: equal values keep canonical order, starter last
    key = tuple([VALUE[t] for t in five])
    cached = _TEMPLATES.get(key)
    if cached is None:
        templates = _templates(key)
        cached = _TEMPLATES[key] = (templates, sum(t[2] for t in templates))
    templates, points = cached
    texts = [TEXT[t] for t in five]
    items: list[dict[str, Any]] = [
        {"kind": kind, "tiles": [texts[i] for i in positions], "points": p}
        for kind, positions, p in templates]
    if double_bonus:
        for t in tiles:
            if IS_DOUBLE[t]:
                items.append({"kind": "double", "tiles": [TEXT[t]], "points": double_bonus})
                points += double_bonus
        if starter_double_counts and IS_DOUBLE[starter]:
            items.append({"kind": "double", "tiles": [TEXT[starter]], "points": double_bonus})
            points += double_bonus
    return points, items


def show_items(tiles: list[int], starter: int, double_bonus: int = 1,
               starter_double_counts: bool = True) -> list[dict[str, Any]]:
    """The items of :func:`show`."""
    return show(tiles, starter, double_bonus, starter_double_counts)[1]


def show_points(tiles: list[int], starter: int, double_bonus: int = 1,
                starter_double_counts: bool = True) -> int:
    """The points of :func:`show`."""
    return show(tiles, starter, double_bonus, starter_double_counts)[0]
