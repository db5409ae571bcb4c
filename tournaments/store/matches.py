"""The store's finished matches (the ``matches`` table): one :class:`MatchRow` per match, the one
type everyone who reads matches meets, and its full record, packed. A match's id never changes:
the schedule's matches keep their place in it, later ones are numbered after them."""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.record import OK, MatchRecord
from tournaments.plan import PlannedMatch, among
from tournaments.store.field import Field
from tournaments.store.meta import Meta
from tournaments.store.schema import Transaction, columns, now


@dataclass(frozen=True)
class MatchRow:
    """One finished match as stored (everything but the full record)."""

    id: int
    round: int
    table: int
    rotation: int
    deal: int
    seed: int
    seats: tuple[int, ...]          # entrant id per seat
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    statuses: tuple[str, ...]
    reasons: tuple[str, ...]
    think_ms: tuple[float, ...]
    stderr_tails: tuple[str, ...]
    duration_ms: float
    startup_ms: float
    wall_ms: float
    worker: str
    finished_at: str
    slot: int = -1                  # the slot it fills (-1: not known)
    versions: tuple[int, ...] = ()  # version per seat (version 1 throughout in older stores)

    @property
    def failed(self) -> bool:
        return any(s != OK for s in self.statuses)


BASE_COLUMNS = ("id, round, table_no, rotation, deal, seed, seats, scores, ranks, statuses, "
                "reasons, think_ms, stderr_tails, duration_ms, startup_ms, wall_ms, worker, "
                "finished_at")


class Matches:
    """The ``matches`` table."""

    def __init__(self, conn: sqlite3.Connection, path: Path, field: Field, meta: Meta) -> None:
        self._conn = conn
        self._path = path
        self._field = field
        self._meta = meta

    def _columns(self) -> str:
        """The columns :func:`match_row` reads (a store of format 2 or 3 has no slot or versions)."""
        more = "slot, versions" if "versions" in columns(self._conn, "matches") else "-1, NULL"
        return f"{BASE_COLUMNS}, {more}"

    def all(self) -> list[MatchRow]:
        """Every finished match, in schedule order."""
        return list(self.iter())

    def iter(self) -> Iterator[MatchRow]:
        for row in self._conn.execute(f"SELECT {self._columns()} FROM matches ORDER BY id"):
            yield match_row(row)

    def current(self) -> list[MatchRow]:
        """The matches among current versions only: what the standings are rated from."""
        current = self._field.current()
        return [m for m in self.iter() if among(current, m)]

    def get(self, match_id: int) -> MatchRow:
        row = self._conn.execute(f"SELECT {self._columns()} FROM matches WHERE id = ?",
                                 (match_id,)).fetchone()
        if row is None:
            raise ArenaError(self._missing(match_id))
        return match_row(row)

    def ids(self) -> set[int]:
        return {row[0] for row in self._conn.execute("SELECT id FROM matches")}

    def count(self) -> tuple[int, int]:
        """(finished matches, seat failures among them)."""
        row = self._conn.execute("SELECT COUNT(*), COALESCE(SUM(failures), 0) FROM matches").fetchone()
        return int(row[0]), int(row[1])

    def last_id(self) -> int:
        return int(self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM matches").fetchone()[0])

    def next_id(self) -> int:
        """The id of a match played after the schedule's."""
        return max(self._meta.schedule_size, self.last_id()) + 1

    def record(self, match_id: int) -> MatchRecord:
        """The full match record of a finished match, each seat's bot folder written back from the
        entrants table (the packed record leaves it out)."""
        record = MatchRecord.from_json(self.record_json(match_id))
        paths = {e.name: e.path for e in self._field.entrants()}
        for seat in record.seats:
            if not seat.get("path") and seat.get("name") in paths:
                seat["path"] = paths[seat["name"]]
        return record

    def record_json(self, match_id: int) -> str:
        """The full match record of a finished match as the stored JSON text (docs/match-record.md)."""
        row = self._conn.execute("SELECT record FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise ArenaError(self._missing(match_id))
        return MatchRecord.unpack_json(row[0])

    def record_blobs(self, skip: Collection[int] = frozenset()) -> Iterator[tuple[int, bytes]]:
        """(id, packed record) of every finished match whose id is not in ``skip``, in id order:
        the bytes as stored (``MatchRecord.unpack`` reads them)."""
        if not skip:
            for mid, blob in self._conn.execute("SELECT id, record FROM matches ORDER BY id"):
                yield int(mid), bytes(blob)
            return
        ids = [row[0] for row in self._conn.execute("SELECT id FROM matches ORDER BY id")]
        for mid in ids:
            if mid not in skip:
                row = self._conn.execute("SELECT record FROM matches WHERE id = ?", (mid,)).fetchone()
                if row is not None:
                    yield int(mid), bytes(row[0])

    def _missing(self, match_id: int) -> str:
        last = max(self._meta.schedule_size, self.last_id())
        if not 1 <= match_id <= last:
            return f"{self._path}: there is no match {match_id}; match ids run from 1 to {last}"
        return f"{self._path}: match {match_id} has not been played yet"

    def add(self, scheduled: PlannedMatch, record: MatchRecord, *, startup_ms: float,
            wall_ms: float, worker: str, run_id: int, packed: bytes | None = None) -> int:
        """Store one finished match in its own transaction (id 0 gets the next id after every
        other) and return its id; ``packed`` is ``record.pack()`` when the caller has it
        already."""
        statuses = record.statuses
        blob = packed if packed is not None else record.pack()
        values = (
            scheduled.round, scheduled.table, scheduled.rotation, scheduled.deal,
            scheduled.seed, json.dumps(list(scheduled.seats)), json.dumps(record.scores),
            json.dumps(record.ranks), json.dumps([s.status for s in statuses]),
            json.dumps([s.reason for s in statuses]),
            json.dumps([round(s.time_ms, 3) for s in statuses]),
            json.dumps([s.stderr_tail for s in statuses]),
            sum(1 for s in statuses if s.status != OK), record.duration_ms, startup_ms, wall_ms,
            worker, run_id, now(), blob, scheduled.slot, json.dumps(list(scheduled.versions)),
        )
        with Transaction(self._conn):
            match_id = scheduled.id or self.next_id()
            self._conn.execute(
                "INSERT INTO matches (id, round, table_no, rotation, deal, seed, seats, scores, "
                "ranks, statuses, reasons, think_ms, stderr_tails, failures, duration_ms, "
                "startup_ms, wall_ms, worker, run_id, finished_at, record, slot, versions) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", (match_id, *values))
        return match_id


def match_row(row: Sequence[Any]) -> MatchRow:
    """A row of the ``matches`` table (the columns of :meth:`Matches._columns`; SQLite's values,
    untyped) as a MatchRow."""
    (mid, rnd, table, rotation, deal, seed, seats, scores, ranks, statuses, reasons, think,
     tails, duration, startup, wall, worker, finished, slot, versions) = row
    seat_ids = tuple(json.loads(seats))
    return MatchRow(
        id=mid, round=rnd, table=table, rotation=rotation, deal=deal, seed=seed, seats=seat_ids,
        scores=tuple(json.loads(scores)), ranks=tuple(json.loads(ranks)),
        statuses=tuple(json.loads(statuses)), reasons=tuple(json.loads(reasons)),
        think_ms=tuple(json.loads(think)), stderr_tails=tuple(json.loads(tails)),
        duration_ms=duration, startup_ms=startup, wall_ms=wall, worker=worker,
        finished_at=finished, slot=slot if slot is not None else -1,
        versions=tuple(json.loads(versions)) if versions else (1,) * len(seat_ids),
    )
