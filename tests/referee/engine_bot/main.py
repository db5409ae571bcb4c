"""Uses the engine inside the sandbox: samples a world from its observation and plays it out."""
import random
import sys

from arena.games import get_game
from arena.options import options_from_dict
from protocol import sdk

rng = random.Random(7)


def choose(observation, legal):
    game = get_game(sdk.hello["game"])
    options = options_from_dict(game, sdk.hello["options"])
    world = game.sample_state(options, observation, rng)
    assert world.observation(observation["seat"]) == observation
    assert world.legal_actions() == legal
    print("sampled a world", file=sys.stderr)
    return legal[0]


sdk.run(choose)
