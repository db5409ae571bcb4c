"""Cluster runs as an operator makes them, on real ``dask scheduler`` and ``dask worker``
processes (with nannies) on 127.0.0.1: workers restarted by their nannies, strangers joining
mid-run, addresses that are not a scheduler, and a scheduler without workers. No case may hang:
every wait here is bounded, and a run that does not end in time is aborted and fails."""
from __future__ import annotations

import http.server
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("distributed", reason="needs arena[cluster] (dask[distributed])")

from tournaments.backends import Finished, MatchJob
from tournaments.cluster import DaskBackend
from tournaments.config import load_config
from tournaments.run import prepare, run_tournament
from tournaments.store import Store

from ..tournaments.conftest import FIRST_BOT, HASH_BOT, make_bot, small_config, write_config
from ..tournaments.test_run import comparable_rows, ratings_of
from .conftest import distributed
from .processes import ROOT, Cluster, arena_copy, free_port, no_arena, wait_for

pytestmark = [pytest.mark.cluster, pytest.mark.slow]  # real dask processes, seconds each

SLOW_BOT = HASH_BOT.replace("def choose(observation, legal):",
                            "import time\n\ndef choose(observation, legal):\n    time.sleep(0.03)")
TOTAL = 6          # 3 entrants: 3 pairs x 2 seats
RUN_LIMIT = 50.0   # seconds: a run that takes longer is aborted (and the test fails)


@pytest.fixture
def setup(tmp_path: Path, bot_cache: Path) -> dict[str, Any]:
    folder = tmp_path / "bots"
    entrants = [make_bot(folder, "alpha", SLOW_BOT, "a"), make_bot(folder, "beta", SLOW_BOT, "b"),
                make_bot(folder, "first", FIRST_BOT)]
    config = write_config(tmp_path / "t.toml", small_config(entrants))
    reference = tmp_path / "local"
    assert run_tournament(prepare(load_config(config), reference), workers=2,
                          progress=False).done == TOTAL
    logs = tmp_path / "logs"
    logs.mkdir()
    return {"config": config, "rows": comparable_rows(reference),
            "ratings": ratings_of(reference), "logs": logs}


class Hook:
    """Passes results through and calls ``hook(i)`` after the i-th; aborts the run after
    ``RUN_LIMIT`` seconds so that a hang fails the test instead of hanging it."""

    name = "hook"

    def __init__(self, inner: DaskBackend, hook: Any) -> None:
        self.inner, self.hook = inner, hook
        self.workers = inner.workers
        self.last_result = 0.0

    def attach(self, say: Any, status: Any) -> None:
        self.inner.attach(say, status)

    def run(self, jobs: Iterable[MatchJob]) -> Iterator[Finished]:
        guard = threading.Timer(RUN_LIMIT, self.inner.abort)
        guard.start()
        try:
            for i, finished in enumerate(self.inner.run(jobs), 1):
                self.hook(i)
                self.last_result = time.monotonic()
                yield finished
        finally:
            guard.cancel()

    @property
    def builds(self) -> bool:
        return bool(self.inner.builds)

    def session(self) -> Any:
        return self.inner.session()

    def stop(self) -> None:
        self.inner.stop()

    def abort(self) -> None:
        self.inner.abort()


def _workers(client: Any) -> dict[str, str]:
    """name -> address of the workers connected now."""
    info = client.scheduler_info(n_workers=-1)["workers"]
    return {str(w["name"]): address for address, w in info.items()}


def test_a_run_goes_on_when_every_worker_died_and_came_back(setup: dict[str, Any],
                                                            tmp_path: Path) -> None:
    """Issue 19.1: both workers' processes are killed mid-run; their nannies start them again
    under new addresses; the matches held for the dead addresses go to the new ones."""
    output = tmp_path / "dask"
    with Cluster(setup["logs"]) as cluster:
        cluster.add_worker("w1")
        cluster.add_worker("w2")
        with distributed.Client(cluster.address, set_as_default=False, timeout=30) as client:
            client.wait_for_workers(2, timeout=30)
            killed: dict[str, int] = {}

            def kill_all(i: int) -> None:
                if i == 1:
                    killed.update(client.run(os.getpid))
                    for pid in killed.values():
                        os.kill(pid, signal.SIGKILL)

            with DaskBackend(cluster.address) as backend:
                result = run_tournament(prepare(load_config(setup["config"]), output),
                                        backend=Hook(backend, kill_all), progress=False)
            assert killed
            restarted = set(_workers(client).values())
    assert (result.outcome, result.done) == ("complete", TOTAL), result
    assert comparable_rows(output) == setup["rows"]
    assert ratings_of(output) == setup["ratings"]
    with Store.open(output) as store:
        by = [m.worker.split(" pid ")[0] for m in store.matches.all()]
    later = [w for w in by if w not in killed]
    assert later and set(later) <= restarted   # the workers the nannies started again played on


def test_a_worker_without_arena_or_with_other_arena_code_gets_no_match(
        setup: dict[str, Any], tmp_path: Path) -> None:
    """Issue 19.3: two strangers join mid-run (one without arena, one with the same version
    string but other referee code): each is named in a warning and plays nothing, and the run
    ends as soon as its last match is stored."""
    output = tmp_path / "dask"
    other = arena_copy(tmp_path / "other")
    missing = no_arena(tmp_path / "missing")
    said: list[str] = []
    with Cluster(setup["logs"]) as cluster:
        cluster.add_worker("good")
        with distributed.Client(cluster.address, set_as_default=False, timeout=30) as client:
            client.wait_for_workers(1, timeout=30)

            def strangers_join(i: int) -> None:
                if i == 1:   # the run holds here until both are connected
                    cluster.add_worker("other-code", other)
                    cluster.add_worker("no-arena", missing)
                    wait_for(lambda: "other-code" in _workers(client)
                             and "failure-to-start" in cluster.log("no-arena"), 40,
                             "the strangers joining")
                    # and until the run has looked at the stranger that stays (as it does
                    # every POLL_SECONDS), so that the rest of the run could go to it
                    stranger = _workers(client)["other-code"]

                    def looked() -> bool:
                        backend._look(force=True)
                        return stranger in backend._refused or stranger in backend._verified

                    wait_for(looked, 20, "the run's look at the stranger")

            with DaskBackend(cluster.address) as backend:
                hook = Hook(backend, strangers_join)
                result = run_tournament(prepare(load_config(setup["config"]), output),
                                        backend=hook, progress=False, say=said.append)
                ended = time.monotonic()
            names = _workers(client)
        cluster_log = cluster.log("no-arena")
    assert (result.outcome, result.done) == ("complete", TOTAL), (result, said)
    assert ended - hook.last_result < 5.0        # no stall after the last match
    assert comparable_rows(output) == setup["rows"]
    with Store.open(output) as store:
        assert {m.worker.split(" pid ")[0] for m in store.matches.all()} == {names["good"]}
    warnings = [line for line in said if line.startswith("warning: Dask worker")]
    other_line = [w for w in warnings if names["other-code"] in w]
    assert len(other_line) == 1, said
    assert "gets no matches: it runs other arena code (fingerprint" in other_line[0]
    # A worker without arena cannot even unpickle the run's plugin: Dask stops it as it starts
    # (its nanny starts it again, and again). If the run saw it meanwhile, it said so.
    others = [w for w in warnings if w not in other_line]
    assert all("cannot run arena's check" in w and "is arena installed there?" in w
               for w in others), said
    assert "failure-to-start" in cluster_log


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "arena", *args]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.fixture
def not_schedulers() -> Iterator[dict[str, int]]:
    """An HTTP server (as the dashboard on 8787, or a proxy) and a listener that says nothing."""
    http_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                  http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=http_server.serve_forever, daemon=True).start()
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    chatty = socket.socket()     # a server that speaks first, but not Dask (as SSH, SMTP, ...)
    chatty.bind(("127.0.0.1", 0))
    chatty.listen(8)

    def greet() -> None:
        while True:
            try:
                conn, _ = chatty.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")

    threading.Thread(target=greet, daemon=True).start()
    try:
        yield {"http": http_server.server_address[1], "silent": silent.getsockname()[1],
               "chatty": chatty.getsockname()[1]}
    finally:
        http_server.shutdown()
        http_server.server_close()
        silent.close()
        chatty.close()


@pytest.mark.parametrize("kind, expected", [
    ("http", "is not a Dask scheduler: it accepted the connection but said nothing"),
    ("chatty", "is not a Dask scheduler: it answered with something else"),
    ("silent", "is not a Dask scheduler: it accepted the connection but said nothing"),
    ("nothing", "nothing listens there"),
    ("http://127.0.0.1:8786", "must start with tcp:// or tls://, not http://"),
    ("tcp://127.0.0.1:port", "the port 'port' is not a number"),
    ("", "the Dask scheduler address is empty"),
])
def test_an_address_that_is_no_scheduler_is_one_line_and_exit_2(
        kind: str, expected: str, not_schedulers: dict[str, int], setup: dict[str, Any],
        tmp_path: Path) -> None:
    """Issue 19.2: within a bounded time, one line, exit 2, no traceback (not even the one a
    half-made Dask client prints when it is collected)."""
    ports = {**not_schedulers, "nothing": free_port()}
    address = f"tcp://127.0.0.1:{ports[kind]}" if kind in ports else kind
    started = time.monotonic()
    done = subprocess.run(_cli("tournament", "run", str(setup["config"]), "-q", "--output",
                               str(tmp_path / "out"), "--cluster", address),
                          capture_output=True, text=True, timeout=40, env=_env(), cwd=tmp_path)
    assert time.monotonic() - started < 30
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert expected in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_without_workers_the_run_says_it_waits_and_one_ctrl_c_stops_it(
        setup: dict[str, Any], tmp_path: Path) -> None:
    """Issue 19.4."""
    with Cluster(setup["logs"]) as cluster:
        proc = subprocess.Popen(_cli("tournament", "run", str(setup["config"]), "--output",
                                     str(tmp_path / "out"), "--cluster", cluster.address),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=_env(), cwd=tmp_path)
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(proc.stderr or []), daemon=True)
        reader.start()
        try:
            wait_for(lambda: any("waiting for Dask workers" in line for line in lines), 30,
                     f"the waiting line ({lines})")
            proc.send_signal(signal.SIGINT)   # once
            started = time.monotonic()
            proc.wait(timeout=15)
            assert time.monotonic() - started < 5
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        reader.join(5)
    assert proc.returncode == 130, lines
    assert any("stopped: 0 of 6 matches played" in line for line in lines), lines


def test_a_worker_s_address_is_not_taken_for_the_scheduler_s(setup: dict[str, Any],
                                                             tmp_path: Path) -> None:
    """A worker speaks Dask too; a client connected to it would fail with two tracebacks."""
    with Cluster(setup["logs"]) as cluster:
        cluster.add_worker("w1")
        with distributed.Client(cluster.address, set_as_default=False, timeout=30) as client:
            client.wait_for_workers(1, timeout=30)
            worker = next(iter(client.nthreads()))
        done = subprocess.run(_cli("tournament", "run", str(setup["config"]), "-q", "--output",
                                   str(tmp_path / "out"), "--cluster", worker),
                              capture_output=True, text=True, timeout=40, env=_env(), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (f"arena: error: {worker!r} is a Dask Worker, not the "
                                   f"scheduler; its scheduler is at {cluster.address}")
