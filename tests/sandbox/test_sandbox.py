"""The sandbox itself: levels and their fallback, strict mode, limits, the interpreter question,
non-Python bots, staging, per-bot users, and the hints that name a limit."""
from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import time

import pytest

from arena import sandbox
from arena.bots import BotSpec, load_bot
from arena.errors import ArenaError
from arena.record import OK
from arena.referee import TimeControl, play_match
from arena.sandbox import Limits, levels, users
from tests.sandbox.conftest import FRIENDLY, HAVE_BWRAP, IS_ROOT, LEVELS, NO_BWRAP, assert_nothing_survives

TC = TimeControl(move_ms=2000, bank_ms=2000, startup_ms=5000)


@pytest.fixture
def no_bwrap(monkeypatch):
    """This machine, as if bubblewrap were not installed."""
    monkeypatch.setattr(levels, "BWRAP_PROGRAM", "/nonexistent/bwrap")
    sandbox.reset()
    yield
    monkeypatch.undo()
    sandbox.reset()


# ----- levels -------------------------------------------------------------------------------------

def test_full_isolation_where_bubblewrap_works(spy, random_bot):
    if not HAVE_BWRAP:
        pytest.skip(NO_BWRAP)
    record = play_match("block", [random_bot, random_bot], seed=2, time_control=TC)
    assert record.sandbox == "bwrap"
    assert [s.status for s in record.statuses] == [OK, OK]
    assert_nothing_survives(spy)


@pytest.mark.parametrize("level", LEVELS)
def test_sh_bot_and_python_bot_play_in_the_sandbox(level, spy, random_bot):
    """Non-Python bots work too: sh, dd, od and awk (through /etc/alternatives) inside the sandbox."""
    record = play_match("block", [load_bot(FRIENDLY / "sh_bot"), random_bot], seed=5, time_control=TC,
                        limits=Limits(sandbox=level))
    assert [s.status for s in record.statuses] == [OK, OK], record.statuses
    assert len(record.decisions) > 10
    assert_nothing_survives(spy)


def test_fallback_warns_once_and_is_recorded(no_bwrap, caplog, spy, random_bot):
    with caplog.at_level(logging.WARNING, logger="arena.sandbox"):
        records = [play_match("block", [random_bot, random_bot], seed=s, time_control=TC)
                   for s in (1, 2)]
    expected = "rlimits" if IS_ROOT else "process-group"
    assert [r.sandbox for r in records] == [expected, expected]
    assert all(s.status == OK for r in records for s in r.statuses)
    warnings = [r.getMessage() for r in caplog.records if r.name == "arena.sandbox"]
    assert len(warnings) == 1, warnings
    assert "WITHOUT full isolation" in warnings[0] and "apt-get install bubblewrap" in warnings[0]
    assert "strict=true" in warnings[0]
    assert_nothing_survives(spy)


def test_strict_mode_refuses_to_run_without_bubblewrap(no_bwrap, spy, random_bot):
    with pytest.raises(ArenaError, match=r"strict sandbox: .*bubblewrap \(bwrap\) is not installed"):
        play_match("block", [random_bot, random_bot], time_control=TC, limits=Limits(strict=True))
    assert spy.processes == []
    with pytest.raises(ArenaError, match="'bwrap' was asked for"):
        play_match("block", [random_bot, random_bot], time_control=TC, limits=Limits(sandbox="bwrap"))


def test_strict_mode_runs_with_bubblewrap(random_bot):
    if not HAVE_BWRAP:
        pytest.skip(NO_BWRAP)
    record = play_match("block", [random_bot, random_bot], time_control=TC, limits=Limits(strict=True))
    assert record.sandbox == "bwrap" and not record.failed


def test_a_level_that_cannot_hold_is_refused():
    if IS_ROOT:
        level, why = "process-group", "would run bots as root"
    else:
        level, why = "rlimits", "needs a referee running as root"
    with pytest.raises(ArenaError, match=why):
        sandbox.start(BotSpec("x", FRIENDLY / "sh_bot", ("sh", "main.sh")), Limits(sandbox=level))


# ----- the bot's world --------------------------------------------------------------------------

@pytest.mark.parametrize("level", LEVELS)
def test_bot_folder_its_user_cannot_read_is_staged(level, tmp_path, spy, random_bot):
    """pytest's tmp_path is private to root: the bot gets a copy it can read, and the copy goes."""
    folder = tmp_path / "student"
    shutil.copytree(random_bot.path, folder)
    (folder / "main.py").chmod(0o600)
    student = load_bot(folder)
    record = play_match("block", [student, random_bot], seed=3, time_control=TC, limits=Limits(sandbox=level))
    assert [s.status for s in record.statuses] == [OK, OK], record.statuses
    staged = [p._stage for p in spy.processes]
    if spy.processes[0].forked:  # the fork server stages the folder once, for its whole life
        from arena.sandbox import zygote
        staged = [zygote.for_bot(b)._stage for b in (student, random_bot)]
        assert staged[0] is not None and staged[0].exists() and staged[1] is None
        zygote.close_all()
    elif IS_ROOT:
        assert staged[0] is not None and staged[1] is None  # the bundled bot is readable in place
    assert all(s is None or not s.exists() for s in staged)
    assert_nothing_survives(spy)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.root
def test_each_bot_runs_as_a_user_of_its_own(level, random_bot):
    if not IS_ROOT:
        pytest.skip("bots get users of their own only when the referee runs as root")
    bots = [sandbox.start(random_bot, Limits(sandbox=level)) for _ in range(2)]
    try:
        uids = [b.uid for b in bots]
        assert len(set(uids)) == 2 and all(users.is_bot_uid(u) for u in uids)
        for b in bots:  # the whole tree runs as that uid: bwrap, its init and the bot
            assert users.pids_of(b.uid, include_zombies=False)
            assert b.proc.pid in users.pids_of(b.uid)
    finally:
        for b in bots:
            b.kill()
    for b in bots:
        assert users.pids_of(b.uid, include_zombies=False) == []
        assert b.scratch is None or not b.scratch.exists()


def test_a_command_that_is_not_in_the_sandbox_cannot_start(tmp_path):
    with pytest.raises(FileNotFoundError, match="not-a-program"):
        sandbox.start(BotSpec("x", FRIENDLY / "sh_bot", ("not-a-program",)), Limits())
    if HAVE_BWRAP:
        with pytest.raises(FileNotFoundError, match="not visible in the sandbox"):
            sandbox.start(BotSpec("x", FRIENDLY / "sh_bot", ("/root/.pyenv/shims/python3", "main.py")), Limits())


# ----- limits -------------------------------------------------------------------------------------

def test_limits_defaults_parsing_and_errors():
    assert Limits() == Limits(memory_mb=1024, cpu_seconds=60, processes=64, open_files=256,
                              file_size_mb=64, scratch_mb=64, strict=False, sandbox="auto")
    assert Limits.parse("memory_mb=512, cpu_seconds=10,strict=yes") == Limits(
        memory_mb=512, cpu_seconds=10, strict=True)
    base = Limits(processes=8)
    assert Limits.from_mapping({"scratch_mb": 16}, base) == Limits(processes=8, scratch_mb=16)
    for bad, words in [("memory=1", "unknown limit 'memory'"), ("cpu_seconds=0", "positive whole number"),
                       ("processes=many", "positive whole number"), ("strict=maybe", "true or false"),
                       ("sandbox=docker", "must be 'auto' or one of"), ("memory_mb", "key=value"),
                       ("strict=1,sandbox=rlimits", "asks for less"),
                       ("cpu_seconds=100,cpu_ceiling_seconds=50",
                        "cpu_ceiling_seconds=50: must be at least cpu_seconds=100")]:
        with pytest.raises(ArenaError, match=words):
            Limits.parse(bad)
    with pytest.raises(ArenaError):
        Limits(open_files=True)
    assert "memory 1024 MiB" in Limits().describe()


def test_explain_names_the_limit():
    lim = Limits(memory_mb=100, cpu_seconds=2, cpu_ceiling_seconds=5, scratch_mb=8, processes=9)
    xcpu = 128 + signal.SIGXCPU
    ceiling = "CPU time ceiling of 5 s per process reached (SIGXCPU)"
    assert sandbox.explain(xcpu, "", lim, "bwrap") == ceiling
    assert sandbox.explain(-signal.SIGXCPU, "", lim, "rlimits") == ceiling
    assert sandbox.explain(xcpu, "", lim, "rlimits") == ""  # an exit code, not a signal, outside bwrap
    assert "memory limit of 100 MiB" in sandbox.explain(1, "Traceback...\nMemoryError\n", lim, "bwrap")
    eagain = "BlockingIOError: [Errno 11] Resource temporarily unavailable"
    assert "limit of 9 processes" in sandbox.explain(1, eagain, lim, "bwrap")
    assert "full (8 MiB)" in sandbox.explain(1, "File too large\n...\nNo space left on device", lim, "bwrap")
    assert "went over 8 MiB" in sandbox.explain(-9, "", lim, "rlimits", scratch_exceeded=True)
    assert sandbox.explain(1, "ValueError: bad move", lim, "bwrap") == ""
    assert "out-of-memory" in sandbox.explain(137, "", lim, "bwrap")
    assert "processes together went over its memory limit of 100 MiB" in sandbox.explain(
        137, "", lim, "bwrap", oom_killed=True)


@pytest.mark.root
def test_a_uid_left_busy_by_a_dead_referee_is_cleaned_before_reuse(monkeypatch):
    """A lock file that does not say 'clean' (its holder died) makes allocate look for leftovers
    of that uid and end them; a cleanly released uid is taken without a scan."""
    if not IS_ROOT:
        pytest.skip("bot uids are only used when the referee runs as root")
    # a pool just above the real one: no other referee of the machine (another test run, a
    # tournament) takes or releases these uids while the test watches them
    monkeypatch.setattr(users, "UID_BASE", users.UID_BASE + users.UID_COUNT)
    uid = users.UID_BASE + 7
    monkeypatch.setattr(users.random, "randrange", lambda n: 7)
    lock = users._lock_dir() / f"{uid}.lock"
    lock.unlink(missing_ok=True)
    sleeper = subprocess.Popen(["sleep", "60"], user=uid, group=uid, extra_groups=[])
    try:
        lock.write_bytes(users.BUSY)  # as a referee that was killed while a bot held this uid
        first = users.allocate()       # finds the sleeper, ends it, takes the next uid
        assert first.uid == uid + 1
        assert sleeper.wait(timeout=5) == -signal.SIGKILL
        first.release(clean=True)
        scans = []
        monkeypatch.setattr(users, "pids_of", lambda u, **kw: scans.append(u) or [])
        again = users.allocate()       # uid is free now (its lock says busy: scanned, nothing left)
        assert again.uid == uid and scans == [uid]
        again.release(clean=True)
        assert lock.read_bytes() == users.CLEAN
        scans.clear()
        third = users.allocate()       # released clean: taken without scanning every process
        assert third.uid == uid and scans == []
        third.release(clean=True)
    finally:
        sleeper.kill()
        sleeper.wait()


PRIORITY_BOT = """
import os, sys
for line in sys.stdin:  # one line in, this process's niceness out
    print(os.getpriority(os.PRIO_PROCESS, 0), flush=True)
"""


@pytest.mark.root
def test_a_bot_started_in_the_background_boots_at_low_priority_until_it_plays(tmp_path):
    if not IS_ROOT:
        pytest.skip("only a root referee can raise a bot's priority again, so only it lowers it")
    (tmp_path / "main.py").write_text(PRIORITY_BOT, encoding="utf-8")
    bot = BotSpec(name="nice", path=tmp_path, command=("python3", "main.py"))
    own = os.getpriority(os.PRIO_PROCESS, 0)
    process = sandbox.start(bot, background=True)
    try:
        def niceness() -> int:
            process.proc.stdin.write(b"?\n")
            return int(process.proc.stdout.readline())
        assert niceness() == 19
        process.to_foreground()
        assert niceness() == own  # the referee's priority (a tournament may be run with nice)
    finally:
        process.kill()
    foreground = sandbox.start(bot)
    try:
        foreground.proc.stdin.write(b"?\n")
        assert int(foreground.proc.stdout.readline()) == own
    finally:
        foreground.kill()


def test_an_empty_memory_cgroup_means_the_bot_is_gone(tmp_path):
    """The teardown skips the kill when the bot's cgroup is empty: it must be empty exactly when
    no process of the bot is left."""
    from tests.sandbox.conftest import HAVE_MEMORY_CAP, NO_MEMORY_CAP
    if not HAVE_MEMORY_CAP:
        pytest.skip(NO_MEMORY_CAP)
    (tmp_path / "main.py").write_text("import sys\nsys.stdin.read()\n", encoding="utf-8")
    process = sandbox.start(BotSpec(name="idle", path=tmp_path, command=("python3", "main.py")))
    cap = process.memory_cap
    assert cap is not None and not cap.is_empty()
    process.proc.stdin.close()  # the bot reads end-of-file and exits by itself
    process.proc.wait(timeout=10)
    for _ in range(500):
        if cap.is_empty():
            break
        time.sleep(0.01)
    assert cap.is_empty()
    process.kill()
    assert not cap.folder.exists()


def test_the_staged_sdk_holds_bytecode_for_the_bots_python(tmp_path):
    """Bots never write bytecode, so the staged SDK is compiled once for the python3 they run."""
    from arena.sandbox import files
    from arena.sandbox.command import SYSTEM_PATH
    python = shutil.which("python3", path=SYSTEM_PATH)
    if python is None:
        pytest.skip(f"no python3 on the bots' PATH ({SYSTEM_PATH})")
    tag = subprocess.run([python, "-c", "import sys; print(sys.implementation.cache_tag)"],
                         capture_output=True, text=True, check=True).stdout.strip()
    sdk = files.sdk_dir()
    for module in ("protocol/sdk", "protocol/wire", "msgpack/__init__"):
        folder, name = module.split("/")
        assert (sdk / folder / "__pycache__" / f"{name}.{tag}.pyc").is_file(), module


@pytest.mark.parametrize("kind", ["MemoryCap", "CpuPin"])
def test_a_killed_referees_cgroups_are_swept_and_a_living_ones_kept(kind, monkeypatch):
    """A referee killed before its teardown leaves its bots' cgroups behind: the next referee's
    first cgroup of that controller removes them, and leaves a running referee's alone."""
    from arena.sandbox import cgroups
    cls = getattr(cgroups, kind)
    parent = cls.parent_dir()
    if parent is None:
        pytest.skip(f"no {cls.controller} cgroup can be made here")
    gone = subprocess.Popen(["true"])
    gone.wait()  # its pid names a referee that is no longer there
    stale, living = parent / f"arena-bot-p{gone.pid}-1", parent / f"arena-bot-p{os.getpid()}-99"
    stale.mkdir()
    living.mkdir()
    monkeypatch.setattr(cgroups, "_swept", set())
    made = cls.create(f"arena-bot-p{os.getpid()}-100", {0}) if kind == "CpuPin" else \
        cls.create(f"arena-bot-p{os.getpid()}-100", 64 << 20)
    try:
        assert made is not None
        assert not stale.exists()
        assert living.exists()
    finally:
        for folder in (living, stale, made.folder if made else None):
            if folder is not None and folder.exists():
                folder.rmdir()
