"""ospiel: any OpenSpiel game by Monte Carlo tree search on OpenSpiel's engine (mcts.py).

    python3 main.py                      think within the clock (see ``budget``)
    python3 main.py --simulations 400    exactly 400 simulations a move, whatever the clock
    python3 main.py --seed 7             the seed of its own random choices (default 1)

OpenSpiel (``pyspiel``) and arena's adapter of its games are staged beside the SDK in the
sandbox. In a game without hidden information the bot plays the observation's ``history`` onto
a new state: the true position. Otherwise it samples worlds from what it knows
(``Game.sample_state``: every step it may not know chosen again, consistent with its view) and
searches one tree over them.
"""
import random
import sys
import time

from arena.game import Chance
from arena.games import get_game
from arena.games.openspiel.state import action_texts
from arena.options import options_from_dict
from protocol import sdk
import mcts

MOVE_SHARE = 0.3     # of each move's free time
BANK_SHARE = 1 / 50  # of what is left of the bank, every move
MARGIN_MS = 15       # reading, decoding, answering, and a scheduler that is not always ours
SAMPLE_SHARE = 0.3   # of the budget at most for sampling worlds
MAX_WORLDS = 32


def argument(name, default, kind):
    if name in sys.argv:
        return kind(sys.argv[sys.argv.index(name) + 1])
    return default


SIMULATIONS = argument("--simulations", None, int)
SEED = argument("--seed", 1, int)


def budget(clock):
    ms = MOVE_SHARE * clock["move_ms"] + BANK_SHARE * clock["bank_ms"] - MARGIN_MS
    return max(ms, 1) / 1000


class Bot:
    def __init__(self):
        self.match = None

    def setup(self):
        key = id(sdk.hello.get("options")), sdk.hello.get("seat")
        if self.match is None or self.match[0] != key:
            game = get_game(sdk.hello["game"])
            options = options_from_dict(game, sdk.hello["options"])
            rng = random.Random(SEED)
            spiel_game = game.spiel_game(options, Chance.from_rng(rng))
            self.match = (key, game, options, rng, spiel_game, mcts.return_scale(spiel_game))
        return self.match[1:]

    def worlds(self, game, options, spiel_game, observation, rng, deadline):
        """States the seat cannot tell from the true one: the true one where nothing is hidden."""
        if not game.hidden_information:
            state = spiel_game.new_initial_state()
            for action in observation["history"]:
                state.apply_action(action)
            return [state]
        found = []
        limit = time.monotonic() + SAMPLE_SHARE * max(deadline - time.monotonic(), 0)
        while len(found) < MAX_WORLDS and (not found or time.monotonic() < limit):
            try:
                found.append(game.sample_state(options, observation, rng).spiel)
            except Exception as exc:  # noqa: BLE001  (no world within the search's budget)
                print(f"no world sampled ({exc})", file=sys.stderr)
                break
        return found

    def choose(self, observation, legal):
        started = time.monotonic()
        game, options, rng, spiel_game, scale = self.setup()
        try:
            if SIMULATIONS is None:
                act = getattr(sdk, "act", None)
                clock = (act or {}).get("clock") or {**sdk.hello["time_control"], "bank_ms": 0}
                deadline = started + budget(clock)
            else:
                deadline = float("inf")
            worlds = self.worlds(game, options, spiel_game, observation, rng, deadline)
            if not worlds:
                return rng.choice(legal)
            first = worlds[0]
            ids = action_texts([(a, first.action_to_string(first.current_player(), a))
                                for a in first.legal_actions()])
            root = mcts.search(lambda i: worlds[i % len(worlds)].clone(), rng, scale,
                               simulations=SIMULATIONS,
                               stop=None if SIMULATIONS is not None else lambda: time.monotonic() > deadline)
            action = mcts.best(root, list(ids.values()))
            text = next(t for t, a in ids.items() if a == action)
            if text not in legal:
                raise ValueError(f"searched a move that is not legal here: {text!r}")
            visits = root[action].visits if action in root else 0
            return text, f"{visits} of {sum(e.visits for e in root.values())} simulations, {len(worlds)} worlds"
        except Exception as exc:  # never lose a match to a bug: log it and play something legal
            print(f"search failed ({type(exc).__name__}: {exc}); playing {legal[0]}", file=sys.stderr)
            return legal[0]


sdk.run(Bot().choose)
