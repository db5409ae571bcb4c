"""Monte Carlo tree search on OpenSpiel's states (``pyspiel``), for any OpenSpiel game.

One tree of the moves from the position to play, open loop: a node is the sequence of the seats'
moves since the root (chance is not part of it: each simulation draws chance outcomes by their
probabilities). Each simulation starts from a world: the true state in a game without hidden
information, else one of the worlds sampled from what the seat knows (information-set MCTS with
determinisation: the same tree over every world, a move's statistics counted only where it was
legal). Selection by UCT (a move's mean return for the seat that makes it, plus
``c * sqrt(ln N / n)``, with N the visits of the moves legal there; ties broken at random), one new node per
simulation, a uniformly random playout to the end, and every move on the path credited with the
mover's return, scaled so that the game's returns span 2 (as OpenSpiel's win/loss games do).

With ``solve`` (a game without chance and without hidden information), the search also proves
outcomes, as OpenSpiel's MCTS-Solver does: a move that ends the match has its exact returns; a
move after which the next seat has a move that wins outright for it, or whose every move is
proven, takes the best of them for that seat; a proven move is selected by its exact value, and
the move played is the best proven one, else the most visited. With c = 2 this is OpenSpiel's own
MCTS (``MCTSBot`` with a random-rollout evaluator, ``solve=True``).
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

UCT_C = 2.0


class Edge:
    __slots__ = ("visits", "total", "child", "outcome", "legal", "mover", "tie")

    def __init__(self, tie: float = 0.0) -> None:
        self.tie = tie  # a random number that breaks ties (a shuffled order, as OpenSpiel's)
        self.visits = 0
        self.total = 0.0
        self.child: dict[int, Edge] | None = None  # the moves after this one
        self.outcome: tuple[float, ...] | None = None  # proven returns (scaled), with ``solve``
        self.legal: list[int] | None = None  # the legal moves after this one, once seen
        self.mover = -1  # the seat to move after this one (with ``solve``)


def chance_outcome(state: Any, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    u, total = rng.random(), 0.0
    for action, p in outcomes:
        total += p
        if u < total:
            return action
    return outcomes[-1][0]


def _value(edge: Edge, player: int, log_n: float, uct_c: float) -> float:
    if edge.outcome is not None:
        return edge.outcome[player]
    return edge.total / edge.visits + uct_c * math.sqrt(log_n / edge.visits)


def _prove(edge: Edge, top: float) -> None:
    """With ``solve``: ``edge``'s outcome from its children's, where they decide it."""
    if edge.outcome is not None or edge.child is None or edge.legal is None:
        return
    mover, children = edge.mover, edge.child
    proven = [children[a].outcome for a in edge.legal if a in children and children[a].outcome is not None]
    if any(o[mover] >= top for o in proven):  # a win for the seat to move
        edge.outcome = next(o for o in proven if o[mover] >= top)
    elif len(proven) == len(edge.legal):
        edge.outcome = max(proven, key=lambda o: o[mover])


def search(worlds: Callable[[int], Any], rng: random.Random, scale: float, *,
           simulations: int | None = None, stop: Callable[[], bool] | None = None,
           uct_c: float = UCT_C, solve: bool = False, top: float = 1.0,
           playout: Callable[[Any], int] | None = None) -> dict[int, Edge]:
    """The root's moves and their statistics after ``simulations`` simulations (or until ``stop()``
    says so); ``worlds(i)`` is the i-th simulation's starting state, a fresh copy. ``top``: the
    best scaled return (a win), for ``solve``. ``playout``: the move of the seat to move in a
    playout (default: uniformly random)."""
    root: dict[int, Edge] = {}
    i = 0
    while (simulations is None or i < simulations) and (stop is None or i == 0 or not stop()):
        state = worlds(i)
        i += 1
        node = root
        path: list[tuple[Edge, int]] = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance_outcome(state, rng))
                continue
            player = state.current_player()
            legal = state.legal_actions()
            if path and solve and path[-1][0].legal is None:
                path[-1][0].legal, path[-1][0].mover = legal, player
            untried = [a for a in legal if a not in node]
            if untried:
                action = rng.choice(untried)
                edge = node[action] = Edge(rng.random())
                path.append((edge, player))
                state.apply_action(action)
                break
            log_n = math.log(sum(node[a].visits for a in legal))
            action = max(legal, key=lambda a: (_value(node[a], player, log_n, uct_c), node[a].tie))
            edge = node[action]
            path.append((edge, player))
            state.apply_action(action)
            if edge.child is None:
                edge.child = {}
            node = edge.child
        if solve and path and state.is_terminal() and path[-1][0].outcome is None:
            path[-1][0].outcome = tuple(r * scale for r in state.returns())
        while not state.is_terminal():  # the playout
            if state.is_chance_node():
                state.apply_action(chance_outcome(state, rng))
            elif playout is not None:
                state.apply_action(playout(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        returns = state.returns()
        for edge, player in reversed(path):
            edge.visits += 1
            edge.total += returns[player] * scale
            if solve:
                _prove(edge, top)
    return root


def best(root: dict[int, Edge], legal: list[int], player: int | None = None) -> int:
    """The move to play: the best proven one for ``player`` when there is one that is not a loss
    of the others' choosing, else the most visited legal move, and among those the one with the
    most return (as OpenSpiel's MCTS chooses; equals in a random order)."""
    def key(a: int) -> tuple[float, int, float, float]:
        edge = root.get(a)
        if edge is None:
            return (0.0, -1, 0.0, 0.0)
        proven = edge.outcome[player] if edge.outcome is not None and player is not None else 0.0
        return (proven, edge.visits, edge.total, edge.tie)
    return max(legal, key=key)


def return_scale(game: Any) -> float:
    """2 over the span of the game's returns (1 for a win/loss game), 1 when it is unknown."""
    try:
        span = float(game.max_utility()) - float(game.min_utility())
    except Exception:  # noqa: BLE001  (a game that does not say)
        return 1.0
    return 2.0 / span if math.isfinite(span) and span > 0 else 1.0
