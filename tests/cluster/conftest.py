"""Fixtures for the cluster tests: a real Dask ``LocalCluster`` (worker processes), a private bot
cache for its workers, and small deterministic bots (the tournament tests' own).

The bots choose from a hash of what they see, so a match replays exactly from its seed and seats:
a tournament on the cluster must store what the same tournament stores locally.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.sandbox.files import temp_base
from tournaments.cluster import CACHE_ENV

from ..tournaments.conftest import CRASH_BOT, FIRST_BOT, HASH_BOT, make_bot

try:
    import distributed
except ImportError:  # the modules that start a cluster skip themselves
    distributed = None
NEEDS_DASK = "needs arena[cluster] (dask[distributed])"


@pytest.fixture(scope="session")
def bot_cache() -> Iterator[Path]:
    """A bundle cache of its own, where the sandbox's bot users can read (as /tmp/arena-bots)."""
    folder = Path(tempfile.mkdtemp(prefix="arena-bots-test-", dir=temp_base()))
    os.chmod(folder, 0o755)
    previous = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(folder)  # inherited by the worker processes started below
    try:
        yield folder
    finally:
        if previous is None:
            os.environ.pop(CACHE_ENV, None)
        else:
            os.environ[CACHE_ENV] = previous
        shutil.rmtree(folder, ignore_errors=True)


def start_cluster() -> Any:
    """Two worker processes of one thread each, as ``dask worker --nthreads 1`` would be."""
    if distributed is None:
        pytest.skip(NEEDS_DASK)
    return distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                    dashboard_address=":0", silence_logs=40)  # a free port (None means 8787)


@pytest.fixture(scope="module")
def cluster(bot_cache: Path) -> Iterator[Any]:
    with start_cluster() as local_cluster:
        yield local_cluster


@pytest.fixture(scope="module")
def client(cluster: Any) -> Iterator[Any]:
    with distributed.Client(cluster, set_as_default=False) as dask_client:
        yield dask_client


@pytest.fixture(scope="module")
def bots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("cluster-bots")
    return {
        "alpha": make_bot(folder, "alpha", HASH_BOT, "a"),
        "beta": make_bot(folder, "beta", HASH_BOT, "b"),
        "first": make_bot(folder, "first", FIRST_BOT),
        "crash": make_bot(folder, "crash", CRASH_BOT),
    }
