"""The contest server at the deadline: N authors upload a Python bot within a minute while 100
browsers poll the pages.

Measures, on a real ``arena serve`` over a real socket: the time from each upload to
"admitted" (its check passed; median and 95th percentile), from each upload to its first stored
match, and each page's latency while the pollers poll (95th percentile). The baseline of the
same run is the latency of the same pages on the idle server before the uploads begin: these
machines are shared and noisy, so the ratio says more than the seconds.

    python benchmarks/serve.py                  # 40 authors in 60 s, 100 pollers
    python benchmarks/serve.py --authors 10 --over 20 --pollers 20    # a quick look
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import io
import json
import math
import multiprocessing
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import time
import urllib.parse
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CONFIG = textwrap.dedent('''
    name = "Deadline"
    game = "block"
    seed = 5
    entrants = ["submissions/*"]
    options = {{ single_deal = true }}
    [format]
    players = 2
    [time_control]
    move_ms = 1000
    bank_ms = 5000
    [serve]
    port = 0
    upload_every_s = 0
''')


def bot_archive(salt: str) -> bytes:
    code = (f"import hashlib, json\nfrom protocol.sdk import run\nSALT = {salt!r}\n"
            "def choose(o, legal):\n"
            "    h = hashlib.sha256((SALT + json.dumps(o, sort_keys=True)).encode()).digest()\n"
            "    return legal[h[0] % len(legal)]\n"
            "run(choose)\n").encode()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in (("main.py", code), ("bot.toml", b'command = "python3 main.py"\n')):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


class Client:
    def __init__(self, url: str) -> None:
        parsed = urllib.parse.urlsplit(url)
        self.host, self.port = parsed.hostname, parsed.port

    def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                body: bytes | None = None) -> tuple[int, bytes, float]:
        start = time.perf_counter()
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            data = response.read()
            return response.status, data, time.perf_counter() - start
        finally:
            conn.close()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def pollers(host: str, port: int, paths: list[tuple[str, dict[str, str]]], browsers: int,
            period: float, stop: Any, results: Any) -> None:
    """In a process of its own (as browsers are, not threads of the uploading client): each
    browser asks for the next page every ``period`` seconds until ``stop``; the latencies, and
    the failures, are put on ``results``."""
    async def browser(k: int, out: list[float], failed: list[str]) -> None:
        await asyncio.sleep(period * k / browsers)  # spread over the period, as people are
        i = k
        while not stop.is_set():
            path, headers = paths[i % len(paths)]
            head = "".join(f"{key}: {value}\r\n" for key, value in headers.items())
            start = time.perf_counter()
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 60)
                writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{head}"
                             "Connection: close\r\n\r\n".encode())
                answer = await asyncio.wait_for(reader.read(), 60)
                writer.close()
            except (TimeoutError, OSError) as exc:
                failed.append(type(exc).__name__)
            else:
                status = answer.split(b" ", 2)[1] if answer.startswith(b"HTTP/") else b"?"
                if status == b"200":
                    out.append(time.perf_counter() - start)
                else:
                    failed.append(status.decode("ascii", "replace"))
            i += 1
            await asyncio.sleep(period)

    async def main() -> None:
        out: list[float] = []
        failed: list[str] = []
        await asyncio.gather(*(browser(k, out, failed) for k in range(browsers)))
        results.put((out, failed))

    asyncio.run(main())


def server_times(output: Path) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """Per author, in seconds since the epoch: when the server received their upload, when it
    admitted it, and when their first match was stored."""
    from tournaments.store import Store, store_path

    def seconds(iso: str) -> float:
        return datetime.fromisoformat(iso).timestamp()

    received: dict[str, float] = {}
    admitted: dict[str, float] = {}
    contest = sqlite3.connect(f"file:{output / 'contest.sqlite'}?mode=ro", uri=True)
    try:
        for author, got, state, changed in contest.execute(
                "SELECT author, received_at, state, updated_at FROM uploads ORDER BY id"):
            received[author] = seconds(got)
            if state == "admitted":
                admitted[author] = seconds(changed)
    finally:
        contest.close()
    first: dict[str, float] = {}
    if Store.is_initialised(store_path(output)):
        with Store.open(output) as store:
            names = {e.id: e.name for e in store.field.entrants()}
            for match in store.matches.all():
                for entrant in match.seats:
                    name = names[entrant]
                    first[name] = min(first.get(name, math.inf), seconds(match.finished_at))
    return received, admitted, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--authors", type=int, default=40)
    parser.add_argument("--over", type=float, default=60.0, help="seconds the uploads spread over")
    parser.add_argument("--pollers", type=int, default=100)
    parser.add_argument("--workers", type=int, default=0,
                        help="matches the server plays at once (default: one per core)")
    parser.add_argument("--period", type=float, default=1.0, help="seconds between a poller's requests")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="arena-bench-serve-"))
    (folder / "submissions").mkdir()
    config = folder / "deadline.toml"
    config.write_text(CONFIG.format())
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    workers = ["--workers", str(args.workers)] if args.workers else []
    server = subprocess.Popen([sys.executable, "-m", "arena", "serve", str(config), "-q", *workers],
                              cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, start_new_session=True)
    try:
        server.stdout.readline()
        server.stdout.readline()
        url = json.loads((folder / "deadline-results" / "serve.json").read_text())["url"]
        names = [f"a{i:02d}" for i in range(args.authors)]
        invite = subprocess.run([sys.executable, "-m", "arena", "contest", "invite", str(config),
                                 *names], cwd=folder, env=env, capture_output=True, text=True,
                                check=True)
        secrets = {n: link.rsplit("/", 1)[1] for n, link in
                   (line.split(" ", 1) for line in invite.stdout.splitlines())}
        client = Client(url)
        pages = [("/", {}), ("/me", {"Cookie": f"arena_session={secrets[names[0]]}"})]

        idle: list[float] = []
        for _ in range(40):
            for path, headers in pages:
                idle.append(client.request("GET", path, headers)[2])

        context = multiprocessing.get_context("spawn")
        stop, results = context.Event(), context.Queue()
        browsers = context.Process(target=pollers, args=(client.host, client.port, pages,
                                                         args.pollers, args.period, stop, results))
        browsers.start()
        began = time.monotonic()
        for i, name in enumerate(names):
            time.sleep(max(0.0, began + i * args.over / max(1, len(names)) - time.monotonic()))
            data = bot_archive(name)
            status, body, _ = client.request("POST", "/api/upload", {
                "Authorization": f"Bearer {secrets[name]}", "X-Filename": "bot.tar.gz",
                "Content-Length": str(len(data))}, data)
            assert status == 200, body
        # the times are the server's own (the contest's and the store's timestamps), read from
        # their files: asking the busy server would add its page latency to every figure
        output = folder / "deadline-results"
        deadline = time.monotonic() + 900
        received, admitted, first_match = server_times(output)
        while (len(admitted) < len(names) or len(first_match) < len(names)) \
                and time.monotonic() < deadline:
            time.sleep(1.0)
            received, admitted, first_match = server_times(output)
        stop.set()
        busy, failed = results.get(timeout=120)
        browsers.join(timeout=30)
        to_admit = [admitted[n] - received[n] for n in admitted]
        to_play = [first_match[n] - received[n] for n in first_match]
        print(f"{args.authors} authors uploading over {args.over:g} s, {args.pollers} pollers "
              f"(one request every {args.period:g} s each), {os.cpu_count()} cores")
        print(f"upload -> admitted:      median {statistics.median(to_admit):6.1f} s   "
              f"95th percentile {percentile(to_admit, 95):6.1f} s   ({len(to_admit)} of {len(names)})")
        print(f"upload -> first match:   median {statistics.median(to_play):6.1f} s   "
              f"95th percentile {percentile(to_play, 95):6.1f} s   ({len(to_play)} of {len(names)})")
        print(f"page latency, idle:      median {1000 * statistics.median(idle):6.1f} ms  "
              f"95th percentile {1000 * percentile(idle, 95):6.1f} ms")
        print(f"page latency, polled:    median {1000 * statistics.median(busy):6.1f} ms  "
              f"95th percentile {1000 * percentile(busy, 95):6.1f} ms  ({len(busy)} requests, "
              f"{len(failed)} failed)")
        print(f"ratio polled/idle (95th): {percentile(busy, 95) / percentile(idle, 95):.1f}")
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
