"""Block: what the others' plays say about the tiles they still hold.

The search models every other seat as its rollout policy: it sheds its heaviest playable tile
(``rollout.shed_value``, a double a few pips heavier), as the bundled Block bots do. A seat that
played [1|2] when a [5|6] would have fitted most likely holds no [5|6]; the engine's
``sample_state`` knows only what the passes make certain, and deals the [5|6] to it as often as to
anybody. ``play_weight`` replays this deal's plays in a sampled world and sums, per other seat,
how much keener the model would have been on the best tile that seat held there than on the
tiles it played (the regret: 0 in a world where every play was the model's own, more the less
the world fits), and weighs the world by exp(-BETA * regret); ``worlds.plausible_worlds`` then
draws the worlds to search by that weight. (A floor under each seat's weight, for a seat that
does not play like the model at all, made the worlds guess every kind of player's tiles worse,
the random player's too: the others' weights still place the tiles that seat cannot hold.)
"""
from __future__ import annotations

import math
from collections.abc import Callable

from rollout import shed_value

from arena.games.block.tiles import ACTIONS, PASS, ends_after

BETA = 2.0        # per unit of shed value (a pip) that a play falls short of the model's best
CANDIDATES = 4    # uniform samples per world kept
MODEL = True      # weight the worlds by the others' plays


def play_weight(options, observation: dict) -> Callable[[object], float] | None:
    """A function of a sampled world: how likely the other seats' plays of this deal were there
    under the model, exp(-BETA * their regret) (see the module).
    ``None`` when no other seat has chosen anything yet. A seat's hand at a play is its hand in
    the world plus every tile it played since; the playable tiles are those that matched an end
    (any tile into an empty chain). The opening of deal 1 under ``first_leader="highest_double"``
    was forced: no hint."""
    me = observation["seat"]
    forced = observation["deal"] == 1 and options.first_leader == "highest_double"
    rows = []  # (seat, the ends before the play or None, tile played)
    ends = None
    for seat, action in observation["plays"]:
        if action != PASS:
            rows.append((seat, ends, ACTIONS[action][0]))
            ends = ends_after(ends, action)
    plays = []  # (seat, ends before, shed value of the tile played, the tiles it played since)
    since: dict[int, tuple] = {}
    for seat, before, tile in reversed(rows):
        since[seat] = since.get(seat, ()) + (tile,)
        if seat != me and not (before is None and forced):
            plays.append((seat, before, shed_value(*tile), since[seat]))
    if not plays:
        return None

    def weight(world) -> float:
        regret = 0
        for seat, before, played, held in plays:
            best = played
            for t in world.hands[seat] + list(held):
                if before is None or before[0] in t or before[1] in t:
                    v = shed_value(*t)
                    if v > best:
                        best = v
            regret += best - played
        return math.exp(-BETA * regret)
    return weight
