"""A Dask worker process killed (SIGKILL) while it plays a match: the scheduler plays the match
again on another worker, the parent stores it once, and the results equal the local run's."""
from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

pytest.importorskip("distributed", reason="needs arena[cluster] (dask[distributed])")

from tournaments.backends import Finished, MatchJob
from tournaments.cluster import DaskBackend
from tournaments.config import load_config
from tournaments.run import prepare, run_tournament
from tournaments.store import Store

from ..tournaments.conftest import FIRST_BOT, HASH_BOT, make_bot, small_config, write_config
from ..tournaments.test_run import comparable_rows, ratings_of
from .conftest import distributed, start_cluster

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

# The hash bot, thinking 30 ms a move: a match lasts long enough to be caught in flight.
SLOW_BOT = HASH_BOT.replace("def choose(observation, legal):",
                            "import time\n\ndef choose(observation, legal):\n    time.sleep(0.03)")
TOTAL = 6  # 3 entrants: 3 pairs x 2 seats


class KillABusyWorker:
    """Passes results through; once ``after`` have come, a watcher thread SIGKILLs a worker
    process in the middle of a match (its bots started) while the run goes on."""

    name = "kill-a-worker"

    def __init__(self, inner: DaskBackend, client: Any, after: int) -> None:
        self.inner, self.client, self.after = inner, client, after
        self.workers = inner.workers
        self.killed: tuple[str, int] | None = None
        self.in_flight: list[int] = []   # the match ids on the killed worker
        self.orphans: list[psutil.Process] = []
        self._go = threading.Event()
        self._done = threading.Event()

    def run(self, jobs: Iterable[MatchJob]) -> Iterator[Finished]:
        watcher = threading.Thread(target=self._watch, daemon=True)
        watcher.start()
        try:
            for i, finished in enumerate(self.inner.run(jobs), 1):
                if i == self.after:
                    self._go.set()
                yield finished
        finally:
            self._done.set()
            watcher.join()

    def _watch(self) -> None:
        self._go.wait()
        pids = self.client.run(os.getpid)
        while not self._done.is_set():
            for address, keys in self.client.processing().items():
                bots = psutil.Process(pids[address]).children(recursive=True)
                if keys and bots:
                    self.in_flight = [int(key.rsplit("-", 1)[1]) for key in keys]
                    self.orphans = bots
                    os.kill(pids[address], signal.SIGKILL)
                    self.killed = (address, pids[address])
                    return
            time.sleep(0.005)

    @property
    def builds(self) -> bool:
        return bool(self.inner.builds)

    def attach(self, say: Any, status: Any) -> None:
        self.inner.attach(say, status)

    def session(self) -> Any:
        return self.inner.session()

    def stop(self) -> None:
        self.inner.stop()

    def abort(self) -> None:
        self.inner.abort()


def test_a_match_on_a_killed_worker_is_played_again_and_stored_once(
        tmp_path: Path, bot_cache: Path) -> None:
    folder = tmp_path / "bots"
    entrants = [make_bot(folder, "alpha", SLOW_BOT, "a"), make_bot(folder, "beta", SLOW_BOT, "b"),
                make_bot(folder, "first", FIRST_BOT)]
    config = load_config(write_config(tmp_path / "t.toml", small_config(entrants)))
    reference = tmp_path / "local"
    assert run_tournament(prepare(config, reference), workers=2, progress=False).done == TOTAL

    output = tmp_path / "dask"
    with start_cluster() as cluster, distributed.Client(cluster, set_as_default=False) as client:
        with DaskBackend(client) as backend:
            killer = KillABusyWorker(backend, client, after=1)
            result = run_tournament(prepare(config, output), backend=killer, progress=False)
        assert killer.killed is not None
        client.wait_for_workers(2, timeout=30)   # the nanny restarted the killed one

    assert (result.outcome, result.played, result.done) == ("complete", TOTAL, TOTAL)
    rows = comparable_rows(output)
    assert [r[0] for r in rows] == list(range(1, TOTAL + 1))   # every match exactly once
    assert rows == comparable_rows(reference)                  # the same results as locally
    assert ratings_of(output) == ratings_of(reference)
    address, pid = killer.killed
    # the killed worker was playing a match (its bots were running): played again elsewhere. The
    # scheduler's list of the worker's tasks may also hold one whose result was already on its
    # way when the kill came, stored from the killed worker, so not every listed match is.
    assert killer.in_flight
    with Store.open(output) as store:
        workers = {match_id: store.matches.get(match_id).worker for match_id in killer.in_flight}
    assert any(worker != f"{address} pid {pid}" for worker in workers.values()), workers
    # the bots of the match it was playing died with it
    _gone, alive = psutil.wait_procs(killer.orphans, timeout=10)
    assert not [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
