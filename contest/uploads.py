"""An upload made into a bot folder, or refused in one line.

An author hands in a ``.zip`` or ``.tar.gz`` of their bot's folder (a single top folder is
stripped), or one source file of a one-file bot, for which arena writes the manifest (the
command by the file's language, :data:`LANGUAGES`). Everything in an upload is hostile: it is
unpacked into a new folder of its own, entry by entry, and refused, with nothing written outside
that folder, for an entry that is a link (symbolic or hard), a device or a FIFO, a path that is
absolute or climbs with ``..``, a name with a control character or one that differs from another
only in letter case, more than the limits allow (counted while unpacking, so a small archive that
unpacks to a huge one stops at the limit), or an archive that is corrupt, truncated, or not what
its name says. The manifest's ``name`` becomes the author's: the author's name is the folder's
and the entrant's.
"""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import stat
import tarfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from arena.bots import MANIFEST
from arena.errors import ArenaError

MiB = 1 << 20
ARCHIVES = (".zip", ".tar.gz", ".tgz")
# a one-file bot: its language by the file's ending -> (build step, command); "{file}" is its name
LANGUAGES = {
    ".py": ((), ("python3", "{file}")),
    ".js": ((), ("node", "{file}")),
    ".c": (("gcc", "-O2", "-o", "bot", "{file}", "-lm"), ("./bot",)),
    ".rs": (("rustc", "-O", "-o", "bot", "{file}"), ("./bot",)),
}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
_KNOWN = ("name", "command", "description", "games", "build")


class UploadError(ArenaError):
    """An upload refused, with the one line that says why."""


@dataclass(frozen=True)
class Limits:
    """What an upload may be (``[serve]`` settings): bytes as sent, bytes and files unpacked."""

    upload_bytes: int = 5 * MiB
    unpacked_bytes: int = 50 * MiB
    files: int = 2000


def kind_of(filename: str, head: bytes) -> str:
    """"zip", "tar.gz" or "file" by the name's ending, checked against the first bytes."""
    lower = filename.lower()
    if lower.endswith(".zip"):
        if not head.startswith(b"PK\x03\x04"):
            raise UploadError(f"{_shown(filename)} is not a zip archive, though its name says so")
        return "zip"
    if lower.endswith((".tar.gz", ".tgz")):
        if not head.startswith(b"\x1f\x8b"):
            raise UploadError(f"{_shown(filename)} is not a gzip-compressed tar archive, though "
                              "its name says so")
        return "tar.gz"
    if PurePosixPath(lower).suffix in LANGUAGES:
        return "file"
    raise UploadError(f"{_shown(filename)}: hand in a .zip or .tar.gz of your bot's folder, or "
                      f"one source file ({', '.join(sorted(LANGUAGES))})")


def unpack(data: bytes, filename: str, target: Path, author: str, limits: Limits) -> None:
    """Make ``target`` (a new folder) the bot folder of this upload, or raise UploadError (the
    caller removes ``target``)."""
    if len(data) > limits.upload_bytes:
        raise UploadError(f"the upload is {len(data) / MiB:.1f} MB, over the limit of "
                          f"{limits.upload_bytes / MiB:g} MB")
    kind = kind_of(filename, data[:4])
    target.mkdir(mode=0o755)
    if kind == "file":
        _one_file(data, filename, target, limits)
    else:
        members = _zip_members(data) if kind == "zip" else _tar_members(data)
        _write_members(members, target, limits)
        _strip_top_folder(target)
    _name_manifest(target, author)


def _shown(name: str) -> str:
    return json.dumps(name, ensure_ascii=True)


def _check_name(name: str, seen: dict[str, str]) -> PurePosixPath:
    """The relative path of an archive entry, or why it is refused."""
    if _CONTROL.search(name):
        raise UploadError(f"the entry {_shown(name)} has a control character in its name")
    path = PurePosixPath(name)
    if path.is_absolute() or name.startswith("/") or "\\" in name:
        raise UploadError(f"the entry {_shown(name)} has an absolute path")
    if ".." in path.parts:
        raise UploadError(f"the entry {_shown(name)} climbs out of the folder with '..'")
    parts = [p for p in path.parts if p not in ("", ".")]
    if not parts:
        raise UploadError(f"the entry {_shown(name)} has no name")
    clean = PurePosixPath(*parts)
    folded = str(clean).casefold()
    if folded in seen and seen[folded] != str(clean):
        raise UploadError(f"the entries {_shown(seen[folded])} and {_shown(str(clean))} differ "
                          "only in letter case")
    seen[folded] = str(clean)
    return clean


@dataclass
class _Member:
    name: str
    kind: str          # file | dir | other
    what: str          # for a refusal: "a symbolic link", ...
    read: object       # () -> a binary stream, for a file


def _zip_members(data: bytes) -> list[_Member]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise UploadError(f"the zip archive cannot be read ({exc})") from None
    out = []
    for info in infos:
        kind = stat.S_IFMT((info.external_attr >> 16) & 0xFFFF)  # 0: an archiver that says none
        if kind == stat.S_IFLNK:
            out.append(_Member(info.filename, "other", "a symbolic link", None))
        elif info.is_dir():
            out.append(_Member(info.filename, "dir", "", None))
        elif kind not in (0, stat.S_IFREG):
            out.append(_Member(info.filename, "other", "not a plain file", None))
        else:
            out.append(_Member(info.filename, "file", "",
                               lambda info=info: archive.open(info)))
    return out


def _tar_members(data: bytes) -> list[_Member]:
    try:
        archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:gz")
        infos = archive.getmembers()
    except (tarfile.TarError, OSError, EOFError, ValueError) as exc:
        raise UploadError(f"the tar.gz archive cannot be read ({exc})") from None
    out = []
    for info in infos:
        if info.issym():
            out.append(_Member(info.name, "other", "a symbolic link", None))
        elif info.islnk():
            out.append(_Member(info.name, "other", "a hard link", None))
        elif info.isdir():
            out.append(_Member(info.name, "dir", "", None))
        elif info.isfile():
            out.append(_Member(info.name, "file", "", lambda info=info: archive.extractfile(info)))
        else:
            out.append(_Member(info.name, "other", "a device or a FIFO", None))
    return out


def _write_members(members: list[_Member], target: Path, limits: Limits) -> None:
    seen: dict[str, str] = {}
    written = files = 0
    for member in members:
        rel = _check_name(member.name, seen)
        if member.kind == "other":
            raise UploadError(f"the entry {_shown(member.name)} is {member.what}; a bot folder "
                              "holds only files and folders here")
        dest = target.joinpath(*rel.parts)
        if member.kind == "dir":
            dest.mkdir(mode=0o755, parents=True, exist_ok=True)
            continue
        files += 1
        if files > limits.files:
            raise UploadError(f"the archive holds more than {limits.files} files")
        dest.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        if dest.exists() or dest.is_symlink():
            raise UploadError(f"the entry {_shown(member.name)} comes twice")
        try:
            source = member.read()  # type: ignore[operator]
            with source, open(dest, "xb") as out:
                while True:
                    chunk = source.read(1 << 16)
                    if not chunk:
                        break
                    written += len(chunk)
                    if written > limits.unpacked_bytes:
                        raise UploadError(f"the archive unpacks to more than "
                                          f"{limits.unpacked_bytes / MiB:g} MB")
                    out.write(chunk)
        except UploadError:
            raise
        except (OSError, EOFError, ValueError, zipfile.BadZipFile, tarfile.TarError) as exc:
            raise UploadError(f"the archive is damaged or cut short ({type(exc).__name__}: "
                              f"{exc})") from None


def _strip_top_folder(target: Path) -> None:
    """An archive of one folder (``mybot/...``) is that folder's contents."""
    entries = list(target.iterdir())
    if len(entries) == 1 and entries[0].is_dir() and not (target / MANIFEST).exists():
        top = entries[0]
        for item in list(top.iterdir()):
            os.rename(item, target / item.name)
        top.rmdir()


def _one_file(data: bytes, filename: str, target: Path, limits: Limits) -> None:
    name = PurePosixPath(filename.replace("\\", "/")).name
    _check_name(name, {})
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name) or name == MANIFEST:
        raise UploadError(f"{_shown(filename)}: name a source file with letters, digits, '.', "
                          "'-' and '_'")
    (target / name).write_bytes(data)
    build, command = LANGUAGES[PurePosixPath(name.lower()).suffix]
    manifest: dict[str, object] = {"command": [part.format(file=name) for part in command]}
    if build:
        manifest["build"] = [part.format(file=name) for part in build]
    _write_manifest(target / MANIFEST, manifest)


def _name_manifest(target: Path, author: str) -> None:
    """The manifest, its ``name`` the author's (other keys arena knows kept as they were)."""
    path = target / MANIFEST
    if not path.is_file() or path.is_symlink():
        raise UploadError(f"the upload holds no {MANIFEST} (at its top, or in its one top "
                          "folder); see the starter kit's")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UploadError(f"{MANIFEST} is not valid TOML ({exc})") from None
    kept = {k: data[k] for k in _KNOWN if k in data}
    kept["name"] = author
    path.unlink()
    _write_manifest(path, kept)


def _write_manifest(path: Path, data: dict[str, object]) -> None:
    lines = []
    for key, value in data.items():
        if isinstance(value, str):
            lines.append(f"{key} = {json.dumps(value)}")
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            lines.append(f"{key} = [{', '.join(json.dumps(v) for v in value)}]")
        else:
            raise UploadError(f"{MANIFEST}: {key!r} must be a string or a list of strings")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
