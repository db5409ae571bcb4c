"""The parent's side of a cluster run: :class:`DaskBackend`, one more
:class:`tournaments.backends.Backend` (see the package's docstring)."""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import sys
import time
import traceback
import uuid
from collections.abc import Callable, Generator, Iterable
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from tournaments.backends import Finished, MatchError, MatchJob
from tournaments.cluster.addresses import PROBE_SECONDS, check_address, check_scheduler, probe
from tournaments.cluster.bundles import pack_bots
from tournaments.cluster.worker import (
    bundle_plugin_class,
    code_fingerprint,
    distributed_package,
    end_of_run,
    play_on_worker,
    worker_info,
)

POLL_SECONDS = 0.5          # how often a run looks at the cluster's workers
CALL_TIMEOUT = 10.0         # no call to the scheduler waits longer
CHECK_TIMEOUT = 10.0        # a worker that does not answer the check in time is refused
UNREGISTER_WAIT = 2.0       # seconds the end of a run waits for its plugin's removal


async def _awaited(method: Any, *args: Any, **kwargs: Any) -> Any:
    """Call a client method on the client's own event loop, where Dask's methods return an
    awaitable rather than block, and await it."""
    return await method(*args, **kwargs)


def describe_refusal(info: Any) -> str:
    """Why a worker gets no match, from what it answered the check (or the exception)."""
    if isinstance(info, dict):
        theirs = info.get("fingerprint")
        if theirs is None:
            return (f"it runs an arena ({info.get('arena')}) that does not report its code's "
                    "fingerprint; install this arena there")
        return (f"it runs other arena code (fingerprint {str(theirs)[:12]}, this is "
                f"{code_fingerprint()[:12]}; arena {info.get('arena')}); install this arena "
                "there")
    if isinstance(info, TimeoutError):
        return str(info)
    if isinstance(info, ArenaError):  # arena runs there, but cannot play (its bot cache, say)
        return str(info).splitlines()[0][:300]
    if isinstance(info, BaseException):
        text = f"{type(info).__name__}: {info}".splitlines()[0][:200]
        return f"it cannot run arena's check ({text}; is arena installed there?)"
    return f"it answered the check with {info!r}"[:200]


class DaskBackend:
    """Plays jobs as tasks on a Dask cluster: at most as many at once as its verified workers
    have threads (``max_in_flight`` caps it further), so that a stop lets only the matches in
    flight end. ``address``: a scheduler address, or a connected ``distributed.Client`` (left
    open).

    Workers are checked as they come (every ``POLL_SECONDS``): a worker whose arena code has
    another :func:`code_fingerprint`, or that cannot run the check, is refused with a warning
    naming it and never gets a match (every task is restricted to the verified workers).
    With no verified worker, the run waits (``status`` says so) and a stop ends it at once.
    A task whose allowed workers are all gone (a worker restarted by its nanny comes back under
    another address) is cancelled and submitted again to the workers connected now.

    Its workers build the bots they play, each from the folders sent to it (``builds``)."""

    builds = True

    def __init__(self, address: Any, *, connect_timeout: float = 10.0,
                 max_in_flight: int | None = None, cores_per_match: int = 1) -> None:
        distributed = distributed_package()
        self._distributed = distributed
        self._client: Any = None
        if isinstance(address, str):
            scheme, host, port = check_address(address)
            address = f"{scheme}://{host if ':' not in host else f'[{host}]'}:{port}"
            probe(address, scheme, host, port, min(connect_timeout, PROBE_SECONDS))
            if scheme == "tcp":
                check_scheduler(address, connect_timeout)
            try:
                self._client = distributed.Client(address, timeout=connect_timeout,
                                                  set_as_default=False)
            except Exception as exc:  # noqa: BLE001 - whatever the remote end did, one line
                raise ArenaError(f"cannot reach the Dask scheduler at {address!r} ({exc}); start "
                                 f"one with `dask scheduler` and workers with `dask worker "
                                 f"{address}`") from None
            self._owns_client = True
            self.address = address
        else:
            self._client = address
            self._owns_client = False
            self.address = str(address.scheduler.address)
        self.name = f"dask {self.address}"
        self.max_in_flight = max_in_flight
        self.cores_per_match = cores_per_match
        self.say: Callable[[str], None] = lambda text: print(text, file=sys.stderr, flush=True)
        self.status: Callable[[str | None], None] = lambda text: None
        self._stopping = False
        self._aborting = False
        self._looked = 0.0
        self._verified: dict[str, int] = {}    # worker address -> threads
        self._refused: dict[str, str] = {}     # worker address -> why
        self._checking: dict[str, Any] = {}    # worker address -> its check (a future)
        self._listing: Any = None              # the scheduler's list of workers, asked for
        self._current: dict[str, int] = {}     # the workers connected, as last listed
        self._waiting = False
        self._threads = 0
        try:
            deadline = time.monotonic() + CHECK_TIMEOUT + 1.0
            self._look(force=True)
            while self._checking and time.monotonic() < deadline:  # the workers there now
                time.sleep(0.05)
                self._look(force=True)
        except BaseException:
            self.close()
            raise
        self.workers = self._window()

    def attach(self, say: Callable[[str], None], status: Callable[[str | None], None]) -> None:
        """Where warnings go (a line each) and the run's status line (``None``: clear it)."""
        self.say, self.status = say, status

    def session(self) -> contextlib.AbstractContextManager[Any]:
        """Nothing to keep between runs: the connection lasts as long as the backend."""
        return contextlib.nullcontext()

    # ----- the workers ------------------------------------------------------------------------
    def _call(self, method: Any, *args: Any, **kwargs: Any) -> Any:
        """A call of a client method that waits at most ``CALL_TIMEOUT``."""
        return self._client.sync(_awaited, method, *args, callback_timeout=CALL_TIMEOUT, **kwargs)

    def _look(self, force: bool = False) -> None:
        """Every ``POLL_SECONDS``: forget the workers that left; check those that joined. The
        list of workers and the checks are asked for in the background, so that a look never
        holds up the results in between (``force``: wait for the list now)."""
        now = time.monotonic()
        if self._listing is None and (force or now - self._looked >= POLL_SECONDS):
            self._looked = now
            self._listing = asyncio.run_coroutine_threadsafe(
                asyncio.wait_for(self._client.scheduler.ncores(), CALL_TIMEOUT),
                self._client.loop.asyncio_loop)
        if self._listing is not None and (force or self._listing.done()):
            listing, self._listing = self._listing, None
            try:
                self._current = dict(listing.result(timeout=CALL_TIMEOUT + 1))
            except (OSError, concurrent.futures.CancelledError) as exc:  # timeouts, closed comms
                if self._client.status not in ("running", "connecting", "newly-created"):
                    raise ArenaError(f"lost the connection to the Dask scheduler at "
                                     f"{self.address} ({type(exc).__name__}); run the same "
                                     "command again to resume") from None
                return
        elif not self._checking:
            return
        current = self._current
        for gone in [a for a in self._verified if a not in current]:
            del self._verified[gone]
        for gone in [a for a in self._refused if a not in current]:
            del self._refused[gone]
        for gone in [a for a in self._checking if a not in current]:
            del self._checking[gone]
        for worker in sorted(current):   # each newcomer is checked on its own, in the background
            if worker not in self._verified and worker not in self._refused \
                    and worker not in self._checking:
                self._checking[worker] = asyncio.run_coroutine_threadsafe(
                    self._check(worker), self._client.loop.asyncio_loop)
        for worker, check in list(self._checking.items()):
            if not check.done():
                continue
            del self._checking[worker]
            try:
                info = check.result()
            except BaseException as exc:  # noqa: BLE001 (whatever it was, the worker is refused)
                info = exc
            if isinstance(info, dict) and info.get("fingerprint") == code_fingerprint():
                self._verified[worker] = current[worker]
            else:
                self._refused[worker] = describe_refusal(info)
                self.say(f"warning: Dask worker {worker} gets no matches: "
                         f"{self._refused[worker]}")
        self._threads = sum(self._verified.values())

    async def _check(self, worker: str) -> Any:
        """What ``worker_info`` says on ``worker`` (or the exception), in ``CHECK_TIMEOUT``."""
        try:
            infos = await asyncio.wait_for(  # on the client's loop: client.run is awaitable here
                self._client.run(worker_info, workers=[worker], on_error="return"),
                CHECK_TIMEOUT)
        except TimeoutError:
            return TimeoutError(f"it did not answer arena's check in {CHECK_TIMEOUT:g} s")
        return infos.get(worker, LookupError("it left"))

    def _window(self) -> int:
        """Matches in flight: the verified workers' threads, at most ``max_in_flight``."""
        return min(self._threads, self.max_in_flight or self._threads)

    def _wait_status(self, waiting: bool) -> None:
        if waiting == self._waiting:
            return
        self._waiting = waiting
        if not waiting:
            self.status(None)
            return
        refused = f"; {len(self._refused)} refused" if self._refused else ""
        self.status(f"waiting for Dask workers at {self.address} (none connected that can play"
                    f"{refused}; start some with `dask worker {self.address}`)")

    # ----- the Backend protocol ---------------------------------------------------------------
    def stop(self) -> None:
        self._stopping = True

    def abort(self) -> None:
        self._stopping = True
        self._aborting = True

    def run(self, jobs: Iterable[MatchJob]) -> Generator[Finished, None, None]:
        pending = list(jobs)
        if not pending:
            return
        client = self._client
        token = uuid.uuid4().hex[:10]
        digests, bundles = pack_bots(bot for job in pending for bot in job.bots)
        plugin = self._send_bundles(bundles)
        pending.reverse()  # pop() from the end: schedule order
        # Each task names the match its worker plays next (its bots start ahead there); that
        # match is held back here and submitted to the same worker when the task ends.
        # key -> job, future, the match held back, the workers allowed to play it
        in_flight: dict[str, tuple[MatchJob, Any, MatchJob | None, frozenset[str]]] = {}
        seen: set[int] = set()
        attempts: dict[int, int] = {}
        # Results are fetched in the background: a result lost with its worker before it was
        # fetched is computed again, and waiting for it here would block the loop that takes
        # back tasks whose workers are gone.
        futures = self._distributed.as_completed(loop=client.loop, with_results=True,
                                                 raise_errors=False)

        def seats(job: MatchJob) -> tuple[str, ...]:
            return tuple(digests[Path(bot.path)] for bot in job.bots)

        def submit(job: MatchJob, worker: str | None = None) -> None:
            after = pending.pop() if pending else None
            ahead = (after, seats(after)) if after is not None else None
            allowed = [worker] if worker in self._verified else sorted(self._verified)
            attempt = attempts[job.match_id] = attempts.get(job.match_id, 0) + 1
            again = f"r{attempt - 1}" if attempt > 1 else ""
            future = client.submit(play_on_worker, job, seats(job), ahead, self.cores_per_match,
                                   pure=False,
                                   key=f"arena-match-{token}{again}-{job.match_id}",
                                   workers=allowed, allow_other_workers=False)
            in_flight[future.key] = (job, future, after, frozenset(allowed))
            futures.add(future)

        def held_back() -> MatchJob | None:
            """At the end of a run, a free thread takes a match held back for a busy worker."""
            for key, (job, future, after, allowed) in in_flight.items():
                if after is not None:
                    in_flight[key] = (job, future, None, allowed)
                    return after
            return None

        def orphans() -> None:
            """Take back the tasks none of whose workers is here any more: Dask would keep them
            (state ``no-worker``) until that very address came back, which a restarted worker
            never does. They go again to the workers here now (or are dropped on a stop)."""
            for key, (job, future, after, allowed) in list(in_flight.items()):
                if allowed & self._verified.keys() or future.done():
                    continue
                del in_flight[key]
                future.cancel()
                if not self._stopping:
                    if after is not None:
                        pending.append(after)
                    pending.append(job)

        try:
            while not self._aborting:
                self._look()
                orphans()
                while not self._stopping and len(in_flight) < self._window():
                    job = pending.pop() if pending else held_back()
                    if job is None:
                        break
                    submit(job)
                if not in_flight and (self._stopping or not pending):
                    return
                self._wait_status(not self._verified and not self._stopping)
                item = self._next(futures, POLL_SECONDS)
                if item is None or item[0].key not in in_flight:
                    continue  # nothing yet, or a task taken back
                future, value = item
                job, _, after, _ = in_flight.pop(future.key)
                if isinstance(value, Finished):
                    future.release()
                    if after is not None and not self._stopping:
                        if self._verified:
                            submit(after, worker=value.worker.rsplit(" pid ", 1)[0])
                        else:  # every worker left meanwhile: it waits with the others
                            pending.append(after)
                    if job.match_id in seen:  # one task per match: never; but count once, surely
                        continue
                    seen.add(job.match_id)
                    yield value
                elif future.cancelled() or isinstance(value, self._distributed.CancelledError):
                    what = ("lost the connection to the Dask scheduler at" if client.status
                            != "running" else "the task was cancelled on the Dask cluster at")
                    raise ArenaError(f"{what} {self.address} (match {job.match_id} was in "
                                     "flight); run the same command again to resume")
                else:
                    self._raise(job, future)
        finally:
            self._wait_status(False)
            self._end(plugin, [f for _, f, _, _ in in_flight.values()])

    @staticmethod
    def _next(futures: Any, timeout: float) -> tuple[Any, Any] | None:
        """The next finished task and its result (or exception), or ``None`` after ``timeout``
        seconds without one."""
        with futures.thread_condition:
            if not futures.has_ready():
                futures.thread_condition.wait(timeout)
        return next(futures) if futures.has_ready() else None

    def _end(self, plugin: str, unfinished: list[Any]) -> None:
        """Cancel what is left, let the verified workers go of their cores and warm bots, and
        remove the run's plugin; each step bounded in time. The scheduler forgets the plugin
        as soon as it gets the request, then asks every worker to drop it, and waits for each
        answer: a worker that cannot answer (one that fails to start, say) would hold the end
        of the run for the whole timeout, so the run does not wait for that beyond a moment."""
        client = self._client
        # Each step catches anything: the end of a run runs in its ``finally``, where the run's
        # own outcome (a result, a stop, a lost scheduler) must come out, not the cleanup's.
        if unfinished:
            with contextlib.suppress(Exception):
                self._call(client.cancel, unfinished)
        if self._verified:
            with contextlib.suppress(Exception):
                self._call(client.run, end_of_run, workers=list(self._verified),
                           on_error="ignore")
        with contextlib.suppress(Exception):
            removal = asyncio.run_coroutine_threadsafe(
                _awaited(client.unregister_worker_plugin, name=plugin), client.loop.asyncio_loop)
            with contextlib.suppress(Exception):
                removal.result(timeout=UNREGISTER_WAIT)

    def _raise(self, job: MatchJob, future: Any) -> None:
        """A match task that failed: what the worker raised, as one line if it is arena's own
        refusal, else as a :class:`MatchError` with the worker's traceback."""
        try:
            exc = future.exception(timeout=CALL_TIMEOUT)
            tb = future.traceback(timeout=CALL_TIMEOUT)
        except (TimeoutError, OSError, self._distributed.CancelledError) as lost:
            exc, tb = lost, None  # what went wrong could not be fetched: say why not
        if isinstance(exc, ArenaError):  # a BundleError, typically
            raise ArenaError(f"match {job.match_id} on the Dask cluster: {exc}") from None
        if isinstance(exc, self._distributed.KilledWorker):
            raise MatchError(job.match_id, f"the Dask workers playing it died again and again "
                                           f"({exc}); see the workers' logs") from None
        details = "".join(traceback.format_exception(type(exc), exc, tb))
        raise MatchError(job.match_id, details) from None

    # ----- bundles ----------------------------------------------------------------------------
    def _send_bundles(self, bundles: dict[str, bytes]) -> str:
        """Register the run's bundles as a worker plugin: the scheduler sends it to every worker
        once, now and whenever a worker joins (a restarted one too). Named after its bundles, so
        a run resumed after a kill replaces the plugin its killed run left behind."""
        name = "arena-bundles-" + hashlib.sha256(
            "".join(sorted(bundles)).encode()).hexdigest()[:16]
        try:
            self._client.register_plugin(bundle_plugin_class()(bundles), name=name)
        except ArenaError:
            raise
        except Exception as exc:  # noqa: BLE001 - what a worker's setup raised comes back here
            raise ArenaError(f"could not send the bot folders to the Dask workers of "
                             f"{self.address} ({type(exc).__name__}: {exc})") from None
        return name

    def close(self) -> None:
        """Disconnect from the scheduler (only if this backend connected)."""
        if self._owns_client and self._client is not None:
            try:
                self._client.close()
            except Exception:  # noqa: BLE001 - closing ends a run, failed or not: it never fails it
                pass
        self._client = None

    def __enter__(self) -> DaskBackend:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

