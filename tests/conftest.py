"""Shared fixtures: the repository's bundled bots and a check that no bot process outlives a test."""
from __future__ import annotations

from pathlib import Path

import psutil
import pytest

from arena.bots import load_bot

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"


@pytest.fixture(scope="session")
def random_bot():
    return load_bot(BOTS / "random")


# Python's own helper, started once by the first multiprocessing or Dask test, lives as long as
# the test process: it is not a bot and not ours to end.
_NOT_OURS = "multiprocessing.resource_tracker"


def surviving_children() -> list[psutil.Process]:
    """Processes started (directly or not) by this test process that are still alive; the bots'
    fork servers (which live as long as the process, arena.sandbox.zygote) are not counted, the
    bots they started are."""
    from arena.sandbox import zygote
    servers = zygote.server_pids()
    alive = []
    for child in psutil.Process().children(recursive=True):
        try:
            if child.pid in servers:
                continue
            if child.status() != psutil.STATUS_ZOMBIE and _NOT_OURS not in " ".join(child.cmdline()):
                alive.append(child)
        except psutil.NoSuchProcess:
            pass
    return alive
