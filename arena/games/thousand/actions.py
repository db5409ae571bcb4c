"""Action texts of Thousand, precomputed (docs/games/thousand.md §15).

"bid 115", "pass", "look", "dark", "prikup 0", "give QH 1", "bury QH", "rospis", "keep",
"raise 130", "redeal", "play on", "play QH", "play KH marriage".
"""
from __future__ import annotations

from arena.games.thousand.cards import CARD_TEXT, DECK

PASS, LOOK, DARK, ROSPIS, KEEP, REDEAL, PLAY_ON = "pass", "look", "dark", "rospis", "keep", "redeal", "play on"
BID_TEXT = {x: f"bid {x}" for x in range(100, 1001, 5)}
RAISE_TEXT = {x: f"raise {x}" for x in range(100, 1001, 5)}
PRIKUP_TEXT = ("prikup 0", "prikup 1")
PLAY_TEXT = tuple(f"play {CARD_TEXT[c]}" for c in DECK)
MARRIAGE_TEXT = tuple(f"play {CARD_TEXT[c]} marriage" for c in DECK)
GIVE_TEXT = tuple(tuple(f"give {CARD_TEXT[c]} {s}" for s in range(4)) for c in DECK)
GIVE_HIDDEN = tuple(f"give ? {s}" for s in range(4))
BURY_TEXT = tuple(f"bury {CARD_TEXT[c]}" for c in DECK)
BURY_HIDDEN = "bury ?"

# text -> (kind, value, extra)
ACTIONS: dict[str, tuple] = {PASS: ("pass", None, None), LOOK: ("look", None, None),
                             DARK: ("dark", None, None), ROSPIS: ("rospis", None, None),
                             KEEP: ("keep", None, None), REDEAL: ("redeal", None, None),
                             PLAY_ON: ("play_on", None, None)}
for _x, _t in BID_TEXT.items():
    ACTIONS[_t] = ("bid", _x, None)
for _x, _t in RAISE_TEXT.items():
    ACTIONS[_t] = ("raise", _x, None)
for _i, _t in enumerate(PRIKUP_TEXT):
    ACTIONS[_t] = ("prikup", _i, None)
for _c in DECK:
    ACTIONS[PLAY_TEXT[_c]] = ("play", _c, False)
    ACTIONS[MARRIAGE_TEXT[_c]] = ("play", _c, True)
    ACTIONS[BURY_TEXT[_c]] = ("bury", _c, None)
    for _s in range(4):
        ACTIONS[GIVE_TEXT[_c][_s]] = ("give", _c, _s)

_BIDS_CACHE: dict[tuple[int, int, int, str], list[str]] = {}


def bid_range(first: int, last: int, step: int, table: dict[int, str], head: str | None) -> list[str]:
    """[head] + texts of first, first+step, … ≤ last (cached; callers must not change it)."""
    key = (first, last, step, head or "")
    got = _BIDS_CACHE.get(key)
    if got is None:
        got = ([head] if head else []) + [table[x] for x in range(first, last + 1, step)]
        _BIDS_CACHE[key] = got
    return got
