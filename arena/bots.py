"""Bot folders and their manifests (``bot.toml``).

A bot is a folder holding a ``bot.toml`` manifest and its code::

    name = "greedy"                 # optional; defaults to the folder's name (see NAME_RULE)
    command = "python3 main.py"     # required: a string (split like a shell) or a list
    description = "Dumps heavy tiles first."   # optional
    games = ["block"]               # optional: the games it plays ("openspiel:": all of that family)
    build = "make"                  # optional: a build step (a string or a list), see arena.build

Other keys (``author = "Yan"``) are ignored: ``arena check`` names them, in case one is a typo.

The command runs with the bot folder as its working directory. A bot with a ``build`` step is
built once per version (its folder's content hash), in the sandbox, in a copy of its folder; it
then plays from the built copy (``arena.build``).

A bot folder holds files, folders and symbolic links that stay inside it, and at most
``folder_mb`` MiB of files (the sandbox limit of that name, default 64). Arena never follows a
symbolic link of a bot folder: a link is hashed, copied and sent as the link it is (the bot itself
may follow it, in its sandbox), so nothing outside the folder, no device, and no FIFO is ever read.
A folder holding anything else (a FIFO, a socket, a device, a link out of the folder such as one to
``/dev/zero``) or too much is refused at :func:`load_bot`, with one line naming the entry, before
any match starts. A link inside the folder that leads nowhere is harmless: it stays a link.
"""
from __future__ import annotations

import errno
import hashlib
import os
import re
import shlex
import shutil
import stat
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from arena.errors import BotError

MANIFEST = "bot.toml"
BUNDLED_BOTS = Path(__file__).resolve().parent.parent / "bots"  # the one list of bundled bots
_KNOWN_KEYS = {"name", "command", "description", "games", "build"}
DEFAULT_FOLDER_MB = 64   # the default of the sandbox limit ``folder_mb`` (docs/sandbox.md)
MiB = 1024 * 1024
MANIFEST_BYTES = MiB      # the most a bot.toml may hold
SKIPPED = "__pycache__"  # folders of this name are neither hashed nor copied

# The one rule for bot names (manifests, `arena new-bot --name`, tournament entrants): safe in
# file names, URLs, terminals and every kit's source.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
NAME_RULE = ("1 to 64 letters, digits, '.', '-' or '_' (ASCII), starting with a letter or a digit")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a bot's name, or None when it can (:data:`NAME_RULE`)."""
    if NAME.fullmatch(name):
        return None
    return f"bot name {name!r} is not allowed: use {NAME_RULE}"


@dataclass(frozen=True)
class BotSpec:
    """A bot ready to be started: its name, folder and command."""

    name: str
    path: Path
    command: tuple[str, ...]
    description: str = ""
    games: tuple[str, ...] = field(default_factory=tuple)
    folder_bytes: int = DEFAULT_FOLDER_MB * MiB  # the most its files may hold (limit folder_mb)
    build: tuple[str, ...] = field(default_factory=tuple)  # the build step; () when there is none
    source: Path | None = None  # for a built bot: the folder it was built from (``path`` is the build)
    ignored_keys: tuple[str, ...] = ()  # keys of its manifest that arena does not know

    def ignored_text(self) -> str:
        """What ``arena check`` says of the manifest's unknown keys ("" when there are none)."""
        if not self.ignored_keys:
            return ""
        keys = ", ".join(repr(k) for k in self.ignored_keys)
        return (f"{MANIFEST}: {keys} {'is' if len(self.ignored_keys) == 1 else 'are'} not a key "
                f"arena knows, and ignored (known keys: {', '.join(sorted(_KNOWN_KEYS))})")

    def plays(self, game: str) -> bool:
        """Whether the manifest lets the bot play ``game``: no ``games`` (every game), the game's
        name, or its family (``"openspiel:"`` for every ``openspiel:NAME``)."""
        return not self.games or any(game == g or (g.endswith(":") and game.startswith(g))
                                     for g in self.games)

    def content_hash(self) -> str:
        """SHA-256 over the folder's files (names and bytes), to tell versions of a bot apart
        (for a built bot, the hash of its source folder)."""
        return folder_hash(self.source or self.path, self.folder_bytes)


# ----- reading a bot folder safely -----------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """One entry of a bot folder: ``kind`` is ``"dir"``, ``"file"`` (``data`` holds its bytes) or
    ``"link"`` (``link`` holds where it points, never followed); ``rel`` is its path in the folder."""

    rel: str
    kind: str
    mode: int
    data: bytes = b""
    link: str = ""


def _kind_name(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a file, folder or link"


def _refuse(top: Path, rel: str, why: str) -> BotError:
    return BotError(f"bot folder {str(top)!r}: {rel!r} {why}")


def _too_big(top: Path, rel: str, max_bytes: int) -> BotError:
    return _refuse(top, rel, f"takes its files over {max_bytes / MiB:g} MiB, the most a bot folder "
                             "may hold (the limit folder_mb; docs/sandbox.md)")


def _read_file(top: Path, full: str, rel: str, budget: int, max_bytes: int) -> tuple[bytes, int]:
    """The bytes and mode of a regular file, read without following a link or waiting on a FIFO
    (whatever the name holds by the time it is opened), and never more than ``budget`` bytes."""
    try:
        fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _refuse(top, rel, "became a link while it was read") from None
        raise _refuse(top, rel, f"cannot be read ({exc.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _refuse(top, rel, f"is {_kind_name(st.st_mode)}; a bot folder may hold only files, "
                                    "folders and links")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, budget - size + 1))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > budget:
                raise _too_big(top, rel, max_bytes)
        return b"".join(chunks), st.st_mode
    except OSError as exc:
        raise _refuse(top, rel, f"cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)


def link_leaves(rel_dir: str, target: str) -> bool:
    """Whether a link in the folder ``rel_dir`` (relative to a bot folder's top) that points to
    ``target`` points out of the bot folder, read as written: an absolute target, or one whose
    ``..`` climb above the top. (A folder on disk is checked by :func:`link_escapes`, which also
    follows the other links on the way.)"""
    inside = os.path.normpath(os.path.join(rel_dir, target))
    return os.path.isabs(target) or inside == ".." or inside.startswith("../")


MAX_LINK_HOPS = 40  # as the kernel's own bound on links followed in one path


def link_escapes(top: str, rel_dir: str, target: str) -> bool:
    """Whether a link in the folder ``rel_dir`` of the bot folder ``top`` that points to
    ``target`` leads out of ``top`` by any route: an absolute target, a ``..`` above the top, or
    a chain of links inside the folder (``sub/d -> ..`` then ``sub/e -> d/..``), resolved one
    component at a time as the kernel resolves it (a ``..`` after a link climbs from where the
    link leads). A loop of links counts as leading out; a part that does not exist is read as
    written."""
    if os.path.isabs(target):
        return True
    parts = rel_dir.split("/") if rel_dir else []
    pending = target.split("/")
    hops = 0
    while pending:
        part = pending.pop(0)
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return True
            parts.pop()
            continue
        try:
            st = os.lstat(os.path.join(top, *parts, part))
        except OSError:
            parts.append(part)
            continue
        if not stat.S_ISLNK(st.st_mode):
            parts.append(part)
            continue
        hops += 1
        try:
            link = os.readlink(os.path.join(top, *parts, part))
        except OSError:
            return True
        if hops > MAX_LINK_HOPS or os.path.isabs(link):
            return True
        pending = link.split("/") + pending  # from the folder that holds the link
    return False


def _listing(top: Path, read: bool, max_bytes: int, links_out: bool = False) -> Iterator[Entry]:
    """Every entry under ``top`` (``__pycache__`` folders left out) in a fixed order: in each
    folder its files and links by name, then its folders by name, each followed by its contents.
    Never follows a link; a FIFO, socket or device, an unreadable entry, or more than
    ``max_bytes`` of files is a :class:`BotError` naming the entry, and so is a link out of
    ``top`` unless ``links_out`` (the SDK's own files). ``read``: load file bytes."""
    used = 0
    stack: list[tuple[str, str]] = [(str(top), "")]
    while stack:
        full_dir, rel_dir = stack.pop()
        try:
            with os.scandir(full_dir) as it:
                items = sorted((e.name, e.path) for e in it)
        except OSError as exc:
            raise _refuse(top, rel_dir or ".", f"cannot be listed ({exc.strerror})") from None
        folders = []
        for name, full in items:
            rel = f"{rel_dir}/{name}" if rel_dir else name
            try:
                st = os.lstat(full)
            except OSError as exc:
                raise _refuse(top, rel, f"cannot be read ({exc.strerror})") from None
            if stat.S_ISDIR(st.st_mode):
                if name != SKIPPED:
                    folders.append((name, full, rel, st.st_mode))
            elif stat.S_ISLNK(st.st_mode):
                try:
                    target = os.readlink(full)
                except OSError as exc:
                    raise _refuse(top, rel, f"cannot be read ({exc.strerror})") from None
                if not links_out and link_escapes(str(top), rel_dir, target):
                    raise _refuse(top, rel, f"links to {target}, outside the bot folder; a bot "
                                            "folder's links must stay inside it (copy the file in "
                                            "instead)")
                yield Entry(rel, "link", st.st_mode, link=target)
            elif stat.S_ISREG(st.st_mode):
                if read:
                    data, mode = _read_file(top, full, rel, max_bytes - used, max_bytes)
                    used += len(data)
                    yield Entry(rel, "file", mode, data=data)
                else:
                    used += st.st_size
                    if used > max_bytes:
                        raise _too_big(top, rel, max_bytes)
                    yield Entry(rel, "file", st.st_mode)
            else:
                raise _refuse(top, rel, f"is {_kind_name(st.st_mode)}; a bot folder may hold only "
                                        "files, folders and links")
        for _, full, rel, _ in reversed(folders):  # popped in name order
            stack.append((full, rel))
        # a folder's own entry comes before its contents: yield them in name order now
        for _, _, rel, mode in folders:
            yield Entry(rel, "dir", mode)


def read_folder(top: Path | str, max_bytes: int = DEFAULT_FOLDER_MB * MiB,
                links_out: bool = False) -> Iterator[Entry]:
    """The entries of a bot folder with the bytes of its files (see :func:`_listing`)."""
    return _listing(Path(top), True, max_bytes, links_out)


def check_folder(top: Path, max_bytes: int = DEFAULT_FOLDER_MB * MiB) -> None:
    """Refuse a bot folder that holds anything but files, folders and links, or too much."""
    for _ in _listing(Path(top), False, max_bytes):
        pass


def folder_hash(path: Path, max_bytes: int = DEFAULT_FOLDER_MB * MiB) -> str:
    """SHA-256 over the folder's entries: each file's path and bytes, each link's path and target
    (never followed); folders count through what they hold. A folder of plain files hashes as
    it always has (path NUL bytes NUL, per file, in :func:`read_folder`'s order)."""
    digest = hashlib.sha256()
    for entry in read_folder(path, max_bytes):
        if entry.kind == "file":
            digest.update(os.fsencode(entry.rel) + b"\0")
            digest.update(entry.data + b"\0")
        elif entry.kind == "link":
            digest.update(os.fsencode(entry.rel) + b"\0\x01link\x01" + os.fsencode(entry.link) + b"\0")
    return digest.hexdigest()


def not_a_folder(given: str, path: Path) -> str:
    """Why ``path`` (written ``given``) is no bot folder: it is a file, or nothing."""
    if path.exists():
        return f"bot folder {given!r} is a file, not a folder; give the folder that holds {MANIFEST}"
    if _bare(given):
        return (f"bot folder {given!r} does not exist, and no bundled bot has that name "
                "(`arena bots` lists them)")
    return f"bot folder {given!r} does not exist"


def _bare(given: str) -> bool:
    """Whether ``given`` is a bare name (no folder part), which may name a bundled bot."""
    return "/" not in given and os.sep not in given and NAME.fullmatch(given) is not None


def bot_folder(given: str, base: Path | None = None) -> Path:
    """The folder of the bot written ``given`` (on the command line, or as a tournament entrant):
    the folder ``given``, relative to ``base`` (the working directory when None), when it is
    there; else, for a bare name (no ``/``), the bundled bot of that name when there is one
    (``greedy`` is ``bots/greedy``); else the folder as written, which :func:`load_bot` refuses
    with one line. The one place a bot's name becomes its folder."""
    folder = Path(given).expanduser()
    if base is not None and not folder.is_absolute():
        folder = base / folder
    if folder.is_dir() or not _bare(given):
        return folder
    bundled = BUNDLED_BOTS / given
    return bundled if (bundled / MANIFEST).is_file() else folder


def find_bot(given: str, folder_mb: int = DEFAULT_FOLDER_MB) -> BotSpec:
    """The bot written ``given`` on the command line (:func:`bot_folder` from the working
    directory), loaded; a problem names it as written."""
    return load_bot(bot_folder(given), folder_mb, written=given)


def load_bot(path: str | os.PathLike[str], folder_mb: int = DEFAULT_FOLDER_MB,
             written: str | None = None) -> BotSpec:
    """Read a bot folder's manifest; every problem is a :class:`BotError` naming the path (as
    ``written``, when given). ``folder_mb``: the most its files may hold (the sandbox limit of
    that name)."""
    folder = Path(path).resolve()
    given = str(path) if written is None else written
    if not folder.is_dir():
        raise BotError(not_a_folder(given, folder))
    check_folder(folder, folder_mb * MiB)
    manifest = folder / MANIFEST
    if manifest.is_symlink():
        raise BotError(f"{manifest}: is a link; the manifest must be a plain file")
    if not manifest.is_file():
        raise BotError(f"bot folder {given!r} has no {MANIFEST} manifest")
    if manifest.stat().st_size > MANIFEST_BYTES:
        raise BotError(f"{manifest}: over {MANIFEST_BYTES // MiB} MiB; a manifest is a few lines")
    text, _ = _read_file(folder, str(manifest), MANIFEST, MANIFEST_BYTES, MANIFEST_BYTES)
    try:
        data = tomllib.loads(text.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise BotError(f"{manifest}: not valid TOML ({exc})") from None
    ignored = tuple(sorted(set(data) - _KNOWN_KEYS))  # an author's own notes: kept out, said
    command = _command(data.get("command"), manifest, "command")
    if not command:
        raise BotError(f"{manifest}: 'command' is empty")
    build = _command(data.get("build", []), manifest, "build")
    name = data.get("name", folder.name)
    if not isinstance(name, str):
        raise BotError(f"{manifest}: 'name' must be a string")
    problem = name_problem(name)
    if problem:
        given = "'name'" if "name" in data else "it has no 'name', so the folder's name is taken"
        raise BotError(f"{manifest}: {given}: {problem}")
    games = data.get("games", [])
    if not isinstance(games, list) or not all(isinstance(g, str) for g in games):
        raise BotError(f"{manifest}: 'games' must be a list of game names")
    spec = BotSpec(name=name, path=folder, command=command,
                   description=str(data.get("description", "")), games=tuple(games),
                   folder_bytes=folder_mb * MiB, build=build, ignored_keys=ignored)
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
    return [b for b in bots if game is None or b.plays(game)]


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
