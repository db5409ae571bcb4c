"""One new version in a round-robin of 40: the matches it plays, and the time from a changed
folder to an updated report.

    python benchmarks/new_version.py [--game NAME] [--entrants N] [--workers W] [--fill real]

1. N copies of the bundled random bot (``students/s00`` ...) enter a 2-player round-robin under a
   glob (one round, duplicate deals, every match capped at one deal or round of the game).
2. Every match of the schedule is stored. By default (``--fill synthetic``) that is one real match
   record, played once by the real bots, stored for every match of the schedule with its seats
   and seed set: the plan and the report read nothing else of a stored match, and N = 40 makes
   1,560 matches, minutes of play that measure nothing of interest here. ``--fill real`` plays
   them all through ``run_tournament``.
3. One student's folder changes (a comment added to its ``main.py``). Timed from that moment,
   exactly as ``arena tournament run`` does it: admitting the new version (its snapshot) and
   working out what it needs (``tournaments.plan.needed``); playing and storing those matches on W
   workers (real bot processes); rendering the whole report (the live report's last render).

It prints the matches played beside the entrant's share, 2/N of the schedule (1/20 for N = 40,
its N - 1 pairs in both seats), which must be equal, and the seconds of each step and in all: the
time from a changed folder to an updated report; beside them, the baseline of replaying the whole
schedule (before versions, the only way on for a changed bot), estimated from this run's rate. The
synthetic fill changes none of these steps: they read the same store rows either way.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.bots import BUNDLED_BOTS
from arena.games import DEFAULT_GAME, GAMES, get_game
from arena.record import MatchRecord
from benchmarks.match_fixed_cost import capped_values
from tournaments.backends import play_job
from tournaments.config import parse_config
from tournaments.run import Prepared, field_of, open_store, prepare, run_tournament, to_play
from tournaments.store import Store


def make_field(root: Path, game: str, entrants: int) -> Path:
    """The students' folders and the class's config; returns the config's folder."""
    students = root / "students"
    for i in range(entrants):
        shutil.copytree(BUNDLED_BOTS / "random", students / f"s{i:02d}",
                        ignore=shutil.ignore_patterns("__pycache__"))
    return root


def config_of(root: Path, game_name: str) -> Any:
    game = get_game(game_name)
    return parse_config({
        "name": "Benchmark: one new version", "game": game.name, "seed": 35,
        "entrants": ["students/*"], "options": capped_values(game, 2, 1),
        "format": {"type": "round-robin", "players": 2, "rounds": 1,
                   "max_tables": 100_000},  # every pair, not a balanced sample
        "ratings": {"draw_probability": 0.05},
    }, base_dir=root, source="benchmark", stem="class")


def fill_synthetic(prepared: Prepared) -> None:
    """Store one real match record for every match of the schedule (seats and seed set)."""
    store, _ = open_store(prepared)
    with store:
        field = field_of(prepared, store, lambda _line: None)
        todo = to_play(prepared, store, field)
        from tournaments.run import job

        sample = play_job(job(prepared, field, todo[0])).record
        text = sample.to_json()
        run_id = store.meta.begin_run("benchmark", 1)
        for match in todo:
            record = MatchRecord.from_json(text)
            record.seed = match.seed
            for seat, e in zip(record.seats, match.seats):
                seat["name"] = field.entrants[e].name
            store.matches.add(match, record, startup_ms=0.0, wall_ms=record.duration_ms,
                            worker="benchmark", run_id=run_id)
        store.meta.end_run(run_id, "complete")


class TimedReport:
    """The live report, timing its last render (the whole site)."""

    def __init__(self, output: Path) -> None:
        from reports.live import LiveReport

        self.inner = LiveReport(output, interval=3600)  # only the first and the last render
        self.render_s = 0.0

    def started(self, say: Any) -> None:
        self.inner.started(say)

    def changed(self) -> None:
        pass

    def finished(self, outcome: str) -> Path | None:
        t = time.monotonic()
        index = self.inner.finished(outcome)
        self.render_s = time.monotonic() - t
        return index


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=DEFAULT_GAME, choices=sorted(GAMES),
                        help=f"the game played (default {DEFAULT_GAME})")
    parser.add_argument("--entrants", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--fill", choices=("synthetic", "real"), default="synthetic",
                        help="how the schedule's matches are stored before the change "
                             "(default synthetic: one real record for every match)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="arena-bench-version-") as tmp:
        root = make_field(Path(tmp), args.game, args.entrants)
        out = root / "class-results"
        config = config_of(root, args.game)
        first = prepare(config, out)
        total = len(first.schedule)
        print(f"{args.entrants} entrants, {total:,} matches in the schedule ({args.fill} fill)",
              flush=True)
        if args.fill == "real":
            run_tournament(first, workers=args.workers, progress=False)
        else:
            fill_synthetic(first)
        changed = root / "students" / f"s{args.entrants // 2:02d}" / "main.py"
        started = time.monotonic()
        changed.write_text("# a fix\n" + changed.read_text(encoding="utf-8"), encoding="utf-8")
        prepared = prepare(config, out)
        with Store.open(out, write=True) as store:
            needed = len(to_play(prepared, store, field_of(prepared, store, lambda _line: None)))
        planned = time.monotonic()
        report = TimedReport(out)
        result = run_tournament(prepared, workers=args.workers, progress=False,
                                on_results=report, say=lambda _line: None)
        ended = time.monotonic()
    share = total * 2 // args.entrants
    print(f"matches played for the new version: {result.played} (needed {needed}); its share, "
          f"2/{args.entrants} of the schedule: {share} -> {'equal' if result.played == share else 'DIFFERENT'}")
    print(f"admitting it and planning: {planned - started:.2f} s")
    print(f"playing and storing {result.played} matches on {args.workers} worker(s): "
          f"{ended - planned - report.render_s:.2f} s")
    print(f"rendering the report: {report.render_s:.2f} s")
    print(f"from the changed folder to the updated report: {ended - started:.2f} s")
    playing = ended - planned - report.render_s
    if result.played:
        whole = playing / result.played * total
        print(f"the baseline, replaying the whole schedule at this run's rate (an estimate, not "
              f"played): {whole:.0f} s, {whole / max(playing, 1e-9):.0f} times as long")
    if result.played != share:
        sys.exit(1)


if __name__ == "__main__":
    main()
