import random

from protocol.sdk import run


def choose(observation, legal):
    if observation["deal"] >= 2:
        raise ZeroDivisionError("oops in my evaluation")
    return random.choice(legal)


run(choose)
