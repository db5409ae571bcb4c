"""Running a tournament: prepare (check everything), open or create the store, play, resume.

Nothing is written before every input has been checked: the config, every bot folder, the
entrant count and, for an existing store, that it holds this very tournament (same config but for
``workers`` and ``output``, same bots by content hash, same schedule). Then the matches the store
does not hold yet are played by a backend, and each is stored by this (the parent) process as it
arrives. Running the same command again resumes: a match is stored once or not at all. An SPRT
(``tournaments.sprt``) plays its matches in batches, in schedule order, and stops at its test's
verdict, which a resume reaches again from the stored results. An adaptive tournament
(``tournaments.adaptive``) has no schedule in advance: it plans a batch of duplicate sets at a time
from the results of the batches before it, which a resume replays from the store.
"""
from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import secrets
import signal
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from arena.bots import BotSpec
from arena.errors import ArenaError, BotError
from arena.game import SEED_BITS
from arena.record import MatchRecord
from tournaments.backends import Backend, MatchJob, ProcessBackend, default_workers
from tournaments.adaptive import Plan, Settings, Summary
from tournaments.config import ADAPTIVE, SPRT, ConfigError, TournamentConfig
from tournaments.lock import output_lock
from tournaments.entrants import check_entrant_count, resolve_entrants
from tournaments.progress import Progress
from tournaments.ratings import estimate_draw_probability
from tournaments.schedule import Schedule, ScheduledMatch, make_schedule
from tournaments.sprt import Played, SequentialTest, SprtSummary, batch_size
from tournaments.store import STORE_NAME, Entrant, Store, store_path

@dataclass
class Prepared:
    """A checked tournament, ready to run: its bots, entrants, schedule and output folder."""

    config: TournamentConfig
    bots: list[BotSpec]
    entrants: list[Entrant]
    schedule: Schedule
    output: Path

    def job(self, match: ScheduledMatch) -> MatchJob:
        return MatchJob(match_id=match.id, game=self.config.game, options=dict(self.config.options),
                        bots=tuple(self.bots[e] for e in match.seats), seed=match.seed,
                        time_control=self.config.time_control, limits=dict(self.config.limits))


@dataclass
class RunResult:
    outcome: str        # complete | stopped
    played: int         # matches played by this run
    done: int           # matches in the store
    total: int          # matches in the schedule
    failures: int       # failed seats in the store
    store: Path
    report: Path | None = None  # the page on_results made of the results (the report's index)
    sprt: SprtSummary | None = None  # where an SPRT's test stands (format type = "sprt")
    adaptive: Summary | None = None  # where an adaptive tournament stands (type = "adaptive")


class ResultsListener(Protocol):
    """Told how a run's results change; the command line wires the live report to it
    (``reports.live.LiveReport``, found through the ``arena.results`` entry point)."""

    def started(self, say: Callable[[str], None]) -> None:
        """The run begins (``say`` prints a line beside the progress bar)."""

    def changed(self) -> None:
        """A match was stored. Called in the run's own thread, after every match: keep it cheap."""

    def finished(self, outcome: str) -> Path | None:
        """The run ended with ``outcome`` (complete, stopped, aborted, error); returns the page
        it made of the results, if any (a report's index)."""


def prepare(config: TournamentConfig, output: str | Path | None = None) -> Prepared:
    """Check every input and build the schedule; writes nothing.

    A config without a seed gets the seed of the tournament already in its output folder (a
    resume), else a new random one: the seed is a secret, since every deal follows from it.
    """
    bots = resolve_entrants(config)
    candidates = check_entrant_count(config, [b.name for b in bots])
    folder = Path(output).resolve() if output is not None else config.output_dir
    if folder.exists() and not folder.is_dir():
        raise ArenaError(f"output {str(folder)!r} is a file, not a folder")
    if config.seed is None:
        config = dataclasses.replace(config, seed=_stored_seed(folder))
    assert config.seed is not None  # the config's own, or the one just drawn or read
    schedule = make_schedule(len(bots), config.format, config.seed, candidates)
    entrants = [Entrant(i, b.name, str(b.path), b.content_hash(), b.description)
                for i, b in enumerate(bots)]
    return Prepared(config, bots, entrants, schedule, folder)


def _stored_seed(folder: Path) -> int:
    """The seed of the tournament stored in ``folder``, or a new secret one."""
    path = store_path(folder)
    if Store.is_initialised(path):
        with Store.open(path) as store:
            seed = store.config_dict().get("seed")
        if isinstance(seed, int):
            return seed
    return secrets.randbits(SEED_BITS)


def planned_matches(prepared: Prepared) -> int:
    """The matches of the schedule; at most this many for an adaptive tournament."""
    f = prepared.config.format
    return (f.max_matches or 0) if f.type == ADAPTIVE else len(prepared.schedule)


def schedule_hash(schedule: Schedule) -> str:
    """A fingerprint of who plays whom in which seat on which seed."""
    digest = hashlib.sha256()
    for m in schedule.matches:
        digest.update(f"{m.id}:{m.seed}:{','.join(map(str, m.seats))};".encode())
    return digest.hexdigest()


def open_store(prepared: Prepared) -> tuple[Store, bool]:
    """The store of this tournament: created, or reopened after checking it is the same one."""
    path = store_path(prepared.output)
    Store.check_intact(path)  # a damaged or foreign file: one line, and it is left untouched
    if Store.is_initialised(path):
        store = Store.open(path, write=True)
        try:
            check_same_tournament(store, prepared)
        except BaseException:
            store.close()
            raise
        return store, True
    config = prepared.config
    draw = config.draw_probability
    if draw is None:
        assert config.seed is not None  # prepare() gave the config its seed
        draw = estimate_draw_probability(config.game, config.options, config.format.players,
                                         seed=config.seed)
    store = Store.create(path, config, prepared.entrants, planned=planned_matches(prepared),
                         note=prepared.schedule.note, draw_probability=draw,
                         schedule_hash=schedule_hash(prepared.schedule))
    return store, False


def check_same_tournament(store: Store, prepared: Prepared) -> None:
    """The store must hold the tournament being run; the error names the first difference."""
    where = f"output folder {str(prepared.output)!r} holds a different tournament"
    advice = (f"; use another output folder (--output), or delete {store.path} to start over")
    stored = TournamentConfig.from_dict(store.config_dict()).identity()
    key, old, new = _first_difference(stored, prepared.config.identity())
    if key == "seed":  # the seeds are secrets: say they differ, not what they are
        raise ConfigError(f"{where}: its 'seed' differs from this config's{advice}")
    if key is not None:
        raise ConfigError(f"{where}: '{key}' is {json.dumps(old)} there but {json.dumps(new)} "
                          f"in this config{advice}")
    old_entrants = store.entrants()
    if [e.name for e in old_entrants] != [e.name for e in prepared.entrants]:
        raise ConfigError(f"{where}: its entrants are {[e.name for e in old_entrants]}, this "
                          f"config's are {[e.name for e in prepared.entrants]}{advice}")
    for old_e, new_e in zip(old_entrants, prepared.entrants):
        if old_e.content_hash != new_e.content_hash:
            raise ConfigError(
                f"{where}: entrant {new_e.name!r} ({new_e.path}) has changed since the "
                f"tournament started (its files hash to {new_e.content_hash[:12]}, the store "
                f"has {old_e.content_hash[:12]}); restore it{advice}")
    if store.schedule_hash != schedule_hash(prepared.schedule):
        raise ConfigError(f"{where}: its schedule differs from this config's (made by another "
                          f"version of arena?){advice}")


def _first_difference(old: Any, new: Any, path: str = "") -> tuple[str | None, Any, Any]:
    """The first key (``format.rounds``, ``entrants[2].path``) whose values differ."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            found = _first_difference(old.get(key), new.get(key), f"{path}.{key}" if path else key)
            if found[0] is not None:
                return found
        return None, None, None
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new)):
            found = _first_difference(a, b, f"{path}[{i}]")
            if found[0] is not None:
                return found
        return None, None, None
    if old != new:
        return path, old, new
    return None, None, None


class _Interrupts:
    """First Ctrl-C: finish the matches in flight, then stop. Second: stop at once."""

    def __init__(self, backend: Backend, say: Callable[[str], None]) -> None:
        self.backend = backend
        self.say = say
        self.count = 0
        self._previous: Any = None

    def __enter__(self) -> "_Interrupts":
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)

    def _handle(self, _signum: int, _frame: Any) -> None:
        self.count += 1
        if self.count == 1:
            self.backend.stop()
            self._announce("stopping after the matches in flight; press Ctrl-C again to stop at once")
            return
        self.backend.abort()
        raise KeyboardInterrupt

    def _announce(self, text: str) -> None:
        """Write from the signal handler with a raw ``os.write``: a buffered stream that the
        handler interrupted mid-write would raise a reentrant-call error."""
        try:
            fd = sys.stderr.fileno()
        except (AttributeError, OSError, ValueError):
            self.say(text)
            return
        prefix = "\r\x1b[K" if os.isatty(fd) else ""
        with contextlib.suppress(OSError):
            os.write(fd, f"{prefix}{text}\n".encode())


def run_tournament(prepared: Prepared, *, workers: int | None = None,
                   backend: Backend | None = None, progress: bool = True,
                   say: Callable[[str], None] | None = None,
                   cluster: str | None = None,
                   on_results: ResultsListener | None = None) -> RunResult:
    """Play every match the store does not hold yet; resumable at any moment. ``cluster`` (else
    the config's ``cluster``) is a Dask scheduler address to play on instead of local workers.
    ``on_results`` is told when the results change (the live report)."""
    address = cluster if cluster is not None else prepared.config.cluster
    if backend is None and address is not None:  # "" too: DaskBackend says it is no address
        from tournaments.cluster import DaskBackend  # Dask is optional: imported only when used
        # connects (or fails) before anything is written; ``workers`` caps the matches in flight
        with DaskBackend(address, max_in_flight=workers,
                         cores_per_match=prepared.config.cores_per_match) as dask_backend:
            return run_tournament(prepared, backend=dask_backend, progress=progress, say=say,
                                  on_results=on_results)
    with output_lock(prepared.output):
        store, resumed = open_store(prepared)
        with store:
            return _play(prepared, store, resumed, workers, backend, progress, say, on_results)


def build_entrants(bots: Sequence[BotSpec], say: Callable[[str], None]) -> None:
    """Build the entrants that have a build step, before any match (arena.build caches the result
    by content hash); a failed build is said here, and its bot's seats get ``build_failed``."""
    from arena.build import BuildFailed, ensure_built, output_lines

    for bot in bots:
        if not bot.build:
            continue
        try:
            ensure_built(bot, on_start=lambda b: say(f"building {b.name}: {' '.join(b.build)}"))
        except BuildFailed as exc:
            lines = output_lines(exc.output)
            tail = "; ".join([line.strip() for line in lines if "error" in line.lower()][:2]
                             or lines[-3:])
            say(f"warning: entrant {bot.name!r} did not build: {exc.reason}"
                + (f": {tail}" if tail else "") + "; its matches are lost as build_failed")


def _play(prepared: Prepared, store: Store, resumed: bool, workers: int | None,
          backend: Backend | None, show: bool, say: Callable[[str], None] | None,
          on_results: ResultsListener | None = None) -> RunResult:
    done_ids = store.done_ids()
    todo = [m for m in prepared.schedule.matches if m.id not in done_ids]
    total = planned_matches(prepared)
    done, failures = store.count()
    bar = Progress(total, done, failures, enabled=show)
    test: SequentialTest | None = None
    stored: dict[int, Played] = {}
    if prepared.config.format.type == SPRT:  # the test so far, from the stored results
        test = SequentialTest(prepared.config.format)
        stored = {r.id: Played(r.seats, r.ranks) for r in store.iter_matches()}
        if test.advance(stored) is not None:
            todo = []  # decided already: a resume plays nothing more
        bar.detail = test.status()
    say = say or bar.message
    if prepared.schedule.note:
        say(f"note: {prepared.schedule.note}")
    if resumed:
        say(f"resuming: {done} of {total} matches already played")
    adaptive = prepared.config.format.type == ADAPTIVE  # planned as it goes: no todo list
    if (todo or adaptive) and not getattr(backend, "name", "").startswith("dask"):  # a Dask worker builds its own
        build_entrants(prepared.bots, say)
    if backend is None:
        per_match = prepared.config.cores_per_match
        n = workers or prepared.config.workers or default_workers(per_match)
        left = total - done if adaptive else len(todo)
        backend = ProcessBackend(min(n, max(1, left)), cores_per_match=per_match)
    attach = getattr(backend, "attach", None)
    if attach is not None:  # a backend with warnings and a status of its own (the cluster's)
        attach(say, bar.status)
    run_id = store.begin_run(backend.name, getattr(backend, "workers", 1))
    plan = _adaptive_plan(prepared, store, stored)
    if plan is not None:
        bar.detail = plan.status()
    outcome = "error"
    played = 0
    if on_results is not None:
        on_results.started(say)
    report = None
    by_id: dict[int, ScheduledMatch] = {}
    try:
        with _Interrupts(backend, say) as interrupts:
            bar.draw(force=True)
            stopped = False
            for batch in _batches(todo, test, stored, batch_size(getattr(backend, "workers", 1)),
                                  plan):
                by_id = {m.id: m for m in batch}
                results = backend.run(prepared.job(m) for m in batch)
                try:
                    for finished in results:
                        match = by_id.pop(finished.match_id, None)
                        if match is None:  # delivered twice (a retried remote task): the first counts
                            continue
                        _check_record(match, finished.record, prepared)
                        store.add_match(match, finished.record, packed=finished.packed(),
                                        startup_ms=finished.startup_ms,
                                        wall_ms=finished.wall_ms, worker=finished.worker,
                                        run_id=run_id)
                        played += 1
                        if test is not None or plan is not None:
                            stored[match.id] = Played(match.seats, finished.record.ranks)
                        if test is not None:
                            test.advance(stored)
                            bar.detail = test.status()
                        if plan is not None and plan.advance(stored) is None:
                            bar.detail = plan.status()
                        if on_results is not None:
                            on_results.changed()
                        bar.advance(sum(1 for s in finished.record.statuses if s.status != "ok"))
                finally:
                    close = getattr(results, "close", None)
                    if close is not None:
                        close()
                if by_id or ((test is not None or plan is not None) and interrupts.count):
                    stopped = True
                    break
            finished_test = (test is not None and test.finished) or (plan is not None
                                                                      and plan.stop is not None)
            outcome = "stopped" if stopped and not finished_test else "complete"
    except KeyboardInterrupt:
        outcome = "aborted"
        raise
    finally:
        bar.close()
        with contextlib.suppress(sqlite3.Error):  # the run's own outcome comes out, not this
            store.end_run(run_id, outcome)
        if on_results is not None:
            report = on_results.finished(outcome)
    for entrant, bot in zip(prepared.entrants, prepared.bots):
        try:
            changed = played and bot.content_hash() != entrant.content_hash
        except BotError as exc:  # it now holds something a bot folder may not (docs/sandbox.md)
            say(f"warning: entrant {entrant.name!r}: {exc}")
            changed = bool(played)
        if changed:
            say(f"warning: entrant {entrant.name!r} ({entrant.path}) changed its folder during the "
                "run: its matches may not be independent of each other, and the run cannot resume "
                "until the folder is restored")
    done, failures = store.count()
    summary = (test.summary(prepared.entrants[0].name, prepared.entrants[1].name)
               if test is not None else None)
    standing = plan.summary({e.id: e.name for e in prepared.entrants}) if plan is not None else None
    return RunResult(outcome, played, done, total, failures, store.path, report, summary, standing)


def _adaptive_plan(prepared: Prepared, store: Store, stored: dict[int, Any]) -> Plan | None:
    """An adaptive tournament's plan, replayed from the stored results (put into ``stored``);
    its batch size follows the workers of the tournament's first run, whatever this one has."""
    config = prepared.config
    if config.format.type != ADAPTIVE:
        return None
    assert config.seed is not None  # prepare() gave the config its seed
    stored.update((r.id, Played(r.seats, r.ranks)) for r in store.iter_matches())
    plan = Plan(Settings.of(config.format, config.seed, store.runs()[0]["workers"]),
                tuple(e.id for e in prepared.entrants))
    try:
        plan.advance(stored)
    except ArenaError as exc:
        raise ConfigError(f"output folder {str(prepared.output)!r}: {exc}") from None
    return plan


def _batches(todo: list[ScheduledMatch], test: SequentialTest | None, stored: dict[int, Played],
             size: int, plan: Plan | None = None) -> Iterator[list[ScheduledMatch]]:
    """What to play: every match left at once; for an SPRT, the next ``size`` matches left in
    schedule order, for as long as the test has no verdict (it looks after every batch); for an
    adaptive tournament, what is left of its current batch until it is over."""
    if plan is not None:
        while plan.advance(stored) is None:
            yield plan.left(stored)
        return
    if test is None:
        yield todo
        return
    while test.advance(stored) is None:
        left = [m for m in todo if m.id not in stored]
        if not left:
            return
        yield left[:size]


def _check_record(match: ScheduledMatch, record: MatchRecord, prepared: Prepared) -> None:
    names = [prepared.entrants[e].name for e in match.seats]
    if record.seed != match.seed or [s["name"] for s in record.seats] != names:
        raise RuntimeError(f"match {match.id}: the backend returned a record for another match "
                           f"(seed {record.seed}, seats {[s['name'] for s in record.seats]})")


__all__ = ["Prepared", "RunResult", "ResultsListener", "planned_matches", "prepare", "open_store", "run_tournament",
           "STORE_NAME"]
