"""The hostile-bot suite: each attack is a tiny bot (``hostile/<name>/``) playing a real match
against the random bot.

For every attack the match ends with the right status within its time limits, the other bot
finishes normally, nothing the hostile bot started survives, and the attack had no effect.
Checks that only full isolation (bubblewrap) can make true skip, with the reason, without it.
"""
from __future__ import annotations

import dataclasses
import os
import re
import socket
import subprocess
import threading
import time

import pytest

from arena import sandbox
from arena.bots import load_bot
from arena.connection import STDERR_TAIL
from arena.record import CRASH, OK, PROTOCOL_ERROR, TIMEOUT
from arena.referee import TimeControl, play_match
from arena.sandbox import Limits, files, users, zygote
from tests.sandbox.conftest import (
    HAVE_MEMORY_CAP,
    HOSTILE,
    IS_ROOT,
    LEVELS,
    NO_MEMORY_CAP,
    ROOT,
    assert_nothing_survives,
    processes_with,
    require_bwrap,
)

pytestmark = pytest.mark.slow  # a real match per attack and level, most of a second each

TC = TimeControl(move_ms=300, bank_ms=500, startup_ms=5000)
LIMITS = dict(memory_mb=128, cpu_seconds=10, processes=16, open_files=64, file_size_mb=4, scratch_mb=8)
MiB = 1 << 20


# "auto" is the fork server where it is available (the default); "cold" the cold start through
# bubblewrap that stays as its fallback (Limits(zygote=False)).
HOSTILE_LEVELS = [*LEVELS, pytest.param("cold", id="cold", marks=pytest.mark.skipif(
    sandbox.support().best != sandbox.BWRAP or not zygote.available(),
    reason="the cold start differs from 'auto' only where the fork server runs"))]


def play(spy, random_bot, name, level, *args, tc=TC, on_event=None, keep=(), **limits):
    """Play the hostile bot ``name`` in seat 0 against the random bot; check what holds for every
    attack (time, the other seat, no survivors); return the hostile seat's status and the record."""
    bot = load_bot(HOSTILE / name)
    if args:
        bot = dataclasses.replace(bot, command=bot.command[:2] + tuple(map(str, args)))
    if level == "cold":
        level, limits = sandbox.AUTO, {**limits, "zygote": False}
    started = time.monotonic()
    record = play_match("block", [bot, random_bot], seed=11, time_control=tc,
                        limits=Limits(sandbox=level, **{**LIMITS, **limits}), on_event=on_event)
    elapsed = time.monotonic() - started
    # far sooner than the attacks would last, with room for a loaded machine
    assert elapsed < tc.startup_ms / 1000 + (tc.move_ms + tc.bank_ms) / 1000 + 20, elapsed
    assert record.statuses[1].status == OK, record.statuses[1]
    assert record.sandbox == (sandbox.support().best if level == sandbox.AUTO else level)
    if record.sandbox == sandbox.BWRAP and zygote.available():  # the fork server, unless "cold"
        forked = limits.get("zygote", True)
        assert spy.processes and all(p.forked == forked for p in spy.processes), spy.processes
    assert_nothing_survives(spy, marker=b"arena-hostile", keep=keep)
    return record.statuses[0], record


def finished_normally(record) -> None:
    """The attack did not stop the game: both seats ok, the game played to its end."""
    assert [s.status for s in record.statuses] == [OK, OK], record.statuses
    assert len(record.decisions) > 10 and sorted(record.ranks) in ([1, 2], [1, 1])


# ----- exhausting the machine -------------------------------------------------------------------

@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_fork_bomb_is_capped_and_ends_with_the_match(level, spy, random_bot):
    peak: dict[int, int] = {}
    stop = threading.Event()

    def sample() -> None:  # the bomb's processes, per bot uid, while the match runs
        while not stop.is_set():
            for uid in spy.uids():
                peak[uid] = max(peak.get(uid, 0), len(users.pids_of(uid)))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        status, _ = play(spy, random_bot, "fork_bomb", level)
    finally:
        stop.set()
        sampler.join()
    assert status.status == TIMEOUT, status
    if IS_ROOT:  # RLIMIT_NPROC holds: the bomb forked, but never past its process limit
        bomb = spy.processes[0].uid  # (+ 1: the referee's kill helper runs as the bot's uid too)
        assert 4 <= peak[bomb] <= LIMITS["processes"] + 1, peak


@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_memory_bomb_crashes_with_a_memory_reason(level, spy, random_bot):
    status, _ = play(spy, random_bot, "memory_bomb", level)
    assert status.status == CRASH, status
    assert "MemoryError" in status.stderr_tail
    assert "memory limit of 128 MiB" in spy.processes[0].explain(status.stderr_tail)
    assert "memory limit of 128 MiB" in status.reason  # the referee says which limit


@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_memory_of_all_processes_together_is_capped(level, spy, random_bot):
    """8 children of 80 MiB each pass the per-process limit (128 MiB); the memory cgroup of the
    whole bot holds 128 MiB, so the kernel kills all but (at most) one."""
    if not HAVE_MEMORY_CAP:
        pytest.skip(NO_MEMORY_CAP)
    status, record = play(spy, random_bot, "memory_fork_bomb", level)
    finished_normally(record)
    holding = re.search(r"children holding 80 MiB: (\d) of 8", status.stderr_tail)
    assert holding and int(holding[1]) <= 1, status.stderr_tail


@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_cpu_spin_times_out(level, spy, random_bot):
    status, _ = play(spy, random_bot, "cpu_spin", level)
    assert status.status == TIMEOUT, status
    assert "did not answer in time" in status.reason


@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_cpu_spin_past_its_cpu_ceiling_is_killed(level, spy, random_bot):
    # 1 s of CPU takes longer on a loaded machine: a move may take 30 s of the clock, which the
    # CPU budget follows; the ceiling per process does not
    slow = TimeControl(move_ms=30000, bank_ms=0, startup_ms=5000)
    status, _ = play(spy, random_bot, "cpu_spin", level, tc=slow, cpu_seconds=1, cpu_ceiling_seconds=1)
    assert status.status == CRASH, status  # killed after 1 s of CPU, not timed out at 30 s
    assert ("CPU time ceiling of 1 s per process reached (SIGXCPU)"
            in spy.processes[0].explain(status.stderr_tail))
    assert "SIGXCPU" in status.reason


@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_endless_stdout_is_a_protocol_error(level, spy, random_bot):
    status, _ = play(spy, random_bot, "stdout_flood", level)
    assert status.status == PROTOCOL_ERROR, status
    assert "stdout began with text 'spamspam" in status.reason  # named as text, not a size


@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_endless_stderr_times_out_with_a_capped_tail(level, spy, random_bot):
    status, _ = play(spy, random_bot, "stderr_flood", level)
    assert status.status == TIMEOUT, status
    assert "earlier bytes dropped" in status.stderr_tail
    assert len(status.stderr_tail.encode()) <= STDERR_TAIL + 100


@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_huge_files_are_capped(level, spy, random_bot):
    status, record = play(spy, random_bot, "huge_file", level)
    assert status.status == CRASH, status
    # RLIMIT_FSIZE: one file stops at file_size_mb
    assert f"one file: {4 * MiB} bytes, then OSError(27, 'File too large')" in status.stderr_tail
    hint = spy.processes[0].explain(status.stderr_tail)
    if record.sandbox == "bwrap":  # the scratch tmpfs is full at scratch_mb
        assert f"all files: {8 * MiB} bytes, then OSError(28, 'No space left on device')" in status.stderr_tail
        assert "scratch folder is full (8 MiB)" in hint
    else:  # a host folder, measured ten times a second: the bot is stopped when it goes over
        assert "scratch folder went over 8 MiB" in hint
    # the scratch is gone with the match (checked by assert_nothing_survives for host folders)


# ----- reading what is not its own ------------------------------------------------------------

@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_cannot_read_etc_shadow(level, spy, random_bot):
    status, record = play(spy, random_bot, "read_files", level, "/etc/shadow")
    finished_normally(record)
    assert "DENIED /etc/shadow" in status.stderr_tail and "READ" not in status.stderr_tail


def test_cannot_read_a_sibling_bots_folder(spy, random_bot):
    require_bwrap()  # without namespaces, world-readable files are readable
    sibling = random_bot.path
    status, record = play(spy, random_bot, "read_files", "auto", sibling / "main.py", sibling)
    finished_normally(record)
    assert f"DENIED {sibling / 'main.py'}" in status.stderr_tail
    assert f"DENIED {sibling}" in status.stderr_tail
    assert "READ" not in status.stderr_tail and "random.choice" not in status.stderr_tail


def test_cannot_read_the_referees_code(spy, random_bot):
    require_bwrap()
    referee = ROOT / "arena" / "referee.py"
    status, record = play(spy, random_bot, "read_files", "auto", referee, ROOT, "/opt/arena/sdk",
                          "/opt/arena/sdk/arena")
    finished_normally(record)
    assert f"DENIED {referee}" in status.stderr_tail and f"DENIED {ROOT}:" in status.stderr_tail
    # the SDK and the game engines (OpenSpiel's compiled one where it is installed), nothing
    # else: no referee, sandbox or tournament code
    staged = sorted(["arena", "msgpack", "protocol", *files.engine_extensions()])
    assert f"READ /opt/arena/sdk: {staged}" in status.stderr_tail
    assert ("READ /opt/arena/sdk/arena: ['__init__.py', '__pycache__', 'errors.py', 'game.py', "
            "'games', 'options.py']") in status.stderr_tail
    assert "The referee" not in status.stderr_tail


# ----- reaching out -----------------------------------------------------------------------------

@pytest.mark.parametrize("start", ["auto", "cold"])  # the fork server, and bubblewrap's own
def test_cannot_open_a_network_connection(spy, random_bot, start):
    require_bwrap()  # without namespaces the connection would be made
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        port = listener.getsockname()[1]
        status, record = play(spy, random_bot, "network", start, f"127.0.0.1:{port}", "192.0.2.1:80")
        finished_normally(record)
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody knocked
    assert f"FAILED 127.0.0.1:{port}" in status.stderr_tail
    assert "FAILED 192.0.2.1:80: [Errno 101] Network is unreachable" in status.stderr_tail
    assert "CONNECTED" not in status.stderr_tail
    assert "OWN LOOPBACK UP" in status.stderr_tail  # its own, inside its network namespace


@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_signals_reach_no_one_else(level, spy, random_bot):
    sleepers = [subprocess.Popen(["sleep", "60"])]
    if IS_ROOT:  # a process of another unprivileged user, too
        sleepers.append(subprocess.Popen(["sleep", "60"], user=65534, group=65534, extra_groups=[]))
    try:
        pids = [s.pid for s in sleepers]
        status, record = play(spy, random_bot, "signals", level, os.getpid(), *pids, keep=pids)
        finished_normally(record)
        assert all(s.poll() is None for s in sleepers), "a process outside the sandbox was killed"
        for pid in (os.getpid(), *(s.pid for s in sleepers)):
            assert f"SENT to pid {pid}" not in status.stderr_tail
    finally:
        for s in sleepers:
            s.kill()
            s.wait()


@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_daemon_dies_with_the_match(level, spy, random_bot):
    seen = []

    def during_the_match(event) -> None:
        if not seen and processes_with(b"arena-hostile-daemon", spy.uids()):
            seen.append(True)

    status, record = play(spy, random_bot, "daemon", level, on_event=during_the_match)
    finished_normally(record)
    assert "daemon started: b'up'" in status.stderr_tail
    assert seen, "the daemon never ran, so this test shows nothing"
    # play() checked that no process with the marker is left


@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_ignoring_sigterm_does_not_help(level, spy, random_bot):
    status, _ = play(spy, random_bot, "ignores_sigterm", level)
    assert status.status == TIMEOUT, status


# ----- its own folder -------------------------------------------------------------------------

@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_own_folder_is_read_only(level, spy, random_bot):
    folder = HOSTILE / "write_own_folder"
    mode = (folder / "bot.toml").stat().st_mode
    status, record = play(spy, random_bot, "write_own_folder", level)
    finished_normally(record)
    assert not (folder / "pwned.txt").exists() and not (folder / "pwned_dir").exists()
    assert (folder / "bot.toml").stat().st_mode == mode
    assert status.stderr_tail.count("DENIED") == 3 and "DONE" not in status.stderr_tail


def owned_by(uid: int) -> list[str]:
    """What ``uid`` owns in the host's world-writable folders, and its System V IPC objects."""
    found = []
    for root in users.WORLD_WRITABLE:
        for folder, dirs, names in os.walk(root):
            for name in dirs + names:
                path = os.path.join(folder, name)
                try:
                    if os.lstat(path).st_uid == uid:
                        found.append(path)
                except OSError:
                    pass
    for table in ("/proc/sysvipc/shm", "/proc/sysvipc/msg", "/proc/sysvipc/sem"):
        try:
            header, *rows = open(table).read().splitlines()
        except OSError:
            continue
        col = header.split().index("uid")
        found += [f"{table}: {row.split()[1]}" for row in rows if row.split()[col] == str(uid)]
    return found


@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_files_left_in_world_writable_folders_do_not_outlive_the_match(level, spy, random_bot):
    """Without bubblewrap a bot writes to the host's /tmp, /var/tmp and /dev/shm (and makes
    System V IPC objects): all it left there is removed after its match, so nothing carries over
    to the next match or to another bot. Under bubblewrap they were its own tmpfs all along."""
    status, record = play(spy, random_bot, "leaves_files", level)
    finished_normally(record)
    assert "WROTE /tmp/" in status.stderr_tail and "WROTE tree" in status.stderr_tail
    assert "SHM -1" not in status.stderr_tail
    [uid] = spy.uids()[:1] or [None]
    if uid is not None:
        assert owned_by(uid) == []
    leftovers = [p for root in ("/tmp", "/var/tmp", "/dev/shm") for p in os.listdir(root)
                 if p.startswith("arena-hostile-leftover-")]
    assert leftovers == []


def _cpuset_available() -> bool:
    from arena.sandbox.cgroups import CpuPin
    pin = CpuPin.create(f"arena-test-{os.getpid()}", {0})
    if pin is not None:
        pin.remove()
    return pin is not None


@pytest.mark.parametrize("level", HOSTILE_LEVELS)
def test_a_pinned_bot_cannot_widen_its_cores(level, spy, random_bot):
    """A bot started on core 0 (as a tournament worker pinned there starts it) asks for every
    core with sched_setaffinity; its cpuset cgroup keeps it on core 0."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs two cores to pin to one")
    if not IS_ROOT or not _cpuset_available():
        pytest.skip("no cpuset cgroup the referee may create here (root, with cgroup v1 cpuset or "
                    "v2 with cpuset delegated): docs/sandbox.md says what holds then")
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {0})
    try:
        status, record = play(spy, random_bot, "widens_affinity", level)
    finally:
        os.sched_setaffinity(0, before)
    finished_normally(record)
    assert "STARTED ON [0]" in status.stderr_tail, status.stderr_tail
    assert "AFFINITY [0]\n" in status.stderr_tail, status.stderr_tail
    assert all(p.cpu_pin is not None and not p.cpu_pin.folder.exists() for p in spy.processes)


def test_every_hostile_bot_is_tested():
    source = open(__file__, encoding="utf-8").read()
    for folder in HOSTILE.iterdir():
        assert f'"{folder.name}"' in source, f"hostile bot {folder.name} has no test"
