"""Dice 1000: roll until the turn total reaches a fixed threshold, then stop as soon as stopping
is legal. The threshold is the command's last argument (``python3 main.py 200``; default 300), so
that a tournament's entrant can set it: ``args = ["200"]``."""
import sys

THRESHOLD = 300


def choose(observation, legal, threshold=None):
    limit = THRESHOLD if threshold is None else threshold
    if "stop" in legal and observation["turn"]["total"] >= limit:
        return "stop"
    return "roll" if "roll" in legal else legal[0]


if __name__ == "__main__":
    from protocol.sdk import run

    if len(sys.argv) > 1:
        THRESHOLD = int(sys.argv[-1])
    run(choose)
