"""A match task that fails on a worker (not a bot's failure: arena's own) ends the run with what
the worker raised: arena's refusal as its one line, anything else as a ``MatchError`` with the
worker's traceback, and workers that died under the match again and again as such."""
from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

pytest.importorskip("distributed", reason="needs arena[cluster] (dask[distributed])")

import dask

from arena.bots import load_bot
from arena.errors import ArenaError
from tournaments.backends import MatchError, MatchJob
from tournaments.cluster import DaskBackend

from ..tournaments.conftest import HASH_BOT, make_bot
from .conftest import distributed, start_cluster

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

# The hash bot, thinking 30 ms a move: a match lasts long enough to be caught in flight.
SLOW_BOT = HASH_BOT.replace("def choose(observation, legal):",
                            "import time\n\ndef choose(observation, legal):\n    time.sleep(0.03)")


def job(bots: dict[str, Path], **changes: Any) -> MatchJob:
    fields: dict[str, Any] = {
        "match_id": 1, "game": "block", "options": {"single_deal": True}, "seed": 7,
        "bots": (load_bot(bots["alpha"]), load_bot(bots["beta"])),
    }
    return MatchJob(**{**fields, **changes})


def test_arena_refusing_a_match_on_a_worker_is_its_one_line(client: Any,
                                                            bots: dict[str, Path]) -> None:
    with DaskBackend(client) as backend:
        with pytest.raises(ArenaError, match=r"^match 1 on the Dask cluster: unknown game "
                                             r"'no-such-game'; known games: "):
            list(backend.run([job(bots, game="no-such-game")]))


def test_a_match_that_raises_on_a_worker_is_a_match_error_with_its_traceback(
        client: Any, bots: dict[str, Path]) -> None:
    with DaskBackend(client) as backend:
        with pytest.raises(MatchError) as raised:
            list(backend.run([job(bots, limits={"no_such_limit": 1})]))
    assert raised.value.match_id == 1
    text = str(raised.value)
    assert "TypeError" in text and "no_such_limit" in text
    assert "in play_on_worker" in text and "in play_job" in text  # the worker's own traceback


def test_a_match_whose_workers_keep_dying_is_a_match_error(tmp_path: Path,
                                                           bot_cache: Path) -> None:
    """With ``allowed-failures`` 0, the first worker killed under the match is one too many."""
    folder = tmp_path / "bots"
    slow = {"alpha": make_bot(folder, "alpha", SLOW_BOT, "a"),
            "beta": make_bot(folder, "beta", SLOW_BOT, "b")}
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), start_cluster() \
            as cluster, distributed.Client(cluster, set_as_default=False) as client:
        killed: list[int] = []
        done = threading.Event()

        def kill_the_busy_worker() -> None:  # once its match's bots have started
            pids = client.run(os.getpid)
            while not done.is_set():
                for address, keys in client.processing().items():
                    if keys and psutil.Process(pids[address]).children(recursive=True):
                        os.kill(pids[address], signal.SIGKILL)
                        killed.append(pids[address])
                        return
                time.sleep(0.005)

        killer = threading.Thread(target=kill_the_busy_worker, daemon=True)
        with DaskBackend(client) as backend:
            killer.start()
            try:
                with pytest.raises(MatchError, match="the Dask workers playing it died again "
                                                     "and again"):
                    list(backend.run([job(slow)]))
            finally:
                done.set()
                killer.join()
        assert killed
        client.wait_for_workers(2, timeout=30)   # the nanny restarted the killed one
