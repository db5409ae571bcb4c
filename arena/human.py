"""A person in a seat: ``arena play GAME human BOT...``.

A :class:`Person` is asked for a decision as a bot's connection is, but by text: it writes what
the seat may know (the game's :meth:`~arena.game.Game.describe_observation` of its observation)
and the legal actions numbered from 1 to one stream, and reads the answer, a number or the
action's text, from another (a terminal or a pipe). An answer that is neither gets the list again.
The end of the input (Ctrl-D, or the end of a pipe) resigns the seat.
"""
from __future__ import annotations

import os
import select
import time
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from arena.text import visible_line

HUMAN = "human"  # the seat a person plays, in place of a bot folder (``./human`` is a folder)


class Resigned(Exception):
    """The person's input ended: the seat resigns."""


class OutOfTime(Exception):
    """The person did not answer by the deadline (only with a clock)."""


class Asked(Protocol):
    """Whoever answers a person's seat for the referee: :class:`Person` at a terminal or a pipe,
    ``arena.browser.BrowserPerson`` on a web page. ``timed``: the answer is on the seat's clock."""

    timed: bool

    def ask(self, seat: int, decision: int, observation: dict[str, Any], legal: list[str],
            deadline: float | None) -> str:
        """The chosen action; :class:`Resigned` or :class:`OutOfTime` instead of one."""
        ...


class Person:
    """Asks a person for a seat's decisions: writes to ``output``, reads lines from the file
    descriptor ``input_fd``. ``timed``: the answer is on the seat's clock, as a bot's is. One
    person may play several seats; it reads ahead, so give every seat that reads one input the
    same :class:`Person`."""

    def __init__(self, input_fd: int, output: TextIO, *, timed: bool = False,
                 describe: Callable[[dict[str, Any]], list[str]] | None = None,
                 names: list[str] | None = None) -> None:
        self.input_fd = input_fd
        self.names = names  # the seats' names as the table shows them
        self.output = output
        self.timed = timed
        self.describe = describe
        self._buffer = b""
        self._ended = False

    def ask(self, seat: int, decision: int, observation: dict[str, Any], legal: list[str],
            deadline: float | None) -> str:
        """The action the person chooses; :class:`Resigned` at the end of the input,
        :class:`OutOfTime` past ``deadline`` (a ``time.monotonic()`` value; ``None``: no clock)."""
        who = f" ({self.names[seat]})" if self.names else ""
        lines = [f"-- seat {seat}{who}, decision {decision}: your move; you see:"]
        if self.describe is not None:
            lines += [f"  {visible_line(line)}" for line in self.describe(observation)]
        self._write(lines)
        while True:
            self._write(self._menu(legal))
            self.output.write("your move (number or text): ")
            self.output.flush()
            answer = self._line(deadline)
            if answer is None:
                raise Resigned()
            chosen = _choice(answer.strip(), legal)
            if chosen is not None:
                return chosen
            self._write([f"{visible_line(answer.strip())!r} is not one of the {len(legal)} "
                         f"actions: type a number from 1 to {len(legal)} or an action's text"])

    @staticmethod
    def _menu(legal: list[str]) -> list[str]:
        width = len(str(len(legal)))
        return [f"  {i:>{width}}. {action}" for i, action in enumerate(legal, 1)]

    def _write(self, lines: list[str]) -> None:
        for line in lines:
            self.output.write(line + "\n")
        self.output.flush()

    def _line(self, deadline: float | None) -> str | None:
        """The next line of input (without its newline), ``None`` at its end."""
        while b"\n" not in self._buffer and not self._ended:
            if deadline is not None:
                wait = deadline - time.monotonic()
                if wait <= 0 or not select.select([self.input_fd], [], [], wait)[0]:
                    raise OutOfTime()
            data = os.read(self.input_fd, 4096)
            if not data:
                self._ended = True
            self._buffer += data
        if not self._buffer:
            return None
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace")


def _choice(answer: str, legal: list[str]) -> str | None:
    if answer in legal:
        return answer
    if answer.isdigit() and 1 <= int(answer) <= len(legal):
        return legal[int(answer) - 1]
    return None
