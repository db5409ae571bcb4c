"""Hostile submissions (issue 42): a submission that is a link, or holds links leading out, names
that try to forge log lines, refusals said once. Real folders and links, the real command."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from arena.bots import load_bot
from tests.conftest import BOTS
from tournaments.backends import SerialBackend
from tournaments.config import load_config
from tournaments.run import RunResult, prepare, run_tournament
from tournaments.store import Store
from tournaments.watch import Watch

from .conftest import CRASH_BOT, HASH_BOT, make_bot, small_config, write_config
from .test_kill_resume import ARENA

SECRET = "TOPSECRET-4f1e"


def run(config: Path, out: Path, lines: list[str]) -> RunResult:
    return run_tournament(prepare(load_config(config), out), backend=SerialBackend(),
                          progress=False, say=lines.append)


def files_holding(folder: Path, text: str) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()
            and text.encode() in p.read_bytes()]


def private_folder(where: Path) -> Path:
    private = where / "private"
    shutil.copytree(BOTS / "random", private)
    (private / "secret.txt").write_text(SECRET)
    os.chmod(private, 0o700)
    return private


def test_a_submission_that_is_a_link_or_leads_out_is_skipped_and_nothing_is_copied(tmp_path: Path) -> None:
    students = tmp_path / "students"
    make_bot(students, "ana", HASH_BOT, "a")
    make_bot(students, "bob", HASH_BOT, "b")
    os.symlink(private_folder(tmp_path), students / "evil")           # the folder is a link
    chain = make_bot(students, "chain", HASH_BOT, "c")                # sub/e climbs out via sub/d
    (chain / "sub").mkdir()
    os.symlink("..", chain / "sub" / "d")
    os.symlink("d/..", chain / "sub" / "e")
    config = write_config(tmp_path / "class.toml", small_config(["students/*"]))
    out = tmp_path / "out"
    lines: list[str] = []
    result = run(config, out, lines)
    assert result.outcome == "complete" and result.played == 2
    skipped = [line for line in lines if line.startswith("warning: skipped")]
    assert len(skipped) == 2, lines
    assert any(line.endswith("/students/evil: is a symbolic link; a submission must be a folder "
                             "of its own, not a link to one (copy the folder in instead)")
               for line in skipped), skipped
    assert any("'sub/e' links to d/.., outside the bot folder" in line for line in skipped)
    with Store.open(out) as store:
        assert sorted(e.name for e in store.field.entrants()) == ["ana", "bob"]
        assert sorted(Path(s.folder).name for s in store.field.submissions()) == ["chain", "evil"]
    assert files_holding(out, SECRET) == []
    for snapshot in (out / "versions").glob("*/v*"):                  # the owner's only
        assert stat.S_IMODE(os.stat(snapshot).st_mode) & 0o077 == 0, snapshot
        for f in snapshot.rglob("*"):
            assert stat.S_IMODE(os.lstat(f).st_mode) & 0o077 == 0 or f.is_symlink(), f


def test_a_store_holding_an_entrant_from_a_link_withdraws_it_and_deletes_its_snapshot(tmp_path: Path) -> None:
    """A store made while such a folder was admitted (here: named in the config, as an organiser
    may) meets the link under the pattern on resume: the entrant is withdrawn and the copy of its
    files deleted."""
    students = tmp_path / "students"
    make_bot(students, "ana", HASH_BOT, "a")
    make_bot(students, "bob", HASH_BOT, "b")
    private = private_folder(tmp_path)
    out = tmp_path / "out"
    first = write_config(tmp_path / "class.toml", small_config(["students/*", str(private)]))
    run(first, out, [])
    assert len(files_holding(out / "versions", SECRET)) == 1
    os.symlink(private, students / "evil")
    write_config(first, small_config(["students/*"]))
    lines: list[str] = []
    assert run(first, out, lines).outcome == "complete"
    assert any(line.startswith("random is withdrawn: its submission is a link") for line in lines)
    with Store.open(out) as store:
        latest = store.field.latest()
        assert {e.name: latest[e.id].state for e in store.field.entrants()}["random"] == "withdrawn"
    assert files_holding(out, SECRET) == []


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_plain_run_checks_new_submissions_and_names_cannot_forge_lines(tmp_path: Path) -> None:
    """The real command on a class folder: a crashing submission is checked and refused, never
    played; folder names with a newline, escape sequences and a bidirectional control reach the
    terminal escaped, one line each."""
    students = tmp_path / "students"
    make_bot(students, "ana", HASH_BOT, "a")
    make_bot(students, "bob", HASH_BOT, "b")
    make_bot(students, "crash", CRASH_BOT)
    forged = "x\nFORGED admitted\x1b]0;TITLE\x07\x1b[2J\u202e"
    (make_bot(students, forged, HASH_BOT, "f") / "bot.toml").write_text(  # checked, admitted
        'name = "forged"\ncommand = ["python3", "main.py", "f"]\n')
    broken = students / "y\nFORGED skipped\x1b[31m"
    broken.mkdir()
    (broken / "bot.toml").write_text("name = [\n")                    # refused
    config = write_config(tmp_path / "class.toml", small_config(["students/*"]))
    out = tmp_path / "out"
    proc = subprocess.run([*ARENA, "tournament", "run", str(config), "--output", str(out), "-q"],
                          capture_output=True, text=True, timeout=200)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout + proc.stderr
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert not any(line.startswith("FORGED") for line in text.splitlines())
    assert "checking " + str(students) + "/x\\x0aFORGED admitted\\x1b]0;TITLE\\x07\\x1b[2J\\u202e (" \
        in proc.stderr
    assert "skipped " + str(students) + "/y\\x0aFORGED skipped\\x1b[31m:" in proc.stderr
    assert "crash failed its check" in proc.stderr.replace(str(students) + "/", "")
    with Store.open(out) as store:
        names = sorted(e.name for e in store.field.entrants())
        assert "crash" not in names and len(names) == 3
        assert all(s == "ok" for m in store.matches.all() for s in m.statuses)


def test_a_refusal_is_said_once_per_version(tmp_path: Path) -> None:
    students = tmp_path / "students"
    make_bot(students, "ana", HASH_BOT, "a")
    make_bot(students, "bob", HASH_BOT, "b")
    dan = make_bot(students, "dan")
    (dan / "bot.toml").write_text("name = [broken\n")
    config = write_config(tmp_path / "class.toml", small_config(["students/*"]))
    out = tmp_path / "out"
    lines: list[str] = []

    def play(prepared):
        return run_tournament(prepared, backend=SerialBackend(), progress=False, say=lines.append)

    w = Watch(config, out, play, lines.append, settle=0)
    w.look()
    make_bot(students, "cy", HASH_BOT, "c")                            # later batches...
    w.look()
    make_bot(students, "eve", HASH_BOT, "e")
    w.look()
    assert sum("skipped" in line and "dan" in line for line in lines) == 1, lines
    (dan / "bot.toml").write_text("name = [still broken\n")            # a new version of it
    w.look()
    assert sum("skipped" in line and "dan" in line for line in lines) == 2, lines


def test_a_folder_that_changed_after_its_check_is_not_admitted(tmp_path: Path) -> None:
    """The snapshot admitted is the version that passed its check: a folder changed between the
    check and the snapshot waits for its own check (the next look)."""
    students = tmp_path / "students"
    for name in ("ana", "bob", "cy"):
        make_bot(students, name, HASH_BOT, name)
    config = write_config(tmp_path / "class.toml", small_config(["students/*"]))
    out = tmp_path / "out"
    lines: list[str] = []
    checked = {str(students / "cy"): "0" * 64}                         # not what it holds now
    result = run_tournament(prepare(load_config(config), out, checked=checked),
                            backend=SerialBackend(), progress=False, say=lines.append)
    assert result.played == 2
    with Store.open(out) as store:
        assert sorted(e.name for e in store.field.entrants()) == ["ana", "bob"]
    assert not (out / "versions" / "2").exists()
    checked[str(students / "cy")] = load_bot(students / "cy").content_hash()  # now it passed
    bob = load_bot(students / "bob")
    checked[str(bob.path)] = bob.content_hash()
    (students / "bob" / "main.py").write_text("# changed after its check\n" + HASH_BOT)
    lines.clear()
    again = run_tournament(prepare(load_config(config), out, checked=checked),
                           backend=SerialBackend(), progress=False, say=lines.append)
    assert "cy joins (entrant 2)" in lines and not any("bob: version" in line for line in lines)
    assert again.played == 4
