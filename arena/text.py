"""Showing text that came from a bot (its stderr, its manifest's name and description) on a
terminal: every control character but newline and tab is made visible, so a bot cannot send the
terminal an escape sequence (a colour, a cursor move, a window title or a clipboard write)."""
from __future__ import annotations

# C0 controls, DEL and the C1 controls (U+0080-U+009F, which some terminals read as ESC + letter)
_CONTROLS = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]
_VISIBLE = str.maketrans({c: f"\\x{c:02x}" for c in _CONTROLS if chr(c) not in "\n\t"})
_ONE_LINE = str.maketrans({c: f"\\x{c:02x}" for c in _CONTROLS})


def visible(text: object) -> str:
    """``text`` with every control character except newline and tab written as ``\\xNN``."""
    return str(text).translate(_VISIBLE)


def visible_line(text: object) -> str:
    """As :func:`visible`, newline and tab included: for names, which must stay on one line."""
    return str(text).translate(_ONE_LINE)
