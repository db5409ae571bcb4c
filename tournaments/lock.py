"""One run at a time per output folder: a lock file that dies with its process, even killed."""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from arena.errors import ArenaError

LOCK_NAME = ".arena-lock"


@contextlib.contextmanager
def output_lock(folder: Path) -> Iterator[None]:
    """Only one run at a time per output folder (the lock dies with its process, even killed)."""
    folder.mkdir(parents=True, exist_ok=True)
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
                             f"({handle.read().strip() or 'unknown process'})") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}\n")
        handle.flush()
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
