"""The greedy Block player: score every legal action with a few rules of thumb, play the best.

``choose(observation, legal)`` is a pure function of what the seat knows (the observation of
``BlockState.observation``) and the legal action texts; ties go to the first action listed, so
the bot is deterministic. The rules of thumb, in rough order of weight:

- dump heavy tiles early: pips left in hand are what a deal's winner scores (or what we lose a
  blocked deal by), and doubles early, since a double fits one number only;
- keep playing: prefer a play after which we still hold tiles for the open ends, and that keeps
  many different numbers in hand;
- make the others pass: prefer ends that the next seats have shown they lack (a pass shows a void
  in both end values), and ends few unseen tiles can follow;
- close the deal only when it pays: if no unseen tile and none of ours fits the new ends, the
  deal is blocked; do it when our pips are below what the others probably hold, avoid it
  otherwise.
"""
from __future__ import annotations

from typing import Any

Tile = tuple[int, int]
ALL_TILES: list[Tile] = [(a, b) for a in range(7) for b in range(a, 7)]

# weights of the rules of thumb
W_PIPS = 1.0          # per pip shed
W_DOUBLE = 4.0        # shedding a double
W_FOLLOW = 1.5        # per tile kept that fits an open end after the play
W_VARIETY = 1.5       # per different number kept in hand
W_NEXT_VOID = 6.0     # the next seat has shown it holds neither new end
W_OTHER_VOID = 2.0    # a later seat has shown it holds neither new end
W_SCARCE = 1.2        # per unseen tile that could NOT follow the new ends
W_BLOCK = 1.0         # per pip of expected margin when the play blocks the deal


def parse(text: str) -> Tile:
    a, _, b = text.partition("-")
    x, y = int(a), int(b)
    return (x, y) if x <= y else (y, x)


def parse_action(action: str) -> tuple[Tile, int | None]:
    """``"a-b"`` -> (tile, None); ``"a-b:L"`` -> (tile, 0); ``"a-b:R"`` -> (tile, 1)."""
    text, _, side = action.partition(":")
    return parse(text), (None if not side else (0 if side == "L" else 1))


def after(ends: list[int] | None, tile: Tile, side: int | None) -> tuple[int, int]:
    """The open ends after playing ``tile`` on ``side`` (block.md §5)."""
    a, b = tile
    if side is None or ends is None:
        return (a, b)
    new = list(ends)
    new[side] = b if a == ends[side] else a
    return (new[0], new[1])


def voids(observation: dict[str, Any]) -> dict[int, set[int]]:
    """The numbers each seat has shown it lacks in this deal, from the passes in ``plays``."""
    out: dict[int, set[int]] = {}
    ends: list[int] | None = None
    for seat, action in observation.get("plays", []):
        if action == "pass":
            if ends is not None:
                out.setdefault(seat, set()).update(ends)
            continue
        tile, side = parse_action(action)
        ends = list(after(ends, tile, side))
    return out


def unseen_tiles(observation: dict[str, Any], hand: list[Tile]) -> list[Tile]:
    """Tiles that are neither in our hand nor on the table: in other hands or set aside."""
    seen = set(hand) | {parse(t) for t in observation.get("chain", [])}
    return [t for t in ALL_TILES if t not in seen]


def fits(tile: Tile, ends: tuple[int, int]) -> bool:
    return ends[0] in tile or ends[1] in tile


def score(observation: dict[str, Any], action: str, hand: list[Tile], unseen: list[Tile],
          shown_voids: dict[int, set[int]]) -> float:
    tile, side = parse_action(action)
    ends = observation.get("ends")
    new_ends = after(ends, tile, side)
    rest = [t for t in hand if t != tile]
    if not rest:
        return 1e9  # domino: the deal is ours
    value = W_PIPS * sum(tile) + W_DOUBLE * (tile[0] == tile[1])
    value += W_FOLLOW * sum(1 for t in rest if fits(t, new_ends))
    value += W_VARIETY * len({x for t in rest for x in t})

    n = observation["num_players"]
    seat = observation["seat"]
    for step in range(1, n):
        other = (seat + step) % n
        void = shown_voids.get(other, set())
        if new_ends[0] in void and new_ends[1] in void:
            value += W_NEXT_VOID if step == 1 else W_OTHER_VOID
    followers = sum(1 for t in unseen if fits(t, new_ends))
    value += W_SCARCE * (len(unseen) - followers)

    if followers == 0 and not any(fits(t, new_ends) for t in rest):
        # this play blocks the deal: compare our pips with what the others probably hold
        sizes = observation["hand_sizes"]
        mean = sum(sum(t) for t in unseen) / len(unseen) if unseen else 0.0
        lowest_other = min(sizes[s] for s in range(n) if s != seat) * mean
        margin = lowest_other - sum(sum(t) for t in rest)
        value += W_BLOCK * margin + (20.0 if margin > 0 else -20.0)
    return value


def choose(observation: dict[str, Any], legal: list[str]) -> str:
    """The legal action with the best score (the first one on ties)."""
    plays = [a for a in legal if a != "pass"]
    if len(plays) <= 1:
        return (plays or legal)[0]
    hand = [parse(t) for t in observation["hand"]]
    unseen = unseen_tiles(observation, hand)
    shown = voids(observation)
    return max(plays, key=lambda a: score(observation, a, hand, unseen, shown))
