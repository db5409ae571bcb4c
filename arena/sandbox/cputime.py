"""The CPU time a bot has used so far, all its processes and threads together (docs/sandbox.md,
"CPU time"): what the referee holds against the budget its time control gives it."""
from __future__ import annotations

import os
from collections.abc import Iterable

TICKS = os.sysconf("SC_CLK_TCK")  # the unit of the times in /proc/PID/stat


def _stat(pid: int) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after the command name (which may hold spaces)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    return data[data.rindex(b")") + 2:].split()


def seconds_of(pids: Iterable[int]) -> float:
    """CPU seconds of these processes: each one's user and system time, all its threads, and that
    of the children it has waited for (so a helper process that has ended still counts)."""
    ticks = 0
    for pid in pids:
        fields = _stat(pid)
        if fields is not None:
            ticks += sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / TICKS


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it, from one pass over ``/proc``."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _stat(int(name))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(name))
    found, todo = [], [pid]
    while todo:
        found.append(todo.pop())
        todo.extend(children.get(found[-1], ()))
    return found
