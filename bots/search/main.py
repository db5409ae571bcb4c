"""The search bot: wiring and the clock. The thinking is in search.py.

    python3 main.py                      think within the clock (see ``budget``)
    python3 main.py --iterations 400     exactly 400 search iterations a move, whatever the clock
    python3 main.py --seed 7             the seed of its own random choices (default 1)

A bot runs with no environment variables, so everything configurable is an argument in the
``command`` of bot.toml. With ``--iterations`` and ``--seed`` its play is reproducible.
"""
import random
import sys
import time

from search import choose as search_choose

# The engines are staged next to the SDK in the sandbox: importing them here, before the
# handshake, keeps the first move's clock for thinking (the start-up has its own allowance).
from arena.games import get_game
from arena.options import options_from_dict
from protocol import sdk

MOVE_SHARE = 0.3   # of each move's free time
BANK_SHARE = 1 / 50  # of what is left of the bank, every move: the bank lasts, shrinking slowly
MARGIN_MS = 15     # reading, decoding, answering, and a scheduler that is not always ours


def argument(name, default, kind):
    if name in sys.argv:
        return kind(sys.argv[sys.argv.index(name) + 1])
    return default


ITERATIONS = argument("--iterations", None, int)
SEED = argument("--seed", 1, int)


def budget(clock):
    """Seconds to think for this move: a share of the free move time plus a small share of the
    bank, less a safety margin. A move that stays under ``move_ms`` costs the bank nothing, so with
    these shares a bot whose machine is twice as slow as it thinks still never runs out."""
    ms = MOVE_SHARE * clock["move_ms"] + BANK_SHARE * clock["bank_ms"] - MARGIN_MS
    return max(ms, 1) / 1000


class Bot:
    def __init__(self):
        self.match = None  # (hello identity, game, options, rng), rebuilt on a new hello

    def setup(self):
        key = id(sdk.hello.get("options")), sdk.hello.get("seat")
        if self.match is None or self.match[0] != key:
            game = get_game(sdk.hello["game"])
            options = options_from_dict(game, sdk.hello["options"])
            self.match = (key, game, options, random.Random(SEED))
        return self.match[1:]

    def choose(self, observation, legal):
        started = time.monotonic()
        game, options, rng = self.setup()
        try:
            if ITERATIONS is not None:
                return search_choose(game, options, observation, legal, rng, iterations=ITERATIONS)
            act = getattr(sdk, "act", None)  # an SDK older than protocol.sdk.act: no bank then
            clock = (act or {}).get("clock") or {**sdk.hello["time_control"], "bank_ms": 0}
            return search_choose(game, options, observation, legal, rng,
                                 deadline=started + budget(clock), clock=time.monotonic)
        except Exception as exc:  # noqa: BLE001  (never lose a match to a bug: log it and play something legal)
            print(f"search failed ({type(exc).__name__}: {exc}); playing {legal[0]}", file=sys.stderr)
            return legal[0]


sdk.run(Bot().choose)
