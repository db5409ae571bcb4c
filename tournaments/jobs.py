"""A match job and what comes back: :class:`MatchJob` is pure, picklable data (game, options, bot
specs, seed, time control, limits) and :func:`play_job` plays one anywhere: in this process, in a
worker process, or on another machine (``tournaments.cluster``). The backends
(``tournaments.backends``) hand jobs out and yield :class:`Finished` matches."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

from arena.bots import BotSpec
from arena.record import MatchRecord
from arena.referee import TimeControl, play_match
from arena.sandbox import Limits
from tournaments.warm import WarmStarts


@dataclass(frozen=True)
class MatchJob:
    """Everything needed to play one match, and nothing else: pure, picklable data."""

    match_id: int
    game: str
    options: dict[str, Any]
    bots: tuple[BotSpec, ...]
    seed: int
    time_control: TimeControl = TimeControl()
    limits: dict[str, Any] = field(default_factory=dict)  # keyword arguments of sandbox.Limits


@dataclass
class Finished:
    """A played match: its record and how long it took where it was played.

    Between processes (a worker's pipe, a Dask result) the record travels packed, as the store
    keeps it: the worker that played the match does the encoding, the parent stores the bytes as
    they are (:meth:`packed`) and only decodes them, so the one parent of many workers does little
    per match."""

    match_id: int
    record: MatchRecord
    startup_ms: float  # from the call until the first game event: starting the bots + handshake
    wall_ms: float     # the whole play_match call
    worker: str = ""
    _packed: bytes | None = field(default=None, init=False, repr=False, compare=False)

    def packed(self) -> bytes:
        """``record.pack()``, made once."""
        if self._packed is None:
            self._packed = self.record.pack()
        return self._packed

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__, record=None)
        state["_packed"] = self.packed()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        assert self._packed is not None  # __getstate__ packs the record
        self.record = MatchRecord.unpack(self._packed)


class MatchError(RuntimeError):
    """A match raised instead of returning a record: a bug in arena, not a misbehaving bot."""

    def __init__(self, match_id: int, details: str) -> None:
        super().__init__(f"match {match_id} failed inside arena (a bug, not the bots' fault):\n"
                         f"{details}")
        self.match_id = match_id


def play_job(job: MatchJob, warm: WarmStarts | None = None,
             next_job: MatchJob | None = None) -> Finished:
    """Play one job; the referee turns every bot failure into a status, so this returns.

    With ``warm``, the bots come from there when they were started ahead, and once this match is
    under way the bots of ``next_job`` are started ahead in turn.
    """
    started = time.monotonic()
    first_event: list[float] = []

    def on_event(_event: dict[str, Any]) -> None:
        if not first_event:
            first_event.append(time.monotonic())
            if warm is not None and next_job is not None:
                warm.prepare(next_job.bots, Limits(**next_job.limits))

    record = play_match(job.game, list(job.bots), options=dict(job.options), seed=job.seed,
                        time_control=job.time_control, limits=Limits(**job.limits),
                        on_event=on_event, launch=warm.launch if warm else None)
    ended = time.monotonic()
    startup = (first_event[0] if first_event else ended) - started
    return Finished(job.match_id, record, startup_ms=round(startup * 1000, 3),
                    wall_ms=round((ended - started) * 1000, 3), worker=f"pid {os.getpid()}")


__all__ = ["Finished", "MatchError", "MatchJob", "play_job"]
