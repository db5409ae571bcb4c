"""Plays the legal action whose tile has the most pips; a fair, deterministic Block opponent."""
from protocol.sdk import run


def pips(action: str) -> int:
    tile = action.split(":")[0]
    if "-" not in tile:
        return -1
    a, b = tile.split("-")
    return int(a) + int(b)


run(lambda observation, legal: max(legal, key=pips))
