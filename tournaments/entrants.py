"""The entrants of a tournament: each entry of the config's ``entrants`` resolved to bots.

An entry is a bot folder or a glob pattern of folders, with an optional name and arguments. Every
folder is loaded and checked (its manifest, that it plays the game); a pattern names each bot it
finds by its folder (:func:`pattern_name`), and two entrants never share a name. Every problem is
a :class:`ConfigError` naming the entry (``entrants[2]``) and, where it helps, how to fix it.
"""
from __future__ import annotations

import dataclasses
import glob
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from arena.bots import MANIFEST, BotSpec, MiB, bot_folder, folder_hash, load_bot, name_problem, not_a_folder
from arena.errors import ArenaError
from tournaments.config import EntrantRef, TournamentConfig
from tournaments.formats import format_of
from tournaments.formats.protocol import ConfigError


def resolve_entrants(config: TournamentConfig) -> list[BotSpec]:
    """Load every entrant's bot folder (globs expanded, sorted); names must be unique.

    A bot whose manifest lists the games it plays, without this one, is left out of a glob
    pattern ("../bots/*" enters the bots that play the game) and refused when named alone.
    A bot found by a pattern is named by :func:`pattern_name`.
    """
    return [bot for _, bot in _entries(config)]


@dataclass(frozen=True)
class Skipped:
    """A folder of the entrants that is no bot this tournament can take, and why; ``leads_to``:
    where a submission that is a link points (an entrant stored from there is withdrawn)."""

    folder: str
    name: str
    reason: str
    stderr_tail: str = ""
    content_hash: str = ""
    leads_to: str = ""
    told: bool = False  # its warning was said already (a failed check says its own)


@dataclass
class Resolved:
    """The entrants a run takes: the bots, each folder's arguments, the submissions a pattern
    found that are no bot this tournament can take, and which bots a pattern found (submissions,
    checked before they play) rather than the organiser named."""

    bots: list[BotSpec]
    args: dict[str, tuple[str, ...]]
    skipped: list[Skipped]
    submitted: set[str] = dataclasses.field(default_factory=set)  # folders a pattern found


def resolve_field(config: TournamentConfig) -> Resolved:
    """As :func:`resolve_entrants`: a folder a pattern finds that cannot be loaded (no manifest,
    broken TOML, a FIFO, a link, too big, a name not allowed) is skipped and listed, not an
    error: nothing in one submission stops a class's tournament."""
    skipped: list[Skipped] = []
    entries = _entries(config, skipped)
    args = {str(bot.path): ref.args for ref, bot in entries}
    submitted = {str(bot.path) for ref, bot in entries if glob.has_magic(ref.path)}
    return Resolved([bot for _, bot in entries], args, skipped, submitted)


def _entries(config: TournamentConfig,
             skipped: list[Skipped] | None = None) -> list[tuple[EntrantRef, BotSpec]]:
    """Every entrant with its entry (a pattern repeats for its bots). A folder a pattern finds
    that cannot be a bot is left out, and added to ``skipped`` (folder, name, reason) when given;
    an entry that names a folder is an error when it cannot be a bot."""
    out: list[tuple[EntrantRef, BotSpec]] = []
    origin: dict[str, str] = {}
    folder_mb = config.sandbox_limits().folder_mb
    skipped = [] if skipped is None else skipped
    for i, ref in enumerate(config.entrants):
        pattern = glob.has_magic(ref.path)
        if pattern:
            folders, refused = _submissions(ref.path, config.base_dir, i)
            skipped += refused
        else:
            folders = [_folder(ref.path, config.base_dir, i)]
        for folder in folders:
            try:
                bot = load_bot(folder, folder_mb)
            except ArenaError as exc:
                if pattern:
                    skipped.append(Skipped(str(folder), folder.name, str(exc),
                                           content_hash=_hash_or_nothing(folder, folder_mb)))
                    continue
                raise ConfigError(f"entrants[{i}]: {exc}") from None
            if not bot.plays(config.game):
                if pattern:
                    continue
                raise ConfigError(f"entrants[{i}]: bot {bot.name!r} ({ref.path}) plays "
                                  f"{', '.join(bot.games)}, not {config.game}; its manifest "
                                  f"says so in 'games'")
            if pattern:
                name = pattern_name(ref.path, config.base_dir, folder, bot.name, ref.name)
                problem = name_problem(name)
                if problem:
                    skipped.append(Skipped(str(folder), folder.name,
                                           f"{problem}; rename its folder"))
                    continue
                bot = dataclasses.replace(bot, name=name)
            elif ref.name is not None:
                bot = dataclasses.replace(bot, name=ref.name)
            if ref.args:
                bot = dataclasses.replace(bot, command=bot.command + ref.args)
            if bot.name in origin:
                raise ConfigError(f"entrants[{i}]: two entrants are named {bot.name!r} "
                                  f"({origin[bot.name]} and {bot.path}); {_rename_advice(i, ref)}")
            origin[bot.name] = str(bot.path)
            out.append((ref, bot))
    return out


LINKED = ("is a symbolic link; a submission must be a folder of its own, not a link to one "
          "(copy the folder in instead)")


def _submissions(pattern: str, base_dir: Path, index: int) -> tuple[list[Path], list[Skipped]]:
    """The bot folders a pattern finds (each with a manifest), and the folders it finds that are
    no submission: a link, or a link on the way below the pattern's fixed part (never followed,
    nothing of it read), or a folder without a manifest (a submission not yet complete, or not a
    bot). Files, and hidden and ``_`` folders without a manifest, are left alone."""
    full = _full(pattern, base_dir)
    fixed = _fixed_part(full)
    found: list[Path] = []
    refused: list[Skipped] = []
    matches = sorted(Path(p) for p in glob.glob(str(full)))
    for path in matches:
        linked = next((part for part in _below(fixed, path) if part.is_symlink()), None)
        if linked is not None:
            refused.append(Skipped(str(path), path.name, f"{linked.name!r} {LINKED}"
                                   if linked != path else LINKED,
                                   leads_to=os.path.realpath(path)))
        elif not path.is_dir():
            continue
        elif (path / MANIFEST).is_file():
            found.append(path)
        elif not path.name.startswith((".", "_")):
            refused.append(Skipped(str(path), path.name, f"no {MANIFEST} in the folder"))
    if not found and not refused and not any(p.is_dir() for p in matches):
        raise ConfigError(f"entrants[{index}]: pattern {pattern!r} matches no bot folder "
                          f"(a folder with a {MANIFEST}) under {base_dir}")
    return found, refused


def _hash_or_nothing(folder: Path, folder_mb: int) -> str:
    """The content hash of a folder that is no bot (so that each version of it is listed once),
    or "" when it cannot be read as a bot folder at all."""
    try:
        return folder_hash(folder, folder_mb * MiB)
    except ArenaError:
        return ""


def _fixed_part(full: Path) -> Path:
    """The part of a pattern before its first wildcard (``/class/students`` of
    ``/class/students/*``)."""
    fixed = 0
    while fixed < len(full.parts) and not glob.has_magic(full.parts[fixed]):
        fixed += 1
    return Path(*full.parts[:fixed])


def _below(fixed: Path, path: Path) -> list[Path]:
    """Every folder from the one below ``fixed`` down to ``path`` itself."""
    parts = path.relative_to(fixed).parts
    return [fixed.joinpath(*parts[:n]) for n in range(1, len(parts) + 1)]


def pattern_name(pattern: str, base_dir: Path, folder: Path, manifest_name: str,
                 prefix: str | None = None) -> str:
    """The name of a bot that the glob ``pattern`` found in ``folder``: the folder's path below
    the pattern's fixed part (``ana`` for ``students/*``, ``ana.mybot`` for ``students/*/*``),
    then its manifest name when that is not its folder's name (``ana.mybot`` for ``students/ana``
    named ``mybot``), joined by dots, with every run of other characters than letters, digits,
    '.', '-' and '_' made one '-'; ``prefix`` (the entry's ``name``) comes first.

    It depends on nothing but the pattern, the folder and its manifest, so that a bot's name
    stays the same whichever other bots the pattern finds (a stored tournament keeps its
    entrants by name). ``bots/*`` enters each bundled bot under its own name."""
    parts = list(Path(folder).relative_to(_fixed_part(_full(pattern, base_dir))).parts)
    if parts[-1] != manifest_name:
        parts.append(manifest_name)
    name = ".".join(re.sub(r"[^A-Za-z0-9._-]+", "-", part) for part in parts)
    name = re.sub(r"^[^A-Za-z0-9]+", "", name)
    return f"{prefix}.{name}" if prefix else name


def _rename_advice(index: int, ref: EntrantRef) -> str:
    """How to tell two entrants apart by changing entry ``index`` (each way works as written)."""
    if ref.name is not None:
        return f"choose another name in entrants[{index}]"
    path = json.dumps(ref.path)  # a TOML basic string too
    if glob.has_magic(ref.path):
        return ("give the pattern a name to put before the names of its bots: "
                f"{{ path = {path}, name = \"...\" }}")
    return f"give one a name: {{ path = {path}, name = \"...\" }}"


def _full(pattern: str, base_dir: Path) -> Path:
    full = Path(pattern).expanduser()
    return full if full.is_absolute() else base_dir / full


def _folder(path: str, base_dir: Path, index: int) -> Path:
    """The folder an entry names (the organiser's own: it may be a link); a bare name may be a
    bundled bot (:func:`arena.bots.bot_folder`)."""
    full = bot_folder(path, base_dir)
    if not full.is_dir():
        raise ConfigError(f"entrants[{index}]: {not_a_folder(path, full)} (looked in {full})")
    return full


def reference_names(config: TournamentConfig) -> set[str]:
    """The names of the entrants whose entry says ``reference = true`` (every bot a reference
    pattern enters)."""
    if not any(ref.reference for ref in config.entrants):
        return set()
    return {bot.name for ref, bot in _entries(config) if ref.reference}


def check_entrant_count(config: TournamentConfig, names: list[str]) -> tuple[int, ...]:
    """Enough entrants for the format; returns the candidates' indexes (gauntlet)."""
    return format_of(config.format.type).entrants(config.format, names,
                                                  lambda: _flat_refs(config, len(names)))


def _flat_refs(config: TournamentConfig, count: int) -> list[str]:
    """The path as written of every resolved entrant (a glob repeats its pattern)."""
    return [ref.path for ref, _ in _entries(config)][:count]
