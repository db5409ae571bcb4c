"""The fork server (arena.sandbox.zygote): a bot started from it is as pristine as a cold start,
and two of its children alive at once are as far apart as two cold-started bots.

The bot ``friendly/leftovers`` reports on stderr what an earlier or concurrent match of itself
could have left (marks in preloaded modules, builtins, the SDK's state, the environment, files in
its scratch, /tmp, /dev/shm), then leaves exactly those marks. Every hostile test of
``test_hostile.py`` runs through the fork server too: it is the default where it is available.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from arena import sandbox
from arena.bots import load_bot
from arena.record import OK
from arena.referee import TimeControl, play_match
from arena.sandbox import Limits, files, launch, zygote
from tests.sandbox.conftest import FRIENDLY, ROOT, assert_nothing_survives

TC = TimeControl(move_ms=2000, bank_ms=2000, startup_ms=10000)


def require_fork_server() -> None:
    if sandbox.support().best != sandbox.BWRAP or not zygote.available():
        pytest.skip("the fork server needs full isolation and a root referee on Linux x86-64")


def reports(record) -> list[dict[str, str]]:
    """Each seat's FOUND list and WHO fields, from its stderr tail."""
    out = []
    for status in record.statuses:
        assert status.status == OK, status
        found = re.search(r"^FOUND (.*)$", status.stderr_tail, re.M)
        who = re.search(r"^WHO (.*)$", status.stderr_tail, re.M)
        assert found and who, status.stderr_tail
        fields = dict(part.split("=", 1) for part in re.findall(r"\S+=\S+", who.group(1).split(" ns=")[0]))
        fields["ns"] = who.group(1).split(" ns=")[1]
        fields["processes"] = re.search(r"processes=(\[[^\]]*\])", who.group(1)).group(1)
        out.append({"found": found.group(1), **fields})
    return out


def cold_starts(monkeypatch) -> list[str]:
    """Why each bot that could have started from its fork server started cold, as it happens."""
    why: list[str] = []
    real = launch._start_forked

    def recorded(bot, limits, background):
        try:
            forked = real(bot, limits, background)
        except OSError as exc:
            why.append(f"its fork server failed: {exc}")
            raise
        if forked is None:
            why.append(f"{len(zygote._servers)} fork servers, none idle for {zygote.IDLE_SECONDS} s")
        return forked

    monkeypatch.setattr(launch, "_start_forked", recorded)
    return why


def test_nothing_carries_over_between_matches_or_between_seats(spy, monkeypatch):
    """Match after match (a duplicate set plays the same bots again and again), both seats the
    same bot, so that two children of one server live at once: no seat finds any mark."""
    require_fork_server()
    bot = load_bot(FRIENDLY / "leftovers")
    why = cold_starts(monkeypatch)
    seen = []
    for seed in (1, 1, 2):  # the same deal twice, as in a duplicate set, then another
        record = play_match("block", [bot, bot], seed=seed, time_control=TC, limits=Limits())
        seen += reports(record)
    assert all(p.forked for p in spy.processes), f"the fork server was not used: {why}"
    assert [r["engines"] for r in seen] == ["preloaded"] * len(seen), seen  # marks on them too
    assert [r["found"] for r in seen] == ["[]"] * len(seen), seen
    assert len({r["rng"] for r in seen}) == len(seen), "children share their random state"
    assert_nothing_survives(spy)


def test_two_children_alive_at_once_have_their_own_everything(spy):
    require_fork_server()
    bot = load_bot(FRIENDLY / "leftovers")
    record = play_match("block", [bot, bot], seed=5, time_control=TC, limits=Limits())
    a, b = reports(record)
    assert a["uid"] != b["uid"]
    assert [p.uid for p in spy.processes] == [int(a["uid"]), int(b["uid"])]
    namespaces_a, namespaces_b = a["ns"].split(), b["ns"].split()
    assert all(x != y for x, y in zip(namespaces_a, namespaces_b)), (namespaces_a, namespaces_b)
    for report in (a, b):  # its own PID namespace, where a Python bot is PID 1 and alone
        assert report["pid"] == "1" and report["processes"] == "[1]", report
        assert report["userns"] == "denied", report  # no nested user namespace, as bubblewrap
    caps = [p.memory_cap for p in spy.processes]
    if caps[0] is not None:
        assert caps[0].folder != caps[1].folder
    assert_nothing_survives(spy)


def test_arenas_engines_are_preloaded_only_for_a_bot_that_imports_them(tmp_path, spy):
    """A Python bot whose source imports ``arena`` finds the engines imported already (they cost
    more to import than the rest of a start); one that does not is not given them, since every
    child pays for the server's size."""
    require_fork_server()
    bots = []
    for name, line in (("engines", "    import arena.games  # played only to be seen\n"),
                       ("plain", "    import json  # arena is not imported\n")):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "bot.toml").write_text(f'name = "{name}"\ncommand = "python3 main.py"\n')
        (folder / "main.py").write_text(
            "import random, sys\n"
            "print('PRELOADED', 'arena.games' in sys.modules, file=sys.stderr, flush=True)\n"
            "if random.random() < 0:\n" + line +
            "from protocol.sdk import run\n"
            "run(lambda observation, legal: random.choice(legal))\n")
        bots.append(load_bot(folder))
    record = play_match("block", bots, seed=6, time_control=TC, limits=Limits())
    assert all(p.forked for p in spy.processes), "the fork server was not used"
    assert [s.status for s in record.statuses] == [OK, OK], record.statuses
    said = [re.search(r"^PRELOADED (\w+)$", s.stderr_tail, re.M).group(1) for s in record.statuses]
    assert said == ["True", "False"]
    assert_nothing_survives(spy)


def test_a_python_bots_modules_are_compiled_once_by_its_server_and_again_when_they_change(spy):
    """The server compiles the bot's .py files once (running none of them); a match imports that
    code instead of compiling the file again, unless the file changed since. Seen from outside:
    with the helper module made unreadable after the server started, the bot still imports it
    (from the server's code); once it is edited, the bot runs the new text."""
    require_fork_server()
    folder = Path(tempfile.mkdtemp(prefix="arena-test-precompiled-"))  # readable in place
    try:
        os.chmod(folder, 0o755)
        (folder / "bot.toml").write_text('name = "two-files"\ncommand = "python3 main.py"\n')
        (folder / "main.py").write_text(
            "import random, sys\n"
            "import helper\n"
            "print('HELPER', helper.VALUE, file=sys.stderr, flush=True)\n"
            "from protocol.sdk import run\n"
            "run(lambda observation, legal: random.choice(legal))\n")
        helper = folder / "helper.py"
        helper.write_text("VALUE = 'compiled-by-the-server'\n")
        for path in folder.iterdir():
            os.chmod(path, 0o644)
        bot = load_bot(folder)
        assert files.readable_in_place(folder, 65534)

        def helper_value() -> str:
            record = play_match("block", [bot, bot], seed=8, time_control=TC, limits=Limits())
            assert [s.status for s in record.statuses] == [OK, OK], record.statuses
            return {re.search(r"^HELPER (.*)$", s.stderr_tail, re.M).group(1)
                    for s in record.statuses}.pop()

        assert helper_value() == "compiled-by-the-server"
        os.chmod(helper, 0)  # the bot's uid cannot read it now: only the server's code can serve
        assert helper_value() == "compiled-by-the-server"
        helper.write_text("VALUE = 'edited after the server started'\n")  # a new size and time
        os.chmod(helper, 0o644)
        assert helper_value() == "edited after the server started"
        assert all(p.forked for p in spy.processes), "the fork server was not used"
        assert_nothing_survives(spy)
    finally:
        zygote.close_all()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_bot_sees_the_environment_it_was_started_with(tmp_path, monkeypatch):
    """The server runs in the bots' environment, so a child keeps it as it is; a start whose
    environment differs from the server's gets its own, nothing more and nothing less."""
    require_fork_server()
    folder = tmp_path / "env"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "env"\ncommand = "python3 main.py"\n')
    (folder / "main.py").write_text("import os, sys\nsys.stderr.write(repr(sorted(os.environ.items())))\n")
    bot = load_bot(folder)

    def seen() -> dict[str, str]:
        process = sandbox.start(bot, Limits())
        try:
            assert process.forked and process.proc.wait(timeout=10) == 0
            return dict(eval(process.proc.stderr.read().decode()))
        finally:
            process.kill()
    usual = zygote.environment(sandbox.BWRAP, zygote.SCRATCH_MOUNT, zygote.SDK_MOUNT)
    assert seen() == usual
    other = {k: v for k, v in usual.items() if k != "LANG"} | {"ARENA_EXTRA": "1"}
    monkeypatch.setattr(zygote, "environment", lambda *args: dict(other))  # the server is running
    assert seen() == other


@pytest.mark.parametrize("ending, status, said", [
    ("pass", 0, ""),                                   # the script runs off its end
    ("raise SystemExit(3)", 3, ""),
    ("raise SystemExit('gave up')", 1, "gave up"),     # printed, as python3 prints it
    ("raise KeyError('no such tile')", 1, "KeyError: 'no such tile'"),
    ("x = (", 1, "SyntaxError: '(' was never closed"),  # helper.py cannot be imported
])
def test_a_python_bot_ends_with_the_status_and_words_of_a_cold_start(tmp_path, ending, status, said):
    """Run in the server's interpreter, a script still exits as ``python3 SCRIPT`` would: the
    same exit status and the same last words on stderr, through the fork server and cold; a
    traceback shows the bot's own frames from the first, none of the server's."""
    require_fork_server()
    folder = tmp_path / "ends"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "ends"\ncommand = "python3 main.py"\n')
    (folder / "main.py").write_text("import helper\nhelper.end()\n")
    (folder / "helper.py").write_text(f"def end():\n    {ending}\n")
    bot = load_bot(folder)
    frames = {}
    for forked in (True, False):
        process = sandbox.start(bot, Limits(zygote=forked))
        try:
            assert process.forked == forked
            assert process.proc.wait(timeout=10) == status, (forked, ending)
            words = process.proc.stderr.read().decode().strip()
        finally:
            process.kill()
        assert (words.splitlines()[-1] if words else "") == said, (forked, words)
        frames[forked] = re.findall(r'File "(?:[^"]*/)?([^"/]+)", line (\d+), in (\S+)', words)
    own = {"KeyError": [("main.py", "2", "<module>"), ("helper.py", "2", "end")],
           "SyntaxError": [("main.py", "1", "<module>")]}
    assert frames[True] == frames[False] == own.get(said.split(":")[0], [])


def test_the_cold_start_stays_as_the_fallback(spy, random_bot):
    require_fork_server()
    record = play_match("block", [random_bot, random_bot], seed=3, time_control=TC,
                        limits=Limits(zygote=False))
    assert [s.status for s in record.statuses] == [OK, OK]
    assert not any(p.forked for p in spy.processes)
    assert Limits.parse("zygote=false").zygote is False and Limits().zygote is True
    assert_nothing_survives(spy)


def test_a_command_that_is_not_a_python_script_is_execd_in_the_prepared_sandbox(spy):
    require_fork_server()
    bot = load_bot(FRIENDLY / "sh_bot")
    other = load_bot(FRIENDLY / "leftovers")
    record = play_match("block", [bot, other], seed=4, time_control=TC, limits=Limits())
    assert [s.status for s in record.statuses] == [OK, OK], record.statuses
    assert spy.processes[0].forked and zygote.for_bot(bot).script is None
    assert_nothing_survives(spy)


def test_a_dead_server_is_replaced(random_bot):
    require_fork_server()
    first = zygote.for_bot(random_bot)
    first.proc.kill()
    first.proc.wait()
    process = sandbox.start(random_bot, Limits())
    try:
        assert process.forked and zygote.for_bot(random_bot) is not first
    finally:
        process.kill()


def test_the_servers_end_with_their_bots(random_bot):
    require_fork_server()
    process = sandbox.start(random_bot, Limits())
    assert process.forked and process.proc.poll() is None
    zygote.close_all()
    assert process.proc.wait(timeout=5) is not None  # the bot went with its server
    process.kill()
    assert zygote.server_pids() == set()


def test_servers_beyond_the_cap(tmp_path, monkeypatch, random_bot):
    """A process keeps at most MAX_SERVERS servers: a server idle long enough makes room for a new
    one, never one whose bot runs; with no such server the bot starts cold."""
    require_fork_server()
    monkeypatch.setattr(zygote, "MAX_SERVERS", 2)
    zygote.close_all()
    bots = []
    for name in ("a", "b", "c"):
        shutil.copytree(random_bot.path, tmp_path / name)
        bots.append(load_bot(tmp_path / name))
    running = sandbox.start(bots[0], Limits())  # a's server stays busy
    try:
        sandbox.start(bots[1], Limits()).kill()
        cold = sandbox.start(bots[2], Limits())  # b's server was used just now: c starts cold
        assert not cold.forked
        cold.kill()
        monkeypatch.setattr(zygote, "IDLE_SECONDS", 0.0)
        warm = sandbox.start(bots[2], Limits())  # now b's idle server makes room, a's does not
        assert warm.forked
        warm.kill()
        assert running.proc.poll() is None  # a's bot still runs
        assert {k[0] for k in zygote._servers} == {bots[0].path, bots[2].path}
    finally:
        running.kill()
        zygote.close_all()


def test_the_fork_server_benchmarks_still_find_the_steps_they_measure(tmp_path):
    """``fork_server_steps`` and ``fork_server_parts`` edit a copy of the server at known lines:
    a change to the server that moves one of them must update the benchmarks too."""
    require_fork_server()
    import subprocess
    import sys

    from benchmarks import fork_server_parts, fork_server_steps
    for step, old, new in fork_server_parts.STEPS:
        assert fork_server_parts.without(step, old, new, tmp_path).read_text() != zygote.SERVER.read_text()
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fork_server_steps.py"), "--runs", "2"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    rows = {line[:30].strip(): line[30:].split() for line in run.stdout.splitlines()[2:]}
    assert list(rows) == ["return from the clone"] + [step for step, _ in fork_server_steps.STEPS] + ["total"]
    assert all(cpu.endswith("ms") and float(cpu[:-2]) >= 0 and int(faults) >= 0
               for cpu, faults in rows.values()), run.stdout
    assert float(rows["total"][0][:-2]) > 0


CLOSING_SLOWLY = """
import sys, time
from arena.bots import load_bot
from arena.sandbox import zygote
server = zygote.for_bot(load_bot(sys.argv[1]))
assert server is not None
print(server.proc.pid, flush=True)
close = zygote.Zygote.close
def slowly(self):
    print("closing", flush=True)
    time.sleep(2)
    close(self)
zygote.Zygote.close = slowly
"""


def test_a_second_ctrl_c_while_exiting_still_ends_the_fork_servers_quietly(tmp_path):
    """Ctrl-C pressed again while arena exits (its fork servers closing) changes nothing: the
    servers end, and no traceback of the exit's cleanup is printed."""
    require_fork_server()
    import signal
    import subprocess
    import sys

    bot = ROOT / "bots" / "random"
    child = subprocess.Popen([sys.executable, "-c", CLOSING_SLOWLY, str(bot)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        server = int(child.stdout.readline())
        assert child.stdout.readline() == "closing\n"
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert "Traceback" not in err and "Exception ignored" not in err, err
    with pytest.raises(ProcessLookupError):
        os.kill(server, 0)
