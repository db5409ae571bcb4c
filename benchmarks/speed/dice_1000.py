"""Engine speed of Dice 1000: one whole 2-player match (rule set A) per seed.

``interface_play`` goes through ``Game.new_match`` / ``legal_actions`` / ``apply`` (events,
action strings, forced rolls and all); ``plain_play`` is a bare loop with the same rules written
inline over ints and lists, drawing the same dice from the same named chance streams, so with the
same seeded random policy both make the same decisions and end with the same scores. A decision
is one real choice between "roll" and "stop" (forced rolls are not decisions on either side).
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.game import Chance
from arena.games import get_game
from arena.games.dice_1000.scoring import KEY_WEIGHT, ROLL_TABLE

LABEL = "dice-1000: one whole 2-player match (rule set A)"

GAME = get_game("dice-1000")
OPTIONS = GAME.make_options(2)
ACTIONS = ["roll", "stop"]


def interface_play(seed: int, policy: random.Random) -> tuple[int, tuple[int, ...]]:
    state = GAME.new_match(OPTIONS, seed)
    decisions = 0
    choice = policy.choice
    while not state.is_terminal():
        state.apply(choice(state.legal_actions()))
        decisions += 1
    return decisions, state.scores()


def plain_play(seed: int, policy: random.Random) -> tuple[int, tuple[int, ...]]:
    """docs/games/dice-1000.md §3, §5, §6 (barrel "points" at 880), inline."""
    chance = Chance(seed)
    choice = policy.choice
    w = KEY_WEIGHT
    seat = chance.stream("first").randrange(2)
    scores = [0, 0]
    opened = [False, False]
    bolts = [0, 0]
    barrel = [False, False]
    attempts = [0, 0]
    falls = [0, 0]
    turns = [0, 0]
    decisions = 0
    while True:
        turns[seat] += 1
        r = chance.stream("turn", seat, turns[seat]).random
        old = scores[seat]
        total, dice = 0, 5
        banked = False
        while True:
            key = 0
            for _ in range(dice):
                key += w[int(r() * 6) + 1]
            points, used, _ = ROLL_TABLE[key]
            if not points:
                break
            total += points
            if used == dice:
                dice = 5
                continue  # hot dice: roll again
            dice -= used
            if not opened[seat] and total < 75:
                continue
            if (200 <= old < 300 and old + total < 300) or (600 <= old < 700 and old + total < 700):
                continue
            if barrel[seat] and old + total < 1000:
                continue
            decisions += 1
            if choice(ACTIONS) == "stop":
                banked = True
                break
        other = 1 - seat
        if banked:
            new = old + total
            opened[seat] = True
            if new >= 1000:
                scores[seat] = new
                return decisions, tuple(scores)
            if new >= 880:
                new = 880
                barrel[seat] = True
                attempts[seat] = 0
                if barrel[other]:
                    barrel[other] = False
                    falls[other] += 1
                    scores[other] = 0 if falls[other] % 3 == 0 else scores[other] - 100
            scores[seat] = new
            if old < scores[other] < new:
                scores[other] -= 50
        else:
            if opened[seat] and not barrel[seat] and not (200 <= old < 300 or 600 <= old < 700):
                bolts[seat] += 1
                if bolts[seat] == 3:
                    bolts[seat] = 0
                    scores[seat] -= 100
            if barrel[seat] and scores[seat] < 880:
                barrel[seat] = False
            if barrel[seat]:
                attempts[seat] += 1
                if attempts[seat] == 3:
                    barrel[seat] = False
                    falls[seat] += 1
                    scores[seat] = 0 if falls[seat] % 3 == 0 else scores[seat] - 100
        for q in (0, 1):
            if scores[q] < 0:
                scores[q] = 0
            if scores[q] == 555:
                scores[q] = 0
            if barrel[q] and scores[q] < 880:
                barrel[q] = False
        seat = other


if __name__ == "__main__":
    import time
    for play in (interface_play, plain_play):
        policy = random.Random(1)
        t = time.perf_counter()
        out = [play(seed, policy) for seed in range(300)]
        dt = time.perf_counter() - t
        print(play.__name__, sum(d for d, _ in out) / dt, "decisions/s")
