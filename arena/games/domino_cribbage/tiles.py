"""Tiles of the double-six set and the canonical text of Domino Cribbage actions
(docs/games/domino-cribbage.md, Actions).

A tile is an index 0..27 into ``TILES``, the tiles ``(a, b)`` with ``a <= b`` in ascending order
(``(0, 0), (0, 1), ..., (6, 6)``); its text is ``"a-b"`` and its value is its pip total ``a + b``
(0 to 12). Actions:

- ``"discard a-b c-d"``: the two tiles laid in the crib, in ``TILES`` order (``"discard 1-4 5-5"``);
- ``"a-b"``: play the tile ``[a|b]`` in the play (pegging).

Going on is compulsory and a go is automatic, so there is no "go" action. Every string is built
once here, so the engine hands out and compares interned constants.
"""
from __future__ import annotations

from itertools import combinations

TILES: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(7) for b in range(a, 7))
N_TILES = len(TILES)  # 28
TEXT: tuple[str, ...] = tuple(f"{a}-{b}" for a, b in TILES)
VALUE: tuple[int, ...] = tuple(a + b for a, b in TILES)
IS_DOUBLE: tuple[bool, ...] = tuple(a == b for a, b in TILES)
INDEX: dict[str, int] = {text: i for i, text in enumerate(TEXT)}

DISCARD_PREFIX = "discard "
# DISCARD_TEXT[i][j] for i < j: "discard a-b c-d" (None for i >= j)
_discard_rows: list[list[str | None]] = [[None] * N_TILES for _ in range(N_TILES)]
DISCARDS: dict[str, tuple[int, int]] = {}
for _i, _j in combinations(range(N_TILES), 2):
    _discard_rows[_i][_j] = _text = f"{DISCARD_PREFIX}{TEXT[_i]} {TEXT[_j]}"
    DISCARDS[_text] = (_i, _j)
DISCARD_TEXT: tuple[tuple[str | None, ...], ...] = tuple(tuple(row) for row in _discard_rows)


def parse_tile(text: str) -> int:
    """``"4-1"`` or ``"1-4"`` -> the index of ``[1|4]``; for tests and hand-built positions."""
    a, sep, b = text.strip().strip("[]").replace("|", "-").partition("-")
    x, y = int(a), int(b)
    if not sep or not (0 <= x <= 6 and 0 <= y <= 6):
        raise ValueError(f"not a double-six tile: {text!r}")
    return INDEX[f"{min(x, y)}-{max(x, y)}"]


def parse_tiles(text: str) -> list[int]:
    """``"2-3 5-5 [4|6]"`` -> tile indices, in the order written."""
    return [parse_tile(t) for t in text.replace(",", " ").split()]


def discard_text(a: int, b: int) -> str:
    """The canonical discard action for two tiles, in either order."""
    text = DISCARD_TEXT[min(a, b)][max(a, b)]
    assert text is not None, "a discard is two different tiles"
    return text
