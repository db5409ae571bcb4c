"""The greedy Block bot: the heuristic is in strategy.py, this file only connects it."""
from protocol.sdk import run
from strategy import choose

run(choose)
