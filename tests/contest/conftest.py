"""A real contest server for the tests: ``arena serve`` in a process group of its own, on a free
port of 127.0.0.1, over a class config with a reference bot; helpers to speak to it."""
from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import BOTS, ROOT
from tests.reports import conftest as report_fixtures

ARENA = [sys.executable, "-c", "from arena.cli import main; main()"]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
START_S = 60

CONFIG = textwrap.dedent('''
    name = "Class"
    game = "block"
    seed = 5
    entrants = ["submissions/*", {{ path = "{greedy}", reference = true }}]
    options = {{ single_deal = true }}
    [format]
    players = 2
    [time_control]
    move_ms = 2000
    bank_ms = 5000
    startup_ms = 10000
    [serve]
    port = 0
    upload_every_s = {every}
''')

NOISY_BOT = textwrap.dedent('''
    import sys
    from protocol.sdk import run

    def choose(observation, legal):
        print("SECRET-DEBUG-LINE of {who} <b>bold</b>", file=sys.stderr)
        return legal[0]

    run(choose)
''')
BROKEN_BOT = "from protocol.sdk import run\nrun(lambda o, l: l[0]\n"


def bot_folder(where: Path, code: str) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    (where / "main.py").write_text(code, encoding="utf-8")
    (where / "bot.toml").write_text('command = "python3 main.py"\n', encoding="utf-8")
    return where


@dataclass
class Server:
    folder: Path
    config: Path
    output: Path
    proc: subprocess.Popen
    url: str
    teacher: str
    lines: list[str]

    def arena(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run([*ARENA, *args], cwd=self.folder, env=ENV, capture_output=True,
                              text=True, timeout=timeout)

    def invite(self, *names: str) -> dict[str, str]:
        done = self.arena("contest", "invite", str(self.config), *names)
        assert done.returncode == 0, done.stderr
        return dict(line.split(" ", 1) for line in done.stdout.splitlines())

    def request(self, method: str, path: str, *, cookie: str = "", body: bytes = b"",
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        parsed = urllib.parse.urlsplit(self.url)
        conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)
        try:
            sent = dict(headers or {})
            if cookie:
                sent["Cookie"] = f"arena_session={cookie}"
            conn.request(method, path, body=body or None, headers=sent)
            response = conn.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            conn.close()

    def stored(self) -> int:
        from tournaments.store import Store, store_path
        if not Store.is_initialised(store_path(self.output)):
            return 0
        with Store.open(self.output) as store:
            return store.matches.count()[0]

    def wait_for(self, what, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while not what():
            assert self.proc.poll() is None, f"the server ended: {self.proc.communicate()}"
            assert time.monotonic() < deadline, "waited too long"
            time.sleep(0.2)


def secret_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def start(folder: Path, config: Path) -> Server:
    output = folder / "class-results"
    (output / "serve.json").unlink(missing_ok=True)
    proc = subprocess.Popen([*ARENA, "serve", str(config), "-q", "--workers", "1"], cwd=folder,
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    lines: list[str] = []
    deadline = time.monotonic() + START_S
    while len(lines) < 2:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"the server did not start: {proc.communicate()}")
        lines.append(line.rstrip("\n"))
        assert time.monotonic() < deadline
    url = json.loads((output / "serve.json").read_text())["url"]
    teacher = lines[1].rsplit(" ", 1)[1]
    return Server(folder, config, output, proc, url, teacher, lines)


def stop(server: Server, sig: int = signal.SIGKILL) -> tuple[str, str]:
    if server.proc.poll() is None:
        os.killpg(server.proc.pid, sig)
    try:
        return server.proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(server.proc.pid, signal.SIGKILL)
        return server.proc.communicate()


@pytest.fixture()
def contest_folder(tmp_path: Path) -> tuple[Path, Path]:
    config = tmp_path / "class.toml"
    config.write_text(CONFIG.format(greedy=BOTS / "greedy", every=0), encoding="utf-8")
    (tmp_path / "submissions").mkdir()
    return tmp_path, config


@pytest.fixture()
def server(contest_folder):
    folder, config = contest_folder
    running = start(folder, config)
    yield running
    stop(running)


browser = report_fixtures.browser  # the report tests' headless Chromium, one per module
