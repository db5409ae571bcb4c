"""Tournament throughput: matches per second with 1 and with N workers, and bot start-up share.

    python benchmarks/tournament_throughput.py [--workers N] [--entrants K] [--rounds R] [--repeats R]

Plays the same round-robin of random Block bots (the bundled ``bots/random``, entered K times
under different names; full 2-player matches with the default options and time control) twice,
through ``run_tournament`` exactly as ``arena tournament run`` does (worker processes, SQLite
store): with 1 worker and with N (default: one per core), alternately, several times; on a shared
machine the best run of each kind is the least disturbed one. It prints

- matches per second of each run (wall time of the whole run: worker start-up, playing, storing);
- parallel efficiency = rate(N) / (N × rate(1));
- the start-up share: the time from asking for a match until its first game event (starting the
  bots in their sandbox and the handshake), summed over matches, over the summed wall time of the
  matches — as the workers measured them (the store keeps both per match).

Targets on the 2-core reference machine: efficiency >= 0.85; start-up share <= 25%.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.backends import default_workers  # noqa: E402
from tournaments.config import parse_config  # noqa: E402
from tournaments.run import prepare, run_tournament  # noqa: E402
from tournaments.store import Store  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EFFICIENCY_TARGET = 0.85
STARTUP_SHARE_TARGET = 0.25


@dataclass(order=True)
class Figures:
    rate: float         # matches per second over the whole run (worker start-up included)
    steady: float       # matches per second from the first finished match to the last
    matches: int
    startup_share: float
    match_ms: float     # mean wall time of a match in its worker


def run_once(workers: int, entrants: int, rounds: int, folder: Path, bot: Path) -> Figures:
    """Play one tournament with ``workers`` workers and measure it."""
    config = parse_config({
        "name": f"throughput-{workers}", "game": "block", "seed": 1,
        "entrants": [{"path": str(bot), "name": f"random-{i}"} for i in range(entrants)],
        "format": {"type": "round-robin", "players": 2, "rounds": rounds},
    }, base_dir=folder, source="benchmark")
    prepared = prepare(config, folder / f"workers-{workers}")
    started = time.perf_counter()
    result = run_tournament(prepared, workers=workers, progress=False)
    elapsed = time.perf_counter() - started
    with Store.open(result.store) as store:
        matches = store.matches()
    startup = sum(m.startup_ms for m in matches)
    wall = sum(m.wall_ms for m in matches)
    times = sorted(datetime.fromisoformat(m.finished_at).timestamp() for m in matches)
    steady = (len(times) - 1) / (times[-1] - times[0])
    return Figures(result.played / elapsed, steady, result.played, startup / wall,
                   wall / len(matches))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="N, the parallel run's workers (default: one per core)")
    parser.add_argument("--entrants", type=int, default=4, help="random bots entered (default 4)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of the round-robin (default 4)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of each kind, in alternation; the best of each counts (default 3)")
    parser.add_argument("--bot", type=Path, default=ROOT / "bots" / "random",
                        help="the bot folder entered K times (default: bots/random)")
    args = parser.parse_args()
    serial: list[Figures] = []
    parallel: list[Figures] = []
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        folder = Path(tmp)
        run_once(1, 2, 1, folder / "warm-up", args.bot)  # sandbox probe, page cache
        for i in range(args.repeats):
            serial.append(run_once(1, args.entrants, args.rounds, folder / f"s{i}", args.bot))
            parallel.append(run_once(args.workers, args.entrants, args.rounds, folder / f"p{i}",
                                     args.bot))
    one, many = max(serial), max(parallel)
    n = args.workers
    efficiency = many.rate / (n * one.rate)
    steady_efficiency = max(p.steady for p in parallel) / (n * max(s.steady for s in serial))
    share = max(one.startup_share, many.startup_share)
    print(f"round-robin of {args.entrants} random Block bots, {args.rounds} rounds: {one.matches} "
          f"full 2-player matches per run; best of {args.repeats} runs each, in alternation")
    print("all runs (matches/s): 1 worker " + ", ".join(f"{r.rate:.2f}" for r in serial)
          + f"; {n} workers " + ", ".join(f"{r.rate:.2f}" for r in parallel))
    for label, f in (("1 worker: ", one), (f"{n} workers:", many)):
        print(f"{label} {f.rate:6.2f} matches/s (steady {f.steady:5.2f}/s)   mean match "
              f"{f.match_ms:6.1f} ms   start-up share {f.startup_share:.0%}")
    print(f"steady-state efficiency (first to last match) = {steady_efficiency:.2f}")
    ok_eff = efficiency >= EFFICIENCY_TARGET
    ok_share = share <= STARTUP_SHARE_TARGET
    print(f"parallel efficiency rate({n}) / ({n} x rate(1)) = "
          f"{efficiency:.2f}   target >= {EFFICIENCY_TARGET}: {'met' if ok_eff else 'MISSED'}")
    print(f"start-up share of match wall time = {share:.0%}   target <= "
          f"{STARTUP_SHARE_TARGET:.0%}: {'met' if ok_share else 'MISSED'}")
    return 0 if ok_eff and ok_share else 1


if __name__ == "__main__":
    sys.exit(main())
