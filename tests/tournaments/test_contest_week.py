"""A class contest that runs all week (issue 43): nothing a student hands in stops it, and a failed
version never costs a student their place.

The week is acted out against a watched folder whose config has a reference entrant, look by look
(``Watch.look``, holding the folder as ``arena tournament run --watch`` does), with real bot
folders, real checks, real bot subprocesses and a real store; the standings, the report and the
log are checked after each step.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from arena.bots import load_bot
from arena.checker import CheckPlan, check_bot
from arena.games import get_game
from arena.referee import TimeControl
from arena.sandbox import Limits
from tests.conftest import BOTS
from tournaments.backends import SerialBackend
from tournaments.lock import output_lock
from tournaments.plan import among
from tournaments.run import Prepared, RunResult, run_tournament
from tournaments.store import Store
from tournaments.watch import Watch

from .conftest import CRASH_BOT, HASH_BOT, make_bot, small_config, write_config
from .test_kill_resume import ARENA

# passes its check (against the random bot) and crashes in every match of the tournament
MIDCRASH_BOT = textwrap.dedent('''
    import sys
    from protocol import sdk

    def choose(observation, legal):
        if any(name != "random" for i, name in enumerate(sdk.hello["players"])
               if i != sdk.hello["seat"]):
            sys.stderr.write("not ready for real opponents\\n")
            sys.exit(4)
        return legal[0]

    sdk.run(choose)
''')


def week_watch(config: Path, out: Path, lines: list[str]) -> Watch:
    def play(prepared: Prepared) -> RunResult:
        return run_tournament(prepared, backend=SerialBackend(), progress=False, say=lines.append)
    return Watch(config, out, play, lines.append, settle=0)


def standing(out: Path) -> dict[str, tuple[int, str]]:
    """Each entrant's latest version and its state."""
    with Store.open(out) as store:
        latest = store.field.latest()
        return {e.name: (latest[e.id].version, latest[e.id].state) for e in store.field.entrants()}


def unmet_pairs(out: Path) -> list[tuple[str, str]]:
    """Pairs of current versions that have not played both seats of their set."""
    with Store.open(out) as store:
        current = store.field.current()
        names = {e.id: e.name for e in store.field.entrants()}
        met: dict[frozenset[int], int] = {}
        for m in store.matches.all():
            if among(current, m):
                key = frozenset(m.seats)
                met[key] = met.get(key, 0) + 1
    ids = sorted(current)
    return [(names[a], names[b]) for i, a in enumerate(ids) for b in ids[i + 1:]
            if met.get(frozenset((a, b)), 0) < 2]


def matches_of(out: Path, name: str) -> int:
    with Store.open(out) as store:
        eid = next(e.id for e in store.field.entrants() if e.name == name)
        return sum(1 for m in store.matches.all() if eid in m.seats)


def new_lines(lines: list[str], seen: list[int]) -> str:
    text = "\n".join(lines[seen[0]:])
    seen[0] = len(lines)
    return text


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_week_of_a_class_contest(tmp_path: Path) -> None:
    from reports import render_site

    students = tmp_path / "students"
    config = write_config(tmp_path / "class.toml", small_config(
        ["students/*", {"path": str(BOTS / "greedy"), "reference": True}],
        format={"suspend_after": 2}))
    out = tmp_path / "out"
    lines: list[str] = []
    seen = [0]
    w = week_watch(config, out, lines)
    with output_lock(out, hold=True):  # the watch's, for its whole life
        # Monday: two students hand in
        make_bot(students, "ana", HASH_BOT, "a")
        bob = make_bot(students, "bob", HASH_BOT, "b")
        first = w.look()
        assert first is not None and first.played == 6 and first.done == first.total == 6
        assert standing(out) == {"ana": (1, "current"), "bob": (1, "current"),
                                 "greedy": (1, "current")}

        # Tuesday: a late entry whose manifest has a key arena does not know: it joins
        cy = make_bot(students, "cy", HASH_BOT, "c")
        with (cy / "bot.toml").open("a") as manifest:
            manifest.write('author = "Cy"\n')
        assert w.look().played == 6
        log = new_lines(lines, seen)
        assert "cy joins" in log and "unknown key" not in log
        assert unmet_pairs(out) == []

        # Wednesday: someone starts a second run of the watched folder: refused in one line
        second = subprocess.run([*ARENA, "tournament", "run", str(config), "--output", str(out),
                                 "-q"], capture_output=True, text=True, timeout=120)
        assert second.returncode == 2, second.stderr
        assert second.stderr.strip().count("\n") == 0 and "is in use by another run" in second.stderr

        # Thursday: bob hands in a version that crashes: refused; his first version plays on
        (bob / "main.py").write_text(CRASH_BOT)
        thursday = w.look()
        assert thursday is None or thursday.played == 0                  # nothing new to play
        log = new_lines(lines, seen)
        assert "bob failed its check" in log and "giving up" in log   # the reason's first lines
        assert "withdrawn" not in log
        assert standing(out)["bob"] == (1, "current")
        render_site(out)
        index = (out / "site" / "index.html").read_text(encoding="utf-8")
        assert "Its previous version" in index and "plays on until a version that passes" in index
        own = (out / "authors" / "bob.html").read_text(encoding="utf-8")
        assert "failed its check" in own and "giving up" in own          # the whole check
        assert "giving up" not in index.split("Submissions not admitted")[0]
        assert os.stat(out / "authors").st_mode & 0o077 == 0             # the teacher's only

        # Friday: dee's bot passes its check and crashes in every match: suspended after two
        make_bot(students, "dee", MIDCRASH_BOT)
        w.look()
        log = new_lines(lines, seen)
        assert "dee (version 1) is suspended" in log
        assert matches_of(out, "dee") == 2 and standing(out)["dee"] == (1, "suspended")
        w.look()                                                          # a later look: no more
        assert matches_of(out, "dee") == 2

        # Saturday: cy leaves, eve joins while cy is out, cy comes back: cy and eve meet
        shutil.move(cy, tmp_path / "cy-away")
        w.look()
        assert standing(out)["cy"] == (1, "withdrawn")
        make_bot(students, "eve", HASH_BOT, "e")
        w.look()
        shutil.move(tmp_path / "cy-away", cy)
        w.look()
        log = new_lines(lines, seen)
        assert "cy is back" in log and "eve joins" in log
        assert standing(out)["cy"] == (1, "current") and unmet_pairs(out) == []

        # Sunday: bob fixes his bot: version 2 plays its share against everyone in play
        (bob / "main.py").write_text(HASH_BOT.replace("SALT = ", "SALT = 'fixed' + "))
        w.look()
        assert standing(out)["bob"] == (2, "current") and unmet_pairs(out) == []
        assert w.look() is None                                           # alive, nothing to do
        render_site(out)
    index = (out / "site" / "index.html").read_text(encoding="utf-8")
    dee_page = next((out / "site" / "bots").glob("*-dee.html")).read_text(encoding="utf-8")
    assert "No results yet" not in dee_page and "suspended" in dee_page
    heatmap = index[index.index('id="head-to-head"'):]
    assert "dee" not in heatmap.split("</section>")[0] and "cy" in heatmap.split("</section>")[0]


def test_a_manifest_key_arena_does_not_know_is_ignored_and_named_by_the_check(tmp_path: Path) -> None:
    folder = make_bot(tmp_path, "yan")
    with (folder / "bot.toml").open("a") as manifest:
        manifest.write('author = "Yan"\n')
    bot = load_bot(folder)
    assert bot.ignored_keys == ("author",)
    said: list[str] = []
    plan = CheckPlan(get_game("thousand"), {}, [3], TimeControl(), Limits())
    problems = check_bot(bot.__class__(**{**bot.__dict__, "games": ("block",)}), plan, said.append)
    assert problems and said[0].startswith("warning: bot.toml: 'author' is not a key arena knows")


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_workers_take_jobs_as_they_need_them(random_bot) -> None:
    """A run's jobs are made only as workers need them, so a match of an entrant suspended
    meanwhile is never handed out: with one worker, by the time the first result comes back, the
    jobs taken are that match, the one started ahead and the next one ahead, not all six."""
    from tournaments.backends import MatchJob, ProcessBackend

    taken: list[int] = []

    def jobs():
        for i in range(1, 7):
            taken.append(i)
            yield MatchJob(match_id=i, game="block", options={"single_deal": True},
                           bots=(random_bot, random_bot), seed=i,
                           time_control=TimeControl(move_ms=2000, bank_ms=5000, startup_ms=10000))

    backend = ProcessBackend(1)
    results = backend.run(jobs())
    try:
        next(results)
        assert len(taken) <= 3, taken
    finally:
        results.close()


def test_a_run_with_nothing_to_play_draws_no_empty_bar(tmp_path: Path, capsys) -> None:
    students = tmp_path / "students"
    make_bot(students, "ana", HASH_BOT, "a")
    make_bot(students, "bob", HASH_BOT, "b")
    config = write_config(tmp_path / "class.toml", small_config(["students/*"]))
    out = tmp_path / "out"
    from tournaments.config import load_config
    from tournaments.run import prepare

    run_tournament(prepare(load_config(config), out), backend=SerialBackend(), progress=True)
    assert "2/2 matches" in capsys.readouterr().err
    again = run_tournament(prepare(load_config(config), out), backend=SerialBackend(), progress=True)
    assert again.played == 0 and "matches  " not in capsys.readouterr().err


def test_an_anonymous_record_says_its_stderr_was_left_out() -> None:
    from reports.anonymous import scrub_record

    record = {"seats": [{"name": "ana"}], "statuses": [{"status": "crash", "reason": "exited",
                                                        "stderr_tail": "Traceback: ana.py"}]}
    [status] = scrub_record(record, {"ana": "Amber Otter"}, lambda text: text)["statuses"]
    assert status["stderr_tail"] == "" and status["stderr_withheld"] is True
