"""Every kind of misbehaving bot loses its match with the right status, and leaves nothing behind."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from arena.bots import load_bot
from arena.connection import STDERR_TAIL
from arena.games import get_game
from arena.record import BUILD_FAILED, CRASH, HANDSHAKE_FAILED, ILLEGAL_ACTION, OK, PROTOCOL_ERROR, TIMEOUT
from arena.referee import TimeControl, play_match
from tests.conftest import surviving_children

FIXTURES = Path(__file__).parent / "misbehaving"
TC = TimeControl(move_ms=300, bank_ms=300, startup_ms=5000)

# fixture folder -> (expected status, words the reason must contain)
EXPECTED = {
    "sleeps":            (TIMEOUT, "did not answer in time"),
    "crash_at_start":    (CRASH, "exited with code 1"),
    "crash_mid_match":   (CRASH, "exited with code 1"),
    "exits_silently":    (CRASH, "exited with code 0"),
    "illegal_action":    (ILLEGAL_ACTION, "'6-6:Z' is not one of the legal actions"),
    "junk_bytes":        (PROTOCOL_ERROR, "not valid MessagePack"),
    "wrong_type":        (PROTOCOL_ERROR, "string action"),
    "huge_message":      (PROTOCOL_ERROR, "the limit is 65536 bytes"),
    "floods_stderr":     (OK, ""),
    "never_reads_stdin": (TIMEOUT, "in time"),
    "wrong_version":     (HANDSHAKE_FAILED, "protocol version 2"),
    "protocol_true":     (HANDSHAKE_FAILED, "protocol version True"),
    "protocol_float":    (HANDSHAKE_FAILED, "protocol version 1.0"),
    "terminal_escapes":  (CRASH, "exited with code 1"),
    "never_ready":       (HANDSHAKE_FAILED, "no ready message within 5000 ms"),
    "answers_early":     (PROTOCOL_ERROR, "sent a 'action' message when no answer was due"),
    "answers_twice":     (PROTOCOL_ERROR, "sent a 'action' message when no answer was due"),
    "wrong_decision":    (PROTOCOL_ERROR, "answered decision"),
    # text on stdout is named as such, with the same status before and after ready (SPEC.md §7)
    "prints_before_ready": (PROTOCOL_ERROR, "stdout began with text 'debug: starting up"),
    "prints_mid_match":  (PROTOCOL_ERROR, "stdout began with text \"legal: ['"),
    "build_fails":       (BUILD_FAILED, "build step `sh -c 'echo"),
}


def test_every_fixture_has_an_expectation():
    assert sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("seat", [0, 1])
def test_misbehaving_bot_gets_its_status(name, seat, random_bot):
    status, words = EXPECTED[name]
    bad = load_bot(FIXTURES / name)
    bots = [random_bot, random_bot]
    bots[seat] = bad
    started = time.monotonic()
    record = play_match("block", bots, seed=7, time_control=TC)
    elapsed = time.monotonic() - started

    got = record.statuses[seat]
    assert got.status == status, got
    assert words in got.reason
    other = record.statuses[1 - seat]
    assert other.status == OK, other
    # the record is the match: its decisions, replayed on the engine, give its scores
    state = replay(record)
    assert record.scores == list(state.scores())
    if status != OK:
        assert record.ranks[seat] == 2 and record.ranks[1 - seat] == 1
        assert not state.is_terminal()  # stopped where the bot failed
        if name in ENDS_BEFORE_PLAY:
            assert record.decisions == []
        else:  # its last turn is the one it failed on: not in the record
            assert state.current_player() == seat
    else:
        assert state.is_terminal() and record.ranks == list(state.result().ranks)
    # the match ends within its limits (start-up, at most one move plus the bank, goodbyes): far
    # sooner than the 60 s the sleeping bots would take, with room for a loaded machine
    assert elapsed < TC.startup_ms / 1000 + (TC.move_ms + TC.bank_ms) / 1000 + SLACK
    assert surviving_children() == []


# fixtures that fail before the first decision: the match never starts
ENDS_BEFORE_PLAY = {"crash_at_start", "wrong_version", "protocol_true", "protocol_float",
                    "terminal_escapes", "never_ready", "prints_before_ready", "build_fails"}
SLACK = 20  # seconds


def replay(record):
    """The engine's state after the record's decisions, from its seed and options."""
    game = get_game(record.game)
    state = game.new_match(game.make_options(len(record.seats), {
        k: v for k, v in record.options.items() if k != "num_players"}), record.seed)
    for decision in record.decisions:
        assert state.current_player() == decision["seat"]
        assert state.legal_actions() == decision["legal"] and decision["action"] in decision["legal"]
        state.apply(decision["action"])
    return state


@pytest.mark.slow  # each match waits out the full start-up time (5 s)
@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_bot_that_never_says_ready_fails_alone(seat, random_bot):
    """Each bot's handshake has its own deadline: the referee waiting out one bot's never-coming
    ready must not fail the bots whose ready arrived meanwhile (they rank first, it ranks last)."""
    bots = [random_bot] * 3
    bots[seat] = load_bot(FIXTURES / "never_ready")
    record = play_match("block", bots, seed=5, time_control=TC)
    statuses = [s.status for s in record.statuses]
    assert statuses == [HANDSHAKE_FAILED if i == seat else OK for i in range(3)], record.statuses
    assert "no ready message within 5000 ms" in record.statuses[seat].reason
    assert record.ranks == [3 if i == seat else 1 for i in range(3)]
    assert surviving_children() == []


def test_crash_keeps_the_stderr_tail(random_bot):
    record = play_match("block", [load_bot(FIXTURES / "crash_at_start"), random_bot], seed=1, time_control=TC)
    tail = record.statuses[0].stderr_tail
    assert "loading my model..." in tail and "RuntimeError: model file not found" in tail


def test_stderr_flood_is_drained_and_capped(random_bot):
    record = play_match("block", [load_bot(FIXTURES / "floods_stderr"), random_bot], seed=3, time_control=TC)
    st = record.statuses[0]
    assert st.status == OK
    assert "earlier bytes dropped" in st.stderr_tail
    assert st.stderr_tail.rstrip().endswith("last words of this move")
    assert len(st.stderr_tail.encode()) <= STDERR_TAIL + 100
    assert len(record.decisions) > 10


def test_failure_mid_match_ranks_the_others_by_score(random_bot):
    """Three players: the crashing bot is last; the two others are ranked by their scores so far."""
    bad = load_bot(FIXTURES / "crash_mid_match")
    for seed in range(20):
        record = play_match("block", [random_bot, bad, random_bot], seed=seed, time_control=TC,
                            )
        if record.statuses[1].status == CRASH and record.scores[0] != record.scores[2]:
            break
    assert record.ranks[1] == 3
    better = 0 if record.scores[0] > record.scores[2] else 2
    assert record.ranks[better] == 1 and record.ranks[2 - better] == 2
    assert surviving_children() == []


def test_command_that_cannot_start(random_bot, tmp_path):
    folder = tmp_path / "gone"
    folder.mkdir()
    (folder / "bot.toml").write_text('command = "./run.sh"\n')
    (folder / "run.sh").write_text("#!/bin/sh\nexec python3 -c 1\n")  # not executable
    record = play_match("block", [load_bot(folder), random_bot], seed=1, time_control=TC)
    assert record.statuses[0].status == CRASH
    assert "could not be started" in record.statuses[0].reason
    assert record.ranks == [2, 1]
