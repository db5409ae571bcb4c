"""Matches per second of a format that plans batch by batch (adaptive, SPRT) against a
round-robin of the same matches.

    python benchmarks/batched_formats.py [--game NAME] [--entrants N] [--matches M]
                                         [--workers W] [--repeats R]

N copies of the bundled random bot (equal entrants: the adaptive never settles, so it plays all
its ``max_matches``) play M matches, every match capped at one deal or round of the game, on W
workers, through ``run_tournament`` as ``arena tournament run`` does (worker processes, SQLite
store, no report), three ways, alternately, R times (the best run of each kind is the least
disturbed one on a shared machine):

- **round-robin**: the baseline, every match known in advance and handed to the workers at once;
- **adaptive**: ``max_matches`` M, batches of ``4 × W`` matches, each planned from the results of
  the ones before; the workers are kept from batch to batch (``ProcessBackend.session``);
- **adaptive, workers started per batch**: the same with a worker pool started for every batch
  (and its bots' fork servers with it), as it was before the session.

It prints each one's matches per second and its ratio to the round-robin's. What the adaptive
still loses is the wait at the end of each batch for its last match.
"""
from __future__ import annotations

import argparse
import contextlib
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.bots import BUNDLED_BOTS
from arena.games import DEFAULT_GAME, GAMES, get_game
from benchmarks.match_fixed_cost import capped_values
from tournaments.backends import ProcessBackend
from tournaments.config import parse_config
from tournaments.run import prepare, run_tournament


class WorkersPerBatch(ProcessBackend):
    """A process backend without a session: every batch starts its own workers."""

    @contextlib.contextmanager
    def session(self) -> Iterator[ProcessBackend]:
        yield self


def config_of(root: Path, game_name: str, entrants: int, matches: int, adaptive: bool) -> Any:
    game = get_game(game_name)
    pairs = entrants * (entrants - 1)  # one round-robin round: every pair in both seats
    fmt: dict[str, Any] = ({"type": "adaptive", "players": 2, "max_matches": matches}
                           if adaptive else
                           {"type": "round-robin", "players": 2, "rounds": -(-matches // pairs)})
    return parse_config({
        "name": "Benchmark: batched formats", "game": game.name, "seed": 36,
        "entrants": [{"path": str(root / "bot"), "name": f"random-{i}"} for i in range(entrants)],
        "options": capped_values(game, 2, 1), "format": fmt,
    }, base_dir=root, source="benchmark", stem="batched")


def timed(root: Path, config: Any, backend: ProcessBackend, name: str) -> tuple[int, float]:
    out = root / name
    shutil.rmtree(out, ignore_errors=True)
    started = time.monotonic()
    result = run_tournament(prepare(config, out), backend=backend, progress=False,
                            say=lambda _line: None)
    return result.played, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=DEFAULT_GAME, choices=sorted(GAMES),
                        help=f"the game played (default {DEFAULT_GAME})")
    parser.add_argument("--entrants", type=int, default=6)
    parser.add_argument("--matches", type=int, default=240)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    kinds = {"round-robin": (False, ProcessBackend),
             "adaptive": (True, ProcessBackend),
             "adaptive, workers started per batch": (True, WorkersPerBatch)}
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="arena-bench-batched-") as tmp:
        root = Path(tmp)
        shutil.copytree(BUNDLED_BOTS / "random", root / "bot",
                        ignore=shutil.ignore_patterns("__pycache__"))
        for _ in range(args.repeats):
            for name, (adaptive, backend) in kinds.items():
                config = config_of(root, args.game, args.entrants, args.matches, adaptive)
                played, seconds = timed(root, config, backend(args.workers), name.split(",")[0])
                best[name] = max(best.get(name, 0.0), played / seconds)
    print(f"{args.game}: {args.entrants} entrants, {args.matches} matches, {args.workers} workers, "
          f"best of {args.repeats}")
    for name, rate in best.items():
        print(f"{name:<38} {rate:7.1f} matches/s  {rate / best['round-robin']:5.2f} of the round-robin's")


if __name__ == "__main__":
    main()
