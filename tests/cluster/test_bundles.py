"""Bot folders as bundles: packed deterministically, keyed by their content hash, unpacked once
into the worker's cache and refused unless they hash to their key. No cluster needed."""
from __future__ import annotations

import io
import os
import shutil
import stat
import sys
import tarfile
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.bots import folder_hash
from arena.errors import ArenaError
from arena.sandbox import files, users
from tournaments import cluster
from tournaments.cluster import BundleError, bot_folder, pack_folder
from tournaments.config import parse_config

from ..tournaments.conftest import HASH_BOT, make_bot


@pytest.fixture()
def bot(tmp_path: Path) -> Path:
    folder = make_bot(tmp_path / "src", "alpha", HASH_BOT, "a")
    (folder / "lib").mkdir()
    (folder / "lib" / "weights.bin").write_bytes(bytes(range(256)) * 10)
    (folder / "run.sh").write_text("#!/bin/sh\nexec python3 main.py\n")
    os.chmod(folder / "run.sh", 0o700)
    (folder / "empty").mkdir()
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "main.cpython-311.pyc").write_bytes(b"junk")
    os.symlink("lib", folder / "lib-link")              # a link to a folder inside: kept
    os.symlink("main.py", folder / "main-link.py")      # a link to a file: kept (never followed)
    return folder


@pytest.fixture()
def cache() -> Iterator[Path]:
    """A cache folder where, as in ``<tmp>/arena-bots``, other users may traverse."""
    root = Path(tempfile.mkdtemp(prefix="arena-bots-test-", dir=files.temp_base()))
    os.chmod(root, 0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def test_a_bundle_is_keyed_by_the_folders_content_hash_and_deterministic(bot: Path) -> None:
    first, second = pack_folder(bot), pack_folder(bot)
    assert first.digest == folder_hash(bot)
    assert first.data == second.data                   # same folder, same bytes
    (bot / "lib" / "weights.bin").write_bytes(b"other")
    assert pack_folder(bot).digest == folder_hash(bot) != first.digest


def test_unpacked_once_verified_and_readable_by_a_bot_user(bot: Path, cache: Path) -> None:
    bundle = pack_folder(bot)
    folder = bot_folder(bundle.digest, bundle.data, cache)
    assert folder == cache / bundle.digest
    assert folder_hash(folder) == bundle.digest
    assert (folder / "main.py").read_text() == (bot / "main.py").read_text()
    assert not (folder / "__pycache__").exists() and (folder / "empty").is_dir()
    assert (folder / "lib-link").is_symlink() and os.readlink(folder / "lib-link") == "lib"
    assert (folder / "main-link.py").is_symlink() and os.readlink(folder / "main-link.py") == "main.py"
    assert stat.S_IMODE(os.stat(folder / "run.sh").st_mode) == 0o755     # executable stays so
    assert stat.S_IMODE(os.stat(folder / "main.py").st_mode) == 0o644
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o755
    if users.is_root():  # the sandbox mounts it in place for a bot's user: no per-match copy
        assert files.readable_in_place(folder, users.UID_BASE)
    # a second use neither unpacks nor needs the data
    inode = os.stat(folder).st_ino
    assert bot_folder(bundle.digest, lambda: pytest.fail("unpacked again"), cache) == folder
    assert os.stat(folder).st_ino == inode
    assert not [p for p in cache.iterdir() if p.name.startswith(".tmp-")]


def test_a_bundle_that_does_not_hash_to_its_key_is_refused(bot: Path, cache: Path,
                                                           tmp_path: Path) -> None:
    other = pack_folder(make_bot(tmp_path / "src", "beta", HASH_BOT, "b"))
    key = pack_folder(bot).digest
    with pytest.raises(BundleError, match=f"bot bundle {key[:12]} unpacks to files whose hash is "
                                          f"{other.digest[:12]}, not its key: refused"):
        bot_folder(key, other.data, cache)
    assert not (cache / key).exists()
    assert not [p for p in cache.iterdir() if p.name.startswith(".tmp-")]
    with pytest.raises(BundleError, match="could not be unpacked"):
        bot_folder(key, b"not a bundle", cache)
    with pytest.raises(BundleError, match="not a bundle key"):
        bot_folder("../../etc", other.data, cache)


def _bundle_of(*entries: tuple[str, bytes, str]) -> bytes:
    """A bundle as a hostile sender could make one: (name, tar type, link target) entries."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, kind, link in entries:
            info = tarfile.TarInfo(name)
            info.type, info.linkname, info.mode = kind, link, 0o644
            data = b"payload" if kind == tarfile.REGTYPE else b""
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return zlib.compress(raw.getvalue())


F, D, L = tarfile.REGTYPE, tarfile.DIRTYPE, tarfile.SYMTYPE


@pytest.mark.parametrize("entries, reason", [
    ([("../escaped", F, "")], "'../escaped' is not a plain path inside the bot folder"),
    ([("/tmp/escaped", F, "")], "'/tmp/escaped' is not a plain path"),
    ([("a/./b", F, "")], "'a/./b' is not a plain path"),
    ([("out", L, "/tmp"), ("main.py", F, "")], "'out' links to /tmp, outside the bot folder"),
    ([("lib", D, ""), ("lib/up", L, "../..")], "'lib/up' links to ../.., outside the bot folder"),
    ([("in", L, "lib"), ("lib", D, ""), ("in/escaped", F, "")], "'in/escaped' lies under a link"),
    ([("main.py", F, ""), ("hard", tarfile.LNKTYPE, "main.py")], "'hard' is neither a file"),
    ([("zero", tarfile.CHRTYPE, "")], "'zero' is neither a file"),
    ([("pipe", tarfile.FIFOTYPE, "")], "'pipe' is neither a file"),
])
def test_a_bundle_with_anything_pack_folder_never_writes_is_refused_unopened(
        cache: Path, entries: list, reason: str) -> None:
    """Nothing of a refused bundle is written, in the cache or outside it (where ``../escaped``
    from the unpacking folder in the cache, or ``/tmp/escaped``, would land)."""
    data = _bundle_of(*entries)
    with pytest.raises(BundleError, match=f"could not be unpacked .*{reason}"):
        bot_folder("0" * 64, data, cache)
    assert list(cache.iterdir()) == []
    assert not (cache.parent / "escaped").exists() and not Path("/tmp/escaped").exists()


def test_unpacking_needs_no_extraction_filter_of_tarfile(bot: Path, cache: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Python before 3.11.4 (Debian 12's is 3.11.2) has no ``filter`` for ``extractall`` and no
    ``tarfile.data_filter``: unpacking works there all the same."""
    def extractall(self, path=".", members=None, *, numeric_owner=False):  # 3.11.2's signature
        raise AssertionError("unpacked by tarfile's extraction, whose safety filters need 3.11.4")
    monkeypatch.setattr(tarfile.TarFile, "extractall", extractall)
    monkeypatch.delattr(tarfile, "data_filter", raising=False)
    bundle = pack_folder(bot)
    assert folder_hash(bot_folder(bundle.digest, bundle.data, cache)) == bundle.digest


def test_a_cached_folder_that_changed_is_replaced_from_the_bundle(bot: Path, cache: Path) -> None:
    bundle = pack_folder(bot)
    folder = bot_folder(bundle.digest, bundle.data, cache)
    (folder / "main.py").write_text("print('tampered')\n")
    assert bot_folder(bundle.digest, bundle.data, cache) == folder
    assert folder_hash(folder) == bundle.digest
    # a half-written folder left by another process is replaced too
    cluster.forget_verified()
    (folder / "lib" / "weights.bin").unlink()
    assert folder_hash(bot_folder(bundle.digest, bundle.data, cache)) == bundle.digest


def test_a_link_to_a_folder_outside_the_bot_is_refused(bot: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", bot / "data")
    with pytest.raises(BundleError, match="'data' links to .*outside the bot folder"):
        pack_folder(bot)


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom", "/etc/hostname", "../../outside"])
def test_a_link_out_of_the_bot_is_never_read_and_refused(bot: Path, target: str) -> None:
    """A link to a device or a file outside the folder is not followed (reading /dev/zero would
    never end): refused with one line naming it."""
    os.symlink(target, bot / "weights.bin")
    with pytest.raises(BundleError, match=f"'weights.bin' links to {target}, outside the bot folder"):
        pack_folder(bot)


def test_a_fifo_or_an_oversized_bot_folder_is_refused(bot: Path) -> None:
    os.mkfifo(bot / "lib" / "pipe")
    with pytest.raises(BundleError, match="'lib/pipe' is a FIFO"):
        pack_folder(bot)                                  # no hang: the FIFO is never opened
    (bot / "lib" / "pipe").unlink()
    (bot / "big.bin").write_bytes(b"x" * (2 << 20))
    with pytest.raises(BundleError, match="'big.bin' takes its files over 1 MiB"):
        pack_folder(bot, max_bytes=1 << 20)


def test_the_cache_must_not_be_writable_by_others(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    monkeypatch.setenv(cluster.CACHE_ENV, str(shared))
    with pytest.raises(BundleError, match="no one else can write"):
        cluster.cache_root()


def test_without_dask_a_clear_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(ArenaError, match=r"pip install '\.\[cluster\]' in arena's folder"):
        cluster.DaskBackend("tcp://127.0.0.1:8786")


def test_the_cluster_key_does_not_change_the_tournament(tmp_path: Path, bot: Path) -> None:
    base = {"game": "block", "entrants": [str(bot), {"path": str(bot), "name": "twin"}]}
    local = parse_config(base, base_dir=tmp_path)
    remote = parse_config({**base, "cluster": "tcp://10.0.0.1:8786"}, base_dir=tmp_path)
    assert local.cluster is None and remote.cluster == "tcp://10.0.0.1:8786"
    assert local.identity() == remote.identity()        # a run may resume on or off the cluster
    assert type(remote).from_dict(remote.to_dict()) == remote
    with pytest.raises(ArenaError, match="'cluster' is empty"):
        parse_config({**base, "cluster": " "}, base_dir=tmp_path)


def test_a_bundle_is_compressed(bot: Path) -> None:
    bundle = pack_folder(bot)
    assert len(bundle.data) < len(zlib.decompress(bundle.data))
