"""How the report writes numbers, durations and names: once, here, with fixed precision, so that
rendering the same store twice gives the same bytes."""
from __future__ import annotations

import math
import re
from typing import Any


def fmt(x: float, digits: int = 2) -> str:
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text  # no "-0.00"


def thousands(n: int) -> str:
    return f"{n:,}"


def duration_text(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, s = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {s:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def ms_text(ms: float) -> str:
    return f"{ms:.0f} ms" if ms < 10_000 else duration_text(ms / 1000)


def slug(name: str) -> str:
    """A safe, readable file-name part for an untrusted name."""
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40].strip("-")
    return s or "bot"


def option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "default"
    return str(value)


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def failure_kind(reason: str) -> str:
    """The shape of a failure reason, which alike failures share: what differs from one match to
    the next (quoted answers, lists of legal actions, numbers: the decision, the milliseconds left)
    becomes "…". "decision 7: '6-6:Z' is not one of the legal actions ['1-2', '0-4']" is
    "decision …: '…' is not one of the legal actions […]"."""
    kind = re.sub(r"(?<!\w)'(?:[^'\\]|\\.)*'(?!\w)|(?<!\w)\"(?:[^\"\\]|\\.)*\"(?!\w)", "'…'", reason)
    while True:  # lists, innermost first
        flat = re.sub(r"\[[^\[\]]*\]", "[…]", kind)
        if flat == kind:
            break
        kind = flat
    kind = re.sub(r"\d+(?:\.\d+)?", "…", kind)
    return kind if len(kind) <= 200 else kind[:199] + "…"


def halves(i: int) -> str:
    """i/2 as people write it: 0, ½, 1, 1½, …"""
    whole, half = divmod(i, 2)
    return ("½" if not whole else f"{whole}½") if half else str(whole)


def nice_step(span: float, count: int) -> float:
    """A round tick step (1, 2, 5 × 10^k) giving about ``count`` ticks over ``span``."""
    if span <= 0:
        return 1.0
    raw = span / count
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * mag:
            return float(m * mag)
    return float(10 * mag)
