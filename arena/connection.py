"""Talking to one bot process: frames out on stdin, frames in on stdout, stderr kept as a tail.

Every wait has a deadline, and every failure is one of three exceptions that the referee turns
into a seat status: :class:`BotTimeout`, :class:`BotExited`, :class:`BotProtocolError`.
stderr is drained whenever we wait, so a chatty bot never blocks on a full pipe.
"""
from __future__ import annotations

import os
import select
import signal
import subprocess
import time
from typing import Any

from protocol.wire import MAX_BOT_MESSAGE, FrameError, FrameReader, encode

STDERR_TAIL = 16 * 1024  # bytes of a bot's stderr kept per match (SPEC.md §6)
_CHUNK = 65536


class BotFailure(Exception):
    """A bot did something that ends its match."""


class BotTimeout(BotFailure):
    pass


class BotExited(BotFailure):
    pass


class BotProtocolError(BotFailure):
    pass


def describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"was killed by {name}"
    return f"exited with code {returncode}"


class Connection:
    """The pipes of one bot process, with deadlines on every exchange."""

    def __init__(self, proc: Any, stderr_tail: int = STDERR_TAIL) -> None:
        self.proc = proc
        self._in = proc.stdin.fileno()
        self._out = proc.stdout.fileno()
        self._err = proc.stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._reader = FrameReader(MAX_BOT_MESSAGE)
        self._stderr = bytearray()
        self._stderr_dropped = 0
        self._stderr_limit = stderr_tail
        self._poll = select.poll()  # a few fds: poll(2) is as quick as epoll and portable
        self._poll.register(self._out, select.POLLIN)
        self._poll.register(self._err, select.POLLIN)
        self._peek = select.poll()  # stdout alone: is anything unread? (cheaper than a failing read)
        self._peek.register(self._out, select.POLLIN)
        self._out_open = True
        self._err_open = True
        self._pending = b""

    # ----- stderr ---------------------------------------------------------------------------
    def _take_stderr(self, data: bytes) -> None:
        self._stderr += data
        extra = len(self._stderr) - self._stderr_limit
        if extra > 0:
            del self._stderr[:extra]
            self._stderr_dropped += extra

    def stderr_tail(self) -> str:
        """The last bytes the bot wrote to stderr, as text."""
        self.drain_stderr()
        text = self._stderr.decode("utf-8", errors="replace")
        if self._stderr_dropped:
            text = f"[... {self._stderr_dropped} earlier bytes dropped ...]\n" + text
        return text

    def drain_stderr(self) -> None:
        """Read whatever stderr holds right now, without waiting."""
        while self._err_open:
            try:
                data = os.read(self._err, _CHUNK)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._close_fd(self._err)
                return
            self._take_stderr(data)

    def _close_fd(self, fd: int) -> None:
        if fd == self._err and self._err_open:
            self._err_open = False
            self._poll.unregister(fd)
        elif fd == self._out and self._out_open:
            self._out_open = False
            self._poll.unregister(fd)
            self._peek.unregister(fd)

    # ----- exchanges ------------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; it is written during the next :meth:`exchange` (or :meth:`flush`)."""
        self._pending += encode(message)

    def send_now(self, message: dict[str, Any]) -> None:
        """Queue a message and write what the pipe takes at once, without waiting; the rest goes
        during the next :meth:`exchange`. A bot that is gone is found out then, not here."""
        self.send(message)
        try:
            self._write_some()
        except BotExited:
            pass

    def _write_some(self) -> None:
        try:
            n = os.write(self._in, self._pending)
        except BlockingIOError:
            return
        except OSError:  # a broken pipe: the bot is gone or closed its input
            self._pending = b""
            raise BotExited(self._exit_reason("closed its input")) from None
        self._pending = self._pending[n:]

    def exchange(self, message: dict[str, Any] | None, deadline: float) -> dict[str, Any]:
        """Send ``message`` (if any) and wait for the bot's next message until ``deadline``."""
        if message is not None:
            self.send(message)
        frame = self._next_frame()
        if frame is not None:
            return frame
        if self._pending:
            self._write_some()
        writing = False
        got_output = True
        while True:
            if self._pending and not writing:
                self._poll.register(self._in, select.POLLOUT)
                writing = True
            elif not self._pending and writing:
                self._poll.unregister(self._in)
                writing = False
            timeout = deadline - time.monotonic()
            # Past the deadline, what the bot wrote before it still counts: one more look at the
            # pipes without waiting (a referee busy elsewhere, e.g. with another seat's handshake,
            # must not fail a bot whose answer is already there), and more only while stdout gives.
            expired = timeout <= 0
            if expired and not got_output:
                if writing:
                    self._poll.unregister(self._in)
                raise BotTimeout("did not read its input in time" if self._pending
                                 else "did not answer in time")
            if not self._out_open:
                if writing:
                    self._poll.unregister(self._in)
                raise BotExited(self._exit_reason("closed its output"))
            got_output = not expired
            for fd, _ in self._poll.poll(max(timeout, 0.0) * 1000):
                if fd == self._in:
                    try:
                        self._write_some()
                    except BotExited:
                        self._poll.unregister(self._in)
                        raise
                    continue
                try:
                    data = os.read(fd, _CHUNK)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if fd == self._err:
                    if data:
                        self._take_stderr(data)
                    else:
                        self._close_fd(fd)
                    continue
                if not data:
                    self._close_fd(fd)
                    continue
                got_output = True
                self._reader.feed(data)
                frame = self._next_frame()
                if frame is not None:
                    if writing:
                        self._poll.unregister(self._in)
                    return frame

    def unsolicited(self) -> str | None:
        """What the bot sent that no request asked for, found without waiting: ``None`` if its
        stdout holds nothing unread (the usual case: one read that finds the pipe empty), else a
        few words saying what it is. Called just before a request is sent, when no answer is due."""
        if self._out_open and self._peek.poll(0):
            try:
                data = os.read(self._out, _CHUNK)
            except BlockingIOError:
                data = None
            except OSError:
                data = b""
            if data == b"":
                self._close_fd(self._out)  # the next exchange says how the bot ended
            elif data:
                self._reader.feed(data)
        if not self._reader.pending:
            return None
        try:
            frame = self._reader.next_frame()
        except FrameError as exc:
            return f"bytes that are not a valid message ({exc})"
        if frame is None:
            return "the start of a message"
        return f"a {frame['type']!r} message"

    def _next_frame(self) -> dict[str, Any] | None:
        try:
            return self._reader.next_frame()
        except FrameError as exc:
            raise BotProtocolError(str(exc)) from None

    def _exit_reason(self, otherwise: str) -> str:
        """Why a pipe closed: the bot's exit code if it ends within a moment, else ``otherwise``."""
        try:
            return describe_exit(self.proc.wait(timeout=0.5))
        except subprocess.TimeoutExpired:
            return otherwise

    def flush(self, deadline: float) -> None:
        """Write what is queued, giving up silently at ``deadline`` (used for goodbyes)."""
        while self._pending and time.monotonic() < deadline:
            try:
                self._write_some()
            except BotExited:
                return
            if self._pending:
                time.sleep(0.001)

    def close(self) -> None:
        self.drain_stderr()
