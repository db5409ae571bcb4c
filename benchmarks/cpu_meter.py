"""CPU counted where the bots' CPU really goes: a cgroup of the benchmark's own.

``time`` and ``getrusage(RUSAGE_CHILDREN)`` miss a sandboxed bot: it is not a waited-for child of
the referee (bubblewrap's processes, a fork server's grandchildren). A CPU-accounting cgroup
counts every process started inside it, wherever it goes in other hierarchies (the bots' memory
cgroups are another hierarchy under cgroup v1; under v2 they are children of this one, and a
cgroup's ``cpu.stat`` includes its children). What it misses: the kernel's own workers (the
deferred clean-up of a network namespace runs in a kworker thread), so the figures say so.

    with CpuMeter() as meter:        # this process and everything it starts from now on
        before = meter.usage_ns()
        ...
        spent = meter.usage_ns() - before

Needs root (or a delegated cgroup); :meth:`CpuMeter.usage_ns` returns ``None`` without one, and
callers fall back to this process's own ``getrusage`` with a warning.
"""
from __future__ import annotations

import os
import resource
from pathlib import Path


def _own(controller: str) -> Path | None:
    """This process's folder in the v1 hierarchy of ``controller`` (or the v2 one for "")."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            for mount in (Path("/sys/fs/cgroup") / controllers, Path("/sys/fs/cgroup/cpu,cpuacct"),
                          Path("/sys/fs/cgroup/cpuacct")):
                if (mount / path.lstrip("/") / "cpuacct.usage").exists():
                    return mount / path.lstrip("/")
        if controller == "" and controllers == "" and (Path("/sys/fs/cgroup") / path.lstrip("/")
                                                       / "cpu.stat").exists():
            return Path("/sys/fs/cgroup") / path.lstrip("/")
    return None


class CpuMeter:
    def __init__(self) -> None:
        self.folder: Path | None = None
        self._parent: Path | None = None
        self._v2 = False
        self.kind = "getrusage of this process only (no CPU-accounting cgroup: the bots are NOT counted)"

    def __enter__(self) -> CpuMeter:
        for controller, v2 in (("cpuacct", False), ("", True)):
            parent = _own(controller)
            if parent is None:
                continue
            for stale in parent.glob("arena-bench-cpu-*"):  # runs that were killed
                try:
                    stale.rmdir()
                except OSError:
                    pass
            folder = parent / f"arena-bench-cpu-{os.getpid()}"
            try:
                folder.mkdir(exist_ok=True)
                (folder / "cgroup.procs").write_text(str(os.getpid()))
            except OSError:
                try:
                    folder.rmdir()
                except OSError:
                    pass
                continue
            self.folder, self._parent, self._v2 = folder, parent, v2
            self.kind = f"a CPU-accounting cgroup ({folder})"
            break
        return self

    def usage_ns(self) -> int:
        if self.folder is None:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            return int((usage.ru_utime + usage.ru_stime) * 1e9)
        if self._v2:
            for line in (self.folder / "cpu.stat").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "usage_usec":
                    return int(value) * 1000
            return 0
        return int((self.folder / "cpuacct.usage").read_text())

    def __exit__(self, *exc) -> None:
        if self.folder is None or self._parent is None:
            return
        try:
            (self._parent / "cgroup.procs").write_text(str(os.getpid()))
        except OSError:
            return
        # processes still inside (a fork server that lives until exit) keep the folder; it is
        # removed by the next run if empty
        try:
            self.folder.rmdir()
        except OSError:
            pass
