"""Cores claimed machine-wide: two processes never hold the same core, and a claim ends with its
process, however it ends.

The suite claims cores in a lock folder of its own (``ARENA_CORE_LOCKS``, set by tests/conftest.py),
so these tests pass whatever else holds a core on this machine; ``core_held_elsewhere`` holds one
in the machine-wide folder to show it.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tournaments import cores

pytestmark = [pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="Linux only"),
              pytest.mark.timeout(120)]

HOLD = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("held", flush=True)
sys.stdin.read()
"""


def machine_wide_folder() -> Path:
    """Where the lock files are without ``ARENA_CORE_LOCKS`` (as for every run outside the tests)."""
    saved = os.environ.pop(cores.LOCK_DIR_ENV)
    try:
        folder = cores._lock_dir()
    finally:
        os.environ[cores.LOCK_DIR_ENV] = saved
    assert folder is not None
    return folder


@pytest.fixture()
def core_held_elsewhere() -> Iterator[int]:
    """Another process of the machine holds the lowest core's machine-wide lock (as another
    tournament's worker would); yields that core, or skips if it is held already."""
    core = min(cores.available())
    holder = subprocess.Popen([sys.executable, "-c", HOLD,
                               str(machine_wide_folder() / f"core-{core}.lock")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = holder.stdout.readline()
        if line.strip() != "held":  # someone else holds it already: the point is made anyway
            holder.wait(timeout=10)
        yield core
    finally:
        holder.kill()
        holder.wait(timeout=10)


def _claim_and_report(count: int, queue) -> None:  # in a process of its own
    claimed = cores.pin(count)
    queue.put((sorted(claimed) if claimed else None, sorted(os.sched_getaffinity(0))))
    time.sleep(120)  # holds its claim until it is ended (never for long after a failed test)


class Claimers:
    """Processes that each claim cores and hold them until they are ended; all ended at the close.

    (Ended, not told to stop: a process killed while it waits on a multiprocessing Event would
    hang whoever sets that Event.)"""

    def __init__(self) -> None:
        self.ctx = multiprocessing.get_context("spawn")
        self.started: list[multiprocessing.Process] = []

    def start(self, count: int):
        queue = self.ctx.Queue()
        process = self.ctx.Process(target=_claim_and_report, args=(count, queue), daemon=True)
        process.start()
        self.started.append(process)
        claimed, affinity = queue.get(timeout=60)
        return process, claimed, affinity

    @staticmethod
    def end(process: multiprocessing.Process, sig: int = signal.SIGTERM) -> None:
        if process.is_alive():
            os.kill(process.pid, sig)
        process.join(10)

    def close(self) -> None:
        for process in self.started:
            self.end(process, signal.SIGKILL)


@pytest.fixture()
def claimers() -> Iterator[Claimers]:
    c = Claimers()
    try:
        yield c
    finally:
        c.close()


def check_claims(claimers: Claimers) -> None:
    n = len(cores.available())
    first, claimed, affinity = claimers.start(1)
    assert claimed is not None and len(claimed) == 1 and affinity == claimed  # pinned there
    if n > 1:
        second, rest, _ = claimers.start(n - 1)
        assert rest is not None and not set(rest) & set(claimed)   # all the others
    third, none, affinity = claimers.start(1)
    assert none is None and affinity == sorted(cores.available())  # nothing free: unpinned
    claimers.end(third)
    if n > 1:
        claimers.end(second)
    claimers.end(first, signal.SIGKILL)   # a killed claimer's core is free again
    _, claimed_again, _ = claimers.start(n)
    assert claimed_again == sorted(cores.available())


def test_two_processes_never_claim_the_same_core_and_a_killed_one_lets_go(claimers) -> None:
    check_claims(claimers)


def test_a_core_held_outside_the_suites_folder_changes_nothing(core_held_elsewhere, claimers) -> None:
    assert cores._lock_dir() != machine_wide_folder()
    check_claims(claimers)


def test_without_the_variable_claims_are_machine_wide(core_held_elsewhere, monkeypatch) -> None:
    monkeypatch.delenv(cores.LOCK_DIR_ENV)
    n = len(cores.available())
    try:
        assert cores.claim(n) is None  # in this process: the held core is not free
        claimed = [cores.claim(1) for _ in range(n)]  # one at a time, as many as are free
        assert all(core_held_elsewhere not in c for c in claimed if c is not None)
        assert claimed[-1] is None
    finally:
        cores.release()


def test_the_variable_names_a_private_folder(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "locks"
    monkeypatch.setenv(cores.LOCK_DIR_ENV, str(folder))
    assert cores._lock_dir() == folder and folder.is_dir()
    folder.chmod(0o777)  # anyone could steal a lock there: refused, and nothing is claimed
    assert cores._lock_dir() is None and cores.claim(1) is None


def test_claiming_nothing_pins_nothing() -> None:
    assert cores.claim(0) is None
    assert cores.claim(len(cores.available()) + 1) is None
