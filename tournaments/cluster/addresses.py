"""The scheduler's address: its form (:func:`check_address`), and what listens there
(:func:`probe`, :func:`check_scheduler`), each wrong case one clear line."""
from __future__ import annotations

import asyncio
import socket
import struct
import time
from typing import Any, cast

from arena.errors import ArenaError

DEFAULT_PORT = 8786
SCHEMES = ("tcp", "tls")
PROBE_SECONDS = 5.0         # a Dask server greets at once: silence this long means it is none


def check_address(address: str) -> tuple[str, str, int]:
    """``(scheme, host, port)`` of a scheduler address (``tcp://HOST:PORT``, ``tls://…``, or
    ``HOST[:PORT]``), or one :class:`ArenaError` line saying what is wrong with it."""
    text = address.strip()
    if not text:
        raise ArenaError("the Dask scheduler address is empty: give one such as tcp://HOST:8786, "
                         "or leave --cluster out to play on this machine")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme not in SCHEMES:
        raise ArenaError(f"{address!r} is not a Dask scheduler address: it must start with "
                         f"tcp:// or tls://, not {scheme}:// (e.g. tcp://HOST:8786; the dashboard's "
                         "http:// address is not the scheduler's)")
    if rest.startswith("["):  # [IPv6]:port
        host, _, port_text = rest[1:].partition("]")
        port_text = port_text[1:] if port_text.startswith(":") else port_text
    else:
        host, _, port_text = rest.rpartition(":") if ":" in rest else (rest, "", "")
    port_text = port_text or str(DEFAULT_PORT)
    if not host or "/" in host or "/" in port_text:
        raise ArenaError(f"{address!r} is not a Dask scheduler address: expected tcp://HOST:PORT")
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ArenaError(f"{address!r} is not a Dask scheduler address: the port {port_text!r} is "
                         "not a number from 1 to 65535")
    return scheme, host, int(port_text)


def probe(address: str, scheme: str, host: str, port: int, timeout: float) -> None:
    """Make sure a Dask server listens at a tcp address, in at most ``timeout`` seconds: a Dask
    server speaks first (its handshake: a frame length, then a msgpack map naming its
    pickle protocol). Anything else (an HTTP server such as the dashboard, a proxy, a listener
    that says nothing) is refused here, rather than left to a client that would wait for ever
    or read an HTTP reply as a frame length."""
    if scheme != "tcp":
        return  # TLS: the client's own timeout bounds the handshake
    hint = f"start one with `dask scheduler` and workers with `dask worker {address}`"
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except ConnectionRefusedError:
        raise ArenaError(f"cannot reach the Dask scheduler at {address!r}: nothing listens there; "
                         f"{hint}") from None
    except OSError as exc:
        raise ArenaError(f"cannot reach the Dask scheduler at {address!r} ({exc})") from None
    with sock:
        def read(n: int) -> bytes:
            data = b""
            while len(data) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                sock.settimeout(left)
                chunk = sock.recv(n - len(data))
                if not chunk:
                    raise ConnectionError("it closed the connection")
                data += chunk
            return data

        what = f"{address!r} is not a Dask scheduler"
        try:
            (size,) = struct.unpack("<Q", read(8))
            if not 8 <= size <= 1 << 20:
                raise ArenaError(f"{what}: it answered with something else (an HTTP server? the "
                                 f"dashboard listens on 8787, the scheduler on {DEFAULT_PORT})")
            if b"pickle-protocol" not in read(size):
                raise ArenaError(f"{what}: its greeting is not Dask's")
        except TimeoutError:
            raise ArenaError(f"{what}: it accepted the connection but said nothing in "
                             f"{timeout:g} s (an HTTP server or a proxy? the dashboard listens on "
                             f"8787, the scheduler on {DEFAULT_PORT})") from None
        except OSError as exc:
            raise ArenaError(f"{what}: {exc}") from None


def check_scheduler(address: str, timeout: float) -> None:
    """A Dask server answers ``identity``: make sure it is the scheduler, not a worker or a
    nanny (a client connected to those fails with a traceback, and another one 20 s later)."""
    from distributed.core import rpc

    async def identity() -> Any:
        server = cast(Any, rpc)(address, timeout=timeout)  # distributed has no type hints here
        try:
            return await asyncio.wait_for(server.identity(), timeout)
        finally:
            await server.close_rpc()

    try:
        info = asyncio.run(identity())
    except Exception as exc:  # noqa: BLE001 - whatever the server there did, one line
        raise ArenaError(f"cannot reach the Dask scheduler at {address!r} "
                         f"({type(exc).__name__}: {exc})".splitlines()[0]) from None
    kind = info.get("type") if isinstance(info, dict) else None
    if kind != "Scheduler":
        theirs = info.get("scheduler") if isinstance(info, dict) else None
        hint = f"; its scheduler is at {theirs}" if theirs else ""
        raise ArenaError(f"{address!r} is a Dask {kind or 'server'}, not the scheduler{hint}")
