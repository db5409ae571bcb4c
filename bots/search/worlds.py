"""Which worlds to search: the others' past choices are hints about what they hold.

``game.sample_state`` deals the unseen tiles again so that they fit every public *fact* (a pass
shows a void), each consistent deal equally likely. But a player's choices say more than the
rules make certain: a Domino Cribbage player keeps good tiles, a Block player sheds its heaviest
playable tile. A world in which the others' choices look foolish is possible but unlikely.

``plausible_worlds`` draws ``candidates`` uniform samples per world kept and keeps them with
weights ``weight(world)``: how likely the others' past choices were in that world under a model
of how they choose, typically exp(-beta * regret) where the regret says how much worse their
choices look there than the model's own (0: exactly what the model plays). Each game says what
the weight is (``cribbage.plausible_worlds``, ``block.play_weight``); the mechanism is the same.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable

CANDIDATES = 3  # uniform samples per world kept


def plausible_worlds(game, options, observation: dict, rng: random.Random, n: int,
                     weight: Callable[[object], float], candidates: int = CANDIDATES,
                     deadline: float | None = None, clock=None, distinct: bool = False) -> list:
    """``n`` worlds drawn from ``candidates * n`` uniform samples with weights ``weight(world)``
    (with repeats, or ``distinct``). On the clock, sampling stops after a quarter of the time left
    (the search gets the rest), and fewer worlds are drawn, one per ``candidates`` samples: the
    search samples the rest uniformly, so that a short think still sees many different worlds."""
    stop = None if deadline is None else clock() + (deadline - clock()) / 4
    worlds, weights = [], []
    while len(worlds) < candidates * n and not (worlds and stop is not None and clock() > stop):
        w = game.sample_state(options, observation, rng)
        worlds.append(w)
        weights.append(weight(w))
    k = max(1, min(n, len(worlds) // candidates))
    if distinct:  # k different worlds, each drawn in turn by weight among those not yet drawn
        keys = [math.log(1.0 - rng.random()) / max(w, 1e-300) for w in weights]
        order = sorted(range(len(worlds)), key=keys.__getitem__, reverse=True)
        return [worlds[i] for i in order[:k]]
    return rng.choices(worlds, weights, k=k)
