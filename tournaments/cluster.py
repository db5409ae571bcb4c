"""Playing a tournament's matches on an existing Dask distributed cluster (docs/cluster.md).

arena builds no cluster of its own: start a scheduler and workers with ``dask scheduler`` and
``dask worker`` (each worker machine with arena installed), then run
``arena tournament run CONFIG --cluster tcp://HOST:8786`` (or ``cluster = "..."`` in the TOML).
:class:`DaskBackend` implements the :class:`tournaments.backends.Backend` protocol, so results come
back to the parent process, which stores them exactly as in a local run (``tournaments.run``).

**Bot folders travel with the work** (no shared file system). Each entrant's folder is packed once
by the parent into a *bundle*: a deterministic, zlib-compressed tar of the very files
:func:`arena.bots.folder_hash` reads, keyed by that hash. The run's bundles go to the workers in a
worker plugin (``BundlePlugin``), which the scheduler hands to every worker once: to those
connected now, and to any that joins later (a worker restarted after a crash too). Match tasks
carry only the hashes. On the worker, :func:`bot_folder` unpacks a bundle on first use into
``<tmp>/arena-bots/<sha256>/``, atomically (into a temporary folder, then a rename), hashes the
unpacked folder and refuses it (:class:`BundleError`) unless the hash is the key; the job's bots
are then pointed at that folder. Cached folders are world-readable and writable by the worker's
user only, so the sandbox mounts them in place as it mounts a bot folder in a local run. (Not
``client.scatter``: the scheduler keeps a single replica of scattered data that no waiting task
needs, so bundles would travel again and again, and die with the worker holding them.)

**Each match is counted once.** A match is one Dask task with a key of its own. When a worker dies
in the middle of a match, the scheduler plays the task again on another worker (up to its
``allowed-failures``, then the match is a :class:`~tournaments.backends.MatchError`); a task
bound to the dead worker alone is taken back by the run and submitted again to the workers
connected now (a worker restarted by its nanny comes back under another address). The parent
ignores any second result for a match id.

**Only workers with the same code play** (:func:`code_fingerprint`): each worker is checked as it
joins, and tasks are restricted to the workers that passed. A bot's own
failure (crash, timeout, illegal action) is a normal match record with a seat status: the task
succeeds and is never played again.

Dask is an optional dependency (``pip install 'arena[cluster]'``); it is imported only when a
cluster is used.
"""
from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import io
import os
import shutil
import socket
import stat
import struct
import sys
import tarfile
import tempfile
import threading
import time
import traceback
import uuid
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import arena
from arena.bots import DEFAULT_FOLDER_MB, MiB, folder_hash, link_leaves, read_folder
from arena.errors import ArenaError, BotError
from tournaments import cores
from tournaments.backends import Finished, MatchError, MatchJob, play_job
from tournaments.warm import WarmStarts

CACHE_ENV = "ARENA_BOT_CACHE"      # overrides the worker's bundle cache folder
CACHE_NAME = "arena-bots"
INSTALL_HINT = "pip install '.[cluster]' in arena's folder"


class BundleError(ArenaError):
    """A bot bundle that cannot be used: its files do not hash to its key, or it cannot be made."""


def _distributed() -> Any:
    """The ``distributed`` package, or a clear error naming the extra that installs it."""
    try:
        import distributed
    except ImportError as exc:
        raise ArenaError(f"running matches on a Dask cluster needs the optional dependency "
                         f"dask[distributed] ({exc}); install it with: {INSTALL_HINT}") from None
    return distributed


# ----- bundles: packing (parent) ---------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Bundle:
    """A bot folder as bytes: ``data`` unpacks to files whose :func:`folder_hash` is ``digest``."""

    digest: str
    data: bytes


def _file_mode(mode: int) -> int:
    return 0o755 if mode & stat.S_IXUSR else 0o644


def pack_folder(folder: str | os.PathLike[str], max_bytes: int = DEFAULT_FOLDER_MB * MiB) -> Bundle:
    """Pack a bot folder: the entries :func:`arena.bots.read_folder` reads (files, folders, links,
    never following a link; no FIFO, device or socket; at most ``max_bytes`` of files), read once,
    hashed as :func:`arena.bots.folder_hash` hashes them. Deterministic (sorted, no times or
    owners). A link stays a link (the bot folder's links stay inside it, as the worker's unpacking
    requires too)."""
    top = Path(folder).resolve()
    digest = hashlib.sha256()
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        def add(name: str, kind: bytes, mode: int, data: bytes = b"", link: str = "") -> None:
            info = tarfile.TarInfo(name)
            info.type, info.mode, info.mtime, info.linkname = kind, mode, 0, link
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)

        try:
            for entry in read_folder(top, max_bytes):
                if entry.kind == "dir":
                    add(entry.rel, tarfile.DIRTYPE, 0o755)
                elif entry.kind == "link":  # read_folder refuses one that leaves the folder
                    digest.update(os.fsencode(entry.rel) + b"\0\x01link\x01"
                                  + os.fsencode(entry.link) + b"\0")
                    add(entry.rel, tarfile.SYMTYPE, 0o777, link=entry.link)
                else:
                    digest.update(os.fsencode(entry.rel) + b"\0")
                    digest.update(entry.data + b"\0")
                    add(entry.rel, tarfile.REGTYPE, _file_mode(entry.mode), entry.data)
        except BotError as exc:
            raise BundleError(str(exc)) from None
    return Bundle(digest.hexdigest(), zlib.compress(raw.getvalue(), 6))


# ----- bundles: unpacking (worker) -------------------------------------------------------------

# A bundle was packed within its run's folder_mb: the worker's own check of what it unpacked
# (its hash) needs no limit of its own.
UNPACKED_BYTES = 1 << 62

_lock = threading.Lock()                       # a worker runs tasks in threads
_digest_locks: dict[str, threading.Lock] = {}
_verified: dict[tuple[Path, str], tuple[Any, ...]] = {}   # folder's signature when last verified
_swept: set[Path] = set()


def cache_root() -> Path:
    """The worker's bundle cache: ``$ARENA_BOT_CACHE``, else ``<tmp>/arena-bots`` (a temp folder
    the sandbox's bot users can traverse). It must belong to this user and be writable by no one
    else, since whoever can write it could swap a verified bot's files."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        root = Path(configured)
    else:
        from arena.sandbox.files import temp_base
        base = temp_base()
        root = base / CACHE_NAME
        if root.exists() and os.lstat(root).st_uid != os.geteuid():  # another user's cache
            root = base / f"{CACHE_NAME}-{os.geteuid()}"
    try:
        root.mkdir(mode=0o755, parents=True, exist_ok=True)
        st = os.lstat(root)
    except OSError as exc:
        raise BundleError(f"cannot create the bot cache folder {root} ({exc})") from None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
        raise BundleError(f"the bot cache folder {root} is not a folder of this user that no one "
                          f"else can write; remove it, or set {CACHE_ENV} to another folder")
    if st.st_mode & 0o555 != 0o555:
        os.chmod(root, 0o755)
    if root not in _swept:
        _swept.add(root)
        _sweep(root)
    return root


def _sweep(root: Path) -> None:
    """Remove half-unpacked folders left by worker processes that were killed."""
    for path in root.glob(".tmp-*"):
        pid = path.name.split("-")[1]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except OSError:
            pass


def _signature(folder: Path) -> tuple[Any, ...]:
    """Cheap identity of a folder's current files (names, sizes, times, modes, inodes)."""
    out: list[Any] = [os.stat(folder).st_ino]
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(dirs + files):
            st = os.lstat(os.path.join(root, name))
            out.append((os.path.relpath(os.path.join(root, name), folder), st.st_size,
                        st.st_mtime_ns, st.st_mode, st.st_ino))
    return tuple(out)


def _extract(data: bytes, target: Path) -> None:
    """Unpack a bundle into the empty folder ``target``: only what :func:`pack_folder` writes, by
    hand rather than by ``tarfile``'s extraction (whose safety filters Python has only since
    3.11.4; Debian 12's is 3.11.2). Folders, files (mode 0o755 or 0o644, owned by this user)
    and links that stay inside the folder; no absolute name or ``..``; nothing under a link, so
    nothing is written through one (links are made last); anything else refuses the bundle."""
    try:
        with tarfile.open(fileobj=io.BytesIO(zlib.decompress(data)), mode="r:") as tar:
            members = tar.getmembers()
            links = {m.name for m in members if m.issym()}
            for m in members:
                _check_member(m, links)
            for m in members:
                path = os.path.join(target, m.name)
                if m.isdir():
                    os.makedirs(path, 0o755, exist_ok=True)
                elif m.isreg():
                    os.makedirs(os.path.dirname(path), 0o755, exist_ok=True)
                    content = tar.extractfile(m).read()
                    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                                 _file_mode(m.mode))
                    with open(fd, "wb") as f:
                        f.write(content)
            for m in members:
                if m.issym():
                    os.makedirs(os.path.dirname(os.path.join(target, m.name)), 0o755, exist_ok=True)
                    os.symlink(m.linkname, os.path.join(target, m.name))
    except (zlib.error, tarfile.TarError, OSError) as exc:
        raise BundleError(f"a bot bundle could not be unpacked ({type(exc).__name__}: {exc})") \
            from None
    for root, dirs, files in os.walk(target):  # whatever the umask took off
        for name in dirs:
            if not os.path.islink(os.path.join(root, name)):
                os.chmod(os.path.join(root, name), 0o755)
        for name in files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, _file_mode(os.lstat(path).st_mode))
    os.chmod(target, 0o755)


def _check_member(member: tarfile.TarInfo, links: set[str]) -> None:
    """Refuse (``TarError``) an entry that :func:`pack_folder` never writes."""
    name = member.name
    parts = name.split("/")
    if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise tarfile.TarError(f"{name!r} is not a plain path inside the bot folder")
    if any("/".join(parts[:i]) in links for i in range(1, len(parts))):
        raise tarfile.TarError(f"{name!r} lies under a link")
    if member.issym():
        if link_leaves("/".join(parts[:-1]), member.linkname):
            raise tarfile.TarError(f"{name!r} links to {member.linkname}, outside the bot folder")
    elif not (member.isdir() or member.isreg()):
        raise tarfile.TarError(f"{name!r} is neither a file, a folder nor a link")


def bot_folder(digest: str, data: bytes | Callable[[], bytes], root: Path | None = None) -> Path:
    """The cached folder of a bundle, unpacked (from ``data``, or what ``data()`` returns) and
    verified before its first use in this process: its files must hash to ``digest``, else
    :class:`BundleError`. A cached folder whose files have changed since they were verified is
    hashed again, and replaced from the bundle if it no longer matches."""
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise BundleError(f"{digest!r} is not a bundle key (a SHA-256 in hex)")
    root = root or cache_root()
    final = root / digest
    with _lock:
        lock = _digest_locks.setdefault(digest, threading.Lock())
    with lock:
        for _attempt in range(3):
            if final.is_dir() and not final.is_symlink():
                signature = _signature(final)
                if _verified.get((root, digest)) == signature:
                    return final
                if folder_hash(final, UNPACKED_BYTES) == digest:
                    _verified[(root, digest)] = signature
                    return final
            _install(digest, data if isinstance(data, bytes) else data(), final)
        raise BundleError(f"bot bundle {digest[:12]}: could not install it in {root}")


def _install(digest: str, data: bytes, final: Path) -> None:
    """Unpack into a temporary folder beside ``final``, verify, then rename it into place."""
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{os.getpid()}-{digest[:12]}-", dir=final.parent))
    try:
        _extract(data, tmp)
        got = folder_hash(tmp, UNPACKED_BYTES)
        if got != digest:
            raise BundleError(f"bot bundle {digest[:12]} unpacks to files whose hash is "
                              f"{got[:12]}, not its key: refused (damaged in transit, or packed by another "
                              "version of arena)")
        try:
            os.rename(tmp, final)
            return
        except OSError:
            pass  # ``final`` exists: another worker process of this machine was first, or it is bad
        if final.is_dir() and not final.is_symlink() and folder_hash(final, UNPACKED_BYTES) == digest:
            return
        trash = final.parent / f".tmp-{os.getpid()}-trash-{uuid.uuid4().hex[:8]}"
        try:
            os.rename(final, trash)
        except FileNotFoundError:
            pass
        os.rename(tmp, final)
        shutil.rmtree(trash, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


# ----- bundles on a worker: what the run's plugin brought ---------------------------------------

PLUGIN_WAIT_SECONDS = 10.0   # a restarted worker may get a task a moment before its plugins
_available: dict[str, bytes] = {}   # digest -> bundle data, from the plugins installed here
_holders: dict[str, int] = {}


def hold_bundles(bundles: dict[str, bytes]) -> None:
    with _lock:
        for digest, data in bundles.items():
            _available[digest] = data
            _holders[digest] = _holders.get(digest, 0) + 1


def release_bundles(bundles: dict[str, bytes]) -> None:
    with _lock:
        for digest in bundles:
            _holders[digest] = _holders.get(digest, 1) - 1
            if _holders[digest] <= 0:
                _holders.pop(digest, None)
                _available.pop(digest, None)


def _bundle_data(digest: str) -> bytes:
    deadline = time.monotonic() + PLUGIN_WAIT_SECONDS
    while True:
        data = _available.get(digest)
        if data is not None:
            return data
        if time.monotonic() > deadline:
            raise BundleError(f"bot bundle {digest[:12]} has not reached this worker (its run's "
                              "worker plugin is missing: was the run stopped meanwhile?)")
        time.sleep(0.05)


def cached_bot_folder(digest: str) -> Path:
    """The verified folder of a bundle this worker holds (or already verified on disk)."""
    return bot_folder(digest, lambda: _bundle_data(digest))


def _bundle_plugin_class() -> type:
    """``BundlePlugin``, a ``distributed.WorkerPlugin`` made on first use (Dask is optional).
    It is reachable as ``tournaments.cluster.BundlePlugin`` (module ``__getattr__``), so that it
    pickles by reference."""
    global _plugin_class
    if _plugin_class is None:
        distributed = _distributed()

        class BundlePlugin(distributed.WorkerPlugin):  # type: ignore[misc, name-defined]
            """A run's bot bundles: the scheduler hands it to every worker, current and future,
            once; the worker keeps the bytes and unpacks each bundle on first use."""

            def __init__(self, bundles: dict[str, bytes]) -> None:
                self.bundles = bundles

            def setup(self, worker: Any) -> None:
                hold_bundles(self.bundles)

            def teardown(self, worker: Any) -> None:
                release_bundles(self.bundles)

        BundlePlugin.__module__ = __name__
        BundlePlugin.__qualname__ = "BundlePlugin"
        _plugin_class = BundlePlugin
    return _plugin_class


_plugin_class: type | None = None


def __getattr__(name: str) -> Any:
    if name == "BundlePlugin":
        return _bundle_plugin_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def play_on_worker(job: MatchJob, seat_digests: tuple[str, ...],
                   ahead: tuple[MatchJob, tuple[str, ...]] | None = None,
                   cores_per_match: int = 0) -> Finished:
    """A Dask task: point the job's bots at their verified cached folders, play it, and give the
    record the bots' original folders back (so it is the record a local run would store).
    On a worker of one thread, as in a local worker: the match runs on ``cores_per_match`` cores
    of the worker's own, and ``ahead``, the match it plays next (job, seat digests), has its bots
    started while this one plays."""
    local = _on_cached_folders(job, seat_digests)
    warm = _worker_setup(cores_per_match)
    next_job = _on_cached_folders(*ahead) if ahead is not None and warm is not None else None
    finished = play_job(local, warm, next_job)
    for seat, bot in zip(finished.record.seats, job.bots):
        seat["path"] = str(bot.path)
    finished.worker = f"{_worker_address()} pid {os.getpid()}"
    return finished


def _on_cached_folders(job: MatchJob, seat_digests: tuple[str, ...]) -> MatchJob:
    bots = tuple(dataclasses.replace(bot, path=cached_bot_folder(digest))
                 for bot, digest in zip(job.bots, seat_digests, strict=True))
    return dataclasses.replace(job, bots=bots)


_warm: WarmStarts | None = None
_claim: tuple[frozenset[int] | None, set[int]] | None = None  # this run's cores, and the threads'
                                                               # cores before it


def _worker_setup(cores_per_match: int) -> WarmStarts | None:
    """On a worker process that runs one task at a time: pin this task's thread to the worker's
    own cores (claimed at its first match of a run; the thread that starts bots ahead follows)
    and return its bots started ahead. ``None`` with several threads, where one task's
    preparation would discard another's."""
    global _warm, _claim
    try:
        from distributed import get_worker
        worker = get_worker()
    except (ImportError, ValueError):
        return None
    state = getattr(worker, "state", worker)
    if getattr(state, "nthreads", 0) != 1:
        return None
    with _lock:
        if _claim is None:
            _claim = (cores.claim(cores_per_match), cores.available())
        if _claim[0] is not None:
            cores.run_on(_claim[0])  # each time: Dask may replace its thread
        if _warm is None:
            _warm = WarmStarts()
        return _warm


def end_of_run() -> None:
    """Run on every worker when a run ends: kill the bots started ahead for a match this worker
    will not play, and let go of its cores, so that between runs it holds nothing another
    tournament on its machine could use."""
    global _claim
    with _lock:
        if _warm is not None:
            _warm.discard()
        if _claim is not None and _claim[0] is not None:
            for tid in os.listdir("/proc/self/task"):  # the task's thread, the warm one
                cores.run_on(_claim[1], int(tid))
            cores.release()
        _claim = None


def warm_handed_out() -> int:
    """How many bots this worker process played that were started ahead (for tests)."""
    return _warm.handed_out if _warm is not None else 0


def _worker_address() -> str:
    try:
        from distributed import get_worker
        return str(get_worker().address)
    except (ImportError, ValueError):
        return "dask"


# The code a match's outcome depends on: two processes whose files hash alike play a match alike.
FINGERPRINT_PARTS = ("arena/game.py", "arena/options.py", "arena/bots.py", "arena/referee.py",
                     "arena/connection.py", "arena/errors.py", "arena/games", "arena/sandbox",
                     "protocol", "tournaments/backends.py", "tournaments/warm.py",
                     "tournaments/cluster.py")
_fingerprint: str | None = None


def code_fingerprint() -> str:
    """SHA-256 over the source files (``*.py``) of the engines, the referee, the sandbox, the
    protocol and the worker's side of a cluster run, as this process imports them; computed once
    per process. Not the version string, which stays the same across commits."""
    global _fingerprint
    if _fingerprint is None:
        top = Path(arena.__file__).resolve().parent.parent
        digest = hashlib.sha256()
        for part in FINGERPRINT_PARTS:
            path = top / part
            files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
            for file in files:
                if "__pycache__" in file.parts:
                    continue
                digest.update(file.relative_to(top).as_posix().encode() + b"\0")
                try:
                    digest.update(file.read_bytes())
                except OSError:
                    digest.update(b"<missing>")
                digest.update(b"\0")
        _fingerprint = digest.hexdigest()
    return _fingerprint


def worker_info() -> dict[str, str]:
    """What the parent checks of every worker before sending it matches."""
    return {"arena": arena.__version__, "fingerprint": code_fingerprint(),
            "cache": str(cache_root())}


# ----- the backend (parent) --------------------------------------------------------------------

DEFAULT_PORT = 8786
SCHEMES = ("tcp", "tls")
PROBE_SECONDS = 5.0         # a Dask server greets at once: silence this long means it is none
POLL_SECONDS = 0.5          # how often a run looks at the cluster's workers
CALL_TIMEOUT = 10.0         # no call to the scheduler waits longer
CHECK_TIMEOUT = 10.0        # a worker that does not answer the check in time is refused
UNREGISTER_WAIT = 2.0       # seconds the end of a run waits for its plugin's removal


def check_address(address: str) -> tuple[str, str, int]:
    """``(scheme, host, port)`` of a scheduler address (``tcp://HOST:PORT``, ``tls://…``, or
    ``HOST[:PORT]``), or one :class:`ArenaError` line saying what is wrong with it."""
    text = address.strip()
    if not text:
        raise ArenaError("the Dask scheduler address is empty: give one such as tcp://HOST:8786, "
                         "or leave --cluster out to play on this machine")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme not in SCHEMES:
        raise ArenaError(f"{address!r} is not a Dask scheduler address: it must start with "
                         f"tcp:// or tls://, not {scheme}:// (e.g. tcp://HOST:8786; the dashboard's "
                         "http:// address is not the scheduler's)")
    if rest.startswith("["):  # [IPv6]:port
        host, _, port_text = rest[1:].partition("]")
        port_text = port_text[1:] if port_text.startswith(":") else port_text
    else:
        host, _, port_text = rest.rpartition(":") if ":" in rest else (rest, "", "")
    port_text = port_text or str(DEFAULT_PORT)
    if not host or "/" in host or "/" in port_text:
        raise ArenaError(f"{address!r} is not a Dask scheduler address: expected tcp://HOST:PORT")
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ArenaError(f"{address!r} is not a Dask scheduler address: the port {port_text!r} is "
                         "not a number from 1 to 65535")
    return scheme, host, int(port_text)


def _probe(address: str, scheme: str, host: str, port: int, timeout: float) -> None:
    """Make sure a Dask server listens at a tcp address, in at most ``timeout`` seconds: a Dask
    server speaks first (its handshake: a frame length, then a msgpack map naming its
    pickle protocol). Anything else (an HTTP server such as the dashboard, a proxy, a listener
    that says nothing) is refused here, rather than left to a client that would wait for ever
    or read an HTTP reply as a frame length."""
    if scheme != "tcp":
        return  # TLS: the client's own timeout bounds the handshake
    hint = f"start one with `dask scheduler` and workers with `dask worker {address}`"
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except ConnectionRefusedError:
        raise ArenaError(f"cannot reach the Dask scheduler at {address!r}: nothing listens there; "
                         f"{hint}") from None
    except OSError as exc:
        raise ArenaError(f"cannot reach the Dask scheduler at {address!r} ({exc})") from None
    with sock:
        def read(n: int) -> bytes:
            data = b""
            while len(data) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                sock.settimeout(left)
                chunk = sock.recv(n - len(data))
                if not chunk:
                    raise ConnectionError("it closed the connection")
                data += chunk
            return data

        what = f"{address!r} is not a Dask scheduler"
        try:
            (size,) = struct.unpack("<Q", read(8))
            if not 8 <= size <= 1 << 20:
                raise ArenaError(f"{what}: it answered with something else (an HTTP server? the "
                                 f"dashboard listens on 8787, the scheduler on {DEFAULT_PORT})")
            if b"pickle-protocol" not in read(size):
                raise ArenaError(f"{what}: its greeting is not Dask's")
        except TimeoutError:
            raise ArenaError(f"{what}: it accepted the connection but said nothing in "
                             f"{timeout:g} s (an HTTP server or a proxy? the dashboard listens on "
                             f"8787, the scheduler on {DEFAULT_PORT})") from None
        except OSError as exc:
            raise ArenaError(f"{what}: {exc}") from None


def _check_scheduler(address: str, timeout: float) -> None:
    """A Dask server answers ``identity``: make sure it is the scheduler, not a worker or a
    nanny (a client connected to those fails with a traceback, and another one 20 s later)."""
    from distributed.core import rpc

    async def identity() -> Any:
        server = rpc(address, timeout=timeout)
        try:
            return await asyncio.wait_for(server.identity(), timeout)
        finally:
            await server.close_rpc()

    try:
        info = asyncio.run(identity())
    except Exception as exc:
        raise ArenaError(f"cannot reach the Dask scheduler at {address!r} "
                         f"({type(exc).__name__}: {exc})".splitlines()[0]) from None
    kind = info.get("type") if isinstance(info, dict) else None
    if kind != "Scheduler":
        theirs = info.get("scheduler") if isinstance(info, dict) else None
        hint = f"; its scheduler is at {theirs}" if theirs else ""
        raise ArenaError(f"{address!r} is a Dask {kind or 'server'}, not the scheduler{hint}")


def _describe_refusal(info: Any) -> str:
    if isinstance(info, dict):
        theirs = info.get("fingerprint")
        if theirs is None:
            return (f"it runs an arena ({info.get('arena')}) that does not report its code's "
                    "fingerprint; install this arena there")
        return (f"it runs other arena code (fingerprint {str(theirs)[:12]}, this is "
                f"{code_fingerprint()[:12]}; arena {info.get('arena')}); install this arena "
                "there")
    if isinstance(info, TimeoutError):
        return str(info)
    if isinstance(info, ArenaError):  # arena runs there, but cannot play (its bot cache, say)
        return str(info).splitlines()[0][:300]
    if isinstance(info, BaseException):
        text = f"{type(info).__name__}: {info}".splitlines()[0][:200]
        return f"it cannot run arena's check ({text}; is arena installed there?)"
    return f"it answered the check with {info!r}"[:200]


class DaskBackend:
    """Plays jobs as tasks on a Dask cluster: at most as many at once as its verified workers
    have threads (``max_in_flight`` caps it further), so that a stop lets only the matches in
    flight end. ``address``: a scheduler address, or a connected ``distributed.Client`` (left
    open).

    Workers are checked as they come (every ``POLL_SECONDS``): a worker whose arena code has
    another :func:`code_fingerprint`, or that cannot run the check, is refused with a warning
    naming it and never gets a match (every task is restricted to the verified workers).
    With no verified worker, the run waits (``status`` says so) and a stop ends it at once.
    A task whose allowed workers are all gone (a worker restarted by its nanny comes back under
    another address) is cancelled and submitted again to the workers connected now."""

    def __init__(self, address: Any, *, connect_timeout: float = 10.0,
                 max_in_flight: int | None = None, cores_per_match: int = 1) -> None:
        distributed = _distributed()
        self._distributed = distributed
        self._client: Any = None
        if isinstance(address, str):
            scheme, host, port = check_address(address)
            address = f"{scheme}://{host if ':' not in host else f'[{host}]'}:{port}"
            _probe(address, scheme, host, port, min(connect_timeout, PROBE_SECONDS))
            if scheme == "tcp":
                _check_scheduler(address, connect_timeout)
            try:
                self._client = distributed.Client(address, timeout=connect_timeout,
                                                  set_as_default=False)
            except Exception as exc:  # whatever it is, one line
                raise ArenaError(f"cannot reach the Dask scheduler at {address!r} ({exc}); start "
                                 f"one with `dask scheduler` and workers with `dask worker "
                                 f"{address}`") from None
            self._owns_client = True
            self.address = address
        else:
            self._client = address
            self._owns_client = False
            self.address = str(address.scheduler.address)
        self.name = f"dask {self.address}"
        self.max_in_flight = max_in_flight
        self.cores_per_match = cores_per_match
        self.say: Callable[[str], None] = lambda text: print(text, file=sys.stderr, flush=True)
        self.status: Callable[[str | None], None] = lambda text: None
        self._stopping = False
        self._aborting = False
        self._looked = 0.0
        self._verified: dict[str, int] = {}    # worker address -> threads
        self._refused: dict[str, str] = {}     # worker address -> why
        self._checking: dict[str, Any] = {}    # worker address -> its check (a future)
        self._listing: Any = None              # the scheduler's list of workers, asked for
        self._current: dict[str, int] = {}     # the workers connected, as last listed
        self._waiting = False
        self._threads = 0
        try:
            deadline = time.monotonic() + CHECK_TIMEOUT + 1.0
            self._look(force=True)
            while self._checking and time.monotonic() < deadline:  # the workers there now
                time.sleep(0.05)
                self._look(force=True)
        except BaseException:
            self.close()
            raise
        self.workers = self._window()

    def attach(self, say: Callable[[str], None], status: Callable[[str | None], None]) -> None:
        """Where warnings go (a line each) and the run's status line (``None``: clear it)."""
        self.say, self.status = say, status

    # ----- the workers ------------------------------------------------------------------------
    def _call(self, method: Any, *args: Any, **kwargs: Any) -> Any:
        """A client call that waits at most ``CALL_TIMEOUT``."""
        return self._client.sync(method, *args, callback_timeout=CALL_TIMEOUT, **kwargs)

    def _look(self, force: bool = False) -> None:
        """Every ``POLL_SECONDS``: forget the workers that left; check those that joined. The
        list of workers and the checks are asked for in the background, so that a look never
        holds up the results in between (``force``: wait for the list now)."""
        now = time.monotonic()
        if self._listing is None and (force or now - self._looked >= POLL_SECONDS):
            self._looked = now
            self._listing = asyncio.run_coroutine_threadsafe(
                asyncio.wait_for(self._client.scheduler.ncores(), CALL_TIMEOUT),
                self._client.loop.asyncio_loop)
        if self._listing is not None and (force or self._listing.done()):
            listing, self._listing = self._listing, None
            try:
                self._current = dict(listing.result(timeout=CALL_TIMEOUT + 1))
            except Exception as exc:
                if self._client.status not in ("running", "connecting", "newly-created"):
                    raise ArenaError(f"lost the connection to the Dask scheduler at "
                                     f"{self.address} ({type(exc).__name__}); run the same "
                                     "command again to resume") from None
                return
        elif not self._checking:
            return
        current = self._current
        for gone in [a for a in self._verified if a not in current]:
            del self._verified[gone]
        for gone in [a for a in self._refused if a not in current]:
            del self._refused[gone]
        for gone in [a for a in self._checking if a not in current]:
            del self._checking[gone]
        for worker in sorted(current):   # each newcomer is checked on its own, in the background
            if worker not in self._verified and worker not in self._refused \
                    and worker not in self._checking:
                self._checking[worker] = asyncio.run_coroutine_threadsafe(
                    self._check(worker), self._client.loop.asyncio_loop)
        for worker, check in list(self._checking.items()):
            if not check.done():
                continue
            del self._checking[worker]
            try:
                info = check.result()
            except BaseException as exc:  # noqa: BLE001 (whatever it was, the worker is refused)
                info = exc
            if isinstance(info, dict) and info.get("fingerprint") == code_fingerprint():
                self._verified[worker] = current[worker]
            else:
                self._refused[worker] = _describe_refusal(info)
                self.say(f"warning: Dask worker {worker} gets no matches: "
                         f"{self._refused[worker]}")
        self._threads = sum(self._verified.values())

    async def _check(self, worker: str) -> Any:
        """What ``worker_info`` says on ``worker`` (or the exception), in ``CHECK_TIMEOUT``."""
        try:
            infos = await asyncio.wait_for(
                self._client._run(worker_info, workers=[worker], on_error="return"),
                CHECK_TIMEOUT)
        except asyncio.TimeoutError:
            return TimeoutError(f"it did not answer arena's check in {CHECK_TIMEOUT:g} s")
        return infos.get(worker, LookupError("it left"))

    def _window(self) -> int:
        """Matches in flight: the verified workers' threads, at most ``max_in_flight``."""
        return min(self._threads, self.max_in_flight or self._threads)

    def _wait_status(self, waiting: bool) -> None:
        if waiting == self._waiting:
            return
        self._waiting = waiting
        if not waiting:
            self.status(None)
            return
        refused = f"; {len(self._refused)} refused" if self._refused else ""
        self.status(f"waiting for Dask workers at {self.address} (none connected that can play"
                    f"{refused}; start some with `dask worker {self.address}`)")

    # ----- the Backend protocol ---------------------------------------------------------------
    def stop(self) -> None:
        self._stopping = True

    def abort(self) -> None:
        self._stopping = True
        self._aborting = True

    def run(self, jobs: Iterable[MatchJob]) -> Iterator[Finished]:
        pending = list(jobs)
        if not pending:
            return
        client = self._client
        token = uuid.uuid4().hex[:10]
        digests, bundles = self._pack(pending)
        plugin = self._send_bundles(bundles)
        pending.reverse()  # pop() from the end: schedule order
        # Each task names the match its worker plays next (its bots start ahead there); that
        # match is held back here and submitted to the same worker when the task ends.
        # key -> job, future, the match held back, the workers allowed to play it
        in_flight: dict[str, tuple[MatchJob, Any, MatchJob | None, frozenset[str]]] = {}
        seen: set[int] = set()
        attempts: dict[int, int] = {}
        # Results are fetched in the background: a result lost with its worker before it was
        # fetched is computed again, and waiting for it here would block the loop that takes
        # back tasks whose workers are gone.
        futures = self._distributed.as_completed(loop=client.loop, with_results=True,
                                                 raise_errors=False)

        def seats(job: MatchJob) -> tuple[str, ...]:
            return tuple(digests[Path(bot.path)] for bot in job.bots)

        def submit(job: MatchJob, worker: str | None = None) -> None:
            after = pending.pop() if pending else None
            ahead = (after, seats(after)) if after is not None else None
            allowed = [worker] if worker in self._verified else sorted(self._verified)
            attempt = attempts[job.match_id] = attempts.get(job.match_id, 0) + 1
            again = f"r{attempt - 1}" if attempt > 1 else ""
            future = client.submit(play_on_worker, job, seats(job), ahead, self.cores_per_match,
                                   pure=False,
                                   key=f"arena-match-{token}{again}-{job.match_id}",
                                   workers=allowed, allow_other_workers=False)
            in_flight[future.key] = (job, future, after, frozenset(allowed))
            futures.add(future)

        def held_back() -> MatchJob | None:
            """At the end of a run, a free thread takes a match held back for a busy worker."""
            for key, (job, future, after, allowed) in in_flight.items():
                if after is not None:
                    in_flight[key] = (job, future, None, allowed)
                    return after
            return None

        def orphans() -> None:
            """Take back the tasks none of whose workers is here any more: Dask would keep them
            (state ``no-worker``) until that very address came back, which a restarted worker
            never does. They go again to the workers here now (or are dropped on a stop)."""
            for key, (job, future, after, allowed) in list(in_flight.items()):
                if allowed & self._verified.keys() or future.done():
                    continue
                del in_flight[key]
                future.cancel()
                if not self._stopping:
                    if after is not None:
                        pending.append(after)
                    pending.append(job)

        try:
            while not self._aborting:
                self._look()
                orphans()
                while not self._stopping and len(in_flight) < self._window():
                    job = pending.pop() if pending else held_back()
                    if job is None:
                        break
                    submit(job)
                if not in_flight and (self._stopping or not pending):
                    return
                self._wait_status(not self._verified and not self._stopping)
                item = self._next(futures, POLL_SECONDS)
                if item is None or item[0].key not in in_flight:
                    continue  # nothing yet, or a task taken back
                future, value = item
                job, _, after, _ = in_flight.pop(future.key)
                if isinstance(value, Finished):
                    future.release()
                    if after is not None and not self._stopping:
                        if self._verified:
                            submit(after, worker=value.worker.rsplit(" pid ", 1)[0])
                        else:  # every worker left meanwhile: it waits with the others
                            pending.append(after)
                    if job.match_id in seen:  # one task per match: never; but count once, surely
                        continue
                    seen.add(job.match_id)
                    yield value
                elif future.status == "cancelled" or type(value).__name__ == "CancelledError":
                    what = ("lost the connection to the Dask scheduler at" if client.status
                            != "running" else "the task was cancelled on the Dask cluster at")
                    raise ArenaError(f"{what} {self.address} (match {job.match_id} was in "
                                     "flight); run the same command again to resume")
                else:
                    self._raise(job, value, future)
        finally:
            self._wait_status(False)
            self._end(plugin, [f for _, f, _, _ in in_flight.values()])

    @staticmethod
    def _next(futures: Any, timeout: float) -> tuple[Any, Any] | None:
        """The next finished task and its result (or exception), or ``None`` after ``timeout``
        seconds without one."""
        with futures.thread_condition:
            if not futures.has_ready():
                futures.thread_condition.wait(timeout)
        return next(futures) if futures.has_ready() else None

    def _end(self, plugin: str, unfinished: list[Any]) -> None:
        """Cancel what is left, let the verified workers go of their cores and warm bots, and
        remove the run's plugin; each step bounded in time. The scheduler forgets the plugin
        as soon as it gets the request, then asks every worker to drop it, and waits for each
        answer: a worker that cannot answer (one that fails to start, say) would hold the end
        of the run for the whole timeout, so the run does not wait for that beyond a moment."""
        client = self._client
        if unfinished:
            with contextlib.suppress(Exception):
                self._call(client._cancel, unfinished)
        if self._verified:
            with contextlib.suppress(Exception):
                self._call(client._run, end_of_run, workers=list(self._verified),
                           on_error="ignore")
        with contextlib.suppress(Exception):
            removal = asyncio.run_coroutine_threadsafe(
                client._unregister_worker_plugin(name=plugin), client.loop.asyncio_loop)
            with contextlib.suppress(Exception):
                removal.result(timeout=UNREGISTER_WAIT)

    def _raise(self, job: MatchJob, exc: Any, future: Any) -> None:
        if isinstance(exc, ArenaError):  # a BundleError, typically
            raise ArenaError(f"match {job.match_id} on the Dask cluster: {exc}") from None
        if type(exc).__name__ == "KilledWorker":
            raise MatchError(job.match_id, f"the Dask workers playing it died again and again "
                                           f"({exc}); see the workers' logs") from None
        try:
            tb = exc.__traceback__ or self._call(future._traceback)
        except Exception:
            tb = None
        details = "".join(traceback.format_exception(type(exc), exc, tb))
        raise MatchError(job.match_id, details) from None

    # ----- bundles ----------------------------------------------------------------------------
    @staticmethod
    def _pack(jobs: list[MatchJob]) -> tuple[dict[Path, str], dict[str, bytes]]:
        """Pack every distinct bot folder once: ``{folder: digest}``, ``{digest: data}``."""
        digests: dict[Path, str] = {}
        bundles: dict[str, bytes] = {}
        for job in jobs:
            for bot in job.bots:
                folder = Path(bot.path)
                if folder not in digests:
                    bundle = pack_folder(folder, bot.folder_bytes)
                    digests[folder] = bundle.digest
                    bundles[bundle.digest] = bundle.data
        return digests, bundles

    def _send_bundles(self, bundles: dict[str, bytes]) -> str:
        """Register the run's bundles as a worker plugin: the scheduler sends it to every worker
        once, now and whenever a worker joins (a restarted one too). Named after its bundles, so
        a run resumed after a kill replaces the plugin its killed run left behind."""
        name = "arena-bundles-" + hashlib.sha256(
            "".join(sorted(bundles)).encode()).hexdigest()[:16]
        try:
            self._client.register_plugin(_bundle_plugin_class()(bundles), name=name)
        except ArenaError:
            raise
        except Exception as exc:
            raise ArenaError(f"could not send the bot folders to the Dask workers of "
                             f"{self.address} ({type(exc).__name__}: {exc})") from None
        return name

    def close(self) -> None:
        """Disconnect from the scheduler (only if this backend connected)."""
        if self._owns_client and self._client is not None:
            try:
                self._client.close()
            except Exception:
                pass
        self._client = None

    def __enter__(self) -> "DaskBackend":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


__all__ = ["Bundle", "BundleError", "DaskBackend", "bot_folder", "cache_root",
           "cached_bot_folder", "check_address", "code_fingerprint", "pack_folder",
           "play_on_worker"]
