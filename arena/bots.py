"""Bot folders and their manifests (``bot.toml``).

A bot is a folder holding a ``bot.toml`` manifest and its code::

    name = "greedy"                 # optional; defaults to the folder's name
    command = "python3 main.py"     # required: a string (split like a shell) or a list
    description = "Dumps heavy tiles first."   # optional
    games = ["block"]               # optional: the games it plays
    build = "make"                  # optional: a build step (a string or a list), see arena.build

The command runs with the bot folder as its working directory. A bot with a ``build`` step is
built once per version (its folder's content hash), in the sandbox, in a copy of its folder; it
then plays from the built copy (``arena.build``).
"""
from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from arena.errors import BotError

MANIFEST = "bot.toml"
BUNDLED_BOTS = Path(__file__).resolve().parent.parent / "bots"  # the one list of bundled bots
_KNOWN_KEYS = {"name", "command", "description", "games", "build"}


@dataclass(frozen=True)
class BotSpec:
    """A bot ready to be started: its name, folder and command."""

    name: str
    path: Path
    command: tuple[str, ...]
    description: str = ""
    games: tuple[str, ...] = field(default_factory=tuple)
    build: tuple[str, ...] = field(default_factory=tuple)  # the build step; () when there is none
    source: Path | None = None  # for a built bot: the folder it was built from (``path`` is the build)

    def content_hash(self) -> str:
        """SHA-256 over the folder's files (names and bytes), to tell versions of a bot apart
        (for a built bot, the hash of its source folder)."""
        return folder_hash(self.source or self.path)


def folder_hash(path: Path) -> str:
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            full = Path(root, name)
            digest.update(str(full.relative_to(path)).encode() + b"\0")
            digest.update(full.read_bytes() + b"\0")
    return digest.hexdigest()


def load_bot(path: str | os.PathLike[str]) -> BotSpec:
    """Read a bot folder's manifest; every problem is a :class:`BotError` naming the path."""
    folder = Path(path).resolve()
    if not folder.is_dir():
        raise BotError(f"bot folder {str(path)!r} does not exist")
    manifest = folder / MANIFEST
    if not manifest.is_file():
        raise BotError(f"bot folder {str(path)!r} has no {MANIFEST} manifest")
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise BotError(f"{manifest}: not valid TOML ({exc})") from None
    unknown = set(data) - _KNOWN_KEYS
    if unknown:
        raise BotError(f"{manifest}: unknown key {sorted(unknown)[0]!r}; "
                       f"known keys: {', '.join(sorted(_KNOWN_KEYS))}")
    command = _command(data.get("command"), manifest, "command")
    if not command:
        raise BotError(f"{manifest}: 'command' is empty")
    build = _command(data.get("build", []), manifest, "build")
    name = data.get("name", folder.name)
    if not isinstance(name, str) or not name.strip():
        raise BotError(f"{manifest}: 'name' must be a non-empty string")
    games = data.get("games", [])
    if not isinstance(games, list) or not all(isinstance(g, str) for g in games):
        raise BotError(f"{manifest}: 'games' must be a list of game names")
    spec = BotSpec(name=name.strip(), path=folder, command=command,
                   description=str(data.get("description", "")), games=tuple(games), build=build)
    check_command(spec)
    return spec


def _command(raw: object, manifest: Path, key: str) -> tuple[str, ...]:
    if isinstance(raw, str):
        return tuple(shlex.split(raw))
    if isinstance(raw, list) and all(isinstance(x, str) for x in raw):
        return tuple(raw)
    raise BotError(f"{manifest}: {key!r} must be a string or a list of strings")


def bundled_bot(name: str) -> BotSpec:
    """The bundled bot in ``bots/<name>``."""
    return load_bot(BUNDLED_BOTS / name)


def bundled_bots(game: str | None = None) -> list[BotSpec]:
    """The bundled bots (sorted by folder), only those that play ``game`` when it is given."""
    folders = sorted(p for p in BUNDLED_BOTS.iterdir() if (p / MANIFEST).is_file()) \
        if BUNDLED_BOTS.is_dir() else []
    bots = [load_bot(f) for f in folders]
    return [b for b in bots if game is None or not b.games or game in b.games]


def check_command(spec: BotSpec) -> None:
    """The program of a bot's command (and of its build step) must exist (in the folder, or on
    PATH); a program in the folder may be made by the build step."""
    for command in (spec.build, spec.command):
        if command:
            _check_program(spec, command[0], built=bool(spec.build) and command is spec.command)


def _check_program(spec: BotSpec, program: str, built: bool) -> None:
    if "/" in program:
        if built and not program.startswith("/"):
            return  # the build step makes it
        target = (spec.path / program).resolve()
        if not target.is_file():
            raise BotError(f"bot {spec.name!r} ({spec.path}): command {program!r} does not exist")
        return
    if shutil.which(program) is None:
        raise BotError(f"bot {spec.name!r} ({spec.path}): command {program!r} was not found on PATH")
