"""The contest's own file, ``OUTPUT/contest.sqlite``: its authors and their uploads.

A secret link is shown once, when it is made; only its SHA-256 is kept, and a secret is
compared by its hash in constant time. The server and ``arena contest invite`` may use the file
at once (SQLite's own locking, a generous busy timeout). The tournament's store stays the
contest loop's alone.
"""
from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from arena.bots import name_problem
from arena.errors import ArenaError

DB_NAME = "contest.sqlite"
TEACHER = ""  # the teacher's row has no author name
SECRET_BYTES = 24
# an upload's states, in order; it ends admitted or refused
QUEUED, BUILDING, CHECKING, ADMITTED, REFUSED = "queued", "building", "checking", "admitted", "refused"
DONE = (ADMITTED, REFUSED)

SCHEMA = """
CREATE TABLE IF NOT EXISTS authors (
    name TEXT PRIMARY KEY,          -- '' is the teacher
    secret_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS uploads (
    id INTEGER PRIMARY KEY,
    author TEXT NOT NULL,
    received_at TEXT NOT NULL,
    filename TEXT NOT NULL,
    state TEXT NOT NULL,
    content_hash TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    output TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def now() -> str:
    """UTC, ISO 8601, to the millisecond (``benchmarks/serve.py`` measures between them)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Upload:
    id: int
    author: str
    received_at: str
    filename: str
    state: str
    content_hash: str
    reason: str
    output: str
    updated_at: str


class ContestDB:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False,
                                     isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.executescript(SCHEMA)
        self.path.chmod(0o600)

    @classmethod
    def in_output(cls, output: Path) -> ContestDB:
        return cls(Path(output) / DB_NAME)

    def close(self) -> None:
        self._conn.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    # ----- authors ----------------------------------------------------------------------------
    def issue(self, name: str) -> str:
        """A new secret for ``name`` (the teacher: ``TEACHER``), replacing any earlier one;
        returns it (shown once, never stored)."""
        if name != TEACHER:
            problem = name_problem(name)
            if problem:
                raise ArenaError(f"author {name!r}: {problem.replace('bot name', 'a name')}")
        secret = secrets.token_urlsafe(SECRET_BYTES)
        with self._write() as conn:
            conn.execute("INSERT INTO authors (name, secret_hash, created_at, revoked) "
                         "VALUES (?,?,?,0) ON CONFLICT(name) DO UPDATE SET "
                         "secret_hash = excluded.secret_hash, revoked = 0",
                         (name, secret_hash(secret), now()))
        return secret

    def revoke(self, name: str) -> None:
        with self._write() as conn:
            conn.execute("UPDATE authors SET revoked = 1 WHERE name = ?", (name,))

    def author_of(self, secret: str | None) -> str | None:
        """The author (``TEACHER`` for the teacher) whose live secret ``secret`` is, or None."""
        if not secret or len(secret) > 200:
            return None
        digest = secret_hash(secret)
        found = None
        for name, stored in self._conn.execute(
                "SELECT name, secret_hash FROM authors WHERE revoked = 0"):
            if hmac.compare_digest(stored, digest):
                found = name
        return found

    def authors(self) -> list[tuple[str, str, bool]]:
        """(name, created at, revoked) of every author, the teacher left out."""
        return [(n, c, bool(r)) for n, c, r in self._conn.execute(
            "SELECT name, created_at, revoked FROM authors WHERE name != '' ORDER BY name")]

    def is_author(self, name: str) -> bool:
        return self._conn.execute("SELECT 1 FROM authors WHERE name = ? AND name != '' "
                                  "AND revoked = 0", (name,)).fetchone() is not None

    # ----- uploads ----------------------------------------------------------------------------
    def add_upload(self, author: str, filename: str) -> int:
        with self._write() as conn:
            cur = conn.execute("INSERT INTO uploads (author, received_at, filename, state, "
                               "updated_at) VALUES (?,?,?,?,?)",
                               (author, now(), filename, QUEUED, now()))
            return int(cur.lastrowid or 0)

    def set_upload(self, upload: int, state: str, *, content_hash: str | None = None,
                   reason: str | None = None, output: str | None = None) -> None:
        sets, args = ["state = ?", "updated_at = ?"], [state, now()]
        for column, value in (("content_hash", content_hash), ("reason", reason),
                              ("output", output)):
            if value is not None:
                sets.append(f"{column} = ?")
                args.append(value)
        with self._write() as conn:
            conn.execute(f"UPDATE uploads SET {', '.join(sets)} WHERE id = ?", (*args, upload))

    def upload(self, upload: int) -> Upload | None:
        row = self._conn.execute("SELECT * FROM uploads WHERE id = ?", (upload,)).fetchone()
        return Upload(*row) if row else None

    def uploads(self, author: str | None = None) -> list[Upload]:
        if author is None:
            rows = self._conn.execute("SELECT * FROM uploads ORDER BY id")
        else:
            rows = self._conn.execute("SELECT * FROM uploads WHERE author = ? ORDER BY id", (author,))
        return [Upload(*row) for row in rows]

    def pending(self) -> list[Upload]:
        """Uploads not yet admitted or refused, oldest first."""
        return [u for u in self.uploads() if u.state not in DONE]

    # ----- settings ---------------------------------------------------------------------------
    def setting(self, key: str, default: str = "") -> str:
        row = self._conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_setting(self, key: str, value: str) -> None:
        with self._write() as conn:
            conn.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) "
                         "DO UPDATE SET value = excluded.value", (key, value))
