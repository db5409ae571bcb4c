"""`arena play GAME human BOT... --browser`: a person plays a seat on a page, in a real headless
Chromium, against real sandboxed bots, in every game; what the server sends that page holds
nothing another seat keeps hidden (README.md, "Playing one match": "In a web browser")."""
from __future__ import annotations

import json
import queue
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from arena.games import get_game
from arena.record import OK, RESIGNED, MatchRecord
from tests.conftest import BOTS, ROOT
from tests.reports.browser import DESKTOP, PHONE
from tests.reports.conftest import screenshot_dir

pytestmark = pytest.mark.browser

RANDOM = str(BOTS / "random")
# every game, one short match; the person in seat 0 or 1
SHORT = [
    ("block", ["human", RANDOM], ["-o", "single_deal=true"]),
    ("domino-cribbage", [RANDOM, "human"], ["-o", "max_deals=1"]),
    ("thousand", ["human", RANDOM, RANDOM], ["-o", "max_deals=1"]),
    ("dice-1000", ["human", RANDOM], ["-o", "max_rounds=2", "-o", "open_min=5"]),
]
# where each drawer draws a seat's hand: the seat's box (with data-seat) and the hand in it
HANDS = {"block": ".bk-seat[data-seat='{}'] .bk-hand", "domino-cribbage": ".dc-seat[data-seat='{}'] .dc-hand",
         "thousand": ".th-seat[data-seat='{}'] .th-hand"}
SHOWN_HANDS = """
var where = arguments[0];
return arguments[1].map(function (seat) {
  var hand = document.querySelector('.replay-board ' + where.replace('{}', seat));
  return Array.prototype.map.call(hand.querySelectorAll('[data-tile], [data-card]'), function (e) {
    return e.getAttribute('data-tile') || e.getAttribute('data-card');
  });
});"""
ADDRESS = re.compile(r"^seat (\d+) \(([^)]*)\): open (http://127\.0\.0\.1:\d+/\S+/) in a web browser$")


class Arena:
    """``arena play ... --browser`` as a real subprocess; its output read by a thread, so that no
    read blocks; killed by :meth:`close` if still running."""

    def __init__(self, *args: str, cwd: Path = ROOT) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "arena", "play", *args, "--browser"],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     cwd=cwd, start_new_session=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)
            self.lines.put(line.rstrip("\n"))

    def addresses(self, count: int, timeout: float = 60) -> dict[int, str]:
        """The printed address of each of ``count`` seats."""
        found: dict[int, str] = {}
        deadline = time.monotonic() + timeout
        while len(found) < count:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError("no address printed:\n" + "".join(self.output)) from None
            m = ADDRESS.match(line)
            if m:
                found[int(m.group(1))] = m.group(3)
        return found

    def wait(self, timeout: float = 60) -> int:
        return self.proc.wait(timeout=timeout)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


def fetch(url: str, timeout: float = 15) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        return json.loads(answer.read())


def state_after(game: str, record: MatchRecord, decisions: int):
    options = {k: v for k, v in record.options.items() if k != "num_players"}
    game_ = get_game(game)
    state = game_.new_match(game_.make_options(len(record.seats), options), record.seed)
    for decision in record.decisions[:decisions]:
        state.apply(decision["action"])
    return state


def check_sent(game: str, record: MatchRecord, seat: int, views: list[dict[str, Any]]) -> None:
    """Each view the server sent, taken when the seat was asked, holds only what it may know:
    the events as the game shows them to that seat, no other seat's legal actions, and, since
    the last deal, no item that another seat alone holds then (by the engine's private_items)."""
    g = get_game(game)
    for view in views:
        sent = view["record"]
        events = sent["events"]
        assert events == [g.seen_by(e, {seat}) for e in record.events[:len(events)]]
        assert all((d is None) == (record.decisions[i]["seat"] != seat)
                   for i, d in enumerate(sent["decisions"]))
        decision = view["asking"]["decision"]
        state = state_after(game, record, decision)
        assert state.current_player() == seat and state.legal_actions() == view["asking"]["legal"]
        hidden = set().union(*(state.private_items(s) for s in range(len(record.seats)) if s != seat))
        deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
        recent = json.dumps([events[deals[-1] if deals else 0:], view["asking"]])
        for item in hidden:
            assert not re.search(rf"(?<![\w-]){re.escape(item)}(?![\w-])", recent), (item, decision, recent)


def piece(browser, seat: int, name: str):
    """The element of the seat's hand on the board that draws the tile or card ``name``."""
    where = f'.replay-board [data-seat="{seat}"]'
    return browser.css(f'{where} [data-tile="{name}"], {where} [data-card="{name}"]')


PICKED_OUT = """
var action = arguments[0], decision = arguments[1];
var move = document.querySelector('.table-move');
if (move.hidden || move.getAttribute('data-decision') !== decision) return null;
var b = Array.prototype.filter.call(document.querySelectorAll('.table-action'), function (e) {
  return e.getAttribute('data-action') === action; })[0];
return b && b.classList.contains('is-candidate') && !b.disabled ? b : null;"""


def play(browser, seat: int, decision: str, action: str, button) -> int:
    """Play ``action`` as a person does: by clicking the pieces of the hand it names, and then,
    if those pieces make more than one action (3-4:L and 3-4:R), its button, now picked out;
    by its button if it names none. The number of pieces clicked."""
    pieces = button.get_attribute("data-pieces").split()
    if not pieces:
        button.click()
        return 0
    for name in pieces:
        element = piece(browser, seat, name)
        assert "is-playable" in element.get_attribute("class"), (action, name)
        element.click()
    picked_out = browser.js(PICKED_OUT, action, decision)  # not sent yet: one of several
    if picked_out is not None:
        picked_out.click()
    return len(pieces)


@pytest.mark.timeout(240)
@pytest.mark.parametrize("game,seats,options", SHORT, ids=[s[0] for s in SHORT])
def test_a_person_plays_a_whole_match_of_every_game_in_the_browser(browser, tmp_path, game, seats, options):
    replay = tmp_path / "match.json"
    seat = seats.index("human")
    arena = Arena(game, *seats, *options, "--replay", str(replay))
    rng = random.Random(7)
    views: list[dict[str, Any]] = []
    hands: dict[int, list[list[str]]] = {}
    chosen: dict[int, str] = {}  # decision -> the action played on the page
    by_piece = 0  # of them, played by clicking pieces on the board
    face_down = 0
    try:
        address = arena.addresses(1)[seat]
        browser.driver.get(address)
        done = time.monotonic() + 150
        last = None
        while time.monotonic() < done:
            now = browser.wait("var b = document.body.getAttribute('data-table');"
                               "var m = document.querySelector('.table-move');"
                               "if (b === 'over' || b === 'gone') return b;"
                               "return b === 'asking' && !m.hidden && m.getAttribute('data-decision');",
                               timeout=60)
            assert now, "the page neither offered a move nor ended:\n" + "".join(arena.output)
            if now in ("over", "gone"):
                break
            if now == last:
                time.sleep(0.05)
                continue
            last = now
            view = fetch(address + "state?after=-1")  # what the server sends the page
            if "asking" in view and view["asking"]["decision"] == int(now):
                views.append(view)
            if game in HANDS:  # the hands as the board draws them now
                hands[int(now)] = browser.js(SHOWN_HANDS, HANDS[game], list(range(len(seats))))
            face_down = max(face_down, int(browser.js(
                "return document.querySelectorAll('[data-tile=\"?\"], [data-card=\"?\"]').length")))
            legal = view["asking"]["legal"]
            buttons = {b.get_attribute("data-action"): b for b in browser.all(".table-action")}
            assert sorted(buttons) == sorted(legal)  # those that name no piece first
            assert all(b.text.startswith(f"{legal.index(a) + 1}. ") for a, b in buttons.items())
            chosen[int(now)] = rng.choice(legal)
            by_piece += play(browser, seat, now, chosen[int(now)], buttons[chosen[int(now)]])
        assert now == "over", "".join(arena.output)
        assert "The match is over" in browser.css(".table-status").text
        assert browser.js("return document.querySelector('.replay-outcome').hidden") is False
        assert arena.wait() == 0, "".join(arena.output)
        assert browser.errors() == []
    finally:
        arena.close()
    record = MatchRecord.from_json(replay.read_text())
    assert record.seats[seat] == {"name": "human", "path": ""}
    assert [s.status for s in record.statuses] == [OK] * len(seats)
    assert record.events[-1]["type"] == "match_end"
    mine = [d for d in record.decisions if d["seat"] == seat]
    assert len(mine) == len(views) > 0
    assert {i: record.decisions[i]["action"] for i in chosen} == chosen
    assert (by_piece > 0) == (game != "dice-1000")  # roll and stop name no piece
    check_sent(game, record, seat, views)
    assert (face_down > 0) == get_game(game).hidden_information  # the other hands, face down
    for decision, shown in hands.items():  # the board at each of the seat's turns
        state = state_after(game, record, decision)
        observation = state.observation(seat)
        assert [len(h) for h in shown] == observation["hand_sizes"]
        assert sorted(shown[seat]) == sorted(observation["hand"])
        for other, hand in enumerate(shown):
            if other != seat:
                assert not set(hand) & state.private_items(other), (decision, other, hand)
    assert "match record written to" in "".join(arena.output)
    # the terminal keeps the public log: every hand face down, the person's too
    plain = [s["name"] for s in record.seats]
    names = [f"{n}#{i}" if plain.count(n) > 1 else n for i, n in enumerate(plain)]
    g = get_game(game)
    for event in record.events:
        if event["type"] == "deal":
            assert g.describe(g.seen_by(event, set()), names) in "".join(arena.output)
            assert g.describe(g.seen_by(event, {seat}), names) not in "".join(arena.output)
    assert views[0]["record"]["options"] == record.options


@pytest.mark.timeout(120)
def test_resign_ctrl_c_and_one_page_per_seat(browser, tmp_path):
    """Two people: a page each, at addresses of their own (another address is not found). One
    resigns with the page's button: at its turn its seat is `resigned`, which ends the match.
    Ctrl-C in the terminal stops a match with 130 and writes the record, marked stopped."""
    replay = tmp_path / "match.json"
    arena = Arena("block", "human", RANDOM, "human", "-o", "single_deal=true", "--replay", str(replay))
    try:
        addresses = arena.addresses(2)
        assert set(addresses) == {0, 2} and addresses[0] != addresses[2]
        root = addresses[0].rsplit("/", 2)[0]
        with pytest.raises(urllib.error.HTTPError) as missing:
            fetch(root + "/nothing/state")
        assert missing.value.code == 404
        browser.driver.get(addresses[2])
        browser.wait("return document.body.getAttribute('data-table') !== 'loading'")
        browser.css(".table-resign").click()
        browser.css(".table-resign-sure").click()
        # seat 0 plays from its own page until the match ends
        browser.driver.get(addresses[0])
        for _ in range(40):
            now = browser.wait("var b = document.body.getAttribute('data-table');"
                               "return (b === 'over' || b === 'gone') ? b : b === 'asking' && "
                               "document.querySelector('.table-move').getAttribute('data-decision');",
                               timeout=60)
            if now in ("over", "gone"):
                break
            browser.all(".table-action")[0].click()
            browser.wait(f"var m = document.querySelector('.table-move');"
                         f"return m.hidden || m.getAttribute('data-decision') !== '{now}';", timeout=30)
        assert arena.wait() == 0, "".join(arena.output)
    finally:
        arena.close()
    record = MatchRecord.from_json(replay.read_text())
    assert record.statuses[2].status == RESIGNED and record.ranks[2] == 3
    assert record.statuses[2].reason.endswith(": its page's Resign button")
    assert [s["name"] for s in record.seats] == ["human", "random", "human"]

    stopped = tmp_path / "stopped.json"
    arena = Arena("block", "human", RANDOM, "--replay", str(stopped))
    try:
        browser.driver.get(arena.addresses(1)[0])
        assert browser.wait("return document.body.getAttribute('data-table') === 'asking'", timeout=60)
        arena.proc.send_signal(signal.SIGINT)
        assert arena.wait() == 130, "".join(arena.output)
        # the page was told before the server stopped
        assert browser.wait("return document.body.getAttribute('data-table') === 'over'", timeout=10)
        assert "The match was stopped: interrupted (Ctrl-C)" in browser.css(".table-status").text
    finally:
        arena.close()
    record = MatchRecord.from_json(stopped.read_text())
    assert record.stopped.startswith("interrupted (Ctrl-C)")
    assert record.seats[0]["name"] == "human"


ON_SCREEN = """
var rect = function (e) { var r = e.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
var shown = function (sel) { return Array.prototype.filter.call(document.querySelectorAll(sel),
  function (e) { return e.offsetParent !== null; }).map(rect); };
return {height: window.innerHeight, width: window.innerWidth, scrolled: window.scrollY,
        board: rect(document.querySelector('.replay-board')), move: rect(document.querySelector('.table-move')),
        actions: shown('.table-action'), controls: rect(document.querySelector('.replay-controls')),
        playable: shown('.replay-board .is-playable'), wide: document.documentElement.scrollWidth};"""


@pytest.mark.timeout(120)
def test_a_person_plays_by_clicking_the_tiles_and_the_table_fits_a_phone(browser, tmp_path):
    """At 390 px the board and the moves are on the first screen, the replay's controls below
    them; a click on a tile of the hand plays it; a tile that two actions name (3-4:L and 3-4:R,
    both ends showing 4... the same tile) picks out their buttons to choose from."""
    replay = tmp_path / "match.json"
    arena = Arena("block", "human", RANDOM, "-o", "single_deal=true", "--seed", "3", "--replay", str(replay))
    chosen: dict[int, str] = {}
    one_click = 0
    browser.size(*PHONE)
    try:
        browser.driver.get(arena.addresses(1)[0])
        last = None
        while True:
            now = browser.wait("var b = document.body.getAttribute('data-table');"
                               "var m = document.querySelector('.table-move');"
                               "if (b === 'over' || b === 'gone') return b;"
                               "return b === 'asking' && !m.hidden && m.getAttribute('data-decision');",
                               timeout=60)
            assert now, "".join(arena.output)
            if now in ("over", "gone"):
                break
            if now == last:
                time.sleep(0.05)
                continue
            last = now
            buttons = {b.get_attribute("data-action"): b for b in browser.all(".table-action")}
            if not chosen:  # the first screen at the first question
                at = browser.js(ON_SCREEN)
                assert (at["width"], at["scrolled"]) == (PHONE[0], 0) and at["wide"] <= PHONE[0]
                top, bottom = at["board"][:2]
                assert 0 <= top < bottom <= at["height"], at  # the whole board
                assert at["actions"] and all(b[1] <= at["height"] for b in at["actions"]), at
                assert at["playable"] and all(t[1] <= at["height"] for t in at["playable"]), at
                assert at["controls"][0] >= at["move"][1], at  # the replay's controls: below the moves
                browser.driver.save_screenshot(str(screenshot_dir() / "table-phone-first-screen.png"))
            named = {a: b.get_attribute("data-pieces").split() for a, b in buttons.items()}
            tiles = [p for a in named for p in named[a]]
            single = [a for a in named if len(named[a]) == 1 and tiles.count(named[a][0]) == 1]
            if single:  # one click on the tile plays it, no button
                action = single[0]
                piece(browser, 0, named[action][0]).click()
                assert browser.wait(f"var m = document.querySelector('.table-move');"
                                    f"return m.hidden || m.getAttribute('data-decision') !== '{now}';", timeout=30)
                one_click += 1
            else:
                action = next(iter(named))
                play(browser, 0, now, action, buttons[action])
            chosen[int(now)] = action
        assert arena.wait() == 0, "".join(arena.output)
        assert browser.errors() == []
    finally:
        arena.close()
        browser.size(*DESKTOP)
    record = MatchRecord.from_json(replay.read_text())
    assert {i: record.decisions[i]["action"] for i in chosen} == chosen
    assert one_click >= 2 and len(chosen) == sum(1 for d in record.decisions if d["seat"] == 0)
