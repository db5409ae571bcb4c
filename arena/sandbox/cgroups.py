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


_own_dirs: dict[tuple[int, str], list[tuple[int, Path]]] = {}


def _writable_parent(controller: str) -> Path | None:
    """The first of this process's ``controller`` cgroup folders that can hold bot cgroups: one
    we may write in, where (v2) the controller is enabled for children; ``None`` if none can."""
    for version, parent in _own_cgroup_dirs(controller):
        if version == 2:
            try:
                if controller not in (parent / "cgroup.subtree_control").read_text().split():
                    continue
            except OSError:
                continue
        if os.access(parent, os.W_OK):
            return parent
    return None


def _own_cgroup_dirs(controller: str = "memory") -> list[tuple[int, Path]]:
    """(cgroup version, folder of this process's ``controller`` cgroup) candidates, v2 first; read
    once per process and controller (a bot's start should not parse the mount table again)."""
    key = (os.getpid(), controller)
    if key not in _own_dirs:
        _own_dirs[key] = _read_own_cgroup_dirs(controller)
    return list(_own_dirs[key])


def _read_own_cgroup_dirs(controller: str) -> list[tuple[int, Path]]:
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
        elif fstype == "cgroup" and controller in options:
            key = next((k for k in own if controller in k.split(",")), None)
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
        return _writable_parent("memory")

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
        _remove_cgroup(self.folder, timeout)


def _remove_cgroup(folder: Path, timeout: float) -> None:
    """rmdir a cgroup, retrying until ``timeout`` while its last processes are still leaving."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            folder.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return
            time.sleep(0.01)


class CpuPin:
    """One bot's cpuset cgroup: the cores it may run on, which it cannot widen.

    ``sched_setaffinity`` is open to every process for itself: a bot started on cores ``{0}`` may
    ask for ``{0, 1}`` and get it. In a cpuset cgroup the kernel keeps every affinity within the
    cgroup's cores, and a bot cannot leave its cgroup (that takes write access to another one).
    Made where the referee may create a cpuset cgroup (cgroup v1 ``cpuset``, or v2 with ``cpuset``
    delegated to its cgroup's children), joined between fork and exec like :class:`MemoryCap`;
    under cgroup v2 it is the same folder as the bot's memory cgroup, so joining costs nothing more."""

    def __init__(self, version: int, folder: Path, cores: frozenset[int]) -> None:
        self.version = version
        self.folder = folder
        self.cores = cores
        self._procs = str(folder / "cgroup.procs").encode()

    @staticmethod
    def create(name: str, cores: set[int] | frozenset[int],
               uid_is_free: Callable[[int], bool] | None = None) -> "CpuPin | None":
        """A cpuset cgroup allowing only ``cores``, or ``None`` if none can be made here."""
        if not _swept_cpuset.is_set():
            _swept_cpuset.set()
            sweep_stale(uid_is_free, "cpuset")
        text = ",".join(map(str, sorted(cores)))
        for version, parent in _own_cgroup_dirs("cpuset"):
            try:
                if version == 2:
                    if "cpuset" not in (parent / "cgroup.subtree_control").read_text().split():
                        continue
                    mems = ""
                else:
                    mems = (parent / "cpuset.mems").read_text().strip()
            except OSError:
                continue
            folder = parent / name
            try:
                folder.mkdir()
            except FileExistsError:
                pass
            except OSError:
                continue
            pin = CpuPin(version, folder, frozenset(cores))
            try:
                if mems:
                    (folder / "cpuset.mems").write_text(mems)  # v1: both must be set before use
                (folder / "cpuset.cpus").write_text(text)
            except OSError:
                pin.remove()
                continue
            return pin
        return None

    @staticmethod
    def parent_dir() -> Path | None:
        """The folder :meth:`create` makes bot cgroups in, or ``None``."""
        return _writable_parent("cpuset")

    def join(self) -> None:
        """Move the calling process into this cgroup (in the child, before exec, as root)."""
        fd = os.open(self._procs, os.O_WRONLY)
        try:
            os.write(fd, b"0")
        finally:
            os.close(fd)

    def remove(self, timeout: float = 1.0) -> None:
        """Remove the cgroup once its processes are gone."""
        _remove_cgroup(self.folder, timeout)


_swept_cpuset = threading.Event()


def sweep_stale(uid_is_free: Callable[[int], bool] | None, controller: str = "memory") -> None:
    """Remove empty bot cgroups (``arena-bot-UID``, ``arena-bot-pPID-N``) whose uid nobody holds
    or whose referee is gone; a cgroup that still has processes cannot be removed anyway."""
    for _, parent in _own_cgroup_dirs(controller):
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
