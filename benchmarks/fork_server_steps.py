"""Inside a fork-server child: the CPU and the page faults of each step, from the clone to the
first line of the bot's script.

    python benchmarks/fork_server_steps.py [--runs 60] [--bot PATH]

A copy of ``arena/sandbox/zygote_server.py`` notes, at the start of each step of the child
(``clone_into_namespaces``, ``child_b``, ``drop_to``, ``child_c``, ``run_script``), its thread's
CPU clock (exact, unlike the process clock, which moves in ticks here) and its count of minor
page faults, and writes them on the bot's stderr just before the script runs. Each first write of
a child to a page it shares with the server is a page fault that copies the page
(copy-on-write): the faults say what a step costs beyond its own work. Everything runs on one
core (this process pins itself). A step whose text is no longer found in the server stops the
benchmark, so that it cannot measure a server that no longer exists.

``fork_server_parts.py`` measures a step from the outside instead (a copy of the server without
it, in CPU counted in a cgroup, which includes the kernel's work in the server and at exit).
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena import sandbox
from arena.bots import load_bot
from arena.build import ensure_built
from arena.connection import Connection
from arena.games import DEFAULT_GAME
from arena.sandbox import zygote
from benchmarks.sandbox_startup import hello

NOTE = "_note({!r})\n"
# (the step that starts at this text, the text): in the order a child runs them
STEPS = [
    ("after-fork bookkeeping", "after_fork_child()\n"),
    ("session, join the cgroups", "os.setsid()  # PID 1 leads"),
    ("cgroup namespace, hostname", "check(libc.unshare(CLONE_NEWCGROUP)"),
    ("loopback up", "loopback_up()\n        uid"),
    ("tmpfs on /tmp and /dev/shm", "size = request[\"scratch_bytes\"]"),
    ("/proc", "mount(\"proc\", \"/proc\""),
    ("descriptors", "for fd, target in zip(fds[:3]"),
    ("rlimits, priority, cores", "for res, soft, hard in request[\"rlimits\"]"),
    ("uid", "os.setgroups([gid] if gid"),
    ("user namespace", "check(libc.unshare(CLONE_NEWUSER)"),
    ("capabilities, no_new_privs", "for cap in range(64):"),
    ("tell the server", "if request[\"script\"] is not None:  # a Python bot"),
    ("signals, environment", "os.chdir(BOT_MOUNT)"),
    ("stdin, stdout, stderr", "sys.stdin = sys.__stdin__"),
    ("argv, path, __main__", "path = os.path.join(BOT_MOUNT, script)"),
]
REPORT = "ARENA-STEPS "


def noted_server(folder: Path) -> Path:
    """A copy of the server that notes each step and reports them before the script runs."""
    source = zygote.SERVER.read_text()
    source = source.replace("from importlib import machinery\n", "from importlib import machinery\n"
                            "import time as _time\n_NOTES = []\n"
                            "def _note(step):\n"
                            "    _NOTES.append((step, _time.thread_time(), resource.getrusage(0).ru_minflt))\n", 1)
    for step, text in STEPS:
        if text not in source:
            raise SystemExit(f"fork_server_steps: {text!r} is no longer in {zygote.SERVER.name}; update STEPS")
        at = source.index(text)
        line = source.rindex("\n", 0, at) + 1
        indent = re.match(r"[ ]*", source[line:]).group(0)
        source = source[:line] + indent + NOTE.format(step) + source[line:]
    text = "        exec(program, main.__dict__)"
    if text not in source:
        raise SystemExit(f"fork_server_steps: {text!r} is no longer in {zygote.SERVER.name}")
    report = f"        os.write(2, ({REPORT!r} + repr(_NOTES) + '\\n').encode())\n"
    source = source.replace(text, "        _note('script')\n" + report + text, 1)
    path = folder / "zygote_server.py"
    path.write_text(source)
    return path


def one_start(bot) -> list[tuple[str, float, int]]:
    process = sandbox.start(bot, sandbox.Limits())
    try:
        conn = Connection(process.proc)
        conn.send(hello(DEFAULT_GAME))
        conn.exchange(None, time.monotonic() + 10)
        tail = conn.stderr_tail()
    finally:
        process.kill()
    line = next(x for x in tail.splitlines() if x.startswith(REPORT))
    return eval(line[len(REPORT):])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--bot", default=str(Path(__file__).resolve().parent.parent / "bots" / "random"))
    args = parser.parse_args()
    if not zygote.available():
        raise SystemExit("fork_server_steps: this machine cannot run the fork server")
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    bot = ensure_built(load_bot(args.bot))  # started from its build, if it has one
    real = zygote.SERVER
    with tempfile.TemporaryDirectory() as tmp:
        zygote.SERVER = noted_server(Path(tmp))
        try:
            runs = [one_start(bot) for _ in range(args.runs + 3)][3:]  # the first starts warm up
        finally:
            zygote.SERVER = real
            zygote.close_all()
    # the child's thread clock and fault count start at the clone: its return comes first
    runs = [[("return from the clone", 0.0, 0)] + r for r in runs]
    names = [name for name, _, _ in runs[0]]
    print(f"inside a fork-server child, clone to the bot's script ({args.runs} starts, medians): {args.bot}")
    print(f"{'step':<30} {'CPU':>9} {'faults':>7}")
    for i in range(len(names) - 1):
        cpu = statistics.median(r[i + 1][1] - r[i][1] for r in runs) * 1e3
        faults = statistics.median(r[i + 1][2] - r[i][2] for r in runs)
        print(f"{names[i]:<30} {cpu:>7.3f}ms {faults:>7.0f}")
    total = statistics.median(r[-1][1] for r in runs) * 1e3
    faults = statistics.median(r[-1][2] for r in runs)
    print(f"{'total':<30} {total:>7.3f}ms {faults:>7.0f}")


if __name__ == "__main__":
    main()
