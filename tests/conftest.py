"""Shared set-up of the whole suite.

- The repository's bundled bots (``random_bot``).
- Every test is checked for processes it started and left alive: after each test, a process
  started during it (directly or not) that is still running after a short grace is killed and the
  test errors in its teardown. Processes that fixtures of a wider scope started before the test
  (a Dask cluster, a browser) and the processes those start are theirs to end, not the test's.
- Core claims (``tournaments/cores.py``) go to a lock folder of this test session's own (of each
  pytest-xdist worker's own) (``ARENA_CORE_LOCKS``), inherited by every worker the suite starts:
  a core held by any other process of the machine changes nothing here.
- The summary names every group of tests that did not run here (browser, root-only, cluster...)
  and why, so a green run without them does not pass for a full one.
"""
from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import psutil
import pytest

from arena.bots import load_bot
from tournaments.cores import LOCK_DIR_ENV

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"
LEFTOVER_GRACE = 5.0  # seconds a test's processes get to finish exiting after it
GROUPS = {  # marker (or folder) -> what the group is, for the summary
    "browser": "browser tests (the report in a real Chromium)",
    "root": "root-only containment tests",
    "cluster": "Dask cluster tests",
    "tests/sandbox/": "sandbox containment tests",
}
# Fixtures whose tests belong to a group, whichever file they are in (each game's replay drawer
# has browser tests of its own, say): fixture -> markers.
FIXTURE_GROUPS = {"browser": ("browser", "slow"), "cluster": ("cluster", "slow"),
                  "client": ("cluster", "slow")}

_core_locks: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _core_locks
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        # launched in the background by a shell (`make test &`): the tests that press Ctrl-C in
        # an arena they start need it to reach arena, which would inherit the ignoring
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # a lock folder of this session's own; under pytest-xdist (`make test`), of each worker's own,
    # so that a test's workers may pin their matches whatever the other worker's tests hold
    if not os.environ.get(LOCK_DIR_ENV) or os.environ.get("PYTEST_XDIST_WORKER"):
        _core_locks = tempfile.mkdtemp(prefix="arena-test-cores-")
        os.environ[LOCK_DIR_ENV] = _core_locks


def pytest_unconfigure(config: pytest.Config) -> None:
    if _core_locks is not None:
        os.environ.pop(LOCK_DIR_ENV, None)
        shutil.rmtree(_core_locks, ignore_errors=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for fixture, markers in FIXTURE_GROUPS.items():
            if fixture in getattr(item, "fixturenames", ()):
                for marker in markers:
                    item.add_marker(marker)


@pytest.fixture(scope="session")
def random_bot():
    return load_bot(BOTS / "random")


# Python's own helper, started once by the first multiprocessing or Dask test, lives as long as
# the test process: it is not a bot and not ours to end.
_NOT_OURS = "multiprocessing.resource_tracker"


def _servers() -> set[int]:
    """The bots' fork servers (arena.sandbox.zygote): they live as long as the test process, like
    Python's resource tracker, and are not counted; the bots they start are."""
    from arena.sandbox import zygote
    return zygote.server_pids()


def _alive(process: psutil.Process, servers: set[int] = frozenset()) -> bool:
    try:
        return (process.pid not in servers and process.status() != psutil.STATUS_ZOMBIE
                and _NOT_OURS not in " ".join(process.cmdline()))
    except psutil.Error:
        return False


def surviving_children() -> list[psutil.Process]:
    """Processes started (directly or not) by this test process that are still alive."""
    servers = _servers()
    return [child for child in psutil.Process().children(recursive=True) if _alive(child, servers)]


def _started_since(before: set[int]) -> list[psutil.Process]:
    """Live descendants that are not in ``before`` nor descend from one that is (a fork server
    does not count as such an ancestor: what it starts belongs to the test that asked)."""
    me = os.getpid()
    servers = _servers()
    found = []
    for child in psutil.Process().children(recursive=True):
        if child.pid in before or not _alive(child, servers):
            continue
        try:
            ancestors = {p.pid for p in child.parents()}
        except psutil.Error:
            continue
        if not (ancestors - {me} - servers) & before:
            found.append(child)
    return found


@pytest.fixture(autouse=True)
def no_process_outlives_its_test():
    """Fails (in teardown) a test that leaves a process of its own running, and ends it."""
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    yield
    deadline = time.monotonic() + LEFTOVER_GRACE
    left = _started_since(before)
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = _started_since(before)
    if not left:
        return
    described = []
    for process in left:
        try:
            described.append(f"{process.pid} {' '.join(process.cmdline())[:120]}")
            process.kill()
        except psutil.Error:
            pass
    pytest.fail("processes started by this test outlived it (now killed): " + "; ".join(described),
                pytrace=False)


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """Name each group of tests that was skipped here, with its reasons."""
    groups: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for report in terminalreporter.stats.get("skipped", []):
        keywords = getattr(report, "keywords", {})
        group = next((g for g in GROUPS if g in keywords or report.nodeid.startswith(g)), "other")
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        groups[group][reason.removeprefix("Skipped: ")] += 1
    if not groups:
        return
    terminalreporter.section("NOT TESTED on this machine", sep="=", yellow=True, bold=True)
    for group, reasons in sorted(groups.items()):
        total = sum(reasons.values())
        name = GROUPS.get(group, "other tests")
        terminalreporter.write_line(f"{name}: {total} skipped")
        for reason, count in sorted(reasons.items()):
            terminalreporter.write_line(f"    {count} x {reason}")
