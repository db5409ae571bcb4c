"""Cores of its own for each worker, claimed machine-wide.

A worker (a local worker process, or a Dask worker process) that plays its matches on cores of
its own claims them here: it holds an exclusive ``flock`` on one lock file per core for as long as
it lives, and the kernel lets go when it exits, even killed. So two tournaments run at once on
one machine, or several Dask worker processes of one machine, never pin to the same core; a worker
that finds too few cores free runs unpinned, where the system places it. The lock files live in a
folder only root (or, for a referee that is not root, only its user) may write.

``ARENA_CORE_LOCKS=FOLDER`` (a folder of this user that no one else may write; created if missing)
puts the lock files there instead: the processes that share it share the cores, and no others.
The test suite sets it so that its claims never depend on what else runs on the machine.
"""
from __future__ import annotations

import fcntl
import os
import tempfile
from pathlib import Path

from arena.sandbox.users import private_folder

LOCK_DIR_ENV = "ARENA_CORE_LOCKS"  # a folder of lock files of one's own (see above)
_held: list[int] = []   # lock files of the cores this process claimed, open until it exits


def available() -> set[int]:
    """The cores this process may run on."""
    try:
        return os.sched_getaffinity(0)
    except AttributeError:  # not on Linux
        return set(range(os.cpu_count() or 1))


def _lock_dir() -> Path | None:
    chosen = os.environ.get(LOCK_DIR_ENV)
    if chosen:
        return private_folder([Path(chosen)])
    uid = os.geteuid()
    candidates = [Path("/run/arena-cores")] if uid == 0 else []
    return private_folder([*candidates, Path(tempfile.gettempdir()) / f"arena-cores-{uid}"])


def run_on(where: set[int] | frozenset[int], thread: int = 0) -> bool:
    """Let ``thread`` (0: the calling one; the threads and processes it starts from now on follow)
    run on the cores ``where`` only; ``False`` if that cannot be (not Linux, cores taken away)."""
    try:
        os.sched_setaffinity(thread, where)
    except (AttributeError, OSError):
        return False
    return True


def claim(count: int) -> frozenset[int] | None:
    """Claim ``count`` of this process's cores that no other process of this machine holds, for
    the rest of this process's life; ``None`` (nothing claimed) if there are not that many free,
    or pinning is not possible here."""
    if count < 1 or not hasattr(os, "sched_setaffinity"):
        return None
    folder = _lock_dir()
    if folder is None:
        return None
    got: list[tuple[int, int]] = []
    for core in sorted(available()):
        try:
            fd = os.open(folder / f"core-{core}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC
                         | os.O_NOFOLLOW, 0o600)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        got.append((core, fd))
        if len(got) == count:
            _held.extend(fd for _, fd in got)
            return frozenset(core for core, _ in got)
    for _, fd in got:
        os.close(fd)
    return None


def release() -> None:
    """Let go of every core this process claimed (the caller resets its threads' affinity)."""
    while _held:
        os.close(_held.pop())


def pin(count: int) -> frozenset[int] | None:
    """Claim ``count`` cores and run the calling thread (and the threads and processes it starts
    from now on) on them only; ``None`` if it stays unpinned."""
    cores = claim(count)
    return cores if cores is not None and run_on(cores) else None
