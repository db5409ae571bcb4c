"""Monte Carlo tree search on OpenSpiel's states (``pyspiel``), for any OpenSpiel game.

One tree of the moves from the position to play, open loop: a node is the sequence of the seats'
moves since the root (chance is not part of it: each simulation draws chance outcomes by their
probabilities). Each simulation starts from a world: the true state in a game without hidden
information, else one of the worlds sampled from what the seat knows (information-set MCTS with
determinisation: the same tree over every world, a move's statistics counted only where it was
legal). Selection by UCT (a move's mean return for the seat that makes it, plus
``c * sqrt(ln N / n)``, with N the visits of the moves legal there), one new node per
simulation, a uniformly random playout to the end, and every move on the path credited with the
mover's return, scaled so that the game's returns span 2 (as OpenSpiel's win/loss games do:
with c = 2 this is OpenSpiel's own MCTS with random rollouts). The move played is the one most
visited at the root.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

UCT_C = 2.0


class Edge:
    __slots__ = ("visits", "total", "child")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.child: dict[int, Edge] | None = None


def chance_outcome(state: Any, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    u, total = rng.random(), 0.0
    for action, p in outcomes:
        total += p
        if u < total:
            return action
    return outcomes[-1][0]


def search(worlds: Callable[[int], Any], rng: random.Random, scale: float, *,
           simulations: int | None = None, stop: Callable[[], bool] | None = None,
           uct_c: float = UCT_C) -> dict[int, Edge]:
    """The root's moves and their statistics after ``simulations`` simulations (or until ``stop()``
    says so); ``worlds(i)`` is the i-th simulation's starting state, a fresh copy."""
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
            untried = [a for a in legal if a not in node]
            if untried:
                action = rng.choice(untried)
                edge = node[action] = Edge()
                path.append((edge, player))
                state.apply_action(action)
                break
            log_n = math.log(sum(node[a].visits for a in legal))
            action = max(legal, key=lambda a: node[a].total / node[a].visits
                         + uct_c * math.sqrt(log_n / node[a].visits))
            edge = node[action]
            path.append((edge, player))
            state.apply_action(action)
            if edge.child is None:
                edge.child = {}
            node = edge.child
        while not state.is_terminal():  # the playout
            if state.is_chance_node():
                state.apply_action(chance_outcome(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        returns = state.returns()
        for edge, player in path:
            edge.visits += 1
            edge.total += returns[player] * scale
    return root


def best(root: dict[int, Edge], legal: list[int]) -> int:
    """The most visited legal move at the root (the first of OpenSpiel's order among equals)."""
    return max(legal, key=lambda a: root[a].visits if a in root else -1)


def return_scale(game: Any) -> float:
    """2 over the span of the game's returns (1 for a win/loss game), 1 when it is unknown."""
    try:
        span = float(game.max_utility()) - float(game.min_utility())
    except Exception:  # noqa: BLE001  (a game that does not say)
        return 1.0
    return 2.0 / span if math.isfinite(span) and span > 0 else 1.0
