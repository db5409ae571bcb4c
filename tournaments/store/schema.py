"""The store's file: its tables (``SCHEMA``), its format marker, the checks before a file is opened
or created, transactions, and the migration of an older store (:func:`upgrade`).

Durability: WAL journal; every match is one transaction, committed as soon as the match ends, so a
kill at any moment (SIGKILL included) leaves every finished match stored once and none half-stored;
the matches in flight are simply played again on resume. ``synchronous=NORMAL`` survives any
process kill; only an OS crash or power cut can lose the last few commits (never corrupt the file).
"""
from __future__ import annotations

import json
import os
import sqlite3
import stat
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from arena.errors import ArenaError

STORE_NAME = "tournament.sqlite"
SQLITE_HEADER = b"SQLite format 3\0"   # the first 16 bytes of every SQLite database file
STORE_FORMAT = "arena-tournament-store/4"  # 2: named chance streams, secret seeds; 3: packed
# records in the compact form (docs/match-record.md), entrants' descriptions; 4: versions, slots
# and submissions (a field that moves). A store of format 2 or 3 reads the same (every entrant at
# version 1, every match of the schedule); opened to resume, it gains the tables of format 4 (its
# matches are marked with their slot and version 1) and is marked 4, which an older arena cannot
# read.
READABLE_FORMATS = (STORE_FORMAT, "arena-tournament-store/3", "arena-tournament-store/2")
CURRENT = "current"  # the state of a version in play (tournaments.store.field)

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


def now() -> str:
    """The store's timestamps: UTC, ISO 8601, to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Transaction:
    """``with Transaction(conn):`` one immediate transaction, committed at the end of the block
    or rolled back if it raises."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


def has_table(conn: sqlite3.Connection, table: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                        (table,)).fetchone() is not None


def columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})")}


def create_tables(conn: sqlite3.Connection) -> None:
    for statement in SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)


def pragmas(conn: sqlite3.Connection) -> None:
    """A writer's settings."""
    conn.execute("PRAGMA busy_timeout=10000")  # first: a reader may hold the file
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")


def read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write the file (SQLite's ``mode=ro``)."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)


def has_format(conn: sqlite3.Connection) -> bool:
    """Whether the file has a format marker (a store whose creation was committed)."""
    return conn.execute("SELECT 1 FROM meta WHERE key = 'format'").fetchone() is not None


def format_of(conn: sqlite3.Connection) -> object:
    """The store's format marker (None: none)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    return None if row is None else json.loads(row[0])


def check_format(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse, with one line, a file that is not a store this arena reads."""
    try:
        fmt = format_of(conn)
    except sqlite3.DatabaseError as exc:
        raise ArenaError(f"{path}: not a tournament store ({exc})") from None
    if fmt is None:
        raise ArenaError(f"{path}: not a tournament store (it has no format marker)")
    if fmt not in READABLE_FORMATS:
        older = isinstance(fmt, str) and fmt.startswith("arena-tournament-store/")
        raise ArenaError(
            f"{path}: store format {fmt!r}; this arena reads {STORE_FORMAT!r}"
            + ("; it was made by an older arena whose deals came from other chance streams, "
               "so it cannot be resumed or replayed: keep it for its report, and run the "
               "tournament again in another output folder" if older else ""))


def upgrade(conn: sqlite3.Connection, players: int, created_at: str) -> None:
    """Give a store of format 2 or 3, opened to write, the tables of 4 and mark it 4: every
    entrant at version 1, every match in its slot of the schedule (a table's rotations are
    consecutive ids; ``players`` seats a table). Nothing for a store of format 4."""
    if format_of(conn) == STORE_FORMAT:
        return
    with Transaction(conn):
        have = columns(conn, "matches")
        for column in ("slot INTEGER", "versions TEXT"):
            if column.split()[0] not in have:
                conn.execute(f"ALTER TABLE matches ADD COLUMN {column}")
        create_tables(conn)
        conn.execute("UPDATE matches SET slot = (id - 1) / ?, versions = ? WHERE slot IS NULL",
                     (players, json.dumps([1] * players)))
        conn.execute("INSERT OR IGNORE INTO versions (entrant, version, content_hash, arrived_at, "
                     "state) SELECT id, 1, content_hash, ?, ? FROM entrants", (created_at, CURRENT))
        conn.execute("UPDATE meta SET value = ? WHERE key = 'format'", (json.dumps(STORE_FORMAT),))


def is_initialised(path: Path) -> bool:
    """Whether ``path`` holds a store whose creation was committed."""
    if not path.is_file() or path.stat().st_size == 0:
        return False
    conn = read_only(path)
    try:
        return has_format(conn)
    except sqlite3.DatabaseError:
        return False
    finally:
        conn.close()


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
    conn = read_only(path)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return
        if "meta" not in tables or not has_format(conn):
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
