"""`arena play GAME human BOT...`: a person plays a seat from a terminal or a pipe, against real
sandboxed bots (README.md, "Playing one match"; docs/match-record.md)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from arena.games import get_game
from arena.record import OK, RESIGNED, TIMEOUT, MatchRecord
from tests.conftest import BOTS, ROOT

RANDOM = str(BOTS / "random")
# every game, capped at one deal or round (Game.length_option), the human in seat 0 or 1
SHORT = [
    ("block", ["human", RANDOM], ["-o", "max_deals=1"]),
    ("domino-cribbage", [RANDOM, "human"], ["-o", "max_deals=1"]),
    ("thousand", ["human", RANDOM, RANDOM], ["-o", "max_deals=1"]),
    ("dice-1000", ["human", RANDOM], ["-o", "max_rounds=1", "-o", "open_min=5"]),
]
ALWAYS_ONE = "1\n" * 2000


def arena(*args: str, stdin: str = "", cwd: Path = ROOT, timeout: float = 120):
    return subprocess.run([sys.executable, "-m", "arena", *args], input=stdin, text=True,
                          capture_output=True, cwd=cwd, timeout=timeout)


def replayed(record: MatchRecord):
    """The match played again from its seed and decisions, as any record is."""
    game = get_game(record.game)
    options = {k: v for k, v in record.options.items() if k != "num_players"}
    state = game.new_match(game.make_options(len(record.seats), options), record.seed)
    for decision in record.decisions:
        assert state.current_player() == decision["seat"]
        assert state.legal_actions() == decision["legal"]
        state.apply(decision["action"])
    return state


@pytest.mark.parametrize("game,seats,options", SHORT, ids=[s[0] for s in SHORT])
def test_a_piped_person_plays_a_whole_match_of_every_game(tmp_path, game, seats, options):
    replay = tmp_path / "match.json"
    done = arena("play", game, *seats, *options, "--replay", str(replay),
                 stdin="oops\n" + ALWAYS_ONE)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    seat = seats.index("human")
    assert f"-- seat {seat} (human), decision" in out and "your move" in out
    assert "'oops' is not one of the" in out  # a typo gets the list again, not a forfeit
    assert out.index("'oops' is not one of the") < out.index("  1. ", out.index("'oops'"))
    record = MatchRecord.from_json(replay.read_text())
    assert record.seats[seat] == {"name": "human", "path": ""}
    assert [s.status for s in record.statuses] == [OK] * len(seats)
    plain = [s["name"] for s in record.seats]
    names = [f"{n}#{i}" if plain.count(n) > 1 else n for i, n in enumerate(plain)]
    mine = [d for d in record.decisions if d["seat"] == seat]
    assert mine and all(d["action"] == d["legal"][0] for d in mine)  # "1" is the first action
    assert replayed(record).events == record.events
    assert record.events[-1]["type"] == "match_end"
    for event in record.events:  # what the person's seat may not know stays face down
        if event["type"] == "deal":
            shown = get_game(game).describe(event, names)
            assert shown and shown not in out  # as a bot-only match prints it: every hand
            seen = get_game(game).describe(get_game(game).seen_by(event, {seat}), names)
            assert seen and f"{seen}\n" in out and "?" in seen
            for i, hand in enumerate(event["hands"]):
                if i != seat and hand:
                    assert f"  {names[i]}: {' '.join(hand)}\n" not in out
        if game == "domino-cribbage" and event["type"] == "action" and "count" not in event \
                and event["seat"] != seat:
            assert "  random lays ? ? in the crib\n" in out  # both tiles face down
            assert f"  random lays {event['action'][len('discard '):]} in the crib" not in out
    view = arena("view", str(replay), "--output", str(tmp_path / "match.html"))
    assert view.returncode == 0, view.stderr
    assert "human" in (tmp_path / "match.html").read_text()


def test_the_other_hands_stay_face_down(tmp_path):
    replay = tmp_path / "match.json"
    done = arena("play", "block", "human", RANDOM, "-o", "max_deals=1", "--replay", str(replay),
                 stdin=ALWAYS_ONE)
    assert done.returncode == 0, done.stderr
    record = MatchRecord.from_json(replay.read_text())
    hands = next(e for e in record.events if e["type"] == "deal")["hands"]
    assert "  random: ? ? ? ? ? ? ?" in done.stdout
    assert f"  random: {' '.join(hands[1])}" not in done.stdout
    assert f"  human: {' '.join(hands[0])}" in done.stdout
    assert f"hand: {' '.join(hands[0])}" in done.stdout  # its own observation


def test_thousand_hides_the_prikups_and_the_cards_given_to_others():
    game = get_game("thousand")
    deal = {"type": "deal", "deal": 1, "redeal": 0, "dealer": 0, "golden": False,
            "hands": [[], ["QH", "KH"], ["AS", "TS"], ["9C", "JC"]], "prikups": [["QS", "KS"]]}
    seen = game.seen_by(deal, {1})
    assert seen["hands"] == [[], ["QH", "KH"], ["?", "?"], ["?", "?"]]
    assert seen["prikups"] == [["?", "?"]]
    give = {"type": "action", "seat": 2, "action": "give QS 3"}
    assert game.seen_by(give, {1})["action"] == "give ? 3"
    assert game.seen_by(give, {3}) == give and game.seen_by(give, {2}) == give
    bury = {"type": "action", "seat": 2, "action": "bury QS"}
    assert game.seen_by(bury, {1})["action"] == "bury ?" and game.seen_by(bury, {2}) == bury
    prikup = {"type": "prikup", "seat": 2, "index": 0, "cards": ["QS", "KS"], "shown": False}
    assert game.seen_by(prikup, {1})["cards"] == ["?", "?"] and game.seen_by(prikup, {2}) == prikup
    assert game.seen_by({**prikup, "shown": True}, {1})["cards"] == ["QS", "KS"]
    play = {"type": "action", "seat": 2, "action": "play QS"}
    assert game.seen_by(play, {1}) == play


def test_what_no_seat_sees_stays_face_down_for_every_seat():
    """Block's tiles set aside are seen by no seat (block.md: how many, never which); Domino
    Cribbage's crib lies face down until the show scores it."""
    block = get_game("block")
    state = block.new_match(block.make_options(2), 0)
    deal = state.events[0]
    assert deal["type"] == "deal" and len(deal["set_aside"]) == 14
    for seat in (0, 1):
        assert block.seen_by(deal, {seat})["set_aside"] == ["?"] * 14
    cribbage = get_game("domino-cribbage")
    state = cribbage.new_match(cribbage.make_options(2), 0)
    while not any(e["type"] == "crib" for e in state.events):
        state.apply(state.legal_actions()[0])
    crib = next(e for e in state.events if e["type"] == "crib")
    for seat in (0, 1):
        assert cribbage.seen_by(crib, {seat})["tiles"] == ["?"] * 4
        assert "?" in (cribbage.describe(cribbage.seen_by(crib, {seat}), ["a", "b"]) or "")


def test_browser_needs_a_person_and_a_free_port(tmp_path):
    import socket

    done = arena("play", "block", RANDOM, RANDOM, "--browser")
    assert done.returncode == 2 and "--browser is for a person at the table" in done.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = arena("play", "block", "human", RANDOM, "--browser", "--port", str(port),
                     "--replay", str(tmp_path / "m.json"))
    assert done.returncode == 2, done.stderr
    assert f"arena: error: --port {port}: cannot serve on 127.0.0.1:{port}" in done.stderr
    assert not (tmp_path / "m.json").exists()


def test_a_page_left_alone_runs_out_of_time_only_with_a_clock(tmp_path):
    """With --time-control a seat whose page is never opened times out; the match ends, and the
    record says so. (Without a clock the match waits: tests/reports/test_table_browser.py.)"""
    replay = tmp_path / "m.json"
    done = arena("play", "block", "human", RANDOM, "--browser", "-t", "0.3+0", "-o", "single_deal=true",
                 "--replay", str(replay))
    assert done.returncode == 0, done.stderr
    assert "seat 0 (human): open http://127.0.0.1:" in done.stdout
    record = MatchRecord.from_json(replay.read_text())
    assert record.statuses[0].status == TIMEOUT and record.statuses[1].status == OK


def test_the_end_of_the_input_resigns(tmp_path):
    replay = tmp_path / "match.json"
    done = arena("play", "block", RANDOM, "human", "--replay", str(replay), stdin="")
    assert done.returncode == 0, done.stderr
    assert "RESIGNED" in done.stdout
    record = MatchRecord.from_json(replay.read_text())
    status = record.statuses[1]
    assert status.status == RESIGNED and "the input ended" in status.reason
    assert status.failure is not None and status.failure["kind"] == RESIGNED
    assert record.ranks == [1, 2]
    assert replayed(record).events == record.events
    view = arena("view", str(replay), "--output", str(tmp_path / "match.html"))
    assert view.returncode == 0, view.stderr


def test_a_person_in_seat_1_of_3(tmp_path):
    replay = tmp_path / "match.json"
    done = arena("play", "block", RANDOM, "human", RANDOM, "-o", "max_deals=1",
                 "--replay", str(replay), stdin=ALWAYS_ONE)
    assert done.returncode == 0, done.stderr
    record = MatchRecord.from_json(replay.read_text())
    assert [s["name"] for s in record.seats] == ["random", "human", "random"]
    assert {d["seat"] for d in record.decisions} == {0, 1, 2}
    assert "-- seat 1 (human), decision" in done.stdout and "-- seat 0 " not in done.stdout
    assert [s.status for s in record.statuses] == [OK] * 3


def test_two_people_at_one_table(tmp_path):
    replay = tmp_path / "match.json"
    done = arena("play", "block", "human", RANDOM, "human", "-o", "max_deals=1", "--seed", "1",
                 "--replay", str(replay), stdin=ALWAYS_ONE)
    assert done.returncode == 0, done.stderr
    record = MatchRecord.from_json(replay.read_text())
    assert [s["name"] for s in record.seats] == ["human", "random", "human"]
    assert {d["seat"] for d in record.decisions} == {0, 1, 2}
    assert "-- seat 0 (human#0), decision" in done.stdout and "-- seat 2 (human#2), decision" in done.stdout
    assert [s.status for s in record.statuses] == [OK] * 3
    deal = next(e for e in record.events if e["type"] == "deal")
    assert f"  random: {' '.join(['?'] * len(deal['hands'][1]))}\n" in done.stdout  # face down
    assert f"  human#2: {' '.join(deal['hands'][2])}\n" in done.stdout  # a person's own hand


def test_a_bot_folder_called_human_is_reached_as_dot_slash_human(tmp_path):
    shutil.copytree(BOTS / "random", tmp_path / "human")
    replay = tmp_path / "match.json"
    done = arena("play", "block", "./human", RANDOM, "-o", "max_deals=1", "--replay", str(replay),
                 cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "your move" not in done.stdout
    record = MatchRecord.from_json(replay.read_text())
    assert Path(record.seats[0]["path"]) == tmp_path / "human"
    assert any(d["seat"] == 0 for d in record.decisions)


def test_with_a_time_control_the_person_is_on_the_clock(tmp_path):
    replay = tmp_path / "match.json"
    reader, writer = os.pipe()  # an input that never ends and never says anything
    try:
        done = subprocess.run([sys.executable, "-m", "arena", "play", "block", "human", RANDOM,
                               "-t", "0.3+0", "--replay", str(replay)], stdin=reader,
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
    finally:
        os.close(reader)
        os.close(writer)
    assert done.returncode == 0, done.stderr
    status = MatchRecord.from_json(replay.read_text()).statuses[0]
    assert status.status == TIMEOUT and "300 ms" in status.reason


def test_ctrl_c_stops_the_match_with_130_and_keeps_the_record(tmp_path):
    replay = tmp_path / "match.json"
    proc = subprocess.Popen([sys.executable, "-m", "arena", "play", "thousand", "human", RANDOM,
                             RANDOM, "--replay", str(replay)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write("1\n")  # one move, then an input that never ends
        proc.stdin.flush()
        seen = ""
        while seen.count("your move") < 2:  # asked again: waiting on the pipe
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else ""
            seen += line
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
    assert proc.returncode == 130, err
    assert "match stopped: interrupted (Ctrl-C) at decision" in err
    assert "match record written to" in out
    record = MatchRecord.from_json(replay.read_text())
    assert record.stopped.startswith("interrupted (Ctrl-C) at decision ")
    assert any(d["seat"] == 0 for d in record.decisions)
    assert record.events[-1]["type"] != "match_end"
    assert replayed(record).events == record.events
    assert MatchRecord.unpack(record.pack()).stopped == record.stopped  # as a store keeps it
    played = arena("play", "block", RANDOM, RANDOM, "-o", "max_deals=1",
                   "--replay", str(tmp_path / "played.json"))
    assert played.returncode == 0  # a match played out says nothing of stopping
    assert "stopped" not in (tmp_path / "played.json").read_text()


def test_an_observation_reads_field_by_field_in_the_games_words():
    from arena.game import describe_fields

    assert describe_fields({"hand": ["0-3", "6-6"], "ends": None, "opened": [True, False],
                            "plays": [[1, "4-5"], [0, "pass"]],
                            "turn": {"seat": 0, "rolls": [{"faces": [1, 5]}]}, "bid": "\x1b[2J"}) == [
        "hand: 0-3 6-6", "ends: none", "opened: yes no", "plays: [1 4-5], [0 pass]",
        "turn: seat 0; rolls [faces 1 5]", "bid: \x1b[2J"]  # made visible when printed


def _raw(address: str, request: bytes, *, end: bool = True) -> bytes:
    """``request`` sent as it is to the table's server over a socket; everything it answers
    (up to its closing the connection). ``end``: close our side once sent."""
    import socket
    from urllib.parse import urlsplit

    where = urlsplit(address)
    with socket.create_connection((where.hostname, where.port), timeout=30) as conn:
        conn.sendall(request)
        if end:
            conn.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return answer


def _post(path: str, length: str, body: bytes = b"") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n\r\n").encode() + body


@pytest.mark.timeout(120)
def test_malformed_requests_to_the_table_page_get_400_and_the_match_goes_on(tmp_path):
    """Requests over a real socket to the real server of `arena play ... --browser`: a length
    that is not a number, a negative one, a body past the limit, a body that is not JSON (or
    nests 4,000 deep, or is not an object) each get 400 and one line of JSON, whatever the path;
    a wrong secret gets 404 before its body is read; the terminal shows no traceback, and the
    match goes on to its end with answers posted as the page posts them."""
    import json
    import urllib.request

    from arena.browser import BODY_CAP
    from tests.reports.test_table_browser import Arena

    replay = tmp_path / "match.json"
    table = Arena("block", "human", RANDOM, "-o", "single_deal=true", "--replay", str(replay))
    try:
        address = table.addresses(1)[0]
        secret = "/" + address.rstrip("/").rsplit("/", 1)[1] + "/"
        bad = [
            _post("/nothing/action", "abc"), _post(secret + "action", "abc"),
            _post(secret + "resign", "abc"), _post("/", "abc"),
            _post(secret + "action", "-5", b"{}"), _post(secret + "action", "+2", b"{}"),
            _post(secret + "action", "1e3"), _post(secret + "action", "٣", b"{}x"),
            _post(secret + "action", str(BODY_CAP + 1), b"{" * (BODY_CAP + 1)),
            _post(secret + "action", "99999999999999999999999"),
            _post(secret + "action", "4000", b"[" * 4000),
            _post(secret + "action", "2", b"\xff\xfe"),
            _post(secret + "action", "2", b"[]"), _post(secret + "action", "4", b"null"),
        ]
        for request in bad:
            answer = _raw(address, request)
            assert answer.startswith(b"HTTP/1.0 400 "), (request[:80], answer[:200])
            assert json.loads(answer.partition(b"\r\n\r\n")[2])["ok"] is False
        # a wrong secret is turned away before the body is read: answered while the body is
        # still to come
        answer = _raw(address, _post("/nothing/action", "100"), end=False)
        assert answer.startswith(b"HTTP/1.0 404 "), answer[:200]

        # the match goes on: the page's own requests play it to its end
        version = -1
        while True:
            with urllib.request.urlopen(f"{address}state?after={version}", timeout=30) as got:
                view = json.loads(got.read())
            version = view["version"]
            if view["over"]:
                break
            if "asking" in view:
                sent = json.dumps({"decision": view["asking"]["decision"],
                                   "action": view["asking"]["legal"][0]}).encode()
                post = urllib.request.Request(address + "action", data=sent, method="POST")
                with urllib.request.urlopen(post, timeout=30) as got:
                    assert json.loads(got.read())["ok"] is True
        assert table.wait() == 0, "".join(table.output)
    finally:
        table.close()
    assert "Traceback" not in "".join(table.output) and "Error" not in "".join(table.output)
    record = MatchRecord.from_json(replay.read_text())
    assert [s.status for s in record.statuses] == [OK, OK]
    assert any(d["seat"] == 0 for d in record.decisions)
