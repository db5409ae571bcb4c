"""The Python bot SDK: write ``choose(observation, legal) -> action`` and call ``run(choose)``.

A complete bot (SPEC.md §8)::

    import random
    from protocol.sdk import run

    run(lambda observation, legal: random.choice(legal))

The SDK answers the handshake, turns every ``act`` request into a call of ``choose`` and sends
the returned action, and exits when the referee says goodbye. Anything ``choose`` prints to stderr
is the bot's log; stdout belongs to the protocol, so ``print`` is redirected to stderr.

The last ``hello`` is kept in ``protocol.sdk.hello`` (the game, its resolved options, the seat,
the players and the time control), for bots that need it::

    from protocol import sdk
    options = sdk.hello["options"]

The ``act`` request being answered is kept in ``protocol.sdk.act`` while ``choose`` runs, for bots
that budget their time from its ``clock`` (``sdk.act["clock"]["bank_ms"]``).

``run(choose, on_hello=setup)`` calls ``setup(hello)`` with each ``hello`` before it answers
``ready``: the place for slow set-up (loading a model, a game), which counts against
``startup_ms`` rather than the first move's clock (SPEC.md §4).

``choose`` may also return ``(action, note)``: the note, a short string saying why, goes with the
action (SPEC.md §3); the match record keeps it beside the decision, ``arena play`` prints it and
the replay shows it::

    return action, f"highest of {len(legal)}"
"""
from __future__ import annotations

import sys

from protocol.wire import HEADER, MAX_REFEREE_MESSAGE, PROTOCOL_VERSION, decode_body, encode

TYPE_CHECKING = False  # every Python bot imports this at start-up: keep ``typing`` out of it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, BinaryIO

    Choose = Callable[[dict[str, Any], list[str]], str | tuple[str, str]]


hello: dict[str, Any] = {}  # the last hello message of the referee
act: dict[str, Any] = {}    # the act request being answered (its clock, its decision number)


def _read_exact(stream: BinaryIO, n: int) -> bytes | None:
    chunks = []
    while n:
        chunk = stream.read(n)
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_message(stream: BinaryIO) -> dict[str, Any] | None:
    """The next message from the referee, or ``None`` at the end of input."""
    header = _read_exact(stream, 4)
    if header is None:
        return None
    (length,) = HEADER.unpack(header)
    if length > MAX_REFEREE_MESSAGE:
        raise SystemExit(f"referee message of {length} bytes is over the limit")
    body = _read_exact(stream, length)
    if body is None:
        return None
    return decode_body(body)


def write_message(stream: BinaryIO, message: dict[str, Any]) -> None:
    stream.write(encode(message))
    stream.flush()


def run(choose: Choose, name: str | None = None,
        stdin: BinaryIO | None = None, stdout: BinaryIO | None = None,
        on_hello: Callable[[dict[str, Any]], object] | None = None) -> None:
    """Play every request of one match with ``choose``; return when the match ends.
    ``on_hello(hello)``, if given, runs before each ``ready``."""
    inp = stdin or sys.stdin.buffer
    out = stdout or sys.stdout.buffer
    if stdout is None:
        sys.stdout = sys.stderr  # keep stray prints off the protocol channel
    while True:
        message = read_message(inp)
        if message is None or message["type"] == "end":
            return
        if message["type"] == "hello":
            hello.clear()
            hello.update(message)
            if on_hello is not None:
                on_hello(message)
            reply: dict[str, object] = {"type": "ready", "protocol": PROTOCOL_VERSION}
            if name:
                reply["name"] = name
            write_message(out, reply)
        elif message["type"] == "act":
            act.clear()
            act.update(message)
            action = choose(message["observation"], message["legal"])
            answer: dict[str, object] = {"type": "action", "action": action}
            if type(action) is tuple:  # (action, note): the bot's reason goes with its action
                answer["action"], answer["note"] = action
            if "decision" in message:
                answer["decision"] = message["decision"]  # which act this answers (SPEC.md §3)
            write_message(out, answer)
        # unknown message types are ignored (SPEC.md §3)
