"""Helpers of the sandbox tests: which levels can run here, a spy on ``sandbox.start``, and the
check that nothing a bot started is still alive."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from arena import sandbox
from arena.sandbox import users
from arena.sandbox.cgroups import MemoryCap
from tests.conftest import surviving_children

HERE = Path(__file__).parent
HOSTILE = HERE / "hostile"
FRIENDLY = HERE / "friendly"
ROOT = HERE.parent.parent

IS_ROOT = os.geteuid() == 0
HAVE_BWRAP = sandbox.support().best == sandbox.BWRAP
NO_BWRAP = f"needs full isolation, and here {sandbox.support().missing}; CI installs bubblewrap"

def _memory_cap_available() -> bool:
    cap = MemoryCap.create(f"arena-test-{os.getpid()}", 64 << 20)
    if cap is not None:
        cap.remove()
    return cap is not None


HAVE_MEMORY_CAP = _memory_cap_available()
NO_MEMORY_CAP = "no memory cgroup the referee may create here (cgroup v1 memory, or v2 with memory delegated)"

# "auto" is bubblewrap wherever it works; "rlimits" is the fallback a root referee uses without it.
LEVELS = [
    pytest.param(sandbox.AUTO, id="auto"),
    pytest.param(sandbox.RLIMITS, id="rlimits", marks=[pytest.mark.root, pytest.mark.skipif(
        not IS_ROOT, reason="the rlimits level runs bots as a user of their own: needs root")]),
]


def require_bwrap() -> None:
    """Skip, with the reason, a test whose promise only full isolation (bubblewrap) keeps."""
    if not HAVE_BWRAP:
        pytest.skip(NO_BWRAP)


class Spy:
    """Records every BotProcess the referee starts (seat order), to know their uids and folders."""

    def __init__(self) -> None:
        self.processes: list[sandbox.BotProcess] = []

    def uids(self) -> list[int]:
        return [p.uid for p in self.processes if p.uid is not None]


@pytest.fixture
def spy(monkeypatch):
    recorder = Spy()
    real_start = sandbox.start

    def start(bot, limits=None):
        process = real_start(bot, limits)
        recorder.processes.append(process)
        return process

    monkeypatch.setattr(sandbox, "start", start)
    return recorder


def processes_with(marker: bytes, uids: list[int] | tuple[int, ...] = ()) -> list[int]:
    """Live processes whose command line contains ``marker`` (of ``uids`` only, if given: another
    test run on the machine may play the same hostile bots, under uids of its own)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            if uids and os.stat(f"/proc/{name}").st_uid not in uids:
                continue
            with open(f"/proc/{name}/cmdline", "rb") as f:
                if marker in f.read():
                    found.append(int(name))
        except OSError:
            pass
    return found


def assert_nothing_survives(spy: Spy, marker: bytes | None = None, wait: float = 3.0,
                            keep: tuple[int, ...] = ()) -> None:
    """No process of the match's bot uids, none with ``marker``, no child of ours (but ``keep``),
    no scratch folder left."""
    deadline = time.monotonic() + wait
    while True:
        left = {uid: users.pids_of(uid, include_zombies=False) for uid in spy.uids()}
        left = {uid: pids for uid, pids in left.items() if pids}
        marked = processes_with(marker, spy.uids()) if marker else []
        children = [c for c in surviving_children() if c.pid not in keep]
        if not (left or marked or children) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert not left, f"bot processes survived the match: {left}"
    assert not marked, f"processes with {marker!r} survived the match: {marked}"
    assert not children, f"children of the test survived: {children}"
    for process in spy.processes:
        if process.scratch is not None:
            assert not process.scratch.exists(), f"scratch {process.scratch} was not removed"
