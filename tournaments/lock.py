"""One run at a time per output folder: a lock file that dies with its process, even killed.

The watch holds its folder's lock for its whole life (``hold=True``) and plays each look as an
ordinary run inside it; any other run of the folder, from another process or from this one, is
refused in one line.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from arena.errors import ArenaError

LOCK_NAME = ".arena-lock"
_held: set[str] = set()  # folders whose lock this process holds for the runs inside it


@contextlib.contextmanager
def output_lock(folder: Path, *, hold: bool = False) -> Iterator[None]:
    """Only one run at a time per output folder (the lock dies with its process, even killed).
    ``hold``: the runs started inside (in this process) run in the folder under this lock."""
    folder.mkdir(parents=True, exist_ok=True)
    key = os.path.realpath(folder)
    if key in _held:  # held for the runs inside
        yield
        return
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        yield
        return
    with open(folder / LOCK_NAME, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            raise ArenaError(f"output folder {str(folder)!r} is in use by another run "
                             f"({handle.read().strip() or 'unknown process'}); wait for it to "
                             "end, or stop it (Ctrl-C)") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}\n")
        handle.flush()
        if hold:
            _held.add(key)
        try:
            yield
        finally:
            _held.discard(key)
            fcntl.flock(handle, fcntl.LOCK_UN)
