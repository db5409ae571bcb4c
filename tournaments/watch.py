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
from tournaments.entrants import resolve_field
from tournaments.field import SNAPSHOTS, Skipped, take_snapshot
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
class Watch:
    """The watch's memory between looks: which folders passed or failed their check, and what
    was last said (each thing is said once)."""

    config_path: Path
    output: Path | None
    play: Callable[[Prepared], RunResult]   # an ordinary run (backend and live report bound)
    say: Callable[[str], None]
    settle: float = DEFAULT_SETTLE
    passed: dict[str, str] = field(default_factory=dict)     # folder -> content hash checked ok
    failed: dict[str, Skipped] = field(default_factory=dict)  # folder -> why its hash failed
    failed_hash: dict[str, str] = field(default_factory=dict)
    said: set[str] = field(default_factory=set)
    settling: set[str] = field(default_factory=set)  # the folders still changing at the last look
    last: tuple[object, ...] | None = None  # what the last complete run was given

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
        now = time.time()
        settling = set()
        output = Path(self.output) if self.output is not None else config.output_dir
        admitted = _admitted(output)
        leave_out: dict[str, Skipped | None] = {}
        for folder, _name, _reason in resolved.skipped:
            if changed_ago(folder, now) < self.settle:
                if folder not in self.settling:
                    self.say(f"waiting for {folder} to be still for {self.settle:g} s")
                leave_out[folder] = None  # still being copied: its problem may go away
                settling.add(folder)
        for bot in resolved.bots:
            folder = str(bot.path)
            if changed_ago(folder, now) < self.settle:
                if folder not in self.settling:
                    self.say(f"waiting for {folder} to be still for {self.settle:g} s")
                leave_out[folder] = None
                settling.add(folder)
                continue
            try:
                digest = bot.content_hash()
            except ArenaError as exc:
                leave_out[folder] = Skipped(folder, bot.name, str(exc))
                continue
            if digest in (admitted.get(folder), self.passed.get(folder)):
                continue
            if self.failed_hash.get(folder) != digest:
                problem = self.check(bot, config, output / SNAPSHOTS / "checks", digest)
                if problem is None:
                    self.passed[folder] = digest
                    continue
                self.failed[folder], self.failed_hash[folder] = problem, digest
            leave_out[folder] = self.failed[folder]
        self.settling = settling
        given = (config.identity(), tuple(sorted((str(b.path), self.passed.get(str(b.path), ""))
                                                 for b in resolved.bots)),
                 tuple(sorted(leave_out)), tuple(sorted(self.failed_hash.items())),
                 tuple(s[0] for s in resolved.skipped))
        if given == self.last:
            return None
        try:
            prepared = prepare(config, self.output, leave_out=leave_out)
        except ArenaError as exc:
            self.tell(f"waiting: {exc}")
            return None
        result = self.play(prepared)
        self.last = given if result.outcome == "complete" else None
        return result

    def check(self, bot: BotSpec, config: TournamentConfig, checks: Path,
              digest: str) -> Skipped | None:
        """``arena check`` under the tournament's game, options, clock and limits, on a copy of
        the folder in a new folder of ``checks`` (a bot's fork server is kept per folder path, so
        a path never stands for two copies: two students handing in the same files are checked
        in two folders): None if it passes, else why (the first problem's first line, and the
        rest as its stderr tail)."""
        plan = CheckPlan(get_game(config.game), dict(config.options), [config.format.players],
                         config.time_control,
                         Limits.from_mapping(config.limits) if config.limits else Limits())
        self.say(f"checking {bot.path} ({bot.name})")
        checks.mkdir(parents=True, exist_ok=True)
        where = Path(tempfile.mkdtemp(prefix=f"{digest[:16]}-", dir=checks))
        try:
            copy = where / "bot"
            take_snapshot(bot, copy)
            problems = check_bot(dataclasses.replace(bot, path=copy), plan,
                                 echo=lambda _line: None)
        except ArenaError as exc:
            problems = [str(exc)]
        finally:
            shutil.rmtree(where, ignore_errors=True)
        if not problems:
            return None
        first, _, rest = problems[0].partition("\n")
        self.say(f"warning: {bot.path} failed its check: {first}")
        return Skipped(str(bot.path), bot.name, f"failed its check: {first}",
                       "\n".join(line.strip() for line in rest.splitlines()
                                 if not line.strip().startswith("last lines of")))


def _admitted(output: Path) -> dict[str, str]:
    """Folder -> the content hash of its entrant's latest version, from the store (if any)."""
    path = store_path(output)
    if not Store.is_initialised(path):
        return {}
    with Store.open(path) as store:
        latest = store.latest()
        return {e.path: latest[e.id].content_hash for e in store.entrants() if e.id in latest}


def watch(config_path: Path, output: Path | None, play: Callable[[Prepared], RunResult],
          say: Callable[[str], None], *, interval: float = DEFAULT_INTERVAL,
          settle: float = DEFAULT_SETTLE, looks: int | None = None) -> int:
    """Look every ``interval`` seconds (sooner while a folder settles) until Ctrl-C, a stopped
    run, or ``looks`` looks; returns how many matches were played."""
    w = Watch(config_path, output, play, say, settle)
    played = 0
    count = 0
    say(f"watching the entrants of {config_path} every {interval:g} s (Ctrl-C stops)")
    previous = None
    if threading.current_thread() is threading.main_thread():  # Ctrl-C, even where inherited
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as ignored
    try:
        while looks is None or count < looks:
            count += 1
            result = w.look()
            if result is not None:
                played += result.played
                if result.outcome != "complete" or result.interrupted:  # Ctrl-C
                    say("stopped watching; run the same command to resume")
                    break
                say(f"{result.done} of {result.total} matches among the current versions played")
            if looks is not None and count >= looks:
                break
            time.sleep(min(interval, settle) if w.settling else interval)
    except KeyboardInterrupt:
        say("stopped watching; run the same command to resume")
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return played
