"""Framing and encoding of protocol messages (SPEC.md §2).

A frame is a 4-byte big-endian unsigned length followed by that many bytes of one MessagePack
map. The length prefix lets any language read a whole frame with a single ``unpack`` and lets the
reader refuse an oversized message before buffering it.
"""
from __future__ import annotations

import struct
from _thread import _local

import msgpack

TYPE_CHECKING = False  # a bot imports this module at start-up: no ``typing`` (it costs ~8 ms)
if TYPE_CHECKING:
    from typing import Any

PROTOCOL_VERSION = 1
HEADER = struct.Struct(">I")
# The largest frame a bot may send (SPEC.md §6). Replies are tiny; anything bigger is an attack
# or a bug, and is refused from its length prefix alone.
MAX_BOT_MESSAGE = 64 * 1024
# The largest frame the referee sends; observations carry the match history, which stays far below.
MAX_REFEREE_MESSAGE = 16 * 1024 * 1024


class FrameError(Exception):
    """Bytes that are not a valid frame: bad length, bad MessagePack, not a map with a type."""


_packers = _local()  # one packer per thread, kept: ``packb`` makes (and frees) a 256 KiB buffer a call


def encode(message: dict[str, Any]) -> bytes:
    """One frame: length prefix + MessagePack map."""
    try:
        packer = _packers.packer
    except AttributeError:
        packer = _packers.packer = msgpack.Packer(use_bin_type=True)
    body: bytes = packer.pack(message)  # resets itself after each message, and after a failed one
    return HEADER.pack(len(body)) + body


def decode_body(body: bytes) -> dict[str, Any]:
    """The message in a frame body; raises :class:`FrameError` on anything but a map with a str type."""
    try:
        message = msgpack.unpackb(body, raw=False, strict_map_key=True)
    except Exception as exc:  # noqa: BLE001  (msgpack raises several types for malformed input)
        raise FrameError(f"not valid MessagePack ({type(exc).__name__}: {exc})") from None
    if not isinstance(message, dict):
        raise FrameError(f"a message must be a map, got {type(message).__name__}")
    if not isinstance(message.get("type"), str):
        raise FrameError("a message must have a string field 'type'")
    return message


_TEXT = frozenset(range(0x20, 0x7f)) | {0x09, 0x0a, 0x0d}


def looks_like_text(header: bytes) -> bool:
    """Whether an oversized frame's length bytes begin with text (a bot printing to stdout): the
    frame is refused anyway, so this only chooses the words of the refusal. A real length's first
    byte is 0 below 16 MiB; printable ASCII or a UTF-8 lead byte there means text."""
    return bool(header) and (header[0] in _TEXT or 0xc2 <= header[0] <= 0xf4)


def text_start(data: bytes, chars: int = 24) -> str:
    """The start of a text a bot wrote on stdout, for its error message."""
    text = data[:chars * 4].decode("utf-8", errors="replace").split("\n")[0]
    return text[:chars] + "…" if len(text) > chars or len(data) > len(text.encode()) else text


class FrameReader:
    """Accumulates bytes and yields whole frames; refuses frames larger than ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._buf = bytearray()

    def feed(self, data: bytes) -> None:
        self._buf += data

    def next_frame(self) -> dict[str, Any] | None:
        """The next complete message, or ``None`` if more bytes are needed."""
        buf = self._buf
        if len(buf) < 4:
            return None
        (length,) = HEADER.unpack_from(buf)
        if length > self.limit:
            text = looks_like_text(bytes(buf[:4]))
            if text:
                raise FrameError(f"stdout began with text {text_start(bytes(buf))!r}: print logs to "
                                 "stderr; stdout carries only protocol frames")
            raise FrameError(f"message of {length} bytes announced; the limit is {self.limit} bytes")
        if len(buf) < 4 + length:
            return None
        body = bytes(buf[4:4 + length])
        del buf[:4 + length]
        return decode_body(body)

    @property
    def pending(self) -> int:
        return len(self._buf)
