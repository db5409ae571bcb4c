"""How a bot process is started and contained.

This first version runs each bot in its own process group (so that the whole group dies with the
match) with a clean environment and a private scratch folder. ``start`` is the only entry point the
referee uses; ``BotProcess.kill`` ends everything the bot started.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import protocol
from arena.bots import BotSpec

SDK_PATH = str(Path(protocol.__file__).resolve().parent.parent)


@dataclass(frozen=True)
class Limits:
    """Resource limits of one bot process tree."""

    memory_mb: int = 1024
    cpu_seconds: int = 60
    processes: int = 64
    open_files: int = 256
    file_size_mb: int = 64
    scratch_mb: int = 64
    strict: bool = False


class BotProcess:
    """A started bot: its ``Popen`` (binary pipes on stdin/stdout/stderr) and its scratch folder."""

    def __init__(self, proc: subprocess.Popen, scratch: Path, level: str) -> None:
        self.proc = proc
        self.scratch = scratch
        self.level = level

    def kill(self) -> None:
        """Kill the bot's whole process group and remove its scratch folder (idempotent)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        shutil.rmtree(self.scratch, ignore_errors=True)


def bot_environment(scratch: Path) -> dict[str, str]:
    """A clean environment: nothing of the referee's leaks to the bot."""
    return {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "HOME": str(scratch),
        "TMPDIR": str(scratch),
        "LANG": "C.UTF-8",
        "PYTHONPATH": SDK_PATH,
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def start(bot: BotSpec, limits: Limits | None = None) -> BotProcess:
    """Start a bot's command in its folder; raises ``OSError`` if it cannot be started."""
    scratch = Path(tempfile.mkdtemp(prefix="arena-bot-"))
    try:
        proc = subprocess.Popen(
            list(bot.command), cwd=bot.path, env=bot_environment(scratch),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True, bufsize=0, close_fds=True,
        )
    except OSError:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return BotProcess(proc, scratch, level="process-group")
