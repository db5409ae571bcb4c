"""How a simulation plays on past the tree: fast, a little better than random where it pays.

The tree decides the first moves of a simulation with care; the rest is played by this policy,
thousands of times per decision, so it must cost almost nothing. Uniformly random play is the
default (it works for any game). Two games get a nudge, because pure random play there makes the
simulated future absurd rather than merely noisy:

- Thousand: a random auction bids at random up to the cap, and a random declarer "gives up" with
  a rospis a third of the time. In a rollout the auction and the raise are closed (``pass``,
  ``keep``), nobody asks for a redeal and nobody gives up: the bidding is decided in the tree,
  where it is searched, not in the rollouts. The cards are played by the simplest sound rule
  (declare a marriage when leading, lead high, win a trick as cheaply as possible, else throw
  the cheapest card): with random card play every declarer would fail, so the search would
  learn that bidding never pays and never bid.
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

_THOUSAND_QUIET = ("pass", "keep", "play on", "look")  # in this order of preference
RANDOM_SHARE = 0.1  # of rollout card (Thousand) and tile (Block) plays made at random, so that rollouts differ


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
        if legal[0].startswith("play ") and rng.random() > RANDOM_SHARE:
            return _thousand_card(state, legal)
        return rng.choice(legal)
    if game_name == "block":
        if rng.random() < RANDOM_SHARE:
            return rng.choice(legal)
        return max(legal, key=_shed_value)
    if game_name == "domino-cribbage" and getattr(state, "phase", None) == "play":
        return cribbage.rollout_play(state, rng)
    return rng.choice(legal)


_RANK = {r: i for i, r in enumerate("9JQKTA")}  # docs/games/thousand.md §1: trick order, low to high
_SUIT = {s: i for i, s in enumerate("HDCS")}
_POINTS = (0, 2, 3, 4, 10, 11)


def _thousand_card(state, legal: list[str]) -> str:
    """A Thousand card play ("play QH", "play KH marriage") by rule of thumb. Reads the engine's
    trick (``state.trick``: (seat, card) with card = suit * 6 + rank) and trump (``state.trump``)."""
    marriages = [a for a in legal if a.endswith("marriage")]
    if marriages:  # the hearts marriage is worth most, then diamonds, clubs, spades
        return min(marriages, key=lambda a: _SUIT[a[6]])
    cards = [(_SUIT[a[6]] * 6 + _RANK[a[5]], a) for a in legal]
    trick = state.trick
    if not trick:
        return max(cards, key=lambda x: x[0] % 6)[1]  # lead an ace or a ten
    trump = state.trump
    best = trick[0][1]
    for _, c in trick[1:]:
        if c // 6 == best // 6:
            if c > best:
                best = c
        elif c // 6 == trump:
            best = c
    winners = [x for x in cards if (x[0] // 6 == best // 6 and x[0] > best)
               or (x[0] // 6 == trump and best // 6 != trump)]
    if winners:
        return min(winners, key=lambda x: x[0] % 6)[1]  # the cheapest card that wins
    return min(cards, key=lambda x: _POINTS[x[0] % 6])[1]  # lose the fewest points


BLOCK_DOUBLE = 4  # a double is shed as if 4 pips heavier: it fits one number only (greedy's W_DOUBLE)


def shed_value(a: int, b: int) -> int:
    """How keen a Block player is to play the tile [a|b] ([3|6] -> 9, [3|3] -> 10)."""
    return a + b + (BLOCK_DOUBLE if a == b else 0)


def _shed_value(action: str) -> int:
    """``shed_value`` of the tile of ``action`` ("3-6:L" -> 9, "3-3" -> 10); a pass -1."""
    if action == "pass":
        return -1
    return shed_value(int(action[0]), int(action[2]))
