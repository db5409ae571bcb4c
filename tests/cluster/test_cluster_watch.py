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
        played = sorted((m.seats, m.versions) for m in store.current_matches())
        workers = {m.worker.split(" pid ")[0] for m in store.matches()}
    assert ((0, 2), (2, 1)) in played and ((2, 0), (1, 2)) in played
    assert workers and workers <= set(client.nthreads()), workers   # played on the cluster
