"""Files and folders a command will write, checked before any work starts.

A command that writes where the user said (``arena play --replay FILE``, ``arena new-bot FOLDER``,
a tournament's output folder) checks the place first, so that a mistake is one line and exit code
2 at once, not a traceback after the whole match.
"""
from __future__ import annotations

import os
from pathlib import Path

from arena.errors import ArenaError


def check_output_file(path: str | os.PathLike[str], what: str) -> None:
    """Refuse a file that cannot be written: its folder is missing or is a file, it is a folder,
    or it or its folder may not be written. ``what`` names the input (``--replay``)."""
    file = Path(path)
    shown = f"{what} {str(path)!r}"
    if file.is_dir():
        raise ArenaError(f"{shown} is a folder; give the name of a file to write")
    parent = file.parent
    if not parent.exists():
        raise ArenaError(f"{shown}: its folder {str(parent)!r} does not exist")
    if not parent.is_dir():
        raise ArenaError(f"{shown}: {str(parent)!r} is a file, not a folder")
    if file.exists() and not os.access(file, os.W_OK):
        raise ArenaError(f"{shown} may not be written (permission denied)")
    if not file.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise ArenaError(f"{shown}: its folder {str(parent)!r} may not be written (permission denied)")


def check_output_folder(path: str | os.PathLike[str], what: str) -> None:
    """Refuse a folder that cannot be made or written: it is a file, a part of its path is a
    file, or the folder (or the nearest one above it that exists) may not be written."""
    folder = Path(path)
    shown = f"{what} {str(path)!r}"
    if folder.exists() and not folder.is_dir():
        raise ArenaError(f"{shown} is a file, not a folder")
    existing = folder
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        raise ArenaError(f"{shown}: {str(existing)!r} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ArenaError(f"{shown}: {str(existing)!r} may not be written (permission denied)")
