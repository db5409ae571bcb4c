"""Cores claimed machine-wide: two processes never hold the same core, and a claim ends with its
process, however it ends."""
from __future__ import annotations

import multiprocessing
import os
import signal

import pytest

from tournaments import cores

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="Linux only")


def _claim_and_report(count: int, queue, hold) -> None:  # in a process of its own
    claimed = cores.pin(count)
    queue.put((sorted(claimed) if claimed else None, sorted(os.sched_getaffinity(0))))
    hold.wait()


def _start(ctx, count: int):
    queue, hold = ctx.Queue(), ctx.Event()
    process = ctx.Process(target=_claim_and_report, args=(count, queue, hold))
    process.start()
    claimed, affinity = queue.get(timeout=30)
    return process, hold, claimed, affinity


def test_two_processes_never_claim_the_same_core_and_a_killed_one_lets_go() -> None:
    ctx = multiprocessing.get_context("spawn")
    n = len(cores.available())
    first, hold_first, claimed, affinity = _start(ctx, 1)
    assert claimed is not None and len(claimed) == 1 and affinity == claimed  # pinned there
    second, hold_second, rest, _ = _start(ctx, n - 1) if n > 1 else (None, None, None, None)
    if n > 1:
        assert rest is not None and not set(rest) & set(claimed)   # all the others
    third, hold_third, none, affinity = _start(ctx, 1)
    assert none is None and affinity == sorted(cores.available())  # nothing free: unpinned
    for process, hold in ((third, hold_third), (second, hold_second)):
        if process is not None:
            hold.set()
            process.join()
    os.kill(first.pid, signal.SIGKILL)   # a killed claimer's core is free again
    first.join()
    again, hold_again, claimed_again, _ = _start(ctx, n)
    assert claimed_again == sorted(cores.available())
    hold_again.set()
    again.join()


def test_claiming_nothing_pins_nothing() -> None:
    assert cores.claim(0) is None
    assert cores.claim(len(cores.available()) + 1) is None
