"""Odd things in a bot folder: a FIFO, a socket, links out of the folder (to ``/dev/zero``,
``/dev/urandom``, ``/etc``), a link leading nowhere, more files than the folder limit.

Reading, hashing, copying (staging) or packing a bot folder never follows a link and never opens
a FIFO; a bad folder is refused with one line naming the entry, before any match starts, by
``load_bot``, ``arena play``, ``arena check`` and ``arena tournament run`` alike. The commands run
in a child process with a deadline (and a memory cap), so a regression hangs or eats memory
there, not here.
"""
from __future__ import annotations

import os
import resource
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from arena.bots import folder_hash, load_bot
from arena.errors import BotError
from arena.record import OK
from arena.referee import TimeControl, play_match
from arena.sandbox import Limits, files
from tests.conftest import BOTS, ROOT, surviving_children
from tests.sandbox.conftest import IS_ROOT

MiB = 1 << 20
COMMAND_SECONDS = 60   # far more than a refusal takes; a hang ends here


def random_copy(where: Path, name: str = "odd") -> Path:
    folder = where / name
    shutil.copytree(BOTS / "random", folder)
    (folder / "bot.toml").write_text(f'name = "{name}"\ncommand = "python3 main.py"\n')
    return folder


def add_fifo(folder: Path) -> str:
    os.mkfifo(folder / "pipe")
    return "'pipe' is a FIFO"


def add_socket(folder: Path) -> str:
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(folder / "sock"))
    finally:
        sock.close()
    return "'sock' is a socket"


def add_link(target: str, name: str = "weights.bin"):
    def add(folder: Path) -> str:
        os.symlink(target, folder / name)
        return f"{name!r} links to {target}, outside the bot folder"
    return add


def add_deep_link(folder: Path) -> str:
    (folder / "data").mkdir()
    os.symlink("../../escape", folder / "data" / "up")
    return "'data/up' links to ../../escape, outside the bot folder"


def add_link_chain(folder: Path) -> str:
    """``sub/d -> ..`` leads to the top, so ``sub/e -> d/..`` climbs out of the folder: each
    link read alone stays inside."""
    (folder / "sub").mkdir()
    os.symlink("..", folder / "sub" / "d")
    os.symlink("d/..", folder / "sub" / "e")
    return "'sub/e' links to d/.., outside the bot folder"


def add_link_through_a_link(folder: Path) -> str:
    """``sub/d -> ..`` is the top, so ``a -> sub/d/..`` is the folder above it."""
    (folder / "sub").mkdir()
    os.symlink("sub/d/..", folder / "a")
    os.symlink("..", folder / "sub" / "d")
    return "'a' links to sub/d/.., outside the bot folder"


def add_link_loop(folder: Path) -> str:
    os.symlink("loop2", folder / "loop1")
    os.symlink("loop1/x", folder / "loop2")
    return "'loop1' links to loop2, outside the bot folder"


def add_big_file(folder: Path) -> str:
    (folder / "model.bin").write_bytes(b"\0" * (65 * MiB))  # sparse on disk, 65 MiB of bytes
    return "'model.bin' takes its files over 64 MiB, the most a bot folder may hold"


BAD = {
    "fifo": add_fifo,
    "socket": add_socket,
    "link_dev_zero": add_link("/dev/zero"),
    "link_dev_urandom": add_link("/dev/urandom"),
    "link_absolute_file": add_link("/etc/hostname"),
    "link_up_and_out": add_deep_link,
    "link_chain_out": add_link_chain,
    "link_through_a_link": add_link_through_a_link,
    "link_loop": add_link_loop,
    "too_big": add_big_file,
}


@pytest.fixture(params=sorted(BAD))
def bad_bot(request, tmp_path):
    folder = random_copy(tmp_path)
    words = BAD[request.param](folder)
    return folder, words


def test_load_bot_refuses_a_bad_folder_naming_the_entry(bad_bot):
    folder, words = bad_bot
    with pytest.raises(BotError) as info:
        load_bot(folder)
    message = str(info.value)
    assert words in message and str(folder) in message and "\n" not in message


def test_the_folder_limit_is_a_setting(tmp_path):
    folder = random_copy(tmp_path)
    (folder / "model.bin").write_bytes(b"x" * (2 * MiB))
    with pytest.raises(BotError, match="'model.bin' takes its files over 1 MiB"):
        load_bot(folder, folder_mb=1)
    assert load_bot(folder, folder_mb=3).name == "odd"
    assert Limits().folder_mb == 64 and Limits.parse("folder_mb=3").folder_mb == 3
    with pytest.raises(BotError, match="over 1 MiB"):  # the hash reads no more than the limit
        folder_hash(folder, 1 * MiB)


def test_a_link_inside_the_folder_is_kept_never_followed_even_if_it_leads_nowhere(tmp_path):
    folder = random_copy(tmp_path)
    os.symlink("missing.bin", folder / "dangling")
    os.symlink("main.py", folder / "alias.py")
    bot = load_bot(folder)
    digest = bot.content_hash()                         # no traceback on the dangling link
    os.unlink(folder / "alias.py")
    os.symlink("bot.toml", folder / "alias.py")
    assert bot.content_hash() != digest                 # where a link points is part of the hash


def test_a_file_name_that_is_not_utf8_is_hashed_and_staged(tmp_path):
    folder = random_copy(tmp_path)
    with open(os.path.join(os.fsencode(folder), b"data-\xff.bin"), "wb") as f:
        f.write(b"weights")
    bot = load_bot(folder)
    assert len(bot.content_hash()) == 64
    stage = files.stage_bot(folder, os.getgid())
    try:
        assert os.path.exists(os.path.join(os.fsencode(stage), b"bot", b"data-\xff.bin"))
    finally:
        shutil.rmtree(stage)


def test_a_manifest_that_is_a_link_is_refused(tmp_path):
    folder = random_copy(tmp_path)
    (folder / "bot.toml").unlink()
    os.symlink("/dev/zero", folder / "bot.toml")
    with pytest.raises(BotError, match="is a link|outside the bot folder"):
        load_bot(folder)


def test_staging_copies_links_as_links_and_never_opens_a_fifo(tmp_path):
    """The per-match copy of a folder its bot's user may not read in place: a FIFO that appears
    after the folder was loaded is refused at once (an OSError: the bot could not be started)."""
    folder = random_copy(tmp_path)
    os.symlink("main.py", folder / "alias.py")
    os.symlink("nowhere", folder / "dangling")
    stage = files.stage_bot(folder, os.getgid())
    try:
        assert os.readlink(stage / "bot" / "alias.py") == "main.py"
        assert os.readlink(stage / "bot" / "dangling") == "nowhere"
        assert (stage / "bot" / "main.py").read_bytes() == (folder / "main.py").read_bytes()
    finally:
        shutil.rmtree(stage)
    os.mkfifo(folder / "pipe")
    ours = f"arena-stage-{os.getpid()}-*"                # other referees may stage meanwhile
    before = set(files.temp_base().glob(ours))
    with pytest.raises(OSError, match="'pipe' is a FIFO"):
        files.stage_bot(folder, os.getgid())
    with pytest.raises(OSError, match="over 1 MiB"):
        (folder / "pipe").unlink()
        (folder / "model.bin").write_bytes(b"x" * (2 * MiB))
        files.stage_bot(folder, os.getgid(), 1 * MiB)
    assert set(files.temp_base().glob(ours)) == before  # nothing left behind


@pytest.mark.slow
@pytest.mark.root
@pytest.mark.skipif(not IS_ROOT, reason="a staged copy is made for a bot user: needs root")
def test_a_bot_with_a_link_leading_nowhere_plays_from_its_staged_copy(tmp_path, random_bot):
    folder = random_copy(tmp_path)
    os.chmod(tmp_path, 0o700)                           # its user cannot read it in place
    os.symlink("missing.bin", folder / "dangling")
    record = play_match("block", [load_bot(folder), random_bot], seed=3,
                        time_control=TimeControl(move_ms=1000, bank_ms=5000, startup_ms=10000),
                        limits=Limits(sandbox="rlimits"))
    assert [s.status for s in record.statuses] == [OK, OK], record.statuses
    assert surviving_children() == []


# ----- the commands: one line, exit code 2, before any match ---------------------------------

def run_arena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    def cap_memory() -> None:  # reading /dev/zero without end would be stopped here
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "arena", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=COMMAND_SECONDS,
                          preexec_fn=cap_memory)


def assert_refused(result: subprocess.CompletedProcess, words: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arena: error: "), result.stderr
    assert words in lines[0], lines[0]
    assert "Traceback" not in result.stderr and "result:" not in result.stdout


@pytest.mark.slow  # a child process running the command
def test_arena_play_refuses_a_bad_folder(bad_bot, tmp_path):
    folder, words = bad_bot
    assert_refused(run_arena("play", "block", str(folder), str(BOTS / "random"), cwd=tmp_path), words)


@pytest.mark.slow  # a child process running the command
def test_arena_check_refuses_a_bad_folder(bad_bot, tmp_path):
    folder, words = bad_bot
    assert_refused(run_arena("check", str(folder), "--game", "block", cwd=tmp_path), words)


@pytest.mark.slow  # a child process running the command
def test_arena_tournament_run_refuses_a_bad_folder_before_any_match(bad_bot, tmp_path):
    folder, words = bad_bot
    config = tmp_path / "t.toml"
    config.write_text(f'name = "t"\ngame = "block"\nentrants = ["{folder}", "{BOTS / "random"}"]\n'
                      f'output = "{tmp_path / "out"}"\n')
    result = run_arena("tournament", "run", str(config), cwd=tmp_path)
    assert_refused(result, words)
    assert not (tmp_path / "out" / "tournament.sqlite").exists()


@pytest.mark.slow  # a child process running the command
def test_the_folder_limit_is_set_with_limits_and_in_a_tournament(tmp_path):
    folder = random_copy(tmp_path)
    (folder / "model.bin").write_bytes(b"x" * (2 * MiB))
    result = run_arena("play", "block", str(folder), str(BOTS / "random"), "--limits", "folder_mb=1",
                       cwd=tmp_path)
    assert_refused(result, "'model.bin' takes its files over 1 MiB")
    config = tmp_path / "t.toml"
    config.write_text(f'name = "t"\ngame = "block"\nentrants = ["{folder}", "{BOTS / "random"}"]\n'
                      f'output = "{tmp_path / "out"}"\n[limits]\nfolder_mb = 1\n')
    assert_refused(run_arena("tournament", "run", str(config), cwd=tmp_path),
                   "'model.bin' takes its files over 1 MiB")
