"""An upload made into a bot folder, or refused in one line, with nothing written outside its own
folder (issues 46, 47): real archives built here, byte by byte where a tool would refuse."""
from __future__ import annotations

import io
import os
import stat
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from contest.uploads import Limits, UploadError, unpack

SMALL = Limits(upload_bytes=1 << 20, unpacked_bytes=1 << 20, files=20)
MAIN = b"from protocol.sdk import run\nrun(lambda o, l: l[0])\n"
MANIFEST = b'name = "mybot"\ncommand = "python3 main.py"\nauthor = "Ana"\n'


def tar_gz(*members: tuple[tarfile.TarInfo, bytes | None]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            archive.addfile(info, io.BytesIO(data) if data is not None else None)
    return buffer.getvalue()


def entry(name: str, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = link
    info.mode = 0o644
    return info


def zipped(files: dict[str, bytes], modes: dict[str, int] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            if modes and name in modes:
                info.external_attr = modes[name] << 16
            archive.writestr(info, data)
    return buffer.getvalue()


def everything_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def test_a_folder_in_an_archive_becomes_the_bot_and_its_name_the_authors(tmp_path: Path) -> None:
    data = tar_gz((entry("mybot", tarfile.DIRTYPE), None), (entry("mybot/main.py"), MAIN),
                  (entry("mybot/bot.toml"), MANIFEST))
    unpack(data, "mybot.tar.gz", tmp_path / "ana", "ana", SMALL)
    assert everything_under(tmp_path / "ana") == {"main.py", "bot.toml"}   # the top folder stripped
    manifest = tomllib.loads((tmp_path / "ana" / "bot.toml").read_text())
    assert manifest == {"name": "ana", "command": "python3 main.py"}        # unknown keys dropped
    unpack(zipped({"main.py": MAIN, "bot.toml": MANIFEST}), "b.zip", tmp_path / "bob", "bob", SMALL)
    assert everything_under(tmp_path / "bob") == {"main.py", "bot.toml"}


@pytest.mark.parametrize("filename, command, build", [
    ("bot.py", ["python3", "bot.py"], None),
    ("bot.js", ["node", "bot.js"], None),
    ("bot.c", ["./bot"], ["gcc", "-O2", "-o", "bot", "bot.c", "-lm"]),
    ("main.rs", ["./bot"], ["rustc", "-O", "-o", "bot", "main.rs"]),
])
def test_one_source_file_gets_a_manifest_by_its_language(tmp_path: Path, filename: str,
                                                         command: list[str], build) -> None:
    unpack(b"// a bot\n", filename, tmp_path / "ana", "ana", SMALL)
    manifest = tomllib.loads((tmp_path / "ana" / "bot.toml").read_text())
    assert manifest["name"] == "ana" and manifest["command"] == command
    assert manifest.get("build") == build


BAD = {
    "dot-dot": (lambda: tar_gz((entry("../evil.py"), b"x")), "climbs out of the folder"),
    "absolute": (lambda: tar_gz((entry("/tmp/evil.py"), b"x")), "absolute path"),
    "symlink": (lambda: tar_gz((entry("main.py", tarfile.SYMTYPE, "/etc/passwd"), None)),
                "is a symbolic link"),
    "hard link": (lambda: tar_gz((entry("a.py"), b"x"), (entry("b.py", tarfile.LNKTYPE, "a.py"), None)),
                  "is a hard link"),
    "device": (lambda: tar_gz((entry("dev", tarfile.CHRTYPE), None)), "is a device or a FIFO"),
    "fifo": (lambda: tar_gz((entry("pipe", tarfile.FIFOTYPE), None)), "is a device or a FIFO"),
    "newline": (lambda: tar_gz((entry("a\nb.py"), b"x")), "control character"),
    "nul in zip": (lambda: zipped({"a\x1bb.py": b"x"}), "control character"),
    "bidi": (lambda: tar_gz((entry("gnp.\u202eexe"), b"x")), "control character"),
    "case": (lambda: tar_gz((entry("Main.py"), b"x"), (entry("main.py"), b"y")),
             "differ only in letter case"),
    "zip symlink": (lambda: zipped({"link": b"/etc/passwd"}, {"link": stat.S_IFLNK | 0o777}),
                    "is a symbolic link"),
    "too many files": (lambda: tar_gz(*((entry(f"f{i}.py"), b"x") for i in range(21))),
                       "more than 20 files"),
    "bomb": (lambda: zipped({"main.py": MAIN, "bot.toml": MANIFEST, "zeros": b"\0" * (3 << 20)}),
             "unpacks to more than 1 MB"),
    "no manifest": (lambda: tar_gz((entry("main.py"), MAIN)), "holds no bot.toml"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_hostile_archive_is_refused_in_one_line_and_nothing_lands_outside(tmp_path: Path,
                                                                            case: str) -> None:
    make, words = BAD[case]
    data = make()
    name = "bot.zip" if data.startswith(b"PK") else "bot.tar.gz"
    inside = tmp_path / "box"
    inside.mkdir()
    with pytest.raises(UploadError) as info:
        unpack(data, name, inside / "ana", "ana", SMALL)
    assert words in str(info.value) and "\n" not in str(info.value)
    assert [p.name for p in tmp_path.iterdir()] == ["box"]            # nothing beside its folder
    assert {p.name for p in inside.iterdir()} <= {"ana"}
    assert not (tmp_path / "evil.py").exists() and not Path("/tmp/evil.py").exists()


def test_a_zip_bomb_stops_while_unpacking_not_after(tmp_path: Path) -> None:
    """A few KB that would unpack to 64 MB: refused once the 1 MB limit is passed, with at most
    the limit (and one chunk) written."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("bomb.bin", "w", force_zip64=True) as out:
            for _ in range(64):
                out.write(b"\0" * (1 << 20))
    data = buffer.getvalue()
    assert len(data) < 1 << 20
    with pytest.raises(UploadError, match="unpacks to more than 1 MB"):
        unpack(data, "b.zip", tmp_path / "ana", "ana", SMALL)
    written = sum(p.stat().st_size for p in (tmp_path / "ana").rglob("*") if p.is_file())
    assert written <= (1 << 20) + (1 << 16)


@pytest.mark.parametrize("data, name, words", [
    (b"PK\x03\x04 not really", "bot.zip", "cannot be read"),
    (b"\x1f\x8b\x08\x00 cut", "bot.tar.gz", "cannot be read"),
    (b"just text", "bot.zip", "is not a zip archive"),
    (b"PK\x03\x04", "bot.tar.gz", "is not a gzip-compressed tar archive"),
    (b"MZ\x90\x00", "bot.exe", "hand in a .zip or .tar.gz"),
    (b"x" * (SMALL.upload_bytes + 1), "bot.py", "over the limit"),
])
def test_a_corrupt_or_mislabelled_upload_is_refused(tmp_path: Path, data: bytes, name: str,
                                                    words: str) -> None:
    with pytest.raises(UploadError, match=words):
        unpack(data, name, tmp_path / "ana", "ana", SMALL)


def test_a_truncated_archive_is_refused(tmp_path: Path) -> None:
    data = tar_gz((entry("main.py"), MAIN * 500), (entry("bot.toml"), MANIFEST))
    with pytest.raises(UploadError, match="damaged or cut short|cannot be read"):
        unpack(data[: len(data) // 2], "bot.tar.gz", tmp_path / "ana", "ana", SMALL)
    assert not os.path.exists(tmp_path / "evil")


def test_the_server_keeps_a_core_for_its_pages_and_checks(tmp_path: Path) -> None:
    """At the deadline the matches would take every core, and the pages wait (docs/serve.md:
    95th percentile 220-263 ms with both cores playing, 72 ms with one): by default the contest
    plays on one core fewer; a config's `workers` or --workers is taken as it is."""
    from contest.cli import serve_workers
    from tournaments.backends import default_workers
    from tournaments.config import parse_config

    def config(**more: object):
        return parse_config({"name": "C", "game": "block", "entrants": ["submissions/*"], **more},
                            base_dir=tmp_path, source="test", stem="c")

    assert serve_workers(config(), None) == max(1, default_workers() - 1)
    assert serve_workers(config(), 3) == 3
    assert serve_workers(config(workers=2), None) is None  # the run reads the config's own
