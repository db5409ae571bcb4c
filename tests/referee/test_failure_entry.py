"""The record keeps the failing decision: what was offered and what the bot answered.

Decisions are numbered from 0 everywhere (protocol/SPEC.md: the ``decision`` field of ``act``):
the failure entry's ``decision``, the number in the reason and the index the decision would have
had in ``record.decisions`` are one and the same.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from arena.bots import load_bot
from arena.record import CRASH, ILLEGAL_ACTION, OK, PROTOCOL_ERROR, TIMEOUT, MatchRecord
from arena.referee import TimeControl, play_match

FIXTURES = Path(__file__).parent / "misbehaving"
TC = TimeControl(move_ms=300, bank_ms=300, startup_ms=5000)


@pytest.mark.parametrize("name, kind, answer", [
    ("illegal_action", ILLEGAL_ACTION, "6-6:Z"),
    ("crash_mid_match", CRASH, None),
    ("sleeps", TIMEOUT, None),
    ("wrong_type", PROTOCOL_ERROR, "'type'"),
])
def test_the_failing_decision_is_in_the_record(name, kind, answer, random_bot):
    record = play_match("block", [load_bot(FIXTURES / name), random_bot], seed=7, time_control=TC)
    status = record.statuses[0]
    assert status.status == kind
    failure = status.failure
    assert failure is not None and failure["kind"] == kind
    # numbered as the protocol numbers it, and as the reason says
    assert failure["decision"] == len(record.decisions)
    assert re.search(rf"decision {failure['decision']}\b", status.reason), status.reason
    assert failure["legal"] and all(isinstance(a, str) for a in failure["legal"])
    if answer is None:
        assert failure["answer"] is None
    else:
        assert answer in failure["answer"]
    if kind == ILLEGAL_ACTION:
        assert failure["answer"] not in failure["legal"]  # the record alone shows the referee was right
    assert record.statuses[1].failure is None and record.statuses[1].status == OK
    # kept through the store's packed form
    again = MatchRecord.unpack(record.pack())
    assert again.statuses[0].failure == failure


def test_a_long_answer_is_capped():
    from arena.referee import ANSWER_CAP, _capped
    assert len(_capped("x" * 10_000)) == ANSWER_CAP + 1


def test_records_without_the_field_still_load():
    data = MatchRecord("block", {}, 1, [{"name": "a"}], {}).to_dict()
    for s in data["statuses"]:
        s.pop("failure", None)
    data["statuses"] = [{"status": "ok", "reason": "", "stderr_tail": "", "time_ms": 0.0}]
    assert MatchRecord.from_dict(data).statuses[0].failure is None
