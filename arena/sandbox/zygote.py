"""Bots started from a fork server (docs/sandbox.md, "The fork server").

One server (:mod:`.zygote_server`) per bot and referee process, started the first time the bot
plays, kept until the process ends. What a cold start pays per match (bubblewrap's set-up of the
file system view, the interpreter's start, the SDK's import, the fork of a large referee) is paid
once; each match gets a fresh child with fresh namespaces, its own uid, memory cgroup and scratch,
copied from a process that never ran the bot's code.

Needs a root referee on Linux (the server mounts and switches users itself, with no user
namespace) and ``os.pidfd_open`` (Linux 5.3). :func:`available` says whether this machine offers
it; ``Limits(zygote=False)`` keeps the cold start.
"""
from __future__ import annotations

import atexit
import json
import os
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from pathlib import Path

from arena.bots import BotSpec
from arena.sandbox import files, users
from arena.sandbox.cgroups import CpuPin, MemoryCap
from arena.sandbox.command import ETC_ENTRIES, SCRATCH_MOUNT, SDK_MOUNT, SYSTEM_PATH, MiB, environment, rlimit_values
from arena.sandbox.limits import BWRAP, Limits

SERVER = Path(__file__).with_name("zygote_server.py")
PYTHON = "/usr/bin/python3"
START_TIMEOUT = 20.0
# Fork servers kept per process: each holds an interpreter (about 8 MB of its own, 33 ms of CPU
# to start) and a uid. At this many, a server idle for IDLE_SECONDS makes room for a new one;
# if none is, the bot starts cold: a league with more bots than this keeps its servers for the
# first ones rather than ending and starting servers match after match.
MAX_SERVERS = 32
IDLE_SECONDS = 30.0
_servers: dict[tuple, Zygote] = {}
_servers_lock = threading.Lock()
_available: bool | None = None


def available() -> bool:
    """Whether bots can start from a fork server here: root, Linux x86-64, pidfds, the system
    Python, and one server that starts (probed once per process)."""
    global _available
    if _available is None:
        _available = (users.is_root() and sys.platform.startswith("linux") and os.uname().machine
                      == "x86_64" and hasattr(os, "pidfd_open") and hasattr(socket, "send_fds")
                      and os.access(PYTHON, os.X_OK))
    return _available


def _etc_entries() -> list[str]:
    import glob
    return [e for pattern in ETC_ENTRIES for e in sorted(glob.glob(f"/etc/{pattern}"))]


# A bot that plays with arena's own engines (``import arena...``, docs: "Using the engines from
# a bot") finds them already imported in its fork server: they take 10-30 ms of CPU to import,
# more than the rest of a start. Bots that do not use them are not given them: the server's
# memory is copied (page tables) into every child, so an engine nobody uses costs every start.
ENGINES = "arena.games"
_USES_ENGINES = re.compile(rb"^[ \t]*(?:from|import)[ \t]+arena(?:[ \t.,]|$)", re.M)
SCAN_FILES, SCAN_BYTES = 200, 1 << 20  # the most .py files (and bytes of each) looked at


def uses_engines(folder: Path) -> bool:
    """Whether a Python source in the bot's folder imports ``arena`` (read as text, never run).
    A miss costs only speed: the bot imports the engines itself, as in a cold start."""
    seen = 0
    for top, dirs, names in os.walk(folder):  # the folder's own files first
        dirs.sort()
        for name in sorted(n for n in names if n.endswith(".py")):
            seen += 1
            if seen > SCAN_FILES:
                return False
            try:
                with open(os.path.join(top, name), "rb") as f:
                    if _USES_ENGINES.search(f.read(SCAN_BYTES)):
                        return True
            except OSError:
                continue
    return False


def _script(command: tuple[str, ...]) -> str | None:
    """The script of a ``python3 SCRIPT [ARGS]`` command (run in the server's interpreter), or
    ``None`` for any other command (``exec``'d in the prepared sandbox)."""
    if len(command) < 2 or command[1].startswith("-"):
        return None
    program = command[0]
    found: str | None
    if "/" in program:
        found = program
    else:
        found = shutil.which(program, path=SYSTEM_PATH)
    if found is None or os.path.realpath(found) != os.path.realpath(PYTHON):
        return None
    return command[1]


class ZygoteChild:
    """The ``Popen``-like handle of a bot started by a fork server: ``pid`` (its outer process,
    a session leader on the host), binary ``stdin``/``stdout``/``stderr``, ``poll``, ``wait``."""

    def __init__(self, args: list[str], pid: int, stdin, stdout, stderr, status_fd: int) -> None:
        self.args = args
        self.pid = pid
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.returncode: int | None = None
        self._status_fd = status_fd
        self._lock = threading.Lock()

    def _read_status(self, timeout: float | None) -> None:
        with self._lock:
            if self.returncode is not None or self._status_fd < 0:
                return
            ready, _, _ = select.select([self._status_fd], [], [], timeout)
            if not ready:
                return
            data = os.read(self._status_fd, 4)
            os.close(self._status_fd)
            self._status_fd = -1
            # no status: the server died before it could tell, and with it the bot (death signal)
            self.returncode = (os.waitstatus_to_exitcode(struct.unpack("i", data)[0])
                               if len(data) == 4 else -9)

    def poll(self) -> int | None:
        self._read_status(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        self._read_status(timeout)
        if self.returncode is None:
            assert timeout is not None  # without one, the status is waited for
            raise subprocess.TimeoutExpired(self.args, timeout)
        return self.returncode

    def __del__(self) -> None:
        if self._status_fd >= 0:
            try:
                os.close(self._status_fd)
            except OSError:
                pass


class Zygote:
    """The fork server of one bot in this process."""

    def __init__(self, bot: BotSpec, folder_mb: int) -> None:
        self.bot = bot
        self.script = _script(bot.command)
        self._lock = threading.Lock()
        self._group = users.allocate()  # the group of a staged bot folder, held while we live
        self._stage: Path | None = None
        folder = bot.path
        if not files.readable_in_place(folder, self._group.uid):
            self._stage = files.stage_bot(folder, self._group.uid, folder_mb * MiB)
            folder = self._stage / "bot"
        self._root = Path(tempfile.mkdtemp(prefix="arena-zygote-"))
        # the folders bot cgroups are made in (memory, cpuset): the server keeps them open
        self.cgroups = [p for p in (MemoryCap.parent_dir(), CpuPin.parent_dir()) if p is not None]
        config = {"root": str(self._root), "sdk": str(files.sdk_dir()), "bot": str(folder),
                  "etc": _etc_entries(), "cgroups": [str(p) for p in self.cgroups],
                  "preload": [ENGINES] if self.script is not None and uses_engines(folder) else [],
                  "precompile": self.script is not None}
        self._control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = environment(BWRAP, SCRATCH_MOUNT, SDK_MOUNT)
        config["control"] = theirs.fileno()
        # The source comes on stdin and the set-up over the socket, so that a bot reading its own
        # /proc/self/cmdline sees "/usr/bin/python3 -", nothing of the host's paths.
        try:
            self.proc = subprocess.Popen(
                [PYTHON, "-"], env=env, cwd="/", stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                pass_fds=[theirs.fileno()], start_new_session=True)
            assert self.proc.stdin is not None
            self.proc.stdin.write(SERVER.read_bytes().replace(
                b"CONTROL_FD = None", f"CONTROL_FD = {theirs.fileno()}".encode()))
            self.proc.stdin.close()
        finally:
            theirs.close()
        self._control.send(json.dumps(config).encode())
        self._control.settimeout(START_TIMEOUT)
        try:
            ready = self._control.recv(1 << 16)
        except OSError:
            ready = b""
        self._control.settimeout(None)
        if not ready:
            self.close()
            raise OSError("the bot's fork server did not start")
        self.owner = os.getpid()
        self.last_used = time.monotonic()
        self._children: weakref.WeakSet[ZygoteChild] = weakref.WeakSet()

    def busy(self) -> bool:
        """Whether a bot it started is still running."""
        return any(child.poll() is None for child in list(self._children))

    def alive(self) -> bool:
        return self.proc.poll() is None

    def spawn(self, limits: Limits, uid: int, cap: MemoryCap | None, pin: CpuPin | None = None,
              nice: int = 0) -> ZygoteChild:
        """A new child running the bot, with its own namespaces, ``uid``, cgroup and scratch."""
        env = environment(BWRAP, SCRATCH_MOUNT, SDK_MOUNT)
        command = list(self.bot.command)
        if self.script is None and "/" not in command[0]:
            found = shutil.which(command[0], path=SYSTEM_PATH)
            command[0] = found or command[0]
        joins: list[tuple[int, str]] = []  # (parent folder's index, cgroup name) of each cgroup the bot joins
        for cgroup in (cap, pin):
            if cgroup is None or [i for i, n in joins if self.cgroups[i] / n == cgroup.folder]:
                continue  # cgroup v2: the cpuset and the memory cgroup are one folder
            if cgroup.folder.parent not in self.cgroups:
                raise OSError("the bot's cgroup is not where its fork server can reach it")
            joins.append((self.cgroups.index(cgroup.folder.parent), cgroup.folder.name))
        request = {"uid": uid, "gid": self._group.uid, "cgroups": joins,
                   "scratch_bytes": limits.scratch_mb * MiB, "nice": nice, "env": env,
                   "rlimits": rlimit_values(limits, True), "argv": command, "script": self.script,
                   "cpus": sorted(os.sched_getaffinity(0))}  # as a cold start inherits them
        pipes = [os.pipe() for _ in range(4)]  # stdin, stdout, stderr, status
        theirs = [pipes[0][0], pipes[1][1], pipes[2][1], pipes[3][1]]
        try:
            with self._lock:
                socket.send_fds(self._control, [json.dumps(request).encode()], theirs)
                reply = json.loads(self._control.recv(1 << 16) or b'{"error": "the fork server is gone"}')
        except (OSError, ValueError) as exc:
            for r, w in pipes:
                os.close(r)
                os.close(w)
            raise OSError(f"the bot's fork server failed: {exc}") from exc
        for fd in theirs:
            os.close(fd)
        if "error" in reply or reply.get("failed"):
            why = reply.get("error")
            if why is None and select.select([pipes[2][0]], [], [], 1.0)[0]:
                why = os.read(pipes[2][0], 4096).decode(errors="replace").strip()
            for fd in (pipes[0][1], pipes[1][0], pipes[2][0], pipes[3][0]):
                os.close(fd)
            raise OSError(f"the bot's fork server failed: {why}")
        child = ZygoteChild(command, reply["pid"], open(pipes[0][1], "wb", buffering=0),
                            open(pipes[1][0], "rb", buffering=0), open(pipes[2][0], "rb", buffering=0),
                            pipes[3][0])
        self._children.add(child)
        self.last_used = time.monotonic()
        return child

    def close(self) -> None:
        """End the server (its running children die with it) and remove its files."""
        try:
            self._control.close()
        except OSError:
            pass
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, 9)
            except OSError:
                pass
        self.proc.wait()
        shutil.rmtree(self._root, ignore_errors=True)
        if self._stage is not None:
            shutil.rmtree(self._stage, ignore_errors=True)
        self._group.release(clean=True)


def for_bot(bot: BotSpec, limits: Limits | None = None) -> Zygote | None:
    """This process's fork server of ``bot``, started on first use (again if it died); ``None``
    if this process already has ``MAX_SERVERS`` servers that are in use (start it cold)."""
    folder_mb = (limits or Limits()).folder_mb
    key = (bot.path, bot.command, folder_mb)
    with _servers_lock:
        server = _servers.get(key)
        if server is not None and server.alive() and server.owner == os.getpid():
            return server
        if server is not None and server.owner == os.getpid():
            server.close()
        if server is not None:
            del _servers[key]
        if not _make_room():
            return None
        server = _servers[key] = Zygote(bot, folder_mb)
        return server


def _make_room() -> bool:
    """Whether there is room for one more server, ending the least recently used one idle for
    ``IDLE_SECONDS`` (no bot running) if there are ``MAX_SERVERS`` already."""
    mine = sorted(((s.last_used, k) for k, s in _servers.items() if s.owner == os.getpid()),
                  key=lambda item: item[0])
    if len(mine) < MAX_SERVERS:
        return True
    now = time.monotonic()
    for last_used, key in mine:
        if now - last_used >= IDLE_SECONDS and not _servers[key].busy():
            _servers.pop(key).close()
            return True
    return False


def server_pids() -> set[int]:
    """The process ids of this process's fork servers (not bots: they never run one)."""
    with _servers_lock:
        return {s.proc.pid for s in _servers.values() if s.owner == os.getpid()}


@atexit.register
def close_all() -> None:
    """End every fork server of this process (their running bots with them). A Ctrl-C meanwhile
    (pressed again while arena exits) is ignored: the servers are being killed already, and an
    interrupted cleanup would leave their files and print a traceback."""
    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        with _servers_lock:
            for key, server in list(_servers.items()):
                if server.owner == os.getpid():
                    server.close()
                del _servers[key]
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)
