#!/usr/bin/env python3
"""Mutation check of the core modules: does the test suite notice when a promise is broken?

Each mutant below changes one line of a core module the way a plausible bug would (the bank
never drawn down, odd rounds not reversed, a draw counted as a win...). For each one, this script
copies the repository to a temporary folder, applies the change there (never to your tree), runs
the test files that guard the promise with ``pytest -x -q``, and reports the mutant *killed* (a
test failed: good) or *survived* (every test passed: a promise no test guards). The unchanged
copy is run first: a failure there makes the results meaningless, so the script stops.

    python scripts/mutants.py            # every mutant; exit code 1 if any survived
    python scripts/mutants.py --list     # the table
    python scripts/mutants.py bank-never-drawn odd-rounds-not-reversed   # some of them
    python scripts/mutants.py --markdown # the results as a table for docs/testing.md
    python scripts/mutants.py --together # and once more with all of them applied at once

A mutant whose original line is no longer in its file (the code moved on) is reported *stale*
and also fails the check: update the table. Runs with the Python that runs it (use the project's
virtual environment); takes a few minutes.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = shutil.ignore_patterns(".git", ".venv", "venv", "__pycache__", ".pytest_cache", ".hypothesis",
                              "*.egg-info", "test-output", "arena-demo", "arena-demo-*", "*-results", "build",
                              "dist")
TIMEOUT = 900  # seconds for one mutant's tests (each test has its own pytest-timeout too)


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str          # file, relative to the repository
    original: str      # the line as it stands (stripped of its indentation)
    replacement: str   # what it becomes (the indentation is kept)
    tests: tuple[str, ...]  # pytest arguments: the files (or tests) that guard it
    promise: str


MUTANTS = [
    # --- the referee: time control, illegal actions, who ranks last --------------------------
    Mutant("bank-never-drawn", "arena/referee.py",
           "seat.bank_ms -= max(0.0, used_ms - tc.move_ms)",
           "seat.bank_ms -= 0.0",
           ("tests/referee/test_time_bank.py",),
           "time beyond move_ms is drawn from the seat's bank"),
    Mutant("bank-not-usable", "arena/referee.py",
           "deadline = started + (tc.move_ms + seat.bank_ms) / 1000",
           "deadline = started + tc.move_ms / 1000",
           ("tests/referee/test_time_bank.py",),
           "a move may use the bank beyond move_ms"),
    Mutant("illegal-action-accepted", "arena/referee.py",
           "if action not in legal:",
           "if False:",
           ("tests/referee/test_misbehaving.py",),
           "an action that is not legal loses the match"),
    Mutant("failed-bot-not-last", "arena/referee.py",
           "ranks = [len(ok) + 1] * len(seats)",
           "ranks = [1] * len(seats)",
           ("tests/referee/test_misbehaving.py",),
           "a bot that fails ranks last"),
    # --- the schedule ---------------------------------------------------------------------------
    Mutant("odd-rounds-not-reversed", "tournaments/schedule.py",
           "base = tables[t] if rnd % 2 == 0 else tables[t][::-1]",
           "base = tables[t]",
           ("tests/tournaments/test_schedule.py",),
           "odd rounds play each table in reverse order"),
    Mutant("no-duplicate-deals", "tournaments/schedule.py",
           "if not fmt.duplicate:",
           "if True:",
           ("tests/tournaments/test_schedule.py",),
           "the rotations of a table share one deal"),
    Mutant("table-order-not-shuffled", "tournaments/schedule.py",
           "random.Random(derive_seed(seed, \"order\", rnd)).shuffle(order)",
           "pass",
           ("tests/tournaments/test_schedule.py",),
           "table order within a round is shuffled (seeded)"),
    # --- ratings and the report -----------------------------------------------------------------
    Mutant("average-of-ranks", "tournaments/ratings.py",
           "score_sum[entrant] += match.scores[seat]",
           "score_sum[entrant] += match.ranks[seat]",
           ("tests/tournaments/test_ratings.py",),
           "the leaderboard's average score averages scores"),
    Mutant("rated-in-arrival-order", "tournaments/ratings.py",
           "for match in sorted(matches, key=lambda m: m.id):",
           "for match in matches:",
           ("tests/tournaments/test_ratings.py",),
           "matches are rated in schedule order, whatever order they finished in"),
    Mutant("shared-first-is-a-win", "tournaments/ratings.py",
           "return \"draw\" if sum(1 for r in ranks if r == 1) > 1 else \"win\"",
           "return \"win\"",
           ("tests/tournaments/test_ratings.py",),
           "a shared first place is a draw"),
    Mutant("report-draws-as-wins", "reports/model.py",
           "if ra < rb:",
           "if ra <= rb:",
           ("tests/reports/test_model.py",),
           "the report's head-to-head counts a draw as a draw"),
    # --- the store and the run ------------------------------------------------------------------
    Mutant("output-lock-removed", "tournaments/run.py",
           "with output_lock(prepared.output):",
           "with contextlib.nullcontext():",
           ("tests/tournaments/test_output_lock.py",),
           "two runs never share an output folder"),
    Mutant("resume-plays-everything", "tournaments/run.py",
           "todo = [m for m in prepared.schedule.matches if m.id not in done_ids]",
           "todo = list(prepared.schedule.matches)",
           ("tests/tournaments/test_run.py::test_a_stopped_run_resumes_without_playing_a_match_twice",),
           "a resumed run plays only the matches not stored yet"),
    Mutant("config-change-accepted", "tournaments/run.py",
           "if key is not None:",
           "if False:",
           ("tests/tournaments/test_run.py::"
            "test_a_different_tournament_is_refused_and_nothing_is_overwritten",),
           "a folder holding another tournament is refused"),
    Mutant("store-format-unchecked", "tournaments/store/schema.py",
           "if fmt not in READABLE_FORMATS:",
           "if False:",
           ("tests/tournaments/test_store.py",),
           "a store of another format is refused, not misread"),
    Mutant("failed-insert-committed", "tournaments/store/schema.py",
           "self.conn.execute(\"ROLLBACK\")",
           "self.conn.execute(\"COMMIT\")",
           ("tests/tournaments/test_store.py",),
           "a transaction that fails leaves nothing behind"),
    # --- the sequential test and the pair statistics ----------------------------------------------
    Mutant("llr-not-regularized", "tournaments/stats.py",
           "return [c if c else REGULARIZE for c in counts]",
           "return [c if c else 1e-9 for c in counts]",
           ("tests/tournaments/test_stats.py",),
           "a zero count becomes 0.001 before estimating, as fishtest and fastchess do"),
    Mutant("sprt-h1-past-its-bound", "tournaments/formats/sprt.py",
           "if self.llr >= self.upper:",
           "if self.llr >= self.upper + 1:",
           ("tests/tournaments/test_stats.py",),
           "the SPRT accepts H1 at the first pair whose LLR reaches log((1 - beta) / alpha)"),
    Mutant("sprt-counts-the-first-seat", "tournaments/formats/sprt.py",
           "seat = list(match.seats).index(0)",
           "seat = 0",
           ("tests/tournaments/test_stats.py",),
           "the SPRT counts the candidate's points, whichever seat it holds"),
]


def apply(tree: Path, mutant: Mutant) -> str | None:
    """Apply ``mutant`` to the copy; the file's original text, or None if the line is not there
    exactly once."""
    path = tree / mutant.path
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if line.strip() == mutant.original]
    if len(hits) != 1:
        return None
    i = hits[0]
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    lines[i] = indent + mutant.replacement + "\n"
    path.write_text("".join(lines), encoding="utf-8")
    return text


def run_tests(tree: Path, tests: tuple[str, ...]) -> tuple[bool, str, float]:
    """(passed, first failure or error line, seconds)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", ARENA_TEST_OUTPUT=str(tree / "test-output"))
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                               *tests], cwd=tree, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, f"no result in {TIMEOUT} s (a hang counts as caught)", time.monotonic() - started
    seconds = time.monotonic() - started
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", proc.stdout, re.M)
    if proc.returncode == 0:
        return True, "", seconds
    if proc.returncode not in (1,):  # 2: interrupted/collection error, 3: internal, 4: usage...
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
        return False, f"pytest exit {proc.returncode}: {' | '.join(tail)}", seconds
    return False, failed[0] if failed else "a test failed", seconds


def check_copy(tree: Path) -> None:
    """The copy's modules are the ones imported (not an installed arena elsewhere)."""
    out = subprocess.run([sys.executable, "-c", "import arena, tournaments, reports, sys; "
                          "print(arena.__file__, tournaments.__file__, reports.__file__)"],
                         cwd=tree, capture_output=True, text=True, check=True).stdout.split()
    for file in out:
        if not Path(file).resolve().is_relative_to(tree.resolve()):
            sys.exit(f"mutants: {file} is imported instead of the copy's module; run this with a "
                     "Python whose arena is not installed from elsewhere")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="mutants to run (default: all)")
    parser.add_argument("--list", action="store_true", help="print the table and stop")
    parser.add_argument("--markdown", action="store_true", help="print the results as markdown")
    parser.add_argument("--together", action="store_true",
                        help="also apply the chosen mutants all at once (one more run)")
    args = parser.parse_args()
    known = {m.name: m for m in MUTANTS}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        parser.error(f"unknown mutant(s) {', '.join(unknown)}; known: {', '.join(known)}")
    chosen = [known[n] for n in args.names] if args.names else MUTANTS
    if args.list:
        for m in chosen:
            print(f"{m.name:26} {m.path:24} {m.promise}\n{'':26} - {m.original}\n"
                  f"{'':26} + {m.replacement}\n{'':26}   {' '.join(m.tests)}")
        return 0
    results = []
    with tempfile.TemporaryDirectory(prefix="arena-mutants-") as tmp:
        tree = Path(tmp) / "arena"
        shutil.copytree(ROOT, tree, ignore=SKIP, symlinks=True)
        check_copy(tree)
        baseline = sorted({t for m in chosen for t in m.tests})
        print(f"unchanged copy: running the {len(baseline)} test files or tests...", flush=True)
        passed, failure, seconds = run_tests(tree, tuple(baseline))
        if not passed:
            print(f"the unchanged copy fails ({failure}): fix that first", file=sys.stderr)
            return 2
        print(f"unchanged copy: passed in {seconds:.0f} s", flush=True)
        for m in chosen:
            original = apply(tree, m)
            if original is None:
                results.append((m, "stale", f"line not found once in {m.path}", 0.0))
            else:
                try:
                    passed, failure, seconds = run_tests(tree, m.tests)
                finally:
                    (tree / m.path).write_text(original, encoding="utf-8")
                results.append((m, "survived" if passed else "killed", failure, seconds))
            m_, outcome, detail, secs = results[-1]
            print(f"{outcome:8} {m.name:26} {secs:5.0f} s  {detail}", flush=True)
        if args.together:
            originals = {}
            for m in chosen:
                before = (tree / m.path).read_text(encoding="utf-8")
                if apply(tree, m) is not None:
                    originals.setdefault(m.path, before)
            try:
                passed, failure, seconds = run_tests(tree, tuple(baseline))
            finally:
                for path, text in originals.items():
                    (tree / path).write_text(text, encoding="utf-8")
            together = Mutant("all-at-once", "(several)", "", "", tuple(baseline),
                              "every promise above at once")
            results.append((together, "survived" if passed else "killed", failure, seconds))
            print(f"{results[-1][1]:8} {'all-at-once':26} {seconds:5.0f} s  {failure}", flush=True)
    killed = sum(1 for r in results if r[1] == "killed")
    print(f"\n{killed} of {len(results)} mutants killed")
    if args.markdown:
        print("\n| mutant | file | the promise | result | caught by |\n|---|---|---|---|---|")
        for m, outcome, detail, _ in results:
            print(f"| `{m.name}` | `{m.path}` | {m.promise} | {outcome} | "
                  f"{('`' + detail + '`') if detail else ''} |")
    return 0 if killed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
