"""The CPU budget follows the time control (docs/sandbox.md, "CPU time"): a bot that keeps its
clock never reaches a CPU limit, however many decisions the match has, while CPU beyond what the
clock gives (a process thinking while the others play) still ends it once over ``cpu_seconds``.

Real matches of real bots in their sandbox; the bots choose the first legal action, so a match is
a function of its seed (Block, seed 2: 148 decisions per seat).
"""
from __future__ import annotations

import re
import textwrap

import pytest

from arena.bots import load_bot
from arena.record import CRASH, OK
from arena.referee import TimeControl, play_match
from arena.sandbox import Limits
from tests.tournaments.conftest import make_bot

pytestmark = pytest.mark.timeout(180)

CPU_BOT = textwrap.dedent('''
    import os, sys, time
    from protocol.sdk import read_message, write_message

    MODE = sys.argv[1]        # burn: computes on its turns; sleep: sleeps on its turns;
                              # ponder: a second process spins from the start, all match long
    PART = float(sys.argv[2]) # burn: CPU time it uses a move, sleep: time it sleeps, in move times
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    while True:
        message = read_message(inp)
        if message is None or message["type"] == "end":
            break
        if message["type"] == "hello":
            if MODE == "ponder" and os.fork() == 0:
                while True:
                    pass
            write_message(out, {"type": "ready", "protocol": message["protocol"]})
        elif message["type"] == "act":
            if MODE == "burn":  # CPU time, not wall time: on a loaded machine the bank pays
                until = time.process_time() + PART * message["clock"]["move_ms"] / 1000
                while time.process_time() < until:
                    pass
            elif MODE == "sleep":
                time.sleep(PART * message["clock"]["move_ms"] / 1000)
            write_message(out, {"type": "action", "action": message["legal"][0]})
    sys.stderr.write(f"cpu {time.process_time():.3f}\\n")
''')

SEED = 2
BASE = Limits(cpu_seconds=1)  # the old fixed limit per process would end the burner within 25 moves


def test_a_bot_that_keeps_its_clock_never_reaches_a_cpu_limit(tmp_path):
    # 148 moves of 50 ms, 35 ms of CPU each: 5 s in all, five times cpu_seconds (a loaded machine
    # makes a move take longer than its 50 ms: the bank pays, and the budget follows)
    burner = load_bot(make_bot(tmp_path, "burner", CPU_BOT, "burn", "0.7"))
    quick = load_bot(make_bot(tmp_path, "quick", CPU_BOT, "sleep", "0"))
    tc = TimeControl(move_ms=50, bank_ms=60000, startup_ms=10000)
    record = play_match("block", [burner, quick], seed=SEED, time_control=tc, limits=BASE)
    assert [s.status for s in record.statuses] == [OK, OK], record.statuses
    assert sum(d["seat"] == 0 for d in record.decisions) == 148
    used = float(re.search(r"cpu (\S+)", record.statuses[0].stderr_tail).group(1))
    assert used > 148 * 0.035, used  # five times the base, all of it within its clock


def test_cpu_used_while_others_play_counts_and_ends_a_bot_over_its_budget(tmp_path):
    # the ponderer answers at once and earns 10 ms a move; its second process spins through the
    # sleeper's 150 ms moves: up to 140 ms a move over, all its processes together (over as long
    # as the spinning process gets a fifteenth of a core, however loaded the machine)
    ponderer = load_bot(make_bot(tmp_path, "ponderer", CPU_BOT, "ponder", "0"))
    sleeper = load_bot(make_bot(tmp_path, "sleeper", CPU_BOT, "sleep", "15"))
    tc = TimeControl(move_ms=10, bank_ms=100000, startup_ms=10000)
    record = play_match("block", [ponderer, sleeper], seed=SEED, time_control=tc, limits=BASE)
    status = record.statuses[0]
    assert status.status == CRASH, record.statuses
    assert "CPU time limit reached by decision" in status.reason
    assert "cpu_seconds=1 plus" in status.reason
    assert record.statuses[1].status == OK
    assert len(record.decisions) < 2 * 148  # it did not get to the end
