"""Where a fork-server start goes: the CPU of each step of a bot's isolation, one at a time.

    python benchmarks/fork_server_parts.py [--runs 80] [--against OTHER_SERVER.py]

For each step, the start and stop of a sandboxed Python bot (``benchmarks/sandbox_startup.py``'s
``one_run``: spawn, hello, ready, goodbye, teardown) is timed in CPU, counted in a cgroup of the
benchmark's own, through the real fork server and through a copy of it with that one step left
out. Both servers run side by side (each serves its own copy of the bot) and the starts
alternate one by one, in random order, so that the machine's drift falls on both alike; the
difference of the medians is what the step costs. A first line compares the real server with an
unchanged copy: the noise floor of this run. Everything runs on one core (this process pins
itself; servers and bots inherit it): spread over cores, which core a server happens to run on
changes its cost more than most steps do (every message then wakes a process on another core).
A copy without a step is not a sandbox to play in: it exists only in this benchmark's temporary
folder.

The steps are those of ``arena/sandbox/zygote_server.py``'s ``child_b`` (and the clone before
it); a step whose text is no longer found there stops the benchmark, so that it cannot measure
a server that no longer exists.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena import sandbox
from arena.bots import load_bot
from arena.build import ensure_built
from arena.sandbox import zygote
from benchmarks.cpu_meter import CpuMeter
from benchmarks.sandbox_startup import one_run

# (step, the server's text, the text without the step)
STEPS = [
    ("network namespace", "CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC",
     "CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC"),
    ("loopback up", "        loopback_up()\n", ""),
    ("memory cgroup join", "                os.write(fd, b\"0\")\n", "                pass\n"),
    ("/dev/shm tmpfs", "for target in (SCRATCH, \"/dev/shm\"):", "for target in (SCRATCH,):"),
]


def without(step: str, old: str, new: str, folder: Path) -> Path:
    source = zygote.SERVER.read_text()
    if old not in source:
        raise SystemExit(f"fork_server_parts: the step {step!r} is no longer in {zygote.SERVER.name}; "
                         "update STEPS")
    path = folder / f"{len(list(folder.iterdir()))}-zygote_server.py"
    path.write_text(source.replace(old, new))
    return path


def compare(servers: list[Path], bot_folder: Path, work: Path, meter: CpuMeter,
            runs: int) -> list[float]:
    """Median CPU of a start and stop through each server, the starts interleaved."""
    starts = []
    for i, server in enumerate(servers):  # a copy of the bot per server: one server per copy
        folder = work / f"bot-{i}"
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(bot_folder, folder)
        bot = ensure_built(load_bot(folder))  # started from its build, if it has one
        zygote.SERVER = server
        def start(bot=bot):
            return sandbox.start(bot, sandbox.Limits())
        for _ in range(3):  # warm up: the server starts now, from this source; its first child
            one_run(start, meter)
        starts.append(start)
    cpu: list[list[float]] = [[] for _ in servers]
    order = list(range(len(servers)))
    for _ in range(runs):
        random.shuffle(order)
        for i in order:
            cpu[i].append(one_run(starts[i], meter)[2])
    zygote.close_all()
    return [statistics.median(c) for c in cpu]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=80, help="starts per server")
    parser.add_argument("--bot", default=str(Path(__file__).resolve().parent.parent / "bots" / "random"))
    parser.add_argument("--against", type=Path, help="instead of the steps: compare the server with "
                        "this other version of it, e.g. one from git show REV:arena/sandbox/zygote_server.py")
    args = parser.parse_args()
    if not zygote.available():
        raise SystemExit("fork_server_parts: this machine cannot run the fork server")
    real = zygote.SERVER
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # see the module's docstring
    if args.against:
        with tempfile.TemporaryDirectory() as tmp, CpuMeter() as meter:
            try:
                this, that = compare([real, args.against], Path(args.bot), Path(tmp), meter, args.runs)
            finally:
                zygote.SERVER = real
                zygote.close_all()
        print(f"CPU of a start and stop ({args.runs} starts each, interleaved): this server {this:.2f} "
              f"ms, {args.against} {that:.2f} ms ({this / that:.2f} x)")
        return
    print(f"CPU of a start and stop through the fork server, with and without each step "
          f"({args.runs} starts each, interleaved): {args.bot}")
    print(f"{'step':<30} {'with':>8} {'without':>8} {'costs':>8}")
    with tempfile.TemporaryDirectory() as tmp, CpuMeter() as meter:
        work = Path(tmp)
        try:
            for step, old, new in [("(none: an unchanged copy)", "", "")] + STEPS:
                variant = without(step, old, new, work)
                full, less = compare([real, variant], Path(args.bot), work, meter, args.runs)
                print(f"{step:<30} {full:>6.2f}ms {less:>6.2f}ms {full - less:>+6.2f}ms", flush=True)
        finally:
            zygote.SERVER = real
            zygote.close_all()
    load = os.getloadavg()
    print(f"(load average {load[0]:.1f} on {os.cpu_count()} cores; the kernel's deferred clean-up "
          "of a network namespace runs in a kworker, which no cgroup of ours counts)")


if __name__ == "__main__":
    main()
