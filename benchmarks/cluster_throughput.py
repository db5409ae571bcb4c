"""Cluster throughput: matches per second on a Dask LocalCluster of N workers against the local
pool of N worker processes.

    python benchmarks/cluster_throughput.py [--game NAME] [--workers N] [--entrants K] [--rounds R]
                                            [--repeats R]

Plays the same round-robin of random bots of a game (``--game``, default Block; the bundled
``bots/random``, entered K times under different names; full 2-player matches, default options
and time control) through
``run_tournament`` exactly as ``arena tournament run`` does, into a SQLite store:

- locally, with the process pool of N workers (``--workers N``);
- on a Dask ``LocalCluster`` of N worker processes of one thread each (as ``dask worker
  --nworkers N --nthreads 1`` starts them), as ``--cluster ADDRESS`` does: connecting to the
  scheduler, checking the workers, packing the bot folders and sending them, playing, storing.

The cluster is started once, before the runs (starting it is not arena's job). The two kinds of
run alternate, several times; on a shared machine the best run of each kind is the least
disturbed one. It prints matches per second over each whole run and over its steady state (first
to last finished match), and the cluster's rate relative to the local pool's.

Target on the 2-core reference machine: the cluster's whole-run rate >= 0.85 x the local pool's
(the price of the scheduler round trips and the bundles must stay small).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.games import DEFAULT_GAME, GAMES
from arena.sandbox.files import temp_base
from tournaments.cluster import CACHE_ENV, DaskBackend
from tournaments.config import parse_config
from tournaments.run import prepare, run_tournament
from tournaments.store import Store

ROOT = Path(__file__).resolve().parent.parent
RATIO_TARGET = 0.85


@dataclass(order=True)
class Figures:
    rate: float         # matches per second over the whole run
    steady: float       # matches per second from the first finished match to the last
    matches: int
    match_ms: float     # mean wall time of a match where it was played
    startup_ms: float   # of which: starting the bots and the handshake


def run_once(game: str, kind: str, workers: int, entrants: int, rounds: int, folder: Path,
             bot: Path, address: str | None) -> Figures:
    config = parse_config({
        "name": f"throughput-{kind}", "game": game, "seed": 1,
        "entrants": [{"path": str(bot), "name": f"random-{i}"} for i in range(entrants)],
        "format": {"type": "round-robin", "players": 2, "rounds": rounds},
    }, base_dir=folder, source="benchmark")
    prepared = prepare(config, folder / kind)
    started = time.perf_counter()
    if address is None:
        result = run_tournament(prepared, workers=workers, progress=False)
    else:
        with DaskBackend(address) as backend:
            result = run_tournament(prepared, backend=backend, progress=False)
    elapsed = time.perf_counter() - started
    with Store.open(result.store) as store:
        matches = store.matches.all()
    times = sorted(datetime.fromisoformat(m.finished_at).timestamp() for m in matches)
    steady = (len(times) - 1) / (times[-1] - times[0])
    return Figures(result.played / elapsed, steady, result.played,
                   sum(m.wall_ms for m in matches) / len(matches),
                   sum(m.startup_ms for m in matches) / len(matches))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=DEFAULT_GAME, choices=sorted(GAMES),
                        help=f"the game played (default {DEFAULT_GAME})")
    parser.add_argument("--workers", type=int, default=2, help="N (default 2)")
    parser.add_argument("--entrants", type=int, default=4,
                        help="random bots entered (default 4)")
    parser.add_argument("--rounds", type=int, default=4,
                        help="rounds of the round-robin (default 4)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of each kind, in alternation; the best of each counts (default 3)")
    parser.add_argument("--bot", type=Path, default=ROOT / "bots" / "random",
                        help="the bot folder entered K times (default: bots/random)")
    args = parser.parse_args()
    try:
        from distributed import LocalCluster
    except ImportError:
        print("needs dask[distributed]: pip install 'arena[cluster]'", file=sys.stderr)
        return 2
    local: list[Figures] = []
    dask: list[Figures] = []
    cache = Path(tempfile.mkdtemp(prefix="arena-bots-bench-", dir=temp_base()))
    os.chmod(cache, 0o755)
    os.environ[CACHE_ENV] = str(cache)  # a cold bundle cache, inherited by the workers
    try:
        with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp, \
                LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                             dashboard_address=":0", silence_logs=40) as cluster:
            folder = Path(tmp)
            address = cluster.scheduler_address
            run_once(args.game, "warm-local", args.workers, 2, 1, folder, args.bot, None)
            run_once(args.game, "warm-dask", args.workers, 2, 1, folder, args.bot, address)
            for i in range(args.repeats):
                local.append(run_once(args.game, f"local-{i}", args.workers, args.entrants,
                                      args.rounds, folder, args.bot, None))
                dask.append(run_once(args.game, f"dask-{i}", args.workers, args.entrants,
                                     args.rounds, folder, args.bot, address))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    best_local, best_dask = max(local), max(dask)
    n = args.workers
    ratio = best_dask.rate / best_local.rate
    steady_ratio = max(d.steady for d in dask) / max(p.steady for p in local)
    print(f"round-robin of {args.entrants} random {args.game} bots, {args.rounds} rounds: "
          f"{best_local.matches} full 2-player matches per run; best of {args.repeats} runs each, "
          "in alternation")
    print("all runs (matches/s): local pool " + ", ".join(f"{r.rate:.2f}" for r in local)
          + "; LocalCluster " + ", ".join(f"{r.rate:.2f}" for r in dask))
    for label, f in ((f"local pool, {n} workers:  ", best_local),
                     (f"LocalCluster, {n} workers:", best_dask)):
        print(f"{label} {f.rate:6.2f} matches/s (steady {f.steady:5.2f}/s)   mean match "
              f"{f.match_ms:6.1f} ms, of which bot start-up {f.startup_ms:5.1f} ms")
    print(f"steady-state ratio cluster / local = {steady_ratio:.2f}")
    ok = ratio >= RATIO_TARGET
    print(f"whole-run ratio cluster / local = {ratio:.2f}   target >= {RATIO_TARGET}: "
          f"{'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
