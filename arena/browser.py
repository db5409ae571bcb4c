"""A person at the table in a web browser: ``arena play GAME human BOT... --browser``.

A small HTTP server of the standard library, on 127.0.0.1, serves one page for each seat a person
plays, at an address holding a secret of its own: a page shows one seat's view, and a person
opens only the address they were given. The page (written by the reports package through the
``arena.viewers`` entry point ``table``; arena imports no layer above it) draws the seat's view of
the match with the game's replay drawer, shows each move as it happens, and offers the seat's
legal actions as buttons when it is that seat's turn.

What reaches a page is what its seat may know (:meth:`Table.view`): every event as
:meth:`arena.game.Game.seen_by` shows it to that seat, the seat's own decisions with their legal
actions, only the actions of the other seats (their legal actions would tell their hands), the
seat's own observation in the game's words, and at the end the result with the other seats'
statuses without their reasons, failures or stderr. Bots' notes stay in the record.

Routes, under ``/<secret>/``: ``GET`` the page; ``GET state?after=V`` the view as JSON once its
version is past ``V`` (a long poll of at most :data:`POLL_SECONDS`); ``POST action`` with
``{"decision": D, "action": A}``; ``POST resign``. Anything else is 404. A request is hostile
until checked: a POST whose Content-Length is not a count of bytes up to :data:`BODY_CAP`, or
whose body is not that JSON object, is 400 (one line of JSON, never a traceback), and an unknown
secret is turned away before its body is read.
"""
from __future__ import annotations

import json
import queue
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from arena.errors import ArenaError
from arena.game import Game
from arena.human import OutOfTime, Resigned
from arena.record import for_pages

POLL_SECONDS = 10.0   # the longest a page's request for news waits before it is answered anyway
LINGER_SECONDS = 2.0  # after the match, how long the server waits for the pages to see its end
BODY_CAP = 4096       # bytes of a posted answer
RESIGN = object()     # what the page's Resign button puts in a seat's answers
RESIGNED_HOW = "its page's Resign button"  # in the seat's status reason


class Table:
    """One match as the pages see it: the referee's thread adds its events and decisions and asks
    the seats (:meth:`ask`); the server's threads read views and bring answers. ``page`` is the
    HTML of a seat's page; ``timed``: the people play on their seats' clocks."""

    def __init__(self, game: Game, names: list[str], seats: list[int], page: str, *,
                 timed: bool = False, options: dict[str, Any] | None = None,
                 time_control: dict[str, Any] | None = None) -> None:
        self.game = game
        self.names = names
        self.public = {"options": options or {}, "time_control": time_control or {}}  # as in hello
        self.page = page
        self.timed = timed
        self.secrets = {secrets.token_urlsafe(16): seat for seat in seats}
        self.changed = threading.Condition()
        self.version = 0
        self.events: list[dict[str, Any]] = []
        self.decisions: list[dict[str, Any]] = []
        self.asking: dict[int, dict[str, Any]] = {}  # seat -> the decision it is asked now
        self.answers: dict[int, queue.Queue] = {seat: queue.Queue() for seat in seats}
        self.resigned: set[int] = set()
        self.result: dict[str, Any] | None = None
        self.shown: dict[int, int] = {}  # seat -> the last version its page was sent

    # ----- the referee's side ------------------------------------------------------------------
    def _bump(self) -> None:
        self.version += 1
        self.changed.notify_all()

    def event(self, event: dict[str, Any]) -> None:
        """An event of the match (``play_match``'s ``on_event``)."""
        with self.changed:
            self.events.append(event)
            self._bump()

    def decided(self, decision: dict[str, Any]) -> None:
        """A decision as the record keeps it (``play_match``'s ``on_decision``)."""
        with self.changed:
            self.decisions.append(decision)
            self._bump()

    def person(self, seat: int) -> BrowserPerson:
        return BrowserPerson(self, seat)

    def ask(self, seat: int, decision: int, observation: dict[str, Any], legal: list[str],
            deadline: float | None) -> str:
        """Wait for the seat's page to choose one of ``legal``; :class:`Resigned` if it resigns,
        :class:`OutOfTime` past ``deadline``."""
        answers = self.answers[seat]
        with self.changed:
            if seat in self.resigned:  # resigned while the others played: at its next turn
                raise Resigned(RESIGNED_HOW)
            while not answers.empty():  # an answer to an earlier question is no answer to this one
                answers.get_nowait()
            self.asking[seat] = {"decision": decision, "legal": list(legal), "deadline": deadline,
                                 "observation": self.game.describe_observation(observation)}
            self._bump()
        try:
            while True:
                wait = 0.25 if deadline is None else min(0.25, deadline - time.monotonic())
                if wait <= 0:
                    raise OutOfTime()
                try:  # short waits: Ctrl-C reaches the referee's thread at once
                    answer = answers.get(timeout=wait)
                except queue.Empty:
                    continue
                if answer is RESIGN:
                    raise Resigned(RESIGNED_HOW)
                return answer
        finally:
            with self.changed:
                self.asking.pop(seat, None)
                self._bump()

    def finish(self, record: Any) -> None:
        """The match is over (or stopped): its result goes to the pages."""
        with self.changed:
            self.result = {"scores": list(record.scores), "ranks": list(record.ranks),
                           "statuses": [{"status": s.status, "reason": s.reason, "failure": s.failure}
                                        for s in record.statuses],
                           "stopped": record.stopped}
            self._bump()

    def linger(self, seconds: float = LINGER_SECONDS) -> None:
        """Wait, at most ``seconds``, until every page that was opened has been sent the end."""
        end = time.monotonic() + seconds
        with self.changed:
            while any(v < self.version for v in self.shown.values()):
                left = end - time.monotonic()
                if left <= 0:
                    return
                self.changed.wait(left)

    # ----- the pages' side ---------------------------------------------------------------------
    def answer(self, seat: int, decision: Any, action: Any) -> str | None:
        """A page's choice; ``None`` if taken, else why not."""
        with self.changed:
            asked = self.asking.get(seat)
            if asked is None or decision != asked["decision"]:
                return "that decision is not asked now"
            if action not in asked["legal"]:
                return "not one of the legal actions"
            self.answers[seat].put(action)
            return None

    def resign(self, seat: int) -> None:
        """The seat resigns: now if it is asked, else at its next turn."""
        with self.changed:
            self.resigned.add(seat)
            self.answers[seat].put(RESIGN)

    def wait_view(self, seat: int, after: int, timeout: float = POLL_SECONDS) -> dict[str, Any]:
        """The seat's view once the match changed past version ``after`` (or after ``timeout``)."""
        end = time.monotonic() + timeout
        with self.changed:
            while self.version <= after and time.monotonic() < end:
                self.changed.wait(end - time.monotonic())
            view = self.view(seat)
            self.shown[seat] = self.version
            self.changed.notify_all()
            return view

    def view(self, seat: int) -> dict[str, Any]:
        """What the seat's page is sent: the match as a record the replay viewer draws, holding
        only what the seat may know (the module docstring lists it). Called under the lock."""
        seen = [self.game.seen_by(e, {seat}) for e in self.events]
        record: dict[str, Any] = {
            "game": self.game.name, "seats": [{"name": n} for n in self.names], **self.public,
            "events": seen,
            "decisions": [{k: d[k] for k in ("seat", "legal", "action", "ms")} if d["seat"] == seat
                          else None for d in self.decisions],
        }
        if self.result is not None:
            statuses = [st if i == seat else {"status": st["status"]}
                        for i, st in enumerate(self.result["statuses"])]
            record.update(scores=self.result["scores"], ranks=self.result["ranks"], statuses=statuses)
        lines = [line for line in (self.game.describe(e, self.names) for e in seen) if line]
        view: dict[str, Any] = {"version": self.version, "seat": seat, "title": self.game.title,
                                "record": record, "log": lines, "over": self.result is not None,
                                "stopped": self.result["stopped"] if self.result else None}
        asked = self.asking.get(seat)
        if asked is not None:
            view["asking"] = {k: asked[k] for k in ("decision", "legal", "observation")}
            if asked["deadline"] is not None:
                view["asking"]["ms_left"] = max(0, round((asked["deadline"] - time.monotonic()) * 1000))
        return view


class BrowserPerson:
    """A seat played from its page: what the referee asks of a person (:class:`arena.human.Person`)."""

    def __init__(self, table: Table, seat: int) -> None:
        self.table = table
        self.seat = seat
        self.timed = table.timed

    def ask(self, seat: int, decision: int, observation: dict[str, Any], legal: list[str],
            deadline: float | None) -> str:
        return self.table.ask(seat, decision, observation, legal, deadline)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    timeout = 30  # seconds a request may take to arrive (a body announced and never sent)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the terminal shows the match, not the requests."""

    def _seat(self) -> tuple[int | None, str, dict[str, list[str]]]:
        parts = urlsplit(self.path)
        secret, _, rest = parts.path.lstrip("/").partition("/")
        return self.server.table.secrets.get(secret), rest, parse_qs(parts.query)

    def _send(self, code: int, body: bytes, kind: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if kind.startswith("text/html"):
            self.send_header("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; "
                             "style-src 'unsafe-inline'; img-src data:; connect-src 'self'")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, code: int, value: Any) -> None:
        self._send(code, json.dumps(for_pages(value), ensure_ascii=False).encode(), "application/json; charset=utf-8")

    def do_GET(self) -> None:
        seat, rest, query = self._seat()
        table = self.server.table
        if seat is None:
            self._send(404, b"not found", "text/plain; charset=utf-8")
        elif rest == "":
            self._send(200, table.page.encode(), "text/html; charset=utf-8")
        elif rest == "state":
            try:
                after = int(query.get("after", ["-1"])[0])
            except ValueError:
                after = -1
            self._json(200, table.wait_view(seat, after))
        else:
            self._send(404, b"not found", "text/plain; charset=utf-8")

    def do_POST(self) -> None:
        """A page's answer. Nothing from the request is trusted: a length that is not a count of
        bytes, or past :data:`BODY_CAP`, is 400 on any path; the secret and the route are checked
        before the body is read (404); a body that is not ``{"decision": D, "action": A}`` is 400."""
        length = self.headers.get("Content-Length") or "0"
        if not re.fullmatch(r"[0-9]{1,6}", length) or int(length) > BODY_CAP:
            self._refuse(400, f"Content-Length must be a count of bytes up to {BODY_CAP}")
            return
        seat, rest, _ = self._seat()
        table = self.server.table
        if seat is None or rest not in ("action", "resign"):
            self._send(404, b"not found", "text/plain; charset=utf-8")
            return
        body = self.rfile.read(int(length))
        if rest == "resign":
            table.resign(seat)
            self._json(200, {"ok": True})
            return
        try:
            sent = json.loads(body)
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            sent = None
        if not isinstance(sent, dict):
            self._refuse(400, "expected {\"decision\": D, \"action\": A}")
            return
        problem = table.answer(seat, sent.get("decision"), sent.get("action"))
        self._json(409 if problem else 200, {"ok": problem is None, "problem": problem})

    def _refuse(self, code: int, problem: str) -> None:
        self.close_connection = True  # what is left of the request is not read
        self._json(code, {"ok": False, "problem": problem})


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    table: Table


@contextmanager
def serving(table: Table, port: int = 0) -> Iterator[dict[int, str]]:
    """Serve ``table``'s pages on 127.0.0.1 (``port`` 0: a free one) while the block runs;
    yields each seat's address."""
    try:
        server = _Server(("127.0.0.1", port), _Handler)
    except OSError as exc:
        raise ArenaError(f"--port {port}: cannot serve on 127.0.0.1:{port} ({exc.strerror or exc})") from None
    server.table = table
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1},
                              name="arena-browser", daemon=True)
    thread.start()
    bound = server.server_address[1]
    try:
        yield {seat: f"http://127.0.0.1:{bound}/{secret}/" for secret, seat in table.secrets.items()}
    finally:
        server.shutdown()
        server.server_close()


def table_page() -> Callable[[str, str], str]:
    """The page writer, ``page(game, title) -> HTML``: offered by the reports package through the
    ``arena.viewers`` entry point ``table`` (arena imports no layer above it)."""
    from importlib.metadata import entry_points

    for entry in entry_points(group="arena.viewers", name="table"):
        return entry.load()
    raise ArenaError("--browser needs arena's reports package, which writes the page (the "
                     "'arena.viewers' entry point 'table'); reinstall arena with it")
