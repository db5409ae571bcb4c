"""Logs every decision to stderr, plays at random, and crashes in deal 3 when it sits in seat 0.

The log holds text a report must escape (``</pre><script>``), so the report's tests see it.
"""
import random
import sys

from protocol.sdk import run


def choose(observation, legal):
    print(f"deal {observation['deal']}: choosing from {legal} </pre><script>alert(2)</script>",
          file=sys.stderr)
    if observation["deal"] >= 3 and observation["seat"] == 0:
        raise RuntimeError("flaky gave up in deal 3 <b>on purpose</b>")
    return random.choice(legal)


run(choose)
