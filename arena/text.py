"""Showing text that came from a bot or a submission (its stderr, its notes, its manifest's name
and description, its folder's name) on a terminal: every control character but newline and tab
is made visible as ``\\xNN``, and every bidirectional control as ``\\uNNNN``, so a bot cannot send
the terminal an escape sequence (a colour, a cursor move, a window title or a clipboard write) or
make a line read backwards."""
from __future__ import annotations

# C0 controls, DEL and the C1 controls (U+0080-U+009F, which some terminals read as ESC + letter)
_CONTROLS = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]
# The bidirectional controls, which reorder what a terminal or a page shows after them (U+202E
# shows the rest of a line backwards), and the line and paragraph separators
_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029]
_SHOWN = {**{c: f"\\x{c:02x}" for c in _CONTROLS}, **{c: f"\\u{c:04x}" for c in _BIDI}}
_VISIBLE = str.maketrans({c: v for c, v in _SHOWN.items() if chr(c) not in "\n\t"})
_ONE_LINE = str.maketrans(_SHOWN)


def visible(text: object) -> str:
    """``text`` with every control character except newline and tab written as ``\\xNN``, and
    every bidirectional control as ``\\uNNNN``."""
    return str(text).translate(_VISIBLE)


def visible_line(text: object) -> str:
    """As :func:`visible`, newline and tab included: for names, which must stay on one line."""
    return str(text).translate(_ONE_LINE)


NOTE_BYTES = 256  # the most a decision's note keeps, in UTF-8 bytes (protocol/SPEC.md §3)
NOTE_CUT = "…[cut]"  # ends a note that was longer
_TYPE_NAMES = {bool: "bool", int: "int", float: "float", bytes: "bin", list: "array", dict: "map"}


def bot_note(note: object) -> dict[str, str]:
    """What a decision's record keeps of the ``note`` a bot sent with its action: ``{"note":
    text}``, its control characters (newline and tab too) made visible and cut to ``NOTE_BYTES``
    bytes of UTF-8 with ``NOTE_CUT`` at the end; ``{"note_dropped": "not a string (int)"}`` for a
    note that is not a string; nothing for an empty one."""
    if not isinstance(note, str):
        kind = _TYPE_NAMES.get(type(note), type(note).__name__)
        return {"note_dropped": f"not a string ({kind})"}
    if not note:
        return {}
    text = note.translate(_ONE_LINE)
    data = text.encode("utf-8", errors="replace")
    if len(data) > NOTE_BYTES:
        room = NOTE_BYTES - len(NOTE_CUT.encode("utf-8"))
        text = data[:room].decode("utf-8", errors="ignore") + NOTE_CUT
    return {"note": text}
