"""The field of a tournament that moves: admitting new versions and late entrants, withdrawing
the bots that left, and the snapshots every admitted version plays from.

An entrant is its folder (its path as the config reaches it): its id and name, once given, never
change. When its files change (their content hash), the next run admits a **new version**; a
folder that appears (a new folder under a glob, a new line in the config) **joins** with the next
id and the slots of its share (``tournaments.plan.join_slots``); a folder no longer among the
entrants is **withdrawn** (kept in the history, out of the standings) until it comes back.

Every admitted version plays from a **snapshot**, an immutable copy of its folder in
``OUTPUT/versions/<entrant id>/v<version>``, made when it is admitted and checked against its
content hash before it plays: a student editing a folder mid-run cannot change a match, and the
previous version keeps playing while a new one is refused (``tournaments.watch``).

An entrant whose last ``format.suspend_after`` matches all failed is **suspended**
(:class:`Suspensions`) until a new version of it arrives.
"""
from __future__ import annotations

import dataclasses
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.bots import BotSpec, folder_hash, load_bot
from arena.errors import ArenaError, BotError
from arena.record import MatchRecord
from arena.sandbox.files import copy_tree
from tournaments.entrants import Skipped
from tournaments.formats import format_of
from tournaments.formats.protocol import ConfigError, FormatConfig
from tournaments.plan import PlannedMatch, Slot
from tournaments.store import CURRENT, SUSPENDED, WITHDRAWN, Entrant, Store, Submission, Version, now

SNAPSHOTS = "versions"


@dataclass
class Field:
    """The entrants as stored after admitting what the folders hold now."""

    entrants: dict[int, Entrant]
    latest: dict[int, Version]          # each entrant's latest version
    bots: dict[int, BotSpec]            # entrant id -> its latest version, from its snapshot
    slots: list[Slot]
    news: list[str]                     # what changed, one line each

    @property
    def current(self) -> dict[int, int]:
        """Entrant id -> version, for the entrants in play."""
        return {e: v.version for e, v in self.latest.items() if v.state == CURRENT}


def snapshot_dir(output: Path, entrant: int, version: int) -> Path:
    return Path(output) / SNAPSHOTS / str(entrant) / f"v{version}"


def take_snapshot(bot: BotSpec, target: Path) -> str:
    """Copy ``bot``'s folder to ``target`` and return the content hash of the copy: the version
    is what was copied. The copy is made beside ``target`` and renamed into place, so a kill
    never leaves half a snapshot where a whole one is expected. A snapshot is readable by its
    owner only (the sandbox stages a copy for a bot that runs as a user of its own), so no
    author's files are readable by another's bot or account."""
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    partial = target.parent / f".partial-{target.name}-{os.getpid()}"
    for stale in target.parent.glob(f".partial-{target.name}-*"):
        shutil.rmtree(stale, ignore_errors=True)
    try:
        copy_tree(Path(bot.source or bot.path), partial, 0o700, 0o600, max_bytes=bot.folder_bytes)
        digest = folder_hash(partial, bot.folder_bytes)
        if target.exists():
            shutil.rmtree(target)
        os.rename(partial, target)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return digest


def snapshot_bot(output: Path, entrant: Entrant, version: Version, folder_mb: int,
                 args: tuple[str, ...]) -> BotSpec:
    """The bot of ``version``, from its snapshot, checked against its content hash."""
    folder = snapshot_dir(output, entrant.id, version.version)
    try:
        bot = load_bot(folder, folder_mb)
        digest = bot.content_hash()
    except BotError as exc:
        raise ArenaError(f"entrant {entrant.name!r}: the snapshot of version {version.version} "
                         f"cannot be used ({exc}); delete {folder} to have it made again from "
                         "the folder, if the folder still holds that version") from None
    if digest != version.content_hash:
        raise ArenaError(f"entrant {entrant.name!r}: the snapshot of version {version.version} "
                         f"({folder}) has changed since it was admitted; delete it to have it "
                         "made again from the folder, if the folder still holds that version")
    return dataclasses.replace(bot, name=entrant.name, command=bot.command + args)


def admit(store: Store, output: Path, bots: Sequence[BotSpec], args: dict[str, tuple[str, ...]],
          skipped: Sequence[Skipped], *, candidates: Sequence[str], sampled: bool, seed: int,
          folder_mb: int, say: Callable[[str], None], waiting: Sequence[str] = (),
          checked: Mapping[str, str] | None = None) -> Field:
    """Bring the store's field up to what the entrants' folders hold now (see the module's
    docstring); ``skipped`` folders (refused, listed) and ``waiting`` ones (still changing, not
    looked at yet) keep their entrant's version in play. ``checked``: folder -> the content hash
    that passed its check, for the submissions; a snapshot of anything else (the folder changed
    after its check) is not admitted, and waits for its own check."""
    entrants = {e.id: e for e in store.field.entrants()}
    news: list[str] = []
    refused = list(skipped)
    for bot in bots:
        try:
            news += _admit_one(store, output, bot, entrants, candidates, sampled, seed, say,
                               (checked or {}).get(str(bot.path)))
        except Unchecked as exc:
            news.append(str(exc))
            waiting = [*waiting, str(bot.path)]
        except BotError as exc:  # it changed into something no bot folder may hold meanwhile
            refused.append(Skipped(str(bot.path), bot.name, str(exc)))
    # a refused submission keeps its entrant's version in play, as one still changing does
    seen = ({str(b.path) for b in bots} | set(waiting)
            | {os.path.realpath(s.folder) for s in refused if not s.leads_to})
    linked = {s.leads_to for s in refused if s.leads_to}
    for entrant in entrants.values():
        version = store.field.latest()[entrant.id]
        if entrant.path in linked and entrant.path not in seen:
            news += _withdraw_linked(store, output, entrant, version)
        elif entrant.path not in seen and version.state != WITHDRAWN:
            store.field.set_state(entrant.id, version.version, WITHDRAWN,
                            "its folder is no longer among the entrants")
            news.append(f"{entrant.name} is withdrawn: its folder is no longer among the entrants")
    for item in refused:
        _reject(store, item, say)
    latest = store.field.latest()
    playing = {}
    live = {str(b.path): b for b in bots}
    for eid, version in latest.items():
        if version.state not in (CURRENT, SUSPENDED):
            continue
        entrant = entrants[eid]
        try:
            playing[eid] = snapshot_bot(output, entrant, version, folder_mb,
                                        args.get(entrant.path, ()))
        except ArenaError:  # damaged: made again if the folder still holds that version
            folder = live.get(entrant.path)
            if folder is None or folder.content_hash() != version.content_hash:
                raise
            take_snapshot(folder, snapshot_dir(output, eid, version.version))
            playing[eid] = snapshot_bot(output, entrant, version, folder_mb,
                                        args.get(entrant.path, ()))
    return Field(entrants, latest, playing, store.field.slots(), news)


def _withdraw_linked(store: Store, output: Path, entrant: Entrant, version: Version) -> list[str]:
    """An entrant stored from where a submission that is a link points (admitted by an arena that
    followed such links): withdrawn, and its snapshots, copies of files from outside the
    entrants' folders, deleted."""
    shutil.rmtree(Path(output) / SNAPSHOTS / str(entrant.id), ignore_errors=True)
    if version.state == WITHDRAWN:
        return []
    reason = "its submission is a link to a folder elsewhere; its snapshots are deleted"
    store.field.set_state(entrant.id, version.version, WITHDRAWN, reason)
    return [f"{entrant.name} is withdrawn: {reason}"]


class Unchecked(ArenaError):
    """A submission's folder changed between its check and its snapshot."""


def _checked_snapshot(bot: BotSpec, target: Path, checked: str | None) -> str:
    """The snapshot of ``bot`` in ``target``, which must be the version that passed its check
    (``checked``, when the folder is a submission)."""
    digest = take_snapshot(bot, target)
    if checked is not None and digest != checked:
        shutil.rmtree(target, ignore_errors=True)
        raise Unchecked(f"{bot.name}: its folder changed after its check; the next look checks "
                        "the new files")
    return digest


def _admit_one(store: Store, output: Path, bot: BotSpec, entrants: dict[int, Entrant],
               candidates: Sequence[str], sampled: bool, seed: int,
               say: Callable[[str], None], checked: str | None = None) -> list[str]:
    """Admit what ``bot``'s folder holds now: a late entrant, a new version, or nothing new;
    returns what changed."""
    path = str(bot.path)
    entrant = next((e for e in entrants.values() if e.path == path), None)
    if entrant is None:
        taken = next((e for e in entrants.values() if e.name == bot.name), None)
        if taken is not None:
            _reject(store, Skipped(path, bot.name, f"the name {bot.name!r} is taken by the entrant "
                                                   f"in {taken.path}; rename the folder (or give "
                                                   "its entry a name)"), say)
            return []
        entrant = _join(store, output, bot, entrants, store.field.latest(), candidates, sampled, seed,
                        store.meta.config().format, checked)
        entrants[entrant.id] = entrant
        return [f"{entrant.name} joins (entrant {entrant.id})"]
    version = store.field.latest()[entrant.id]
    target = snapshot_dir(output, entrant.id, version.version)
    if bot.content_hash() == version.content_hash:
        if not target.is_dir():  # a store from before snapshots, or one left half-made
            _checked_snapshot(bot, target, version.content_hash)
        if version.state == WITHDRAWN:
            store.field.set_state(entrant.id, version.version, CURRENT)
            return [f"{entrant.name} is back (version {version.version})"]
        return []
    fmt = store.meta.config().format
    if not format_of(fmt.type).new_versions:
        _reject(store, Skipped(path, bot.name, f"its files changed, and a tournament of type "
                                               f"{fmt.type!r} takes no new versions: version "
                                               f"{version.version} plays on",
                               content_hash=bot.content_hash()), say)
        return []
    digest = _checked_snapshot(bot, snapshot_dir(output, entrant.id, version.version + 1), checked)
    if digest == version.content_hash:  # changed back while it was copied
        return []
    number = store.field.add_version(entrant.id, digest)
    return [f"{entrant.name}: version {number} admitted"]


def _join(store: Store, output: Path, bot: BotSpec, entrants: dict[int, Entrant],
          latest: dict[int, Version], candidates: Sequence[str], sampled: bool, seed: int,
          fmt: FormatConfig, checked: str | None = None) -> Entrant:
    """Enter ``bot`` with the next id, at version 1, with the slots of its share."""
    eid = 1 + max(entrants, default=-1)
    kind = format_of(fmt.type)
    if not kind.late_entrants:
        raise ConfigError(f"entrant {bot.name!r} ({bot.path}) is new, and a tournament of type "
                          f"{fmt.type!r} takes no late entrants; run it in another output folder")
    digest = _checked_snapshot(bot, snapshot_dir(output, eid, 1), checked)
    entrant = Entrant(eid, bot.name, str(bot.path), digest, bot.description)
    # every entrant, out or in: a slot with one withdrawn or suspended waits until it is back, so
    # a pair never meets only because one was out when the other arrived; a balanced sample
    # draws its tables among the entrants in play
    others = [e for e, v in latest.items() if v.state == CURRENT or not sampled]
    named = set(candidates)  # names, and folders as absolute paths
    cands = [e.id for e in (*entrants.values(), entrant) if named & {e.name, e.path}]
    slots = kind.join_slots(fmt, eid, others, cands, store.field.slots(), sampled, seed)
    store.field.add_entrant(entrant, slots)
    return entrant


def _reject(store: Store, item: Skipped, say: Callable[[str], None]) -> None:
    """One row of the submissions list and one warning, once per version of a submission (its
    folder, content hash and reason; a check's own warning was said when it failed)."""
    last = [s for s in store.field.submissions() if s.folder == item.folder]
    if last and (last[-1].reason, last[-1].content_hash) == (item.reason, item.content_hash):
        return
    if not item.told:
        say(f"warning: skipped {item.folder}: {item.reason}")
    store.field.add_submission(Submission(item.folder, item.name, item.content_hash, now(), "rejected",
                                    item.reason, item.stderr_tail))


class Suspensions:
    """Suspends an entrant whose last ``after`` matches all failed (its own seat), until a new
    version arrives (``tournaments.field``); the matches of a suspended entrant not yet handed
    to the backend are not played."""

    def __init__(self, store: Store, field: Field, after: int, say: Callable[[str], None]) -> None:
        self.store, self.field, self.after, self.say = store, field, after, say
        self.suspended = {e for e, v in field.latest.items() if v.state == SUSPENDED}
        self.streak: dict[int, int] = {}
        for m in store.matches.current():  # the failures in a row so far, in id order
            for seat, e in enumerate(m.seats):
                self.streak[e] = self.streak.get(e, 0) + 1 if m.statuses[seat] != "ok" else 0

    def keep(self, match: PlannedMatch) -> bool:
        """Whether ``match`` is still to be played (none of its entrants is suspended)."""
        return not self.suspended & set(match.seats)

    def filter(self, batch: Iterable[PlannedMatch]) -> Iterator[PlannedMatch]:
        """The matches of ``batch`` still to be played, decided as each is asked for: the later
        matches of an entrant suspended meanwhile are left out."""
        return (m for m in batch if self.keep(m))

    def count(self, match: PlannedMatch, record: MatchRecord) -> None:
        for seat, e in enumerate(match.seats):
            status = record.statuses[seat]
            self.streak[e] = self.streak.get(e, 0) + 1 if status.status != "ok" else 0
            if self.after and self.streak[e] >= self.after and e not in self.suspended:
                self.suspended.add(e)
                version = self.field.current[e]
                reason = (f"its last {self.after} matches all failed (the last: "
                          f"{status.status.replace('_', ' ')}); a new version brings it back")
                self.store.field.set_state(e, version, SUSPENDED, reason)
                self.say(f"{self.field.entrants[e].name} (version {version}) is suspended: {reason}")
