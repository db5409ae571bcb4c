"""The greedy Block bot: the heuristic is in strategy.py, this file only connects it."""
from strategy import choose

from protocol.sdk import run

run(choose)
