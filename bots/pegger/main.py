"""The pegger Domino Cribbage bot: the heuristic is in strategy.py, this file only connects it."""
from strategy import choose, set_options

from protocol import sdk


def act(observation, legal):
    set_options(sdk.hello.get("options") or {})  # the show's double bonus, the zero tile rule
    return choose(observation, legal)


sdk.run(act)
