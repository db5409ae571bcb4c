"""A dependency-free progress bar on stderr: matches done of total, rate, ETA, failures so far
(and a detail of the format's, such as an SPRT's log-likelihood ratio and its bounds).

On a terminal the bar redraws in place (at most ten times a second); into a file or a pipe it
writes a plain line now and then, so logs stay readable. Every line it prints is shown with its
control characters made visible (``arena.text.visible_line``): a line may carry a name or a
reason that came from a submission.
"""
from __future__ import annotations

import sys
import time
from typing import TextIO

from arena.text import visible_line

BAR_WIDTH = 24
TTY_INTERVAL = 0.1
LOG_INTERVAL = 10.0


def format_duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """Counts finished matches; ``done``/``failures`` start from what a resumed store holds."""

    def __init__(self, total: int, done: int = 0, failures: int = 0, *,
                 stream: TextIO | None = None, enabled: bool = True) -> None:
        self.total = total
        self.done = done
        self.failures = failures
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = enabled and getattr(self.stream, "isatty", lambda: False)()
        self._start_done = done
        self._started = time.monotonic()
        self._last_draw = 0.0
        self._drawn = False
        self._last_logged = -1
        self.note: str | None = None
        self.detail: str | None = None  # shown after the counts, e.g. an SPRT's LLR and bounds

    @property
    def rate(self) -> float:
        """Matches per second in this session."""
        elapsed = time.monotonic() - self._started
        played = self.done - self._start_done
        return played / elapsed if elapsed > 0 and played else 0.0

    def line(self) -> str:
        total = max(1, self.total)
        filled = int(BAR_WIDTH * self.done / total)
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        rate = self.rate
        left = self.total - self.done
        eta = format_duration(left / rate) if rate > 0 else "--:--"
        line = (f"[{bar}] {self.done}/{self.total} matches  {rate:.1f}/s  ETA {eta}  "
                f"failures {self.failures}")
        if self.detail:
            line += f"  {self.detail}"
        return f"{line}  -- {visible_line(self.note)}" if self.note else line

    def advance(self, failures: int = 0) -> None:
        """One more match finished, with ``failures`` failed seats."""
        self.done += 1
        self.failures += failures
        self.draw()

    def draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        interval = TTY_INTERVAL if self.tty else LOG_INTERVAL
        if not force and now - self._last_draw < interval and self.done < self.total:
            return
        self._last_draw = now
        if self.tty:
            self.stream.write("\r" + self.line() + "\x1b[K")
        elif self.done != self._last_logged:  # a log gets a line only when the count changed
            self.stream.write(self.line() + "\n")
            self._last_logged = self.done
        self.stream.flush()
        self._drawn = True

    def message(self, text: str) -> None:
        """Print a line (even when the bar is off) without garbling the bar."""
        if self.tty and self._drawn:
            self.stream.write("\r\x1b[K")
        self.stream.write(visible_line(text) + "\n")
        self.stream.flush()
        if self.tty and self._drawn:
            self.draw(force=True)

    def status(self, note: str | None) -> None:
        """Show ``note`` after the counts until it is cleared (``None``): on a terminal in the
        line itself, in a log as a line of its own (even when the bar is off)."""
        if note == self.note:
            return
        self.note = note
        if self.tty:
            self.draw(force=True)
        elif note is not None:
            self.message(note)

    def close(self) -> None:
        if not self.enabled:
            return
        self.draw(force=True)
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
