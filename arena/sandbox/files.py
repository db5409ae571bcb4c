"""What a bot may see of the file system: its folder, the Python SDK, a scratch folder.

The referee may live where a bot's user cannot read (``/root``, as on these machines), so the SDK
is *staged*: the ``protocol`` package, ``msgpack`` and the game engines (nothing else of the
referee; OpenSpiel's ``pyspiel`` too where it is installed) are copied into a world-readable
folder, which the sandbox shows at ``/opt/arena/sdk``,
and compiled there by the bots' own ``python3`` (bots never write bytecode, so without it every
Python bot would compile the SDK again as it starts). That is done once per machine, sources and
interpreter version, not once per referee process: the folder's name carries a key of them. A
bot folder that its user could not read (or could write) is staged the same way, per match (per
fork server, arena.sandbox.zygote), readable by that bot's group only.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import stat
import subprocess
import tempfile
import threading
from pathlib import Path

import msgpack

import protocol
from arena.bots import DEFAULT_FOLDER_MB, MiB, read_folder
from arena.errors import BotError
from arena.sandbox.command import SYSTEM_PATH

SDK_BYTES = 256 * MiB  # a bound on the SDK's own files (the protocol package and msgpack)

_PACKAGES = {"protocol": Path(protocol.__file__).resolve().parent,
             "msgpack": Path(msgpack.__file__).resolve().parent}
# The game engines, for bots that search with them: the game interface and every game, pure
# Python, without the referee, the sandbox or the CLI (docs/adding-a-game.md).
_ARENA = Path(__file__).resolve().parents[1]
ENGINE_MODULES = ("__init__.py", "errors.py", "game.py", "options.py")
ENGINE_PACKAGES = ("games",)
_sdk: Path | None = None
_sdk_lock = threading.Lock()


def engine_extensions() -> dict[str, Path]:
    """Compiled game engines staged beside the SDK when they are installed, by file name: OpenSpiel's
    ``pyspiel`` (the extra ``arena[openspiel]``, one extension module of about 25 MB, built for the
    same Python as the bots' ``python3``), for bots that search with it (docs/games/openspiel.md)."""
    spec = importlib.util.find_spec("pyspiel")
    if spec is None or spec.origin is None or not Path(spec.origin).is_file():
        return {}
    return {Path(spec.origin).name: Path(spec.origin)}


def traversable_by_others(path: Path) -> bool:
    """Whether a user with no relation to the owner can reach ``path`` (every ancestor ``o+x``)."""
    path = path.resolve()
    for folder in (path, *path.parents):
        try:
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                return False
        except OSError:
            return False
    return True


def temp_base() -> Path:
    """A folder for staged files that other users can traverse: ``$TMPDIR`` if it qualifies, else ``/tmp``."""
    for candidate in (Path(tempfile.gettempdir()), Path("/tmp"), Path("/var/tmp")):
        if candidate.is_dir() and traversable_by_others(candidate):
            return candidate
    return Path(tempfile.gettempdir())


def copy_tree(source: Path, target: Path, dir_mode: int, file_mode: int, gid: int = -1,
              max_bytes: int = SDK_BYTES, links_out: bool = False) -> None:
    """Copy files, folders and symlinks (a link is copied as the link it is, never followed: the
    copy runs as root) as :func:`arena.bots.read_folder` reads them: no FIFO is opened, nothing
    outside ``source`` is read, at most ``max_bytes`` of files (else :class:`BotError`). Modes are
    normalised: owner-executable files get ``x`` too."""
    target.mkdir(mode=0o700)
    folders = [target]
    for entry in read_folder(source, max_bytes, links_out):
        dest = target / entry.rel
        if entry.kind == "dir":
            dest.mkdir(mode=0o700)
            folders.append(dest)
            continue
        if entry.kind == "link":
            os.symlink(entry.link, dest)
            continue
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            with os.fdopen(fd, "wb", closefd=False) as out:
                out.write(entry.data)
            executable = entry.mode & stat.S_IXUSR
            os.fchmod(fd, file_mode | (0o111 & dir_mode if executable else 0))
            if gid >= 0:
                os.fchown(fd, 0, gid)
        finally:
            os.close(fd)
    for folder in folders:
        os.chmod(folder, dir_mode)
        if gid >= 0:
            os.chown(folder, 0, gid)


def temp_prefix(kind: str) -> str:
    """Temporary folders carry their referee's pid, so that a later referee can clean up after
    one that was killed before it could (a terminated tournament worker, say)."""
    return f"arena-{kind}-{os.getpid()}-"


def sweep_stale() -> None:
    """Remove the SDK, stage and scratch folders of referee processes that no longer exist."""
    base = temp_base()
    for kind in ("sdk", "stage", "scratch"):
        for path in base.glob(f"arena-{kind}-*-*"):
            pid = path.name.split("-")[2]
            try:
                if not pid.isdigit() or os.lstat(path).st_uid != os.geteuid():
                    continue
                os.kill(int(pid), 0)
            except ProcessLookupError:
                shutil.rmtree(path, ignore_errors=True)
            except OSError:
                continue


def _sdk_key(python: str | None) -> str:
    """What the staged SDK depends on: every source file (path, size, time) and the bots'
    interpreter (its bytecode is for that version); a change of either stages a new one."""
    digest = hashlib.sha256()
    sources = [*_PACKAGES.items(), *(("arena/" + n, _ARENA / n) for n in ENGINE_MODULES),
               *(("arena/" + n, _ARENA / n) for n in ENGINE_PACKAGES), *engine_extensions().items()]
    for name, source in sources:
        paths = [source] if source.is_file() else sorted(p for p in source.rglob("*")
                                                         if "__pycache__" not in p.parts)
        for path in paths:
            st = path.stat()
            digest.update(f"{name}/{path.relative_to(source)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    if python is not None:
        st = os.stat(os.path.realpath(python))
        digest.update(f"{os.path.realpath(python)}:{st.st_size}:{st.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def _trusted(folder: Path) -> bool:
    """A folder only this process's user can have made and changed (the temp folder is shared)."""
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and not st.st_mode & 0o022


def sdk_dir() -> Path:
    """The staged SDK folder (``protocol`` + ``msgpack`` + the game engines of ``arena``), compiled
    for the bots' ``python3``: staged once per machine, sources and interpreter version
    (``$TMPDIR/arena-sdk-cache-KEY``), shared by every referee process and kept for the next."""
    global _sdk
    with _sdk_lock:
        if _sdk is not None and _sdk.is_dir():
            return _sdk
        python = shutil.which("python3", path=SYSTEM_PATH)
        final = temp_base() / f"arena-sdk-cache-{_sdk_key(python)}"
        if not _trusted(final):
            sweep_stale()
            if final.exists() or final.is_symlink():  # someone else's: not ours to trust or remove
                final = Path(tempfile.mkdtemp(prefix=temp_prefix("sdk"), dir=temp_base()))
                os.rmdir(final)
            folder = Path(tempfile.mkdtemp(prefix=temp_prefix("sdk"), dir=temp_base()))
            for name, source in _PACKAGES.items():
                copy_tree(source, folder / name, 0o755, 0o644, links_out=True)
            engines = folder / "arena"
            engines.mkdir(mode=0o755)
            for name in ENGINE_MODULES:
                shutil.copyfile(_ARENA / name, engines / name)
                os.chmod(engines / name, 0o644)
            for name in ENGINE_PACKAGES:
                copy_tree(_ARENA / name, engines / name, 0o755, 0o644, links_out=True)
            for name, source in engine_extensions().items():
                shutil.copyfile(source, folder / name)
                os.chmod(folder / name, 0o755)
            _compile(folder, python)
            os.chmod(folder, 0o755)
            try:
                os.rename(folder, final)  # atomic: another referee may have staged it meanwhile
            except OSError:
                shutil.rmtree(folder, ignore_errors=True)
                if not _trusted(final):
                    raise
        _sdk = final
        return _sdk


def _compile(folder: Path, python: str | None) -> None:
    """Bytecode of the staged SDK for the ``python3`` bots run (best effort: without it, bots
    compile the SDK themselves, a few milliseconds each)."""
    if python is None:
        return
    try:
        subprocess.run([python, "-m", "compileall", "-q", str(folder)], check=False, timeout=60,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env={"PATH": SYSTEM_PATH})
    except (OSError, subprocess.SubprocessError):
        pass


def readable_in_place(folder: Path, uid: int) -> bool:
    """Whether ``uid`` (not the owner) can read every file of ``folder`` and write none of it."""
    if not traversable_by_others(folder):
        return False
    top = os.stat(folder)
    if top.st_uid == uid or top.st_mode & stat.S_IWOTH or not top.st_mode & stat.S_IROTH:
        return False
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            try:
                st = os.lstat(os.path.join(root, name))
            except OSError:
                return False
            if stat.S_ISLNK(st.st_mode):
                continue
            if st.st_uid == uid or st.st_mode & stat.S_IWOTH:
                return False
            needed = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(st.st_mode) or st.st_mode & stat.S_IXUSR else 0)
            if st.st_mode & needed != needed:
                return False
    return True


def stage_bot(folder: Path, gid: int, max_bytes: int = DEFAULT_FOLDER_MB * MiB) -> Path:
    """A private copy of a bot folder: owned by root, readable (not writable) by group ``gid`` only.
    Returns the stage folder; the copy is its ``bot`` subfolder. A folder that holds more than
    ``max_bytes``, or something other than files, folders and links, is an ``OSError`` (the bot
    could not be started) and nothing is left behind."""
    stage = Path(tempfile.mkdtemp(prefix=temp_prefix("stage"), dir=temp_base()))
    try:
        os.chmod(stage, 0o711)
        copy_tree(folder, stage / "bot", 0o750, 0o640, gid, max_bytes)
    except BotError as exc:
        shutil.rmtree(stage, ignore_errors=True)
        raise OSError(str(exc)) from None
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return stage


def chown_tree(folder: Path, uid: int) -> None:
    """Give ``folder`` and everything in it (symlinks themselves, never their targets) to ``uid``."""
    os.chown(folder, uid, uid)
    for root, dirs, names in os.walk(folder):
        for name in dirs + names:
            os.chown(os.path.join(root, name), uid, uid, follow_symlinks=False)


def make_scratch(uid: int | None) -> Path:
    """A private writable folder on the host (levels without bubblewrap), owned by the bot's user."""
    scratch = Path(tempfile.mkdtemp(prefix=temp_prefix("scratch"), dir=temp_base()))
    if uid is not None:
        os.chown(scratch, uid, uid)
    return scratch


def disk_usage(folder: Path) -> int:
    """Bytes of storage used under ``folder`` (allocated blocks, so sparse files count as they are)."""
    total = 0
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            try:
                total += os.lstat(os.path.join(root, name)).st_blocks * 512
            except OSError:
                pass
    return total
