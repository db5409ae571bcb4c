"""Tournament throughput: matches per second with 1 and with N workers, and bot start-up share.

    python benchmarks/tournament_throughput.py [--workers N] [--entrants K] [--rounds R]

Plays the same round-robin of random Block bots (the bundled ``bots/random``, entered K times
under different names; full 2-player matches with the default options and time control) twice,
through ``run_tournament`` exactly as ``arena tournament run`` does (worker processes, SQLite
store): once with 1 worker, once with N (default: one per core). It prints

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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.backends import default_workers  # noqa: E402
from tournaments.config import parse_config  # noqa: E402
from tournaments.run import prepare, run_tournament  # noqa: E402
from tournaments.store import Store  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EFFICIENCY_TARGET = 0.85
STARTUP_SHARE_TARGET = 0.25


def run_once(workers: int, entrants: int, rounds: int, folder: Path,
             bot: Path) -> tuple[float, int, float, float]:
    """(matches per second, matches, start-up share, mean match wall ms) of one run."""
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
    return result.played / elapsed, result.played, startup / wall, wall / len(matches)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="N, the parallel run's workers (default: one per core)")
    parser.add_argument("--entrants", type=int, default=4, help="random bots entered (default 4)")
    parser.add_argument("--rounds", type=int, default=6, help="rounds of the round-robin (default 6)")
    parser.add_argument("--bot", type=Path, default=ROOT / "bots" / "random",
                        help="the bot folder entered K times (default: bots/random)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        folder = Path(tmp)
        run_once(1, 2, 1, folder / "warm-up", args.bot)  # sandbox probe, page cache
        rate1, n1, share1, ms1 = run_once(1, args.entrants, args.rounds, folder, args.bot)
        rate_n, n_n, share_n, ms_n = run_once(args.workers, args.entrants, args.rounds, folder,
                                              args.bot)
    efficiency = rate_n / (args.workers * rate1)
    share = max(share1, share_n)
    print(f"round-robin of {args.entrants} random Block bots, {args.rounds} rounds: "
          f"{n1} matches per run (full 2-player matches)")
    print(f"1 worker:   {rate1:6.2f} matches/s   mean match {ms1:6.1f} ms   start-up share {share1:.0%}")
    print(f"{args.workers} workers:  {rate_n:6.2f} matches/s   mean match {ms_n:6.1f} ms   "
          f"start-up share {share_n:.0%}")
    ok_eff = efficiency >= EFFICIENCY_TARGET
    ok_share = share <= STARTUP_SHARE_TARGET
    print(f"parallel efficiency rate({args.workers}) / ({args.workers} x rate(1)) = "
          f"{efficiency:.2f}   target >= {EFFICIENCY_TARGET}: {'met' if ok_eff else 'MISSED'}")
    print(f"start-up share of match wall time = {share:.0%}   target <= "
          f"{STARTUP_SHARE_TARGET:.0%}: {'met' if ok_share else 'MISSED'}")
    return 0 if ok_eff and ok_share else 1


if __name__ == "__main__":
    sys.exit(main())
