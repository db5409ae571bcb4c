"""Scoring one roll of Dice 1000 (docs/games/dice-1000.md §2, rules D-3, D-4, D-12).

Only the dice of one roll combine, and every scoring die is always set aside in the
highest-scoring grouping, so a roll's score and the dice it uses depend only on how many times
each face appears. ``ROLL_TABLE`` holds that for every multiset of 1 to 5 dice, keyed by
``roll_key`` (the sum of ``KEY_WEIGHT[face]``, a base-6 count vector), so the engine scores a roll
with one list look-up.
"""
from __future__ import annotations

from itertools import combinations_with_replacement

# §2: points for c dice of one face; faces 1 and 5 score alone, the others from three up.
_ONES = (0, 10, 20, 100, 200, 1000)
_FIVES = (0, 5, 10, 50, 100, 500)
STRAIGHT_LOW = (1, 2, 3, 4, 5)    # 125 with the option `straights` (D-3)
STRAIGHT_HIGH = (2, 3, 4, 5, 6)   # 250 with the option `straights` (D-3)
STRAIGHT_POINTS = {STRAIGHT_LOW: 125, STRAIGHT_HIGH: 250}

KEY_WEIGHT = (0, 1, 6, 36, 216, 1296, 7776)  # KEY_WEIGHT[face]: a roll's key is the sum over its dice


def face_points(face: int, count: int) -> int:
    """§2: what ``count`` dice showing ``face`` score together (0 if they do not score)."""
    if face == 1:
        return _ONES[count]
    if face == 5:
        return _FIVES[count]
    if count >= 3:
        return face * (10, 20, 100)[count - 3]
    return 0


def score_dice(faces, straights: bool = False) -> tuple[int, tuple[int, ...]]:
    """(points, the faces set aside, sorted) for one roll, in its highest-scoring grouping.

    A roll that scores nothing is a bust: ``(0, ())``.
    """
    counts = [0] * 7
    for f in faces:
        counts[f] += 1
    points = 0
    kept: list[int] = []
    for face in range(1, 7):
        c = counts[face]
        p = face_points(face, c) if c else 0
        if p:
            points += p
            kept.extend([face] * c)
    ordered = tuple(sorted(faces))
    if straights and ordered in STRAIGHT_POINTS and STRAIGHT_POINTS[ordered] > points:
        return STRAIGHT_POINTS[ordered], ordered
    return points, tuple(kept)


def roll_key(faces) -> int:
    return sum(KEY_WEIGHT[f] for f in faces)


def _table(straights: bool) -> list:
    """ROLL_TABLE[key] = (points, number of dice set aside, the faces set aside as a list)."""
    table: list = [None] * (6 * KEY_WEIGHT[6])
    for n in range(1, 6):
        for faces in combinations_with_replacement(range(1, 7), n):
            points, kept = score_dice(faces, straights)
            table[roll_key(faces)] = (points, len(kept), list(kept))
    return table


ROLL_TABLE = _table(False)
ROLL_TABLE_STRAIGHTS = _table(True)


def roll_outcomes(dice: int, straights: bool = False) -> list[tuple[float, int, int]]:
    """The distribution of one roll of ``dice`` dice: [(probability, points, dice set aside)],
    one row per distinct (points, dice set aside), for bots and tests."""
    from itertools import product
    acc: dict[tuple[int, int], int] = {}
    for faces in product(range(1, 7), repeat=dice):
        points, kept = score_dice(faces, straights)
        acc[(points, len(kept))] = acc.get((points, len(kept)), 0) + 1
    total = 6 ** dice
    return [(c / total, p, k) for (p, k), c in sorted(acc.items())]
