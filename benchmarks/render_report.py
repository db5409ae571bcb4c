"""Report rendering at scale: the whole site of a 10,000-match tournament, timed.

    python benchmarks/render_report.py [--game NAME] [--matches N] [--dir FOLDER] [--fresh]

Builds a real tournament store through the store's own write API (``Store.create``, ``add_match``)
from the real schedule (``make_schedule``): 8 entrants, 2-player matches of a game (``--game``,
default Block) with the default options, every match a complete, valid record played by the game's
engine in this process (simple strategies per entrant instead of bot processes, so building takes
about a minute, not hours; they weigh Block's pips, and in other games the weighing ones play the
first legal action). One entrant crashes in about 3% of its matches, with a reason and a stderr
tail, like a real failing bot. The store is kept in FOLDER (default: a fixed folder under the
system's temp folder, one per game) and reused by later runs; ``--fresh`` builds it again.

Then it renders the site with ``reports.render_site`` exactly as ``arena report`` does, and prints
each figure beside its budget (issue 18): the whole site at most 50 MB, rendered in at most 10 s
(of CPU time: the render is one process, and on a shared machine its wall time says more about the
others' load, which is printed beside it),
the index page under 1 MB; then renders it again over itself (as after a resumed tournament) and
says how many files that rewrote (none: nothing changed) and how long it took.

Last, bots' notes (protocol/SPEC.md §3): the same matches played twice, once as above and once with
a note on every decision (each entrant saying why, as a bot that explains itself would), each
record packed and written as the report's ``records/<id>.js``: a match without notes must stay
within 5 kB, and notes may add no more than their own compressed bytes (the notes of a match
alone, as JSON, zlib-compressed). Exits 1 if a budget is missed.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import sys
import tempfile
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.game import Game
from arena.games import DEFAULT_GAME, GAMES, get_game
from arena.options import options_to_dict
from arena.record import CRASH, OK, MatchRecord, SeatStatus
from reports import render_site
from reports.render import record_script
from tournaments.config import parse_config
from tournaments.formats import make_schedule
from tournaments.plan import PlannedMatch
from tournaments.run import schedule_hash
from tournaments.store import Entrant, Store, store_path

INDEX_TARGET = 1_000_000
SITE_BUDGET = 50_000_000  # bytes, every file of the site
TIME_BUDGET = 10.0  # seconds for the whole render
RECORD_TARGET = 5_000  # bytes of records/<id>.js a match, without notes
NOTE_SAMPLE = 300  # matches played with and without notes
ENTRANTS = ("random", "heavy", "light", "doubles", "hoarder", "mixed", "first", "crashy")


def pips(action: str) -> int:
    """A Block tile's pips (``3-5:left`` -> 8); -1 for a pass or another game's action."""
    a, _, b = action.split(":")[0].partition("-")
    return int(a) + int(b) if a.isdigit() and b.isdigit() else -1


def choose(strategy: str, legal: list[str], rng: random.Random) -> str:
    """A few simple Block strategies, so that ratings spread out as in a real tournament."""
    if strategy == "heavy":
        return max(legal, key=pips)
    if strategy == "light":
        return min(legal, key=pips)
    if strategy == "doubles":
        doubles = [a for a in legal if a.split(":")[0].split("-")[0] == a.split(":")[0].split("-")[-1]]
        return max(doubles or legal, key=pips)
    if strategy == "hoarder":
        return max(legal, key=lambda a: (pips(a) * 0.5 + rng.random() * 6))
    if strategy == "mixed":
        return max(legal, key=pips) if rng.random() < 0.6 else rng.choice(legal)
    if strategy == "first":
        return legal[0]
    return rng.choice(legal)  # random, crashy


def note(strategy: str, legal: list[str], action: str) -> str:
    """What a bot that explains itself might say about a decision (no randomness: the match is the
    same with and without notes)."""
    if len(legal) == 1:
        return f"only {action} is legal"
    return f"{strategy}: {action} ({pips(action)} pips) of {len(legal)} legal"


def play(game: Game, seats: tuple[int, ...], seed: int, match_id: int,
         notes: bool = False) -> tuple[MatchRecord, float]:
    """One complete match record (and a plausible start-up time), as the referee would write it;
    with ``notes``, every decision has one."""
    options = game.make_options(len(seats))
    state = game.new_match(options, seed)
    rng = random.Random(seed ^ (match_id * 7919))
    names = [ENTRANTS[e] for e in seats]
    record = MatchRecord(
        game=game.name, options=options_to_dict(options), seed=seed,
        seats=[{"name": n, "path": f"/bench/bots/{n}"} for n in names],  # the store keeps no path
        time_control={"move_ms": 1000, "bank_ms": 10000, "startup_ms": 10000},
        sandbox="process-group",
    )
    statuses = [SeatStatus() for _ in seats]
    crash_at = None
    if "crashy" in names and rng.random() < 0.03:
        crash_at = rng.randrange(10, 80)
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if crash_at is not None and len(record.decisions) == crash_at and names[seat] == "crashy":
            statuses[seat] = SeatStatus(
                CRASH, f"exited with code 1 while deciding (decision {crash_at})",
                "Traceback (most recent call last):\n  File \"main.py\", line 9, in choose\n"
                "ZeroDivisionError: division by zero\n", 0.0,
                {"decision": crash_at, "legal": legal, "answer": None, "kind": CRASH})
            break
        action = choose(names[seat], legal, rng)
        ms = round(rng.uniform(0.05, 2.0), 3)
        record.decisions.append({"seat": seat, "legal": legal, "action": action, "ms": ms})
        if notes:
            record.decisions[-1]["note"] = note(names[seat], legal, action)
        statuses[seat].time_ms += ms
        state.apply(action)
    record.events = state.events
    record.statuses = statuses
    record.duration_ms = round(rng.uniform(60, 200), 3)
    scores = list(state.scores())
    if state.is_terminal() and not record.failed:
        result = state.result()
        record.scores, record.ranks = list(result.scores), list(result.ranks)
    else:  # the referee's rule: a failed bot ranks last
        record.scores = scores
        record.ranks = [1 if s.status == OK else 2 for s in statuses]
    return record, rng.uniform(40, 90)


def build_store(game: Game, folder: Path, matches: int) -> None:
    rounds = math.ceil(matches / (len(ENTRANTS) * (len(ENTRANTS) - 1)))
    config = parse_config({
        "name": f"Benchmark: {matches:,} matches", "game": game.name, "seed": 2024,
        "entrants": [f"/bench/bots/{n}" for n in ENTRANTS],
        "format": {"players": 2, "rounds": rounds},
        "ratings": {"draw_probability": 0.01},
    }, base_dir=folder, source="benchmark", stem="bench")
    schedule = make_schedule(len(ENTRANTS), config.format, config.seed)
    entrants = [Entrant(i, n, f"/bench/bots/{n}", f"{i:064x}") for i, n in enumerate(ENTRANTS)]
    path = store_path(folder)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    store = Store.create(path, config, entrants, planned=matches, note="", draw_probability=0.01,
                         schedule_hash=schedule_hash(schedule))
    started = time.monotonic()
    with store:
        run_id = store.meta.begin_run("benchmark", 1)
        for i, scheduled in enumerate(schedule.matches[:matches], start=1):
            record, startup = play(game, scheduled.seats, scheduled.seed, scheduled.id)
            store.matches.add(PlannedMatch.of(scheduled), record, startup_ms=startup,
                            wall_ms=record.duration_ms + startup, worker="bench", run_id=run_id)
            if i % 1000 == 0:
                print(f"  stored {i:,} matches ({time.monotonic() - started:.0f} s)", flush=True)
        store.meta.end_run(run_id, "complete")


def note_figures(game: Game, sample: int) -> tuple[float, float, float, float]:
    """Averaged over ``sample`` matches of every pairing: bytes of ``records/<id>.js`` a match
    without notes and with a note on every decision, and of the notes' share of the packed record
    (with notes minus without) beside the notes alone (a match's notes as a JSON list,
    zlib-compressed as the packed record is)."""
    script = plain = noted = alone = 0
    pairs = [(a, b) for a in range(len(ENTRANTS)) for b in range(len(ENTRANTS)) if a != b]
    for i in range(sample):
        seats, seed = pairs[i % len(pairs)], 1000 + i
        without, _ = play(game, seats, seed, i)
        with_notes, _ = play(game, seats, seed, i, notes=True)
        assert [d["action"] for d in without.decisions] == [d["action"] for d in with_notes.decisions]
        blob = without.pack()
        script += len(record_script(i, blob))
        plain += len(blob)
        noted += len(with_notes.pack())
        text = json.dumps([d["note"] for d in with_notes.decisions], ensure_ascii=False,
                          separators=(",", ":"))
        alone += len(zlib.compress(text.encode("utf-8"), 6))
    return script / sample, (noted - plain) / sample, alone / sample, noted / plain


def stored_count(folder: Path) -> int:
    try:
        with Store.open(folder) as store:
            return store.matches.count()[0]
    except Exception:  # noqa: BLE001  (no store, or not one this version reads)
        return -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=DEFAULT_GAME, choices=sorted(GAMES),
                        help=f"the game played (default {DEFAULT_GAME})")
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--dir", type=Path, help="where the store is kept "
                        "(default: arena-bench-report-GAME in the temp folder)")
    parser.add_argument("--fresh", action="store_true", help="build the store again")
    args = parser.parse_args()
    game = get_game(args.game)
    folder: Path = args.dir or Path(tempfile.gettempdir()) / f"arena-bench-report-{game.name}"
    folder.mkdir(parents=True, exist_ok=True)
    if args.fresh or stored_count(folder) != args.matches:
        print(f"building a store of {args.matches:,} matches in {folder} ...", flush=True)
        t = time.monotonic()
        build_store(game, folder, args.matches)
        print(f"  built in {time.monotonic() - t:.1f} s")
    else:
        print(f"reusing the store of {args.matches:,} matches in {folder}")
    site = folder / "site"
    shutil.rmtree(site, ignore_errors=True)
    t, cpu = time.monotonic(), time.process_time()
    index = render_site(folder, site)
    wall, elapsed = time.monotonic() - t, time.process_time() - cpu
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    files = [p for p in site.rglob("*") if p.is_file()]
    total = sum(p.stat().st_size for p in files)
    records = sum(p.stat().st_size for p in (site / "records").glob("*.js"))
    index_size = index.stat().st_size
    missed = []

    def verdict(ok: bool, what: str) -> str:
        if not ok:
            missed.append(what)
        return "within" if ok else "OVER"

    print(f"rendered {args.matches:,} {game.name} matches: {len(files):,} files in {elapsed:.1f} s "
          f"of CPU ({verdict(elapsed <= TIME_BUDGET, 'time')} the budget of {TIME_BUDGET:.0f} s; "
          f"{elapsed / args.matches * 1000:.2f} ms a match); {wall:.1f} s of wall time with a load "
          f"average of {load:.1f} on {os.cpu_count()} cores")
    print(f"site: {total / 1e6:.1f} MB ({verdict(total <= SITE_BUDGET, 'size')} the budget of "
          f"{SITE_BUDGET / 1e6:.0f} MB); records {records / 1e6:.1f} MB, "
          f"{records / max(1, args.matches) / 1000:.2f} kB a match; pages {(total - records) / 1e6:.1f} MB")
    print(f"index page: {index_size / 1000:.0f} kB "
          f"({verdict(index_size < INDEX_TARGET, 'index')} the {INDEX_TARGET / 1e6:.0f} MB target)")
    print(f"largest match-list page: "
          f"{max(p.stat().st_size for p in (site / 'matches').glob('list-*.html')) / 1000:.0f} kB")
    mtimes = {p: p.stat().st_mtime_ns for p in files}
    t = time.monotonic()
    render_site(folder, site)
    again = time.monotonic() - t
    rewritten = sum(1 for p, m in mtimes.items() if p.stat().st_mtime_ns != m)
    print(f"rendered again over the same site in {again:.1f} s: {rewritten} files rewritten "
          f"(nothing changed)")
    script, added, alone, ratio = note_figures(game, NOTE_SAMPLE)
    print(f"records of {NOTE_SAMPLE} matches: {script / 1000:.2f} kB a match without notes "
          f"({verdict(script <= RECORD_TARGET, 'record size')} the {RECORD_TARGET / 1000:.0f} kB "
          f"target); a note on every decision adds {added / 1000:.2f} kB to a packed record "
          f"(x{ratio:.2f}), the notes alone compressed are {alone / 1000:.2f} kB "
          f"({verdict(added <= alone, 'note size')} them)")
    print(f"open: {index.as_uri()}")
    if missed:
        print(f"budgets missed: {', '.join(missed)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
