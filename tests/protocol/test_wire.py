"""Framing, the SDK, and the byte-level examples of SPEC.md."""
from __future__ import annotations

import io
import re
import struct
from pathlib import Path

import msgpack
import pytest

from protocol.sdk import run
from protocol.wire import MAX_BOT_MESSAGE, FrameError, FrameReader, decode_body, encode

ROOT = Path(__file__).resolve().parents[2]
SPEC = (ROOT / "protocol" / "SPEC.md").read_text(encoding="utf-8")


def spec_hex_examples() -> list[bytes]:
    """Every run of hex bytes in SPEC.md §12 that starts with a length prefix."""
    section = SPEC[SPEC.index("## 12."):]
    blobs = re.findall(r"(?:\b[0-9a-f]{2}\b[ \n]*){20,}", section)
    return [bytes.fromhex(b.replace("\n", " ")) for b in blobs]


def test_spec_examples_are_real_frames():
    frames = spec_hex_examples()
    assert len(frames) >= 4
    types = []
    for frame in frames:
        (n,) = struct.unpack(">I", frame[:4])
        assert n == len(frame) - 4
        message = decode_body(frame[4:])
        assert encode(message) == frame  # our encoder writes exactly these bytes
        types.append(message["type"])
    assert {"ready", "action", "hello", "end"} <= set(types)


def test_frame_reader_handles_split_and_joined_frames():
    data = encode({"type": "a", "x": 1}) + encode({"type": "b", "y": [1, 2]})
    reader = FrameReader(1000)
    got = []
    for i in range(len(data)):  # one byte at a time
        reader.feed(data[i:i + 1])
        while (m := reader.next_frame()) is not None:
            got.append(m)
    assert got == [{"type": "a", "x": 1}, {"type": "b", "y": [1, 2]}]


def test_encode_keeps_no_trace_of_a_message_it_could_not_pack():
    with pytest.raises(TypeError):
        encode({"type": "act", "observation": {"half": "written", "then": object()}})
    assert encode({"type": "end"}) == struct.pack(">I", 10) + msgpack.packb({"type": "end"})


@pytest.mark.parametrize("frame, words", [
    (struct.pack(">I", MAX_BOT_MESSAGE + 1), "the limit is"),
    (struct.pack(">I", 3) + b"\xc1\xc1\xc1", "not valid MessagePack"),
    (struct.pack(">I", 1) + b"\x01", "must be a map"),
    (encode({"kind": "action"})[:4] + msgpack.packb({"kind": "action"}), "field 'type'"),
])
def test_bad_frames_are_refused(frame, words):
    reader = FrameReader(MAX_BOT_MESSAGE)
    reader.feed(frame)
    with pytest.raises(FrameError, match=words):
        reader.next_frame()


def test_sdk_answers_hello_act_and_stops_at_end():
    requests = b"".join(encode(m) for m in [
        {"type": "hello", "protocol": 1, "game": "block", "seat": 0},
        {"type": "news", "ignored": True},  # unknown types are ignored
        {"type": "act", "decision": 0, "observation": {"hand": ["1-2"]}, "legal": ["1-2", "x"]},
        {"type": "end", "result": {"scores": [1, 0]}},
        {"type": "act", "decision": 1, "observation": {}, "legal": ["never"]},
    ])
    out = io.BytesIO()
    seen = []

    def choose(observation, legal):
        seen.append((observation, legal))
        return legal[0]

    run(choose, name="t", stdin=io.BytesIO(requests), stdout=out)
    reader = FrameReader(10_000)
    reader.feed(out.getvalue())
    replies = [reader.next_frame(), reader.next_frame(), reader.next_frame()]
    assert replies == [{"type": "ready", "protocol": 1, "name": "t"},
                       {"type": "action", "action": "1-2", "decision": 0}, None]
    assert seen == [({"hand": ["1-2"]}, ["1-2", "x"])]


def test_minimal_bot_is_at_most_ten_lines():
    lines = [line for line in (ROOT / "bots" / "random" / "main.py").read_text().splitlines() if line.strip()]
    assert len(lines) <= 10


@pytest.mark.parametrize("data, shown", [
    (b"debug: starting the bot\n", "'debug: starting the bot…'"),
    (b"ok\n\x00\x00\x00\x10", "'ok…'"),
    ("écart 3\n".encode(), "'écart 3…'"),
    (b"{'a': 1}", "\"{'a': 1}\""),
])
def test_text_on_stdout_is_named_as_text(data, shown):
    from protocol.wire import MAX_BOT_MESSAGE, FrameError, FrameReader

    reader = FrameReader(MAX_BOT_MESSAGE)
    reader.feed(data)
    with pytest.raises(FrameError) as refused:
        reader.next_frame()
    assert str(refused.value).startswith(f"stdout began with text {shown}: print logs to stderr")


def test_an_oversized_binary_frame_is_still_a_size_error():
    from protocol.wire import MAX_BOT_MESSAGE, FrameError, FrameReader

    reader = FrameReader(MAX_BOT_MESSAGE)
    reader.feed(b"\x00\x10\x00\x00")
    with pytest.raises(FrameError, match="message of 1048576 bytes announced"):
        reader.next_frame()


def test_spec_shows_an_action_with_a_note_byte_for_byte():
    message = {"type": "action", "action": "3-6:L", "decision": 12, "note": "9 pips, the heaviest"}
    frame = struct.pack(">I", len(msgpack.packb(message))) + msgpack.packb(message)
    assert frame in spec_hex_examples()
    assert f"({len(frame)} bytes)" in SPEC[SPEC.index("with a note ("):][:40]


def test_sdk_sends_the_note_when_choose_returns_action_and_note():
    requests = b"".join(encode(m) for m in [
        {"type": "hello", "protocol": 1, "game": "block", "seat": 0},
        {"type": "act", "decision": 0, "observation": {}, "legal": ["1-2", "x"]},
        {"type": "act", "decision": 1, "observation": {}, "legal": ["1-2", "x"]},
        {"type": "end", "result": {"scores": [1, 0]}},
    ])
    out = io.BytesIO()
    answers = iter([("x", "the last one"), "1-2"])
    run(lambda observation, legal: next(answers), stdin=io.BytesIO(requests), stdout=out)
    reader = FrameReader(10_000)
    reader.feed(out.getvalue())
    replies = [reader.next_frame() for _ in range(3)]
    assert replies[1:] == [{"type": "action", "action": "x", "decision": 0, "note": "the last one"},
                           {"type": "action", "action": "1-2", "decision": 1}]  # no note: as before


def test_sdk_runs_the_set_up_with_the_hello_before_it_answers_ready():
    """``on_hello`` runs before ``ready`` is written: slow set-up counts against startup_ms."""
    requests = b"".join(encode(m) for m in [
        {"type": "hello", "protocol": 1, "game": "block", "seat": 1},
        {"type": "act", "decision": 0, "observation": {}, "legal": ["x"]},
        {"type": "end", "result": {"scores": [1, 0]}},
    ])
    out = io.BytesIO()
    written_at_set_up = []

    def set_up(hello):
        written_at_set_up.append((hello["seat"], len(out.getvalue())))

    run(lambda observation, legal: legal[0], stdin=io.BytesIO(requests), stdout=out, on_hello=set_up)
    assert written_at_set_up == [(1, 0)]  # called once, with the hello, before anything was written
    reader = FrameReader(10_000)
    reader.feed(out.getvalue())
    assert reader.next_frame() == {"type": "ready", "protocol": 1}
