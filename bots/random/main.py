"""Plays a uniformly random legal action, in any game, drawn from the seed in hello (SPEC.md §4)."""
import random

from protocol import sdk

rng, seeded = random.Random(), [None]


def choose(observation, legal):
    if sdk.hello.get("seed") != seeded[0]:  # a new match: play from its seed, the same everywhere
        seeded[0] = sdk.hello.get("seed")
        rng.seed(seeded[0])
    return rng.choice(legal)


sdk.run(choose)
