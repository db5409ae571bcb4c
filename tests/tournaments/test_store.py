"""The store on its own: what it refuses to open, and that a failed write leaves nothing behind."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from arena.errors import ArenaError
from arena.record import MatchRecord, SeatStatus
from tournaments.config import parse_config
from tournaments.formats import make_schedule
from tournaments.plan import PlannedMatch
from tournaments.store import STORE_FORMAT, STORE_NAME, Entrant, Store

from .conftest import small_config


@pytest.fixture()
def store(tmp_path: Path, bots: dict[str, Path]) -> Store:
    config = parse_config(small_config([bots["alpha"], bots["beta"]]), base_dir=tmp_path)
    entrants = [Entrant(0, "alpha", str(bots["alpha"]), "a" * 64),
                Entrant(1, "beta", str(bots["beta"]), "b" * 64)]
    created = Store.create(tmp_path / "out" / STORE_NAME, config, entrants, planned=2, note="",
                           draw_probability=0.01, schedule_hash="h")
    yield created
    created.close()


def finished(match, scores=(3, 1), ranks=(1, 2)) -> MatchRecord:
    return MatchRecord(game="block", options={}, seed=match.seed,
                       seats=[{"name": n, "path": ""} for n in ("alpha", "beta")],
                       time_control={}, scores=list(scores), ranks=list(ranks),
                       statuses=[SeatStatus(), SeatStatus()])


def schedule(store: Store):
    config = store.meta.config()
    return make_schedule(2, config.format, config.seed)


def test_a_missing_store_is_named(tmp_path: Path) -> None:
    with pytest.raises(ArenaError, match=r"no tournament store here \(expected .*tournament.sqlite\)"):
        Store.open(tmp_path)


def test_a_file_that_is_not_a_store_is_refused(tmp_path: Path) -> None:
    (tmp_path / STORE_NAME).write_bytes(b"not a database at all" * 100)
    with pytest.raises(ArenaError, match="not a tournament store"):
        Store.open(tmp_path)


def test_a_store_of_another_format_is_refused(store: Store, tmp_path: Path) -> None:
    conn = sqlite3.connect(store.path)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'format'", ('"arena-store/999"',))
    conn.commit()
    conn.close()
    with pytest.raises(ArenaError, match=rf"store format 'arena-store/999'; this arena reads "
                                         rf"'{STORE_FORMAT}'"):
        Store.open(store.path)


def test_a_match_is_stored_once_and_a_failed_write_leaves_nothing(store: Store) -> None:
    first, second = (PlannedMatch.of(m) for m in schedule(store).matches)
    run = store.meta.begin_run("test", 1)
    store.matches.add(first, finished(first), startup_ms=1, wall_ms=2, worker="w", run_id=run)
    assert store.matches.count() == (1, 0)
    with pytest.raises(sqlite3.IntegrityError):  # the same match again: refused
        store.matches.add(first, finished(first), startup_ms=1, wall_ms=2, worker="w", run_id=run)
    assert store.matches.count() == (1, 0) and store.matches.ids() == {first.id}
    # the failed transaction was rolled back: the next write works and is the only other one
    store.matches.add(second, finished(second, ranks=(2, 1)), startup_ms=1, wall_ms=2, worker="w",
                    run_id=run)
    assert store.matches.ids() == {first.id, second.id}
    assert [m.ranks for m in store.matches.all()] == [(1, 2), (2, 1)]


def test_creating_a_store_twice_is_refused(store: Store, bots: dict[str, Path], tmp_path: Path) -> None:
    with pytest.raises(ArenaError, match="already holds a tournament"):
        Store.create(store.path, store.meta.config(), store.field.entrants(), planned=2, note="",
                     draw_probability=0.01, schedule_hash="h")
    assert len(store.field.entrants()) == 2  # and the first one is as it was


def test_readers_cannot_write(store: Store) -> None:
    with Store.open(store.path) as reader:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            reader.meta.begin_run("test", 1)


def test_a_store_whose_creation_failed_is_not_a_store(tmp_path: Path, bots: dict[str, Path]) -> None:
    """Creation is one transaction: when a later part fails (here two entrants with one id), the
    parts before it are gone too, and the folder holds no tournament."""
    config = parse_config(small_config([bots["alpha"], bots["beta"]]), base_dir=tmp_path)
    twins = [Entrant(0, "alpha", str(bots["alpha"]), "a" * 64),
             Entrant(0, "beta", str(bots["beta"]), "b" * 64)]
    path = tmp_path / "out" / STORE_NAME
    with pytest.raises(sqlite3.IntegrityError):
        Store.create(path, config, twins, planned=2, note="", draw_probability=0.01,
                     schedule_hash="h")
    assert not Store.is_initialised(path)
    with pytest.raises(ArenaError, match="not a tournament store"):
        Store.open(path)
