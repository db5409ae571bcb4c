"""Block: plays the legal action whose tile has the most pips, to be caught with as few as possible."""
from protocol.sdk import run


def pips(action: str) -> int:
    """Pips of the tile in an action ("3-6:L" -> 9); a pass counts as nothing."""
    tile = action.partition(":")[0]
    return sum(int(half) for half in tile.split("-")) if "-" in tile else -1


run(lambda observation, legal: max(legal, key=pips))
