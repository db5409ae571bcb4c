"""How a simulation plays on past the tree: fast, a little better than random where it pays.

The tree decides the first moves of a simulation with care; the rest is played by this policy,
thousands of times per decision, so it must cost almost nothing. Uniformly random play is the
default (it works for any game). Two games get a nudge, because pure random play there makes the
simulated future absurd rather than merely noisy:

- Thousand: a random auction bids at random up to the cap, a random declarer gives its aces
  away and "gives up" with a rospis a third of the time; with random card play every declarer
  would fail, so the search would learn that bidding never pays. The rollouts bid by what a
  hand is worth, part with the cheapest cards and play cards by the simplest sound rules
  (``thousand.rollout_action``, which says how).
- Block: a player sheds its heaviest playable tile, a double first among near equals (the pips
  left in hand are what a deal costs, and a double fits one number only), with a small random
  share. It is the first rule of the bundled ``greedy`` and ``heavy`` bots, at a fraction of the
  cost of greedy's whole scoring (which reads an observation: far too slow for a rollout, and the
  sandbox shows a bot only its own folder, so it could not import it anyway). Since the search
  also plays the other seats by this policy (``search.POLICY_OPPONENTS``), it is the search's
  model of how the others play.
- Domino Cribbage: in the play, the tile that scores most now is taken; otherwise a random tile
  that does not leave the count at 5 or 21 (``cribbage.rollout_play``).
"""
from __future__ import annotations

import random

import cribbage
import thousand

RANDOM_SHARE = 0.1  # of rollout tile plays (Block) made at random, so that rollouts differ


def rollout_action(game_name: str, state, rng: random.Random) -> str:
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if game_name == "thousand":
        return thousand.rollout_action(state, legal, rng)
    if game_name == "block":
        if rng.random() < RANDOM_SHARE:
            return rng.choice(legal)
        return max(legal, key=_shed_value)
    if game_name == "domino-cribbage" and getattr(state, "phase", None) == "play":
        return cribbage.rollout_play(state, rng)
    return rng.choice(legal)


BLOCK_DOUBLE = 4  # a double is shed as if 4 pips heavier: it fits one number only (greedy's W_DOUBLE)


def shed_value(a: int, b: int) -> int:
    """How keen a Block player is to play the tile [a|b] ([3|6] -> 9, [3|3] -> 10)."""
    return a + b + (BLOCK_DOUBLE if a == b else 0)


def _shed_value(action: str) -> int:
    """``shed_value`` of the tile of ``action`` ("3-6:L" -> 9, "3-3" -> 10); a pass -1."""
    if action == "pass":
        return -1
    return shed_value(int(action[0]), int(action[2]))
