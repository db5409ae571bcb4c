"""A field that moves (issue 35): new versions, late entries, withdrawals, bad submissions.

Real bot folders in a temp folder, real bot subprocesses (one match at a time, in this process:
``SerialBackend``), a real store. Each run is the same ``prepare`` + ``run_tournament`` the
command line does; the bots are the deterministic hash bots of conftest, one deal per match.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tournaments.backends import SerialBackend
from tournaments.config import load_config
from tournaments.ratings import compute_ratings
from tournaments.replay import replay_match
from tournaments.run import RunResult, prepare, run_tournament
from tournaments.store import CURRENT, OLD, WITHDRAWN, Store

from .conftest import HASH_BOT, make_bot, small_config, write_config
from .test_run import comparable_record


def run(config: Path, out: Path, lines: list[str] | None = None) -> RunResult:
    say = lines.append if lines is not None else (lambda _line: None)
    return run_tournament(prepare(load_config(config), out), backend=SerialBackend(),
                          progress=False, say=say)


def rows(out: Path) -> dict[int, tuple[Any, ...]]:
    with Store.open(out) as store:
        return {m.id: (m.seats, m.versions, m.seed, m.scores, m.slot) for m in store.matches.all()}


def change(bot: Path, note: str = "changed") -> None:
    (bot / "main.py").write_text(f"# {note}\n" + (bot / "main.py").read_text())


def test_a_new_version_plays_only_its_share_on_fresh_deals(tmp_path: Path,
                                                            bots: dict[str, Path]) -> None:
    """Four entrants, six pairs, twelve matches; beta changes: the next run plays beta's three
    pairs again (six matches, both seats of each deal) on deals never dealt before, every stored
    match keeps its id and row, beta's old matches leave the standings, and an old match still
    replays exactly, from the old version's snapshot."""
    config = write_config(tmp_path / "t.toml", small_config(
        [bots["alpha"], bots["beta"], bots["gamma"], bots["first"]]))
    out = tmp_path / "out"
    assert run(config, out).played == 12
    before = rows(out)
    old_beta = [mid for mid, r in before.items() if 1 in r[0]]
    change(bots["beta"])
    lines: list[str] = []
    second = run(config, out, lines)
    assert "beta: version 2 admitted" in lines
    assert second.played == 6 and second.total == 12 and second.done == 12
    after = rows(out)
    assert {mid: after[mid] for mid in before} == before          # ids and rows never change
    new = {mid: r for mid, r in after.items() if mid not in before}
    assert sorted(new) == list(range(13, 19))                     # new ids after the schedule's
    assert all(1 in seats and dict(zip(seats, versions))[1] == 2
               for seats, versions, *_ in new.values())
    assert not {r[2] for r in new.values()} & {r[2] for r in before.values()}  # fresh deals
    by_slot: dict[int, set[tuple[int, ...]]] = {}
    for seats, _versions, seed, _scores, slot in new.values():
        by_slot.setdefault(slot, set()).add(seats)
        assert [r[2] for r in new.values() if r[4] == slot] == [seed, seed]  # one deal a set
    assert len(by_slot) == 3 and all(len(s) == 2 for s in by_slot.values())  # both seats each
    with Store.open(out) as store:
        current = {m.id for m in store.matches.current()}
        assert not current & set(old_beta) and len(current) == 12
        assert [(v.entrant, v.version, v.state) for v in store.field.versions() if v.entrant == 1] == \
            [(1, 1, OLD), (1, 2, CURRENT)]
        ratings = compute_ratings(store)
    assert ratings.standing("beta").matches == 6 and ratings.rated == 12
    assert run(config, out).played == 0                           # nothing left to play
    replay = replay_match(out, old_beta[0])                       # version 1, from its snapshot
    assert replay.stored is not None
    assert comparable_record(replay.replayed) == comparable_record(replay.stored)


def test_two_bots_changing_at_once_play_their_shared_pair_once(tmp_path: Path,
                                                               bots: dict[str, Path]) -> None:
    config = write_config(tmp_path / "t.toml", small_config(
        [bots["alpha"], bots["beta"], bots["gamma"], bots["first"]]))
    out = tmp_path / "out"
    run(config, out)
    change(bots["alpha"])
    change(bots["beta"])
    assert run(config, out).played == 10      # 3 + 3 pairs, less the one they share: 5 pairs
    with Store.open(out) as store:
        shared = [m for m in store.matches.all() if set(m.seats) == {0, 1}]
    assert sorted(m.versions for m in shared) == [(1, 1), (1, 1), (2, 2), (2, 2)]


def test_a_late_entry_joins_and_a_bot_that_left_is_withdrawn(tmp_path: Path) -> None:
    """A glob of three bots (three pairs); a fourth folder appears: it plays its three pairs and
    nothing else; a folder disappears: withdrawn, out of the standings, kept in the history."""
    students = tmp_path / "students"
    for name, salt in (("ana", "a"), ("bob", "b"), ("cy", "c")):
        make_bot(students, name, HASH_BOT, salt)
    config = write_config(tmp_path / "class.toml", small_config(["students/*"]))
    out = tmp_path / "out"
    assert run(config, out).played == 6
    make_bot(students, "dee", HASH_BOT, "d")
    lines: list[str] = []
    late = run(config, out, lines)
    assert "dee joins (entrant 3)" in lines
    assert late.played == 6 and late.total == 12
    with Store.open(out) as store:
        assert sorted({m.seats for m in store.matches.all() if m.id > 6}) == \
            [(0, 3), (1, 3), (2, 3), (3, 0), (3, 1), (3, 2)]
    shutil.rmtree(students / "bob")
    lines = []
    assert run(config, out, lines).played == 0
    assert any(line.startswith("bob is withdrawn") for line in lines)
    with Store.open(out) as store:
        assert store.field.latest()[1].state == WITHDRAWN
        assert len(store.matches.all()) == 12                          # kept in the history
        ratings = compute_ratings(store)
    assert sorted(s.entrant.name for s in ratings.standings) == ["ana", "cy", "dee"]
    assert all(s.matches == 4 for s in ratings.standings)          # bob's matches are not rated
    change(students / "ana")
    assert run(config, out).played == 4
    from click.testing import CliRunner

    from arena.cli import cli

    printed = CliRunner().invoke(cli, ["ratings", str(out)]).output
    assert "versions ranked: ana v2" in printed
    assert "out of the standings: bob (withdrawn: its folder is no longer among the entrants)" \
        in printed


def test_a_bad_submission_in_a_glob_is_skipped_with_a_warning_and_a_row(tmp_path: Path) -> None:
    students = tmp_path / "students"
    for name, salt in (("ana", "a"), ("bob", "b")):
        make_bot(students, name, HASH_BOT, salt)
    (students / "cy").mkdir()                                      # no manifest (yet)
    (make_bot(students, "dan") / "bot.toml").write_text("name = [broken\n")
    os.mkfifo(make_bot(students, "eve") / "pipe")                  # a FIFO: never opened
    (make_bot(students, "fay") / "weights.bin").write_bytes(b"0" * (2 << 20))  # over folder_mb
    config = write_config(tmp_path / "class.toml", small_config(["students/*"],
                                                                limits={"folder_mb": 1}))
    out = tmp_path / "out"
    lines: list[str] = []
    result = run(config, out, lines)
    assert result.outcome == "complete" and result.played == 2
    skipped = [line for line in lines if line.startswith("warning: skipped")]
    assert len(skipped) == 4 and "no bot.toml" in skipped[0]
    assert "dan" in skipped[1] and "FIFO" in skipped[2] and "folder_mb" in skipped[3]
    with Store.open(out) as store:
        assert [(Path(s.folder).name, s.outcome) for s in store.field.submissions()] == \
            [("cy", "rejected"), ("dan", "rejected"), ("eve", "rejected"), ("fay", "rejected")]
    assert run(config, out).played == 0                             # listed once, not again
    with Store.open(out) as store:
        assert len(store.field.submissions()) == 4
    from reports import render_site

    site = tmp_path / "site"
    render_site(out, site)
    page = (site / "index.html").read_text(encoding="utf-8")
    assert "Submissions not admitted" in page and "no bot.toml" in page
    assert str(students) not in page                               # folder names, never paths


def test_a_bot_whose_last_matches_all_failed_is_suspended_until_a_new_version(
        tmp_path: Path, bots: dict[str, Path]) -> None:
    """suspend_after = 3: the crashing bot's fourth match is never played; it leaves the
    standings and stays out on the next run; a new version brings it back."""
    data = small_config([bots["alpha"], bots["beta"], bots["crash"]],
                        format={"rounds": 2, "suspend_after": 3})
    config = write_config(tmp_path / "t.toml", data)
    out = tmp_path / "out"
    lines: list[str] = []
    first = run(config, out, lines)
    assert any(line.startswith("crash (version 1) is suspended: its last 3 matches all failed")
               for line in lines)
    with Store.open(out) as store:
        crashed = [m for m in store.matches.all() if 2 in m.seats]
        assert len(crashed) == 3 and first.played == 4 + 3      # alpha-beta's 4, crash's 3 of 8
        assert store.field.latest()[2].state == "suspended"
        assert [s.entrant.name for s in compute_ratings(store).standings] in (
            ["alpha", "beta"], ["beta", "alpha"])
    assert run(config, out).played == 0                          # still suspended
    change(bots["crash"])
    assert run(config, out).played == 3                          # the new version, until it too
    with Store.open(out) as store:
        assert [(v.version, v.state) for v in store.field.versions() if v.entrant == 2] == \
            [(1, OLD), (2, "suspended")]


def test_a_gauntlet_takes_a_new_member_of_the_field_and_a_new_candidate(
        tmp_path: Path, bots: dict[str, Path]) -> None:
    data = small_config([bots["alpha"], bots["beta"], bots["gamma"]],
                        format={"type": "gauntlet", "candidates": ["alpha"]})
    out = tmp_path / "out"
    assert run(write_config(tmp_path / "t.toml", data), out).played == 4
    data["entrants"].append(str(bots["first"]))                   # a new member of the field
    assert run(write_config(tmp_path / "t.toml", data), out).played == 2   # meets alpha only
    delta = make_bot(tmp_path / "bots", "delta", HASH_BOT, "d")
    data["entrants"].append(str(delta))
    data["format"]["candidates"].append(str(delta))               # a candidate, by its path
    assert run(write_config(tmp_path / "t.toml", data), out).played == 6   # meets the field of 3
    with Store.open(out) as store:
        met = {frozenset(m.seats) for m in store.matches.all()}
    assert frozenset({0, 4}) not in met                            # candidates never meet


def test_the_report_says_which_version_is_ranked_and_who_is_out(tmp_path: Path) -> None:
    """The leaderboard marks the version ranked; the bot's page lists its versions; a withdrawn
    bot is listed out of the standings, with why; no folder's path is published."""
    from reports import render_site

    students = tmp_path / "students"
    for name, salt in (("ana", "a"), ("bob", "b"), ("cy", "c")):
        make_bot(students, name, HASH_BOT, salt)
    config = write_config(tmp_path / "class.toml", small_config(["students/*"]))
    out = tmp_path / "out"
    run(config, out)
    change(students / "ana")
    shutil.rmtree(students / "cy")
    run(config, out)
    site = tmp_path / "site"
    render_site(out, site)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'title="the version ranked">v2</span>' in index
    assert "Out of the standings" in index and "its folder is no longer among the entrants" in index
    page = (site / "bots" / "0-ana.html").read_text(encoding="utf-8")
    assert "<h2>Versions</h2>" in page and "<td class=\"num\">v1</td>" in page
    assert page.count("<td>old</td>") == 1 and page.count("<td>current</td>") == 1
    for folder in (students, out):
        assert str(folder) not in index and str(folder) not in page
    from reports.model import SiteModel
    from reports.source import load

    data = load(out).data
    rows = {(r.a.name, r.b.name): r for r in SiteModel(data).pair_rows()}
    pair = rows.get(("ana", "bob")) or rows[("bob", "ana")]
    assert pair.sets == 1                      # the set of ana's version 2; version 1's is history
    assert not any("cy" in names for names in rows)   # a withdrawn bot's pairs are not counted


def test_a_store_of_format_3_is_read_and_resumed(tmp_path: Path, bots: dict[str, Path]) -> None:
    """A store made before versions (no versions, slots or submissions, no slot or versions
    column, no snapshots), stopped halfway: read as it is, then resumed to the end, and a bot
    changed meanwhile is its entrant's version 2."""
    import json
    import sqlite3

    from tournaments.store import STORE_FORMAT

    from .test_run import StopAfter

    config = write_config(tmp_path / "t.toml", small_config([bots["alpha"], bots["beta"],
                                                             bots["gamma"]]))
    out = tmp_path / "out"
    run_tournament(prepare(load_config(config), out), backend=StopAfter(SerialBackend(), 2),
                   progress=False)
    conn = sqlite3.connect(out / "tournament.sqlite")
    for table in ("versions", "slots", "submissions"):
        conn.execute(f"DROP TABLE {table}")
    for column in ("slot", "versions"):
        conn.execute(f"ALTER TABLE matches DROP COLUMN {column}")
    conn.execute("DELETE FROM meta WHERE key IN ('first_schedule', 'schedule_size')")
    conn.execute("UPDATE meta SET value = ? WHERE key = 'format'",
                 (json.dumps("arena-tournament-store/3"),))
    conn.commit()
    conn.close()
    shutil.rmtree(out / "versions")
    with Store.open(out) as store:
        assert [m.versions for m in store.matches.all()] == [(1, 1), (1, 1)]
        assert compute_ratings(store).rated == 2
    change(bots["gamma"])
    result = run(config, out)
    assert result.outcome == "complete" and result.done == 6
    conn = sqlite3.connect(out / "tournament.sqlite")
    assert conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()[0] == \
        json.dumps(STORE_FORMAT)
    conn.close()
    with Store.open(out) as store:
        assert [(v.entrant, v.version) for v in store.field.versions()] == [(0, 1), (1, 1), (2, 1), (2, 2)]
        assert all(2 not in m.seats or dict(zip(m.seats, m.versions))[2] == 2
                   for m in store.matches.current())


def test_a_late_entrant_to_a_balanced_sample_sits_at_as_many_tables_as_an_average_entrant() -> None:
    """Ten entrants at tables of 3, a sample of 10 tables per round (each entrant at 3), two
    rounds: the eleventh sits at 3 tables a round, each with two entrants in play, never with
    a withdrawn one."""
    from tournaments.config import FormatConfig
    from tournaments.formats import format_of, make_schedule
    from tournaments.plan import from_schedule

    fmt = FormatConfig(players=3, rounds=2, max_tables=10)
    schedule = make_schedule(10, fmt, 7)
    assert schedule.sampled and len(schedule.tables) == 10
    slots = from_schedule(schedule, 3)
    others = [e for e in range(10) if e != 4]                   # entrant 4 has left
    added = format_of(fmt.type).join_slots(fmt, 10, others, (), slots, True, 7)
    assert len(added) == 6 and [s.round for s in added] == [0, 0, 0, 1, 1, 1]
    assert all(10 in s.entrants and 4 not in s.entrants and len(set(s.entrants)) == 3
               for s in added)
    assert [s.id for s in added] == list(range(len(slots), len(slots) + 6))
    assert {frozenset(s.entrants) for s in added[:3]} == {frozenset(s.entrants) for s in added[3:]}


@pytest.mark.timeout(120)
def test_an_sprt_whose_candidate_is_suspended_stops_waiting_for_it(tmp_path: Path,
                                                                   bots: dict[str, Path]) -> None:
    """The crashing candidate is suspended after its first pair: the run ends without a verdict
    instead of asking for the same suspended pairs again and again."""
    data = small_config([bots["crash"], bots["alpha"]])
    data["format"] = {"type": "sprt", "players": 2, "suspend_after": 2, "max_matches": 40}
    result = run(write_config(tmp_path / "t.toml", data), tmp_path / "out")
    assert result.played == 2 and result.summary is not None and result.summary.verdict is None
