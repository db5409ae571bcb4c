"""The worker's side of a cluster run: the run's bundles (``BundlePlugin``), the match task
(:func:`play_on_worker`), the end of a run (:func:`end_of_run`) and the check every worker answers
before it gets a match (:func:`worker_info`, :func:`code_fingerprint`)."""
from __future__ import annotations

import dataclasses
import hashlib
import os
import threading
import time
from pathlib import Path
from typing import Any

import arena
from arena.errors import ArenaError
from tournaments import cores
from tournaments.backends import Finished, MatchJob, play_job
from tournaments.cluster.bundles import BundleError, bot_folder, cache_root
from tournaments.warm import WarmStarts

INSTALL_HINT = "pip install '.[cluster]' in arena's folder"

_lock = threading.Lock()                       # a worker runs tasks in threads


def distributed_package() -> Any:
    """The ``distributed`` package, or a clear error naming the extra that installs it."""
    try:
        import distributed
    except ImportError as exc:
        raise ArenaError(f"running matches on a Dask cluster needs the optional dependency "
                         f"dask[distributed] ({exc}); install it with: {INSTALL_HINT}") from None
    return distributed


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


def bundle_plugin_class() -> type:
    """``BundlePlugin``, a ``distributed.WorkerPlugin`` made on first use (Dask is optional).
    It is reachable as ``tournaments.cluster.worker.BundlePlugin`` (module ``__getattr__``), so
    that it pickles by reference."""
    global _plugin_class
    if _plugin_class is None:
        distributed = distributed_package()

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
        return bundle_plugin_class()
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
                     "tournaments/cluster")
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


# Sent to every worker by this name, which the package exports: a worker that runs another
# version of arena, with its modules laid out otherwise, still answers (and is refused for it).
worker_info.__module__ = "tournaments.cluster"
