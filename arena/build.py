"""Bots submitted as source: the manifest's ``build`` step, run once per bot version.

A manifest may name a build step (``build = "make"``, ``build = "cargo build --release --offline"``).
Before a bot with one plays, :func:`ensure_built` copies its folder to a private build folder,
runs the step there in the sandbox (the bots' own launcher, with :data:`BUILD_LIMITS`: no network,
the system toolchains under ``/usr``, a time and a memory limit of its own) and keeps the built
folder in a cache keyed by the source folder's content hash. Every match then plays from the built
folder, read-only like any bot folder; the source folder is never written. The cache lives in
``$ARENA_BUILD_CACHE`` or else ``<tmp>/arena-builds-<uid>`` (a folder that the bots' own users can
traverse, so that a built bot needs no copy per match); a Dask worker builds in its own cache.
Every new build removes the builds no match has played from for ``KEEP_DAYS`` (:func:`prune`).

A build that fails (exits non-zero, runs out of time or memory) raises :class:`BuildFailed` with
its output's last lines; the referee gives the bot's seats the status ``build_failed``. Failures
are remembered for the life of the process only (a missing toolchain may be installed meanwhile).
"""
from __future__ import annotations

import dataclasses
import fcntl
import os
import select
import shlex
import shutil
import stat
import tempfile
import threading
import time
from pathlib import Path

from arena.bots import BotSpec, folder_hash
from arena.errors import BotError
from arena.sandbox.limits import Limits

BUILD_SECONDS = 120           # wall-clock time a build may take
BUILD_LIMITS = Limits(memory_mb=4096, cpu_seconds=BUILD_SECONDS, cpu_ceiling_seconds=BUILD_SECONDS,
                      processes=128,
                      file_size_mb=256, scratch_mb=256)  # RLIMIT_AS: rustc maps a lot it never uses
SIZE_CHECK_SECONDS = 0.25     # how often the folder is measured during a build
OUTPUT_TAIL = 4096            # bytes of the build's output kept for the report
OUTPUT_LINES = 20             # lines of it shown (arena check, arena play)
# Where a build step's tools keep their caches and what they may not fetch.
BUILD_ENV = {"CARGO_HOME": "/tmp/cargo", "CARGO_NET_OFFLINE": "true", "npm_config_offline": "true"}
DONE = "built"                # the built folder inside a cache entry
LOG = "build.log"
KEEP_DAYS = 14                # a build no match has used for this long is removed from the cache

_failed: dict[str, BuildFailed] = {}
_lock = threading.Lock()
_hash_locks: dict[str, threading.Lock] = {}


class BuildFailed(Exception):
    """A bot's build step failed: ``reason`` (one line) and ``output`` (its last lines)."""

    def __init__(self, reason: str, output: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.output = output


def cache_dir() -> Path:
    """The build cache: ``$ARENA_BUILD_CACHE``, else a folder of our own under the temp folder."""
    from arena.sandbox import files

    configured = os.environ.get("ARENA_BUILD_CACHE")
    if configured:
        folder = Path(configured)
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    folder = files.temp_base() / f"arena-builds-{os.geteuid()}"
    try:
        folder.mkdir(mode=0o711)
    except FileExistsError:
        st = os.lstat(folder)
        if (not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid()
                or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
            raise BuildFailed(f"the build cache {folder} is not a private folder of this user; "
                              "remove it or set ARENA_BUILD_CACHE") from None
    os.chmod(folder, 0o711)
    return folder


def ensure_built(bot: BotSpec, cache: Path | None = None,
                 on_start=None) -> BotSpec:
    """The bot, ready to play from its built folder (built now if no cached build exists).

    ``on_start(bot)`` is called when a build really starts (not for a cached one). Raises
    :class:`BuildFailed`."""
    if not bot.build:
        return bot
    source = bot.source or bot.path
    try:
        key = folder_hash(source, bot.folder_bytes)
    except BotError as exc:  # the folder changed since it was loaded
        raise BuildFailed(f"its folder could not be read for the build: {exc}") from None
    with _lock:
        if key in _failed:
            raise _failed[key]
        hash_lock = _hash_locks.setdefault(key, threading.Lock())
    with hash_lock:
        cache = cache or cache_dir()
        entry = cache / key
        if not (entry / DONE).is_dir():
            with open(cache / f"{key}.lock", "w") as lock_file:
                fcntl.flock(lock_file, fcntl.LOCK_EX)  # another process may be building it
                if not (entry / DONE).is_dir():
                    for stale in cache.glob(f"work-{key[:16]}-*"):  # a builder killed mid-build
                        shutil.rmtree(stale, ignore_errors=True)
                    if on_start is not None:
                        on_start(bot)
                    try:
                        _build(bot, source, cache, entry)
                    except BuildFailed as exc:
                        with _lock:
                            _failed[key] = exc
                        raise
                    prune(cache)
        try:
            os.utime(entry)  # used now: the entry's time says when a match last played from it
        except OSError:
            pass
    return dataclasses.replace(bot, path=entry / DONE, source=source)


def prune(cache: Path, keep_days: float = KEEP_DAYS) -> list[str]:
    """Remove the builds no match has played from for ``keep_days`` (a league's earlier versions
    of its bots), skipping any another process is building or removing; the keys removed. Run
    after every new build, so that the cache holds what is in use, not every version ever built."""
    removed = []
    cutoff = time.time() - keep_days * 86400
    for entry in cache.iterdir():
        if len(entry.name) != 64 or not (entry / DONE).is_dir():
            continue
        try:
            if entry.stat().st_mtime >= cutoff:
                continue
            with open(cache / f"{entry.name}.lock", "w") as lock_file:
                try:
                    fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue  # being built again right now
                if entry.stat().st_mtime >= cutoff:
                    continue  # used meanwhile
                doomed = cache / f"work-{entry.name[:16]}-pruned"
                os.rename(entry, doomed)  # gone from the cache at once, then removed
                shutil.rmtree(doomed, ignore_errors=True)
        except OSError:
            continue
        removed.append(entry.name)
    return removed


def forget_failures() -> None:
    """Forget the failed builds of this process (tests; a toolchain installed meanwhile)."""
    with _lock:
        _failed.clear()


def _build(bot: BotSpec, source: Path, cache: Path, entry: Path) -> None:
    from arena import sandbox
    from arena.sandbox import files

    # The bot's own user must reach the folder it builds in: in the cache if others can traverse
    # it, else in the temp folder (and moved into the cache when it is built).
    if files.traversable_by_others(cache):
        work = Path(tempfile.mkdtemp(prefix=f"work-{entry.name[:16]}-", dir=cache))
    else:
        work = Path(tempfile.mkdtemp(prefix=files.temp_prefix("stage"), dir=files.temp_base()))
    os.chmod(work, 0o711)
    folder = work / DONE
    command = shlex.join(bot.build)
    try:
        try:  # read as every bot folder is read: no link followed, no FIFO opened, within its limit
            files.copy_tree(source, folder, 0o755, 0o644, max_bytes=bot.folder_bytes)
        except BotError as exc:
            raise BuildFailed(f"its folder could not be copied for the build: {exc}") from None
        started = time.monotonic()
        try:
            process = sandbox.start(dataclasses.replace(bot, path=folder, source=None),
                                    BUILD_LIMITS, writable=True, env=BUILD_ENV)
        except OSError as exc:
            raise BuildFailed(f"build step `{command}` could not be started: {exc}") from None
        try:
            raw, stopped = _watch(process, folder, started + BUILD_SECONDS, bot.folder_bytes)
            if stopped:
                process.kill()
            output = _tail(bytes(raw))
            code = process.proc.returncode
            hint = "" if stopped or code == 0 else process.explain(output)
        finally:
            process.kill()
        seconds = time.monotonic() - started
        if stopped == "time":
            raise BuildFailed(f"build step `{command}` did not finish within {BUILD_SECONDS} s", output)
        if stopped == "size":
            raise BuildFailed(f"build step `{command}` made the bot's folder larger than "
                              f"{bot.folder_bytes / 2**20:g} MiB, the most a bot folder may hold "
                              "(the limit folder_mb)", output)
        if code != 0:
            from arena.connection import describe_exit
            assert code is not None  # not stopped: _watch returned once the step had ended
            raise BuildFailed(f"build step `{command}` {describe_exit(code)} after {seconds:.1f} s"
                              + (f" ({hint})" if hint else ""), output)
        _settle(folder)
        (work / LOG).write_text(output, encoding="utf-8")
        if work.parent != cache:
            moved = Path(tempfile.mkdtemp(prefix=f"work-{entry.name[:16]}-", dir=cache))
            shutil.rmtree(moved)
            shutil.copytree(work, moved, symlinks=True)
            shutil.rmtree(work, ignore_errors=True)
            work = moved
        os.rename(work, entry)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)


def _watch(process, folder: Path, deadline: float, cap: int) -> tuple[bytearray, str | None]:
    """Collect the build's output (stdout and stderr as they come; the tail only) until it ends;
    stop it at ``deadline`` ("time") or when its folder outgrows ``cap`` bytes ("size"): the built
    folder must fit the bot's folder limit, as it is the folder the bot then plays from."""
    from arena.sandbox import files

    proc = process.proc
    try:
        proc.stdin.close()
    except OSError:
        pass
    streams = {proc.stdout.fileno(), proc.stderr.fileno()}
    output = bytearray()
    next_check = 0.0
    while True:
        now = time.monotonic()
        if now >= deadline:
            return output, "time"
        if now >= next_check:
            if files.disk_usage(folder) > cap:
                return output, "size"
            next_check = now + SIZE_CHECK_SECONDS
        if not streams:
            if proc.poll() is not None:
                return output, None
            time.sleep(0.05)
            continue
        ready, _, _ = select.select(list(streams), [], [], min(deadline - now, SIZE_CHECK_SECONDS))
        for fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                streams.discard(fd)
                continue
            output += data
            if len(output) > 2 * OUTPUT_TAIL:
                del output[:-OUTPUT_TAIL]


def _settle(folder: Path) -> None:
    """The built folder belongs to the referee again, readable (not writable) by bots' users."""
    uid = os.geteuid()
    for root, dirs, names in os.walk(folder):
        for name in dirs + names:
            path = os.path.join(root, name)
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                if st.st_uid != uid:
                    os.lchown(path, uid, os.getegid())
                continue
            if st.st_uid != uid:
                os.chown(path, uid, os.getegid())
            if stat.S_ISDIR(st.st_mode):
                os.chmod(path, 0o755)
            elif stat.S_ISREG(st.st_mode):
                os.chmod(path, 0o755 if st.st_mode & stat.S_IXUSR else 0o644)
            else:
                os.unlink(path)  # a FIFO or socket left by the build is not part of a bot
    os.chown(folder, uid, os.getegid())
    os.chmod(folder, 0o755)


def _tail(data: bytes) -> str:
    text = data[-OUTPUT_TAIL:].decode("utf-8", errors="replace")
    return text


def output_lines(output: str, count: int = OUTPUT_LINES) -> list[str]:
    """The last ``count`` non-empty lines of a build's output."""
    return [line for line in output.rstrip().splitlines() if line.strip()][-count:]
