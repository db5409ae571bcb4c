"""The store's tables of a field that moves (``tournaments.field``): every admitted version of
every entrant, the plan's slots, and the submissions seen and not admitted. A part of
:class:`tournaments.store.Store`, which holds the connection; a store of format 2 or 3 has none of
these tables, and reads as every entrant at version 1, current.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

CURRENT, OLD, WITHDRAWN, SUSPENDED = "current", "old", "withdrawn", "suspended"  # version states


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Version:
    """One admitted version of an entrant (its folder's files at one moment)."""

    entrant: int
    version: int
    content_hash: str
    arrived_at: str
    state: str        # CURRENT, OLD, WITHDRAWN, SUSPENDED
    reason: str = ""


@dataclass(frozen=True)
class Submission:
    """A folder seen and not admitted (or admitted after a check), with why."""

    folder: str
    name: str
    content_hash: str
    seen_at: str
    outcome: str      # admitted | rejected
    reason: str
    stderr_tail: str = ""


class FieldTables:
    """Reading and writing the versions, slots and submissions (mixed into ``Store``)."""

    _conn: sqlite3.Connection

    if TYPE_CHECKING:  # what Store provides (its rows: tournaments.store.Entrant, MatchRow)
        @property
        def created_at(self) -> str: ...

        def _transaction(self) -> Any: ...
        def entrants(self) -> list[Any]: ...
        def iter_matches(self) -> Iterator[Any]: ...

    def _has(self, table: str) -> bool:
        return self._conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                  (table,)).fetchone() is not None

    def versions(self) -> list[Version]:
        """Every admitted version, by entrant then version (version 1 of every entrant, current,
        in a store of format 2 or 3)."""
        if not self._has("versions"):
            return [Version(e.id, 1, e.content_hash, self.created_at, CURRENT)
                    for e in self.entrants()]
        rows = self._conn.execute("SELECT entrant, version, content_hash, arrived_at, state, "
                                  "reason FROM versions ORDER BY entrant, version")
        return [Version(*row) for row in rows]

    def latest(self) -> dict[int, Version]:
        """Each entrant's latest version (its state says whether it plays)."""
        return {v.entrant: v for v in self.versions()}

    def current(self) -> dict[int, int]:
        """Entrant id -> version, for the entrants in play (not withdrawn nor suspended)."""
        return {e: v.version for e, v in self.latest().items() if v.state == CURRENT}

    def slots(self) -> list[Any]:
        """The plan's slots (``tournaments.plan.Slot``), in plan order."""
        from tournaments.plan import Slot

        if not self._has("slots"):
            return []
        rows = self._conn.execute("SELECT id, round, table_no, entrants, deal, first_match FROM "
                                  "slots ORDER BY id")
        return [Slot(i, r, t, tuple(json.loads(e)), d, f) for i, r, t, e, d, f in rows]

    def submissions(self) -> list[Submission]:
        if not self._has("submissions"):
            return []
        rows = self._conn.execute("SELECT folder, name, content_hash, seen_at, outcome, reason, "
                                  "stderr_tail FROM submissions ORDER BY id")
        return [Submission(*row) for row in rows]

    def _insert_slots(self, slots: Sequence[Any]) -> None:
        self._conn.executemany(
            "INSERT INTO slots (id, round, table_no, entrants, deal, first_match) "
            "VALUES (?,?,?,?,?,?)",
            [(s.id, s.round, s.table, json.dumps(list(s.entrants)), s.deal, s.first_match)
             for s in slots])

    def add_slots(self, slots: Sequence[Any]) -> None:
        with self._transaction():
            self._insert_slots(slots)

    def add_entrant(self, entrant: Any, slots: Sequence[Any]) -> None:
        """A late entrant (a ``tournaments.store.Entrant``), at version 1, with the slots of its
        share, in one transaction."""
        with self._transaction():
            self._conn.execute(
                "INSERT INTO entrants (id, name, path, content_hash, description) VALUES (?,?,?,?,?)",
                (entrant.id, entrant.name, entrant.path, entrant.content_hash, entrant.description))
            self._conn.execute(
                "INSERT INTO versions (entrant, version, content_hash, arrived_at, state) "
                "VALUES (?, 1, ?, ?, ?)", (entrant.id, entrant.content_hash, now(), CURRENT))
            self._insert_slots(slots)

    def add_version(self, entrant: int, content_hash: str) -> int:
        """A new version of ``entrant``, now its current one (the one before becomes old)."""
        with self._transaction():
            last = self._conn.execute("SELECT COALESCE(MAX(version), 0) FROM versions WHERE "
                                      "entrant = ?", (entrant,)).fetchone()[0]
            self._conn.execute("UPDATE versions SET state = ?, reason = '' WHERE entrant = ?",
                               (OLD, entrant))
            self._conn.execute(
                "INSERT INTO versions (entrant, version, content_hash, arrived_at, state) "
                "VALUES (?, ?, ?, ?, ?)", (entrant, last + 1, content_hash, now(), CURRENT))
        return int(last + 1)

    def set_state(self, entrant: int, version: int, state: str, reason: str = "") -> None:
        with self._transaction():
            self._conn.execute("UPDATE versions SET state = ?, reason = ? WHERE entrant = ? AND "
                               "version = ?", (state, reason, entrant, version))

    def add_submission(self, sub: Submission) -> None:
        with self._transaction():
            self._conn.execute(
                "INSERT INTO submissions (folder, name, content_hash, seen_at, outcome, reason, "
                "stderr_tail) VALUES (?,?,?,?,?,?,?)",
                (sub.folder, sub.name, sub.content_hash, sub.seen_at, sub.outcome, sub.reason,
                 sub.stderr_tail))

