"""The time control (protocol/SPEC.md §5): a move may take ``move_ms`` for free; time beyond it is
drawn from the seat's bank for the rest of the match; a move that would overdraw the bank is a
timeout. The clock each ``act`` message shows is what is left.

The bots here choose the first legal action, so a match is a function of its seed; the slow one
writes the bank each ``act`` shows it to stderr (kept in the record's stderr tail).
"""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from arena.bots import load_bot
from arena.games import get_game
from arena.record import OK, TIMEOUT
from arena.referee import TimeControl, play_match
from tests.tournaments.conftest import FIRST_BOT, make_bot

pytestmark = pytest.mark.timeout(120)

CLOCK_BOT = textwrap.dedent('''
    import sys, time
    from protocol.sdk import read_message, write_message

    DELAY = float(sys.argv[1])       # seconds to think on a slow move
    SLOW = int(sys.argv[2])          # how many of its first moves are slow (-1: every one)
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    moves = 0
    while True:
        message = read_message(inp)
        if message is None or message["type"] == "end":
            break
        if message["type"] == "hello":
            write_message(out, {"type": "ready", "protocol": message["protocol"]})
        elif message["type"] == "act":
            sys.stderr.write(f"bank {message['clock']['bank_ms']}\\n")
            sys.stderr.flush()
            if SLOW < 0 or moves < SLOW:
                time.sleep(DELAY)
            moves += 1
            write_message(out, {"type": "action", "action": message["legal"][0]})
''')

OPTIONS = {"single_deal": True}
SEED = 1
SLOW_SEAT = 0


def decisions_of(seat: int) -> int:
    """How many decisions ``seat`` makes in the match when both seats play their first legal action."""
    game = get_game("block")
    state = game.new_match(game.make_options(2, OPTIONS), SEED)
    count = 0
    while not state.is_terminal():
        count += state.current_player() == seat
        state.apply(state.legal_actions()[0])
    return count


@pytest.fixture(scope="module")
def first_bot(tmp_path_factory: pytest.TempPathFactory):
    return load_bot(make_bot(tmp_path_factory.mktemp("bots"), "first", FIRST_BOT))


def clock_bot(folder: Path, delay: float, slow_moves: int):
    return load_bot(make_bot(folder, "clock", CLOCK_BOT, str(delay), str(slow_moves)))


def banks_shown(tail: str) -> list[int]:
    return [int(n) for n in re.findall(r"^bank (\d+)$", tail, re.M)]


def play(bot, first_bot, tc: TimeControl):
    bots = [first_bot, first_bot]
    bots[SLOW_SEAT] = bot
    record = play_match("block", bots, options=OPTIONS, seed=SEED, time_control=tc)
    mine = [d for d in record.decisions if d["seat"] == SLOW_SEAT]
    return record, mine


def test_the_match_gives_the_slow_seat_enough_moves() -> None:
    assert decisions_of(SLOW_SEAT) >= 5  # what the tests below rely on


def test_overrunning_every_move_empties_the_bank_and_times_out(tmp_path: Path, first_bot) -> None:
    """Each move overruns move_ms by 200 ms or more: a 600 ms bank lasts two such moves, the
    third cannot be paid for. (A slower machine only makes the moves slower: sooner, never later.)"""
    tc = TimeControl(move_ms=50, bank_ms=600, startup_ms=10000)
    record, mine = play(clock_bot(tmp_path, 0.25, -1), first_bot, tc)
    status = record.statuses[SLOW_SEAT]
    assert status.status == TIMEOUT, status
    assert "bank" in status.reason, status.reason
    assert len(mine) <= 2, mine                  # at most two moves were paid for
    overdraw = sum(max(0.0, d["ms"] - tc.move_ms) for d in mine)
    assert overdraw <= tc.bank_ms
    assert record.statuses[1 - SLOW_SEAT].status == OK
    assert record.ranks[SLOW_SEAT] == 2 and record.ranks[1 - SLOW_SEAT] == 1


def test_each_act_shows_the_bank_left_after_the_moves_before(tmp_path: Path, first_bot) -> None:
    tc = TimeControl(move_ms=50, bank_ms=5000, startup_ms=10000)
    record, mine = play(clock_bot(tmp_path, 0.15, 4), first_bot, tc)
    assert record.statuses[SLOW_SEAT].status == OK, record.statuses[SLOW_SEAT]
    shown = banks_shown(record.statuses[SLOW_SEAT].stderr_tail)
    assert len(shown) == len(mine) >= 5
    left = float(tc.bank_ms)
    for i, decision in enumerate(mine):
        # what was left when it was asked: the bank sent is whole milliseconds (cut down, at
        # most 1 less), each decision's ms in the record is rounded to a tenth (0.05 either way)
        assert -1 - 0.05 * i - 1e-6 <= shown[i] - left <= 0.05 * i + 1e-6, (i, shown, mine)
        left -= max(0.0, decision["ms"] - tc.move_ms)
    assert shown[0] == tc.bank_ms
    assert shown[4] <= tc.bank_ms - 4 * 100              # four slow moves drew at least 100 ms each


def test_the_bank_pays_for_a_few_slow_moves(tmp_path: Path, first_bot) -> None:
    """Two moves far over move_ms, well within the bank: the bot plays on and finishes."""
    tc = TimeControl(move_ms=200, bank_ms=10000, startup_ms=10000)
    record, mine = play(clock_bot(tmp_path, 0.5, 2), first_bot, tc)
    assert [s.status for s in record.statuses] == [OK, OK], record.statuses
    assert len(mine) == decisions_of(SLOW_SEAT)
    assert all(d["ms"] > tc.move_ms for d in mine[:2])   # both were paid from the bank
