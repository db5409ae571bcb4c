"""``arena tournament run CONFIG --watch``: a submissions folder that runs itself.

Every ``interval`` seconds the watch reads the config and looks at the entrants' folders. A folder
is taken only once nothing in it has changed for ``settle`` seconds (by the newest status change,
``ctime``, of anything in it, which a copy cannot set back), so half a submission is never a
version. A new or changed bot is then checked as ``arena check`` does (built if it has a build
step, then a short match against the random bot in every seat, ``arena.checker``); one that
fails is not admitted, its previous version keeps playing, and the report's submissions list
shows why with the bot's stderr tail. The rest is an ordinary run (``tournaments.run``): the
field is admitted, the matches it needs are played, the live report is rendered after the
batch. Nothing in a bad submission stops the watch: each is one log line and a row of the report.
Ctrl-C stops it (the matches in flight finish and are stored); running it again resumes.
"""
from __future__ import annotations

import dataclasses
import os
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.bots import BotSpec
from arena.checker import CheckPlan, check_bot
from arena.errors import ArenaError
from arena.games import get_game
from arena.sandbox import Limits
from tournaments.config import TournamentConfig, load_config
from tournaments.entrants import Resolved, Skipped, resolve_field
from tournaments.field import SNAPSHOTS, take_snapshot
from tournaments.lock import output_lock
from tournaments.run import Prepared, RunResult, prepare
from tournaments.store import Store, store_path

DEFAULT_INTERVAL = 10.0
DEFAULT_SETTLE = 5.0


def changed_ago(folder: str | Path, now: float) -> float:
    """Seconds since anything in ``folder`` last changed (its newest ``ctime``; links are not
    followed); 0 for a folder that cannot be looked at."""
    try:
        newest = os.lstat(folder).st_ctime
        for root, dirs, files in os.walk(folder):
            for name in dirs + files:
                newest = max(newest, os.lstat(os.path.join(root, name)).st_ctime)
    except OSError:
        return 0.0
    return now - newest


@dataclass
class Intake:
    """Which submissions may play: a bot a pattern found (a submission) that is new or changed
    since its entrant's version in the store is checked first, as ``arena check`` does, under the
    tournament's game, options, clock and limits, and plays only once it has passed. A version that
    failed is remembered (here, and in the store's submissions list with its content hash), so it is
    not checked again; its entrant's previous version keeps playing. The organiser's own entries
    (folders named in the config) are not checked. Both the watch and a plain run take their field
    through it, so no run ever plays a submission that has not passed its check."""

    say: Callable[[str], None]
    settle: float = 0.0
    passed: dict[str, str] = field(default_factory=dict)     # folder -> content hash checked ok
    failed: dict[str, Skipped] = field(default_factory=dict)  # folder -> why its hash failed
    settling: set[str] = field(default_factory=set)  # the folders still changing at the last look
    busy: set[str] = field(default_factory=set)  # folders being checked elsewhere (a contest's queue)
    checked: dict[str, str] = field(default_factory=dict)  # submission -> the hash that may play

    def sort(self, config: TournamentConfig, output: Path,
             resolved: Resolved) -> dict[str, Skipped | None]:
        """The folders to leave out of this run: refused (a Skipped) or still changing (None)."""
        now = time.time()
        settling = set()
        self.checked = {}
        admitted, refused = _admitted(output)
        leave_out: dict[str, Skipped | None] = {}
        for folder in [s.folder for s in resolved.skipped] + [str(b.path) for b in resolved.bots]:
            if folder in self.busy:
                leave_out[folder] = None  # its check is under way: the version in play stays
            elif self.settle and changed_ago(folder, now) < self.settle:
                if folder not in self.settling:
                    self.say(f"waiting for {folder} to be still for {self.settle:g} s")
                leave_out[folder] = None  # still being copied: its problem may go away
                settling.add(folder)
        for bot in resolved.bots:
            folder = str(bot.path)
            if folder in leave_out or folder not in resolved.submitted:
                continue
            try:
                digest = bot.content_hash()
            except ArenaError as exc:
                leave_out[folder] = Skipped(folder, bot.name, str(exc))
                continue
            if digest in (admitted.get(folder), self.passed.get(folder)):
                self.checked[folder] = digest
                continue
            known = self.failed.get(folder) or refused.get((folder, digest))
            if known is None or known.content_hash != digest:
                known = self.check(bot, config, output / SNAPSHOTS / "checks", digest)
                if known is None:
                    self.passed[folder] = self.checked[folder] = digest
                    continue
                self.failed[folder] = known
            leave_out[folder] = known
        self.settling = settling
        return leave_out

    def check(self, bot: BotSpec, config: TournamentConfig, checks: Path,
              digest: str) -> Skipped | None:
        """``arena check`` under the tournament's game, options, clock and limits, on a copy of
        the folder in a new folder of ``checks`` (a bot's fork server is kept per folder path, so
        a path never stands for two copies: two students handing in the same files are checked
        in two folders): None if it passes, else why (the first problem's first line; the whole
        check, every problem with its stderr or build output, as its tail)."""
        plan = CheckPlan(get_game(config.game), dict(config.options), [config.format.players],
                         config.time_control,
                         Limits.from_mapping(config.limits) if config.limits else Limits())
        self.say(f"checking {bot.path} ({bot.name})")
        checks.mkdir(mode=0o700, parents=True, exist_ok=True)
        where = Path(tempfile.mkdtemp(prefix=f"{digest[:16]}-", dir=checks))
        log: list[str] = []
        try:
            copy = where / "bot"
            take_snapshot(bot, copy)
            problems = check_bot(dataclasses.replace(bot, path=copy), plan, echo=log.append)
        except ArenaError as exc:
            problems = [str(exc)]
        finally:
            shutil.rmtree(where, ignore_errors=True)
        if not problems:
            return None
        first, _, rest = problems[0].partition("\n")
        shown = [line.strip() for line in rest.splitlines()
                 if line.strip() and not line.strip().startswith("last lines of")][-SHOWN_LINES:]
        self.say(f"warning: {bot.path} failed its check: {first}")
        for line in shown:
            self.say(f"    {line}")
        details = "\n".join([*log, "", *problems]).strip()
        return Skipped(str(bot.path), bot.name, f"failed its check: {first}", details, digest,
                       told=True)


SHOWN_LINES = 5  # lines of a failed check's stderr or build output the log shows


@dataclass
class Watch:
    """The watch's memory between looks: its intake (which folders passed or failed their
    check) and what was last said (each thing is said once)."""

    config_path: Path
    output: Path | None
    play: Callable[[Prepared], RunResult]   # an ordinary run (backend and live report bound)
    say: Callable[[str], None]
    settle: float = DEFAULT_SETTLE
    intake: Intake = field(init=False)
    said: set[str] = field(default_factory=set)
    last: tuple[object, ...] | None = None  # what the last complete run was given

    def __post_init__(self) -> None:
        self.intake = Intake(self.say, self.settle)

    @property
    def settling(self) -> set[str]:
        return self.intake.settling

    def tell(self, line: str) -> None:
        if line not in self.said:
            self.said.add(line)
            self.say(line)

    def look(self) -> RunResult | None:
        """One look at the folders; plays what changed. None when there was nothing to do."""
        try:
            config = load_config(self.config_path)
            resolved = resolve_field(config)
        except ArenaError as exc:
            self.tell(f"waiting: {exc}")
            return None
        output = Path(self.output) if self.output is not None else config.output_dir
        leave_out = self.intake.sort(config, output, resolved)
        given = (config.identity(), tuple(sorted((str(b.path), self.intake.passed.get(str(b.path), ""))
                                                 for b in resolved.bots)),
                 tuple(sorted(leave_out)),
                 tuple(sorted((f, s.content_hash) for f, s in self.intake.failed.items())),
                 tuple((s.folder, s.content_hash) for s in resolved.skipped))
        if given == self.last:
            return None
        try:
            prepared = prepare(config, self.output, leave_out=leave_out,
                               checked=self.intake.checked)
        except ArenaError as exc:
            self.tell(f"waiting: {exc}")
            return None
        try:
            result = self.play(prepared)
        except ArenaError as exc:  # nothing in a submission stops the watch
            self.tell(f"waiting: {exc}")
            return None
        self.last = given if result.outcome == "complete" else None
        return result


def _admitted(output: Path) -> tuple[dict[str, str], dict[tuple[str, str], Skipped]]:
    """From the store (if any): folder -> the content hash of its entrant's latest version, and
    (folder, content hash) -> why that version of a submission was refused."""
    path = store_path(output)
    if not Store.is_initialised(path):
        return {}, {}
    with Store.open(path) as store:
        latest = store.field.latest()
        admitted = {e.path: latest[e.id].content_hash for e in store.field.entrants() if e.id in latest}
        refused = {(s.folder, s.content_hash): Skipped(s.folder, s.name, s.reason, s.stderr_tail,
                                                       s.content_hash)
                   for s in store.field.submissions() if s.outcome == "rejected" and s.content_hash}
    return admitted, refused


@dataclass(frozen=True)
class Watched:
    """How a watch ended: the matches it played, and whether Ctrl-C ended it."""

    played: int
    interrupted: bool


def watch(config_path: Path, output: Path | None, play: Callable[[Prepared], RunResult],
          say: Callable[[str], None], *, interval: float = DEFAULT_INTERVAL,
          settle: float = DEFAULT_SETTLE, looks: int | None = None) -> Watched:
    """Look every ``interval`` seconds (sooner while a folder settles) until Ctrl-C, a stopped
    run, or ``looks`` looks. The output folder is the watch's for its whole life: any other run of
    it is refused (``tournaments.lock``)."""
    folder = Path(output).resolve() if output is not None else load_config(config_path).output_dir
    w = Watch(config_path, output, play, say, settle)
    played = 0
    count = 0
    interrupted = False
    previous = None
    if threading.current_thread() is threading.main_thread():  # Ctrl-C, even where inherited
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as ignored
    try:
        with output_lock(folder, hold=True):
            say(f"watching the entrants of {config_path} every {interval:g} s (Ctrl-C stops)")
            while looks is None or count < looks:
                count += 1
                result = w.look()
                if result is not None:
                    played += result.played
                    if result.outcome != "complete" or result.interrupted:  # Ctrl-C
                        interrupted = True
                        say("stopped watching; run the same command to resume")
                        break
                    if result.played:
                        say(f"{result.done} of {result.total} matches among the current versions "
                            "played")
                if looks is not None and count >= looks:
                    break
                time.sleep(min(interval, settle) if w.settling else interval)
    except KeyboardInterrupt:
        interrupted = True
        say("stopped watching; run the same command to resume")
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return Watched(played, interrupted)
