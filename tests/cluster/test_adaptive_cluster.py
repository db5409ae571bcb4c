"""An adaptive tournament on a real Dask ``LocalCluster`` plans and stores what the local pool
does: the same batches of duplicate sets, match for match, and the same stop, with a bot that
always crashes in the field; and it suspends that bot as the local pool does."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("distributed", reason="needs arena[cluster] (dask[distributed])")

from tournaments.cluster import DaskBackend
from tournaments.config import load_config
from tournaments.run import RunResult, prepare, run_tournament
from tournaments.store import SUSPENDED, Store

from ..tournaments.conftest import small_config, write_config
from ..tournaments.test_run import comparable_rows

pytestmark = [pytest.mark.cluster, pytest.mark.slow]


def run_both(tmp_path: Path, client: object, data: dict[str, Any]) -> tuple[RunResult, RunResult]:
    config = load_config(write_config(tmp_path / "t.toml", data))
    local = run_tournament(prepare(config, tmp_path / "local"), workers=2, progress=False)
    with DaskBackend(client) as backend:
        assert backend.workers == 2  # the same batch size as the local pool's two workers
        remote = run_tournament(prepare(config, tmp_path / "dask"), backend=backend,
                                progress=False)
    return local, remote


@pytest.mark.timeout(300)
def test_the_cluster_plays_the_adaptive_plan_of_the_local_pool(tmp_path: Path, client: object,
                                                                bots: dict[str, Path]) -> None:
    """Never suspended (``suspend_after = 0``): which of a bot's matches had started when its
    last failure came depends on the workers' pace (docs/tournaments.md, *Suspension*)."""
    data = small_config([bots["alpha"], bots["beta"], bots["first"], bots["crash"]])
    data["format"] = {"type": "adaptive", "players": 2, "max_matches": 40, "suspend_after": 0}
    local, remote = run_both(tmp_path, client, data)
    assert local.summary is not None and remote.summary == local.summary
    assert local.summary.ranking[-1] == "crash"  # it lost every match, and is ranked last
    assert remote.outcome == local.outcome == "complete" and remote.done == local.done > 0
    assert comparable_rows(tmp_path / "dask") == comparable_rows(tmp_path / "local")


@pytest.mark.timeout(300)
def test_the_cluster_suspends_a_bot_that_always_fails_and_the_plan_goes_on_without_it(
        tmp_path: Path, client: object, bots: dict[str, Path]) -> None:
    data = small_config([bots["alpha"], bots["beta"], bots["first"], bots["crash"]])
    data["format"] = {"type": "adaptive", "players": 2, "max_matches": 40}
    local, remote = run_both(tmp_path, client, data)
    for run, output in ((local, "local"), (remote, "dask")):
        assert run.outcome == "complete" and run.summary is not None
        assert "crash" not in run.summary.ranking and len(run.summary.ranking) == 3
        with Store.open(tmp_path / output) as store:
            crash = next(e.id for e in store.field.entrants() if e.name == "crash")
            assert store.field.latest()[crash].state == SUSPENDED
