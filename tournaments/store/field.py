"""The store's moving field (``tournaments.field``): the entrants, every admitted version of each,
the plan's slots, and the submissions seen and not admitted. A store of format 2 or 3 has no
versions, slots or submissions tables, and reads as every entrant at version 1, current.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.plan import Slot
from tournaments.store.meta import Meta
from tournaments.store.schema import CURRENT, Transaction, columns, has_table, now

OLD, WITHDRAWN, SUSPENDED = "old", "withdrawn", "suspended"  # version states, besides CURRENT
__all__ = ["CURRENT", "OLD", "SUSPENDED", "WITHDRAWN", "Entrant", "Field", "Submission", "Version"]


@dataclass(frozen=True)
class Entrant:
    """An entrant: its id, name, bot folder and the content hash of its first version."""

    id: int
    name: str
    path: str
    content_hash: str
    description: str = ""


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


class Field:
    """The ``entrants``, ``versions``, ``slots`` and ``submissions`` tables."""

    def __init__(self, conn: sqlite3.Connection, meta: Meta) -> None:
        self._conn = conn
        self._meta = meta

    def entrants(self) -> list[Entrant]:
        # A store made before descriptions were kept has no such column: its bots have none.
        description = "description" if "description" in columns(self._conn, "entrants") else "''"
        rows = self._conn.execute(
            f"SELECT id, name, path, content_hash, {description} FROM entrants ORDER BY id")
        return [Entrant(*row) for row in rows]

    def versions(self) -> list[Version]:
        """Every admitted version, by entrant then version (version 1 of every entrant, current,
        in a store of format 2 or 3)."""
        if not has_table(self._conn, "versions"):
            created = self._meta.created_at
            return [Version(e.id, 1, e.content_hash, created, CURRENT) for e in self.entrants()]
        rows = self._conn.execute("SELECT entrant, version, content_hash, arrived_at, state, "
                                  "reason FROM versions ORDER BY entrant, version")
        return [Version(*row) for row in rows]

    def latest(self) -> dict[int, Version]:
        """Each entrant's latest version (its state says whether it plays)."""
        return {v.entrant: v for v in self.versions()}

    def current(self) -> dict[int, int]:
        """Entrant id -> version, for the entrants in play (not withdrawn nor suspended)."""
        return {e: v.version for e, v in self.latest().items() if v.state == CURRENT}

    def slots(self) -> list[Slot]:
        """The plan's slots, in plan order."""
        if not has_table(self._conn, "slots"):
            return []
        rows = self._conn.execute("SELECT id, round, table_no, entrants, deal, first_match FROM "
                                  "slots ORDER BY id")
        return [Slot(i, r, t, tuple(json.loads(e)), d, f) for i, r, t, e, d, f in rows]

    def submissions(self) -> list[Submission]:
        if not has_table(self._conn, "submissions"):
            return []
        rows = self._conn.execute("SELECT folder, name, content_hash, seen_at, outcome, reason, "
                                  "stderr_tail FROM submissions ORDER BY id")
        return [Submission(*row) for row in rows]

    def write_new(self, entrants: Sequence[Entrant], slots: Sequence[Slot], created: str) -> None:
        """A new store's entrants (each at version 1) and slots (inside the creating
        transaction)."""
        self._conn.executemany(
            "INSERT INTO entrants (id, name, path, content_hash, description) VALUES (?,?,?,?,?)",
            [(e.id, e.name, e.path, e.content_hash, e.description) for e in entrants])
        self._conn.executemany(
            "INSERT INTO versions (entrant, version, content_hash, arrived_at, state) "
            "VALUES (?, 1, ?, ?, ?)", [(e.id, e.content_hash, created, CURRENT) for e in entrants])
        self._insert_slots(slots)

    def _insert_slots(self, slots: Sequence[Slot]) -> None:
        self._conn.executemany(
            "INSERT INTO slots (id, round, table_no, entrants, deal, first_match) "
            "VALUES (?,?,?,?,?,?)",
            [(s.id, s.round, s.table, json.dumps(list(s.entrants)), s.deal, s.first_match)
             for s in slots])

    def add_slots(self, slots: Sequence[Slot]) -> None:
        with Transaction(self._conn):
            self._insert_slots(slots)

    def add_entrant(self, entrant: Entrant, slots: Sequence[Slot]) -> None:
        """A late entrant, at version 1, with the slots of its share, in one transaction."""
        with Transaction(self._conn):
            self._conn.execute(
                "INSERT INTO entrants (id, name, path, content_hash, description) VALUES (?,?,?,?,?)",
                (entrant.id, entrant.name, entrant.path, entrant.content_hash, entrant.description))
            self._conn.execute(
                "INSERT INTO versions (entrant, version, content_hash, arrived_at, state) "
                "VALUES (?, 1, ?, ?, ?)", (entrant.id, entrant.content_hash, now(), CURRENT))
            self._insert_slots(slots)

    def add_version(self, entrant: int, content_hash: str) -> int:
        """A new version of ``entrant``, now its current one (the one before becomes old)."""
        with Transaction(self._conn):
            last = self._conn.execute("SELECT COALESCE(MAX(version), 0) FROM versions WHERE "
                                      "entrant = ?", (entrant,)).fetchone()[0]
            self._conn.execute("UPDATE versions SET state = ?, reason = '' WHERE entrant = ?",
                               (OLD, entrant))
            self._conn.execute(
                "INSERT INTO versions (entrant, version, content_hash, arrived_at, state) "
                "VALUES (?, ?, ?, ?, ?)", (entrant, last + 1, content_hash, now(), CURRENT))
        return int(last + 1)

    def set_state(self, entrant: int, version: int, state: str, reason: str = "") -> None:
        with Transaction(self._conn):
            self._conn.execute("UPDATE versions SET state = ?, reason = ? WHERE entrant = ? AND "
                               "version = ?", (state, reason, entrant, version))

    def add_submission(self, sub: Submission) -> None:
        with Transaction(self._conn):
            self._conn.execute(
                "INSERT INTO submissions (folder, name, content_hash, seen_at, outcome, reason, "
                "stderr_tail) VALUES (?,?,?,?,?,?,?)",
                (sub.folder, sub.name, sub.content_hash, sub.seen_at, sub.outcome, sub.reason,
                 sub.stderr_tail))

