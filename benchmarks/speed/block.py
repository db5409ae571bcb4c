"""Block engine speed: one 2-player deal through the interface next to a bare loop.

Both sides play one deal per seed (the same dealt hands, drawn from the same chance streams as the
engine draws them), with the same seeded random policy, so they make the same decisions. The
plain side is a loop over tuples and lists with the rules written inline. A decision is one
choice among the legal actions (forced passes are not decisions on either side).
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.game import Chance
from arena.games import get_game
from arena.games.block.tiles import TILES

LABEL = "block: one 2-player deal"
GAME = get_game("block")
OPTIONS = GAME.make_options(2, {"single_deal": True})


def interface_play(seed: int, policy: random.Random) -> tuple[int, tuple[int, ...]]:
    """One deal through the interface; returns (decisions, scores)."""
    state = GAME.new_match(OPTIONS, seed)
    decisions = 0
    choice = policy.choice
    while not state.is_terminal():
        state.apply(choice(state.legal_actions()))
        decisions += 1
    return decisions, state.scores()


def plain_play(seed: int, policy: random.Random) -> tuple[int, tuple[int, ...]]:
    """The same deal with no interface: tuples, lists and inline rules; returns (decisions, scores)."""
    chance = Chance(seed)
    seat = chance.stream("leader").randrange(2)  # the lottery and the deal, as the engine draws them
    tiles = list(TILES)
    chance.stream("deal", 1).shuffle(tiles)
    hands = [sorted(tiles[:7]), sorted(tiles[7:14])]
    choice = policy.choice
    # the lead: any tile
    hand = hands[seat]
    a, b = tile = choice(hand)
    hand.remove(tile)
    left, right = a, b
    decisions = 1
    winner = None
    while True:
        seat ^= 1
        moves = [(t, s) for t in hands[seat] for s, end in ((0, left), (1, right)) if end in t]
        if not moves:
            seat ^= 1
            moves = [(t, s) for t in hands[seat] for s, end in ((0, left), (1, right)) if end in t]
            if not moves:
                break  # blocked
        tile, side = choice(moves)
        decisions += 1
        hands[seat].remove(tile)
        a, b = tile
        if side == 0:
            left = b if a == left else a
        else:
            right = b if a == right else a
        if not hands[seat]:
            winner = seat
            break
    remaining = [sum(a + b for a, b in h) for h in hands]
    points = [0, 0]
    if winner is not None:
        points[winner] = remaining[1 - winner]
    elif remaining[0] != remaining[1]:
        w = 0 if remaining[0] < remaining[1] else 1
        points[w] = remaining[1 - w] - remaining[w]
    return decisions, tuple(points)
