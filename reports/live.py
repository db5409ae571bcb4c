"""The live report: a tournament's report kept up to date while it runs (docs/reports.md).

A :class:`LiveReport` listens to a run's results (``tournaments.run.ResultsListener``; the
``arena`` command wires it in through the ``arena.results`` entry point): while matches are
stored, the site's index (leaderboard, head to head, rating history) is rendered again from the
store at most every ``interval`` seconds, and reloads itself in the browser; at the end the
whole report is rendered once, without the reloading. Rendering is the report's own business: a
failure is told once and never stops the tournament.

The pages are rendered in a child process (:class:`Renderer`; the report's own, or one the
caller keeps from run to run, as the contest server does): rendering a large report is seconds of
Python, which in the parent would hold the interpreter's lock that the run, and the contest
server's pages, need.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from reports.render import LIVE_REFRESH_S

INCOMPLETE = ("aborted", "error")  # run outcomes that leave the index as it was, not reloading


class LiveReport:
    def __init__(self, output: Path, interval: float = LIVE_REFRESH_S, *, logs: bool = True,
                 reveal_seed: Callable[[], bool] = lambda: False,
                 renderer: Renderer | None = None) -> None:
        self.output = Path(output)
        self.logs = logs                  # False: the public pages leave out every stderr
        self.reveal_seed = reveal_seed    # asked at each render (the contest's teacher decides)
        self.interval = interval
        self._own = renderer is None      # a renderer of its own ends with the run
        self.renderer = renderer or Renderer()
        self.renders = 0
        self.say: Callable[[str], None] = print
        self._changed = threading.Event()
        self._stop = threading.Event()
        self._failed = False
        self._thread = threading.Thread(target=self._loop, name="live-report", daemon=True)

    # ----- the listener --------------------------------------------------------------------
    def started(self, say: Callable[[str], None]) -> None:
        """The run begins: render the index now, then whenever results changed, every
        ``interval`` seconds at most."""
        from reports import old_site_note

        self.say = say
        note = old_site_note(self.output)
        if note:
            say(f"note: {note}")
        self._changed.set()
        self._thread.start()

    def changed(self) -> None:
        """A match was stored (called in the run's thread: only a flag)."""
        self._changed.set()

    def finished(self, outcome: str) -> Path | None:
        """Stop refreshing; a finished or stopped run gets its whole report (its index page is
        returned), an aborted one only loses the index's reloading."""
        self._stop.set()
        self._changed.set()
        if self._thread.is_alive():
            self._thread.join()
        try:
            return self._finish(outcome)
        finally:
            if self._own:
                self.renderer.close()

    def _finish(self, outcome: str) -> Path | None:
        if outcome not in INCOMPLETE:
            return self._render(live=False)
        from reports import default_site_dir
        index = default_site_dir(self.output) / "index.html"
        with contextlib.suppress(OSError):
            html = index.read_text(encoding="utf-8")
            index.write_text("".join(line for line in html.splitlines(keepends=True)
                                     if 'http-equiv="refresh"' not in line), encoding="utf-8")
        return None

    # ----- rendering -----------------------------------------------------------------------
    def _render(self, live: bool) -> Path | None:
        try:
            index = self._render_site(live)
        except Exception as exc:  # noqa: BLE001  (any failure of the report: told once, the tournament goes on)
            if not self._failed:
                self.say(f"warning: the live report could not be rendered: {exc}")
            self._failed = True
            return None
        self.renders += 1
        return index

    def _render_site(self, live: bool) -> Path:
        from arena.errors import ArenaError
        if not live and self.reveal_seed():
            try:
                return self.renderer.render(self.output, logs=self.logs, reveal_seed=True)
            except ArenaError:  # not every match is played yet: the seed stays secret
                pass
        return self.renderer.render(self.output, live=live, logs=self.logs)

    def _loop(self) -> None:
        while True:
            self._changed.wait()
            if self._stop.is_set():
                return
            self._changed.clear()
            self._render(live=True)
            if self._stop.wait(self.interval):
                return



class Renderer:
    """A child process that renders sites (``reports.render_site``), started at the first
    render and again if it died; its exceptions are raised in the caller. ``close`` ends it."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def render(self, output: Path, **options: Any) -> Path:
        from reports import render_site
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(1, multiprocessing.get_context("spawn"),
                                                 initializer=_renderer_starts,
                                                 initargs=(os.getpid(),))
            pool = self._pool
            # the child starts with Ctrl-C blocked (a mask survives exec) until it ignores it
            held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                future = pool.submit(render_site, output, **options)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
        try:
            page: Path = future.result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None  # the next render starts another
            raise
        return page

    def pids(self) -> list[int]:
        """The renderer's process ids (none before the first render and after ``close``)."""
        with self._lock:
            pool = self._pool
        return [] if pool is None else [p.pid for p in (pool._processes or {}).values()
                                         if p.pid is not None]

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown()


def _renderer_starts(parent: int) -> None:
    """In the renderer: a terminal's Ctrl-C reaches every process of its group, and the parent
    handles it; and the renderer ends with its parent, however that ends (even SIGKILL)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
