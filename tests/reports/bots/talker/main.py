"""Says its name (from its bot.toml) and its folder on stderr and in every note, plays at random,
and answers its own name instead of an action when it sits in seat 1 (an illegal action whose
reason quotes the answer). The anonymous report's tests copy it under a telling name."""
import os
import random
import sys
import tomllib

from protocol.sdk import run

FOLDER = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(FOLDER, "bot.toml"), "rb") as f:
    NAME = tomllib.load(f)["name"]


def choose(observation, legal):
    print(f"{NAME} playing from {FOLDER}", file=sys.stderr)
    if observation["seat"] == 1:
        return NAME
    return random.choice(legal), f"{NAME} picks at random (folder {os.path.basename(FOLDER)})"


run(choose)
