"""The contest behind the pages: the watch's loop (``tournaments.watch``), woken at once by an
upload, with a check queue of its own and the teacher's actions.

Three threads share the work:

- the **loop** (the main thread, which Ctrl-C reaches): each look admits what passed its check,
  plays the matches the field needs, and renders the public report (without any stderr) and the
  authors' pages; then it applies the teacher's actions and waits for the next upload, check or
  action, or ``interval`` seconds;
- the **checker**: takes the uploads one author at a time, in turn (an author's newer upload
  replaces their older one in the queue, so one author's many uploads never hold up the others),
  and checks each as ``arena check`` does, under the tournament's rules; the loop then admits what
  passed, and a refused upload never replaces the version that plays;
- the **web server** (``contest.app``), which only records uploads and actions, and reads.
"""
from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import dataclasses
import errno
import json
import os
import queue
import shutil
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.bots import load_bot
from arena.errors import ArenaError
from contest.db import ADMITTED, BUILDING, CHECKING, QUEUED, REFUSED, ContestDB
from contest.uploads import Limits, UploadError, unpack
from tournaments.config import TournamentConfig, load_config
from tournaments.field import SNAPSHOTS
from tournaments.lock import output_lock
from tournaments.run import Prepared, RunResult, run_tournament
from tournaments.store import CURRENT, SUSPENDED, Store, store_path
from tournaments.watch import Watch

INTERVAL = 10.0  # seconds between looks when nothing wakes the loop
SUSPEND, RESTORE, WITHDRAW, REVEAL = "suspend", "restore", "withdraw", "reveal"


def submissions_folder(config: TournamentConfig, source: str = "the config") -> Path:
    """The one folder the contest's uploads land in: its entrants must hold exactly one pattern,
    ``DIR/*`` (other entries, such as a reference bot, are the organiser's)."""
    patterns = [ref for ref in config.entrants if any(c in ref.path for c in "*?[")]
    if len(patterns) != 1 or not patterns[0].path.rstrip("/").endswith("/*") \
            or any(c in patterns[0].path.rstrip("/")[:-2] for c in "*?["):
        raise ArenaError("a contest's entrants hold exactly one pattern DIR/* (the folder uploads "
                         f"land in, one folder per author); {source} has "
                         f"{', '.join(repr(r.path) for r in patterns) or 'none'}")
    folder = Path(patterns[0].path.rstrip("/")[:-2]).expanduser()
    return (folder if folder.is_absolute() else config.base_dir / folder).resolve()


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> None:
    """Swap two folders in one step (Linux's renameat2 RENAME_EXCHANGE): the loop never sees an
    author's folder missing or half written."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    at_fdcwd = -100
    if libc.renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), str(b))


def install(incoming: Path, target: Path) -> None:
    """Put the folder ``incoming`` in ``target``'s place at once; the old one is removed."""
    try:
        os.rename(incoming, target)  # no folder there yet
        return
    except OSError as exc:
        if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY):
            raise
    _exchange(incoming, target)
    shutil.rmtree(incoming, ignore_errors=True)  # now the old version


@dataclass
class Contest:
    """A contest being served: its config, folders, file, and the threads' shared state."""

    config_path: Path
    output: Path
    limits: Limits = field(default_factory=Limits)
    say: Callable[[str], None] = print
    interval: float = INTERVAL
    upload_every: float = 60.0   # seconds an author waits between two uploads
    wake: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)
    config: TournamentConfig = field(init=False)
    folder: Path = field(init=False)
    db: ContestDB = field(init=False)
    _queue: OrderedDict[str, int] = field(default_factory=OrderedDict)  # author -> upload id
    _queued: threading.Condition = field(default_factory=threading.Condition)
    _actions: queue.Queue[tuple[str, str]] = field(default_factory=queue.Queue)
    _last_upload: dict[str, float] = field(default_factory=dict)
    watch: Watch | None = None

    def __post_init__(self) -> None:
        self.config = load_config(self.config_path)
        self.folder = submissions_folder(self.config, str(self.config_path))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.db = ContestDB.in_output(self.output)

    # ----- uploads (the web server's threads) --------------------------------------------------
    def wait_before_upload(self, author: str) -> float:
        """Seconds ``author`` must still wait before another upload (0: may upload now)."""
        last = self._last_upload.get(author)
        return 0.0 if last is None else max(0.0, self.upload_every - (time.monotonic() - last))

    def receive(self, author: str, filename: str, data: bytes) -> int:
        """Record an upload, make it ``author``'s folder (or refuse it), queue its check; its id."""
        self._last_upload[author] = time.monotonic()
        upload = self.db.add_upload(author, filename[:200])
        incoming = self.folder / f".incoming-{upload}"
        try:
            try:
                unpack(data, filename, incoming, author, self.limits)
            except OSError as exc:
                raise UploadError(f"the upload could not be unpacked ({exc.strerror})") from None
            install(incoming, self.folder / author)
        except UploadError as exc:
            shutil.rmtree(incoming, ignore_errors=True)
            self.db.set_upload(upload, REFUSED, reason=str(exc))
            return upload
        with self._queued:
            self._queue.pop(author, None)
            self._queue[author] = upload
            self._queued.notify()
        return upload

    def discard_incomplete(self) -> None:
        """At start: an upload half received when the server stopped is discarded, and one
        received but not yet checked is checked now."""
        for item in self.folder.glob(".incoming-*"):
            shutil.rmtree(item, ignore_errors=True)
        for upload in self.db.pending():
            if (self.folder / upload.author).is_dir():
                self._queue.pop(upload.author, None)
                self._queue[upload.author] = upload.id
            else:
                self.db.set_upload(upload.id, REFUSED, reason="the server stopped while it arrived; "
                                   "hand it in again")

    # ----- the checker thread ------------------------------------------------------------------
    def check_forever(self) -> None:
        while not self.stop.is_set():
            with self._queued:
                while not self._queue and not self.stop.is_set():
                    self._queued.wait(1.0)
                if self.stop.is_set():
                    return
                author, upload = self._queue.popitem(last=False)
            try:
                self._check(author, upload)
            except Exception as exc:  # noqa: BLE001  (a check never stops the contest)
                self.db.set_upload(upload, REFUSED, reason=f"the check could not run ({exc})")
            self.wake.set()

    def _check(self, author: str, upload: int) -> None:
        assert self.watch is not None
        intake = self.watch.intake
        folder = self.folder / author
        path = str(folder)
        for older in self.db.uploads(author):
            if older.id < upload and older.state in (QUEUED, BUILDING, CHECKING):
                self.db.set_upload(older.id, REFUSED, reason=f"replaced by upload {upload} before "
                                   "its check")
        intake.busy.add(path)
        try:
            try:
                bot = load_bot(folder, self.config.sandbox_limits().folder_mb)
                digest = bot.content_hash()
            except ArenaError as exc:
                self.db.set_upload(upload, REFUSED, reason=str(exc))
                return
            bot = dataclasses.replace(bot, name=author)
            if bot.build:
                self.db.set_upload(upload, BUILDING, content_hash=digest)
                from arena.build import BuildFailed, ensure_built
                with contextlib.suppress(BuildFailed):  # the check says why
                    ensure_built(bot)
            self.db.set_upload(upload, CHECKING, content_hash=digest)
            problem = intake.check(bot, self.config, self.output / SNAPSHOTS / "checks", digest)
            if problem is not None:
                intake.failed[path] = problem
                self.db.set_upload(upload, REFUSED, reason=problem.reason, output=problem.stderr_tail)
            else:  # it plays as soon as the field allows (the loop admits it at its next look)
                intake.passed[path] = digest
                self.db.set_upload(upload, ADMITTED)
        finally:
            intake.busy.discard(path)

    # ----- the teacher's actions ---------------------------------------------------------------
    def act(self, action: str, author: str = "") -> None:
        self._actions.put((action, author))
        self.wake.set()

    def _apply_actions(self) -> None:
        while True:
            try:
                action, author = self._actions.get_nowait()
            except queue.Empty:
                return
            if action == REVEAL:
                self.db.set_setting("reveal_seed", "yes")
                continue
            if action == WITHDRAW:
                away = self.output / "withdrawn" / f"{author}-{int(time.time())}"
                away.parent.mkdir(mode=0o700, exist_ok=True)
                with contextlib.suppress(OSError):
                    os.rename(self.folder / author, away)
                self.say(f"{author}: withdrawn by the teacher (its folder is in {away})")
                continue
            path = store_path(self.output)
            if not Store.is_initialised(path):
                continue
            with Store.open(path, write=True) as store:
                entrant = next((e for e in store.field.entrants() if e.name == author), None)
                if entrant is None:
                    continue
                version = store.field.latest()[entrant.id]
                if action == SUSPEND and version.state == CURRENT:
                    store.field.set_state(entrant.id, version.version, SUSPENDED, "suspended by the teacher")
                    self.say(f"{author} (version {version.version}) is suspended by the teacher")
                elif action == RESTORE and version.state == SUSPENDED:
                    store.field.set_state(entrant.id, version.version, CURRENT)
                    self.say(f"{author} (version {version.version}) is restored by the teacher")
            if self.watch is not None:
                self.watch.last = None  # the field changed: the next look plays what it needs

    # ----- the loop (the main thread) ----------------------------------------------------------
    def run(self, play: Callable[[Prepared], RunResult]) -> bool:
        """Look, play and wait until Ctrl-C or ``stop``; True if Ctrl-C ended it."""
        self.watch = Watch(self.config_path, self.output, play, self.say, settle=0)
        checker = threading.Thread(target=self.check_forever, name="contest-checker", daemon=True)
        checker.start()
        interrupted = False
        try:
            with output_lock(self.output, hold=True):
                while not self.stop.is_set():
                    self.wake.clear()
                    self._apply_actions()
                    result = self.watch.look()
                    if result is not None and (result.outcome != "complete" or result.interrupted):
                        interrupted = True
                        break
                    self.wake.wait(self.interval)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            self.stop.set()
            with self._queued:
                self._queued.notify_all()
            checker.join(timeout=60)
        return interrupted


def write_address(output: Path, url: str) -> Path:
    """``OUTPUT/serve.json``: where the server listens (``arena contest invite`` reads it)."""
    path = Path(output) / "serve.json"
    path.write_text(json.dumps({"url": url, "pid": os.getpid()}) + "\n", encoding="utf-8")
    return path


def read_address(output: Path) -> str | None:
    try:
        return str(json.loads((Path(output) / "serve.json").read_text(encoding="utf-8"))["url"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def run_contest(contest: Contest, workers: int | None, progress: bool,
                reveal: Callable[[], bool]) -> bool:
    """The contest's loop with the tournament's own runs, each rendering the public report
    (without stderr) and the authors' pages."""
    from reports.live import LiveReport, Renderer

    renderer = Renderer()  # one process renders every look's report, off the pages' interpreter

    def play(prepared: Prepared) -> RunResult:
        return run_tournament(prepared, workers=workers, progress=progress,
                              on_results=LiveReport(prepared.output, logs=False, reveal_seed=reveal,
                                                    renderer=renderer))
    try:
        return contest.run(play)
    finally:
        renderer.close()


__all__ = ["Contest", "install", "read_address", "run_contest", "submissions_folder",
           "write_address", "SUSPEND", "RESTORE", "WITHDRAW", "REVEAL", "UploadError"]
