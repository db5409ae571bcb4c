"""One decision of the ospiel bot, from what a seat knows: the worlds to search (the true state,
or sampled ones) and the search on them (mcts.py). main.py wires it to the protocol and the
clock; benchmarks/ospiel_strength.py calls it in-process."""
from __future__ import annotations

import random
import sys
import time
from typing import Any

import mcts

from arena.games.openspiel.sample import sample
from arena.games.openspiel.state import action_texts

SAMPLE_SHARE = 0.3   # of the time to think, at most, for sampling worlds
MAX_WORLDS = 32
SAMPLE_STEPS = 3000  # a world's search gives up after this many steps (Game.sample_state: 20,000)


def worlds(game: Any, options: Any, spiel_game: Any, observation: dict, rng: random.Random,
           deadline: float, most: int = MAX_WORLDS) -> list:
    """States the seat cannot tell from the true one: the true one where nothing is hidden, else
    up to ``most`` sampled ones (at least one, then while a share of the time is left), each by
    the search of ``Game.sample_state`` with a smaller budget (where it finds none, the bot
    plays at random rather than spend its clock)."""
    if not game.hidden_information:
        state = spiel_game.new_initial_state()
        for action in observation["history"]:
            state.apply_action(action)
        return [state]
    found: list = []
    limit = time.monotonic() + SAMPLE_SHARE * max(deadline - time.monotonic(), 0)
    while len(found) < most and (not found or time.monotonic() < limit):
        try:
            found.append(sample(game, options, observation, rng, SAMPLE_STEPS).spiel)
        except Exception as exc:  # noqa: BLE001  (no world within the sampler's budget)
            print(f"no world sampled ({exc})", file=sys.stderr)
            break
    return found


def gin_rummy_playout(spiel_game: Any) -> Any:
    """Gin rummy's playouts: OpenSpiel's simple gin rummy bot draws, discards and knocks (as soon
    as it may, keeping the cards that meld); the melds and layoffs after a knock are random. A
    random player never knocks: playouts at random all end at the wall, a draw, and tell the
    search nothing of which hand is better."""
    import pyspiel
    gin = pyspiel.gin_rummy
    parameters = spiel_game.get_parameters()
    bots = [pyspiel.make_simple_gin_rummy_bot(parameters, seat) for seat in range(2)]
    phases = {gin.Phase.DRAW, gin.Phase.DISCARD, gin.Phase.FIRST_UPCARD}
    rng = random.Random(0)

    def move(state: Any) -> int:
        legal = state.legal_actions()
        if state.current_phase() in phases:
            bot = bots[state.current_player()]
            bot.restart()  # (it keeps a plan from step to step: each playout state is new to it)
            action = int(bot.step(state))
            if action in legal:
                return action
        return int(rng.choice(legal))
    return move


PLAYOUTS = {"openspiel:gin_rummy": gin_rummy_playout}  # games whose playouts are not uniformly random
_playouts: dict[int, tuple[Any, Any]] = {}


def playout_policy(name: str, spiel_game: Any) -> Any:
    """The playout policy of a game (``None``: uniformly random), made once per OpenSpiel game."""
    if name not in PLAYOUTS:
        return None
    kept = _playouts.get(id(spiel_game))
    if kept is None or kept[0] is not spiel_game:
        kept = _playouts[id(spiel_game)] = (spiel_game, PLAYOUTS[name](spiel_game))
    return kept[1]


def decide(game: Any, options: Any, spiel_game: Any, scale: float, observation: dict,
           legal: list[str], rng: random.Random, *, simulations: int | None = None,
           deadline: float = float("inf"), most_worlds: int = MAX_WORLDS) -> tuple[str, str]:
    """The action to play (one of ``legal``) and a note on how it was found."""
    found = worlds(game, options, spiel_game, observation, rng, deadline, most_worlds)
    if not found:
        return rng.choice(legal), "no world found: a random move"
    first = found[0]
    ids = action_texts([(a, first.action_to_string(first.current_player(), a)) for a in first.legal_actions()])
    stop = None if simulations is not None else (lambda: time.monotonic() > deadline)
    solve = not game.hidden_information and not game.chance  # outcomes can be proven
    root = mcts.search(lambda i: found[i % len(found)].clone(), rng, scale, simulations=simulations,
                       stop=stop, solve=solve, top=float(spiel_game.max_utility()) * scale,
                       playout=playout_policy(game.name, spiel_game))
    action = mcts.best(root, list(ids.values()), first.current_player() if solve else None)
    text = next(t for t, a in ids.items() if a == action)
    if text not in legal:
        raise ValueError(f"searched a move that is not legal here: {text!r}")
    visits = root[action].visits if action in root else 0
    return text, f"{visits} of {sum(e.visits for e in root.values())} simulations, {len(found)} worlds"
