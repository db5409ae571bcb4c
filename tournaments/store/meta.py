"""The store's facts about the whole tournament (the ``meta`` and ``runs`` tables): the config,
the schedule's size, note and hash, the rating environment, what the report publishes, the runs,
and the one value a format may keep (``tournaments.formats.protocol``)."""
from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.config import TournamentConfig
from tournaments.store.schema import Transaction, now


@dataclass(frozen=True)
class ReportSettings:
    """What the report publishes, as the last run's config said: ``anonymous``, the reference
    entrants (ids) and ``alias_key``, the secret that aliases derive from
    (``tournaments.aliases``); empty in a store written before them."""

    anonymous: bool = False
    references: tuple[int, ...] = ()
    alias_key: str = ""


@dataclass(frozen=True)
class FirstSchedule:
    """How many entrants the first schedule was made for, and a gauntlet's candidates among
    them (None: not a gauntlet's)."""

    entrants: int
    candidates: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Run:
    """One invocation that played (or tried to)."""

    id: int
    started_at: str
    ended_at: str | None
    backend: str
    workers: int
    outcome: str | None  # complete, stopped, aborted, error (None: killed)


class Meta:
    """The ``meta`` and ``runs`` tables."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def get(self, key: str) -> Any:
        """A ``meta`` value (JSON: what it holds is the keeper's), or None."""
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def set(self, key: str, value: Any) -> None:
        with Transaction(self._conn):
            self._conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                               (key, json.dumps(value)))

    def write_new(self, values: dict[str, Any]) -> None:
        """A new store's values (inside the creating transaction)."""
        self._conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                               [(k, json.dumps(v)) for k, v in values.items()])

    def config(self) -> TournamentConfig:
        return TournamentConfig.from_dict(self.get("config"))

    def config_dict(self) -> dict[str, Any]:
        """The config as stored, unchecked (what a resume compares with, key by key)."""
        return dict(self.get("config"))

    @property
    def planned(self) -> int:
        """How many matches among the current versions the plan holds, played or not."""
        return int(self.get("planned"))

    @property
    def schedule_size(self) -> int:
        """How many matches the first schedule held: their ids run from 1 to this."""
        size = self.get("schedule_size")
        return int(size if size is not None else self.get("planned"))

    @property
    def schedule_note(self) -> str:
        return str(self.get("schedule_note") or "")

    @property
    def draw_probability(self) -> float:
        return float(self.get("draw_probability"))

    @property
    def schedule_hash(self) -> str:
        return str(self.get("schedule_hash") or "")

    @property
    def created_at(self) -> str:
        return str(self.get("created_at"))

    def first_schedule(self) -> FirstSchedule | None:
        """None in a store from before late entrants."""
        first = self.get("first_schedule")
        if first is None:
            return None
        candidates = first.get("candidates")
        return FirstSchedule(int(first["entrants"]),
                             None if candidates is None else tuple(candidates))

    def set_first_schedule(self, first: FirstSchedule) -> None:
        self.set("first_schedule", {"entrants": first.entrants, "candidates": None
                                    if first.candidates is None else list(first.candidates)})

    def report_settings(self) -> ReportSettings:
        stored = self.get("report") or {}
        return ReportSettings(bool(stored.get("anonymous", False)),
                              tuple(stored.get("references", ())), str(stored.get("alias_key", "")))

    def set_report(self, anonymous: bool, references: Sequence[int]) -> None:
        """Keep what the report publishes (``[report]``, the reference entrants): written by every
        run, since it changes no match. The alias key is drawn the first time and then kept, so
        that an entrant's alias never changes."""
        old = self.get("report") or {}
        new = {"anonymous": anonymous, "references": sorted(references),
               "alias_key": old.get("alias_key") or secrets.token_hex(16)}
        if new != old:
            self.set("report", new)

    def runs(self) -> list[Run]:
        rows = self._conn.execute(
            "SELECT id, started_at, ended_at, backend, workers, outcome FROM runs ORDER BY id")
        return [Run(*row) for row in rows]

    def begin_run(self, backend: str, workers: int) -> int:
        with Transaction(self._conn):
            cur = self._conn.execute("INSERT INTO runs (started_at, backend, workers) VALUES (?,?,?)",
                                     (now(), backend, workers))
        assert cur.lastrowid is not None  # set by the INSERT
        return int(cur.lastrowid)

    def end_run(self, run_id: int, outcome: str) -> None:
        with Transaction(self._conn):
            self._conn.execute("UPDATE runs SET ended_at = ?, outcome = ? WHERE id = ?",
                               (now(), outcome, run_id))
