"""A bot that plays random legal actions but crashes in one situation, named by its arguments:
``seat=1`` (only when it sits in seat 1) or ``players=3`` (only in 3-player matches)."""
import random
import sys

from protocol import sdk

key, _, value = sys.argv[1].partition("=")


def choose(observation, legal):
    if sdk.hello[{"seat": "seat", "players": "num_players"}[key]] == int(value):
        raise RuntimeError(f"this bot breaks when {key} is {value}")
    return random.choice(legal)


sdk.run(choose)
