"""Plays a uniformly random legal action, in any game."""
import random

from protocol.sdk import run

run(lambda observation, legal: random.choice(legal))
