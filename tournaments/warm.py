"""Bots started ahead: a worker starts the bots of its next match while it plays the current one.

Starting a sandboxed bot (a process, its namespaces, its interpreter loading) takes longer than
many whole matches of a fast game. A worker knows which match comes next, so while one match is
under way it starts the next one's bots on a background thread; when that match begins, the
referee's ``launch`` takes them from here. A warm bot has never played: it waits for its ``hello``
like any new process, so no bot carries anything from one match into another. A worker pinned to
cores of its own starts ahead on them; an unpinned one only when it leaves cores idle
(``tournaments.backends.ProcessBackend``). A bot started ahead boots at the lowest CPU priority
until its match begins (where the referee runs as root and so can raise it again): it takes what
the match in play leaves idle, not time from the bots that are thinking.

The starting thread lives as long as the worker: a bot is started with a parent-death signal,
which Linux sends when the *thread* that started it ends, so a short-lived thread would take its
bots with it.
"""
from __future__ import annotations

import queue
import threading
from collections.abc import Sequence

from arena import sandbox
from arena.bots import BotSpec
from arena.build import ensure_built
from tournaments import cores

Key = tuple[BotSpec, sandbox.Limits]


class WarmStarts:
    """Bot processes started ahead of their match, keyed by bot and limits."""

    def __init__(self) -> None:
        self._ready: dict[Key, list[sandbox.BotProcess]] = {}
        self._requests: queue.Queue[tuple[Sequence[BotSpec], sandbox.Limits, set[int]]] = \
            queue.Queue()
        self._idle = threading.Event()
        self._idle.set()
        self._thread: threading.Thread | None = None
        self.handed_out = 0  # bots played that were started ahead

    def prepare(self, bots: Sequence[BotSpec], limits: sandbox.Limits) -> None:
        """Start one process per seat of the next match, in the background."""
        self.discard()  # what the last preparation started and this match did not use
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="arena-warm-start", daemon=True)
            self._thread.start()
        self._idle.clear()
        self._requests.put((bots, limits, cores.available()))

    def _serve(self) -> None:
        while True:
            bots, limits, where = self._requests.get()
            cores.run_on(where)  # where the asking thread runs, its bots run (pinned workers)
            for bot in bots:
                try:  # as the referee will ask for it: from its build, if it has a build step
                    built = ensure_built(bot)
                    process = sandbox.start(built, limits, background=True)
                except Exception:  # noqa: BLE001 - launch() starts it again and reports why
                    continue
                self._ready.setdefault((built, limits), []).append(process)
            self._idle.set()

    def launch(self, bot: BotSpec, limits: sandbox.Limits) -> sandbox.BotProcess:
        """A warm process of ``bot`` if one is waiting and alive, else a newly started one."""
        self._idle.wait()
        waiting = self._ready.get((bot, limits))
        while waiting:
            process = waiting.pop()
            if process.proc.poll() is None:
                process.to_foreground()
                self.handed_out += 1
                return process
            process.kill()
        return sandbox.start(bot, limits)

    def discard(self) -> None:
        """Kill every warm process not handed out."""
        self._idle.wait()
        for processes in self._ready.values():
            for process in processes:
                process.kill()
        self._ready.clear()
