"""Bots submitted as source: the manifest's build step (arena/build.py)."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena import build, sandbox
from arena.bots import load_bot
from arena.cli import cli
from arena.errors import BotError
from arena.record import BUILD_FAILED, OK
from arena.referee import TimeControl, play_match
from tests.conftest import surviving_children

FIXTURES = Path(__file__).parent / "misbehaving"
# Plays the first legal action; says whether it may write into its own folder and what the build left.
MAIN = textwrap.dedent('''\
    import sys
    from protocol.sdk import run
    try:
        open("scribble.txt", "w").write("x")
        print("folder: writable", file=sys.stderr)
    except OSError as exc:
        print(f"folder: not writable ({exc.strerror})", file=sys.stderr)
    print("built:", open("built.txt").read().strip(), file=sys.stderr)
    run(lambda observation, legal: legal[0])
''')


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("ARENA_BUILD_CACHE", str(folder))
    build.forget_failures()
    yield folder
    build.forget_failures()


def _bot(folder: Path, build_step: str, extra: str = "") -> Path:
    folder.mkdir()
    (folder / "bot.toml").write_text(f'name = "srcbot"\ncommand = "python3 main.py"\n'
                                     f'build = {json.dumps(build_step)}\n{extra}', encoding="utf-8")
    (folder / "main.py").write_text(MAIN, encoding="utf-8")
    return folder


def test_built_once_per_version_from_a_copy(tmp_path, random_bot):
    source = _bot(tmp_path / "src", "sh -c 'echo v1 > built.txt; echo compiling >&2'")
    bot = load_bot(source)
    started = []
    built = build.ensure_built(bot, on_start=started.append)
    assert started == [bot]
    assert (built.path / "built.txt").read_text().strip() == "v1"
    assert sorted(p.name for p in source.iterdir()) == ["bot.toml", "main.py"]  # source untouched
    assert built.content_hash() == bot.content_hash() and built.source == source
    assert build.ensure_built(bot, on_start=started.append).path == built.path
    assert len(started) == 1  # cached by content hash
    assert "compiling" in (built.path.parent / build.LOG).read_text()

    (source / "main.py").write_text(MAIN + "\n# a new version\n", encoding="utf-8")
    assert build.ensure_built(load_bot(source), on_start=started.append).path != built.path
    assert len(started) == 2



def test_builds_no_match_used_for_a_while_are_pruned(tmp_path, cache):
    """A league's cache holds the builds in use, not every version ever submitted: a new build
    removes those no match has played from for KEEP_DAYS; each use keeps a build fresh, and one
    that another process is building again is left alone."""
    import fcntl
    import os
    import time
    source = _bot(tmp_path / "src", "sh -c 'echo v1 > built.txt'")
    first = build.ensure_built(load_bot(source)).path.parent
    old = time.time() - (build.KEEP_DAYS + 1) * 86400
    os.utime(first, (old, old))
    build.ensure_built(load_bot(source))  # played from again: fresh
    assert first.stat().st_mtime > old + 86400
    os.utime(first, (old, old))
    busy = cache / ("b" * 64)
    (busy / build.DONE).mkdir(parents=True)
    os.utime(busy, (old, old))
    with open(cache / f"{busy.name}.lock", "w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)  # another process is building that version again
        (source / "main.py").write_text(MAIN + "\n# version 2\n", encoding="utf-8")
        second = build.ensure_built(load_bot(source)).path.parent  # a new build prunes
    assert second.is_dir() and busy.is_dir()
    assert not first.exists()
    assert not [p for p in cache.iterdir() if p.name.startswith("work-")]
    assert build.prune(cache) == [busy.name]  # no longer busy, still unused

def test_a_built_bot_plays_from_its_read_only_build(tmp_path, random_bot):
    bot = load_bot(_bot(tmp_path / "src", "sh -c 'echo yes > built.txt'"))
    record = play_match("block", [bot, random_bot], seed=3,
                        time_control=TimeControl(startup_ms=5000))
    status = record.statuses[0]
    assert status.status == OK, status
    assert "built: yes" in status.stderr_tail
    if sandbox.support().bwrap:
        assert "folder: not writable" in status.stderr_tail
    assert not (tmp_path / "src" / "scribble.txt").exists()
    assert not surviving_children()


def test_every_bot_is_built_before_the_first_is_started(tmp_path, random_bot):
    """A bot's start-up allowance (startup_ms) runs from its start: it must not be spent waiting
    for another seat's build (a first build takes seconds, more under load). So no bot starts
    before every seat's build is done."""
    source = _bot(tmp_path / "src", "sh -c 'echo v1 > built.txt'")
    bot = load_bot(source)
    unbuilt_at_start = []

    def launch(spec, limits):
        unbuilt_at_start.append(not any(build.cache_dir().rglob("built.txt")))
        return sandbox.start(spec, limits)

    record = play_match("block", [random_bot, bot], seed=1, launch=launch,
                        options={"max_deals": 1})
    assert [s.status for s in record.statuses] == [OK, OK], record.statuses
    assert unbuilt_at_start == [False, False]  # the random bot started after the build too
    assert surviving_children() == []


def test_a_failed_build_is_a_status_with_its_output(tmp_path, random_bot):
    bot = load_bot(_bot(tmp_path / "src", "sh -c 'echo \"main.c:3: error: missing ;\" >&2; exit 2'"))
    record = play_match("block", [random_bot, bot], seed=3)
    assert record.statuses[1].status == BUILD_FAILED
    assert "exited with code 2" in record.statuses[1].reason
    assert "main.c:3: error: missing ;" in record.statuses[1].stderr_tail
    assert record.statuses[0].status == OK and record.ranks == [1, 2]
    started = []
    with pytest.raises(build.BuildFailed):
        build.ensure_built(bot, on_start=started.append)
    assert started == []  # a failure is remembered for the life of the process


def test_arena_check_and_play_build_first_and_say_it_in_one_line():
    runner = CliRunner()
    result = runner.invoke(cli, ["check", str(FIXTURES / "build_fails"), "--game", "block"])
    assert result.exit_code == 1
    assert "build failed: build step `sh -c" in result.output
    assert "main.c:3: error: expected ;" in result.output
    assert "seat" not in result.output.split("problem(s) found")[1]  # no match was played
    played = runner.invoke(cli, ["play", "block", str(FIXTURES / "build_fails"),
                                 str(FIXTURES.parents[1] / ".." / "bots" / "random")])
    assert played.exit_code == 1 and "build failed" in played.output


def test_build_time_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "BUILD_SECONDS", 1)
    bot = load_bot(_bot(tmp_path / "src", "sleep 30"))
    with pytest.raises(build.BuildFailed, match="did not finish within 1 s"):
        build.ensure_built(bot)
    assert not surviving_children()


@pytest.mark.skipif(not sandbox.support().bwrap, reason="no bubblewrap: builds have the network")
def test_a_build_has_no_network(tmp_path):
    step = ("python3 -c \"import socket; socket.create_connection(('1.1.1.1', 80), timeout=3); "
            "open('built.txt', 'w').write('online')\"")
    with pytest.raises(build.BuildFailed) as failed:
        build.ensure_built(load_bot(_bot(tmp_path / "src", step)))
    assert "Network is unreachable" in failed.value.output
    assert "bots have no network" in failed.value.reason


def test_manifest_build_key(tmp_path):
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "bot.toml").write_text('command = "./bot"\nbuild = ["make", "bot"]\n')
    assert load_bot(folder).build == ("make", "bot")  # ./bot is made by the build
    (folder / "bot.toml").write_text('command = "./bot"\n')
    with pytest.raises(BotError, match="does not exist"):
        load_bot(folder)
    (folder / "bot.toml").write_text('command = "./bot"\nbuild = 3\n')
    with pytest.raises(BotError, match="'build' must be a string or a list"):
        load_bot(folder)
    (folder / "bot.toml").write_text('command = "./bot"\nbuild = "no-such-compiler x"\n')
    with pytest.raises(BotError, match="no-such-compiler"):
        load_bot(folder)


def test_a_build_that_fills_its_folder_is_stopped(tmp_path, monkeypatch):
    step = "sh -c 'echo start; dd if=/dev/zero of=big bs=1M count=50 2>/dev/null; sleep 5'"
    with pytest.raises(build.BuildFailed, match="larger than 2 MiB, the most a bot folder") as failed:
        build.ensure_built(load_bot(_bot(tmp_path / "src", step), folder_mb=2))
    assert "start" in failed.value.output
    assert not surviving_children()
