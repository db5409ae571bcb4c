"""Tiles of the double-six set and the canonical text of Block actions (block.md §1, §5).

A tile ``(a, b)`` with ``a <= b`` is written ``"a-b"``. Actions:

- ``"a-b"``: lead tile ``[a|b]`` into an empty chain (the ends become ``(a, b)``);
- ``"a-b:L"`` / ``"a-b:R"``: play ``[a|b]`` on the left / right open end;
- ``"pass"``: only when nothing can be played and forced passes are not automatic.

Every string is built once here, so the engine hands out and compares interned constants.
"""
from __future__ import annotations

Tile = tuple[int, int]

TILES: tuple[Tile, ...] = tuple((a, b) for a in range(7) for b in range(a, 7))
PASS = "pass"
LEFT, RIGHT = 0, 1


def tile_text(tile: Tile) -> str:
    return f"{tile[0]}-{tile[1]}"


def pips(tile: Tile) -> int:
    """block.md §1: pips([a|b]) = a + b."""
    return tile[0] + tile[1]


TILE_TEXT: dict[Tile, str] = {t: tile_text(t) for t in TILES}
# a tile as laid in the chain, left half first: (4, 1) -> "4-1"
ORIENTED_TEXT: dict[Tile, str] = {(a, b): f"{a}-{b}" for a in range(7) for b in range(7)}
LEAD_TEXT: dict[Tile, str] = dict(TILE_TEXT)
PLAY_TEXT: tuple[dict[Tile, str], dict[Tile, str]] = (
    {t: f"{tile_text(t)}:L" for t in TILES},
    {t: f"{tile_text(t)}:R" for t in TILES},
)

# text -> (tile, side); side is None for a lead
ACTIONS: dict[str, tuple[Tile, int | None]] = {}
for _t in TILES:
    ACTIONS[LEAD_TEXT[_t]] = (_t, None)
    ACTIONS[PLAY_TEXT[LEFT][_t]] = (_t, LEFT)
    ACTIONS[PLAY_TEXT[RIGHT][_t]] = (_t, RIGHT)

TILE_OF_TEXT: dict[str, Tile] = {text: t for t, text in TILE_TEXT.items()}


def ends_after(ends: tuple[int, int] | None, action: str) -> tuple[int, int]:
    """block.md §5: the open ends after ``action`` (a lead or a play, not a pass) from ``ends``:
    a lead's tile opens both; a tile played on a side leaves its other half open there."""
    (a, b), side = ACTIONS[action]
    if side is None:
        return (a, b)
    assert ends is not None  # a tile is played on an open end
    end = b if a == ends[side] else a
    return (end, ends[1]) if side == LEFT else (ends[0], end)


def parse_tile(text: str) -> Tile:
    """``"4-1"`` or ``"1-4"`` -> ``(1, 4)``; used by tests and hand-built positions."""
    a, _, b = text.partition("-")
    x, y = int(a), int(b)
    if not (0 <= x <= 6 and 0 <= y <= 6):
        raise ValueError(f"not a double-six tile: {text!r}")
    return (min(x, y), max(x, y))


def opening_rank(tile: Tile) -> tuple[bool, int, int]:
    """block.md B-3: doubles first, then the pip total, then the higher single half."""
    return (tile[0] == tile[1], pips(tile), tile[1])


def highest_opening_tile(hands: list[list[Tile]]) -> tuple[int, Tile]:
    """block.md B-3: the highest double, else the heaviest tile (higher single half breaks ties).

    Returns (seat, tile) of the tile that must open deal 1 under ``first_leader="highest_double"``.
    """
    return max(((seat, t) for seat, hand in enumerate(hands) for t in hand),
               key=lambda st: opening_rank(st[1]))
