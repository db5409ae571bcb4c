"""What the contest's pages read (``contest.app`` calls these in its worker threads): the
leaderboard, an author's page, a match of theirs, the teacher's view, the downloads. Readings of
the store are cached until it changes (:class:`Cache`)."""
from __future__ import annotations

import io
import json
import os
import sqlite3
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.responses import HTMLResponse

from contest.db import DONE
from contest.runner import Contest
from tournaments.store import Store, store_path


class Cache:
    """What the pages read from the store, made again only when the store has changed (its file
    and its write-ahead log), by one thread at a time and at most every ``MIN_AGE`` seconds:
    meanwhile the others are answered from the last reading. A hundred browsers polling while
    matches are stored cost one reading every few seconds, not one per request."""

    MIN_AGE = 2.0

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values: dict[tuple[str, str], tuple[tuple[int, ...], float, Any]] = {}
        self._making: dict[tuple[str, str], threading.Lock] = {}

    def get(self, contest: Contest, what: str, make: Callable[[], Any]) -> Any:
        path = store_path(contest.output)
        key = tuple(os.stat(f).st_mtime_ns if os.path.exists(f) else 0
                    for f in (path, Path(f"{path}-wal")))
        slot = (str(contest.output), what)
        with self._lock:
            found = self._values.get(slot)
            making = self._making.setdefault(slot, threading.Lock())
        if found is not None and (found[0] == key or time.monotonic() - found[1] < self.MIN_AGE):
            return found[2]
        if not making.acquire(blocking=found is None):
            assert found is not None
            return found[2]  # another thread is reading it: the last reading meanwhile
        try:
            with self._lock:
                latest = self._values.get(slot)
            if latest is not None and latest is not found:
                return latest[2]  # made while this one waited
            value = make()
            with self._lock:
                self._values[slot] = (key, time.monotonic(), value)
            return value
        finally:
            making.release()


_cache = Cache()


def leaderboard(contest: Contest) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = _cache.get(contest, "leaderboard", lambda: _read_leaderboard(contest))
    return rows


def _read_leaderboard(contest: Contest) -> list[dict[str, Any]]:
    """The public leaderboard: rank, name (the alias in an anonymous contest), rating, matches."""
    path = store_path(contest.output)
    if not Store.is_initialised(path):
        return []
    from tournaments.aliases import draw_aliases
    from tournaments.ratings import compute_ratings
    with Store.open(path) as store:
        ratings = compute_ratings(store)
        settings = store.meta.report_settings()
        entrants = store.field.entrants()
    names = {e.id: e.name for e in entrants}
    if settings.anonymous and settings.alias_key:
        aliases = draw_aliases(settings.alias_key, names, settings.references)
        names = {e: aliases[e].name if e in aliases else n for e, n in names.items()}
    return [{"rank": i, "name": names.get(s.entrant.id, s.entrant.name),
             "rating": f"{s.mu - 3 * s.sigma:.2f}", "matches": s.matches, "wins": s.wins}
            for i, s in enumerate(ratings.standings, start=1)]


def author_page(contest: Contest, author: str, csrf: str, said: str) -> HTMLResponse:
    from reports.authors import AuthorPage, load_author_pages
    from reports.render import environment

    pages: dict[str, AuthorPage] = {}
    if Store.is_initialised(store_path(contest.output)):
        try:
            pages = _cache.get(contest, "authors", lambda: load_author_pages(contest.output))
        except sqlite3.Error:
            pages = {}
    page = pages.get(author) or AuthorPage(author, author, state="no version admitted yet")
    uploads = list(reversed(contest.db.uploads(author)))[:20][::-1]
    message = ""
    if said.startswith("upload") and said[6:].isdigit():
        message = (f"Upload {said[6:]} received: it is checked now, and this page shows how it "
                   "goes.")
    elif said.startswith("wait") and said[4:].isdigit():
        message = f"One upload a minute: try again in {said[4:]} s."
    server = {"csrf": csrf, "upload_href": "/me/upload", "match_href": "/me/match/",
              "uploads": uploads, "pending": any(u.state not in DONE for u in uploads),
              "wait": int(contest.wait_before_upload(author)), "message": message}
    html = environment().get_template("author.html.j2").render(
        page=page, tournament=contest.config.name, server=server)
    return HTMLResponse(html)


def match_view(contest: Contest, author: str, match_id: int) -> dict[str, Any] | None:
    """A match of ``author``'s: the result, and their own bot's status, stderr and notes."""
    path = store_path(contest.output)
    if not Store.is_initialised(path):
        return None
    with Store.open(path) as store:
        names = {e.id: e.name for e in store.field.entrants()}
        row = next((m for m in store.matches.all() if m.id == match_id), None)
        if row is None:
            return None
        seats = [s for s, e in enumerate(row.seats) if names.get(e) == author]
        if not seats:
            return None
        text = store.matches.record_json(match_id)
    record = json.loads(text) if text else {}
    seat = seats[0]
    notes = [(d.get("decision", i), d.get("note", "")) for i, d in enumerate(record.get("decisions", []))
             if d.get("seat") == seat and d.get("note")]
    status = record.get("statuses", [{}] * (seat + 1))[seat] if record else {}
    return {"match": match_id, "seat": seat, "author": author,
            "result": ", ".join(f"seat {s}: place {row.ranks[s]}, score {row.scores[s]}"
                                for s in range(len(row.seats))),
            "outcome": row.statuses[seat], "reason": row.reasons[seat],
            "stderr": status.get("stderr_tail", "") or row.stderr_tails[seat], "notes": notes,
            "replay": f"/report/replay.html?match={match_id}"}


def teacher_view(contest: Contest) -> dict[str, Any]:
    states: dict[str, str] = {}
    path = store_path(contest.output)
    if Store.is_initialised(path):
        with Store.open(path) as store:
            latest = store.field.latest()
            states = {e.name: f"version {latest[e.id].version}, {latest[e.id].state}"
                      for e in store.field.entrants() if e.id in latest}
    authors = [{"name": n, "since": c[:19].replace("T", " "), "revoked": r,
                "state": states.get(n, "no version admitted")} for n, c, r in contest.db.authors()]
    uploads = contest.db.uploads()
    return {"authors": authors, "queue": [u for u in uploads if u.state not in DONE],
            "uploads": uploads[-50:], "revealed": contest.db.setting("reveal_seed") == "yes"}


def store_copy(contest: Contest) -> str:
    """A consistent copy of the store (SQLite's backup), to send and delete."""
    fd, name = tempfile.mkstemp(prefix="arena-store-", suffix=".sqlite")
    os.close(fd)
    source = sqlite3.connect(f"file:{store_path(contest.output)}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(name)
        with target:
            source.backup(target)
        target.close()
    finally:
        source.close()
    return name


def zip_folder(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.is_symlink():
                archive.write(path, path.relative_to(folder).as_posix())
    return buffer.getvalue()
