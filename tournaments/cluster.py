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
``allowed-failures``, then the match is a :class:`~tournaments.backends.MatchError`); the parent
gets one result per task, and ignores any second result for a match id all the same. A bot's own
failure (crash, timeout, illegal action) is a normal match record with a seat status: the task
succeeds and is never played again.

Dask is an optional dependency (``pip install 'arena[cluster]'``); it is imported only when a
cluster is used.
"""
from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import shutil
import socket
import stat
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
from arena.bots import DEFAULT_FOLDER_MB, MiB, folder_hash, read_folder
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
    try:
        raw = zlib.decompress(data)
        with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as tar:
            tar.extractall(target, filter="data")  # no absolute paths, no links out, no owners
    except (zlib.error, tarfile.TarError, OSError) as exc:
        raise BundleError(f"a bot bundle could not be unpacked ({type(exc).__name__}: {exc})") \
            from None
    for root, dirs, files in os.walk(target):
        for name in dirs:
            if not os.path.islink(os.path.join(root, name)):
                os.chmod(os.path.join(root, name), 0o755)
        for name in files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, _file_mode(os.lstat(path).st_mode))
    os.chmod(target, 0o755)


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


def worker_info() -> dict[str, str]:
    """What the parent checks of every worker before sending it matches."""
    return {"arena": arena.__version__, "cache": str(cache_root())}


# ----- the backend (parent) --------------------------------------------------------------------

def _probe(address: str, timeout: float) -> None:
    """Fail at once (``ConnectionRefusedError``) if nothing listens at a TCP address, rather than
    after the client's whole connect timeout."""
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port
    try:
        scheme, location = parse_address(address)
        host, port = parse_host_port(location, 8786)
    except (ValueError, TypeError):
        return
    if scheme != "tcp":
        return
    try:
        socket.create_connection((host, port), timeout=min(timeout, 5.0)).close()
    except ConnectionRefusedError:
        raise
    except OSError:
        return  # a slow network, a name that does not resolve yet: the client says more


class DaskBackend:
    """Plays jobs as tasks on a Dask cluster: at most as many at once as the cluster has worker
    threads (``max_in_flight`` caps it further), so that a stop lets only the matches in flight
    end. ``address``: a scheduler address, or a connected ``distributed.Client`` (left open)."""

    def __init__(self, address: Any, *, connect_timeout: float = 10.0,
                 max_in_flight: int | None = None, cores_per_match: int = 1) -> None:
        distributed = _distributed()
        self._distributed = distributed
        self._client: Any = None
        if isinstance(address, str):
            try:
                _probe(address, connect_timeout)
                self._client = distributed.Client(address, timeout=connect_timeout,
                                                  set_as_default=False)
            except (OSError, TimeoutError, ValueError) as exc:
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
        self._stopping = False
        self._aborting = False
        self._threads_checked = 0.0
        self._threads = 0
        try:
            self._check_workers(connect_timeout)
        except BaseException:
            self.close()
            raise
        self.workers = self._window()

    def _check_workers(self, timeout: float) -> None:
        try:
            self._client.wait_for_workers(1, timeout=timeout)
        except (TimeoutError, OSError):
            raise ArenaError(f"the Dask scheduler at {self.address} has no workers; start some "
                             f"with `dask worker {self.address}`") from None
        try:
            infos = self._client.run(worker_info)
        except ArenaError as exc:
            raise ArenaError(f"a Dask worker of {self.address}: {exc}") from None
        except Exception as exc:  # typically: the workers cannot import arena
            raise ArenaError(f"the Dask workers of {self.address} cannot play arena matches "
                             f"({type(exc).__name__}: {exc}); install the same arena on every "
                             f"worker ({INSTALL_HINT})") from None
        for worker, info in sorted(infos.items()):
            if info.get("arena") != arena.__version__:
                raise ArenaError(f"Dask worker {worker} runs arena {info.get('arena')}, this is "
                                 f"arena {arena.__version__}: install the same version everywhere")

    def _window(self) -> int:
        """Matches in flight: the cluster's worker threads (re-read every few seconds, as
        workers come and go), at most ``max_in_flight``."""
        now = time.monotonic()
        if now - self._threads_checked > 2.0 or not self._threads:
            self._threads_checked = now
            try:
                self._threads = max(1, sum(self._client.nthreads().values()))
            except Exception:
                self._threads = max(1, self._threads)
        return min(self._threads, self.max_in_flight or self._threads)

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
        in_flight: dict[str, tuple[MatchJob, Any, MatchJob | None]] = {}  # key -> job, future, next
        seen: set[int] = set()
        futures = self._distributed.as_completed(loop=client.loop)

        def seats(job: MatchJob) -> tuple[str, ...]:
            return tuple(digests[Path(bot.path)] for bot in job.bots)

        def submit(job: MatchJob, worker: str | None = None) -> None:
            after = pending.pop() if pending else None
            ahead = (after, seats(after)) if after is not None else None
            future = client.submit(play_on_worker, job, seats(job), ahead, self.cores_per_match,
                                   pure=False,
                                   key=f"arena-match-{token}-{job.match_id}",
                                   workers=[worker] if worker else None,
                                   allow_other_workers=worker is not None)
            in_flight[future.key] = (job, future, after)
            futures.add(future)

        def held_back() -> MatchJob | None:
            """At the end of a run, a free thread takes a match held back for a busy worker."""
            for key, (job, future, after) in in_flight.items():
                if after is not None:
                    in_flight[key] = (job, future, None)
                    return after
            return None

        try:
            while not self._aborting:
                while not self._stopping and len(in_flight) < self._window():
                    job = pending.pop() if pending else held_back()
                    if job is None:
                        break
                    submit(job)
                if not in_flight:
                    return
                future = next(futures)
                job, _, after = in_flight.pop(future.key)
                if future.status == "finished":
                    finished = future.result()
                    future.release()
                    if after is not None and not self._stopping:
                        submit(after, worker=finished.worker.rsplit(" pid ", 1)[0])
                    if job.match_id in seen:  # one task per match: never; but count once, surely
                        continue
                    seen.add(job.match_id)
                    yield finished
                elif future.status == "cancelled":
                    what = ("lost the connection to the Dask scheduler at" if client.status
                            != "running" else "the task was cancelled on the Dask cluster at")
                    raise ArenaError(f"{what} {self.address} (match {job.match_id} was in "
                                     "flight); run the same command again to resume")
                else:
                    self._raise(job, future)
        finally:
            try:
                if in_flight:
                    client.cancel([f for _, f, _ in in_flight.values()])
                client.run(end_of_run)
                client.unregister_worker_plugin(plugin)
            except Exception:
                pass

    def _raise(self, job: MatchJob, future: Any) -> None:
        exc = future.exception()
        if isinstance(exc, ArenaError):  # a BundleError, typically
            raise ArenaError(f"match {job.match_id} on the Dask cluster: {exc}") from None
        if type(exc).__name__ == "KilledWorker":
            raise MatchError(job.match_id, f"the Dask workers playing it died again and again "
                                           f"({exc}); see the workers' logs") from None
        details = "".join(traceback.format_exception(type(exc), exc, future.traceback()))
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
           "cached_bot_folder", "pack_folder", "play_on_worker"]
