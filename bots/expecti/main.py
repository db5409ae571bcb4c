"""The expected-value Dice 1000 bot: the calculation is in strategy.py; this file connects it."""
from strategy import choose

from protocol import sdk

sdk.run(lambda observation, legal: choose(observation, legal, sdk.hello.get("options")))
