"""``sample_state`` of an OpenSpiel game: a world that the observing seat cannot tell from the
true one, found by playing the match again from the seat's ``history``.

An entry the seat knows is played as it is (it must be legal there); an entry written ``None``
is chosen among the legal ones (chance outcomes by their probability, moves uniformly); at the
end the seat's whole observation must be the given one. The search is depth-first with
conflict-directed backjumping: when a known chance outcome is not legal, the search goes back to
the hidden entry that took it (a card dealt to another seat that the seat later sees dealt to
itself), else to the last hidden entry. An attempt that takes more than its share of steps starts
afresh (a depth-first search can sink below a bad early choice).

Every other attempt is guided, for card games where the seat sees later what was dealt face
down: at a hidden chance entry it tries first the outcomes that a move the seat knows later
needs, the one needed soonest first (the cards another seat discards or lays down were dealt to
it, or drawn, before), and last the outcomes the seat sees as chance outcomes of its own (a card
the seat draws from the stock was not dealt to another seat before). Taking what is needed
soonest first is a schedule by earliest deadline: when the hands can hold the cards in time, it
finds a way. Which known entries are chance outcomes is learnt by passes over the history
first. A game's hints (hints.py) say what a move needs beyond its own id (gin rummy: the cards
of a meld) and may repair a world where a known move is not legal (gin rummy: a knock, by
exchanging cards the seat never sees). So a whole gin rummy deal is sampled in a few hundred
steps at every point.
"""
from __future__ import annotations

import random
from typing import Any

from arena.errors import ArenaError
from arena.game import Chance
from arena.games.openspiel.hints import HINTS, Hints

RESTART = 200  # steps of one depth-first attempt (at least twice the history's length) before a fresh one
SHAPE_PASSES = 6  # passes over the history that learn which known entries are chance outcomes
MAX_REPAIRS = 50  # worlds repaired by a game's hints (hints.py) in one attempt
GUIDED_SHARE = 10  # times as many for a guided attempt (its backtracking is what finds a world)


class Exhausted(ArenaError):
    """No consistent world found within the search's budget."""


class _OutOfSteps(Exception):
    pass


class _Search:
    def __init__(self, game: Any, options: Any, observation: dict[str, Any], rng: random.Random) -> None:
        self.game, self.options, self.observation, self.rng = game, options, observation, rng
        self.seat: int = observation["seat"]
        self.player: int = observation.get("player", self.seat)  # OpenSpiel's, in this hand
        self.history: list[int | None] = observation["history"]
        n = options.num_players
        self.seen = [[p != self.player or a is not None for p in range(n)] for a in self.history]
        self.chance_at: set[int] = set()  # known entries found at a chance node
        self.hints = Hints(None, self.player)
        self.known: set[int] = set()  # ids the seat sees, and what its known moves need
        self.repairs = 0
        self.shaped = False
        self.soonest: list[dict[int, int]] = []  # per entry: outcome id -> the first later entry needing it
        self.later_chance: set[int] = set()      # ids the seat sees as chance outcomes
        self.guided = False
        self.steps = 0
        self.share = 0
        self.chosen: dict[int, tuple[int, bool]] = {}  # hidden entry -> (its id, was it chance)

    def new_state(self) -> Any:
        state = self.game.State(self.options, None, chance=Chance.from_rng(self.rng), start=False)
        if "hand" in self.observation:  # (a match of several hands: the hand it is in)
            state.at_hand(self.observation["hand"], self.observation["totals"])
        return state

    def shape(self) -> None:
        """Which known entries are chance outcomes: passes over the history, each hidden chance
        entry chosen as a guided attempt would by what the passes before found (at random in
        the first), each known chance outcome that is not legal replaced by a legal one, up to
        the first known move that is not legal (the pass no longer follows the match after
        it), until a pass gets no further. The attempts correct it where they reach."""
        reached = -1
        for _ in range(SHAPE_PASSES):
            self.plan()
            state, i = self.new_state().spiel, 0
            for i, action in enumerate(self.history):
                if state.is_terminal():
                    break
                if state.is_chance_node():
                    if action is not None:
                        self.chance_at.add(i)
                    legal = [a for a, p in state.chance_outcomes() if p > 0]
                    if action not in legal:
                        action = self.chance_order(state, i, reached >= 0)[0]
                else:
                    legal = state.legal_actions()
                    if action is None:
                        action = self.rng.choice(legal)
                    elif action not in legal:
                        break
                state.apply_action(action)
            else:
                i = len(self.history)
            if i <= reached:
                break
            reached = i
        self.shaped = True

    def plan(self) -> None:
        """Per entry, the outcome ids that known moves after it need, with the first entry
        needing each; the ids the seat sees as chance outcomes; and all the ids it sees."""
        needs = self.hints.needs
        history = self.history
        self.known = {n for a in history if a is not None for n in (a, *needs(a))}
        self.later_chance = {a for i, a in enumerate(history) if i in self.chance_at and a is not None}
        self.soonest = [{} for _ in range(len(history) + 1)]
        for i in range(len(history) - 1, -1, -1):
            soonest = self.soonest[i] = dict(self.soonest[i + 1])
            a = history[i]
            if a is not None and i not in self.chance_at:
                for need in needs(a):
                    if need not in self.later_chance:
                        soonest[need] = i

    def guide(self) -> None:
        """Before a guided attempt: the game's hints, the shape of the match, the plan."""
        if not self.shaped:
            hints = HINTS.get(self.game.short_name, Hints)
            self.hints = hints(self.new_state().spiel_game, self.player)
            self.shape()
        self.plan()

    def attempt(self, share: int, guided: bool) -> Any:
        """One depth-first attempt of at most ``share`` steps: a world, or ``None``."""
        if guided:
            self.guide()
        self.guided, self.steps, self.share, self.chosen, self.repairs = guided, 0, share, {}, 0
        try:
            found = self.play(self.new_state(), 0)
        except _OutOfSteps:
            return None
        return None if isinstance(found, set) else found

    def order(self, state: Any, i: int) -> tuple[list[int], bool]:
        """The candidates of hidden entry ``i`` in the order to try them, and whether it is chance."""
        spiel = state.spiel
        if spiel.is_chance_node():
            return self.chance_order(spiel, i, self.guided), True
        legal = list(spiel.legal_actions())
        self.rng.shuffle(legal)
        return legal, False

    def chance_order(self, spiel: Any, i: int, guided: bool) -> list[int]:
        """The chance outcomes at entry ``i``: by their probability at random, or guided (the
        ids known moves need soonest first, the seat's own outcomes last)."""
        rng = self.rng
        if not guided:
            keyed = [(-(rng.random() ** (1.0 / p)), a) for a, p in spiel.chance_outcomes() if p > 0]
            return [a for _, a in sorted(keyed)]
        soonest, late, never = self.soonest[i + 1], self.later_chance, len(self.history)
        ranked = [(a in late, soonest.get(a, never), -(rng.random() ** (1.0 / p)), a)
                  for a, p in spiel.chance_outcomes() if p > 0]
        return [a for *_, a in sorted(ranked)]

    def repair(self, state: Any, i: int, action: int) -> Any:
        """Where the known move ``action`` of entry ``i`` is not legal at ``state``: the search
        from there on in the world that the game's hints make of it (a world, or the set of
        hidden entries to blame), or ``None`` when they make none."""
        if self.repairs >= MAX_REPAIRS:
            return None
        swap = self.hints.repair(state.spiel, action, self.history[i + 1:], self.known, self.rng)
        if not swap:
            return None
        self.repairs += 1
        chosen = {j: ((swap.get(a, a) if chance else a), chance) for j, (a, chance) in self.chosen.items()}
        world = self.new_state()
        for j in range(i):
            if not world.replay(chosen[j][0] if self.history[j] is None else self.history[j], self.seen[j]):
                return None
        kept, self.chosen = self.chosen, chosen
        try:
            return self.play(world, i)
        finally:
            self.chosen = kept

    def play(self, state: Any, i: int) -> Any:
        """From entry ``i`` on: a world (a state), or the set of hidden entries to blame."""
        history = self.history
        while i < len(history) and (action := history[i]) is not None:
            self.steps += 1
            at_chance = state.spiel.is_chance_node()
            if at_chance:
                self.chance_at.add(i)
            else:
                self.chance_at.discard(i)
            if not state.replay(action, self.seen[i]):
                if not at_chance and self.guided:
                    repaired = self.repair(state, i, action)
                    if repaired is not None:
                        return repaired
                # a known chance outcome that is not legal: a hidden entry took it
                blame = {j for j, (a, chance) in self.chosen.items() if a == action and chance} if at_chance else set()
                return blame or set(self.chosen)
            i += 1
        if i == len(history):
            if "hand" in self.observation:
                state.moves = self.observation["moves"]  # (with the moves of the hands before)
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
    share = max(RESTART, 2 * len(search.history))
    attempt = spent = 0
    while spent < budget:
        guided = attempt % 2 == 1
        steps = min(share * (GUIDED_SHARE if guided else 1), max(budget - spent, share))
        found = search.attempt(steps, guided)
        if found is not None:
            return found
        attempt, spent = attempt + 1, spent + steps
    raise Exhausted(f"{game.name}: no world fits the observation of seat {search.seat} within {budget} "
                    "steps of search")
