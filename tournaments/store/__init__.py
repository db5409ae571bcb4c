"""The result store: one SQLite file per tournament, written by the parent process only.

A :class:`Store` opens the file and owns its one connection; what it holds is read and written
through its rooms, each a small class with typed rows:

- :mod:`~tournaments.store.schema`: the tables, the format marker, the checks before a file is
  opened or created, transactions, the migration of an older store;
- ``store.matches`` (:mod:`~tournaments.store.matches`): one :class:`MatchRow` per finished match
  (its slot, seats, the versions that played, seed, scores, ranks, statuses, reasons, timings,
  stderr tails) and its full record, packed;
- ``store.field`` (:mod:`~tournaments.store.field`): the moving field, the entrants, every
  admitted version of each, the plan's slots, the submissions seen and not admitted;
- ``store.meta`` (:mod:`~tournaments.store.meta`): the config, the schedule's size, note and
  hash, the rating environment, what the report publishes, the runs.

Readers (``arena ratings``, the report's reading stage) open the file read-only with
:meth:`Store.open` (SQLite's ``mode=ro``) and close it when they have read.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from arena.errors import ArenaError
from tournaments.config import TournamentConfig
from tournaments.plan import Slot
from tournaments.store.field import CURRENT, OLD, SUSPENDED, WITHDRAWN, Entrant, Field, Submission, Version
from tournaments.store.matches import Matches, MatchRow
from tournaments.store.meta import FirstSchedule, Meta, ReportSettings, Run
from tournaments.store.schema import (
    READABLE_FORMATS,
    SCHEMA,
    STORE_FORMAT,
    STORE_NAME,
    Transaction,
    check_format,
    check_intact,
    create_tables,
    format_of,
    is_initialised,
    now,
    pragmas,
    read_only,
    upgrade,
)

__all__ = ["CURRENT", "OLD", "READABLE_FORMATS", "SCHEMA", "STORE_FORMAT", "STORE_NAME",
           "SUSPENDED", "WITHDRAWN", "Entrant", "FirstSchedule", "MatchRow", "ReportSettings",
           "Run", "Store", "Submission", "Version", "now", "store_path"]


def store_path(output: str | Path) -> Path:
    return Path(output) / STORE_NAME


class Store:
    """A tournament store: the file, its connection and its rooms (``matches``, ``field``,
    ``meta``). Writers: :meth:`create`, or :meth:`open` with ``write=True``."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path
        self.meta = Meta(conn)
        self.field = Field(conn, self.meta)
        self.matches = Matches(conn, path, self.field, self.meta)

    is_initialised = staticmethod(is_initialised)
    check_intact = staticmethod(check_intact)

    @staticmethod
    def open(output: str | Path, *, write: bool = False) -> Store:
        """Open the store in an output folder (or the file itself); a clear error if there is
        none. Read-only unless ``write``."""
        path = Path(output)
        if path.is_dir() or path.suffix != ".sqlite":
            path = path / STORE_NAME
        if not path.is_file():
            raise ArenaError(f"{output}: no tournament store here (expected {path})")
        if write:
            Store.open(path).close()  # check it read-only first: a store refused stays untouched
            conn = sqlite3.connect(path, isolation_level=None)
        else:
            conn = read_only(path)
        try:
            check_format(conn, path)
        except ArenaError:
            conn.close()
            raise
        if write:
            pragmas(conn)
        return Store(conn, path)

    def upgrade(self) -> None:
        """A store of format 2 or 3, opened to write, gains the tables of 4 (``schema.upgrade``)."""
        if format_of(self._conn) != STORE_FORMAT:
            upgrade(self._conn, self.meta.config().format.players, self.meta.created_at)

    @staticmethod
    def create(path: Path, config: TournamentConfig, entrants: Sequence[Entrant], *,
               planned: int, note: str, draw_probability: float,
               schedule_hash: str, slots: Sequence[Slot] = ()) -> Store:
        """Create a store and write the config, the entrants (each at version 1) and the plan's
        ``slots`` in one transaction."""
        check_intact(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, isolation_level=None)
        store = Store(conn, path)
        pragmas(conn)
        with Transaction(conn):
            create_tables(conn)
            if conn.execute("SELECT COUNT(*) FROM meta").fetchone()[0]:
                raise ArenaError(f"{path}: already holds a tournament")
            created = now()
            store.meta.write_new({
                "format": STORE_FORMAT, "config": config.to_dict(), "created_at": created,
                "planned": planned, "schedule_note": note, "draw_probability": draw_probability,
                "schedule_hash": schedule_hash, "schedule_size": planned,
            })
            store.field.write_new(entrants, slots, created)
        return store

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
