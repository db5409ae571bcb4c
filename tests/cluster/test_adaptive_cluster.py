"""An adaptive tournament on a real Dask ``LocalCluster`` plans and stores what the local pool
does: the same batches of duplicate sets, match for match, and the same stop (with a bot that
always crashes in the field, suspended on both)."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="needs arena[cluster] (dask[distributed])")

from tournaments.cluster import DaskBackend
from tournaments.config import load_config
from tournaments.run import prepare, run_tournament
from tournaments.store import SUSPENDED, Store

from ..tournaments.conftest import small_config, write_config
from ..tournaments.test_run import comparable_rows

pytestmark = [pytest.mark.cluster, pytest.mark.slow]


@pytest.mark.timeout(300)
def test_the_cluster_plays_the_adaptive_plan_of_the_local_pool(tmp_path: Path, client: object,
                                                                bots: dict[str, Path]) -> None:
    data = small_config([bots["alpha"], bots["beta"], bots["first"], bots["crash"]])
    data["format"] = {"type": "adaptive", "players": 2, "max_matches": 40}
    config = load_config(write_config(tmp_path / "t.toml", data))
    local = run_tournament(prepare(config, tmp_path / "local"), workers=2, progress=False)
    with DaskBackend(client) as backend:
        assert backend.workers == 2  # the same batch size as the local pool's two workers
        remote = run_tournament(prepare(config, tmp_path / "dask"), backend=backend,
                                progress=False)
    assert local.summary is not None and remote.summary == local.summary
    # a bot that always fails is suspended after 5 failed matches: the plan goes on without it
    assert "crash" not in local.summary.ranking and len(local.summary.ranking) == 3
    for output in ("local", "dask"):
        with Store.open(tmp_path / output) as store:
            crash = next(e.id for e in store.field.entrants() if e.name == "crash")
            assert store.field.latest()[crash].state == SUSPENDED
    assert remote.outcome == local.outcome == "complete" and remote.done == local.done > 0
    assert comparable_rows(tmp_path / "dask") == comparable_rows(tmp_path / "local")
