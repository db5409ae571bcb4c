"""One run at a time per output folder: a second run of the same folder is refused with one clear
line naming the run that holds it, and writes nothing; the lock dies with its run, even killed."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.errors import ArenaError
from tournaments.config import load_config
from tournaments.lock import LOCK_NAME, output_lock
from tournaments.run import prepare, run_tournament
from tournaments.store import STORE_NAME

from .conftest import HASH_BOT, make_bot, small_config, write_config

pytestmark = pytest.mark.timeout(120)

# thinks 0.3 s a move: a run of it lasts long enough to be met by a second one
SLOW_BOT = HASH_BOT.replace("def choose(observation, legal):",
                            "import time\n\ndef choose(observation, legal):\n    time.sleep(0.3)")
HOLDER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from tournaments.lock import output_lock
    with output_lock(Path(sys.argv[1])):
        print("holding", flush=True)
        sys.stdin.read()
""")


@pytest.fixture()
def config(tmp_path: Path, bots: dict[str, Path]) -> Path:
    return write_config(tmp_path / "t.toml", small_config([bots["alpha"], bots["beta"]]))


def test_a_run_is_refused_while_another_process_holds_its_folder(tmp_path: Path, config: Path) -> None:
    out = tmp_path / "out"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(out)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2])
    try:
        assert holder.stdout.readline().strip() == "holding"
        with pytest.raises(ArenaError, match=rf"output folder .* is in use by another run "
                                             rf"\(pid {holder.pid}\)"):
            run_tournament(prepare(load_config(config), out), progress=False)
        assert not (out / STORE_NAME).exists()  # nothing written
    finally:
        holder.kill()
        holder.wait(timeout=10)
    # the holder is gone (killed, not closed): the folder is free again
    result = run_tournament(prepare(load_config(config), out), progress=False, workers=1)
    assert result.outcome == "complete"


def test_the_lock_is_held_in_this_process_too(tmp_path: Path, config: Path) -> None:
    """Two runs of one folder from one program (a notebook, say) are refused alike."""
    out = tmp_path / "out"
    with output_lock(out):
        with pytest.raises(ArenaError, match=rf"in use by another run \(pid {os.getpid()}\)"):
            run_tournament(prepare(load_config(config), out), progress=False)
    assert not (out / STORE_NAME).exists()


def test_two_arena_tournament_runs_on_one_folder(tmp_path: Path) -> None:
    """The real thing: while ``arena tournament run`` plays, the same command on the same folder
    is one line and exit code 2; once the first is killed, the folder is free."""
    folder = tmp_path / "bots"
    entrants = [make_bot(folder, "slow", SLOW_BOT, "s"), make_bot(folder, "slower", SLOW_BOT, "t")]
    config = write_config(tmp_path / "slow.toml", small_config(entrants))
    out = tmp_path / "out"
    first = subprocess.Popen(
        [sys.executable, "-m", "arena", "tournament", "run", str(config), "-q", "-w", "1",
         "--output", str(out)], cwd=Path(__file__).parents[2], start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        lock = out / LOCK_NAME
        while not (lock.exists() and lock.read_text() == f"pid {first.pid}\n"):
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the first run never took its folder"
            time.sleep(0.02)
        second = CliRunner().invoke(cli, ["tournament", "run", str(config), "-q", "--output", str(out)])
        assert first.poll() is None, "the first run ended before the second was tried"
        assert second.exit_code == 2, second.output
        assert second.stderr.strip() == (f"arena: error: output folder {str(out.resolve())!r} is in "
                                         f"use by another run (pid {first.pid}); wait for it to end, or stop "
                                         "it (Ctrl-C)")
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.communicate(timeout=30)
    with output_lock(out):  # died with its run
        pass
