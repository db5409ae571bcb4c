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

import mcts
import player

from arena.game import Chance
from arena.games import get_game
from arena.options import options_from_dict
from protocol import sdk

MOVE_SHARE = 0.3     # of each move's free time
BANK_SHARE = 1 / 50  # of what is left of the bank, every move
MARGIN_MS = 15       # reading, decoding, answering, and a scheduler that is not always ours


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

    def setup(self, _hello=None):
        """The game, its options, the bot's random numbers, OpenSpiel's game and the search's
        scale, made once per match: at the hello (before ready, within startup_ms: loading some
        OpenSpiel games takes a second), else at the first move."""
        key = id(sdk.hello.get("options")), sdk.hello.get("seat")
        if self.match is None or self.match[0] != key:
            game = get_game(sdk.hello["game"])
            options = options_from_dict(game, sdk.hello["options"])
            rng = random.Random(SEED)
            spiel_game = game.spiel_game(options, Chance.from_rng(rng))
            self.match = (key, game, options, rng, spiel_game, mcts.return_scale(spiel_game))
        return self.match[1:]

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
            return player.decide(game, options, spiel_game, scale, observation, legal, rng,
                                 simulations=SIMULATIONS, deadline=deadline)
        except Exception as exc:  # noqa: BLE001  (never lose a match to a bug: log it and play something legal)
            print(f"search failed ({type(exc).__name__}: {exc}); playing {legal[0]}", file=sys.stderr)
            return legal[0]


bot = Bot()
sdk.run(bot.choose, on_hello=bot.setup)
