"""Information-set Monte Carlo tree search on the game's own engine (SO-ISMCTS).

A bot does not know the other hands, so it cannot search the real game tree. Instead, every
iteration of the search:

1. **samples a world**: ``game.sample_state(options, observation, rng)`` deals the unseen cards or
   tiles again so that they fit everything this seat knows (its hand, the table, who passed or
   did not follow suit, ...). The world is a complete engine state; its future chance (later
   shuffles, dice) comes from our ``rng``, so playing it out is one *sample* of what may happen;
2. **walks down one shared tree** with the engine (``clone`` the world once, then ``apply``
   actions to it). The tree is keyed by actions, not by worlds, so what is learnt in one world is
   shared with every other world where the same actions are legal: this is what makes the tree
   about the *information set* and stops the bot from "peeking" at one particular deal. A child
   is chosen by UCB1 among the actions legal *in this world*, counting a child's chances
   (``avail``) only in the worlds where it could have been chosen;
3. **plays the rest out** quickly (a light per-game rollout policy) to the end of the current
   deal or turn (``evaluate.horizon_key``), never to the end of the match;
4. **scores** the end position per seat (``evaluate.rewards``) and adds each seat's reward to the
   nodes where that seat chose: every seat in the tree plays for itself (paranoid-free, works for
   2 to 8 players).

Chance inside the search (a dice roll) is not hidden: after an action that produced chance
events (``game.chance_events``), the outcome seen becomes part of the tree key, so "keep rolling
after a 5 came up" and "after a bust" are different nodes.

In some games (``POLICY_OPPONENTS``: Block) with 3 or more players the other seats do not search
in the tree: they play by the rollout policy there too, so every iteration refines this seat's
own decisions.
In Thousand's auction the other seats bid by the rollout policy in the tree (it reads their hand,
which statistics shared by all worlds cannot), and this seat searches only the bids worth a look
(``thousand.own_choices``).

The action played is the root child visited most (the most robust choice).
"""
from __future__ import annotations

import math
import random

import block
import cribbage
import dice
import thousand
import worlds
from evaluate import MAX_DEPTH, horizon_key, rewards, standing
from rollout import rollout_action

EXPLORE = 0.7  # the UCB1 constant, for rewards of about -1..1
WORLDS = 64     # distinct sampled worlds per decision; later iterations replay clones of them
WIDEN_FROM = 8  # another seat with more choices than this: only the first few are searched at first
# Games where, with 3 or more players, the other seats choose by the rollout policy inside the
# tree instead of by UCB.
# In Block every seat has only a few choices, and the others are what the tree would spend most
# iterations on with 3-4 players (each seat's moves branch), leaving few for our own decisions;
# the bundled Block bots play much like the rollout policy anyway (heaviest tile first). The
# others' moves still key the tree, so our later decisions are kept apart by what they did.
POLICY_OPPONENTS = {"block"}


class Node:
    """A decision point of the tree: the actions tried from it, each leading to outcomes."""

    __slots__ = ("children", "visits")

    def __init__(self) -> None:
        self.children: dict[str, Edge] = {}
        self.visits = 0


class Edge:
    """An action from a node: its statistics for the seat choosing it, and the node(s) after it
    (one per chance outcome seen; a single ``None`` key when the action involves no chance)."""

    __slots__ = ("seat", "visits", "total", "avail", "after")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.after: dict[object, Node] = {}


class Search:
    """One decision's search: call ``iterate()`` as often as time allows, then ``best(legal)``."""

    def __init__(self, game, options, observation: dict, rng: random.Random) -> None:
        self.game = game
        self.name = game.name
        self.options = options
        self.observation = observation
        self.rng = rng
        self.root = Node()
        self.iterations = 0
        self.worlds: list = []
        self.chance_types = frozenset(game.chance_events) if game.chance else frozenset()
        # with two players the tree's own opponent (UCB on our loss) is the sterner model and
        # shares the iterations with one seat only: kept there (both measured level vs greedy)
        self.policy_opponents = (game.name in POLICY_OPPONENTS
                                 and observation.get("num_players", 2) > 2)
        self.thousand = game.name == "thousand"  # its auction is searched apart: thousand.py

    def world(self):
        """A full state consistent with what we know (step 1), to play on. The first ``WORLDS``
        iterations sample new worlds; later ones clone them in turn, since a clone costs a
        fraction of a sample (a few hundred iterations then still see many different deals)."""
        if len(self.worlds) < WORLDS:
            world = self.game.sample_state(self.options, self.observation, self.rng)
            self.worlds.append(world)
        else:
            world = self.worlds[self.iterations % WORLDS]
        return world.clone()

    def iterate(self) -> None:
        world = self.world()
        root_key = horizon_key(self.name, world)
        root_scores = standing(self.name, world)
        rng = self.rng
        node = self.root
        path: list[Edge] = []
        depth = 0
        me = self.observation["seat"]
        # step 2: down the tree (UCB1 among the actions legal in this world), one new edge a time
        while not world.is_terminal() and horizon_key(self.name, world) == root_key:
            legal = world.legal_actions()
            seat = world.current_player()
            node.visits += 1
            children = node.children
            if seat != me and (self.policy_opponents or self.thousand and thousand.others_by_policy(world)):
                # the others play as the rollout policy would; their move still keys the tree
                action = rollout_action(self.name, world, rng)
                edge = children.get(action)
                if edge is None:
                    edge = children[action] = Edge(seat)
                node = self._step(world, action, edge)
                continue
            if seat != me and len(legal) > WIDEN_FROM:
                legal = self._widen(world, legal, node.visits)
            elif seat == me and self.thousand:
                legal = thousand.own_choices(world, legal)
            untried = [a for a in legal if a not in children]
            if untried:
                action = rng.choice(untried)
                edge = children[action] = Edge(seat)
                for a in legal:
                    e = children.get(a)
                    if e is not None:
                        e.avail += 1
                node = self._step(world, action, edge)
                path.append(edge)
                depth += 1
                break
            best, best_value = None, -math.inf
            for a in legal:
                e = children[a]
                e.avail += 1
                value = e.total / e.visits + EXPLORE * math.sqrt(math.log(e.avail) / e.visits)
                if value > best_value:
                    best, best_value = a, value
            edge = children[best]
            node = self._step(world, best, edge)
            path.append(edge)
            depth += 1
        # step 3: rollout to the horizon
        while depth < MAX_DEPTH and not world.is_terminal() and horizon_key(self.name, world) == root_key:
            world.apply(rollout_action(self.name, world, rng))
            depth += 1
        # step 4: back-propagation, each edge credited with its chooser's reward
        reward = rewards(self.name, root_scores, world)
        for edge in path:
            edge.visits += 1
            edge.total += reward[edge.seat]
        self.iterations += 1

    def _widen(self, world, legal: list[str], visits: int) -> list[str]:
        """Progressive widening at another seat's node with many choices (a Thousand bid or
        raise, a card to give): the rollout policy's choice and the first few legal actions, more
        as the node is visited more (about 4 + sqrt(visits)). Without it, a few hundred iterations
        spent mostly on the others' absurd choices (raising to 300 on a weak hand) would make
        our own moves look better than they are."""
        k = WIDEN_FROM // 2 + int(math.sqrt(visits))
        if k >= len(legal):
            return legal
        first = legal[:k]
        preferred = rollout_action(self.name, world, self.rng)
        return first if preferred in first else first + [preferred]

    def _step(self, world, action: str, edge: Edge) -> Node:
        """Apply ``action`` and return the node after it, split by any chance outcome seen."""
        events = world.events
        before = len(events)
        world.apply(action)
        key = None
        if self.chance_types:
            seen = [e for e in events[before:] if e.get("type") in self.chance_types]
            if seen:
                key = repr(seen)
        nxt = edge.after.get(key)
        if nxt is None:
            nxt = edge.after[key] = Node()
        return nxt

    def best(self, legal: list[str]) -> str:
        """The legal action visited most (ties: the better mean, then the first listed)."""
        def rank(a: str):
            e = self.root.children.get(a)
            return (e.visits, e.total / e.visits) if e and e.visits else (0, -math.inf)
        return max(legal, key=rank)

    def stats(self) -> dict[str, tuple[int, float]]:
        """Per root action: (visits, mean reward), for logs and tests."""
        return {a: (e.visits, e.total / e.visits if e.visits else 0.0)
                for a, e in self.root.children.items()}


def hinted_worlds(game, options, observation: dict, rng: random.Random,
                  deadline: float | None = None, clock=None) -> list:
    """The worlds a search starts from where the others' past choices hint at their hands
    (worlds.py): in Domino Cribbage the other's discard, in Block the others' plays. Elsewhere
    none: the search samples its worlds uniformly."""
    if game.name == "domino-cribbage" and cribbage.MODEL:
        return cribbage.plausible_worlds(game, options, observation, rng, WORLDS, deadline, clock)
    if game.name == "block" and block.MODEL:
        weight = block.play_weight(options, observation)
        if weight is not None:
            return worlds.plausible_worlds(game, options, observation, rng, WORLDS, weight,
                                           block.CANDIDATES, deadline, clock, distinct=True)
    return []


def choose(game, options, observation: dict, legal: list[str], rng: random.Random,
           iterations: int | None = None, deadline: float | None = None, clock=None) -> str:
    """Search and return an action. Stop after ``iterations``, or when ``clock()`` passes
    ``deadline`` (checked between iterations), whichever is set. Domino Cribbage's discard is
    valued by arithmetic rather than searched; its play, and Block, search worlds weighted by the
    others' past choices (``hinted_worlds``)."""
    if len(legal) == 1:
        return legal[0]  # nothing to think about: save the clock for later
    if game.name == "dice-1000":  # no hidden cards and known dice: solved exactly (dice.py)
        return dice.choose(game, options, observation, legal, rng,
                           None if iterations is not None else deadline, clock)
    if game.name == "domino-cribbage" and observation.get("phase") == "discard":
        return cribbage.choose_discard(game, options, observation, legal, rng, iterations,
                                       deadline, clock)
    search = Search(game, options, observation, rng)
    search.worlds = hinted_worlds(game, options, observation, rng, deadline, clock)
    if iterations is not None:
        for _ in range(iterations):
            search.iterate()
    else:
        search.iterate()
        while clock() < deadline:
            search.iterate()
    return search.best(legal)
