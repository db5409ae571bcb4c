"""Starting a bot in its sandbox, and ending it with everything it started."""
from __future__ import annotations

import atexit
import itertools
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

from arena.bots import BotSpec
from arena.sandbox import cputime, files, levels, users, zygote
from arena.sandbox.cgroups import CpuPin, MemoryCap
from arena.sandbox.command import (
    SCRATCH_MOUNT,
    SDK_MOUNT,
    SYSTEM_PATH,
    MiB,
    bwrap_argv,
    check_program,
    environment,
    preexec,
)
from arena.sandbox.diagnose import explain
from arena.sandbox.limits import BWRAP, PROCESS_GROUP, Limits

log = levels.log
SCRATCH_CHECK_SECONDS = 0.1     # how often a host scratch folder (no bubblewrap) is measured
# A memory cgroup per bot caps all its processes together. Moving the bot into it waits for the
# kernel (an RCU grace period: 0 to 15 ms per start); False trades the cap for that time.
MEMORY_CGROUP = True
# A bot started by a thread pinned to some cores (a tournament worker, cores_per_match) gets a
# cpuset cgroup of those cores, so that it cannot widen its own affinity (docs/sandbox.md).
CPUSET_CGROUP = True
BACKGROUND_NICE = 19            # niceness of a bot started ahead of its match, until it plays
_running: set[BotProcess] = set()  # started and not yet killed


@atexit.register
def kill_all() -> None:
    """Kill every bot this process started and has not killed yet, and remove their files.

    Runs at exit, so that a referee that leaves without killing its bots (an exception at the
    wrong moment) still ends them; a worker that is told to stop calls it before leaving."""
    for process in list(_running):
        if process.owner == os.getpid():  # not in a forked child: those bots are its parent's
            process.kill()


class BotProcess:
    """A started bot: its ``Popen`` (binary pipes), the sandbox level in force, its limits.

    ``scratch`` is the host scratch folder (``None`` under bubblewrap, where it is a tmpfs that
    vanishes with the sandbox); ``uid`` the bot's own user id (``None`` unless the referee is root);
    ``memory_cap`` its memory cgroup (``None`` where the machine offers none).
    """

    def __init__(self, proc: subprocess.Popen | zygote.ZygoteChild, level: str, limits: Limits,
                 scratch: Path | None = None, user: users.BotUser | None = None,
                 stage: Path | None = None, memory_cap: MemoryCap | None = None,
                 cpu_pin: CpuPin | None = None, forked: bool = False) -> None:
        self.proc = proc
        self.forked = forked  # started by the bot's fork server (arena.sandbox.zygote)
        self.level = level
        self.limits = limits
        self.scratch = scratch
        self.uid = user.uid if user else None
        self.memory_cap = memory_cap
        self.cpu_pin = cpu_pin
        self.scratch_exceeded = False
        self._user = user
        self._stage = stage
        self._done = threading.Event()
        self._killed = False
        self._oom_kills = 0
        self._watcher: threading.Thread | None = None
        self.owner = os.getpid()
        self.started = time.monotonic()  # its CPU time runs from here
        _running.add(self)
        if scratch is not None:
            self._watcher = threading.Thread(target=self._watch_scratch, daemon=True,
                                             name=f"arena-scratch-{proc.pid}")
            self._watcher.start()

    def _watch_scratch(self) -> None:
        cap = self.limits.scratch_mb * MiB
        while not self._done.wait(SCRATCH_CHECK_SECONDS):
            if self.scratch is not None and files.disk_usage(self.scratch) > cap:
                self.scratch_exceeded = True
                self._kill_processes()
                return

    def explain(self, stderr: str = "") -> str:
        """Which limit most likely ended the bot (for a crash), or ``""``."""
        oom = self._oom_kills if self._killed else self._count_oom_kills()
        return explain(self.proc.poll(), stderr, self.limits, self.level, self.scratch_exceeded, oom > 0)

    def cpu_used(self) -> float:
        """CPU seconds the bot has used so far: all its processes and their threads, and the
        children they have waited for. From its cgroup where there is one (v2: the whole tree,
        ended processes too), else from ``/proc`` (its uid's processes, or its process tree)."""
        if self.memory_cap is not None:
            seconds = self.memory_cap.cpu_seconds()
            if seconds is not None:
                return seconds
            pids = self.memory_cap.pids()
        elif self.uid is not None:
            pids = users.pids_of(self.uid)
        else:
            pids = cputime.tree(self.proc.pid)
        return cputime.seconds_of(pids)

    def cores(self) -> int:
        """How many cores the bot may run on at once: its CPU time grows at most this fast."""
        if self.cpu_pin is not None:
            return len(self.cpu_pin.cores)
        return os.cpu_count() or 1

    def _count_oom_kills(self) -> int:
        return self.memory_cap.oom_kills() if self.memory_cap is not None else 0

    def _kill_processes(self) -> None:
        if self.forked:  # PID 1 of the bot's PID namespace: when it dies, the kernel kills the rest
            if self.proc.poll() is None:
                try:
                    os.kill(self.proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            return
        if self.uid is not None:
            users.kill_user(self.uid)  # every process of the bot's uid, daemons included
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def to_foreground(self) -> None:
        """Back to the referee's own CPU priority (a bot started in the foreground has it), every
        process of the bot (see ``start(background=)``): never above a referee run with ``nice``."""
        if self.uid is not None and not self._killed:
            try:
                os.setpriority(os.PRIO_USER, self.uid, os.getpriority(os.PRIO_PROCESS, 0))
            except OSError:
                pass

    def _all_gone(self) -> bool:
        """Whether the memory cgroup says that no process of the bot is left (cheap: no scan)."""
        return self.memory_cap is not None and self.memory_cap.is_empty()

    def _wait_gone(self, timeout: float) -> bool:
        """Wait until every process of the bot is gone, killing again meanwhile; ``False`` if some
        remain after ``timeout``. Asks the memory cgroup where there is one, else scans for the uid."""
        if self.forked:
            # the server reaps PID 1 only once every process of its namespace is gone (the kernel
            # waits for them), and a bot cannot leave its PID namespace: its exit is the bot's end
            try:
                self.proc.wait(timeout)
                return True
            except subprocess.TimeoutExpired:
                return False
        if self.memory_cap is None:
            return self.uid is None or users.wait_gone(self.uid, timeout)
        cap = self.memory_cap
        return users.kill_until_gone(lambda: not cap.is_empty(), self._kill_processes, timeout)

    def kill(self) -> None:
        """Kill everything the bot started, then remove its scratch and staged files (idempotent)."""
        if self._killed:
            return
        self._killed = True
        self._done.set()
        _running.discard(self)
        if not self._all_gone():  # a bot that said goodbye and exited has nothing left to kill
            self._kill_processes()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        gone = self._wait_gone(2.0)
        if not gone:
            log.warning("arena: processes of bot uid %d survived SIGKILL", self.uid)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        if self._watcher is not None:
            self._watcher.join(timeout=1)
        for folder in (self.scratch, self._stage):
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
        if self.uid is not None and self.level != BWRAP and gone:
            # no mount namespace: what the bot's user left in /tmp, /var/tmp, /dev/shm... goes now,
            # so that nothing carries over to another match or bot (docs/sandbox.md, Levels)
            users.remove_leftovers(self.uid)
        self._oom_kills = self._count_oom_kills()  # kept for explain(): the cgroup goes now
        if self.memory_cap is not None:
            self.memory_cap.remove()
        if self.cpu_pin is not None:
            self.cpu_pin.remove()
        if self._user is not None:
            self._user.release(clean=gone)


_cgroup_serial = itertools.count()


def _cgroup_name(user: users.BotUser | None) -> str:
    """Named after the bot's uid, so that one left by a killed referee is reused, not piled up."""
    return f"arena-bot-{user.uid}" if user else f"arena-bot-p{os.getpid()}-{next(_cgroup_serial)}"


def _start_forked(bot: BotSpec, limits: Limits, background: bool) -> BotProcess | None:
    """A bot from its fork server: same namespaces, uid, cgroup and scratch as a cold start;
    ``None`` if this process has as many servers as it keeps, all in use."""
    server = zygote.for_bot(bot, limits)
    if server is None:
        return None
    if server.script is None or "/" in bot.command[0]:  # "python3 SCRIPT": the server's own
        check_program(bot.command, bot.path, BWRAP, SYSTEM_PATH)  # interpreter, found at its start
    user = users.allocate()
    cap = pin = None
    try:
        if MEMORY_CGROUP:
            cap = MemoryCap.create(_cgroup_name(user), limits.memory_mb * MiB, users.is_free)
        cores = _pinned_cores()
        if cores is not None:
            pin = CpuPin.create(cap.folder.name if cap is not None else _cgroup_name(user), cores,
                                users.is_free)
        proc = server.spawn(limits, user.uid, cap, pin, nice=BACKGROUND_NICE if background else 0)
    except BaseException:
        for cgroup in (cap, pin):
            if cgroup is not None:
                cgroup.remove()
        user.release()
        raise
    return BotProcess(proc, BWRAP, limits, None, user, None, cap, pin, forked=True)


def start(bot: BotSpec, limits: Limits | None = None, background: bool = False, *,
          writable: bool = False, env: dict[str, str] | None = None) -> BotProcess:
    """Start a bot's command in its sandbox. Raises ``OSError`` if it cannot be started, and
    :class:`ArenaError` if the isolation the limits require is not available.

    ``background``: a bot started ahead of its match boots at the lowest CPU priority, so that it
    takes only what the match in play leaves idle; :meth:`BotProcess.to_foreground` restores it.
    Only a root referee can restore it (the bot has a uid of its own), so elsewhere this does
    nothing.

    A bot with a build step is started from the folder it is given: the caller builds it first
    (``arena.build.ensure_built``; the referee does, for every match). ``writable`` (for the build
    step itself) shows the folder writable, owned by the bot's user: the caller passes a private
    copy. ``env`` adds variables to the bot's environment."""
    limits = limits or Limits()
    level = levels.choose_level(limits)
    if level == BWRAP and limits.zygote and not writable and not env and zygote.available():
        try:
            forked = _start_forked(bot, limits, background)
            if forked is not None:
                return forked
        except OSError as exc:  # the cold start below says why the bot cannot start, if it cannot
            log.warning("arena: the fork server of %s failed (%s); cold start instead", bot.path, exc)
    user = users.allocate() if users.is_root() else None
    stage = scratch = cap = pin = None
    try:
        if MEMORY_CGROUP:
            cap = MemoryCap.create(_cgroup_name(user), limits.memory_mb * MiB,
                                   users.is_free if users.is_root() else None)
        cores = _pinned_cores()
        if cores is not None:
            pin = CpuPin.create(cap.folder.name if cap is not None else _cgroup_name(user), cores,
                                users.is_free if users.is_root() else None)
        folder = bot.path
        if writable:
            if user is not None:
                files.chown_tree(folder, user.uid)
        elif user is not None and not files.readable_in_place(folder, user.uid):
            stage = files.stage_bot(folder, user.uid, limits.folder_mb * MiB)
            folder = stage / "bot"
        sdk = files.sdk_dir()
        command = bot.build if writable and bot.build else bot.command
        check_program(command, folder, level,
                      os.environ.get("PATH", SYSTEM_PATH) if level == PROCESS_GROUP else SYSTEM_PATH)
        if level == BWRAP:
            found = levels.support()
            assert found.bwrap is not None
            argv = bwrap_argv(found.bwrap, found.bwrap_flags, limits, folder, sdk, list(command),
                              writable)
            environ = environment(level, SCRATCH_MOUNT, SDK_MOUNT)
            cwd = Path("/")
        else:
            scratch = files.make_scratch(user.uid if user else None)
            argv = list(command)
            environ = environment(level, str(scratch), str(sdk))
            cwd = folder
        environ.update(env or {})
        proc = subprocess.Popen(
            argv, cwd=cwd, env=environ, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True, bufsize=0, close_fds=True,
            preexec_fn=preexec(limits, user.uid if user else None, level, cap,
                               nice=BACKGROUND_NICE if background and user else 0, pin=pin),
        )
    except (OSError, subprocess.SubprocessError) as exc:
        for folder_ in (scratch, stage):
            if folder_ is not None:
                shutil.rmtree(folder_, ignore_errors=True)
        if cap is not None:
            cap.remove()
        if pin is not None:
            pin.remove()
        if user is not None:
            user.release()
        if isinstance(exc, OSError):
            raise
        raise OSError(f"the sandbox could not start it: {exc}") from exc
    return BotProcess(proc, level, limits, scratch, user, stage, cap, pin)


def _pinned_cores() -> frozenset[int] | None:
    """The cores the calling thread is pinned to, when it runs on fewer than the machine has."""
    if not CPUSET_CGROUP or not users.is_root():
        return None
    try:
        cores = os.sched_getaffinity(0)
    except (AttributeError, OSError):
        return None
    return frozenset(cores) if len(cores) < (os.cpu_count() or 1) else None
