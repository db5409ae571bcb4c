"""The referee: plays one match between bot processes and always returns a result.

A bot that times out, crashes, breaks the protocol or answers an illegal action loses the match
with a status and a reason (``arena.record``); it is never an exception here. The match ends
cleanly: every bot's process group is killed before ``play_match`` returns.
"""
from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from arena import sandbox
from arena.bots import BotSpec
from arena.build import BuildFailed, ensure_built
from arena.connection import BotExited, BotProtocolError, BotTimeout, Connection
from arena.errors import ArenaError
from arena.game import Game, Result, bot_seed
from arena.games import get_game
from arena.human import Asked, OutOfTime, Resigned
from arena.options import options_to_dict
from arena.record import (
    BUILD_FAILED,
    CRASH,
    HANDSHAKE_FAILED,
    ILLEGAL_ACTION,
    OK,
    PROTOCOL_ERROR,
    RESIGNED,
    TIMEOUT,
    MatchRecord,
    SeatStatus,
)
from arena.text import bot_note
from protocol.wire import PROTOCOL_VERSION

GOODBYE_GRACE = 0.2  # seconds a bot has to exit by itself after the end message


class MatchStopped(KeyboardInterrupt):
    """The match was interrupted (Ctrl-C); ``record`` holds it so far, marked ``stopped``. A
    ``KeyboardInterrupt``, so that whatever stops on one stops on this too."""

    def __init__(self, record: MatchRecord) -> None:
        super().__init__(record.stopped)
        self.record = record


@dataclass(frozen=True)
class TimeControl:
    """Per-move allowance plus a per-match bank (SPEC.md §5).

    A move may take ``move_ms`` for free; time beyond it is drawn from the seat's bank, and a move
    that would overdraw the bank is a timeout. ``startup_ms`` bounds the start and the handshake.
    """

    move_ms: int = 1000
    bank_ms: int = 10000
    startup_ms: int = 10000

    def __post_init__(self) -> None:
        for name in ("move_ms", "bank_ms", "startup_ms"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0 or (name != "bank_ms" and value == 0):
                raise ArenaError(f"time control {name}={value!r}: must be a positive number of milliseconds")

    @staticmethod
    def parse(text: str) -> TimeControl:
        """``"1+10"`` (seconds per move + bank; both are required, ``"1+0"`` for no bank) or
        ``"move=0.5,bank=5,startup=3"`` (seconds)."""
        try:
            if "=" in text:
                values = {}
                for part in text.split(","):
                    key, _, value = part.partition("=")
                    key = key.strip()
                    if key not in ("move", "bank", "startup"):
                        raise ArenaError(f"time control {text!r}: unknown key {key!r} "
                                         "(known: move, bank, startup)")
                    values[f"{key}_ms"] = round(float(value) * 1000)
                return TimeControl(**values)
            move, sep, bank = text.partition("+")
            if not sep:
                float(move)  # not a number: the message below
                raise ArenaError(f"time control {text!r}: give the bank too, as MOVE+BANK in "
                                 f"seconds: '{text.strip()}+10', or '{text.strip()}+0' for no bank")
            return TimeControl(move_ms=round(float(move) * 1000), bank_ms=round(float(bank) * 1000))
        except ValueError:
            raise ArenaError(f"time control {text!r}: expected MOVE+BANK in seconds, e.g. '1+10', "
                             "or move=S,bank=S,startup=S") from None


class _Seat:
    """A bot in its seat during one match, or a person (``person``; no process)."""

    def __init__(self, bot: BotSpec, bank_ms: int, person: Asked | None = None) -> None:
        self.bot = bot
        self.person = person
        self.process: sandbox.BotProcess | None = None
        self.conn: Connection | None = None
        self.status = SeatStatus()
        self.bank_ms = float(bank_ms)
        self.started = 0.0  # when its process was handed over (monotonic): its startup_ms run from here
        self.cpu_earned = 0.0   # CPU seconds its answered decisions added to its limits.cpu_seconds
        self.answered = 0
        self.cpu_check_at = 0.0  # (monotonic) before this, its CPU cannot have reached its budget

    def fail(self, status: str, reason: str, failure: dict[str, Any] | None = None) -> None:
        if self.status.status == OK:
            self.status.status = status
            self.status.reason = reason
            self.status.failure = failure


def play_match(
    game: Game | str,
    bots: Sequence[BotSpec],
    *,
    options: Any = None,
    seed: int = 0,
    time_control: TimeControl = TimeControl(),
    limits: sandbox.Limits | None = None,
    on_event: Callable[[dict[str, Any]], None] | None = None,
    launch: Callable[[BotSpec, sandbox.Limits], sandbox.BotProcess] | None = None,
    on_decision: Callable[[dict[str, Any]], None] | None = None,
    people: Mapping[int, Asked] | None = None,
) -> MatchRecord:
    """Play one match; ``options`` is the game's options object or a mapping of user values.

    ``launch`` starts one bot (default ``sandbox.start``); a tournament worker passes one that
    hands out bot processes it started ahead of time (they have never played: a bot still starts
    fresh for every match). A bot with a build step is built first (``arena.build``, cached by
    its folder's content hash) and launched from its build; a failed build is the seat's
    ``build_failed``. ``on_decision`` sees each decision as the record keeps it (with the bot's
    note, if it sent one) just before its events go to ``on_event``.

    ``people`` maps seats to the persons who play them (``arena.human``): such a seat's bot is not
    started (its spec gives the seat's name) and its decisions are asked of the person. A match
    interrupted (``KeyboardInterrupt``) raises :class:`MatchStopped` with the record so far,
    after every bot was stopped.
    """
    game = get_game(game) if isinstance(game, str) else game
    if len(bots) not in game.player_counts:
        raise ArenaError(f"{game.name} is played by {game.players_text()} players; "
                         f"got {len(bots)} bots")
    if not isinstance(options, game.Options):
        options = game.make_options(len(bots), options)
    if options.num_players != len(bots):
        raise ArenaError(f"the options are for {options.num_players} players; got {len(bots)} bots")
    limits = limits or sandbox.Limits()
    people = people or {}
    record = MatchRecord(
        game=game.name, options=options_to_dict(options), seed=seed,
        seats=[{"name": b.name, "path": "" if i in people else str(b.path)} for i, b in enumerate(bots)],
        time_control=asdict(time_control),
    )
    seats = [_Seat(b, time_control.bank_ms, people.get(i)) for i, b in enumerate(bots)]
    state = game.new_match(options, seed)
    emitted = 0
    started = time.monotonic()

    def emit() -> None:
        nonlocal emitted
        if on_event is not None:
            for event in state.events[emitted:]:
                on_event(event)
        emitted = len(state.events)

    try:
        _start(seats, limits, record, launch or sandbox.start)
        _handshake(seats, game.name, record.options, time_control, record.seed)
        emit()
        playing = all(s.status.status == OK for s in seats)  # everyone started and said ready
        while playing and not state.is_terminal() and _within_cpu(seats, len(record.decisions)):
            seat_no = state.current_player()
            seat = seats[seat_no]
            legal = state.legal_actions()
            action, used_ms, note = _ask(seat, seat_no, len(record.decisions),
                                         state.observation(seat_no), legal, time_control)
            if action is None:
                break
            decision = {"seat": seat_no, "legal": legal, "action": action, "ms": round(used_ms, 1)}
            if note is not None:  # SPEC.md §3: the bot's reason, kept with its decision
                decision.update(bot_note(note))
            record.decisions.append(decision)
            seat.cpu_earned += max(used_ms, time_control.move_ms) / 1000  # move time + bank drawn
            seat.answered += 1
            if on_decision is not None:
                on_decision(decision)
            state.apply(action)
            emit()
    except KeyboardInterrupt:
        record.stopped = f"interrupted (Ctrl-C) at decision {len(record.decisions)}"
    finally:
        _finish(seats, state, record)
    record.events = state.events
    record.duration_ms = round((time.monotonic() - started) * 1000, 3)
    _rank(record, state, seats)
    if record.stopped:
        raise MatchStopped(record)
    return record


def _start(seats: list[_Seat], limits: sandbox.Limits, record: MatchRecord,
           launch: Callable[[BotSpec, sandbox.Limits], sandbox.BotProcess]) -> None:
    built: dict[int, BotSpec] = {}
    for i, seat in enumerate(seats):  # every build first: a bot's startup_ms runs from its start,
        if seat.person is not None:    # and must not be spent waiting for another seat's build
            continue
        try:  # a bot with a build step plays from its build (made now, or found in the cache)
            built[i] = ensure_built(seat.bot)
        except BuildFailed as exc:
            seat.fail(BUILD_FAILED, exc.reason)
            seat.status.stderr_tail = exc.output
    for i, seat in enumerate(seats):
        if i not in built:
            continue
        try:
            seat.process = launch(built[i], limits)
        except OSError as exc:
            seat.fail(CRASH, f"could not be started: {exc}")
            continue
        record.sandbox = seat.process.level
        seat.conn = Connection(seat.process.proc)
        seat.started = time.monotonic()
        process = seat.process  # a bot started ahead of its match has been using CPU since then
        seat.cpu_check_at = process.started + process.limits.cpu_seconds / process.cores()


def _within_cpu(seats: list[_Seat], decision: int) -> bool:
    """Whether every bot is within its CPU budget (docs/sandbox.md, "CPU time"): its
    ``cpu_seconds`` plus, for each decision it answered, its move time or the time it took if more
    (the bank it drew). A bot over it fails, and ``False`` ends the match. A bot's CPU time grows
    at most as fast as the cores it may use, so it is read only when it could have reached the
    budget: most decisions cost a clock reading."""
    now = time.monotonic()
    for seat in seats:
        if now < seat.cpu_check_at or seat.process is None or seat.status.status != OK:
            continue
        process = seat.process
        used = process.cpu_used()
        budget = process.limits.cpu_seconds + seat.cpu_earned
        if used > budget:
            seat.fail(CRASH, f"CPU time limit reached by decision {decision}: its processes used "
                             f"{used:.1f} s of CPU, more than the {budget:.1f} s it had by then "
                             f"(cpu_seconds={process.limits.cpu_seconds} plus {seat.cpu_earned:.1f} s "
                             f"of move time and bank for its {seat.answered} decisions)")
            return False
        seat.cpu_check_at = now + (budget - used) / process.cores()
    return True


def _handshake(seats: list[_Seat], game: str, options: dict[str, Any], tc: TimeControl,
               match_seed: int = 0) -> None:
    """SPEC.md §4: hello to every bot at once, then each must answer ready within ``startup_ms`` of
    its own start. Each seat has its own deadline, and an answer that arrived by it counts even if
    the referee was still waiting for another seat then: only a bot that missed it fails."""
    for seat_no, seat in enumerate(seats):
        if seat.conn is None:
            continue
        seat.conn.send_now({  # written at once: every bot starts on its hello now, not in turn
            "type": "hello", "protocol": PROTOCOL_VERSION, "game": game, "options": options,
            "seat": seat_no, "num_players": len(seats),
            "players": [s.bot.name for s in seats], "time_control": asdict(tc),
            "seed": bot_seed(match_seed, seat_no),
        })
    for seat in seats:
        if seat.conn is None:
            continue
        try:
            reply = seat.conn.exchange(None, seat.started + tc.startup_ms / 1000)
        except BotTimeout as exc:
            seat.fail(HANDSHAKE_FAILED, f"no ready message within {tc.startup_ms} ms of its start ({exc})")
            continue
        except BotExited as exc:
            seat.fail(CRASH, f"{exc} during the handshake")
            continue
        except BotProtocolError as exc:  # bytes that are not a frame: as after ready (SPEC.md §7)
            seat.fail(PROTOCOL_ERROR, f"during the handshake: {exc}")
            continue
        if reply["type"] != "ready":
            seat.fail(HANDSHAKE_FAILED, f"answered the hello with {reply['type']!r} instead of 'ready'")
        elif type(reply.get("protocol")) is not int or reply["protocol"] != PROTOCOL_VERSION:
            # SPEC.md §4: an integer; `true` and `1.0` equal 1 in Python but are not the version
            seat.fail(HANDSHAKE_FAILED, f"speaks protocol version {reply.get('protocol')!r}; "
                                        f"the referee speaks {PROTOCOL_VERSION} (an integer)")


def _ask(seat: _Seat, seat_no: int, decision: int, observation: dict[str, Any], legal: list[str],
         tc: TimeControl) -> tuple[str | None, float, Any]:
    """One decision: the bot's action, the time it took and the ``note`` it sent (``None`` when
    it sent none); the action is ``None`` if the bot failed."""
    if seat.person is not None:
        return _ask_person(seat, seat.person, seat_no, decision, observation, legal, tc)
    assert seat.conn is not None
    early = seat.conn.unsolicited()  # SPEC.md §3: nothing may be sent when no answer is due
    if early is not None:
        seat.fail(PROTOCOL_ERROR, f"decision {decision}: sent {early} when no answer was due "
                                  "(before this decision was asked; one answer per act)")
        return None, 0.0, None
    message = {
        "type": "act", "decision": decision, "observation": observation, "legal": legal,
        "clock": {"move_ms": tc.move_ms, "bank_ms": int(seat.bank_ms)},
    }
    started = time.monotonic()
    deadline = started + (tc.move_ms + seat.bank_ms) / 1000

    def failed(status: str, reason: str, answer: Any = None) -> None:
        # docs/match-record.md: the failing decision as the bot saw it, and what it answered
        seat.fail(status, reason, {"decision": decision, "legal": legal,
                                   "answer": None if answer is None else _capped(answer),
                                   "kind": status})

    try:
        reply = seat.conn.exchange(message, deadline)
    except BotTimeout as exc:
        failed(TIMEOUT, f"{exc}: decision {decision} exceeded its {tc.move_ms} ms "
                        f"plus {int(seat.bank_ms)} ms left in its bank")
        return None, 0.0, None
    except BotExited as exc:
        failed(CRASH, f"{exc} while deciding (decision {decision})")
        return None, 0.0, None
    except BotProtocolError as exc:
        failed(PROTOCOL_ERROR, f"decision {decision}: {exc}", str(exc))
        return None, 0.0, None
    used_ms = (time.monotonic() - started) * 1000
    seat.status.time_ms += used_ms
    seat.bank_ms -= max(0.0, used_ms - tc.move_ms)
    action = reply.get("action")
    if seat.bank_ms < 0:
        failed(TIMEOUT, f"decision {decision} took {used_ms:.0f} ms and overdrew its time bank",
               action if isinstance(action, str) else None)
        return None, used_ms, None
    if reply["type"] != "action" or not isinstance(action, str):
        failed(PROTOCOL_ERROR, f"decision {decision}: expected an 'action' message with a string "
                               f"action, got type {reply['type']!r} with action {action!r}",
               repr({k: reply[k] for k in list(reply)[:8]}))
        return None, used_ms, None
    echoed = reply.get("decision", decision)  # optional (SPEC.md §3): which act it answers
    if echoed != decision or type(echoed) is not int:
        seat.fail(PROTOCOL_ERROR, f"decision {decision}: answered decision {echoed!r} "
                                  f"(a late answer to an earlier act, or one sent ahead)")
        return None, used_ms, None
    if action not in legal:
        shown = action if len(action) <= 40 else action[:40] + "..."
        failed(ILLEGAL_ACTION, f"decision {decision}: {shown!r} is not one of the legal "
                               f"actions {legal}", action)
        return None, used_ms, None
    return action, used_ms, reply.get("note")


def _ask_person(seat: _Seat, person: Asked, seat_no: int, decision: int,
                observation: dict[str, Any], legal: list[str], tc: TimeControl) -> tuple[str | None, float, Any]:
    """One decision of a person's seat, as :func:`_ask` for a bot: on the seat's clock only if
    the person is ``timed``; the end of their input resigns the seat."""
    started = time.monotonic()
    deadline = started + (tc.move_ms + seat.bank_ms) / 1000 if person.timed else None
    failure = {"decision": decision, "legal": legal, "answer": None}
    try:
        action = person.ask(seat_no, decision, observation, legal, deadline)
    except Resigned as how:  # the end of the input, or what else ended it
        seat.fail(RESIGNED, f"resigned at decision {decision}: {str(how) or 'the input ended'}",
                  {**failure, "kind": RESIGNED})
        return None, 0.0, None
    except OutOfTime:
        seat.fail(TIMEOUT, f"did not answer in time: decision {decision} exceeded its "
                           f"{tc.move_ms} ms plus {int(seat.bank_ms)} ms left in its bank",
                  {**failure, "kind": TIMEOUT})
        return None, 0.0, None
    used_ms = (time.monotonic() - started) * 1000
    seat.status.time_ms += used_ms
    if person.timed:
        seat.bank_ms = max(0.0, seat.bank_ms - max(0.0, used_ms - tc.move_ms))
    return action, used_ms, None


ANSWER_CAP = 200  # characters of a failing answer kept in the record


def _capped(answer: str) -> str:
    return answer if len(answer) <= ANSWER_CAP else answer[:ANSWER_CAP] + "…"


def _finish(seats: list[_Seat], state: Any, record: MatchRecord) -> None:
    """Say goodbye, then kill every bot's process group; keep each stderr tail."""
    result = {"scores": list(state.scores())}
    for seat in seats:
        if seat.conn is not None and seat.status.status == OK:
            early = seat.conn.unsolicited()
            if early is not None:
                seat.fail(PROTOCOL_ERROR, f"sent {early} when no answer was due (after its last "
                                          "decision; one answer per act)")
                continue
            seat.conn.send({"type": "end", "result": result})
            seat.conn.flush(time.monotonic() + GOODBYE_GRACE)
    for seat in seats:
        if seat.process is None:
            continue
        if seat.status.status == OK:
            try:
                seat.process.proc.wait(timeout=GOODBYE_GRACE)
            except subprocess.TimeoutExpired:
                pass
        if seat.conn is not None:
            seat.status.stderr_tail = seat.conn.stderr_tail()
            seat.conn.close()
        if seat.status.status == CRASH:
            hint = seat.process.explain(seat.status.stderr_tail)  # which limit, if one did it
            if hint:
                seat.status.reason += f" ({hint})"
        seat.process.kill()
    record.statuses = [s.status for s in seats]


def _rank(record: MatchRecord, state: Any, seats: list[_Seat]) -> None:
    """Final scores and ranks: a failed bot ranks last; the others by score at that moment."""
    scores = list(state.scores())
    if state.is_terminal() and not record.failed:
        result = state.result()
        record.scores, record.ranks = list(result.scores), list(result.ranks)
        return
    ok = [i for i, s in enumerate(seats) if s.status.status == OK]
    ok_ranks = Result.from_scores([scores[i] for i in ok]).ranks
    ranks = [len(ok) + 1] * len(seats)
    for i, r in zip(ok, ok_ranks):
        ranks[i] = r
    record.scores, record.ranks = scores, ranks
