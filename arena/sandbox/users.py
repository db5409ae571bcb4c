"""A user id of its own for every running bot, when the referee runs as root.

Root ignores RLIMIT_NPROC, may signal anything and read everything, so a bot never runs as root.
Each running bot gets a free uid from a pool (``UID_BASE`` upwards, far from real accounts and
from container ranges), held with a lock file so that concurrent referees never share one. A uid
of its own means: the process limit counts only this bot's processes, the bot cannot signal the
other bot, and ``kill_user`` ends every process the bot started, daemons included, in one
``kill(-1, SIGKILL)`` issued *as that uid* (the kernel sends it to all of them atomically).
"""
from __future__ import annotations

import fcntl
import os
import random
import shutil
import signal
import stat
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

UID_BASE = 1_900_000_000   # above systemd's container ranges, below 2**31
UID_COUNT = 4096
_LOCK_DIRS = (Path("/run/arena-sandbox"), Path("/tmp/arena-sandbox-0"))
_pool_lock = threading.Lock()


def is_root() -> bool:
    return os.geteuid() == 0


def is_bot_uid(uid: int) -> bool:
    return UID_BASE <= uid < UID_BASE + UID_COUNT


def private_folder(candidates: Sequence[Path]) -> Path | None:
    """The first of ``candidates`` that is, or can be made, a folder of this process's user that
    no one else may write (lock files live there: whoever could write them could steal a lock)."""
    for path in candidates:
        try:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
            st = os.lstat(path)
        except OSError:
            continue
        if (st.st_uid == os.geteuid() and (st.st_mode & 0o022) == 0 and path.is_dir()
                and not path.is_symlink()):
            return path
    return None


def _lock_dir() -> Path:
    """A root-only folder for the uid lock files (created once)."""
    folder = private_folder(_LOCK_DIRS)
    if folder is None:
        raise OSError("no safe folder for the sandbox's uid locks (tried "
                      + ", ".join(map(str, _LOCK_DIRS)) + ")")
    return folder


# What a lock file says of its uid while nobody holds it: CLEAN means its last holder saw every
# process of the uid gone before letting go; anything else (BUSY, left by a referee that died while
# holding it) means leftovers must be looked for, which costs a scan of every process.
CLEAN, BUSY = b"clean", b"busy"


class BotUser:
    """A uid (and gid of the same number) reserved for one bot until :meth:`release`."""

    def __init__(self, uid: int, lock_fd: int) -> None:
        self.uid = uid
        self._lock_fd: int | None = lock_fd

    def release(self, clean: bool = False) -> None:
        """Let go of the uid; ``clean`` when no process of it is left (checked by the caller)."""
        if self._lock_fd is not None:
            if clean:
                _mark(self._lock_fd, CLEAN)
            os.close(self._lock_fd)  # closing the file drops the flock
            self._lock_fd = None


def _mark(fd: int, state: bytes) -> None:
    os.ftruncate(fd, 0)
    os.pwrite(fd, state, 0)


def is_free(uid: int) -> bool:
    """Whether no running bot (of any referee) holds ``uid`` right now."""
    try:
        fd = os.open(_lock_dir() / f"{uid}.lock", os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def allocate() -> BotUser:
    """Reserve a free bot uid; a uid that still has processes (a crashed referee's bot) is cleaned."""
    folder = _lock_dir()
    start = random.randrange(UID_COUNT)
    with _pool_lock:
        for i in range(UID_COUNT):
            uid = UID_BASE + (start + i) % UID_COUNT
            path = folder / f"{uid}.lock"
            flags = os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC
            try:
                fd, new = os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o600), True
            except FileExistsError:
                fd, new = os.open(path, flags), False
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            if not new and os.pread(fd, 16, 0) != CLEAN and pids_of(uid):
                kill_user(uid)  # leftovers of a referee that died: end them, use another uid meanwhile
                os.close(fd)
                continue
            _mark(fd, BUSY)
            return BotUser(uid, fd)
    raise OSError(f"all {UID_COUNT} sandbox user ids are in use")


def pids_of(uid: int, include_zombies: bool = True) -> list[int]:
    """Processes whose real or effective uid is ``uid`` (read from ``/proc/PID/status``, which a
    process cannot hide the way ``prctl(PR_SET_DUMPABLE, 0)`` hides the owner of ``/proc/PID``)."""
    found = []
    wanted = str(uid).encode()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as f:
                status = f.read()
        except OSError:
            continue
        if wanted not in _field(status, b"\nUid:").split()[:2]:
            continue
        if not include_zombies and _field(status, b"\nState:").startswith(b"Z"):
            continue
        found.append(int(name))
    return found


def _field(status: bytes, key: bytes) -> bytes:
    start = status.find(key)
    if start < 0:
        return b""
    start += len(key)
    end = status.find(b"\n", start)
    return status[start:end if end >= 0 else None].strip()


_TRUE = shutil.which("true", path="/usr/bin:/bin") or "/bin/true"


def kill_user(uid: int) -> None:
    """SIGKILL every process of ``uid``: a helper switches to ``uid`` and calls ``kill(-1, SIGKILL)``."""
    def as_uid() -> None:
        try:
            os.kill(-1, signal.SIGKILL)  # every process this uid may signal, except the caller
        except ProcessLookupError:
            pass
    try:
        subprocess.run([_TRUE], user=uid, group=uid, extra_groups=[], preexec_fn=as_uid,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       close_fds=True, check=False, timeout=5)
    except (OSError, subprocess.SubprocessError):
        for pid in pids_of(uid):  # second best: one by one
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def wait_gone(uid: int, timeout: float) -> bool:
    """Kill and wait until ``uid`` has no live process; ``False`` if some remain after ``timeout``."""
    return kill_until_gone(lambda: bool(pids_of(uid, include_zombies=False)),
                           lambda: kill_user(uid), timeout)


def kill_until_gone(alive: Callable[[], bool], kill: Callable[[], None], timeout: float) -> bool:
    """While ``alive()``, ``kill()`` (again every 0.2 s); ``False`` if still alive after ``timeout``."""
    deadline = time.monotonic() + timeout
    next_kill = 0.0
    while alive():
        now = time.monotonic()
        if now >= deadline:
            return False
        if now >= next_kill:
            kill()
            next_kill = now + 0.2
        time.sleep(0.005)
    return True


# Folders every user may write, where a bot without its own mount namespace (no bubblewrap) can
# leave files behind: to keep memory from one match to the next, to pass messages, or to grow
# past its scratch cap. What its uid owns there is removed once its processes are gone.
WORLD_WRITABLE = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock", "/dev/mqueue")
# /proc/sysvipc tables: (file, ipcrm flag, id column)
_IPC = (("/proc/sysvipc/shm", "-m", "shmid"), ("/proc/sysvipc/msg", "-q", "msqid"),
        ("/proc/sysvipc/sem", "-s", "semid"))
_IPCRM = shutil.which("ipcrm", path="/usr/bin:/bin:/usr/sbin:/sbin")


def remove_leftovers(uid: int, roots: Sequence[str] = WORLD_WRITABLE) -> int:
    """Remove every file, folder, link, FIFO or socket that ``uid`` owns in the world-writable
    folders ``roots`` (and in the world-writable folders below them), and its System V IPC
    objects. Call it only once no process of ``uid`` is left. Links are removed, never followed.
    Returns how many entries were removed."""
    removed = 0
    seen: set[tuple[int, int]] = set()
    stack = []
    for root in roots:
        try:
            st = os.stat(root)  # /var/lock is often a link to /run/lock: counted once
        except OSError:
            continue
        if (st.st_dev, st.st_ino) not in seen:
            seen.add((st.st_dev, st.st_ino))
            stack.append(os.path.realpath(root))
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError:
            continue
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            is_dir = stat.S_ISDIR(st.st_mode)
            if st.st_uid == uid:
                try:
                    if is_dir:
                        shutil.rmtree(entry.path)
                    else:
                        os.unlink(entry.path)
                    removed += 1
                except OSError:
                    pass
            elif is_dir and st.st_mode & 0o002 and (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                stack.append(entry.path)  # another world-writable folder (/tmp/.X11-unix, ...)
    return removed + _remove_ipc(uid)


def _remove_ipc(uid: int) -> int:
    """System V shared memory, message queues and semaphores of ``uid`` (they outlive processes)."""
    if _IPCRM is None:
        return 0
    removed = 0
    for table, flag, id_name in _IPC:
        try:
            with open(table) as f:
                header, *rows = f.read().splitlines()
        except OSError:
            continue
        columns = header.split()
        try:  # owner or creator: an owner may hand an object to another uid, not its creation
            cols = [columns.index(id_name), columns.index("uid"), columns.index("cuid")]
        except ValueError:
            continue
        ids = [cells[cols[0]] for cells in map(str.split, rows)
               if len(cells) > max(cols) and str(uid) in (cells[cols[1]], cells[cols[2]])]
        for ipc_id in ids:
            try:
                subprocess.run([_IPCRM, flag, ipc_id], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=5,
                               check=False)
                removed += 1
            except (OSError, subprocess.SubprocessError):
                pass
    return removed

