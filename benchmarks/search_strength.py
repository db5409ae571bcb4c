"""How strong is the search bot? Duplicate matches in-process against the other bundled bots.

    python benchmarks/search_strength.py strength [--game NAME] [--iterations N] [--pairs N]
    python benchmarks/search_strength.py time [--game NAME] [--ms 10,50,200] [--pairs N]
    python benchmarks/search_strength.py deals [--game NAME] [--players N] [--iterations N] [--pairs N]

``strength`` (the figures in bots/search/README.md), per game at a fixed iteration count:

- 2 players: ``--pairs`` duplicate pairs against each other bundled bot of the game (the same
  seed played twice, the search bot in each seat); a win counts 1, a shared first place 1/2. The
  95% interval of the mean is from the pair scores (normal approximation); "beats" means its lower
  end is above 1/2.
- 3 players and more: a round robin of every choice of players from {search, the game's bots,
  random} in every seat rotation over ``--pairs`` seeds, rated with TrueSkill (the tournament's
  own environment); the search bot should have the best mu. With more seats than bots (Dice 1000
  has 5 bots and up to 8 players) every bot plays and some take two seats, a different choice of
  them each seed (``tables``): take a multiple of their number of choices as seeds (5 for 6
  players, 10 for 7 and 8) so that every bot holds as many seats as the others.

``time``: the same 2-player duplicate score against the strongest other bot, with the search
thinking a fixed wall time per move instead of a fixed iteration count (strength against time).

``deals``: points rather than places. Per seed and seat, one deal of a match of the strongest
other bot (drawn among the match's deals: ``deal_gains``) is played twice from the same position,
with the search in that seat and with that bot there; the mean difference of the seat's gain
less the others' average gain, with its 95% interval. Dice 1000 has no deals (a turn is one
seat's) and is left out.

Everything is in-process through the engine (no sandbox), seeded: the same command prints the
same figures on any machine (``time`` excepted, which depends on the machine's speed).
"""
from __future__ import annotations

import argparse
import functools
import importlib.util
import itertools
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this tree's arena and protocol, not an installed copy
sys.path.insert(0, str(ROOT / "bots" / "search"))  # the bot's own modules: search, evaluate, rollout

import search as search_module  # noqa: E402

from arena.games import GAMES, get_game  # noqa: E402

# The other bundled bots of each game, strongest first (as their own tests and docs measure them).
OPPONENTS = {
    "block": ["greedy", "heavy", "random"],
    "thousand": ["thousand", "thousand_bold", "random"],
    "dice-1000": ["expecti", "threshold", "threshold-200", "random"],
    "domino-cribbage": ["pegger", "random"],
}
DEFAULT_ITERATIONS = 200


@functools.cache
def _load(folder: str, module: str = "strategy"):
    """A bundled bot's module, loaded once: its caches (expecti's end-game tables) then last the
    whole run, as they last a whole match in the bot's own process."""
    spec = importlib.util.spec_from_file_location(f"_{folder}_{module}",
                                                  ROOT / "bots" / folder / f"{module}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def bundled(name: str, game_name: str, seed: int | str, options=None):
    """``choose(observation, legal)`` of a bundled bot, in-process (``seed`` for random ones)."""
    if name == "random":
        rng = random.Random(f"random {seed}")
        return lambda obs, legal: rng.choice(legal)
    if name == "heavy":
        def pips(action: str) -> int:
            tile = action.partition(":")[0]
            return sum(int(h) for h in tile.split("-")) if "-" in tile else -1
        return lambda obs, legal: max(legal, key=pips)
    if name in ("thousand", "thousand_bold"):
        return _load("thousand").Strategy(1.15 if name == "thousand_bold" else 1.0).choose
    if name in ("threshold", "threshold-200"):
        limit = 200 if name == "threshold-200" else 300
        choose = _load("threshold", "main").choose
        return lambda obs, legal: choose(obs, legal, limit)
    if name == "expecti":  # it takes the options as a third argument
        from arena.options import options_to_dict
        values, choose = options_to_dict(options), _load(name).choose
        return lambda obs, legal: choose(obs, legal, values)
    strategy = _load(name)
    if hasattr(strategy, "set_options") and options is not None:  # pegger reads a few options
        from arena.options import options_to_dict
        strategy.set_options(options_to_dict(options))
    if hasattr(strategy, "choose"):
        return strategy.choose
    return strategy.Strategy().choose


def searcher(game, options, seed: int | str, iterations: int | None = None, ms: float | None = None):
    """The search bot's ``choose``, in-process, reproducible from ``seed`` at fixed iterations."""
    rng = random.Random(seed)

    def choose(obs, legal):
        if iterations is not None:
            return search_module.choose(game, options, obs, legal, rng, iterations=iterations)
        return search_module.choose(game, options, obs, legal, rng,
                                    deadline=time.monotonic() + ms / 1000, clock=time.monotonic)
    return choose


def play(game, options, seed: int, players) -> tuple[int, ...]:
    """One match; ``players[s]`` is seat s's choose. Returns the ranks."""
    state = game.new_match(options, seed)
    while not state.is_terminal():
        seat, legal = state.current_player(), state.legal_actions()
        action = legal[0] if len(legal) == 1 else players[seat](state.observation(seat), list(legal))
        state.apply(action)
    return state.result().ranks


def first_share(ranks, seat: int) -> float:
    """1 for a sole first place, 1/k for a first place shared by k, else 0."""
    if ranks[seat] != 1:
        return 0.0
    return 1.0 / sum(1 for r in ranks if r == 1)


def duplicate(game_name: str, opponent: str, pairs: int, iterations: int | None = None,
              ms: float | None = None, values: dict | None = None, first_seed: int = 0):
    """2-player duplicate pairs: (mean score, half-width of its 95% interval, pair scores)."""
    game = get_game(game_name)
    options = game.make_options(2, values or {})
    scores = []
    for seed in range(first_seed, first_seed + pairs):
        pair = 0.0
        for seat in (0, 1):
            players = [None, None]
            players[seat] = searcher(game, options, seed, iterations, ms)
            players[1 - seat] = bundled(opponent, game_name, seed, options)
            pair += first_share(play(game, options, seed, players), seat)
        scores.append(pair / 2)
    return _interval(scores) + (scores,)


def deal_gains(game_name: str, n: int, seeds: int, iterations: int, opponent: str,
               within: int | None = None, first_seed: int = 0, challenger=None) -> list[float]:
    """Paired single deals: per seed and seat, a deal of a match played by ``opponent`` in every
    seat (drawn with the seed among the match's deals, or among its first ``within``, so that
    early and late positions, barrels and bolts, the deals that end a match too, come up as
    often as in real play), played twice from the same position: once with the search in that
    seat, once with ``opponent`` there. Returns, per deal, how many points more the search made
    than the bot it replaced, counting a seat's gain less the others' average gain (a deal's
    horizon is the search's own, ``evaluate.horizon_key``). The same deal, the same others: far
    less noise than whole matches, so it shows an edge in points that a round robin of a few
    dozen matches cannot; whether points become places is the round robin's question.
    ``challenger(game, options, seed)`` makes the player measured instead of the search
    (tests)."""
    from evaluate import horizon_key
    game = get_game(game_name)
    options = game.make_options(n, {})

    def play_deal(state, players):
        """Play the current deal of ``state`` out; its gains per seat."""
        key, before = horizon_key(game_name, state), state.scores()
        while not state.is_terminal() and horizon_key(game_name, state) == key:
            seat, legal = state.current_player(), state.legal_actions()
            action = legal[0] if len(legal) == 1 else players[seat](state.observation(seat), list(legal))
            state.apply(action)
        return [a - b for a, b in zip(state.scores(), before)]

    def relative(gains, me) -> float:
        return gains[me] - (sum(gains) - gains[me]) / (n - 1)

    out = []
    for seed in range(first_seed, first_seed + seeds):
        state = game.new_match(options, seed)
        others = [bundled(opponent, game_name, f"{seed} {s}", options) for s in range(n)]
        starts = []  # the start of every deal of the match (of its first ``within``)
        while not state.is_terminal() and len(starts) != within:
            starts.append(state.clone())
            play_deal(state, others)
        start = starts[random.Random(f"deal {seed}").randrange(len(starts))]
        for me in range(n):
            # fresh players for each replay, seeded alike: a bot's own random choices repeat
            players = [bundled(opponent, game_name, f"{seed} {s} deal", options) for s in range(n)]
            baseline = relative(play_deal(start.clone(), players), me)
            players = [bundled(opponent, game_name, f"{seed} {s} deal", options) for s in range(n)]
            players[me] = (challenger(game, options, seed) if challenger
                           else searcher(game, options, seed, iterations))
            out.append(relative(play_deal(start.clone(), players), me) - baseline)
    return out


def _interval(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.25
    return mean, 1.96 * math.sqrt(var / n)


def tables(pool: list[str], n: int, seed: int) -> list[tuple[str, ...]]:
    """The tables of one seed's round robin, each to be played in every seat rotation.

    Up to as many players as bots: every choice of ``n`` of them. With more seats than bots
    (Dice 1000 seats 8, there are 5 bots) every bot sits at the table, the extra seats going to
    a choice of bots that take two (or more) seats each: one choice per seed, in turn, so over
    every ``len(choices)`` seeds each bot holds the same number of seats. The table seats the
    pool in order, then the second seats in pool order (the rotations then put every bot in
    every seat)."""
    if n <= len(pool):
        return list(itertools.combinations(pool, n))
    rounds, extra = divmod(n, len(pool))
    choices = list(itertools.combinations(pool, extra))
    twice = choices[seed % len(choices)]
    return [tuple(pool * rounds + [name for name in pool if name in twice])]


def rate_seats(env, ratings: dict, names, ranks) -> None:
    """Rate one match into ``ratings`` (one per bot), as a tournament rates it when every seat is
    a bot of its own. A bot in several seats is rated in each from its rating before the match,
    and the evidence of its seats is multiplied (Gaussian precisions add up over the prior): a
    bot in one seat gets exactly the tournament's update."""
    teams = env.rate([(ratings[name],) for name in names], ranks=[r - 1 for r in ranks])
    updates: dict[str, list] = {}
    for name, (rating,) in zip(names, teams):
        updates.setdefault(name, []).append(rating)
    for name, got in updates.items():
        if len(got) == 1:
            ratings[name] = got[0]
            continue
        before = ratings[name]
        sigma2 = before.sigma ** 2 + env.tau ** 2  # the prior env.rate started each seat from
        pi, tau = 1 / sigma2, before.mu / sigma2
        pi_all = pi + sum(r.pi - pi for r in got)
        tau_all = tau + sum(r.tau - tau for r in got)
        ratings[name] = env.create_rating(mu=tau_all / pi_all, sigma=pi_all ** -0.5)


def round_robin(game_name: str, n: int, seeds: int, iterations: int, values: dict | None = None,
                first_seed: int = 0):
    """Every choice of ``n`` players among search + the game's bots (``tables``), each seat
    rotation, rated with TrueSkill as a tournament rates them. Returns {bot: (mu, sigma)}."""
    from tournaments.ratings import make_env
    game = get_game(game_name)
    options = game.make_options(n, values or {})
    pool = ["search"] + OPPONENTS[game_name]
    env = make_env(0.05 if game.can_draw else 0.0)
    ratings = {name: env.create_rating() for name in pool}
    for seed in range(first_seed, first_seed + seeds):
        for group in tables(pool, n, seed):
            for shift in range(n):
                names = group[shift:] + group[:shift]
                # a bot's copies draw their random choices apart: "random" twice is two players
                own = [seed if names[:s].count(name) == 0 else f"{seed} {names[:s].count(name)}"
                       for s, name in enumerate(names)]
                players = [searcher(game, options, own[s], iterations) if name == "search"
                           else bundled(name, game_name, own[s], options)
                           for s, name in enumerate(names)]
                rate_seats(env, ratings, names, play(game, options, seed, players))
    return {name: (r.mu, r.sigma) for name, r in ratings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("strength", "time", "deals"))
    parser.add_argument("--game", action="append", help="a game (default: every registered game)")
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--pairs", type=int, default=100, help="duplicate pairs (or round-robin seeds)")
    parser.add_argument("--players", type=int, action="append", help="player counts (default: all)")
    parser.add_argument("--ms", default="10,50,200", help="thinking times per move for 'time'")
    parser.add_argument("--opponent", action="append",
                        help="2 players: only this bundled bot (default: every bot of the game)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first seed (of the pairs or the round robin)")
    args = parser.parse_args()
    for name in args.game or sorted(GAMES):
        game = get_game(name)
        opponents = [o for o in OPPONENTS.get(name, ["random"]) if (ROOT / "bots" / o).is_dir()
                     and (not args.opponent or o in args.opponent)]
        counts = [c for c in (args.players or game.player_counts) if c in game.player_counts]
        started = time.monotonic()
        if args.what == "deals":
            if name == "dice-1000":
                print(f"{name}: no deals (a turn is one seat's); see strength", flush=True)
                continue
            for n in counts:
                opponent = opponents[0]
                gains = deal_gains(name, n, args.pairs, args.iterations, opponent,
                                   first_seed=args.first_seed)
                mean, half = _interval(gains)
                print(f"{name} {n}p, {args.iterations} iterations: {mean:+.1f} ± {half:.1f} points "
                      f"a deal over {opponent} in its seat ({len(gains)} paired deals) "
                      f"[{time.monotonic() - started:.0f} s]", flush=True)
            continue
        if args.what == "time":
            for ms in (float(x) for x in args.ms.split(",")):
                mean, half, _ = duplicate(name, opponents[0], args.pairs, ms=ms)
                print(f"{name}: {ms:.0f} ms a move vs {opponents[0]}: {mean:.3f} ± {half:.3f} "
                      f"({args.pairs} pairs)", flush=True)
            continue
        for n in counts:
            if n == 2:
                for opp in opponents:
                    mean, half, _ = duplicate(name, opp, args.pairs, iterations=args.iterations,
                                              first_seed=args.first_seed)
                    verdict = "beats" if mean - half > 0.5 else "does NOT beat"
                    print(f"{name} 2p, {args.iterations} iterations: vs {opp} {mean:.3f} ± {half:.3f} "
                          f"over {args.pairs} pairs: {verdict} it at 95% "
                          f"[{time.monotonic() - started:.0f} s]", flush=True)
            else:
                mus = round_robin(name, n, args.pairs, args.iterations, first_seed=args.first_seed)
                table = ", ".join(f"{k} {m:.1f}±{s:.1f}" for k, (m, s) in
                                  sorted(mus.items(), key=lambda kv: -kv[1][0]))
                best = max(mus, key=lambda k: mus[k][0])
                print(f"{name} {n}p round robin, {args.iterations} iterations, {args.pairs} seeds "
                      f"from {args.first_seed}: "
                      f"{table}; best mu: {best} [{time.monotonic() - started:.0f} s]", flush=True)


if __name__ == "__main__":
    main()
