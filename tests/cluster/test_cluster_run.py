"""Tournaments on a real Dask ``LocalCluster`` (two worker processes) against the same tournaments
played by the local pool: the stored results and ratings must be identical; resume crosses
between the two; bundles are checked on the workers; the CLI and the TOML key reach the cluster."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("distributed", reason="needs arena[cluster] (dask[distributed])")

from arena.bots import bundled_bot, folder_hash
from arena.cli import cli
from arena.errors import ArenaError
from tournaments import cores
from tournaments.cluster import BundlePlugin, DaskBackend, cached_bot_folder, pack_folder, warm_handed_out
from tournaments.config import load_config
from tournaments.run import prepare, run_tournament
from tournaments.store import Store

from ..tournaments.conftest import make_bot, small_config, write_config
from ..tournaments.test_cores import Claimers
from ..tournaments.test_run import AFFINITY_BOT, StopAfter, check_one_core_per_worker, comparable_rows, ratings_of

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

TOTAL = 12  # 4 entrants: 6 pairs x 2 seats


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory, bots: dict[str, Path]) -> dict[str, Any]:
    """The config, and what the local pool (2 worker processes) stores for it."""
    root = tmp_path_factory.mktemp("cluster-run")
    entrants = [bots["alpha"], bots["beta"], bots["first"], bots["crash"]]
    config = write_config(root / "t.toml", small_config(entrants))
    reference = root / "local"
    result = run_tournament(prepare(load_config(config), reference), workers=2, progress=False)
    assert result.done == TOTAL
    return {"root": root, "config": config, "rows": comparable_rows(reference),
            "ratings": ratings_of(reference)}


def test_the_cluster_stores_what_the_local_pool_stores(setup: dict[str, Any], client: Any) -> None:
    output = setup["root"] / "dask"
    warm_before = sum(client.run(warm_handed_out).values())
    with DaskBackend(client) as backend:
        assert backend.workers == 2
        result = run_tournament(prepare(load_config(setup["config"]), output), backend=backend,
                                progress=False)
    assert (result.outcome, result.played, result.done) == ("complete", TOTAL, TOTAL)
    rows = comparable_rows(output)
    assert [r[0] for r in rows] == list(range(1, TOTAL + 1))   # every match, once
    assert rows == setup["rows"]        # results, statuses, seeds, scores, ranks, decisions
    assert ratings_of(output) == setup["ratings"]
    with Store.open(output) as store:
        matches = store.matches.all()
        workers = {m.worker.split(" pid ")[0] for m in matches}
        # the cluster's workers played (whether both got a match is up to the scheduler)
        assert workers and workers <= set(client.nthreads()), workers
        crashed = [m for m in matches if "crash" in m.statuses]
        assert len(crashed) == 6 and all("exit" in " ".join(m.reasons) for m in crashed)
        record = store.matches.record(1)    # the record names the bots' own folders, not the cache's
        assert {s["path"] for s in record.seats} <= {e.path for e in store.field.entrants()}
        assert [r.backend for r in store.meta.runs()] == [f"dask {client.scheduler.address}"]
    # Each worker started the bots of its next match during the one before, as a local worker
    # does: every match but the first of each worker's chain (at most one per worker at the
    # start, one more where a free worker took a match held back for a busy one at the end).
    warm = sum(client.run(warm_handed_out).values()) - warm_before
    assert warm >= 2 * (TOTAL - 4), warm


def test_resume_crosses_between_the_cluster_and_the_local_pool(setup: dict[str, Any],
                                                               client: Any) -> None:
    output = setup["root"] / "resumed"
    config = load_config(setup["config"])
    with DaskBackend(client) as backend:      # stopped (as by Ctrl-C) after 4 matches
        first = run_tournament(prepare(config, output), backend=StopAfter(backend, 4),
                               progress=False)
    assert first.outcome == "stopped" and 4 <= first.done < TOTAL
    second = run_tournament(prepare(config, output), workers=2, progress=False)  # resumed locally
    assert second.played == TOTAL - first.done and second.done == TOTAL
    assert comparable_rows(output) == setup["rows"]
    assert ratings_of(output) == setup["ratings"]


def test_the_command_line_and_the_toml_key_reach_the_cluster(setup: dict[str, Any],
                                                             cluster: Any, bots: dict[str, Path],
                                                             tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "cli"
    result = runner.invoke(cli, ["tournament", "run", str(setup["config"]), "-q", "--output", str(out),
                                 "--cluster", cluster.scheduler_address])
    assert result.exit_code == 0, result.output
    assert f"playing on the Dask cluster at {cluster.scheduler_address}" in result.output
    assert f"played {TOTAL} matches" in result.output
    assert comparable_rows(out) == setup["rows"] and ratings_of(out) == setup["ratings"]

    config = write_config(tmp_path / "k.toml", small_config(
        [bots["alpha"], bots["first"]], cluster=cluster.scheduler_address, output="k-results"))
    result = runner.invoke(cli, ["tournament", "run", str(config), "-q"])
    assert result.exit_code == 0, result.output
    with Store.open(tmp_path / "k-results") as store:
        assert store.matches.count() == (2, 0)
        assert store.meta.runs()[0].backend == f"dask {cluster.scheduler_address}"


def test_an_unreachable_scheduler_is_a_clear_error_and_writes_nothing(setup: dict[str, Any],
                                                                      tmp_path: Path) -> None:
    with pytest.raises(ArenaError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"):
        DaskBackend("tcp://127.0.0.1:9", connect_timeout=1)
    result = CliRunner().invoke(cli, ["tournament", "run", str(setup["config"]), "-q", "--output",
                                      str(tmp_path / "none"), "--cluster", "tcp://127.0.0.1:9"])
    assert result.exit_code != 0 and "cannot reach the Dask scheduler" in result.output
    assert not (tmp_path / "none").exists()


def test_a_worker_checks_a_bundle_against_its_hash_before_use(client: Any, bots: dict[str, Path],
                                                              bot_cache: Path) -> None:
    alpha, beta = pack_folder(bots["alpha"]), pack_folder(bots["beta"])
    # the right bundle: unpacked once into the worker's cache, verified
    client.register_plugin(BundlePlugin({alpha.digest: alpha.data}), name="test-good")
    folder = client.submit(cached_bot_folder, alpha.digest, pure=False).result()
    assert Path(folder) == bot_cache / alpha.digest and folder_hash(Path(folder)) == alpha.digest
    # a bundle under a key that is not its hash: refused on the worker
    wrong = hashlib.sha256(b"not beta").hexdigest()
    client.register_plugin(BundlePlugin({wrong: beta.data}), name="test-bad")
    try:
        future = client.submit(cached_bot_folder, wrong, pure=False)
        with pytest.raises(ArenaError, match=f"bot bundle {wrong[:12]} unpacks to files whose "
                                             f"hash is {beta.digest[:12]}, not its key: refused"):
            future.result()
        assert not (bot_cache / wrong).exists()
    finally:
        client.unregister_worker_plugin("test-good")
        client.unregister_worker_plugin("test-bad")


def test_a_dask_worker_plays_on_a_core_of_its_own_and_lets_go_after_the_run(
        tmp_path: Path, client: Any) -> None:
    """As a local worker: its bots run on one core, another worker's on another; when the run
    ends the cores are free for any other tournament of the machine."""
    folder = tmp_path / "bots"
    entrants = [make_bot(folder, name, AFFINITY_BOT) for name in ("north", "south", "east")]
    config = write_config(tmp_path / "pin.toml", small_config(entrants))
    with DaskBackend(client) as backend:
        run_tournament(prepare(load_config(config), tmp_path / "out"), backend=backend,
                       progress=False)
    with Store.open(tmp_path / "out") as store:
        by_worker: dict[str, set[str]] = {}
        for match in store.matches.all():
            for tail in match.stderr_tails:
                by_worker.setdefault(match.worker.split(" pid ")[0], set()).add(tail.strip())
    check_one_core_per_worker(by_worker)
    claimers = Claimers()
    try:
        _, claimed, _ = claimers.start(len(cores.available()))
    finally:
        claimers.close()
    assert claimed == sorted(cores.available())  # every core free again


def test_source_bots_are_built_on_the_workers(tmp_path: Path, bots: dict[str, Path], client: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot submitted as source is built by each worker that plays it (in the worker's own build
    cache), never by the machine that starts the run; a failed build is build_failed there too."""
    from arena.games import GAMES
    from arena.kits import write_kit

    local_cache = tmp_path / "local-cache"
    monkeypatch.setenv("ARENA_BUILD_CACHE", str(local_cache))  # the workers were started before
    source = write_kit(tmp_path / "cbot", GAMES["block"], "c")
    broken = write_kit(tmp_path / "broken", GAMES["block"], "c")
    (broken / "main.c").write_text("int main(void) { return x; }\n")
    config = write_config(tmp_path / "t.toml", small_config([bots["alpha"], source, broken]))
    with DaskBackend(client) as backend:
        result = run_tournament(prepare(load_config(config), tmp_path / "out"), backend=backend,
                                progress=False)
    assert result.outcome == "complete"
    with Store.open(result.store) as store:
        names = {e.id: e.name for e in store.field.entrants()}
        for m in store.matches.all():
            for seat, entrant in enumerate(m.seats):
                expected = "build_failed" if names[entrant] == "broken" else "ok"
                assert m.statuses[seat] == expected, (m, names)
    assert not local_cache.exists() or not any(local_cache.iterdir())


def test_the_bundled_random_bots_store_the_same_records_on_the_cluster(
        tmp_path: Path, client: Any) -> None:
    """Issue 19.5: the random bot plays from its hello seed, so the promise "a cluster run stores
    what a local run stores" holds for the bundled bots too (every decision, every event)."""
    folder = bundled_bot("random").path
    entrants = [{"path": str(folder), "name": name} for name in ("r1", "r2", "r3")]
    data = {**small_config([], options={"single_deal": False}), "entrants": entrants}
    config = load_config(write_config(tmp_path / "random.toml", data))
    local = run_tournament(prepare(config, tmp_path / "local"), workers=2, progress=False)
    with DaskBackend(client) as backend:
        remote = run_tournament(prepare(config, tmp_path / "dask"), backend=backend,
                                progress=False)
    assert local.done == remote.done == 6
    rows = comparable_rows(tmp_path / "dask")
    assert rows == comparable_rows(tmp_path / "local")
    assert all(len(r[-1]["decisions"]) > 10 for r in rows)   # whole matches of random play
    assert ratings_of(tmp_path / "dask") == ratings_of(tmp_path / "local")
    with Store.open(tmp_path / "dask") as store, Store.open(tmp_path / "local") as ref:
        for match in store.matches.all():
            assert store.matches.record(match.id).events == ref.matches.record(match.id).events
