"""Kill a real ``arena tournament run`` (SIGKILL, Ctrl-C, Ctrl-C twice) and run it again.

Every match ends up in the store exactly once, and the results equal those of an uninterrupted
run; no worker or bot process outlives the run it belonged to.
"""
from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import pytest

from tournaments.backends import ProcessBackend
from tournaments.config import load_config
from tournaments.lock import LOCK_NAME
from tournaments.run import prepare, run_tournament
from tournaments.store import STORE_NAME, Store

from .conftest import FIRST_BOT, HASH_BOT, make_bot, small_config, write_config
from .test_run import comparable_rows, ratings_of

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]  # a run and its resume: ~4 s

ARENA = [sys.executable, "-c", "from arena.cli import main; main()"]
TOTAL = 24  # 6 pairs x 2 seats x 2 rounds


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The config, and the rows and ratings of an uninterrupted run of it."""
    root = tmp_path_factory.mktemp("kill")
    folder = root / "bots"
    entrants = [make_bot(folder, "alpha", HASH_BOT, "a"), make_bot(folder, "beta", HASH_BOT, "b"),
                make_bot(folder, "gamma", HASH_BOT, "c"), make_bot(folder, "first", FIRST_BOT)]
    config = write_config(root / "t.toml", small_config(entrants, format={"rounds": 2}))
    reference = root / "reference"
    result = run_tournament(prepare(load_config(config), reference), backend=ProcessBackend(2),
                            progress=False)
    assert result.done == TOTAL
    return {"root": root, "config": config, "rows": comparable_rows(reference),
            "ratings": ratings_of(reference)}


def start_run(config: Path, output: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [*ARENA, "tournament", "run", str(config), "--workers", "2", "--output", str(output)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def stored(output: Path) -> int:
    try:
        conn = sqlite3.connect(f"file:{output / STORE_NAME}?mode=ro", uri=True, timeout=5)
    except sqlite3.OperationalError:
        return -1
    try:
        return conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    except sqlite3.DatabaseError:
        return -1
    finally:
        conn.close()


def wait_for(output: Path, count: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while stored(output) < count:
        if proc.poll() is not None:  # (it may have stored them since the look)
            assert stored(output) >= count, f"the run ended early: {proc.communicate()}"
            return
        assert time.monotonic() < deadline, "the run made no progress"
        time.sleep(0.01)


def descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def assert_all_gone(processes: list[psutil.Process], timeout: float = 20) -> None:
    """Workers exit when their parent dies; bots die with their match."""
    gone, alive = psutil.wait_procs(processes, timeout=timeout)
    assert not [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE], alive


def resume_and_compare(setup: dict[str, Any], output: Path, before: int) -> None:
    proc = start_run(setup["config"], output)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    if before > 0:
        assert f"resuming: {before} of {TOTAL} matches already played" in err
    assert f"played {TOTAL - max(before, 0)} matches ({TOTAL} of {TOTAL} done" in out
    rows = comparable_rows(output)
    assert [r[0] for r in rows] == list(range(1, TOTAL + 1))  # every match, exactly once
    assert rows == setup["rows"]                                # the same results
    assert ratings_of(output) == setup["ratings"]               # the same ratings


def stopped_mid_run(setup: dict[str, Any], name: str, count: int,
                    stop: Callable[[subprocess.Popen], None]) -> tuple[Path, list[psutil.Process], str, int]:
    """A run stopped by ``stop`` once it stored ``count`` matches: its output folder, its
    processes, its stderr and exit code. Tried again (up to five times) where a loaded machine
    let the run finish between the look and ``stop``."""
    for attempt in range(5):
        output = setup["root"] / f"{name}-{attempt}"
        proc = start_run(setup["config"], output)
        wait_for(output, count, proc)
        children = descendants(proc.pid)
        with contextlib.suppress(ProcessLookupError):  # (it ended since the look)
            stop(proc)
        _, err = proc.communicate(timeout=60)
        if stored(output) < TOTAL:
            return output, children, err, proc.returncode
    pytest.fail(f"the run finished before it was stopped, five times ({name})")


def test_sigkill_mid_run_then_resume(setup: dict[str, Any]) -> None:
    output, children, _, _ = stopped_mid_run(setup, "killed", 6, lambda p: os.kill(p.pid, signal.SIGKILL))
    assert_all_gone(children)
    before = stored(output)
    assert 6 <= before < TOTAL
    with Store.open(output) as store:
        assert [r.outcome for r in store.meta.runs()] == [None]  # killed: no end recorded
    resume_and_compare(setup, output, before)
    with Store.open(output) as store:
        assert [r.outcome for r in store.meta.runs()] == [None, "complete"]


def holds_the_folder(output: Path, proc: subprocess.Popen) -> bool:
    lock = output / LOCK_NAME
    try:
        return lock.read_text() == f"pid {proc.pid}\n"
    except OSError:
        return False


# The phases of a start, each told by what the output folder shows: the run holds the folder and
# estimates the draw probability (no store yet); the store is created and the workers start (no
# match stored yet). Each phase: whether the run is in it, and whether it is past it.
PHASES = {
    "before the store": (lambda output, proc: (holds_the_folder(output, proc)
                                               and not (output / STORE_NAME).exists()),
                         lambda output, proc: (output / STORE_NAME).exists()),
    "before the first match": (lambda output, proc: (Store.is_initialised(output / STORE_NAME)
                                                     and stored(output) == 0),
                               lambda output, proc: stored(output) > 0),
}


def stopped_in(phase: str, output: Path, proc: subprocess.Popen) -> bool:
    """Wait for the phase, then freeze the run's whole process group and look again: the run may
    have left the phase between the look and the freeze. True if it is frozen inside the phase;
    False (the run is killed) if it slipped past, before a look or after it (on a loaded machine
    a start can pass a phase between two looks, or finish the whole run)."""
    inside, past = PHASES[phase]
    deadline = time.monotonic() + 60
    while not inside(output, proc):
        if proc.poll() is not None:
            out, err = proc.communicate()
            assert proc.returncode == 0, f"the run failed: {out}{err}"
            return False
        if past(output, proc):
            break
        assert time.monotonic() < deadline, f"the run never showed the phase {phase!r}"
        time.sleep(0.005)
    else:
        os.killpg(proc.pid, signal.SIGSTOP)
        if inside(output, proc):
            return True
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
    return False


@pytest.mark.parametrize("phase", PHASES)
def test_sigkill_while_starting_then_resume(setup: dict[str, Any], phase: str) -> None:
    for attempt in range(5):
        output = setup["root"] / f"killed-{phase.replace(' ', '-')}-{attempt}"
        proc = start_run(setup["config"], output)
        if stopped_in(phase, output, proc):
            break
    else:
        pytest.fail(f"the run slipped past the phase {phase!r} five times")
    children = descendants(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)  # the run only: its workers must follow it by themselves
    with contextlib.suppress(ProcessLookupError):  # no worker may have started yet
        os.killpg(proc.pid, signal.SIGCONT)  # the frozen workers wake to find the run gone
    proc.communicate()
    assert_all_gone(children)
    if phase == "before the store":  # killed where it was looked for
        assert not (output / STORE_NAME).exists()
    else:
        assert stored(output) == 0
    resume_and_compare(setup, output, stored(output))


def test_ctrl_c_finishes_the_matches_in_flight_then_resume(setup: dict[str, Any]) -> None:
    # a terminal's Ctrl-C reaches the whole process group
    output, children, err, code = stopped_mid_run(setup, "interrupted", 4,
                                                  lambda p: os.killpg(p.pid, signal.SIGINT))
    assert code == 130, err
    assert "stopping after the matches in flight" in err
    assert "run the same command to resume" in err
    assert "Traceback" not in err
    assert_all_gone(children)
    before = stored(output)
    assert 4 <= before < TOTAL
    with Store.open(output) as store:
        assert [r.outcome for r in store.meta.runs()] == ["stopped"]
    resume_and_compare(setup, output, before)


def test_ctrl_c_twice_stops_at_once(setup: dict[str, Any]) -> None:
    def twice(proc: subprocess.Popen) -> None:
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)

    output, children, err, code = stopped_mid_run(setup, "aborted", 2, twice)
    assert code == 130, err
    assert "stopped at once" in err and "Traceback" not in err
    assert_all_gone(children, timeout=10)
    with Store.open(output) as store:
        assert [r.outcome for r in store.meta.runs()] in (["aborted"], ["stopped"])
    resume_and_compare(setup, output, stored(output))


def _workers(proc: subprocess.Popen) -> list[psutil.Process]:
    """The run's worker processes (spawned: ``multiprocessing.spawn``), started or starting."""
    found = []
    for child in descendants(proc.pid):
        try:
            if "spawn_main" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:
            pass
    return found


def _importing(proc: subprocess.Popen, count: int, cpu: float) -> bool:
    """Whether ``count`` workers have each used ``cpu`` seconds of CPU: past Python's own start
    (a few hundredths), in the imports of the `arena` script that a spawned worker runs again."""
    used = []
    for worker in _workers(proc):
        try:
            times = worker.cpu_times()
        except psutil.Error:
            continue
        used.append(times.user + times.system)
    return sum(1 for u in used if u >= cpu) >= count


# Moments of the workers' start, each told by the processes of the run, not by the clock: a
# worker importing, then both. (Once a worker's code runs it ignores Ctrl-C, and so do the fork
# servers it starts, in sessions of their own.)
STARTING = {
    "a worker importing": lambda proc: _importing(proc, 1, 0.06),
    "both workers importing": lambda proc: _importing(proc, 2, 0.2),
}


@pytest.mark.parametrize("moment", STARTING)
def test_ctrl_c_while_the_workers_start_is_one_clean_line(setup: dict[str, Any], moment: str) -> None:
    """Ctrl-C to the process group while the workers start, as a terminal sends it: exit 130
    and the same words as a Ctrl-C later in the run, no traceback from a starting worker."""
    output = setup["root"] / f"starting-{moment.replace(' ', '-')}"
    arena = Path(sys.executable).with_name("arena")  # the command a person runs: a spawned
    proc = subprocess.Popen(                         # worker runs this script's imports again
        [str(arena), "tournament", "run", str(setup["config"]), "--workers", "2", "--output",
         str(output)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    deadline = time.monotonic() + 60
    while not STARTING[moment](proc):
        assert proc.poll() is None, f"the run ended early: {proc.communicate()}"
        assert time.monotonic() < deadline, f"the run never showed the moment {moment!r}"
        time.sleep(0.002)
    children = descendants(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "run the same command to resume" in err, err
    assert_all_gone(children)
