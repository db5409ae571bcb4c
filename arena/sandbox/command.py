"""How a bot's process is made: the bubblewrap command line, the rlimits and the user switch done
between fork and exec, the environment, and the check that its program can run at all."""
from __future__ import annotations

import ctypes
import errno
import glob
import os
import resource
import shutil
import signal
from collections.abc import Callable
from pathlib import Path

from arena.sandbox import users
from arena.sandbox.cgroups import CpuPin, MemoryCap
from arena.sandbox.limits import BWRAP, PROCESS_GROUP, Limits

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
SDK_MOUNT = "/opt/arena/sdk"    # PYTHONPATH inside bubblewrap: the protocol package and msgpack
BOT_MOUNT = "/bot"              # the bot's folder, read-only, its working directory
SCRATCH_MOUNT = "/tmp"          # size-capped tmpfs, $HOME and $TMPDIR
# What of /etc a bot sees: what dynamic linking and Debian's /usr/bin -> /etc/alternatives links need.
ETC_ENTRIES = ("alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "java-*")
MiB = 1024 * 1024

_PR_SET_PDEATHSIG = 1
_PR_SET_NO_NEW_PRIVS = 38
_libc = ctypes.CDLL(None, use_errno=True)


def bwrap_argv(bwrap: str, flags: frozenset[str], limits: Limits, folder: Path | None,
                sdk: Path | None, command: list[str], writable: bool = False) -> list[str]:
    argv = [bwrap, "--unshare-all", "--unshare-user", "--die-with-parent", "--new-session",
            "--hostname", "arena"]
    if "--disable-userns" in flags:
        argv.append("--disable-userns")  # no nested namespaces for the bot
    argv += ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):  # merged-/usr symlinks, or folders
        path = Path("/", name)
        if path.is_symlink():
            argv += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            argv += ["--ro-bind", str(path), str(path)]
    for pattern in ETC_ENTRIES:
        for entry in sorted(glob.glob(f"/etc/{pattern}")):
            argv += ["--ro-bind", entry, entry]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    size = ["--size", str(limits.scratch_mb * MiB)] if "--size" in flags else []
    argv += [*size, "--tmpfs", SCRATCH_MOUNT, *size, "--tmpfs", "/dev/shm"]
    if sdk is not None:
        argv += ["--ro-bind", str(sdk), SDK_MOUNT]
    if folder is not None:
        # A bot's folder is read-only; a build step (arena.build) writes in its own copy.
        argv += ["--bind" if writable else "--ro-bind", str(folder), BOT_MOUNT, "--chdir", BOT_MOUNT]
    argv += ["--remount-ro", "/", "--remount-ro", "/dev"]
    if not users.is_root():  # RLIMIT_NPROC counts the user's processes: set it inside, per namespace
        prlimit = shutil.which("prlimit", path=SYSTEM_PATH)
        if prlimit is not None:
            command = [prlimit, f"--nproc={limits.processes}", "--", *command]
    return [*argv, "--", *command]


def rlimit_values(limits: Limits, own_user: bool) -> list[tuple[int, int, int]]:
    """(resource, soft, hard) triples, clamped to what the referee itself may grant."""
    wanted = [
        (resource.RLIMIT_AS, limits.memory_mb * MiB, limits.memory_mb * MiB),
        # the ceiling: SIGXCPU, then SIGKILL (the budget from the clock is the referee's business)
        (resource.RLIMIT_CPU, limits.cpu_ceiling_seconds, limits.cpu_ceiling_seconds + 1),
        (resource.RLIMIT_NOFILE, limits.open_files, limits.open_files),
        (resource.RLIMIT_FSIZE, limits.file_size_mb * MiB, limits.file_size_mb * MiB),
        (resource.RLIMIT_CORE, 0, 0),  # no core dumps
    ]
    if own_user:  # for a shared uid the count would include the referee's user's other processes
        wanted.append((resource.RLIMIT_NPROC, limits.processes, limits.processes))
    result = []
    for res, soft, hard in wanted:
        _, max_hard = resource.getrlimit(res)
        if max_hard != resource.RLIM_INFINITY and not users.is_root():
            soft, hard = min(soft, max_hard), min(hard, max_hard)
        result.append((res, soft, hard))
    return result


def preexec(limits: Limits, uid: int | None, level: str,
            cap: MemoryCap | None = None, nice: int = 0,
            pin: CpuPin | None = None) -> Callable[[], None]:
    """What the child does between fork and exec: cgroups, limits, priority, then the user switch."""
    rlimits = rlimit_values(limits, uid is not None)
    join_pin = pin if pin is not None and (cap is None or pin.folder != cap.folder) else None

    def child() -> None:
        if cap is not None:
            cap.join()
        if join_pin is not None:
            join_pin.join()
        if nice:
            os.setpriority(os.PRIO_PROCESS, 0, nice)
        for res, soft, hard in rlimits:
            resource.setrlimit(res, (soft, hard))
        if uid is not None:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        if level != BWRAP:  # bubblewrap does both itself
            _libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)    # setuid programs cannot raise privileges
            _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # the bot dies with the referee
    return child


_VISIBLE = ("/usr/", "/bin/", "/sbin/", "/lib", "/etc/alternatives/")


def check_program(command: tuple[str, ...], folder: Path, level: str, path: str) -> None:
    """Fail like ``Popen`` would (an ``OSError``) if the bot's program cannot be run in its sandbox,
    so that the referee says "could not be started" rather than report the sandbox's own exit."""
    program = command[0]
    if "/" not in program:
        found = shutil.which(program, mode=os.F_OK, path=path)
        if found is None:
            raise FileNotFoundError(errno.ENOENT, f"{os.strerror(errno.ENOENT)} on the bots' PATH "
                                                  f"({path})", program)
        target = Path(found)
    elif program.startswith("/"):
        if level == BWRAP and not program.startswith(_VISIBLE):
            raise FileNotFoundError(errno.ENOENT, "not visible in the sandbox (it shows /usr, "
                                                  f"the bot's folder at {BOT_MOUNT})", program)
        target = Path(program)
    else:
        target = folder / program
    if not target.is_file():
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)
    if not target.stat().st_mode & 0o111:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), program)


def environment(level: str, home: str, sdk: str) -> dict[str, str]:
    """A clean environment: nothing of the referee's leaks to the bot."""
    path = os.environ.get("PATH", SYSTEM_PATH) if level == PROCESS_GROUP else SYSTEM_PATH
    return {"PATH": path, "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8", "PYTHONPATH": sdk,
            "PYTHONDONTWRITEBYTECODE": "1", "ARENA_SANDBOX": level}
