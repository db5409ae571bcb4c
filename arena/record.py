"""The match record: everything needed to check, replay and report one match (docs/match-record.md)."""
from __future__ import annotations

import json
import zlib
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
STATUSES = (OK, TIMEOUT, CRASH, ILLEGAL_ACTION, PROTOCOL_ERROR, HANDSHAKE_FAILED, BUILD_FAILED)


@dataclass
class SeatStatus:
    """How a seat's bot behaved: a status, a reason a person understands, its stderr tail."""

    status: str = OK
    reason: str = ""
    stderr_tail: str = ""
    time_ms: float = 0.0  # thinking time used over the match


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

    @property
    def failed(self) -> bool:
        return any(s.status != OK for s in self.statuses)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> "MatchRecord":
        data = dict(data)
        data["statuses"] = [SeatStatus(**s) for s in data.get("statuses", [])]
        return MatchRecord(**data)

    @staticmethod
    def from_json(text: str) -> "MatchRecord":
        return MatchRecord.from_dict(json.loads(text))

    def pack(self) -> bytes:
        """Compact JSON, zlib-compressed: how a tournament store keeps the record, and how it
        travels from a worker to the parent. Built without ``asdict``'s deep copy of every event
        and decision (most of the time a full match's record took)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["statuses"] = [asdict(s) for s in self.statuses]
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return zlib.compress(text.encode("utf-8"), 6)

    @staticmethod
    def unpack_json(blob: bytes) -> str:
        """The JSON text of a packed record."""
        return zlib.decompress(blob).decode("utf-8")

    @staticmethod
    def unpack(blob: bytes) -> "MatchRecord":
        return MatchRecord.from_json(MatchRecord.unpack_json(blob))
