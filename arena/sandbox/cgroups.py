"""A memory cap on a bot's whole process tree, where the machine lets the referee make cgroups.

RLIMIT_AS caps each process; a bot that forks could still multiply it by its process limit. When
the referee may create a child of its own memory cgroup (cgroup v1 memory controller, or cgroup v2
with ``memory`` delegated to its cgroup's children), each bot gets one, capped at ``memory_mb``
for all its processes together (its tmpfs scratch included, no swap). The bot joins it between
fork and exec (:meth:`MemoryCap.join`), before it can start anything. Best effort: without such a
cgroup the per-process limit is all there is (``BotProcess.memory_cap`` is then ``None``).
"""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

_swept = threading.Event()


_own_dirs: tuple[int, list[tuple[int, Path]]] | None = None


def _own_cgroup_dirs() -> list[tuple[int, Path]]:
    """(cgroup version, folder of this process's memory cgroup) candidates, v2 first; read once
    per process (a bot's start should not parse the mount table again)."""
    global _own_dirs
    if _own_dirs is None or _own_dirs[0] != os.getpid():
        _own_dirs = (os.getpid(), _read_own_cgroup_dirs())
    return list(_own_dirs[1])


def _read_own_cgroup_dirs() -> list[tuple[int, Path]]:
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return []
    own = {}
    for line in lines:
        _, controllers, path = line.split(":", 2)
        own[controllers] = path
    found = []
    for mount in mounts:
        left, _, right = mount.partition(" - ")
        fields, extra = left.split(), right.split()
        if len(fields) < 5 or len(extra) < 3:
            continue
        root, point, fstype, options = fields[3], fields[4], extra[0], extra[2].split(",")
        if fstype == "cgroup2" and "" in own:
            version, path = 2, own[""]
        elif fstype == "cgroup" and "memory" in options:
            key = next((k for k in own if "memory" in k.split(",")), None)
            if key is None:
                continue
            version, path = 1, own[key]
        else:
            continue
        if not (path + "/").startswith(root.rstrip("/") + "/"):
            continue
        found.append((version, Path(point) / os.path.relpath(path, root)))
    return sorted(found, key=lambda f: -f[0])


class MemoryCap:
    """One bot's memory cgroup."""

    def __init__(self, version: int, folder: Path) -> None:
        self.version = version
        self.folder = folder
        self._procs = str(folder / "cgroup.procs").encode()

    @staticmethod
    def create(name: str, limit_bytes: int, uid_is_free: Callable[[int], bool] | None = None
               ) -> "MemoryCap | None":
        """A new memory cgroup capped at ``limit_bytes``, or ``None`` if none can be made here.
        The first call of a process also removes the cgroups that killed referees left behind."""
        if not _swept.is_set():
            _swept.set()
            sweep_stale(uid_is_free)
        for version, parent in _own_cgroup_dirs():
            if version == 2:
                try:
                    if "memory" not in (parent / "cgroup.subtree_control").read_text().split():
                        continue
                except OSError:
                    continue
            folder = parent / name
            try:
                folder.mkdir()
            except FileExistsError:
                pass
            except OSError:
                continue
            cap = MemoryCap(version, folder)
            try:
                if version == 2:
                    cap._write("memory.max", limit_bytes)
                    cap._write("memory.swap.max", 0, optional=True)
                else:
                    cap._write("memory.limit_in_bytes", limit_bytes)
                    cap._write("memory.memsw.limit_in_bytes", limit_bytes, optional=True)
            except OSError:
                cap.remove()
                continue
            return cap
        return None

    @staticmethod
    def parent_dir() -> Path | None:
        """The folder :meth:`create` makes bot cgroups in, or ``None``."""
        for version, parent in _own_cgroup_dirs():
            if version == 2:
                try:
                    if "memory" not in (parent / "cgroup.subtree_control").read_text().split():
                        continue
                except OSError:
                    continue
            if os.access(parent, os.W_OK):
                return parent
        return None

    def _write(self, name: str, value: int, optional: bool = False) -> None:
        try:
            (self.folder / name).write_text(str(value))
        except OSError:
            if not optional:
                raise

    def join(self) -> None:
        """Move the calling process into this cgroup (called in the child, before exec, as root)."""
        fd = os.open(self._procs, os.O_WRONLY)
        try:
            os.write(fd, b"0")
        finally:
            os.close(fd)

    def is_empty(self) -> bool:
        """Whether no process is left in the cgroup. A bot cannot leave its cgroup (that takes
        write access to another one), so an empty cgroup means every process of the bot is gone."""
        try:
            with open(self._procs, "rb") as f:
                return not f.read().strip()
        except FileNotFoundError:
            return True
        except OSError:
            return False

    def oom_kills(self) -> int:
        """How many processes the kernel killed for going over the cap."""
        try:
            text = (self.folder / ("memory.events" if self.version == 2 else "memory.oom_control")).read_text()
        except OSError:
            return 0
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def remove(self, timeout: float = 1.0) -> None:
        """Remove the cgroup once its processes are gone (their charges go to the parent)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.folder.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                if time.monotonic() > deadline:
                    return
                time.sleep(0.01)


def sweep_stale(uid_is_free: Callable[[int], bool] | None) -> None:
    """Remove empty bot cgroups (``arena-bot-UID``, ``arena-bot-pPID-N``) whose uid nobody holds
    or whose referee is gone; a cgroup that still has processes cannot be removed anyway."""
    for _, parent in _own_cgroup_dirs():
        try:
            folders = list(parent.glob("arena-bot-*"))
        except OSError:
            continue
        for folder in folders:
            tag = folder.name[len("arena-bot-"):]
            if tag.isdigit():
                stale = uid_is_free is not None and uid_is_free(int(tag))
            elif tag.startswith("p") and tag[1:].split("-")[0].isdigit():
                stale = not _alive(int(tag[1:].split("-")[0]))
            else:
                continue
            if stale:
                try:
                    folder.rmdir()
                except OSError:
                    pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        pass
    return True
