"""The result store: one SQLite file per tournament, written by the parent process only.

Layout (``SCHEMA``): ``meta`` (format version, the config, the schedule's size and note, the
rating environment, what the report publishes), ``entrants`` (id, name, folder, content hash of
its first version), ``versions`` (every admitted version of every entrant: its content hash, arrival and state),
``slots`` (the plan, ``tournaments.plan``), ``submissions`` (folders seen but not admitted, and
why), ``matches`` (one row per *finished* match, with its slot, seats, the versions that played,
seed, scores, ranks, statuses, reasons, timings, stderr tails and the full match record as
zlib-compressed JSON) and ``runs`` (one row per invocation, for the record). A match's id never
changes: the schedule's matches keep their place in it, later ones are numbered after them.
The versions, slots and submissions are read and written by ``tournaments.field_tables``.

Durability: WAL journal; every match is one transaction, committed as soon as the match ends, so a
kill at any moment (SIGKILL included) leaves every finished match stored once and none half-stored;
the matches in flight are simply played again on resume. ``synchronous=NORMAL`` survives any
process kill; only an OS crash or power cut can lose the last few commits (never corrupt the file).

Readers (``arena ratings``, the report renderer) open the file read-only with :meth:`Store.open`
and use the read API: :meth:`config`, :meth:`entrants`, :meth:`matches`, :meth:`record`.
"""
from __future__ import annotations

import json
import os
import secrets
import sqlite3
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.record import OK, MatchRecord
from tournaments.config import TournamentConfig
from tournaments.field_tables import CURRENT, FieldTables, now
from tournaments.plan import PlannedMatch, among

STORE_NAME = "tournament.sqlite"
SQLITE_HEADER = b"SQLite format 3\0"   # the first 16 bytes of every SQLite database file
STORE_FORMAT = "arena-tournament-store/4"  # 2: named chance streams, secret seeds; 3: packed
# records in the compact form (docs/match-record.md), entrants' descriptions; 4: versions, slots
# and submissions (a field that moves). A store of format 2 or 3 reads the same (every entrant at
# version 1, every match of the schedule); opened to resume, it gains the tables of format 4 (its
# matches are marked with their slot and version 1) and is marked 4, which an older arena cannot
# read.
READABLE_FORMATS = (STORE_FORMAT, "arena-tournament-store/3", "arena-tournament-store/2")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL                    -- JSON
);
CREATE TABLE IF NOT EXISTS entrants (
    id           INTEGER PRIMARY KEY,      -- 0-based index in the config's entrant order
    name         TEXT NOT NULL UNIQUE,
    path         TEXT NOT NULL,            -- absolute bot folder
    content_hash TEXT NOT NULL,            -- sha256 of the folder's files (BotSpec.content_hash)
    description  TEXT NOT NULL DEFAULT ''  -- bot.toml's description (absent from older stores)
);
CREATE TABLE IF NOT EXISTS matches (
    id           INTEGER PRIMARY KEY,      -- 1-based place in the schedule, or after it
    round        INTEGER NOT NULL,
    table_no     INTEGER NOT NULL,
    rotation     INTEGER NOT NULL,
    deal         INTEGER NOT NULL,         -- the schedule's deal (-1: a set with a seed of its own)
    seed         INTEGER NOT NULL,
    seats        TEXT NOT NULL,            -- JSON: entrant id per seat
    scores       TEXT NOT NULL,            -- JSON: per seat
    ranks        TEXT NOT NULL,            -- JSON: per seat, 1 = first, ties share
    statuses     TEXT NOT NULL,            -- JSON: per seat, arena.record statuses
    reasons      TEXT NOT NULL,            -- JSON: per seat, '' when ok
    think_ms     TEXT NOT NULL,            -- JSON: per seat, thinking time used
    stderr_tails TEXT NOT NULL,            -- JSON: per seat
    failures     INTEGER NOT NULL,         -- seats whose status is not ok
    duration_ms  REAL NOT NULL,            -- the referee's match duration
    startup_ms   REAL NOT NULL,            -- starting the bots and the handshake
    wall_ms      REAL NOT NULL,            -- the whole match as the worker saw it
    worker       TEXT NOT NULL,
    run_id       INTEGER NOT NULL,
    finished_at  TEXT NOT NULL,            -- UTC, ISO 8601
    record       BLOB NOT NULL,            -- zlib(JSON of the MatchRecord)
    slot         INTEGER,                  -- the slot it fills (tournaments.plan)
    versions     TEXT                      -- JSON: the entrant's version per seat
);
CREATE TABLE IF NOT EXISTS versions (
    entrant      INTEGER NOT NULL,
    version      INTEGER NOT NULL,         -- 1, 2, ... in order of arrival
    content_hash TEXT NOT NULL,
    arrived_at   TEXT NOT NULL,            -- UTC, ISO 8601
    state        TEXT NOT NULL,            -- current, old, withdrawn, suspended
    reason       TEXT NOT NULL DEFAULT '', -- why withdrawn or suspended
    PRIMARY KEY (entrant, version)
);
CREATE TABLE IF NOT EXISTS slots (
    id           INTEGER PRIMARY KEY,      -- 0-based place in the plan
    round        INTEGER NOT NULL,
    table_no     INTEGER NOT NULL,
    entrants     TEXT NOT NULL,            -- JSON: entrant ids in the order of rotation 0
    deal         INTEGER NOT NULL,         -- the schedule's deal, -1 for a slot added later
    first_match  INTEGER NOT NULL          -- the schedule's id of rotation 0, 0 for a later slot
);
CREATE TABLE IF NOT EXISTS submissions (
    id           INTEGER PRIMARY KEY,
    folder       TEXT NOT NULL,
    name         TEXT NOT NULL,            -- the entrant's name, or the folder's
    content_hash TEXT NOT NULL,            -- '' when the folder could not be read
    seen_at      TEXT NOT NULL,
    outcome      TEXT NOT NULL,            -- admitted, rejected
    reason       TEXT NOT NULL,
    stderr_tail  TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS runs (
    id         INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    ended_at   TEXT,
    backend    TEXT NOT NULL,
    workers    INTEGER NOT NULL,
    outcome    TEXT                        -- complete, stopped, aborted, error (NULL: killed)
);
"""


@dataclass(frozen=True)
class Entrant:
    id: int
    name: str
    path: str
    content_hash: str
    description: str = ""


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


def store_path(output: str | Path) -> Path:
    return Path(output) / STORE_NAME


class Store(FieldTables):
    """A tournament store. Writers: :meth:`create` / :meth:`open` with ``write=True``."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path

    # ----- opening -------------------------------------------------------------------------
    @staticmethod
    def open(output: str | Path, *, write: bool = False) -> Store:
        """Open the store in an output folder (or the file itself); a clear error if there is none."""
        path = Path(output)
        if path.is_dir() or path.suffix != ".sqlite":
            path = path / STORE_NAME
        if not path.is_file():
            raise ArenaError(f"{output}: no tournament store here (expected {path})")
        if write:
            Store.open(path).close()  # check it read-only first: a store refused stays untouched
            conn = sqlite3.connect(path, isolation_level=None)
        else:
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                   isolation_level=None)
        store = Store(conn, path)
        try:
            fmt = store._meta("format")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise ArenaError(f"{path}: not a tournament store ({exc})") from None
        if fmt is None:
            conn.close()
            raise ArenaError(f"{path}: not a tournament store (it has no format marker)")
        if fmt not in READABLE_FORMATS:
            conn.close()
            older = isinstance(fmt, str) and fmt.startswith("arena-tournament-store/")
            raise ArenaError(
                f"{path}: store format {fmt!r}; this arena reads {STORE_FORMAT!r}"
                + ("; it was made by an older arena whose deals came from other chance streams, "
                   "so it cannot be resumed or replayed: keep it for its report, and run the "
                   "tournament again in another output folder" if older else ""))
        if write:
            store._pragmas()
        return store

    def upgrade(self) -> None:
        """Give a store of format 2 or 3, opened to write, the tables of 4 and mark it 4: every
        entrant at version 1, every match in its slot of the schedule (a table's rotations are
        consecutive ids). Nothing for a store of format 4."""
        if self._meta("format") == STORE_FORMAT:
            return
        players = self.config().format.players
        with self._transaction():
            columns = {row[1] for row in self._conn.execute("PRAGMA table_info(matches)")}
            for column in ("slot INTEGER", "versions TEXT"):
                if column.split()[0] not in columns:
                    self._conn.execute(f"ALTER TABLE matches ADD COLUMN {column}")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self._conn.execute(statement)
            self._conn.execute("UPDATE matches SET slot = (id - 1) / ?, versions = ? "
                               "WHERE slot IS NULL", (players, json.dumps([1] * players)))
            self._conn.execute("INSERT OR IGNORE INTO versions (entrant, version, content_hash, "
                               "arrived_at, state) SELECT id, 1, content_hash, ?, ? FROM entrants",
                               (self.created_at, CURRENT))
            self._conn.execute("UPDATE meta SET value = ? WHERE key = 'format'",
                               (json.dumps(STORE_FORMAT),))

    @staticmethod
    def is_initialised(path: Path) -> bool:
        """Whether ``path`` holds a store whose creation was committed."""
        if not path.is_file() or path.stat().st_size == 0:
            return False
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            return row is not None
        except sqlite3.DatabaseError:
            return False
        finally:
            conn.close()

    @staticmethod
    def check_intact(path: Path) -> None:
        """Refuse, with one line and without changing a byte of it, a file at ``path`` that is not
        an intact store or an empty place for one: not a regular file (a folder, a FIFO, a
        device), not an SQLite database (garbled, random bytes), a damaged one (truncated, a
        page overwritten), or someone else's SQLite database (a store is never adopted into one).
        A missing file, an empty one, and an SQLite database without any table (a creation that
        was killed before it committed) are places for a new store."""
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise ArenaError(f"{path}: cannot be used as the tournament store ({exc.strerror})") from None
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
            raise ArenaError(f"{path}: is {kind}, not a tournament store; move it away, or choose "
                             "another output folder (--output)")
        if st.st_size == 0:
            return
        try:
            with open(path, "rb") as f:
                header = f.read(len(SQLITE_HEADER))
        except OSError as exc:
            raise ArenaError(f"{path}: cannot be read ({exc.strerror})") from None
        if header != SQLITE_HEADER:
            raise ArenaError(f"{path}: is not an SQLite database, so not a tournament store "
                             "(damaged, or another file); it was left as it is: move it away, or "
                             "choose another output folder (--output)")
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not tables:
                return
            has_format = "meta" in tables and conn.execute(
                "SELECT 1 FROM meta WHERE key = 'format'").fetchone() is not None
            if not has_format:
                raise ArenaError(f"{path}: is an SQLite database but not a tournament store (its "
                                 f"tables: {', '.join(sorted(tables)[:5])}); it was left as it is: "
                                 "choose another output folder (--output)")
            problems = [r[0] for r in conn.execute("PRAGMA quick_check(1)")]
            if problems != ["ok"]:
                first = " ".join(" ".join(problems).replace("*** in database main ***", "").split())
                raise ArenaError(f"{path}: the tournament store is damaged ({first}); it was "
                                 "left as it is: restore it from a copy, or run the tournament "
                                 "again in another output folder (--output)")
        except sqlite3.DatabaseError as exc:
            raise ArenaError(f"{path}: the tournament store is damaged ({exc}); it was left as it "
                             "is: restore it from a copy, or run the tournament again in another "
                             "output folder (--output)") from None
        finally:
            conn.close()

    @staticmethod
    def create(path: Path, config: TournamentConfig, entrants: Sequence[Entrant], *,
               planned: int, note: str, draw_probability: float,
               schedule_hash: str, slots: Sequence[Any] = ()) -> Store:
        """Create a store and write the config, the entrants (each at version 1) and the plan's
        ``slots`` (``tournaments.plan.Slot``) in one transaction."""
        Store.check_intact(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, isolation_level=None)
        store = Store(conn, path)
        store._pragmas()
        with store._transaction():
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            if conn.execute("SELECT COUNT(*) FROM meta").fetchone()[0]:
                raise ArenaError(f"{path}: already holds a tournament")
            meta = {
                "format": STORE_FORMAT, "config": config.to_dict(), "created_at": now(),
                "planned": planned, "schedule_note": note, "draw_probability": draw_probability,
                "schedule_hash": schedule_hash, "schedule_size": planned,
            }
            conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                             [(k, json.dumps(v)) for k, v in meta.items()])
            conn.executemany(
                "INSERT INTO entrants (id, name, path, content_hash, description) VALUES (?,?,?,?,?)",
                [(e.id, e.name, e.path, e.content_hash, e.description) for e in entrants])
            created = meta["created_at"]
            conn.executemany(
                "INSERT INTO versions (entrant, version, content_hash, arrived_at, state) "
                "VALUES (?, 1, ?, ?, ?)", [(e.id, e.content_hash, created, CURRENT) for e in entrants])
            store._insert_slots(slots)
        return store

    def _pragmas(self) -> None:
        self._conn.execute("PRAGMA busy_timeout=10000")  # first: a reader may hold the file
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    class _Txn:
        def __init__(self, conn: sqlite3.Connection) -> None:
            self.conn = conn

        def __enter__(self) -> None:
            self.conn.execute("BEGIN IMMEDIATE")

        def __exit__(self, exc_type: Any, *_: Any) -> None:
            if exc_type is None:
                self.conn.execute("COMMIT")
            elif self.conn.in_transaction:
                self.conn.execute("ROLLBACK")

    def _transaction(self) -> Store._Txn:
        return Store._Txn(self._conn)

    # ----- read API ------------------------------------------------------------------------
    def _meta(self, key: str) -> Any:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def config(self) -> TournamentConfig:
        return TournamentConfig.from_dict(self._meta("config"))

    def config_dict(self) -> dict[str, Any]:
        return dict(self._meta("config"))

    @property
    def planned(self) -> int:
        """How many matches among the current versions the plan holds, played or not."""
        return int(self._meta("planned"))

    @property
    def schedule_size(self) -> int:
        """How many matches the first schedule held: their ids run from 1 to this."""
        size = self._meta("schedule_size")
        return int(size if size is not None else self._meta("planned"))

    @property
    def schedule_note(self) -> str:
        return self._meta("schedule_note") or ""

    @property
    def draw_probability(self) -> float:
        return float(self._meta("draw_probability"))

    @property
    def schedule_hash(self) -> str:
        return self._meta("schedule_hash") or ""

    def first_schedule(self) -> dict[str, Any] | None:
        """How many entrants the first schedule was made for, and a gauntlet's candidates among
        them (None in a store from before late entrants)."""
        first = self._meta("first_schedule")
        return None if first is None else dict(first)

    @property
    def created_at(self) -> str:
        return str(self._meta("created_at"))

    def report_settings(self) -> dict[str, Any]:
        """What the report publishes, as the last run's config said (:meth:`set_report`):
        ``anonymous``, ``references`` (entrant ids) and ``alias_key``, the secret that aliases
        derive from (``tournaments.aliases``); ``{}`` in a store written before them."""
        return self._meta("report") or {}

    def entrants(self) -> list[Entrant]:
        # A store made before descriptions were kept has no such column: its bots have none.
        columns = {row[1] for row in self._conn.execute("PRAGMA table_info(entrants)")}
        description = "description" if "description" in columns else "''"
        rows = self._conn.execute(
            f"SELECT id, name, path, content_hash, {description} FROM entrants ORDER BY id")
        return [Entrant(*row) for row in rows]

    def done_ids(self) -> set[int]:
        return {row[0] for row in self._conn.execute("SELECT id FROM matches")}

    def count(self) -> tuple[int, int]:
        """(finished matches, seat failures among them)."""
        row = self._conn.execute("SELECT COUNT(*), COALESCE(SUM(failures), 0) FROM matches").fetchone()
        return int(row[0]), int(row[1])

    _BASE_COLUMNS = ("id, round, table_no, rotation, deal, seed, seats, scores, ranks, statuses, "
                     "reasons, think_ms, stderr_tails, duration_ms, startup_ms, wall_ms, worker, "
                     "finished_at")

    @property
    def _COLUMNS(self) -> str:
        """The columns :func:`_match_row` reads (a store of format 2 or 3 has no slot or versions)."""
        columns = {row[1] for row in self._conn.execute("PRAGMA table_info(matches)")}
        more = "slot, versions" if "versions" in columns else "-1, NULL"
        return f"{self._BASE_COLUMNS}, {more}"

    def current_matches(self) -> list[MatchRow]:
        """The matches among current versions only: what the standings are rated from."""
        current = self.current()
        return [m for m in self.iter_matches() if among(current, m)]

    def matches(self) -> list[MatchRow]:
        """Every finished match, in schedule order."""
        return list(self.iter_matches())

    def iter_matches(self) -> Iterator[MatchRow]:
        rows = self._conn.execute(f"SELECT {self._COLUMNS} FROM matches ORDER BY id")
        for row in rows:
            yield _match_row(row)

    def match(self, match_id: int) -> MatchRow:
        row = self._conn.execute(f"SELECT {self._COLUMNS} FROM matches WHERE id = ?",
                                 (match_id,)).fetchone()
        if row is None:
            raise ArenaError(self._missing(match_id))
        return _match_row(row)

    def record(self, match_id: int) -> MatchRecord:
        """The full match record of a finished match, each seat's bot folder written back from the
        entrants table (the packed record leaves it out)."""
        record = MatchRecord.from_json(self.record_json(match_id))
        paths = {e.name: e.path for e in self.entrants()}
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

    def record_blobs(self, skip: set[int] | frozenset[int] = frozenset()) -> Iterator[tuple[int, bytes]]:
        """(id, packed record) of every finished match whose id is not in ``skip``, in id order:
        the bytes as stored (``MatchRecord.unpack`` reads them)."""
        if not skip:
            yield from self._conn.execute("SELECT id, record FROM matches ORDER BY id")
            return
        ids = [row[0] for row in self._conn.execute("SELECT id FROM matches ORDER BY id")]
        for mid in ids:
            if mid not in skip:
                row = self._conn.execute("SELECT record FROM matches WHERE id = ?", (mid,)).fetchone()
                if row is not None:
                    yield mid, row[0]

    def _missing(self, match_id: int) -> str:
        last = max(self.schedule_size, self.last_id())
        if not 1 <= match_id <= last:
            return f"{self.path}: there is no match {match_id}; match ids run from 1 to {last}"
        return f"{self.path}: match {match_id} has not been played yet"

    def last_id(self) -> int:
        return int(self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM matches").fetchone()[0])

    def runs(self) -> list[dict[str, Any]]:
        rows = self._conn.execute(
            "SELECT id, started_at, ended_at, backend, workers, outcome FROM runs ORDER BY id")
        keys = ("id", "started_at", "ended_at", "backend", "workers", "outcome")
        return [dict(zip(keys, row)) for row in rows]

    # ----- write API (the parent process only) ---------------------------------------------
    def begin_run(self, backend: str, workers: int) -> int:
        with self._transaction():
            cur = self._conn.execute("INSERT INTO runs (started_at, backend, workers) VALUES (?,?,?)",
                                     (now(), backend, workers))
        assert cur.lastrowid is not None  # set by the INSERT
        return int(cur.lastrowid)

    def end_run(self, run_id: int, outcome: str) -> None:
        with self._transaction():
            self._conn.execute("UPDATE runs SET ended_at = ?, outcome = ? WHERE id = ?",
                               (now(), outcome, run_id))

    def set_report(self, anonymous: bool, references: Sequence[int]) -> None:
        """Keep what the report publishes (``[report]``, the reference entrants): written by every
        run, since it changes no match. The alias key is drawn the first time and then kept, so
        that an entrant's alias never changes."""
        old = self.report_settings()
        new = {"anonymous": anonymous, "references": sorted(references),
               "alias_key": old.get("alias_key") or secrets.token_hex(16)}
        if new != old:
            with self._transaction():
                self._conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('report', ?)",
                                   (json.dumps(new),))

    def add_match(self, scheduled: PlannedMatch, record: MatchRecord, *, startup_ms: float,
                  wall_ms: float, worker: str, run_id: int, packed: bytes | None = None) -> int:
        """Store one finished match in its own transaction (id 0 gets the next id after every
        other) and return its id; ``packed`` is ``record.pack()`` when the caller has it
        already."""
        statuses = record.statuses
        blob = packed if packed is not None else record.pack()
        slot, versions = scheduled.slot, scheduled.versions
        values = (
            scheduled.round, scheduled.table, scheduled.rotation, scheduled.deal,
            scheduled.seed, json.dumps(list(scheduled.seats)), json.dumps(record.scores),
            json.dumps(record.ranks), json.dumps([s.status for s in statuses]),
            json.dumps([s.reason for s in statuses]),
            json.dumps([round(s.time_ms, 3) for s in statuses]),
            json.dumps([s.stderr_tail for s in statuses]),
            sum(1 for s in statuses if s.status != OK), record.duration_ms, startup_ms, wall_ms,
            worker, run_id, now(), blob, slot, json.dumps(list(versions)),
        )
        with self._transaction():
            match_id = scheduled.id or max(self.schedule_size, self.last_id()) + 1
            self._conn.execute(
                "INSERT INTO matches (id, round, table_no, rotation, deal, seed, seats, scores, "
                "ranks, statuses, reasons, think_ms, stderr_tails, failures, duration_ms, "
                "startup_ms, wall_ms, worker, run_id, finished_at, record, slot, versions) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", (match_id, *values))
        return match_id

    def meta(self, key: str) -> Any:
        """A ``meta`` value another module keeps (JSON), or None."""
        return self._meta(key)

    def set_meta(self, key: str, value: Any) -> None:
        with self._transaction():
            self._conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                               (key, json.dumps(value)))


def _match_row(row: Sequence[Any]) -> MatchRow:
    (mid, rnd, table, rotation, deal, seed, seats, scores, ranks, statuses, reasons, think,
     tails, duration, startup, wall, worker, finished, slot, versions) = row
    seat_ids = tuple(json.loads(seats))
    return MatchRow(
        id=mid, round=rnd, table=table, rotation=rotation, deal=deal, seed=seed,
        seats=tuple(json.loads(seats)), scores=tuple(json.loads(scores)),
        ranks=tuple(json.loads(ranks)), statuses=tuple(json.loads(statuses)),
        reasons=tuple(json.loads(reasons)), think_ms=tuple(json.loads(think)),
        stderr_tails=tuple(json.loads(tails)), duration_ms=duration, startup_ms=startup,
        wall_ms=wall, worker=worker, finished_at=finished,
        slot=slot if slot is not None else -1,
        versions=tuple(json.loads(versions)) if versions else (1,) * len(seat_ids),
    )
