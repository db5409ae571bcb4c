"""Referee cost per decision against a raw MessagePack echo round-trip, measured in the same run.

    python benchmarks/referee_overhead.py [--game NAME] [--matches 20] [--rounds 3]

Referee: whole matches of a game (``--game``, default Block) between two random bots through the
real protocol; the time from the end of the handshake to the end of the match, divided by the
decisions. Echo: the very same request messages (rebuilt from those matches) packed and sent over
pipes to an echo process per seat that decodes each one and answers a small action message: the
floor any referee pays for the transport. The echo runs in the bots' own interpreter
(``/usr/bin/python3`` and the staged SDK, as a sandboxed bot does), so that its side of the pipe
costs what a bot's side does. Both are measured in wall time and in CPU counted in a CPU-accounting
cgroup (``benchmarks/cpu_meter.py``: the referee and both sandboxed bots for a match, this process
and the echo for the echo), which others' load on a shared machine does not inflate the way it
inflates wall time. Target: the referee adds at most 25% to the echo round-trip. The engine's own
CPU for the same decisions (replayed in this process) is printed too, and the ratio without it: the
part of the cost that is the referee's, not the game's. So is the echo with new processes for every
match, as a referee has new bots: what that alone adds to the transport (the target stays against
the long-lived echo).

Everything runs on one core (this process pins itself; the bots and the echoes inherit it), as a
tournament worker runs a match on the cores it owns. Spread over idle cores, every message wakes
a process on another core, and on a virtual machine those wake-ups cost more than all the rest
(45 µs of CPU a round trip for the echo alone, measured): both sides would be that cost, and the
ratio would say nothing about the referee.
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.bots import load_bot  # noqa: E402
from arena.games import DEFAULT_GAME, GAMES, get_game  # noqa: E402
from arena.options import options_from_dict  # noqa: E402
from arena.referee import TimeControl, play_match  # noqa: E402
from arena.sandbox import files, zygote  # noqa: E402
from benchmarks.cpu_meter import CpuMeter  # noqa: E402
from protocol.wire import HEADER, encode  # noqa: E402

# The echo runs in the interpreter the bots run (the system's, with the staged SDK), not in this
# virtual environment's, which is slower on pure Python and would make the referee look cheaper.
ECHO_PYTHON = shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin") or sys.executable

ECHO = r"""
import random, sys
from protocol.sdk import read_message, write_message
out = sys.stdout.buffer
while True:
    m = read_message(sys.stdin.buffer)
    if m is None:
        break
    write_message(out, {"type": "action", "action": random.choice(m["legal"])})
"""


def referee_run(game: str, bots, seeds, meter: CpuMeter) -> tuple[float, float, int, list]:
    """Seconds and CPU seconds (the referee and both bots, from the cgroup) spent in decision
    loops, decisions, and the records."""
    total, cpu, decisions, records = 0.0, 0.0, 0, []
    for seed in seeds:
        marks: list[tuple[float, int]] = []

        def on_event(event, marks=marks) -> None:
            if not marks or event.get("type") == "match_end":  # the first and the last only
                marks.append((time.perf_counter(), meter.usage_ns()))
        record = play_match(game, bots, seed=seed, time_control=TimeControl(), on_event=on_event)
        assert not record.failed, record.statuses
        total += marks[-1][0] - marks[0][0]
        cpu += (marks[-1][1] - marks[0][1]) / 1e9
        decisions += len(record.decisions)
        records.append(record)
    return total, cpu, decisions, records


def requests_of(records) -> list[dict]:
    """The act messages of those matches, rebuilt by replaying them through the engine."""
    game = get_game(records[0].game)
    frames = []
    for record in records:
        state = game.new_match(options_from_dict(game, record.options), record.seed)
        for i, d in enumerate(record.decisions):
            seat = state.current_player()
            frames.append({
                "type": "act", "decision": i, "observation": state.observation(seat),
                "legal": state.legal_actions(), "clock": {"move_ms": 1000, "bank_ms": 10000},
            })
            state.apply(d["action"])
    return frames


def engine_run(records) -> float:
    """CPU seconds the engine itself spends on those matches' decisions: the calls the referee
    makes for each (whose turn, the observation, the legal actions, the action applied), in this
    process, best of three. The game's cost, which any referee pays (``engine_speed.py``)."""
    game = get_game(records[0].game)
    best = float("inf")
    for _ in range(3):
        started = time.thread_time()
        for record in records:
            state = game.new_match(options_from_dict(game, record.options), record.seed)
            for d in record.decisions:
                seat = state.current_player()
                state.observation(seat)
                state.legal_actions()
                state.apply(d["action"])
        best = min(best, time.thread_time() - started)
    return best


def echo_run(messages: list[dict], meter: CpuMeter) -> tuple[float, float]:
    """Pack each message, send it to the echo of the seat it was for, read and unpack the answer:
    bare MessagePack round-trips, with one echo process per seat as a match has one bot per seat
    (taking turns between two processes costs more than talking to one). Seconds and CPU seconds
    (this process and the echoes', from the cgroup), after one round-trip each that waits out the
    echoes' start-up."""
    import msgpack
    env = {"PYTHONPATH": str(files.sdk_dir()), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}
    seats = max(m["observation"]["seat"] for m in messages) + 1
    procs = [subprocess.Popen([ECHO_PYTHON, "-c", ECHO], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, bufsize=0, env=env) for _ in range(seats)]

    def round_trip(message: dict) -> None:
        proc = procs[message["observation"]["seat"]]
        proc.stdin.write(encode(message))
        (n,) = HEADER.unpack(proc.stdout.read(4))
        body = proc.stdout.read(n)
        while len(body) < n:
            body += proc.stdout.read(n - len(body))
        msgpack.unpackb(body)
    for seat in range(seats):
        round_trip({**messages[0], "observation": {**messages[0]["observation"], "seat": seat}})
    cpu0 = meter.usage_ns()
    started = time.perf_counter()
    for message in messages:
        round_trip(message)
    elapsed = time.perf_counter() - started
    cpu = (meter.usage_ns() - cpu0) / 1e9
    for proc in procs:
        proc.stdin.close()
        proc.wait()
    return elapsed, cpu


def fresh_echo_run(matches: list[list[dict]], meter: CpuMeter) -> tuple[float, float]:
    """``echo_run`` with new echo processes for every match, as a referee has new bots: what the
    transport costs when the processes at both ends of it have just started."""
    elapsed = cpu = 0.0
    for messages in matches:
        seconds, cpu_seconds = echo_run(messages, meter)
        elapsed += seconds
        cpu += cpu_seconds
    return elapsed, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=DEFAULT_GAME, choices=sorted(GAMES),
                        help=f"the game played (default {DEFAULT_GAME})")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})  # one core (see above)
    bot = load_bot(ROOT / "bots" / "random")
    ref_us, echo_us, ref_cpu, echo_cpu, engine_cpu, fresh_cpu = [], [], [], [], [], []
    with CpuMeter() as meter:
        play_match(args.game, [bot, bot], seed=10**6)  # the sandbox probe, the SDK, the fork server
        for r in range(args.rounds):
            seeds = range(r * args.matches, (r + 1) * args.matches)
            seconds, cpu, decisions, records = referee_run(args.game, [bot, bot], seeds, meter)
            frames = requests_of(records)
            assert len(frames) == decisions
            engine_cpu.append(engine_run(records) / decisions * 1e6)
            ref_us.append(seconds / decisions * 1e6)
            ref_cpu.append(cpu / decisions * 1e6)
            seconds, cpu = echo_run(frames, meter)
            echo_us.append(seconds / decisions * 1e6)
            echo_cpu.append(cpu / decisions * 1e6)
            _, cpu = fresh_echo_run([requests_of([record]) for record in records], meter)
            fresh_cpu.append(cpu / decisions * 1e6)
            print(f"round {r + 1}: {decisions} decisions; wall: referee {ref_us[-1]:.1f} µs, echo "
                  f"{echo_us[-1]:.1f} µs; CPU: referee {ref_cpu[-1]:.1f} µs (of which the engine "
                  f"{engine_cpu[-1]:.1f} µs), echo {echo_cpu[-1]:.1f} µs (new echoes every match: "
                  f"{fresh_cpu[-1]:.1f} µs) per decision", flush=True)
        zygote.close_all()
    print(f"\n{args.game}; on core {max(os.sched_getaffinity(0))} alone; referee and echo driver "
          f"in {sys.executable} (Python {platform.python_version()}), echo in {ECHO_PYTHON}; "
          f"CPU counted in {meter.kind}; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for label, ref, echo in (("wall", ref_us, echo_us), ("CPU ", ref_cpu, echo_cpu)):
        ratio = min(r / e for r, e in zip(ref, echo))
        print(f"{label}: referee {min(ref):.1f} µs/decision, echo {min(echo):.1f} µs/decision (best "
              f"rounds); best round's ratio {ratio:.2f} (target <= 1.25)")
    # The engine's share is the game's cost, not the referee's: what is left is the referee's own
    # machinery (asking, timing, checking, recording) and the transport, against the bare transport.
    machinery = [r - g for r, g in zip(ref_cpu, engine_cpu)]
    ratio = min(m / e for m, e in zip(machinery, echo_cpu))
    print(f"CPU without the engine ({min(engine_cpu):.1f} µs/decision): referee {min(machinery):.1f} "
          f"µs/decision; best round's ratio {ratio:.2f}")
    # A referee moves the same messages over the same pipes as the echo run, and runs the engine
    # for the same decisions besides: echo + engine is the least it can cost, with no machinery.
    floor = max((e + g) / e for e, g in zip(echo_cpu, engine_cpu))
    print(f"floor: the echo's transport plus the engine's work alone would be {floor:.2f} x the echo "
          f"(the target 1.25 is {'above' if floor <= 1.25 else 'below'} it)")
    # A referee starts new bots for every match: the same echo with new processes every match
    # shows what that alone costs the transport (a process's first round trips cost more).
    fresh = min(fresh_cpu)
    print(f"new echoes every match: {fresh:.1f} µs/decision, {fresh / min(echo_cpu):.2f} x the echo; "
          f"the referee is {min(r / f for r, f in zip(ref_cpu, fresh_cpu)):.2f} x that, "
          f"{min((r - g) / f for r, g, f in zip(ref_cpu, engine_cpu, fresh_cpu)):.2f} x without the engine")


if __name__ == "__main__":
    main()
