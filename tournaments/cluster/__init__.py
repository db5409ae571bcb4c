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

Modules: :mod:`.bundles` (packing a bot folder; unpacking, verifying and caching it on a worker),
:mod:`.worker` (what runs on a worker: the run's plugin, the match task, the check of its code),
:mod:`.addresses` (the scheduler's address, and what listens there), :mod:`.backend`
(:class:`DaskBackend`, the parent's side).
"""
from __future__ import annotations

from typing import Any

from tournaments.cluster.addresses import check_address
from tournaments.cluster.backend import DaskBackend, describe_refusal
from tournaments.cluster.bundles import (
    CACHE_ENV,
    Bundle,
    BundleError,
    bot_folder,
    cache_root,
    forget_verified,
    pack_folder,
)
from tournaments.cluster.worker import cached_bot_folder, code_fingerprint, play_on_worker, warm_handed_out, worker_info


def __getattr__(name: str) -> Any:
    if name == "BundlePlugin":  # made on first use: Dask is optional
        from tournaments.cluster import worker
        return worker.BundlePlugin
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["CACHE_ENV", "Bundle", "BundleError", "DaskBackend", "bot_folder", "cache_root",
           "cached_bot_folder", "check_address", "code_fingerprint", "describe_refusal",
           "forget_verified", "pack_folder", "play_on_worker", "warm_handed_out", "worker_info"]
