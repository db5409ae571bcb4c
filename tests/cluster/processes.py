"""A real Dask cluster of local processes, as an operator starts one: ``dask scheduler`` and
``dask worker`` (with its nanny, the default) on 127.0.0.1 only. Every wait is bounded; every
process started here is killed (by its id) when the ``with`` block ends."""
from __future__ import annotations

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[2]           # this worktree: the arena the tests import
DASK = str(Path(sys.executable).with_name("dask"))
START_TIMEOUT = 30.0


def _die_with_parent() -> None:
    """In the child: SIGKILL when the test process dies, however it dies (PR_SET_PDEATHSIG)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_listening(port: int, timeout: float = START_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def arena_copy(folder: Path, edit: str = "# another commit\n") -> Path:
    """A copy of this arena's code with one comment added to the referee: the same version
    string, other code."""
    for name in ("arena", "protocol", "tournaments", "bots"):
        shutil.copytree(ROOT / name, folder / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    with open(folder / "arena" / "referee.py", "a") as handle:
        handle.write(edit)
    return folder


def no_arena(folder: Path) -> Path:
    """A folder that, first on the path, makes ``import tournaments`` fail as if arena were not
    installed."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tournaments.py").write_text("raise ImportError('No module named tournaments')\n")
    return folder


class Cluster:
    """``dask scheduler`` on a free port of 127.0.0.1, and ``dask worker`` processes added with
    :meth:`add_worker` (``path``: what comes first on their ``PYTHONPATH``; this worktree by
    default)."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.procs: list[subprocess.Popen[bytes]] = []

    def _spawn(self, args: list[str], name: str, path: Path | None = None) -> subprocess.Popen[bytes]:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(path or ROOT)
        env.pop("PYTHONSAFEPATH", None)
        log = open(self.log_dir / f"{name}.log", "wb")
        proc = subprocess.Popen(args, cwd=str(path or ROOT), env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True,
                                preexec_fn=_die_with_parent)
        log.close()
        self.procs.append(proc)
        return proc

    def __enter__(self) -> Cluster:
        self._spawn([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(self.port),
                     "--no-dashboard"], "scheduler")
        wait_listening(self.port)
        return self

    def add_worker(self, name: str, path: Path | None = None) -> subprocess.Popen[bytes]:
        return self._spawn([DASK, "worker", self.address, "--nthreads", "1", "--host", "127.0.0.1",
                            "--no-dashboard", "--name", name, "--death-timeout", "60"],
                           name, path)

    def log(self, name: str) -> str:
        return (self.log_dir / f"{name}.log").read_text(errors="replace")

    def __exit__(self, *exc: Any) -> None:
        for proc in reversed(self.procs):   # workers (with their nannies' children), then the scheduler
            try:
                family = psutil.Process(proc.pid).children(recursive=True)
            except psutil.NoSuchProcess:
                family = []
            for p in [psutil.Process(proc.pid) if proc.poll() is None else None, *family]:
                if p is not None:
                    try:
                        p.send_signal(signal.SIGKILL)
                    except psutil.NoSuchProcess:
                        pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass


def wait_for(predicate: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise TimeoutError(f"{what}: not within {timeout} s")
