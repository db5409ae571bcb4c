"""How a simulation plays on past the tree: fast, a little better than random where it pays.

The tree decides the first moves of a simulation with care; the rest is played by this policy,
thousands of times per decision, so it must cost almost nothing. Uniformly random play is the
default (it works for any game). Two games get a nudge, because pure random play there makes the
simulated future absurd rather than merely noisy:

- Thousand: a random auction bids at random up to the cap, and a random declarer "gives up" with
  a rospis a third of the time. In a rollout the auction and the raise are closed (``pass``,
  ``keep``), nobody asks for a redeal and nobody gives up: the bidding is decided in the tree,
  where it is searched, not in the rollouts. Cards are still played at random.
- Block: a player sheds a heavier tile more often than a lighter one (the pips left in hand are
  what a deal costs), which is what every sensible player does.
"""
from __future__ import annotations

import random

_THOUSAND_QUIET = ("pass", "keep", "play on", "look")  # in this order of preference


def rollout_action(game_name: str, state, rng: random.Random) -> str:
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if game_name == "thousand":
        for quiet in _THOUSAND_QUIET:
            if quiet in legal:
                return quiet
        if "rospis" in legal:
            legal = [a for a in legal if a != "rospis"]
        return rng.choice(legal)
    if game_name == "block":
        # two draws, keep the heavier: a cheap bias towards shedding pips
        a, b = rng.choice(legal), rng.choice(legal)
        return a if _pips(a) >= _pips(b) else b
    return rng.choice(legal)


def _pips(action: str) -> int:
    """Pips of the tile in a Block action ("3-6:L" -> 9); a pass counts as nothing."""
    if action == "pass":
        return -1
    return int(action[0]) + int(action[2])
