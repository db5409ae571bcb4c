"""The match record: everything needed to check, replay and report one match (docs/match-record.md)."""
from __future__ import annotations

import json
import re
import zlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

RECORD_FORMAT = "arena-match/2"  # 2: named chance streams (docs/match-record.md)

# Seat statuses (SPEC.md §7). Everything but OK loses the match.
OK = "ok"
TIMEOUT = "timeout"
CRASH = "crash"
ILLEGAL_ACTION = "illegal_action"
PROTOCOL_ERROR = "protocol_error"
HANDSHAKE_FAILED = "handshake_failed"
BUILD_FAILED = "build_failed"  # the manifest's build step failed (arena.build); the bot never started
RESIGNED = "resigned"  # a person's seat whose input ended (Ctrl-D, or the end of a pipe): arena.human
STATUSES = (OK, TIMEOUT, CRASH, ILLEGAL_ACTION, PROTOCOL_ERROR, HANDSHAKE_FAILED, BUILD_FAILED, RESIGNED)


@dataclass
class SeatStatus:
    """How a seat's bot behaved: a status, a reason a person understands, its stderr tail."""

    status: str = OK
    reason: str = ""
    stderr_tail: str = ""
    time_ms: float = 0.0  # thinking time used over the match
    # The decision this seat failed at, when it failed at one (docs/match-record.md):
    # {"decision": k, "legal": [...offered], "answer": text or None, "kind": status}.
    failure: dict[str, Any] | None = None


def outcome(ranks: Sequence[int], names: Sequence[str], statuses: Sequence[str]) -> str:
    """A match's result in words, read from its ``ranks`` alone, as everything that shows a
    result says it (the terminal of ``arena play``, the report, and reports/static/replay.js's
    ``Arena.outcome``): ``"greedy won"`` when one seat ranks first (a match cut short by the
    game's length cap too: it is ranked by the game's rule for one), ``"draw"`` when several
    share first place, and the failed seats after it: ``"greedy won (flaky failed: crash)"``."""
    top = [seat for seat, rank in enumerate(ranks) if rank == 1]
    text = "draw" if len(top) > 1 else f"{names[top[0]]} won" if top else "no result"
    failed = [f"{names[seat]} failed: {status.replace('_', ' ')}"
              for seat, status in enumerate(statuses) if status != OK]
    return f"{text} ({'; '.join(failed)})" if failed else text


@dataclass
class MatchRecord:
    """One match: header, chance and decisions in order, and the result."""

    game: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]  # per seat: name, path, hash
    time_control: dict[str, int]
    sandbox: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    statuses: list[SeatStatus] = field(default_factory=list)
    duration_ms: float = 0.0
    format: str = RECORD_FORMAT
    # Why the match stopped before its end (Ctrl-C in `arena play`); "" for a match played out,
    # and then left out of the record's JSON and packed form.
    stopped: str = ""

    @property
    def failed(self) -> bool:
        return any(s.status != OK for s in self.statuses)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if not self.stopped:
            del data["stopped"]
        return data

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> MatchRecord:
        data = dict(data)
        known = {f.name for f in fields(SeatStatus)}
        data["statuses"] = [SeatStatus(**{k: v for k, v in s.items() if k in known})
                            for s in data.get("statuses", [])]
        return MatchRecord(**data)

    @staticmethod
    def from_json(text: str) -> MatchRecord:
        return MatchRecord.from_dict(json.loads(text))

    def pack(self) -> bytes:
        """The packed form: how a tournament store keeps the record, how it travels from a worker
        to the parent, and how a report publishes it (docs/match-record.md, "Packed form"): the
        compact JSON of :func:`compact`, zlib-compressed. Built without ``asdict``'s deep copy of
        every event and decision (most of the time a full match's record took)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "stopped" or self.stopped}
        data["statuses"] = [asdict(s) for s in self.statuses]
        return pack_dict(data)

    @staticmethod
    def unpack_json(blob: bytes) -> str:
        """The JSON text of a packed record (the full form, whichever form was packed)."""
        data = json.loads(zlib.decompress(blob))
        if data.get(COMPACT_KEY):
            return json.dumps(expand(data), ensure_ascii=False, separators=(",", ":"))
        return zlib.decompress(blob).decode("utf-8")

    @staticmethod
    def unpack(blob: bytes) -> MatchRecord:
        data = json.loads(zlib.decompress(blob))
        return MatchRecord.from_dict(expand(data) if data.get(COMPACT_KEY) else data)


# ----- the packed form -----------------------------------------------------------------------
# docs/match-record.md, "Packed form". The full record repeats itself: every decision lists its
# legal actions as text, and every action event repeats its decision's seat and action. The
# compact form writes each action text once (``strings``), a decision as indices, an action
# event as only what it adds, and no bot folders (a store keeps them in its entrants table).
# ``expand`` gives the full record back; reports/static/replay.js (``Arena.expandRecord``) does
# the same in the browser.
COMPACT_KEY = "compact"
COMPACT_VERSION = 1
ACTION_KEYS = ("type", "seat", "action")
# Optional in a decision (SPEC.md §3); packed as a column each, after the events (``notes``,
# ``notes_dropped``), and only in a record that has some: a record without notes packs as before,
# and notes written last cost little more than their own compressed bytes.
NOTE_KEYS = {"note": "notes", "note_dropped": "notes_dropped"}


def compact(data: dict[str, Any]) -> dict[str, Any]:
    """The compact form of a full record's dict; the dict itself (paths dropped) if its decisions
    and action events do not line up as the format says they must."""
    out: dict[str, Any] = {COMPACT_KEY: COMPACT_VERSION}  # first: ``is_compact`` reads the head
    out.update((k, v) for k, v in data.items() if k not in ("seats", "decisions", "events", COMPACT_KEY))
    out["seats"] = [{k: v for k, v in seat.items() if k != "path"} for seat in data.get("seats", [])]
    decisions = data.get("decisions", [])
    events = data.get("events", [])
    table: dict[str, int] = {}
    seats, legal, picks, ms = [], [], [], []
    notes: dict[str, list[Any]] = {}
    try:
        for k, d in enumerate(decisions):
            if len(d) != 4:
                for key in d.keys() - {"seat", "legal", "action", "ms"}:
                    if key not in NOTE_KEYS:
                        raise ValueError
                    notes.setdefault(key, [None] * len(decisions))[k] = d[key]
            indices = []
            for a in d["legal"]:
                i = table.get(a)
                if i is None:
                    i = table[a] = len(table)
                indices.append(i)
            seats.append(d["seat"])
            legal.append(indices)
            picks.append(d["legal"].index(d["action"]))
            ms.append(round(d["ms"], 1))  # 0.1 ms: finer is scheduling noise
        packed_events: list[Any] = []
        k = 0
        for e in events:
            if e.get("type") != "action":
                packed_events.append(e)
                continue
            d = decisions[k]
            if e.get("seat") != d["seat"] or e.get("action") != d["action"]:
                raise ValueError
            k += 1
            extra = {key: v for key, v in e.items() if key not in ACTION_KEYS}
            packed_events.append(extra or 0)
        if k != len(decisions):
            raise ValueError
    except (ValueError, KeyError, IndexError, TypeError):
        return {**{k: v for k, v in data.items() if k != COMPACT_KEY}, "seats": out["seats"]}
    out["strings"] = list(table)
    out["decisions"] = {"seat": seats, "legal": legal, "pick": picks, "ms": ms}
    out["events"] = packed_events
    out.update((NOTE_KEYS[key], column) for key, column in notes.items())
    return out


def expand(data: dict[str, Any]) -> dict[str, Any]:
    """The full record's dict from its compact form."""
    out = {k: v for k, v in data.items()
           if k not in (COMPACT_KEY, "strings", "decisions", "events", *NOTE_KEYS.values())}
    strings = data["strings"]
    d = data["decisions"]
    decisions = []
    for seat, indices, pick, ms in zip(d["seat"], d["legal"], d["pick"], d["ms"]):
        legal = [strings[i] for i in indices]
        decisions.append({"seat": seat, "legal": legal, "action": legal[pick], "ms": ms})
    for key, column in NOTE_KEYS.items():
        for decision, value in zip(decisions, data.get(column, ())):
            if value is not None:
                decision[key] = value
    events = []
    k = 0
    for e in data["events"]:
        if isinstance(e, dict) and "type" in e:
            events.append(e)
            continue
        dec = decisions[k]
        k += 1
        events.append({"type": "action", "seat": dec["seat"], "action": dec["action"], **(e or {})})
    out["decisions"] = decisions
    out["events"] = events
    return out


def is_compact(blob: bytes) -> bool:
    """Whether a packed record is in the compact form, from its first bytes only."""
    head = zlib.decompressobj().decompress(blob, 16)
    return head.startswith(b'{"' + COMPACT_KEY.encode() + b'":')


# JavaScript reads every JSON number as a double, exact only up to 2^53: a 63-bit match seed read
# as a number comes out rounded (3892202763452987323 as 3892202763452987400).
JS_EXACT = 2 ** 53 - 1


def for_pages(value: Any) -> Any:
    """``value`` (JSON data) as a page's JavaScript must read it: every integer beyond ``JS_EXACT``
    (a seed, an id), however deep, becomes the text of its digits. A record keeps its numbers
    (Python reads them exactly); what a page reads is made with this."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value) if abs(value) > JS_EXACT else value
    if isinstance(value, dict):
        return {k: for_pages(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [for_pages(v) for v in value]
    return value


def page_blob(blob: bytes) -> bytes:
    """A packed record as a page reads it (:func:`for_pages`): the same blob when it holds no
    integer beyond ``JS_EXACT``, else packed again with those as text."""
    text = zlib.decompress(blob)
    if not re.search(rb"\d{16}", text):  # no integer of 16 digits or more: nothing to change
        return blob
    data = json.loads(text)
    safe = for_pages(data)
    if safe == data:
        return blob
    return zlib.compress(json.dumps(safe, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 6)


def pack_dict(data: dict[str, Any]) -> bytes:
    """A full record's dict in the packed form."""
    text = json.dumps(compact(data), ensure_ascii=False, separators=(",", ":"))
    return zlib.compress(text.encode("utf-8"), 6)
