"""The watch on a real Dask ``LocalCluster``: new versions and late entrants are played on the
cluster's workers, from their snapshots (bundled by content hash), over one connection."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("distributed", reason="needs arena[cluster] (dask[distributed])")

from tournaments.cluster import DaskBackend
from tournaments.run import Prepared, RunResult, run_tournament
from tournaments.store import Store
from tournaments.watch import Watch

from ..tournaments.conftest import HASH_BOT, make_bot, small_config, write_config
from ..tournaments.test_watch import SETTLE, settle

pytestmark = [pytest.mark.cluster, pytest.mark.slow]


def test_a_watch_plays_new_versions_and_late_entrants_on_the_cluster(tmp_path: Path,
                                                                    client: Any) -> None:
    students = tmp_path / "students"
    ana, bob = make_bot(students, "ana", HASH_BOT, "a"), make_bot(students, "bob", HASH_BOT, "b")
    config = write_config(tmp_path / "class.toml", small_config(["students/*"]))
    out = tmp_path / "out"
    lines: list[str] = []
    with DaskBackend(client) as backend:
        def play(prepared: Prepared) -> RunResult:
            return run_tournament(prepared, backend=backend, progress=False, say=lines.append)

        w = Watch(config, out, play, lines.append, settle=SETTLE)
        settle(ana, bob)
        assert w.look().played == 2
        (ana / "main.py").write_text("# version 2\n" + HASH_BOT)
        cy = make_bot(students, "cy", HASH_BOT, "c")
        settle(ana, cy)
        result = w.look()
    assert result is not None and result.outcome == "complete"
    assert result.played == 4 + 2          # ana v2 against bob and cy; cy against bob
    with Store.open(out) as store:
        played = sorted((m.seats, m.versions) for m in store.matches.current())
        workers = {m.worker.split(" pid ")[0] for m in store.matches.all()}
    assert ((0, 2), (2, 1)) in played and ((2, 0), (1, 2)) in played
    assert workers and workers <= set(client.nthreads()), workers   # played on the cluster


@pytest.mark.timeout(180)
def test_the_watch_command_plays_on_the_cluster_it_is_given(tmp_path: Path, cluster: Any) -> None:
    """`arena tournament run CONFIG --watch --cluster ADDRESS`: the matches are played on the
    cluster (the store's run says so); Ctrl-C ends the watch."""
    import os
    import signal
    import subprocess

    from ..tournaments.test_kill_resume import ARENA, wait_for

    students = tmp_path / "students"
    for name, salt in (("ana", "a"), ("bob", "b"), ("cy", "c")):
        make_bot(students, name, HASH_BOT, salt)
    config = write_config(tmp_path / "class.toml", small_config(["students/*"]))
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [*ARENA, "tournament", "run", str(config), "--watch", "--watch-interval", "0.2",
         "--settle", "0", "--cluster", cluster.scheduler_address, "--output", str(out), "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wait_for(out, 6, proc, timeout=120)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130, err  # Ctrl-C ends a watch as it ends a run
    assert f"playing on the Dask cluster at {cluster.scheduler_address}" in err
    with Store.open(out) as store:
        assert {r.backend for r in store.meta.runs()} == {f"dask {cluster.scheduler_address}"}
