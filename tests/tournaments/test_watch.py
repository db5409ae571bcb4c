"""``arena tournament run --watch`` (issue 35): a submissions folder that runs itself.

Real bot folders, real checks (``arena check``'s matches against the random bot), real
subprocesses, a real store. ``Watch.look`` is one look of the watch, so most tests drive it look
by look; the last one runs the command itself and kills it (SIGKILL) in the middle.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tournaments.backends import SerialBackend
from tournaments.run import Prepared, RunResult, run_tournament
from tournaments.store import Store
from tournaments.watch import Watch, changed_ago

from .conftest import CRASH_BOT, HASH_BOT, make_bot, small_config, write_config
from .test_kill_resume import ARENA, stored, wait_for
from .test_versions import run

SETTLE = 1.5  # seconds a folder must be still: the tests wait this long, not the default 5


def watcher(config: Path, out: Path, lines: list[str]) -> Watch:
    def play(prepared: Prepared) -> RunResult:
        return run_tournament(prepared, backend=SerialBackend(), progress=False, say=lines.append)
    return Watch(config, out, play, lines.append, settle=SETTLE)


def settle(*folders: Path) -> None:
    """Wait until nothing in ``folders`` has changed for SETTLE seconds."""
    for folder in folders:
        while changed_ago(folder, time.time()) < SETTLE:
            time.sleep(0.1)


def entrant_names(out: Path) -> list[str]:
    with Store.open(out) as store:
        return [e.name for e in store.field.entrants()]


def test_a_half_copied_submission_waits_until_it_is_still(tmp_path: Path) -> None:
    students = tmp_path / "students"
    ana, bob = make_bot(students, "ana", HASH_BOT, "a"), make_bot(students, "bob", HASH_BOT, "b")
    config = write_config(tmp_path / "class.toml", small_config(["students/*"]))
    out = tmp_path / "out"
    lines: list[str] = []
    w = watcher(config, out, lines)
    settle(ana, bob)
    first = w.look()
    assert first is not None and first.played == 2
    assert w.look() is None                                       # nothing new: nothing played
    cy = students / "cy"
    cy.mkdir()
    (cy / "main.py").write_text(HASH_BOT)                         # the copy has begun...
    w.look()
    (cy / "bot.toml").write_text('name = "cy"\ncommand = ["python3", "main.py", "c"]\n')
    w.look()                                                      # ...and just ended
    assert entrant_names(out) == ["ana", "bob"]
    with Store.open(out) as store:
        assert store.field.submissions() == []                          # half a submission: no row
    assert any(line.startswith(f"waiting for {cy}") for line in lines)
    settle(cy)
    joined = w.look()
    assert joined is not None and joined.played == 4
    assert entrant_names(out) == ["ana", "bob", "cy"]


def test_a_version_that_fails_its_check_or_build_is_not_admitted(tmp_path: Path) -> None:
    """bob's new version crashes, and a newcomer's build fails: neither is admitted, bob's
    first version keeps playing, and the report lists both with the reason and the tail."""
    students = tmp_path / "students"
    ana, bob = make_bot(students, "ana", HASH_BOT, "a"), make_bot(students, "bob", HASH_BOT, "b")
    config = write_config(tmp_path / "class.toml", small_config(["students/*"]))
    out = tmp_path / "out"
    lines: list[str] = []
    w = watcher(config, out, lines)
    settle(ana, bob)
    w.look()
    (bob / "main.py").write_text(CRASH_BOT)
    cy = make_bot(students, "cy", HASH_BOT, "c")
    with (cy / "bot.toml").open("a") as manifest:
        manifest.write('build = ["sh", "-c", "echo no compiler here >&2; exit 1"]\n')
    settle(bob, cy)
    w.look()
    assert any(f"{bob} failed its check: " in line and "crash" in line for line in lines)
    assert any(f"{cy} failed its check: build failed" in line for line in lines)
    with Store.open(out) as store:
        assert [(v.entrant, v.version) for v in store.field.versions()] == [(0, 1), (1, 1)]
        assert [e.name for e in store.field.entrants()] == ["ana", "bob"]
        rejected = {os.path.basename(s.folder): s for s in store.field.submissions()}
    assert "giving up" in rejected["bob"].stderr_tail
    assert "no compiler here" in rejected["cy"].stderr_tail
    assert w.look() is None                                       # not checked again
    (bob / "main.py").write_text("import sys\nsys.exit(5)\n")     # another broken version
    settle(bob)
    w.look()
    with Store.open(out) as store:
        assert [os.path.basename(s.folder) for s in store.field.submissions()].count("bob") == 2
    from reports import render_site

    render_site(out, tmp_path / "site")
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "failed its check: build failed" in page and "giving up" in page


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_watch_killed_in_the_middle_resumes(tmp_path: Path) -> None:
    """SIGKILL the watching command while it plays; the same command without --watch then plays
    the rest: every match stored once."""
    students = tmp_path / "students"
    for name, salt in (("ana", "a"), ("bob", "b"), ("cy", "c"), ("dee", "d")):
        make_bot(students, name, HASH_BOT, salt)
    config = write_config(tmp_path / "class.toml", small_config(["students/*"],
                                                                format={"rounds": 2}))
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [*ARENA, "tournament", "run", str(config), "--watch", "--watch-interval", "0.2",
         "--settle", "0", "--workers", "1", "--output", str(out), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wait_for(out, 3, proc, timeout=120)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)
    assert 3 <= stored(out) < 24                                   # killed in the middle
    admitted = entrant_names(out)
    assert admitted == ["ana", "bob", "cy", "dee"]
    result = run(config, out)
    assert entrant_names(out) == admitted                          # no admitted version lost
    assert result.outcome == "complete" and result.done == 24 == stored(out)
    with Store.open(out) as store:
        sets = [(m.slot, m.rotation, m.versions) for m in store.matches.all()]
    assert len(set(sets)) == 24


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_ctrl_c_stops_a_watch_cleanly_and_the_report_is_up_to_date(tmp_path: Path) -> None:
    """The watch plays what there is (two bots with the same files), renders the report after
    the batch and waits; a late entrant joins and the report shows it; Ctrl-C (SIGINT) then ends
    it with status 130, as it ends a plain run."""
    students = tmp_path / "students"
    for name in ("ana", "bob"):  # both hand in the bundled random bot unchanged: the same files
        shutil.copytree(ROOT / "bots" / "random", students / name)  # are checked twice, each
    # time in a folder of their own (a fork server kept for the first check's deleted copy ran
    # nothing in the second)
    config = write_config(tmp_path / "class.toml", small_config(["students/*"]))
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [*ARENA, "tournament", "run", str(config), "--watch", "--watch-interval", "0.2",
         "--settle", "0.5", "--workers", "1", "--output", str(out), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    index = out / "site" / "index.html"
    try:
        deadline = time.monotonic() + 120
        while stored(out) < 2 or not index.is_file():
            assert proc.poll() is None, f"the watch ended: {proc.communicate()}"
            assert time.monotonic() < deadline, "the watch played nothing"
            time.sleep(0.05)
        make_bot(students, "cy", HASH_BOT, "c")
        while stored(out) < 6 or "cy" not in index.read_text(encoding="utf-8"):
            assert proc.poll() is None, f"the watch ended: {proc.communicate()}"
            assert time.monotonic() < deadline, "the late entrant was not played"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole group
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130, err
    assert "stopped watching; run the same command to resume" in err and "Traceback" not in err


def test_a_fixed_submission_is_admitted_and_its_failure_leaves_the_report(tmp_path: Path) -> None:
    from reports.model import SiteModel
    from reports.source import load

    students = tmp_path / "students"
    ana, bob = make_bot(students, "ana", HASH_BOT, "a"), make_bot(students, "bob", HASH_BOT, "b")
    cy = make_bot(students, "cy", HASH_BOT, "c")
    config = write_config(tmp_path / "class.toml", small_config(["students/*"]))
    out = tmp_path / "out"
    lines: list[str] = []
    w = watcher(config, out, lines)
    (bob / "main.py").write_text(CRASH_BOT)                       # bob's first try crashes
    settle(ana, bob, cy)
    w.look()
    data = load(out).data
    assert [x.name for x in data.submissions] == ["bob"] and entrant_names(out) == ["ana", "cy"]
    (bob / "main.py").write_text(HASH_BOT)                        # fixed
    settle(bob)
    assert w.look().played == 4
    data = load(out).data
    assert data.submissions == [] and entrant_names(out) == ["ana", "cy", "bob"]
    assert SiteModel(data).index(None).submissions == []
