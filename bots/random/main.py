"""Plays a uniformly random legal action, in any game.

Its choices come from the seed the referee gives it in ``hello`` (protocol/SPEC.md §4), so the
same match seed and seat replay the same match, wherever it is played."""
import random

from protocol import sdk

_rng = random.Random()
_seeded = None


def choose(observation, legal):
    global _seeded
    seed = sdk.hello.get("seed")
    if seed is not None and seed != _seeded:  # a new hello: a new match
        _rng.seed(seed)
        _seeded = seed
    return _rng.choice(legal)


sdk.run(choose)
