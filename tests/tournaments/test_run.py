"""Running tournaments for real: bot subprocesses, worker processes, a SQLite store.

Serial and parallel runs store and rate identically; a stopped run resumes without playing a
match twice; an output folder holding another tournament is refused untouched; a match replays
exactly from the store.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pickle
import re
import shutil
import sqlite3
import textwrap
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.record import MatchRecord
from tournaments.backends import Finished, MatchJob, ProcessBackend, SerialBackend, play_job
from tournaments.config import ConfigError, load_config
from tournaments.ratings import compute_ratings
from tournaments.replay import replay_match
from tournaments.run import prepare, run_tournament
from tournaments.store import STORE_NAME, Store

from .conftest import make_bot, small_config, write_config

pytestmark = pytest.mark.slow  # real tournaments: bot processes, worker processes, a store


def comparable_record(record: MatchRecord) -> dict[str, Any]:
    """A record without its timings, which differ from run to run."""
    data = record.to_dict()
    data.pop("duration_ms")
    for d in data["decisions"]:
        d.pop("ms")
    for s in data["statuses"]:
        s.pop("time_ms")
    return data


def comparable_rows(output: Path) -> list[tuple[Any, ...]]:
    with Store.open(output) as store:
        return [(m.id, m.round, m.table, m.rotation, m.deal, m.seed, m.seats, m.scores, m.ranks,
                 m.statuses, m.reasons, m.stderr_tails, comparable_record(store.matches.record(m.id)))
                for m in store.matches.all()]


def ratings_of(output: Path) -> Any:
    with Store.open(output) as store:
        ratings = compute_ratings(store)
    return ([(s.entrant.name, s.mu, s.sigma, s.matches, s.wins) for s in ratings.standings],
            ratings.history)


class StopAfter:
    """A backend that asks its inner backend to stop (like a Ctrl-C) after ``count`` results."""

    name = "stop-after"

    def __init__(self, inner: Any, count: int) -> None:
        self.inner, self.count = inner, count
        self.workers = getattr(inner, "workers", 1)

    def run(self, jobs: Iterable[MatchJob]) -> Iterator[Finished]:
        for i, finished in enumerate(self.inner.run(jobs), 1):
            yield finished
            if i == self.count:
                self.inner.stop()

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


@pytest.fixture()
def config_path(tmp_path: Path, bots: dict[str, Path]) -> Path:
    entrants = [bots["alpha"], bots["beta"], bots["gamma"], bots["first"]]
    return write_config(tmp_path / "t.toml", small_config(entrants))


@pytest.mark.parametrize("start_ahead", [False, True])
def test_parallel_and_serial_runs_store_and_rate_identically(config_path: Path, tmp_path: Path,
                                                             start_ahead: bool) -> None:
    config = load_config(config_path)
    serial = run_tournament(prepare(config, tmp_path / "serial"), backend=SerialBackend(),
                            progress=False)
    backend = ProcessBackend(2)
    backend.start_ahead = start_ahead  # workers start the next match's bots during this one
    parallel = run_tournament(prepare(config, tmp_path / "parallel"), backend=backend,
                              progress=False)
    assert serial.outcome == parallel.outcome == "complete"
    assert serial.done == parallel.done == serial.total == 12
    assert comparable_rows(tmp_path / "serial") == comparable_rows(tmp_path / "parallel")
    assert ratings_of(tmp_path / "serial") == ratings_of(tmp_path / "parallel")
    with Store.open(tmp_path / "parallel") as store:
        assert [(r.backend, r.workers) for r in store.meta.runs()] == [("processes", 2)]
        workers = {m.worker for m in store.matches.all()}
        assert 1 <= len(workers) <= 2 and all(w.startswith("pid ") for w in workers), workers


def test_the_store_read_api(config_path: Path, tmp_path: Path, bots: dict[str, Path]) -> None:
    prepared = prepare(load_config(config_path), tmp_path / "out")
    run_tournament(prepared, workers=2, progress=False)
    with Store.open(tmp_path / "out") as store:
        assert store.meta.config() == dataclasses.replace(prepared.config)
        entrants = store.field.entrants()
        assert [(e.id, e.name) for e in entrants] == [(0, "alpha"), (1, "beta"), (2, "gamma"),
                                                      (3, "first")]
        assert entrants[0].content_hash == prepared.bots[0].content_hash()
        assert entrants[0].path == str(bots["alpha"].resolve())
        matches = store.matches.all()
        assert [m.id for m in matches] == list(range(1, 13)) and store.meta.planned == 12
        for m, planned in zip(matches, prepared.schedule.matches):
            assert (m.seats, m.seed, m.deal) == (planned.seats, planned.seed, planned.deal)
            record = store.matches.record(m.id)
            assert record.seed == m.seed and list(m.ranks) == record.ranks
            assert [s["name"] for s in record.seats] == [entrants[e].name for e in m.seats]
            assert m.statuses == ("ok", "ok") and m.startup_ms > 0 and m.wall_ms >= m.startup_ms
        assert store.matches.count() == (12, 0)
        assert [r.outcome for r in store.meta.runs()] == ["complete"]
        ratings = compute_ratings(store)
        assert len(ratings.history) == 12 and ratings.rated == ratings.planned == 12


def test_failures_are_stored_and_counted(tmp_path: Path, bots: dict[str, Path]) -> None:
    path = write_config(tmp_path / "t.toml", small_config([bots["alpha"], bots["crash"]]))
    result = run_tournament(prepare(load_config(path)), workers=2, progress=False)
    assert result.failures == 2
    with Store.open(result.store) as store:
        for m in store.matches.all():
            seat = m.seats.index(1)
            assert m.statuses[seat] == "crash" and m.ranks[seat] == 2
            assert "giving up" in m.stderr_tails[seat] and "exited" in m.reasons[seat]
        ratings = compute_ratings(store)
    assert ratings.standings[-1].entrant.name == "crash"
    assert ratings.standings[-1].failures == {"crash": 2}


def test_a_stopped_run_resumes_without_playing_a_match_twice(config_path: Path, tmp_path: Path) -> None:
    prepared = prepare(load_config(config_path), tmp_path / "out")
    first = run_tournament(prepared, backend=StopAfter(ProcessBackend(2), 3), progress=False)
    assert first.outcome == "stopped" and 3 <= first.done < first.total
    stored_first = comparable_rows(tmp_path / "out")
    second = run_tournament(prepare(load_config(config_path), tmp_path / "out"), workers=2,
                            progress=False)
    assert second.outcome == "complete" and second.played == second.total - first.done
    rows = comparable_rows(tmp_path / "out")
    assert [r[0] for r in rows] == list(range(1, 13))
    assert [r for r in rows if r[0] in {s[0] for s in stored_first}] == stored_first
    with Store.open(tmp_path / "out") as store:
        assert [r.outcome for r in store.meta.runs()] == ["stopped", "complete"]
    # a finished tournament plays nothing more
    third = run_tournament(prepare(load_config(config_path), tmp_path / "out"), progress=False)
    assert third.played == 0 and third.outcome == "complete"


def file_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.iterdir()):
        if path.name.startswith("tournament.sqlite"):
            digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()


def test_a_different_tournament_is_refused_and_nothing_is_overwritten(
        config_path: Path, tmp_path: Path, bots: dict[str, Path]) -> None:
    out = tmp_path / "out"
    run_tournament(prepare(load_config(config_path), out), backend=SerialBackend(), progress=False)
    before = file_digest(out)
    given = 8_000_000_000_000_000_123
    data = small_config([bots["alpha"], bots["beta"], bots["gamma"], bots["first"]], seed=given)
    other = write_config(tmp_path / "other.toml", data)
    with pytest.raises(ConfigError, match=r"holds a different tournament: its 'seed' differs from "
                                          r"this config's; use another output folder") as error:
        run_tournament(prepare(load_config(other), out), progress=False)
    assert str(given) not in str(error.value)  # seeds are secrets, even in an error
    data = small_config([bots["alpha"], bots["beta"], bots["gamma"], bots["first"]],
                        format={"rounds": 2})
    with pytest.raises(ConfigError, match=r"'format.rounds' is 1 there but 2"):
        run_tournament(prepare(load_config(write_config(tmp_path / "o2.toml", data)), out),
                       progress=False)
    assert file_digest(out) == before
    # a changed bot is a new version of its entrant, no longer a different tournament:
    # tests/tournaments/test_versions.py
    # workers and output are not part of a tournament's identity
    assert load_config(config_path).identity() == \
        dataclasses.replace(load_config(config_path), workers=5, output="elsewhere").identity()


def test_a_match_replays_exactly(config_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_tournament(prepare(load_config(config_path), out), backend=SerialBackend(), progress=False)
    replay = replay_match(out, 5)
    assert replay.stored is not None and replay.warnings == []
    assert comparable_record(replay.replayed) == comparable_record(replay.stored)
    assert replay.comparison().startswith("identical to the stored match: same luck")


def test_store_is_a_single_sqlite_file_in_wal_mode(config_path: Path, tmp_path: Path) -> None:
    import sqlite3
    out = tmp_path / "out"
    run_tournament(prepare(load_config(config_path), out), backend=StopAfter(SerialBackend(), 2),
                   progress=False)
    conn = sqlite3.connect(out / STORE_NAME)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    config = json.loads(conn.execute("SELECT value FROM meta WHERE key='config'").fetchone()[0])
    assert config["seed"] == 7 and config["format"]["players"] == 2
    conn.close()


class KillAWorker:
    """After the first result, SIGKILL the worker still playing (as the OOM killer might)."""

    name = "kill-a-worker"

    def __init__(self, inner: ProcessBackend) -> None:
        self.inner, self.workers = inner, inner.workers
        self.killed: list[int] = []

    def run(self, jobs: Iterable[MatchJob]) -> Iterator[Finished]:
        import os
        import signal

        import psutil
        for finished in self.inner.run(jobs):
            if not self.killed:
                busy = [p.pid for p in psutil.Process().children()
                        if "spawn_main" in " ".join(p.cmdline())  # a worker, not the tracker
                        and f"pid {p.pid}" != finished.worker]  # the other one is mid-match
                self.killed.append(busy[0])
                os.kill(busy[0], signal.SIGKILL)
            yield finished

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


def test_a_worker_killed_mid_run_is_replaced_and_its_match_played_again(
        config_path: Path, tmp_path: Path) -> None:
    config = load_config(config_path)
    backend = KillAWorker(ProcessBackend(2))
    result = run_tournament(prepare(config, tmp_path / "killed"), backend=backend, progress=False)
    assert backend.killed and result.outcome == "complete" and result.done == 12
    run_tournament(prepare(config, tmp_path / "serial"), backend=SerialBackend(), progress=False)
    assert comparable_rows(tmp_path / "killed") == comparable_rows(tmp_path / "serial")


class Twice:
    """A backend that delivers every result twice (as a retried remote task might)."""

    name = "twice"
    workers = 1

    def __init__(self) -> None:
        self.inner = SerialBackend()

    def run(self, jobs: Iterable[MatchJob]) -> Iterator[Finished]:
        for finished in self.inner.run(jobs):
            yield finished
            yield finished

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


def test_a_result_delivered_twice_is_stored_once(config_path: Path, tmp_path: Path) -> None:
    result = run_tournament(prepare(load_config(config_path), tmp_path / "out"), backend=Twice(),
                            progress=False)
    assert result.outcome == "complete" and result.played == result.done == 12


def test_between_runs_the_store_file_alone_holds_everything(config_path: Path, tmp_path: Path) -> None:
    """The write-ahead log is folded back when a run ends (readers afterwards may leave an empty
    one behind): copying tournament.sqlite alone is enough."""
    run_tournament(prepare(load_config(config_path), tmp_path / "out"), backend=SerialBackend(),
                   progress=False)
    with Store.open(tmp_path / "out") as reader:  # as `arena ratings` and the report do
        compute_ratings(reader)
    wal = tmp_path / "out" / "tournament.sqlite-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    alone = tmp_path / "copy"
    alone.mkdir()
    shutil.copy(tmp_path / "out" / "tournament.sqlite", alone / "tournament.sqlite")
    with Store.open(alone) as store:
        assert store.matches.count()[0] == 12


AFFINITY_BOT = textwrap.dedent('''
    import os, sys
    from protocol.sdk import run

    sys.stderr.write(f"cores {sorted(os.sched_getaffinity(0))}\\n")
    run(lambda observation, legal: legal[0])
''')


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores to tell them apart")
def test_each_match_runs_on_its_workers_core(tmp_path: Path) -> None:
    """The bots inherit their worker's core (read inside the sandbox, kept in the stderr tails)."""
    folder = tmp_path / "bots"
    entrants = [make_bot(folder, name, AFFINITY_BOT) for name in ("north", "south", "east")]
    config = write_config(tmp_path / "pin.toml", small_config(entrants, cores_per_match=1))
    prepared = prepare(load_config(config), tmp_path / "out")
    run_tournament(prepared, backend=ProcessBackend(2, cores_per_match=1), progress=False)
    with Store.open(tmp_path / "out") as store:
        by_worker: dict[str, set[str]] = {}
        for match in store.matches.all():
            for tail in match.stderr_tails:
                by_worker.setdefault(match.worker, set()).add(tail.strip())
    check_one_core_per_worker(by_worker)


def check_one_core_per_worker(by_worker: dict[str, set[str]]) -> None:
    """Every worker's bots ran on one core, each worker's on another. (Whether both workers got
    a match depends on how the system schedules them, so it is not asked.)"""
    assert 1 <= len(by_worker) <= 2, by_worker
    for worker, tails in by_worker.items():
        assert len(tails) == 1, (worker, tails)                           # always the same core
        assert re.fullmatch(r"cores \[\d+\]", next(iter(tails))), tails  # and only one
    seen = [next(iter(tails)) for tails in by_worker.values()]
    assert len(set(seen)) == len(seen), by_worker                      # not another worker's


def test_a_worker_gets_its_next_match_before_the_last_one_is_stored(config_path: Path) -> None:
    """While the parent stores a result (the consumer holds it), its worker already plays on."""
    prepared = prepare(load_config(config_path))
    jobs = [prepared.job(m) for m in prepared.schedule.matches[:3]]
    backend = ProcessBackend(1)
    results = backend.run(jobs)
    try:
        first = next(results)
        (worker,) = backend._pool
        assert first.match_id == jobs[0].match_id
        assert worker.job is not None and worker.job.match_id == jobs[1].match_id
        assert [f.match_id for f in results] == [jobs[1].match_id, jobs[2].match_id]
    finally:
        results.close()


def test_a_finished_match_travels_packed_as_the_store_keeps_it(config_path: Path) -> None:
    """A worker sends the record encoded as the store keeps it; the parent decodes the same record
    and stores those bytes without encoding them again."""
    prepared = prepare(load_config(config_path))
    finished = play_job(prepared.job(prepared.schedule.matches[0]))
    sent = pickle.dumps(finished)
    received = pickle.loads(sent)
    # the same record, but for the bot folders, which the packed form leaves out (the store has
    # them in its entrants table; docs/match-record.md, "Packed form")
    expected = finished.record.to_dict()
    for seat in expected["seats"]:
        del seat["path"]
    assert received.record.to_dict() == expected and received.record.decisions
    assert received._packed == finished.record.pack()
    assert received.packed() is received._packed  # not packed again
    assert len(sent) < len(pickle.dumps(finished.record)) / 2


def test_a_tournament_without_a_seed_gets_a_secret_one_and_keeps_it(
        tmp_path: Path, bots: dict[str, Path]) -> None:
    data = small_config([bots["alpha"], bots["beta"]])
    del data["seed"]
    path = write_config(tmp_path / "secret.toml", data)
    first = prepare(load_config(path), tmp_path / "a")
    other = prepare(load_config(path), tmp_path / "b")
    assert first.config.seed != other.config.seed  # drawn at random, not a published default
    assert first.config.seed.bit_length() > 32
    run_tournament(first, backend=SerialBackend(), progress=False)
    with Store.open(tmp_path / "a") as store:
        assert store.meta.config().seed == first.config.seed
        records = [store.matches.record(i) for i in store.matches.ids()]
    # resuming reads the seed back from the store: the same schedule and deals
    again = prepare(load_config(path), tmp_path / "a")
    assert again.config.seed == first.config.seed
    assert [m.seed for m in again.schedule.matches] == [m.seed for m in first.schedule.matches]
    # what is published holds per-match seeds only, and none is the tournament seed
    assert all(r.seed != first.config.seed for r in records)
    assert str(first.config.seed) not in "".join(r.to_json() for r in records)


def test_a_store_of_the_older_format_is_refused_with_the_reason(
        config_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_tournament(prepare(load_config(config_path), out), backend=SerialBackend(), progress=False)
    conn = sqlite3.connect(out / STORE_NAME, isolation_level=None)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'format'",
                 (json.dumps("arena-tournament-store/1"),))
    conn.close()
    before = (out / STORE_NAME).read_bytes()
    with pytest.raises(Exception, match="made by an older arena .* cannot be resumed"):
        run_tournament(prepare(load_config(config_path), out), progress=False)
    assert (out / STORE_NAME).read_bytes() == before


def test_source_bots_are_built_once_before_the_matches(tmp_path: Path, bots: dict[str, Path],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A C bot submitted as source plays from its build (made once, before any match, cached by
    content hash); a bot whose build fails loses every match as build_failed, said up front."""
    from arena import build
    from arena.games import GAMES
    from arena.kits import write_kit

    monkeypatch.setenv("ARENA_BUILD_CACHE", str(tmp_path / "cache"))
    build.forget_failures()
    source = write_kit(tmp_path / "cbot", GAMES["block"], "c")
    broken = write_kit(tmp_path / "broken", GAMES["block"], "c")
    (broken / "main.c").write_text("int main(void) { return x; }\n")
    path = write_config(tmp_path / "t.toml", small_config([bots["alpha"], source, broken]))
    said: list[str] = []
    result = run_tournament(prepare(load_config(path)), workers=2, progress=False, say=said.append)
    assert result.outcome == "complete"
    assert "building cbot: make" in said and "building broken: make" in said
    assert any(line.startswith("warning: entrant 'broken' did not build: build step `make`")
               and "error" in line for line in said), said
    assert sorted(p.name for p in source.iterdir()) == ["Makefile", "README.md", "bot.toml",
                                                        "main.c", "mp.c", "mp.h"]
    with Store.open(result.store) as store:
        names = {e.id: e.name for e in store.field.entrants()}
        for m in store.matches.all():
            for seat, entrant in enumerate(m.seats):
                expected = "build_failed" if names[entrant] == "broken" else "ok"
                assert m.statuses[seat] == expected, (m, names)
                if expected == "build_failed":
                    assert "main.c:1" in m.stderr_tails[seat]
    assert len(list((tmp_path / "cache").glob("*/built"))) == 1
    build.forget_failures()
