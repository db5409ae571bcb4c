"""Where a search stops, and what the position it stops at is worth (per game, with a generic default).

A whole match is far too long to play out thousands of times per move (a Thousand match is
thousands of decisions, a Block match to 100 many deals). So every simulation stops at a
*horizon*: the end of the current deal (or, in a dice game, the current turn), and the position
there is scored by how much each seat gained in it. Two small functions per game say this:

- ``horizon_key(state)``: a value that changes exactly when the current deal (or turn) is over.
  The search remembers it at the root and stops a simulation when it differs. The default reads
  the state's deal counter if it has one (``deal_no``, ``hand_no``), otherwise the running scores
  (a score change is the end of a scoring unit in most games). A depth cap (``MAX_DEPTH``) backs
  it up, so a game the bot has never heard of is still searched, just less cleverly.
- ``SCALE[game]``: a typical points swing of one deal, so that rewards are about -1..1 for the
  UCB formula whatever the game counts in.

The reward of a seat is what it gained in the simulated deal minus the average of what the
others gained (for two players: the score difference, a zero-sum game), divided by the scale.
A match that ends inside the simulation also pays ``WIN_BONUS`` to the winner and takes it from
the others: near the target, winning matters more than points. In Block (``PAIRWISE_BONUS``) it
pays for every place instead, pair by pair, since a rating counts second against fourth too.
"""
from __future__ import annotations

import cribbage
import thousand

MAX_DEPTH = 200   # decisions per simulation when a game's horizon is unknown
WIN_BONUS = 1.0   # in reward units (one typical deal's swing)
PAIRWISE_BONUS = {"block"}  # games whose match bonus rewards every place, not only the first

# A typical points swing of one deal (or turn): Block's winner takes the others' pips, a
# Thousand contract is worth 100-200, a Dice 1000 turn ~50, a Domino Cribbage hand ~15.
SCALE = {"block": 20.0, "thousand": 120.0, "dice-1000": 60.0, "domino-cribbage": 15.0}
DEFAULT_SCALE = 50.0


def horizon_key(game_name: str, state) -> object:
    """What identifies the current deal/turn of ``state``; the search stops when it changes."""
    if game_name == "dice-1000":
        return (state.seat, state.turn_no)  # one turn: the roll-or-stop decisions of one seat
    for attr in ("deal_no", "hand_no"):  # block, thousand (a redeal keeps deal_no), cribbage
        value = getattr(state, attr, None)
        if value is not None:
            return value
    return state.scores()  # unknown game: stop when somebody scores


def standing(game_name: str, state) -> tuple[float, ...]:
    """Per seat, the score a simulation is judged by: the game's scores, except in Thousand,
    where the bolts and barrel deals that will cost points later are counted now
    (``thousand.standing``)."""
    if game_name == "thousand":
        return thousand.standing(state)
    return state.scores()


def rewards(game_name: str, root_scores: tuple[float, ...], state) -> list[float]:
    """Per seat: its gain since the root minus the others' average gain, in deal-swing units,
    plus the match bonus if the match ended."""
    if game_name == "domino-cribbage":
        return cribbage.rewards(root_scores, state)  # the pegging only: see cribbage.py
    scale = SCALE.get(game_name, DEFAULT_SCALE)
    scores = standing(game_name, state)
    n = len(scores)
    gains = [scores[s] - root_scores[s] for s in range(n)]
    total = sum(gains)
    out = [(g - (total - g) / (n - 1)) / scale for g in gains]
    if state.is_terminal() and game_name in PAIRWISE_BONUS:
        # a tournament rates the whole order of a match (TrueSkill), not only who came first:
        # the bonus is shared out pair by pair, +1/(n-1) for each seat we finish above and
        # -1/(n-1) for each above us (zero-sum; with 2 players a win is worth what it is below)
        ranks = state.result().ranks
        for s in range(n):
            out[s] += WIN_BONUS * sum((r > ranks[s]) - (r < ranks[s]) for r in ranks) / (n - 1)
    elif state.is_terminal():
        ranks = state.result().ranks
        firsts = [s for s in range(n) if ranks[s] == 1]
        share = WIN_BONUS / len(firsts)
        for s in range(n):
            # the winners share the bonus, the others pay for it evenly: still zero-sum
            out[s] += share if ranks[s] == 1 else -WIN_BONUS / max(1, n - len(firsts))
    return out
