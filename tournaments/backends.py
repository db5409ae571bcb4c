"""Execution backends: take match jobs, yield finished matches as they complete.

A :class:`MatchJob` (``tournaments.jobs``, here too) is pure, picklable data and :func:`play_job`
plays one anywhere. A backend only plays; it never touches the store — the parent writes every
result (``tournaments.run``).

Backends:

- :class:`SerialBackend` plays jobs one by one in this process (tests, debugging).
- :class:`ProcessBackend` plays them in long-lived worker processes started with the ``spawn``
  method. Why spawn: a worker starts once per run (so spawn's ~0.2 s start-up is paid once, not
  per match); a spawned worker inherits nothing but what it is sent — not the parent's SQLite
  connection, threads or other workers' pipes — so it is safe whatever the parent holds, behaves
  the same on Linux and macOS, and sees end-of-file on its pipe the moment the parent dies
  (SIGKILL included), which is how an orphaned worker knows to exit. ``fork`` would copy the open
  store and every earlier pipe; ``forkserver`` buys nothing for workers that live all run long.

Every bot is a fresh process per match (the referee starts and kills them), so no bot carries
memory from one match into another, whichever worker plays it.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import traceback
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import AbstractContextManager
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection, wait
from typing import Any, Protocol

from arena import sandbox
from tournaments import cores
from tournaments.jobs import Finished, MatchError, MatchJob, play_job
from tournaments.warm import WarmStarts


class Backend(Protocol):
    """Plays jobs and yields them as they finish (in any order). What it can do besides is
    stated, not probed: whether its workers build the entrants themselves (``builds``), what it
    tells and shows while it runs (``attach``), and how it keeps its workers from one ``run`` to
    the next (``session``)."""

    name: str      # recorded with each run in the store
    workers: int   # matches played at once
    builds: bool   # its workers build the bots they play (else the run builds them first)

    def attach(self, say: Callable[[str], None], status: Callable[[str | None], None]) -> None:
        """Where its warnings go (``say``, beside the progress bar) and its status (the bar's)."""

    def session(self) -> AbstractContextManager[Any]:
        """Keep its workers from one ``run`` to the next while the session lasts."""

    def run(self, jobs: Iterable[MatchJob]) -> Generator[Finished, None, None]:
        """Play ``jobs``; raise :class:`MatchError` if one raises instead of returning."""

    def stop(self) -> None:
        """Start no new job; ``run`` yields the matches in flight, then ends. Safe in a signal
        handler."""

    def abort(self) -> None:
        """End at once: matches in flight are abandoned (their bots killed)."""


class LocalBackend:
    """What a backend on this machine does besides playing: the run builds the bots (its workers
    play them from the same folders), it has no warnings or status of its own, and keeps
    nothing between runs unless it says otherwise."""

    name = "local"
    workers = 1
    builds = False

    def attach(self, say: Callable[[str], None], status: Callable[[str | None], None]) -> None:
        pass

    def session(self) -> AbstractContextManager[Any]:
        return contextlib.nullcontext()


class SerialBackend(LocalBackend):
    """Plays one job at a time in this process."""

    name = "serial"
    workers = 1

    def __init__(self) -> None:
        self._stopping = False

    def run(self, jobs: Iterable[MatchJob]) -> Generator[Finished, None, None]:
        for job in jobs:
            if self._stopping:
                return
            try:
                result = play_job(job)
            except Exception:  # noqa: BLE001 - any exception here is a bug in arena: say where
                raise MatchError(job.match_id, traceback.format_exc()) from None
            yield result

    def stop(self) -> None:
        self._stopping = True

    def abort(self) -> None:
        self._stopping = True


# ----- worker processes ----------------------------------------------------------------------

def _on_sigterm(_signum: int, _frame: Any) -> None:
    """Told to stop at once: kill this worker's bots and leave. No exception is raised: one could
    land anywhere (inside a fork's bookkeeping, say) and be swallowed there."""
    sandbox.kill_all()
    os._exit(143)


def _worker_main(conn: Connection, cores_per_match: int = 0,
                 start_ahead: bool | None = None, cores_idle: bool = False) -> None:
    """A worker's loop: receive a job (and the one after it), play it, send the result; exit on
    None or a dead parent. With ``cores_per_match``, the worker claims that many cores of its own
    (``tournaments.cores``) and it and every bot it starts run there only. It starts the next
    job's bots while one plays when ``start_ahead`` says so, or by default when it is pinned or
    the run leaves ``cores_idle``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: a Ctrl-C
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held since the start is dropped
    signal.signal(signal.SIGTERM, _on_sigterm)
    pinned = cores.pin(cores_per_match) is not None  # before any thread: they inherit it
    if start_ahead is None:
        start_ahead = pinned or cores_idle
    warm = WarmStarts() if start_ahead else None
    try:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                return  # the parent is gone
            if message is None:
                return
            job, next_job = message
            try:
                reply: tuple[str, int, Any] = ("ok", job.match_id, play_job(job, warm, next_job))
            except Exception:  # noqa: BLE001 - the worker process lives on; the parent reports it
                reply = ("error", job.match_id, traceback.format_exc())
            try:
                conn.send(reply)
            except (BrokenPipeError, EOFError, OSError):
                return
    finally:
        if warm is not None:
            warm.discard()


class _Worker:
    def __init__(self, ctx: Any, args: tuple[Any, ...]) -> None:
        self.args = args
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_worker_main, args=(child, *args), daemon=True,
                                   name="arena-worker")
        # A terminal's Ctrl-C reaches the whole process group. The worker ignores it once its code
        # runs (_worker_main); until then (Python's start, a spawned process's imports, which may
        # take seconds) it inherits SIGINT blocked from here, so that a Ctrl-C then waits, and is
        # dropped, rather than printing a KeyboardInterrupt traceback. Here it is only held: the
        # parent's own Ctrl-C arrives when the start is done. (Python's resource tracker, which a
        # spawned process needs, unblocks SIGINT when it starts itself: so it starts first.)
        if ctx.get_start_method() != "fork":
            resource_tracker.ensure_running()
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self.process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        child.close()
        self.job: MatchJob | None = None       # in flight
        self.reserved: MatchJob | None = None  # this worker's next job: its bots start ahead

    def send(self, job: MatchJob, next_job: MatchJob | None) -> None:
        self.job, self.reserved = job, next_job
        self.conn.send((job, next_job))

    def take_back(self) -> list[MatchJob]:
        """The jobs given to this worker and not finished, in schedule order."""
        jobs = [j for j in (self.job, self.reserved) if j is not None]
        self.job = self.reserved = None
        return jobs

    def close(self, timeout: float) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


class ProcessBackend(LocalBackend):
    """Plays jobs in ``workers`` spawned worker processes, one match per worker at a time.

    With ``cores_per_match`` = K, each worker claims K cores of its own, machine-wide
    (``tournaments.cores``): it and the bots it starts run there only, so a match never competes
    for CPU with another match, of this run or of another, and a bot's clock measures the same
    machine in every match. A pinned worker starts its next match's bots ahead
    (``tournaments.warm``) on its own cores. A worker that finds too few cores free (K = 0, more
    workers than cores, another run holding them) is unpinned, and starts ahead only when the run
    leaves cores idle: otherwise the starts would compete with the other matches.
    ``start_ahead`` forces starting ahead on (True) or off (False) for every worker.
    """

    name = "processes"

    def __init__(self, workers: int, start_method: str = "spawn", cores_per_match: int = 1) -> None:
        self.workers = max(1, workers)
        self.cores_per_match = cores_per_match
        self.start_ahead: bool | None = None
        self._ctx = multiprocessing.get_context(start_method)
        self._stopping = False
        self._aborting = False
        self._keep = False
        self._pool: list[_Worker] = []

    def stop(self) -> None:
        self._stopping = True

    def abort(self) -> None:
        self._stopping = True
        self._aborting = True

    @contextlib.contextmanager
    def session(self) -> Iterator[ProcessBackend]:
        """Keep the workers from one ``run`` to the next (an SPRT's or an adaptive tournament's
        batches): each would otherwise start its process, and its bots' fork servers, again for
        every batch. They end when the session does."""
        self._keep = True
        try:
            yield self
        finally:
            self._keep = False
            self._shutdown()

    def _workers_for(self, jobs: int) -> list[_Worker]:
        """The pool for ``jobs`` jobs: the kept workers still alive, and new ones up to
        ``workers`` (no more than the jobs need)."""
        n_cores = len(cores.available())
        per_match = self.cores_per_match if self.workers * self.cores_per_match <= n_cores else 0
        args = (per_match, self.start_ahead, self.workers < n_cores)
        for worker in [w for w in self._pool if not w.process.is_alive()]:
            self._pool.remove(worker)
            worker.close(0.1)
        while len(self._pool) < min(self.workers, jobs):
            self._pool.append(_Worker(self._ctx, args))
        return self._pool

    def run(self, jobs: Iterable[MatchJob]) -> Generator[Finished, None, None]:
        pending = _Pending(jobs)
        retried: set[int] = set()
        idle = list(self._workers_for(pending.fill(self.workers)))
        ended = False

        def dispatch() -> None:
            """Give every idle worker its next job (its reserved one first)."""
            for worker in list(idle):
                if self._stopping:
                    return
                job = worker.reserved or (pending.popleft() if pending else None)
                job = job or self._steal_reserved()
                if job is None:
                    continue
                idle.remove(worker)
                try:
                    ahead = pending.popleft() if pending and self.start_ahead is not False else None
                    worker.send(job, ahead)
                except OSError:  # it died while idle (killed from outside): replace it
                    pending.extendleft(reversed(worker.take_back()))
                    idle.append(self._replace(worker))

        try:
            while not self._aborting:
                dispatch()
                busy = [w for w in self._pool if w.job is not None]
                if not busy:
                    ended = not self._stopping
                    return
                ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy],
                             timeout=0.2)
                for worker in busy:
                    if worker.conn in ready:
                        try:
                            kind, match_id, payload = worker.conn.recv()
                        except (EOFError, OSError):
                            kind = "died"
                    elif worker.process.sentinel in ready:
                        kind = "died"
                    else:
                        continue
                    job, worker.job = worker.job, None
                    assert job is not None
                    if kind != "ok" and worker.reserved is not None:
                        pending.appendleft(worker.reserved)  # not started: play it elsewhere
                        worker.reserved = None
                    if kind == "ok":
                        idle.append(worker)
                        dispatch()  # before the result is stored: the worker need not wait for it
                        yield payload
                    elif kind == "error":
                        raise MatchError(match_id, payload)
                    else:  # the worker process died mid-match (killed from outside?): retry once
                        if job.match_id in retried:
                            raise MatchError(job.match_id, "a worker process died twice playing it "
                                             f"(exit code {worker.process.exitcode})")
                        retried.add(job.match_id)
                        pending.appendleft(job)
                        idle.append(self._replace(worker))
        finally:
            if not (ended and self._keep):  # stopped, aborted or failed: the workers end now
                self._shutdown()

    def _steal_reserved(self) -> MatchJob | None:
        """At the end of a run, an idle worker takes a job reserved by a busy one."""
        for other in self._pool:
            if other.job is not None and other.reserved is not None:
                job, other.reserved = other.reserved, None
                return job
        return None

    def _replace(self, worker: _Worker) -> _Worker:
        self._pool.remove(worker)
        worker.close(0.1)
        replacement = _Worker(self._ctx, worker.args)
        self._pool.append(replacement)
        return replacement

    def _shutdown(self) -> None:
        if self._aborting:
            for worker in self._pool:
                if worker.process.is_alive():
                    worker.process.terminate()  # SIGTERM: the worker kills its bots and exits
        for worker in self._pool:
            worker.close(timeout=2.0 if self._aborting else 5.0)
        self._pool = []


class _Pending:
    """The jobs not yet handed to a worker, taken from ``jobs`` only as workers need them: a job
    the run's iterator leaves out meanwhile (a suspended entrant's) is never made."""

    def __init__(self, jobs: Iterable[MatchJob]) -> None:
        self._jobs = iter(jobs)
        self._taken: deque[MatchJob] = deque()

    def fill(self, count: int) -> int:
        """Take jobs until ``count`` wait (or none is left); how many wait."""
        while len(self._taken) < count:
            job = next(self._jobs, None)
            if job is None:
                break
            self._taken.append(job)
        return len(self._taken)

    def __bool__(self) -> bool:
        return self.fill(1) > 0

    def popleft(self) -> MatchJob:
        self.fill(1)
        return self._taken.popleft()

    def appendleft(self, job: MatchJob) -> None:
        self._taken.appendleft(job)

    def extendleft(self, jobs: Iterable[MatchJob]) -> None:
        self._taken.extendleft(jobs)


def default_workers(cores_per_match: int = 0) -> int:
    """As many workers as there are cores for them: one per core, or per ``cores_per_match``."""
    return max(1, len(cores.available()) // max(1, cores_per_match))


__all__ = ["Backend", "Finished", "LocalBackend", "MatchError", "MatchJob", "ProcessBackend",
           "SerialBackend", "default_workers", "play_job"]
