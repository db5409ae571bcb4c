"""What does the sandbox cost a bot at start-up? Spawn to first message, with and without it.

    python benchmarks/sandbox_startup.py [--game NAME] [--runs N] [--bot PATH]

Besides wall times it counts the CPU of each start and stop (spawn, hello, ready, goodbye,
teardown) in a CPU-accounting cgroup of its own (``benchmarks/cpu_meter.py``), which sees the
sandboxed bot's processes that ``time`` and ``getrusage`` miss, and prints the fork server's CPU
beside the cold start's, measured in the same run. Target: fork server <= 0.25 of the cold start.

Each variant starts the bot, sends the ``hello`` of a 2-player match of the game (``--game``,
default Block; its default options) and times until the bot's ``ready`` arrives (the
whole start-up a match waits for), then says goodbye, gives the bot the referee's grace to exit
and times the teardown (``kill``: the
sandbox's sweep of everything the bot started, scratch removal, uid release). Variants:

* ``plain``: a bare ``Popen`` in a new session, as the first launcher did: no limits, no user;
* every sandbox level this machine can run (``bwrap``; ``rlimits`` when root; ``process-group``
  when not root), through ``arena.sandbox.start``;
* ``bwrap, cold``: the same isolation with a cold start (``Limits(zygote=False)``): bubblewrap,
  the interpreter and the SDK loaded for every match; ``bwrap`` is the fork server (the default);
* the same without the per-bot memory cgroup, where there is one (moving a process into a cgroup
  waits for the kernel: this shows what the cap on a bot's total memory costs).

All variants run the same interpreter (``python3`` on the system PATH) and the same staged SDK,
so the difference is the sandbox alone. Variants run in alternation; median and 90th percentile
are printed side by side.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena import sandbox
from arena.bots import load_bot
from arena.build import ensure_built
from arena.connection import Connection
from arena.games import DEFAULT_GAME, GAMES, get_game
from arena.options import options_to_dict
from arena.referee import GOODBYE_GRACE
from arena.sandbox import command, files, launch, zygote
from arena.sandbox.cgroups import MemoryCap
from benchmarks.cpu_meter import CpuMeter
from protocol.wire import PROTOCOL_VERSION


def hello(name: str) -> dict:
    """The ``hello`` of seat 0 in a 2-player match of the game ``name`` with its default options."""
    options = options_to_dict(get_game(name).make_options(2))
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "game": name, "options": options,
            "seat": 0, "num_players": 2, "players": ["a", "b"], "time_control": {}}


class Plain:
    """The no-sandbox baseline, shaped like a BotProcess."""

    def __init__(self, bot) -> None:
        env = {"PATH": command.SYSTEM_PATH, "HOME": "/tmp", "LANG": "C.UTF-8",
               "PYTHONPATH": str(files.sdk_dir()), "PYTHONDONTWRITEBYTECODE": "1"}
        self.proc = subprocess.Popen(list(bot.command), cwd=bot.path, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     start_new_session=True, bufsize=0)

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, 9)
        except ProcessLookupError:
            pass
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            stream.close()


def without_cgroup(bot, level: str, fork_server: bool = True) -> sandbox.BotProcess:
    launch.MEMORY_CGROUP = False
    try:
        return sandbox.start(bot, sandbox.Limits(sandbox=level, zygote=fork_server))
    finally:
        launch.MEMORY_CGROUP = True


def one_run(start, meter: CpuMeter, greeting: dict | None = None) -> tuple[float, float, float]:
    """(spawn to ready, teardown, CPU of it all) in milliseconds; ``greeting`` is the hello
    (default: ``DEFAULT_GAME``'s)."""
    cpu0 = meter.usage_ns()
    t0 = time.perf_counter()
    process = start()
    conn = Connection(process.proc)
    conn.send(greeting or hello(DEFAULT_GAME))
    reply = conn.exchange(None, time.monotonic() + 10)
    t1 = time.perf_counter()
    assert reply["type"] == "ready", reply
    conn.send({"type": "end", "result": {}})
    conn.flush(time.monotonic() + 1)
    try:  # as the referee does: the bot has a moment to leave by itself
        process.proc.wait(timeout=GOODBYE_GRACE)
    except subprocess.TimeoutExpired:
        pass
    conn.close()
    t2 = time.perf_counter()
    process.kill()
    t3 = time.perf_counter()
    return (t1 - t0) * 1000, (t3 - t2) * 1000, (meter.usage_ns() - cpu0) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default=DEFAULT_GAME, choices=sorted(GAMES),
                        help=f"the game of the hello (default {DEFAULT_GAME})")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--bot", default=str(Path(__file__).resolve().parent.parent / "bots" / "random"))
    args = parser.parse_args()
    greeting = hello(args.game)
    bot = ensure_built(load_bot(args.bot))  # started from its build, if it has one
    found = sandbox.support()
    levels = [sandbox.BWRAP] if found.best == sandbox.BWRAP else []
    levels.append(sandbox.RLIMITS if os.geteuid() == 0 else sandbox.PROCESS_GROUP)
    variants = {"plain (no sandbox)": lambda: Plain(bot)}
    for level in levels:
        variants[level] = lambda level=level: sandbox.start(bot, sandbox.Limits(sandbox=level))
    forked = sandbox.BWRAP in levels and zygote.available()
    if forked:
        variants["bwrap, cold"] = lambda: sandbox.start(bot, sandbox.Limits(zygote=False))
    probe = MemoryCap.create(f"arena-bench-{os.getpid()}", 1 << 30)
    if probe is not None:  # what the per-bot memory cgroup costs
        probe.remove()
        for level in levels:
            variants[f"{level}, no cgroup"] = lambda level=level: without_cgroup(bot, level)
        if forked:
            variants["bwrap, cold, no cgroup"] = lambda: without_cgroup(bot, sandbox.BWRAP, False)
    with CpuMeter() as meter:
        for start in variants.values():  # warm up: SDK staging, the probe, the fork server, caches
            one_run(start, meter, greeting)
        results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in variants}
        for _ in range(args.runs):
            for name, start in variants.items():
                results[name].append(one_run(start, meter, greeting))
        zygote.close_all()

    load = os.getloadavg()
    print(f"bot start-up, spawn to first message (ready) after a {args.game} hello, {args.runs} "
          f"runs each: {bot.path}")
    print(f"CPU of a start and stop counted in {meter.kind}; load average {load[0]:.1f} on "
          f"{os.cpu_count()} cores")
    if found.best != sandbox.BWRAP:
        print(f"(no bwrap: {found.missing})")
    print(f"{'variant':<24} {'median':>9} {'p90':>9} {'vs plain':>9}   {'teardown':>9}   "
          f"{'CPU med':>8} {'CPU min':>8}")
    base = statistics.median(r[0] for r in results["plain (no sandbox)"])
    for name, runs in results.items():
        starts = sorted(r[0] for r in runs)
        median = statistics.median(starts)
        p90 = starts[min(len(starts) - 1, int(len(starts) * 0.9))]
        teardown = statistics.median(r[1] for r in runs)
        cpu = [r[2] for r in runs]
        print(f"{name:<24} {median:>7.1f}ms {p90:>7.1f}ms {median - base:>+7.1f}ms   "
              f"{teardown:>7.1f}ms   {statistics.median(cpu):>6.1f}ms {min(cpu):>6.1f}ms")
    if forked:
        fork = statistics.median(r[2] for r in results[sandbox.BWRAP])
        cold = statistics.median(r[2] for r in results["bwrap, cold"])
        ratio = fork / cold
        print(f"\nCPU of a start and stop through the fork server / cold start = {fork:.1f} / "
              f"{cold:.1f} ms = {ratio:.2f}   target <= 0.25: {'met' if ratio <= 0.25 else 'MISSED'}")


if __name__ == "__main__":
    main()
