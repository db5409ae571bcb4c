"""What the guided attempts of ``sample_state`` (sample.py) know of some games beyond OpenSpiel's
rules: which chance outcomes a move needs, and how to repair a world where a known move is not
legal. A game without an entry in :data:`HINTS` gets :class:`Hints`: a move needs its own id."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


class Hints:
    """What the guided attempts know of a game beyond its rules: the chance outcomes a move
    needs (its own id), and how to repair a world where a known move is not legal (they
    cannot)."""

    def __init__(self, spiel_game: Any, seat: int) -> None:
        self.seat = seat

    def needs(self, action: int) -> tuple[int, ...]:
        return (action,)

    def repair(self, spiel: Any, action: int, later: list[int | None], known: set[int],
               rng: random.Random) -> dict[int, int] | None:
        """Where the known move ``action`` is not legal at ``spiel``: a swap of chance outcome
        ids the seat never sees (``known``: those it does) that makes it and the steps after it
        (``later``) legal, or ``None``."""
        return None


class GinRummyHints(Hints):
    """Gin rummy: a meld needs its cards; and where another seat knocks, its hand in the world
    found may hold too much deadwood for a knock: the cards of that hand that the seat never
    sees are exchanged with cards of the stock that it never sees, by a local search on the
    hand's deadwood, until it may knock. (Neither seat can tell such cards apart in what it was
    shown, so the exchange keeps every step it knows.)"""

    TRIES = 20     # fresh starts of the local search
    ROUNDS = 30    # exchanges tried per start without getting better before it gives up

    def __init__(self, spiel_game: Any, seat: int) -> None:
        import pyspiel
        gin = pyspiel.gin_rummy
        p = spiel_game.get_parameters()
        self.seat = seat
        self.utils = gin.GinRummyUtils(p["num_ranks"], p["num_suits"], p["hand_size"])
        self.cards = p["num_ranks"] * p["num_suits"]
        self.melds = self.utils.int_to_meld
        self.base = gin.MELD_ACTION_BASE
        self.knock = gin.KNOCK_ACTION
        self.pass_action = gin.PASS_ACTION

    def needs(self, action: int) -> tuple[int, ...]:
        base = self.base
        return tuple(self.melds[action - base]) if base <= action < base + len(self.melds) else (action,)

    def repair(self, spiel: Any, action: int, later: list[int | None], known: set[int],
               rng: random.Random) -> dict[int, int] | None:
        player = spiel.current_player()
        if action != self.knock or player == self.seat or spiel.is_chance_node():
            return None
        hand = list(spiel.hands()[player])
        fixed = [c for c in hand if c in known]
        free = [c for c in hand if c not in known]
        held = {c for h in spiel.hands() for c in h}
        stock = [c for c in range(self.cards) if c not in known and c not in held]
        deadwood = self.deadwood(later)
        limit = spiel.knock_card()
        for _ in range(self.TRIES):
            pool = free + stock
            rng.shuffle(pool)
            mine, rest = pool[:len(free)], pool[len(free):]
            value = deadwood(fixed + mine)
            idle = 0
            while value > limit and idle < self.ROUNDS and mine and rest:
                i, j = rng.randrange(len(mine)), rng.randrange(len(rest))
                mine[i], rest[j] = rest[j], mine[i]
                new = deadwood(fixed + mine)
                if new <= value:
                    idle = 0 if new < value else idle + 1
                    value = new
                else:
                    mine[i], rest[j] = rest[j], mine[i]
                    idle += 1
            if value <= limit:
                out = [c for c in free if c not in mine]
                into = [c for c in mine if c not in free]
                swap = dict(zip(out, into))
                swap.update(zip(into, out))
                return swap
        return None

    def deadwood(self, later: list[int | None]) -> Callable[[list[int]], int]:
        """The deadwood of a knocking hand of 11 cards as the known steps after the knock
        count it: its least (the best discard, the best melds); after the discard and the melds
        the seat knows, the least of the cards left; once it knows the pass that ends the melds,
        the value of the cards left."""
        utils, base = self.utils, self.base
        discard = later[0] if later and later[0] is not None and later[0] < self.cards else None
        if discard is None:
            return lambda hand: int(utils.min_deadwood(hand))
        laid: set[int] = set()
        ended = False  # the pass that ends the melds is known
        for a in later[1:]:
            if a is not None and base <= a < base + len(self.melds):
                laid.update(self.melds[a - base])
                continue
            ended = a == self.pass_action
            break
        count = utils.total_card_value if ended else utils.min_deadwood
        return lambda hand: int(count([c for c in hand if c != discard and c not in laid]))


# the games whose hints say more than a move's own id
HINTS: dict[str, type[Hints]] = {"gin_rummy": GinRummyHints}
