"""Bot bundles: a bot folder packed by the parent (:func:`pack_folder`) and unpacked, verified and
cached by a worker (:func:`bot_folder`); see the package's docstring."""
from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import shutil
import stat
import tarfile
import tempfile
import threading
import uuid
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from arena.bots import DEFAULT_FOLDER_MB, BotSpec, MiB, folder_hash, link_leaves, read_folder
from arena.errors import ArenaError, BotError

CACHE_ENV = "ARENA_BOT_CACHE"      # overrides the worker's bundle cache folder
CACHE_NAME = "arena-bots"


class BundleError(ArenaError):
    """A bot bundle that cannot be used: its files do not hash to its key, or it cannot be made."""


# ----- bundles: packing (parent) ---------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Bundle:
    """A bot folder as bytes: ``data`` unpacks to files whose :func:`folder_hash` is ``digest``."""

    digest: str
    data: bytes


def _file_mode(mode: int) -> int:
    return 0o755 if mode & stat.S_IXUSR else 0o644


def pack_folder(folder: str | os.PathLike[str], max_bytes: int = DEFAULT_FOLDER_MB * MiB) -> Bundle:
    """Pack a bot folder: the entries :func:`arena.bots.read_folder` reads (files, folders, links,
    never following a link; no FIFO, device or socket; at most ``max_bytes`` of files), read once,
    hashed as :func:`arena.bots.folder_hash` hashes them. Deterministic (sorted, no times or
    owners). A link stays a link (the bot folder's links stay inside it, as the worker's unpacking
    requires too)."""
    top = Path(folder).resolve()
    digest = hashlib.sha256()
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        def add(name: str, kind: bytes, mode: int, data: bytes = b"", link: str = "") -> None:
            info = tarfile.TarInfo(name)
            info.type, info.mode, info.mtime, info.linkname = kind, mode, 0, link
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)

        try:
            for entry in read_folder(top, max_bytes):
                if entry.kind == "dir":
                    add(entry.rel, tarfile.DIRTYPE, 0o755)
                elif entry.kind == "link":  # read_folder refuses one that leaves the folder
                    digest.update(os.fsencode(entry.rel) + b"\0\x01link\x01"
                                  + os.fsencode(entry.link) + b"\0")
                    add(entry.rel, tarfile.SYMTYPE, 0o777, link=entry.link)
                else:
                    digest.update(os.fsencode(entry.rel) + b"\0")
                    digest.update(entry.data + b"\0")
                    add(entry.rel, tarfile.REGTYPE, _file_mode(entry.mode), entry.data)
        except BotError as exc:
            raise BundleError(str(exc)) from None
    return Bundle(digest.hexdigest(), zlib.compress(raw.getvalue(), 6))


def pack_bots(bots: Iterable[BotSpec]) -> tuple[dict[Path, str], dict[str, bytes]]:
    """Pack every distinct bot folder once: ``{folder: digest}``, ``{digest: data}``."""
    digests: dict[Path, str] = {}
    bundles: dict[str, bytes] = {}
    for bot in bots:
        folder = Path(bot.path)
        if folder not in digests:
            bundle = pack_folder(folder, bot.folder_bytes)
            digests[folder] = bundle.digest
            bundles[bundle.digest] = bundle.data
    return digests, bundles


# ----- bundles: unpacking (worker) -------------------------------------------------------------

# A bundle was packed within its run's folder_mb: the worker's own check of what it unpacked
# (its hash) needs no limit of its own.
UNPACKED_BYTES = 1 << 62

_lock = threading.Lock()                       # a worker runs tasks in threads
_digest_locks: dict[str, threading.Lock] = {}
_verified: dict[tuple[Path, str], tuple[Any, ...]] = {}   # folder's signature when last verified
_swept: set[Path] = set()


def cache_root() -> Path:
    """The worker's bundle cache: ``$ARENA_BOT_CACHE``, else ``<tmp>/arena-bots`` (a temp folder
    the sandbox's bot users can traverse). It must belong to this user and be writable by no one
    else, since whoever can write it could swap a verified bot's files."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        root = Path(configured)
    else:
        from arena.sandbox.files import temp_base
        base = temp_base()
        root = base / CACHE_NAME
        if root.exists() and os.lstat(root).st_uid != os.geteuid():  # another user's cache
            root = base / f"{CACHE_NAME}-{os.geteuid()}"
    try:
        root.mkdir(mode=0o755, parents=True, exist_ok=True)
        st = os.lstat(root)
    except OSError as exc:
        raise BundleError(f"cannot create the bot cache folder {root} ({exc})") from None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
        raise BundleError(f"the bot cache folder {root} is not a folder of this user that no one "
                          f"else can write; remove it, or set {CACHE_ENV} to another folder")
    if st.st_mode & 0o555 != 0o555:
        os.chmod(root, 0o755)
    if root not in _swept:
        _swept.add(root)
        _sweep(root)
    return root


def _sweep(root: Path) -> None:
    """Remove half-unpacked folders left by worker processes that were killed."""
    for path in root.glob(".tmp-*"):
        pid = path.name.split("-")[1]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except OSError:
            pass


def _signature(folder: Path) -> tuple[Any, ...]:
    """Cheap identity of a folder's current files (names, sizes, times, modes, inodes)."""
    out: list[Any] = [os.stat(folder).st_ino]
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(dirs + files):
            st = os.lstat(os.path.join(root, name))
            out.append((os.path.relpath(os.path.join(root, name), folder), st.st_size,
                        st.st_mtime_ns, st.st_mode, st.st_ino))
    return tuple(out)


def _extract(data: bytes, target: Path) -> None:
    """Unpack a bundle into the empty folder ``target``: only what :func:`pack_folder` writes, by
    hand rather than by ``tarfile``'s extraction (whose safety filters Python has only since
    3.11.4; Debian 12's is 3.11.2). Folders, files (mode 0o755 or 0o644, owned by this user)
    and links that stay inside the folder; no absolute name or ``..``; nothing under a link, so
    nothing is written through one (links are made last); anything else refuses the bundle."""
    try:
        with tarfile.open(fileobj=io.BytesIO(zlib.decompress(data)), mode="r:") as tar:
            members = tar.getmembers()
            links = {m.name for m in members if m.issym()}
            for m in members:
                _check_member(m, links)
            for m in members:
                path = os.path.join(target, m.name)
                if m.isdir():
                    os.makedirs(path, 0o755, exist_ok=True)
                elif m.isreg():
                    os.makedirs(os.path.dirname(path), 0o755, exist_ok=True)
                    member = tar.extractfile(m)
                    assert member is not None  # a regular file has contents
                    content = member.read()
                    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                                 _file_mode(m.mode))
                    with open(fd, "wb") as f:
                        f.write(content)
            for m in members:
                if m.issym():
                    os.makedirs(os.path.dirname(os.path.join(target, m.name)), 0o755, exist_ok=True)
                    os.symlink(m.linkname, os.path.join(target, m.name))
    except (zlib.error, tarfile.TarError, OSError) as exc:
        raise BundleError(f"a bot bundle could not be unpacked ({type(exc).__name__}: {exc})") \
            from None
    for root, dirs, files in os.walk(target):  # whatever the umask took off
        for name in dirs:
            if not os.path.islink(os.path.join(root, name)):
                os.chmod(os.path.join(root, name), 0o755)
        for name in files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, _file_mode(os.lstat(path).st_mode))
    os.chmod(target, 0o755)


def _check_member(member: tarfile.TarInfo, links: set[str]) -> None:
    """Refuse (``TarError``) an entry that :func:`pack_folder` never writes."""
    name = member.name
    parts = name.split("/")
    if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise tarfile.TarError(f"{name!r} is not a plain path inside the bot folder")
    if any("/".join(parts[:i]) in links for i in range(1, len(parts))):
        raise tarfile.TarError(f"{name!r} lies under a link")
    if member.issym():
        if link_leaves("/".join(parts[:-1]), member.linkname):
            raise tarfile.TarError(f"{name!r} links to {member.linkname}, outside the bot folder")
    elif not (member.isdir() or member.isreg()):
        raise tarfile.TarError(f"{name!r} is neither a file, a folder nor a link")


def bot_folder(digest: str, data: bytes | Callable[[], bytes], root: Path | None = None) -> Path:
    """The cached folder of a bundle, unpacked (from ``data``, or what ``data()`` returns) and
    verified before its first use in this process: its files must hash to ``digest``, else
    :class:`BundleError`. A cached folder whose files have changed since they were verified is
    hashed again, and replaced from the bundle if it no longer matches."""
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise BundleError(f"{digest!r} is not a bundle key (a SHA-256 in hex)")
    root = root or cache_root()
    final = root / digest
    with _lock:
        lock = _digest_locks.setdefault(digest, threading.Lock())
    with lock:
        for _attempt in range(3):
            if final.is_dir() and not final.is_symlink():
                signature = _signature(final)
                if _verified.get((root, digest)) == signature:
                    return final
                if folder_hash(final, UNPACKED_BYTES) == digest:
                    _verified[(root, digest)] = signature
                    return final
            _install(digest, data if isinstance(data, bytes) else data(), final)
        raise BundleError(f"bot bundle {digest[:12]}: could not install it in {root}")


def _install(digest: str, data: bytes, final: Path) -> None:
    """Unpack into a temporary folder beside ``final``, verify, then rename it into place."""
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{os.getpid()}-{digest[:12]}-", dir=final.parent))
    try:
        _extract(data, tmp)
        got = folder_hash(tmp, UNPACKED_BYTES)
        if got != digest:
            raise BundleError(f"bot bundle {digest[:12]} unpacks to files whose hash is "
                              f"{got[:12]}, not its key: refused (damaged in transit, or packed by another "
                              "version of arena)")
        try:
            os.rename(tmp, final)
            return
        except OSError:
            pass  # ``final`` exists: another worker process of this machine was first, or it is bad
        if final.is_dir() and not final.is_symlink() and folder_hash(final, UNPACKED_BYTES) == digest:
            return
        trash = final.parent / f".tmp-{os.getpid()}-trash-{uuid.uuid4().hex[:8]}"
        try:
            os.rename(final, trash)
        except FileNotFoundError:
            pass
        os.rename(tmp, final)
        shutil.rmtree(trash, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def forget_verified() -> None:
    """Forget which cached folders this process has verified: each is hashed again at its next
    use, as a new worker process would (tests)."""
    with _lock:
        _verified.clear()
