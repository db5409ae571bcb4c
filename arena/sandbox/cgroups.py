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
import time
from collections.abc import Callable
from pathlib import Path

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


class _BotCgroup:
    """One bot's cgroup of one controller: made by :meth:`_make`, joined between fork and exec,
    removed once the bot is gone."""

    controller = ""

    def __init__(self, version: int, folder: Path) -> None:
        self.version = version
        self.folder = folder
        self._procs = str(folder / "cgroup.procs").encode()

    @classmethod
    def _make(cls, name: str, uid_is_free: Callable[[int], bool] | None,
              configure: Callable[[int, Path, Path], None]) -> tuple[int, Path] | None:
        """(version, folder) of a new cgroup ``name`` under the first of this process's cgroups of
        the controller that can hold one, ``configure(version, parent, folder)`` run on it; ``None``
        if none can. The first call of a process for a controller also removes the cgroups that
        killed referees left behind."""
        if cls.controller not in _swept:
            _swept.add(cls.controller)
            sweep_stale(uid_is_free, cls.controller)
        for version, parent in _own_cgroup_dirs(cls.controller):
            if version == 2:
                try:
                    if cls.controller not in (parent / "cgroup.subtree_control").read_text().split():
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
            try:
                configure(version, parent, folder)
            except OSError:
                _remove_cgroup(folder, 1.0)
                continue
            return version, folder
        return None

    @classmethod
    def parent_dir(cls) -> Path | None:
        """The folder :meth:`create` makes bot cgroups in, or ``None``."""
        return _writable_parent(cls.controller)

    def join(self) -> None:
        """Move the calling process into this cgroup (called in the child, before exec, as root)."""
        fd = os.open(self._procs, os.O_WRONLY)
        try:
            os.write(fd, b"0")
        finally:
            os.close(fd)

    def remove(self, timeout: float = 1.0) -> None:
        """Remove the cgroup once its processes are gone (their charges go to the parent)."""
        _remove_cgroup(self.folder, timeout)


_swept: set[str] = set()  # the controllers whose stale bot cgroups this process has removed


class MemoryCap(_BotCgroup):
    """One bot's memory cgroup."""

    controller = "memory"

    @classmethod
    def create(cls, name: str, limit_bytes: int, uid_is_free: Callable[[int], bool] | None = None
               ) -> MemoryCap | None:
        """A new memory cgroup capped at ``limit_bytes`` (no swap), or ``None`` if none can be made
        here."""
        def configure(version: int, parent: Path, folder: Path) -> None:
            limit, swap = (("memory.max", "memory.swap.max") if version == 2 else
                           ("memory.limit_in_bytes", "memory.memsw.limit_in_bytes"))
            (folder / limit).write_text(str(limit_bytes))
            try:  # absent where the kernel does not account swap: then there is none to cap
                (folder / swap).write_text("0" if version == 2 else str(limit_bytes))
            except OSError:
                pass
        made = cls._make(name, uid_is_free, configure)
        return None if made is None else cls(*made)

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

    def cpu_seconds(self) -> float | None:
        """CPU seconds all its processes have used, ended ones included (cgroup v2's ``cpu.stat``,
        there whatever controllers are enabled); ``None`` under cgroup v1."""
        if self.version != 2:
            return None
        try:
            with open(self.folder / "cpu.stat", "rb") as f:
                first = f.readline()  # "usage_usec N"
        except OSError:
            return None
        key, _, value = first.partition(b" ")
        return int(value) / 1e6 if key == b"usage_usec" else None

    def pids(self) -> list[int]:
        """The processes in the cgroup now."""
        try:
            with open(self._procs, "rb") as f:
                return [int(line) for line in f.read().split()]
        except OSError:
            return []

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


class CpuPin(_BotCgroup):
    """One bot's cpuset cgroup: the cores it may run on, which it cannot widen.

    ``sched_setaffinity`` is open to every process for itself: a bot started on cores ``{0}`` may
    ask for ``{0, 1}`` and get it. In a cpuset cgroup the kernel keeps every affinity within the
    cgroup's cores, and a bot cannot leave its cgroup (that takes write access to another one).
    Made where the referee may create a cpuset cgroup (cgroup v1 ``cpuset``, or v2 with ``cpuset``
    delegated to its cgroup's children), joined between fork and exec like :class:`MemoryCap`;
    under cgroup v2 it is the same folder as the bot's memory cgroup, so joining costs nothing more."""

    controller = "cpuset"

    def __init__(self, version: int, folder: Path, cores: frozenset[int]) -> None:
        super().__init__(version, folder)
        self.cores = cores

    @classmethod
    def create(cls, name: str, cores: set[int] | frozenset[int],
               uid_is_free: Callable[[int], bool] | None = None) -> CpuPin | None:
        """A cpuset cgroup allowing only ``cores``, or ``None`` if none can be made here."""
        def configure(version: int, parent: Path, folder: Path) -> None:
            if version == 1:  # v1: the memory nodes must be set too before the cgroup can be used
                (folder / "cpuset.mems").write_text((parent / "cpuset.mems").read_text().strip())
            (folder / "cpuset.cpus").write_text(",".join(map(str, sorted(cores))))
        made = cls._make(name, uid_is_free, configure)
        return None if made is None else cls(*made, frozenset(cores))


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
