"""Running a tournament: prepare (check everything), open or create the store, admit the
field, play, resume.

Nothing is written before every input has been checked: the config, every bot folder, the
entrant count and, for an existing store, that it holds this very tournament (same config but for
``workers``, ``output`` and who the entrants are, same schedule). Then the field is brought up to
date (``tournaments.field``: new versions, late entrants, withdrawals), the matches still needed
among the current versions are worked out (``tournaments.plan.needed``) and played by a backend,
and each is stored by this (the parent) process as it arrives. Running the same command again
resumes: a match is stored once or not at all. What is played next, batch by batch, and what a
result changes is the format's (``tournaments.formats``: a fixed schedule plays every match left
at once; a format that decides as it goes asks for a batch at a time, from the stored results, so
a resume plays on as the uninterrupted run would have).
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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from arena.bots import BotSpec
from arena.errors import ArenaError
from arena.game import SEED_BITS
from arena.record import MatchRecord
from tournaments.backends import Backend, Finished, MatchJob, ProcessBackend, default_workers
from tournaments.config import TournamentConfig
from tournaments.entrants import Skipped, check_entrant_count, reference_names, resolve_field
from tournaments.field import Field, Suspensions, admit
from tournaments.formats import format_of, make_schedule
from tournaments.formats.protocol import ConfigError, Course, Outcome, Start, Summary
from tournaments.lock import output_lock
from tournaments.plan import Done, PlannedMatch, from_schedule, needed
from tournaments.progress import Progress
from tournaments.ratings import compute_ratings, estimate_draw_probability
from tournaments.schedule import Schedule, ScheduledMatch
from tournaments.store import STORE_NAME, Entrant, FirstSchedule, Store, store_path


@dataclass
class Prepared:
    """A checked tournament, ready to run: its bots, entrants, schedule and output folder."""

    config: TournamentConfig
    bots: list[BotSpec]
    entrants: list[Entrant]
    schedule: Schedule           # the schedule of these entrants (a new store's first plan)
    output: Path
    candidates: tuple[int, ...] = ()      # a gauntlet's candidates, indexes into ``bots``
    args: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)  # folder -> args
    skipped: list[Skipped] = dataclasses.field(default_factory=list)  # bad submissions
    waiting: set[str] = dataclasses.field(default_factory=set)  # folders left out, still changing
    checked: dict[str, str] | None = None  # submission -> the hash that passed its check (Intake)

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
    summary: Summary | None = None  # where the format stands (its verdict), if it says
    interrupted: bool = False  # a Ctrl-C came, even if every match was over by then


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


def prepare(config: TournamentConfig, output: str | Path | None = None, *,
            leave_out: dict[str, Skipped | None] | None = None,
            checked: dict[str, str] | None = None) -> Prepared:
    """Check every input and build the schedule; writes nothing.

    A config without a seed gets the seed of the tournament already in its output folder (a
    resume), else a new random one: the seed is a secret, since every deal follows from it.
    ``leave_out`` (the watch's) holds folders not to admit now: refused (a Skipped, listed in
    the report) or still changing (None); either way their entrant keeps its version in play.
    ``checked`` (the intake's, ``tournaments.watch.Intake``): the content hash each submission
    passed its check with; a submission's folder is admitted only as that version.
    """
    resolved = resolve_field(config)
    leave_out = dict(leave_out or {})
    for bot in resolved.bots:  # changed since its check: it waits for the next one
        if checked is not None and str(bot.path) in checked \
                and bot.content_hash() != checked[str(bot.path)]:
            leave_out.setdefault(str(bot.path), None)
    bots = [b for b in resolved.bots if str(b.path) not in leave_out]
    skipped = [s for s in resolved.skipped if s.folder not in leave_out]
    skipped += [s for s in leave_out.values() if s is not None]
    folder = Path(output).resolve() if output is not None else config.output_dir
    if folder.exists() and not folder.is_dir():
        raise ArenaError(f"output {str(folder)!r} is a file, not a folder")
    try:
        candidates = check_entrant_count(config, [b.name for b in bots])
    except ConfigError:
        if not Store.is_initialised(store_path(folder)):
            raise
        candidates = ()  # too few now, but the stored field plays on (its first schedule is made)
    if config.seed is None:
        config = dataclasses.replace(config, seed=_stored_seed(folder))
    assert config.seed is not None  # the config's own, or the one just drawn or read
    schedule = (make_schedule(len(bots), config.format, config.seed, candidates)
                if len(bots) >= config.format.players else Schedule((), (), 0))
    entrants = [Entrant(i, b.name, str(b.path), b.content_hash(), b.description)
                for i, b in enumerate(bots)]
    return Prepared(config, bots, entrants, schedule, folder, candidates, resolved.args,
                    skipped, {f for f, s in leave_out.items() if s is None}, checked)


def _stored_seed(folder: Path) -> int:
    """The seed of the tournament stored in ``folder``, or a new secret one."""
    path = store_path(folder)
    if Store.is_initialised(path):
        with Store.open(path) as store:
            seed = store.meta.config_dict().get("seed")
        if isinstance(seed, int):
            return seed
    return secrets.randbits(SEED_BITS)


def planned_matches(prepared: Prepared) -> int:
    """The matches the format plays at most (a fixed schedule's every match)."""
    f = prepared.config.format
    return format_of(f.type).planned(f, len(prepared.entrants), prepared.schedule)


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
            first = check_same_tournament(store, prepared)  # a store refused is left untouched
        except BaseException:
            store.close()
            raise
        store.upgrade()  # a store of an older format gains format 4's tables
        if not store.field.slots():  # ... and the slots of its schedule
            store.field.add_slots(from_schedule(first, prepared.config.format.players))
        return store, True
    config = prepared.config
    draw = config.draw_probability
    if draw is None:
        assert config.seed is not None  # prepare() gave the config its seed
        draw = estimate_draw_probability(config.game, config.options, config.format.players,
                                         seed=config.seed)
    store = Store.create(path, config, prepared.entrants, planned=planned_matches(prepared),
                         note=prepared.schedule.note, draw_probability=draw,
                         schedule_hash=schedule_hash(prepared.schedule),
                         slots=from_schedule(prepared.schedule, config.format.players))
    store.meta.set_first_schedule(FirstSchedule(len(prepared.entrants), tuple(prepared.candidates)))
    return store, False


def keep_report_settings(store: Store, prepared: Prepared) -> None:
    """What the report publishes, as this config says it (docs/reports.md): whether it is
    anonymous, and which entrants are references (by id)."""
    names = reference_names(prepared.config)
    store.meta.set_report(prepared.config.anonymous, [e.id for e in store.field.entrants() if e.name in names])


def check_same_tournament(store: Store, prepared: Prepared) -> Schedule:
    """The store must hold the tournament being run; the error names the first difference.
    Returns the store's first schedule."""
    where = f"output folder {str(prepared.output)!r} holds a different tournament"
    advice = (f"; use another output folder (--output), or delete {store.path} to start over")
    stored = store.meta.config().identity()
    key, old, new = _first_difference(stored, prepared.config.identity())
    if key == "seed":  # the seeds are secrets: say they differ, not what they are
        raise ConfigError(f"{where}: its 'seed' differs from this config's{advice}")
    if key is not None:
        raise ConfigError(f"{where}: '{key}' is {json.dumps(old)} there but {json.dumps(new)} "
                          f"in this config{advice}")
    old_args = {r.path: r.args for r in stored_config(store).entrants}
    for i, ref in enumerate(prepared.config.entrants):
        if ref.path in old_args and old_args[ref.path] != ref.args:
            raise ConfigError(f"{where}: 'entrants[{i}].args' is {json.dumps(old_args[ref.path])} "
                              f"there but {json.dumps(ref.args)} in this config (a bot's "
                              f"arguments are part of the tournament){advice}")
    first = store.meta.first_schedule()
    if first is None:  # a store from before late entrants: its entrants are the first schedule's
        first = FirstSchedule(len(store.field.entrants()), tuple(prepared.candidates))
    config = prepared.config
    assert config.seed is not None  # prepare() gave the config its seed
    schedule = make_schedule(first.entrants, config.format, config.seed, first.candidates or ())
    if store.meta.schedule_hash != schedule_hash(schedule):
        raise ConfigError(f"{where}: its schedule differs from this config's (made by another "
                          f"version of arena?){advice}")
    return schedule


def stored_config(store: Store) -> TournamentConfig:
    return store.meta.config()


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

    def __enter__(self) -> _Interrupts:
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


def field_of(prepared: Prepared, store: Store, say: Callable[[str], None]) -> Field:
    """The store's field brought up to what the entrants' folders hold now."""
    config = prepared.config
    assert config.seed is not None  # prepare() gave the config its seed
    candidates = {*config.format.candidates,  # by name, or by path as written
                  *(str((config.base_dir / c).expanduser().resolve()) for c in config.format.candidates)}
    return admit(store, prepared.output, prepared.bots, prepared.args, prepared.skipped,
                 candidates=sorted(candidates), sampled=bool(store.meta.schedule_note),
                 seed=config.seed, folder_mb=config.sandbox_limits().folder_mb, say=say,
                 waiting=sorted(prepared.waiting), checked=prepared.checked)


def to_play(prepared: Prepared, store: Store, field: Field) -> list[PlannedMatch]:
    """The matches still needed among the current versions, in plan order, each with its id
    (the schedule's, or the next ones after every stored match)."""
    config = prepared.config
    assert config.seed is not None
    done = [Done(m.slot, m.rotation, m.seats, m.versions) for m in store.matches.iter()]
    todo = needed(field.slots, field.current, done, config.seed, config.format.duplicate)
    next_id = max(store.meta.schedule_size, store.matches.last_id()) + 1
    numbered = []
    for match in todo:
        if not match.id:
            match, next_id = dataclasses.replace(match, id=next_id), next_id + 1
        numbered.append(match)
    return numbered


def _play(prepared: Prepared, store: Store, resumed: bool, workers: int | None,
          backend: Backend | None, show: bool, say: Callable[[str], None] | None,
          on_results: ResultsListener | None = None) -> RunResult:
    """Admit the field, start the format's run and play it batch by batch (:class:`_Run`)."""
    early: list[str] = []
    field = field_of(prepared, store, say or early.append)
    keep_report_settings(store, prepared)  # after admitting: a newcomer may be a reference
    kind = format_of(prepared.config.format.type)
    todo = to_play(prepared, store, field)
    current = store.matches.current()
    total = len(current) + len(todo) if kind.fixed else planned_matches(prepared)
    store.meta.set("planned", total)
    backend = backend or _local_backend(prepared, workers,
                                        len(todo) or max(0, total - store.matches.count()[0]))
    run_id = store.meta.begin_run(backend.name, backend.workers)
    bar = Progress(0, enabled=show)
    say = say or bar.message
    course = kind.start(_start(prepared, store, field, todo, current, backend, say))
    bar.total, bar.enabled, bar.detail = course.left, show and course.left > 0, course.status()
    for line in (*early, *field.news, *_opening(prepared, resumed, len(current), total)):
        say(line)
    if course.left and not backend.builds:  # else each worker builds its own
        build_entrants([field.bots[e] for e in sorted(field.current)], say)
    backend.attach(say, bar.status)
    run = _Run(prepared, store, field, backend, course, bar, run_id,
               Suspensions(store, field, prepared.config.format.suspend_after, say), on_results,
               failures=sum(1 for m in current for s in m.statuses if s != "ok"))
    report = run.play(say)
    names = {e: field.entrants[e].name for e in field.entrants}
    summary = course.summary(names, lambda: _trueskill_order(store))
    return RunResult(run.outcome, run.played, len(current) + run.played, total, run.failures,
                     store.path, report, summary, run.interrupted)


def _local_backend(prepared: Prepared, workers: int | None, left: int) -> Backend:
    """Worker processes on this machine: as many as asked (else as the config says, else as
    there are cores for), no more than the matches left."""
    per_match = prepared.config.cores_per_match
    n = workers or prepared.config.workers or default_workers(per_match)
    return ProcessBackend(min(n, max(1, left)), cores_per_match=per_match)


def _start(prepared: Prepared, store: Store, field: Field, todo: list[PlannedMatch],
           current: Sequence[Any], backend: Backend, say: Callable[[str], None]) -> Start:
    """What the format's run starts from."""
    config = prepared.config
    assert config.seed is not None  # prepare() gave the config its seed
    return Start(config.format, config.seed, todo, store.matches.all(), current, field.slots,
                 field.current, backend.workers, store, str(prepared.output), say,
                 store.meta.runs()[0].workers)


def _opening(prepared: Prepared, resumed: bool, played: int, total: int) -> list[str]:
    """The lines a run starts with: the schedule's note, and how far a resume is."""
    lines = [f"note: {prepared.schedule.note}"] if prepared.schedule.note else []
    return lines + ([f"resuming: {played} of {total} matches already played"] if resumed else [])


def _trueskill_order(store: Store) -> list[int]:
    """The entrants by TrueSkill's μ − 3σ (the leaderboard's order), best first."""
    return [s.entrant.id for s in compute_ratings(store).standings]


class _Handed:
    """The matches of a batch the backend asked for (as it asks: a match of an entrant
    suspended meanwhile is not handed), and of those, the ones not come back yet."""

    def __init__(self, matches: Iterable[PlannedMatch], make: Callable[[PlannedMatch], MatchJob]) -> None:
        self.matches, self.make = matches, make
        self.awaited: dict[int, PlannedMatch] = {}

    def jobs(self) -> Iterator[MatchJob]:
        for match in self.matches:
            self.awaited[match.id] = match
            yield self.make(match)

    def take(self, finished: Finished) -> PlannedMatch | None:
        """The match ``finished`` plays; None when it came back already (a retried remote
        task: the first counts)."""
        return self.awaited.pop(finished.match_id, None)


class _Run:
    """One run of a tournament: the format's course played batch by batch on the backend, each
    result stored as it arrives and told to the course, the suspensions and the listener."""

    def __init__(self, prepared: Prepared, store: Store, field: Field, backend: Backend,
                 course: Course, bar: Progress, run_id: int, suspend: Suspensions,
                 on_results: ResultsListener | None, failures: int) -> None:
        self.prepared, self.store, self.field, self.backend = prepared, store, field, backend
        self.course, self.bar, self.run_id, self.suspend = course, bar, run_id, suspend
        self.on_results, self.failures = on_results, failures
        self.played = 0
        self.outcome = "error"
        self.interrupted = False

    def play(self, say: Callable[[str], None]) -> Path | None:
        """Play until the course has nothing more, a stop or a Ctrl-C; returns the listener's
        page."""
        if self.on_results is not None:
            self.on_results.started(say)
        try:
            with _Interrupts(self.backend, say) as interrupts, self.backend.session():
                self.bar.draw(force=True)
                stopped = False
                while batch := self.course.batch(self.suspend.keep):
                    if interrupts.count or not self._play_batch(batch):
                        stopped = True
                        break
                self.outcome = "stopped" if stopped and not self.course.decided else "complete"
            self.interrupted = interrupts.count > 0  # a Ctrl-C while the workers ended counts too
        except KeyboardInterrupt:
            self.outcome = "aborted"
            raise
        finally:
            self.bar.close()
            with contextlib.suppress(sqlite3.Error):  # the run's own outcome comes out, not this
                self.store.meta.end_run(self.run_id, self.outcome)
            report = self.on_results.finished(self.outcome) if self.on_results is not None else None
        return report

    def _play_batch(self, batch: list[PlannedMatch]) -> bool:
        """Play ``batch``; whether every match handed to the backend came back."""
        handed = _Handed(self.suspend.filter(batch), lambda m: job(self.prepared, self.field, m))
        results = self.backend.run(handed.jobs())
        try:
            for finished in results:
                match = handed.take(finished)
                if match is not None:
                    self._keep(match, finished)
        finally:
            results.close()
        return not handed.awaited

    def _keep(self, match: PlannedMatch, finished: Finished) -> None:
        """Store a result and tell everyone who counts it."""
        record = finished.record
        _check_record(match, record, self.field)
        self.store.matches.add(match, record, packed=finished.packed(),
                             startup_ms=finished.startup_ms, wall_ms=finished.wall_ms,
                             worker=finished.worker, run_id=self.run_id)
        self.played += 1
        self.suspend.count(match, record)
        failed = sum(1 for s in record.statuses if s.status != "ok")
        self.failures += failed
        self.course.add(Outcome(match, tuple(record.ranks)))
        self.bar.detail = self.course.status()
        if self.on_results is not None:
            self.on_results.changed()
        self.bar.advance(failed)


def job(prepared: Prepared, field: Field, match: PlannedMatch) -> MatchJob:
    """The job of a planned match: its versions' bots (from their snapshots), its seed."""
    config = prepared.config
    return MatchJob(match_id=match.id, game=config.game, options=dict(config.options),
                    bots=tuple(field.bots[e] for e in match.seats), seed=match.seed,
                    time_control=config.time_control, limits=dict(config.limits))


def _check_record(match: PlannedMatch, record: MatchRecord, field: Field) -> None:
    names = [field.entrants[e].name for e in match.seats]
    if record.seed != match.seed or [s["name"] for s in record.seats] != names:
        raise RuntimeError(f"match {match.id}: the backend returned a record for another match "
                           f"(seed {record.seed}, seats {[s['name'] for s in record.seats]})")


__all__ = ["Prepared", "RunResult", "ResultsListener", "planned_matches", "prepare", "open_store", "run_tournament",
           "STORE_NAME"]
