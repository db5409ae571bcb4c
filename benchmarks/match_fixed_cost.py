"""The fixed CPU cost of a match, seen from the outside: ``cpu per match = S + D x decisions``.

    python benchmarks/match_fixed_cost.py [--game NAME] [--entrants K] [--rounds R] [--repeats N]
                                          [--workers W]

Runs round-robin tournaments of random bots of a game (``--game``, default Block) exactly as
``arena tournament run`` does (worker processes, warm starts, the SQLite store), two kinds:
short matches, capped at one deal or round (``Game.capped_options``: for Block ``max_deals =
1``), and full matches with the default options (for Block, to 100). All their CPU
(referee, workers, store, every sandboxed bot, fork servers included) is counted in a
CPU-accounting cgroup (``benchmarks/cpu_meter.py``), which ``time`` and ``getrusage`` would miss.
Solving the two runs' per-match averages for ``S`` (the fixed cost of a match: starting, greeting,
ending and killing its bots, the worker's bookkeeping, storing it) and ``D`` (the CPU of one
decision: engine, wire, both bots' turns) gives both, with the fork server (the default) and with
the cold start (``limits.zygote = false``), in alternation. Each pair of runs (short and
full, back to back) gives its own S, D and ratio, all printed; the verdict takes their medians
over the pairs (``--repeats``), not the best pair: S and D come from a difference of two noisy
figures, so the pair with the lowest S tends to be one whose D came out high, which flatters
the ratio.

Targets: S <= 30 ms with the fork server; CPU of a full match <= 2 x its decisions' share
``D x decisions`` (its engine-and-wire CPU without start-up).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.game import Game  # noqa: E402
from arena.games import DEFAULT_GAME, GAMES, get_game  # noqa: E402
from arena.options import options_to_dict  # noqa: E402
from benchmarks.cpu_meter import CpuMeter  # noqa: E402
from tournaments.config import parse_config  # noqa: E402
from tournaments.run import prepare, run_tournament  # noqa: E402
from tournaments.store import Store  # noqa: E402

S_TARGET_MS = 30.0
RATIO_TARGET = 2.0


def capped_values(game: Game, players: int, most: int) -> dict:
    """The option values that cap a match of ``game`` at ``most`` deals or rounds
    (``Game.capped_options``), as a tournament file would give them: only those that differ from
    the defaults (for Block: ``{"max_deals": 1}``)."""
    capped = options_to_dict(game.capped_options(players, {}, most))
    default = options_to_dict(game.make_options(players, {}))
    return {k: v for k, v in capped.items() if default[k] != v}


def run(meter: CpuMeter, folder: Path, name: str, game: str, options: dict, fork_server: bool,
        entrants: int, rounds: int, workers: int, bot: Path) -> tuple[float, float, int]:
    """(CPU ms per match, decisions per match, matches) of one tournament."""
    config = parse_config({
        "name": name, "game": game, "seed": 7,
        "options": options,
        "limits": {"zygote": fork_server},
        "entrants": [{"path": str(bot), "name": f"random-{i}"} for i in range(entrants)],
        "format": {"type": "round-robin", "players": 2, "rounds": rounds},
    }, base_dir=folder, source="benchmark")
    prepared = prepare(config, folder / name)
    before = meter.usage_ns()
    result = run_tournament(prepared, workers=workers, progress=False)
    spent = (meter.usage_ns() - before) / 1e6
    with Store.open(result.store) as store:
        matches = store.matches.all()
        decisions = sum(len(store.matches.record(m.id).decisions) for m in matches)
    return spent / len(matches), decisions / len(matches), len(matches)


def solve(short: tuple[float, float, int], long: tuple[float, float, int]) -> tuple[float, float]:
    (c1, n1, _), (c2, n2, _) = short, long
    d = (c2 - c1) / (n2 - n1)
    return c1 - d * n1, d


def ratio_of(d: float, long: tuple[float, float, int]) -> float:
    """A full match's CPU over its decisions' share ``D x decisions``."""
    return long[0] / (d * long[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=DEFAULT_GAME, choices=sorted(GAMES),
                        help=f"the game played (default {DEFAULT_GAME})")
    parser.add_argument("--entrants", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--bot", type=Path, default=ROOT / "bots" / "random")
    args = parser.parse_args()
    game = get_game(args.game)
    short_options = capped_values(game, 2, 1)
    capped = ", ".join(f"{k} = {v}" for k, v in short_options.items()) or "uncapped"
    results: dict[bool, list[tuple[float, float, tuple, tuple]]] = {True: [], False: []}
    with CpuMeter() as meter, tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        folder = Path(tmp)
        run(meter, folder, "warm-up", game.name, short_options, True, 2, 1, args.workers, args.bot)
        for i in range(args.repeats):
            for fork_server in (True, False):
                tag = f"{'fork' if fork_server else 'cold'}-{i}"
                short = run(meter, folder, f"{tag}-short", game.name, short_options, fork_server,
                            args.entrants, args.rounds, args.workers, args.bot)
                long = run(meter, folder, f"{tag}-long", game.name, {}, fork_server, args.entrants,
                           args.rounds, args.workers, args.bot)
                s, d = solve(short, long)
                results[fork_server].append((s, d, short, long))
                print(f"{tag}: short ({capped}) {short[0]:.1f} ms/match over {short[1]:.0f} "
                      f"decisions, full {long[0]:.1f} ms/match over {long[1]:.0f} decisions -> "
                      f"S = {s:.1f} ms, D = {d * 1000:.0f} µs, ratio {ratio_of(d, long):.2f}",
                      flush=True)
    load = os.getloadavg()[0]
    print(f"\n{game.name}; CPU counted in {meter.kind}; {args.workers} worker(s); load average "
          f"{load:.1f} on {os.cpu_count()} cores")
    ok = True
    for fork_server, label in ((False, "cold start "), (True, "fork server")):
        pairs = results[fork_server]
        s = statistics.median(p[0] for p in pairs)
        d = statistics.median(p[1] for p in pairs)
        ratios = sorted(ratio_of(p[1], p[3]) for p in pairs)
        ratio = statistics.median(ratios)
        print(f"{label} (medians of {len(pairs)} pair{'s' * (len(pairs) != 1)}): "
              f"S = {s:5.1f} ms ({s / d:.0f} decisions' worth), D = {d * 1000:.0f} µs/decision; "
              f"a full match costs {ratio:.2f} x its decisions' share "
              f"(pairs: {', '.join(f'{r:.2f}' for r in ratios)})")
        if fork_server:
            ok = s <= S_TARGET_MS and ratio <= RATIO_TARGET
            print(f"targets: S <= {S_TARGET_MS:.0f} ms: {'met' if s <= S_TARGET_MS else 'MISSED'}; "
                  f"match / decisions <= {RATIO_TARGET}: {'met' if ratio <= RATIO_TARGET else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
