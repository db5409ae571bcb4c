"""``sample_state`` of an OpenSpiel game: a world that the observing seat cannot tell from the
true one, found by playing the match again from the seat's ``history``.

An entry the seat knows is played as it is (it must be legal there); an entry written ``None``
is chosen at random among the legal ones (chance outcomes by their probability, moves
uniformly); at the end the seat's whole observation must be the given one. The search is
depth-first with conflict-directed backjumping: when a known chance outcome is not legal, the
search goes back to the hidden entry that took it (a card dealt to another seat that the seat
later sees dealt to itself), else to the last hidden entry. An attempt that takes more than
``RESTART`` steps starts afresh (a depth-first search can sink below a bad early choice), and
every other attempt tries first, at hidden chance entries, the outcomes whose ids the seat sees
later as moves (the cards another seat plays were dealt to it). A search that spends its whole
budget gives up with an ``ArenaError``: in long matches of some card games (gin rummy after
about 30 moves) it does (docs/games/openspiel.md).
"""
from __future__ import annotations

import random
from typing import Any

from arena.errors import ArenaError
from arena.game import Chance

RESTART = 200  # steps of one depth-first attempt (at least the history's length) before a fresh one


class Exhausted(ArenaError):
    """No consistent world found within the search's budget."""


class _OutOfSteps(Exception):
    pass


class _Search:
    def __init__(self, game: Any, options: Any, observation: dict[str, Any], rng: random.Random) -> None:
        self.game, self.options, self.observation, self.rng = game, options, observation, rng
        self.seat: int = observation["seat"]
        self.history: list[int | None] = observation["history"]
        n = options.num_players
        self.seen = [[s != self.seat or a is not None for s in range(n)] for a in self.history]
        self.chance_at: set[int] = set()  # entries found at a chance node
        self.wanted: list[set[int]] = [set() for _ in range(len(self.history) + 1)]
        self.boost = False
        self.steps = 0
        self.share = 0
        self.chosen: dict[int, tuple[int, bool]] = {}  # hidden entry -> (its id, was it chance)

    def attempt(self, share: int, boost: bool) -> Any:
        """One depth-first attempt of at most ``share`` steps: a world, or ``None``."""
        if boost:  # ids of the moves (not chance outcomes) the seat knows after entry i
            history, dealt = self.history, {self.history[i] for i in self.chance_at}
            for i in range(len(history) - 1, -1, -1):
                a = history[i]
                known = a is not None and i not in self.chance_at and a not in dealt
                self.wanted[i] = self.wanted[i + 1] | ({a} if known and a is not None else set())
        self.boost, self.steps, self.share, self.chosen = boost, 0, share, {}
        start = self.game.State(self.options, None, chance=Chance.from_rng(self.rng), start=False)
        try:
            found = self.play(start, 0)
        except _OutOfSteps:
            return None
        return None if isinstance(found, set) else found

    def order(self, state: Any, i: int) -> tuple[list[int], bool]:
        """The candidates of hidden entry ``i`` in the order to try them, and whether it is chance."""
        spiel = state.spiel
        if spiel.is_chance_node():
            wanted = self.wanted[i] if self.boost else set()
            keyed = [(a in wanted, self.rng.random() ** (1.0 / p), a) for a, p in spiel.chance_outcomes() if p > 0]
            return [a for *_, a in sorted(keyed, reverse=True)], True
        legal = list(spiel.legal_actions())
        self.rng.shuffle(legal)
        return legal, False

    def play(self, state: Any, i: int) -> Any:
        """From entry ``i`` on: a world (a state), or the set of hidden entries to blame."""
        history = self.history
        while i < len(history) and history[i] is not None:
            self.steps += 1
            action = history[i]
            at_chance = state.spiel.is_chance_node()
            if at_chance:
                self.chance_at.add(i)
            if not state.replay(action, self.seen[i]):
                # a known chance outcome that is not legal: a hidden entry took it
                blame = {j for j, (a, chance) in self.chosen.items() if a == action and chance} if at_chance else set()
                return blame or set(self.chosen)
            i += 1
        if i == len(history):
            state.settle()
            return state if state.observation(self.seat) == self.observation else set(self.chosen)
        candidates, is_chance = self.order(state, i)
        conflict: set[int] = set()
        for action in candidates:
            self.steps += 1
            if self.steps > self.share:
                raise _OutOfSteps
            branch = state.clone()
            branch.replay(action, self.seen[i])
            self.chosen[i] = (action, is_chance)
            found = self.play(branch, i + 1)
            del self.chosen[i]
            if not isinstance(found, set):
                return found
            if i not in found:
                return found  # the conflict lies before this entry: jump back over it
            conflict |= found - {i}
        return conflict or set(self.chosen)


def sample(game: Any, options: Any, observation: dict[str, Any], rng: random.Random, budget: int) -> Any:
    search = _Search(game, options, observation, rng)
    share = max(RESTART, len(search.history))
    for attempt in range(max(1, budget // share)):
        found = search.attempt(share, boost=attempt % 2 == 1)
        if found is not None:
            return found
    raise Exhausted(f"{game.name}: no world fits the observation of seat {search.seat} within {budget} "
                    "steps of search")
