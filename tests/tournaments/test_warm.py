"""Bots started ahead of their match: handed out alive, never reused, the rest killed."""
from __future__ import annotations

import os
import time

from arena import build
from arena.bots import load_bot
from arena.referee import play_match
from arena.sandbox import Limits
from tests.conftest import surviving_children
from tournaments.warm import WarmStarts


def test_a_bot_started_ahead_is_alive_when_its_match_begins(random_bot):
    warm = WarmStarts()
    limits = Limits()
    warm.prepare([random_bot, random_bot], limits)
    warm._idle.wait()
    ready = list(warm._ready[(random_bot, limits)])
    assert len(ready) == 2
    time.sleep(0.5)  # the starting thread has long finished its request: the bots must live on
    assert all(p.proc.poll() is None for p in ready)
    if os.geteuid() == 0:  # each bot has a uid of its own: they wait at the lowest priority
        assert all(os.getpriority(os.PRIO_USER, p.uid) == 19 for p in ready)
    launched = []

    playing_priorities: list[int] = []

    def launch(bot, lim):
        launched.append(warm.launch(bot, lim))
        return launched[-1]

    def on_event(_event):
        if os.geteuid() == 0 and not playing_priorities:  # and they play at the normal one
            playing_priorities.extend(os.getpriority(os.PRIO_USER, p.uid) for p in launched)

    record = play_match("block", [random_bot, random_bot], seed=3, limits=limits, launch=launch,
                        on_event=on_event)
    assert not record.failed, record.statuses
    assert {id(p) for p in launched} == {id(p) for p in ready}  # the warm ones, each once
    if os.geteuid() == 0:  # the referee's own priority: 0, or what `nice` gave the test run
        assert playing_priorities == [os.getpriority(os.PRIO_PROCESS, 0)] * 2
    assert warm._ready[(random_bot, limits)] == []
    warm.launch(random_bot, limits).kill()  # nothing warm left: a new one is started
    assert surviving_children() == []


def test_unused_warm_bots_are_killed(random_bot):
    warm = WarmStarts()
    warm.prepare([random_bot], Limits())
    warm._idle.wait()
    (process,) = warm._ready[(random_bot, Limits())]
    warm.discard()
    assert process.proc.poll() is not None
    assert surviving_children() == []


def test_a_warm_bot_is_the_same_bot_with_the_same_limits(random_bot):
    warm = WarmStarts()
    warm.prepare([random_bot], Limits(memory_mb=512))
    fresh = warm.launch(random_bot, Limits())  # other limits: not the warm one
    assert fresh.limits == Limits()
    fresh.kill()
    warm.discard()
    assert surviving_children() == []


def test_a_bot_with_a_build_step_is_started_ahead_from_its_build(tmp_path, monkeypatch,
                                                                  random_bot):
    """The referee launches a bot from its build: the bot started ahead is that one."""
    monkeypatch.setenv("ARENA_BUILD_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "src"
    source.mkdir()
    (source / "bot.toml").write_text('name = "built"\ncommand = "python3 main.py"\n'
                                     'build = "cp play.py main.py"\n', encoding="utf-8")
    (source / "play.py").write_text("from protocol.sdk import run\n"
                                    "run(lambda observation, legal: legal[0])\n", encoding="utf-8")
    bot = load_bot(source)
    warm = WarmStarts()
    limits = Limits()
    try:
        warm.prepare([bot, random_bot], limits)
        record = play_match("block", [bot, random_bot], seed=3, limits=limits,
                            launch=warm.launch)
        assert not record.failed, record.statuses
        assert warm.handed_out == 2  # both the warm ones, the built bot too
        assert not (source / "main.py").exists()  # it played from its build
    finally:
        warm.discard()
        build.forget_failures()
    assert surviving_children() == []
