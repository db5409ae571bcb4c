"""A bot's note with its action (protocol/SPEC.md §3): a real bot sends notes of every kind
through the real referee; the record keeps them with their decisions (cut, made visible, or
dropped with a mark, never a failure), the packed form keeps them, and `arena play` prints them."""
from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from arena.bots import bundled_bot, load_bot
from arena.cli import cli
from arena.record import OK, MatchRecord, compact
from arena.referee import TimeControl, play_match
from arena.text import NOTE_BYTES, NOTE_CUT, bot_note

NOTE_BOT = Path(__file__).parent / "note_bot"
TC = TimeControl(move_ms=5000, bank_ms=5000)
DECISION_KEYS = {"seat", "legal", "action", "ms"}


def check_notes(decisions: list[dict]) -> None:
    """Each decision as the note bot's rule for its number says (main.py: NOTES)."""
    assert len(decisions) >= 5
    for k, d in enumerate(decisions):
        kind = k % 5
        if kind == 0:
            assert d["note"] == f"why: decision {k}"
        elif kind == 1:  # 400 bytes sent: cut to 256 with the mark, whole characters only
            assert d["note"].endswith(NOTE_CUT) and set(d["note"][:-len(NOTE_CUT)]) == {"é"}
            assert len(d["note"].encode("utf-8")) <= NOTE_BYTES
            assert len(d["note"].encode("utf-8")) > NOTE_BYTES - 2
        elif kind == 2:  # no escape, bell or newline reaches a terminal or a page
            assert d["note"] == "a\\x1b[31mred\\x0aline\\x07"
        elif kind == 3:
            assert d["note_dropped"] == "not a string (int)" and "note" not in d
        else:  # an action without a note, as before: the decision is unchanged
            assert set(d) == DECISION_KEYS


def test_a_bot_s_notes_are_kept_with_its_decisions() -> None:
    bot = load_bot(NOTE_BOT)
    record = play_match("block", [bot, bot], seed=3, options={"single_deal": True}, time_control=TC)
    assert [s.status for s in record.statuses] == [OK, OK]
    check_notes(record.decisions)
    # the packed form (a store, a report) keeps them, and gives the same record back
    again = MatchRecord.unpack(record.pack())
    assert again.decisions == record.decisions
    packed = compact(record.to_dict())  # a column per kind, after the events
    assert list(packed)[-3:] == ["events", "notes", "notes_dropped"]
    assert packed["notes"][0] == "why: decision 0" and packed["notes"][4] is None
    assert packed["notes_dropped"][3] == "not a string (int)"


def test_a_match_without_notes_is_recorded_as_before() -> None:
    bot = bundled_bot("random")
    record = play_match("block", [bot, bot], seed=3, options={"single_deal": True}, time_control=TC)
    assert all(set(d) == DECISION_KEYS for d in record.decisions)
    packed = compact(record.to_dict())
    assert set(packed["decisions"]) == {"seat", "legal", "pick", "ms"}
    assert "notes" not in packed and "notes_dropped" not in packed


def test_arena_play_prints_each_note_beside_its_move(tmp_path: Path) -> None:
    replay = tmp_path / "match.json"
    result = CliRunner().invoke(cli, ["play", "block", str(NOTE_BOT), str(NOTE_BOT), "--seed", "3",
                                      "-o", "single_deal=true", "-t", "5+5", "--replay", str(replay)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"^.*note_bot#\d plays .*   \[note: why: decision 0\]$", out, re.M), out
    assert re.search(r"plays .*   \[note dropped: not a string \(int\)\]$", out, re.M)
    assert "[note: a\\x1b[31mred\\x0aline\\x07]" in out and "\x1b" not in out
    assert f"{NOTE_CUT}]" in out
    decisions = MatchRecord.from_json(replay.read_text()).decisions
    check_notes(decisions)  # the record written holds them too
    plays = re.findall(r"^.* plays .*$", out, re.M)
    assert len(plays) == len(decisions)  # in Block every decision is a play
    for k, line in enumerate(plays):  # each beside its own move, and only there
        assert ("[note" in line) == (k % 5 != 4), line


def test_bot_note_cuts_marks_and_drops() -> None:
    assert bot_note("short") == {"note": "short"}
    assert bot_note("") == {}
    assert bot_note(3.5) == {"note_dropped": "not a string (float)"}
    assert bot_note([1]) == {"note_dropped": "not a string (array)"}
    assert bot_note(b"x") == {"note_dropped": "not a string (bin)"}
    exact = "x" * NOTE_BYTES
    assert bot_note(exact) == {"note": exact}
    cut = bot_note("€" * 100)["note"]  # 3 bytes a character: the cut falls inside one
    assert cut.endswith(NOTE_CUT) and len(cut.encode()) <= NOTE_BYTES
    assert set(cut[:-len(NOTE_CUT)]) == {"€"}
