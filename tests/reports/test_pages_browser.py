"""The pages at the size of a real league, in a real Chromium at desktop and phone widths.

A synthetic class league (18 bots with long names, a long schedule note) for the leaderboard,
the summary cards, the head-to-head heatmap and the rating history's legend; and one 4-player
Block match played by the engine, whose last decision is answered with an illegal action, for the
replay: the long chain at phone width, the failing decision as a step of its own, the address
that follows the step, and the play speed. Screenshots go to ``test-output/screenshots``.
"""
from __future__ import annotations

import json
import random
import shutil
import time
from pathlib import Path

import pytest

from arena.games import get_game
from arena.options import options_to_dict
from arena.record import ILLEGAL_ACTION, TIMEOUT, MatchRecord, SeatStatus
from reports.data import EntrantInfo, MatchInfo, RatingPoint, Standing, TournamentData
from reports.render import SiteWriter
from tests.reports.browser import DESKTOP, PHONE, Browser
from tests.reports.conftest import screenshot_dir
from tournaments.ratings import pair_table

BOTS = 18
NOTE = ("4 players a table: the full schedule of every table and seat rotation would be 3,060 "
        "matches, so a balanced sample of 600 is played; each pair of bots meets at about the "
        "same number of tables")
ANSWER = "6-6:Z"


def league(folder: Path) -> Path:
    rng = random.Random(4)
    people = [EntrantInfo(i, f"student-{i:02d}-{'averyveryverylongbotname' if i % 3 == 0 else 'bot'}",
                          f"/home/teacher/class/student{i}", f"Bot number {i}.") for i in range(BOTS)]
    rows, history = [], {i: [] for i in range(BOTS)}
    mu = {i: 25.0 for i in range(BOTS)}
    for n in range(1, 401):
        a, b = rng.sample(range(BOTS), 2)
        win = a if rng.random() < 0.5 + (a - b) / 60 else b
        ranks = (1, 2) if win == a else (2, 1)
        rows.append(MatchInfo(id=n, number=n, seats=(a, b), seed=n * 7919, scores=(100, 40) if win == a else (40, 100),
                              ranks=ranks, statuses=("ok", "ok"), reasons=("", ""), stderr_tails=("", ""),
                              time_ms=(1.0, 1.0), duration_ms=50.0))
        for e in (a, b):
            mu[e] += 0.3 if e == win else -0.3
            history[e].append(RatingPoint(n, mu[e], 8.3 / (1 + n / 100)))
    standings = sorted((Standing(i, history[i][-1].mu, history[i][-1].sigma, 40, 20, 0, 70.0, 0)
                        for i in range(BOTS) if history[i]), key=lambda s: -s.exposed)
    data = TournamentData(name="Class league", game="block", options={"num_players": 2}, seed=None,
                          entrants=people, matches=rows, standings=standings, history=history,
                          pairs=pair_table(rows), planned=400, details={"schedule": NOTE})
    SiteWriter(data, folder).write()
    return folder / "index.html"


def failing_four_player_match(folder: Path) -> tuple[Path, dict, TournamentData]:
    """A 4-player Block match played to its end but for the last decision, answered illegally."""
    game = get_game("block")
    options = game.make_options(4, {"target": 60})
    state = game.new_match(options, 12)
    rng = random.Random(5)
    record = MatchRecord(game="block", options=options_to_dict(options), seed=12,
                         seats=[{"name": f"seat-{i}-bot"} for i in range(4)],
                         time_control={"move_ms": 1000, "bank_ms": 10000, "startup_ms": 10000})
    steps = []
    while not state.is_terminal():
        steps.append(state.legal_actions())
        state.apply(rng.choice(steps[-1]))
    total = len(steps)
    # play it again, stopping at the last decision
    state = game.new_match(options, 12)
    rng = random.Random(5)
    while len(record.decisions) < total - 1:
        seat, legal = state.current_player(), state.legal_actions()
        action = rng.choice(legal)
        record.decisions.append({"seat": seat, "legal": legal, "action": action, "ms": 0.5})
        state.apply(action)
    seat, legal = state.current_player(), state.legal_actions()
    k = len(record.decisions)
    record.events = state.events
    record.statuses = [SeatStatus() for _ in range(4)]
    record.statuses[seat] = SeatStatus(
        ILLEGAL_ACTION, f"decision {k}: {ANSWER!r} is not one of the legal actions {legal}",
        f"thinking about decision {k}\nchose {ANSWER}\n", 3.0,
        {"decision": k, "legal": legal, "answer": ANSWER, "kind": ILLEGAL_ACTION})
    record.scores = list(state.scores())
    record.ranks = [4 if s == seat else 1 for s in range(4)]
    text = record.to_json()
    people = [EntrantInfo(i, f"seat-{i}-bot") for i in range(4)]
    data = TournamentData(
        name="Four", game="block", options=record.options, seed=None, entrants=people,
        matches=[MatchInfo(id=1, number=1, seats=(0, 1, 2, 3), seed=12, scores=tuple(record.scores),
                           ranks=tuple(record.ranks), statuses=tuple(s.status for s in record.statuses),
                           reasons=tuple(s.reason for s in record.statuses),
                           stderr_tails=tuple(s.stderr_tail for s in record.statuses),
                           time_ms=(1.0,) * 4, duration_ms=10.0)],
        standings=[], history={}, records={1: record.pack()}, planned=1)
    SiteWriter(data, folder).write()
    (folder / "record.json").write_text(text)
    return folder / "replay.html", json.loads(text), data


BIG_SEED = 3892202763452987323  # a match seed of 19 digits, as tournaments draw them: past 2^53,
assert float(BIG_SEED) != BIG_SEED  # where a JavaScript number would round it (…987400)
MOVE_MS, BANK_MS = 200, 2000  # the timed-out bot waited for: 2.2 s


def timed_out_match(folder: Path, ids: tuple[int, ...] = (1,)) -> Path:
    """A 2-player Block match whose seat 1 did not answer its 9th decision: its first 8 took a
    millisecond or less (2 ms of thinking in all), then the referee waited its 200 ms a move plus
    the 2,000 ms of its bank, 2.2 s, for nothing. ``ids``: the match ids it is stored under (a
    site of that many matches, all this one)."""
    game = get_game("block")
    options = game.make_options(2)
    state = game.new_match(options, BIG_SEED)
    rng = random.Random(3)
    record = MatchRecord(game="block", options=options_to_dict(options), seed=BIG_SEED,
                         seats=[{"name": "quick"}, {"name": "sleepy"}],
                         time_control={"move_ms": MOVE_MS, "bank_ms": BANK_MS, "startup_ms": 10000})
    while sum(d["seat"] == 1 for d in record.decisions) < 8 or state.current_player() != 1:
        seat, legal = state.current_player(), state.legal_actions()
        action = rng.choice(legal)
        record.decisions.append({"seat": seat, "legal": legal, "action": action, "ms": 0.25})
        state.apply(action)
    legal, k = state.legal_actions(), len(record.decisions)
    record.events = state.events
    record.statuses = [SeatStatus(time_ms=3.0), SeatStatus(
        TIMEOUT, f"did not answer in time: decision {k} exceeded its {MOVE_MS} ms plus {BANK_MS} ms left in its bank",
        "", 2.0, {"decision": k, "legal": legal, "answer": None, "kind": TIMEOUT})]
    record.scores, record.ranks = list(state.scores()), [1, 2]
    record.duration_ms = 2300.0
    text = record.to_json()
    data = TournamentData(
        name="Timeout", game="block", options=record.options, seed=None,
        entrants=[EntrantInfo(0, "quick"), EntrantInfo(1, "sleepy")],
        matches=[MatchInfo(id=i, number=n, seats=(0, 1), seed=BIG_SEED, scores=tuple(record.scores),
                           ranks=(1, 2), statuses=("ok", TIMEOUT), reasons=tuple(s.reason for s in record.statuses),
                           stderr_tails=("", ""), time_ms=(3.0, 2.0), duration_ms=2300.0)
                 for n, i in enumerate(ids, 1)],
        standings=[], history={}, records={i: record.pack() for i in ids}, planned=len(ids))
    SiteWriter(data, folder).write()
    (folder / "record.json").write_text(text)
    return folder / "replay.html"


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("pages")
    index = league(base / "league")
    replay, record, data = failing_four_player_match(base / "four")
    return {"index": index, "replay": replay, "record": record, "data": data,
            "timeout": timed_out_match(base / "timeout"),
            # a new version's matches take ids after every stored match: 55 is the 2nd of 2
            "renumbered": timed_out_match(base / "renumbered", (3, 55))}


def test_the_phone_leaderboard_shows_what_matters_without_scrolling(browser: Browser, sites) -> None:
    browser.size(*PHONE)
    browser.open(sites["index"])
    assert browser.errors() == []
    browser.screenshot(screenshot_dir() / "league-index-phone.png")
    wrap = browser.js("var t = document.querySelector('table.leaderboard');"
                      "return [t.scrollWidth, t.parentNode.clientWidth];")
    assert wrap[0] <= wrap[1] + 1, f"the leaderboard scrolls sideways: {wrap}"
    head = [th.text for th in browser.all("table.leaderboard thead th") if th.is_displayed()]
    assert head[:3] == ["Rank", "Bot", "μ − 3σ"] and "Wins" in head
    browser.size(*DESKTOP)


def test_summary_cards_keep_their_layout_with_a_long_note(browser: Browser, sites) -> None:
    for width, height in (DESKTOP, PHONE):
        browser.size(width, height)
        browser.open(sites["index"])
        cards = browser.js("""return Array.prototype.map.call(document.querySelectorAll('.hero .facts > div'),
            function (d) { var r = d.getBoundingClientRect(); return [d.className, r.width, r.height,
                d.querySelector('dd').scrollWidth <= d.querySelector('dd').clientWidth + 1]; });""")
        long = [c for c in cards if "is-long" in c[0]]
        short = [c for c in cards if "is-long" not in c[0]]
        assert len(long) == 1, cards
        assert all(c[2] < 130 for c in short), f"a card is stretched: {short}"
        assert all(c[3] for c in cards), "a value overflows its card"
        grid = browser.js("return document.querySelector('.hero .facts').getBoundingClientRect().width")
        assert abs(long[0][1] - grid) <= 1, "the long note has a row of its own"
        # no word of the note is split across lines
        text = browser.css(".hero .facts > div.is-long dd").text
        assert text.replace("\n", " ") == NOTE
    browser.size(*DESKTOP)


def test_the_heatmap_fits_its_card_with_long_names_and_18_bots(browser: Browser, sites) -> None:
    browser.size(*DESKTOP)
    browser.open(sites["index"])
    sizes = browser.js("var t = document.querySelector('#head-to-head table.heatmap');"
                       "var c = document.querySelector('#head-to-head');"
                       "var s = getComputedStyle(c);"
                       "return [t.getBoundingClientRect().width,"
                       " c.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)];")
    assert sizes[0] <= sizes[1] + 1, sizes
    assert len(browser.all("#head-to-head .row-head")) == BOTS
    browser.screenshot(screenshot_dir() / "league-index.png")


def test_the_legend_picks_a_line_out_of_18(browser: Browser, sites) -> None:
    browser.size(*DESKTOP)
    browser.open(sites["index"])
    picks = browser.all("#history .legend-pick")
    assert len(picks) == BOTS
    target = picks[5].get_attribute("data-entrant")
    picks[5].click()
    state = browser.js("""var svg = document.querySelector('#history svg');
        var on = svg.querySelector('.chart-line[data-entrant="' + arguments[0] + '"]');
        var off = svg.querySelector('.chart-line:not([data-entrant="' + arguments[0] + '"])');
        return [svg.classList.contains('has-focus'), on.classList.contains('is-focus'),
                parseFloat(getComputedStyle(on).opacity), parseFloat(getComputedStyle(off).opacity)];""", target)
    assert state[0] and state[1] and state[2] == 1 and state[3] < 0.5, state
    assert picks[5].get_attribute("aria-pressed") == "true"
    browser.js("document.querySelector('#history').scrollIntoView()")
    browser.screenshot(screenshot_dir() / "league-history-picked.png")
    picks[5].click()  # unpin
    browser.js("document.activeElement.blur()")
    assert not browser.js("return document.querySelector('#history svg').classList.contains('has-focus')")


def test_past_the_top_8_lines_are_grey_until_picked(browser: Browser, sites) -> None:
    browser.size(*DESKTOP)
    browser.open(sites["index"])
    picks = browser.all("#history .legend-pick")
    rest = [p for p in picks if "is-rest" in p.get_attribute("class")]
    assert len(rest) == BOTS - 8 and picks.index(rest[0]) == 8
    target = rest[3].get_attribute("data-entrant")
    stroke = """var line = document.querySelector('#history .chart-line[data-entrant="' + arguments[0] + '"]');
        return [getComputedStyle(line).stroke, line.getAttribute('stroke')];"""
    grey, colour = browser.js(stroke, target)
    assert grey == "rgb(188, 194, 204)", grey
    rest[3].click()
    picked, _ = browser.js(stroke, target)
    assert picked == "rgb({}, {}, {})".format(*(int(colour[i:i + 2], 16) for i in (1, 3, 5))), (picked, colour)
    browser.js("document.querySelector('#history').scrollIntoView()")
    browser.css("#history").screenshot(str(screenshot_dir() / "league-history-grey-picked.png"))
    rest[3].click()
    browser.js("document.activeElement.blur()")


def test_a_failed_decision_is_a_step_of_its_own(browser: Browser, sites) -> None:
    record = sites["record"]
    seat = next(i for i, s in enumerate(record["statuses"]) if s["status"] != "ok")
    failure = record["statuses"][seat]["failure"]
    k = failure["decision"]
    assert k == len(record["decisions"])  # numbered as the record counts its decisions
    browser.size(*DESKTOP)
    browser.open(sites["replay"], "?match=1#end")
    assert browser.errors() == []
    box = browser.css(".replay-failure")
    assert box.is_displayed()
    text = box.text
    assert f"at decision {k}" in text and ANSWER in text
    assert f"decision {k}:" in text  # the reason, which says the same number
    assert "chose 6-6:Z" in text  # the stderr tail, right there
    chips = [c.text for c in browser.all(".replay-failure .chip")]
    assert chips == failure["legal"]
    assert f"decision {k}: failed" in browser.css(".replay-position").text
    assert browser.css(".replay-caption").text.startswith(f"Decision {k}:")
    # the step before it is decision k - 1, with the same numbering
    browser.keys("\ue012")  # ArrowLeft
    last_decision = browser.js("return Arena.viewer.frames[Arena.viewer.pos].decision")
    position = browser.css(".replay-position").text
    if last_decision is not None:
        assert f"decision {last_decision} of 0–{k - 1}" in position
    browser.keys("\ue010")  # End
    browser.screenshot(screenshot_dir() / "match-failed-decision.png")
    browser.size(*PHONE)
    browser.open(sites["replay"], "?match=1#end")
    browser.screenshot(screenshot_dir() / "match-failed-decision-phone.png")
    browser.size(*DESKTOP)


def test_a_timeout_says_no_answer_and_how_long_it_waited(browser: Browser, sites) -> None:
    browser.size(*DESKTOP)
    browser.open(sites["timeout"], "?match=1#end")
    assert browser.errors() == []
    box = browser.css(".replay-failure .replay-decision-head").text
    assert "gave no answer: it timed out after 2.2 s" in box, box
    assert "answered" not in box
    assert "sleepy gave no answer (timed out after 2.2 s)" in browser.css(".replay-caption").text
    thinking = browser.all(".match-result tbody tr")[1].find_elements("css selector", "td")[-1].text
    # 2 ms of thinking over the answered decisions, then 2,200 ms waiting for an answer
    assert thinking.split("\n") == ["2202 ms", "no answer: timed out after 2.2 s"], thinking
    browser.screenshot(screenshot_dir() / "match-timeout.png")


def test_a_long_seed_stays_one_number(browser: Browser, sites) -> None:
    for width, height in (PHONE, DESKTOP):
        browser.size(width, height)
        browser.open(sites["timeout"], "?match=1")
        seed = browser.js("""var dd = Array.prototype.find.call(document.querySelectorAll('.match-facts div'),
            function (d) { return d.querySelector('dt').textContent === 'Seed'; }).querySelector('dd');
            var s = getComputedStyle(dd);
            return [dd.textContent, dd.getBoundingClientRect().height,
                    parseFloat(s.lineHeight) || 1.45 * parseFloat(s.fontSize), dd.scrollWidth, dd.clientWidth];""")
        assert seed[0] == str(BIG_SEED)
        assert seed[1] < 1.5 * seed[2], f"the seed wraps at {width} px: {seed}"
        assert seed[3] <= seed[4] + 1, f"the seed is cut off at {width} px: {seed}"
        if width == PHONE[0]:
            browser.js("document.querySelector('.match-facts').scrollIntoView()")
            browser.screenshot(screenshot_dir() / "match-seed-phone.png")
    browser.size(*DESKTOP)


def facts(browser: Browser) -> dict[str, str]:
    return browser.js("""var out = {};
        document.querySelectorAll('.match-facts div').forEach(function (d) {
            out[d.querySelector('dt').textContent] = d.querySelector('dd').textContent; });
        return out;""")


def test_a_seed_past_2_53_shows_exactly_and_the_counter_counts_what_it_says(
        browser: Browser, sites, tmp_path: Path) -> None:
    browser.open(sites["renumbered"], "?match=55")
    shown = facts(browser)
    assert shown["Seed"] == str(BIG_SEED)
    assert shown["Match"] == "55"
    assert shown["Played"] == "2nd of 2"
    assert browser.js("return document.title").startswith("Match 55 ")
    browser.open(sites["renumbered"], "?match=60")
    assert browser.css(".match-status").text == ("Match 60 has not been played yet (no match of this "
                                                 "tournament has this number: the last is match 55).")
    # the page of one match (arena view) reads its record from the page itself
    from reports.view import view_html
    record = MatchRecord.from_dict(json.loads((sites["renumbered"].parent / "record.json").read_text()))
    page = tmp_path / "one.html"
    page.write_text(view_html(record, "One"), encoding="utf-8")
    browser.open(page)
    assert facts(browser)["Seed"] == str(BIG_SEED)
    assert browser.errors() == []


def test_the_head_to_head_scrolls_in_its_box_with_the_names_in_view(browser: Browser, sites) -> None:
    browser.size(*PHONE)
    browser.open(sites["index"])
    overflow = browser.js("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, "the page itself scrolls sideways"
    scroll = browser.js("""var w = document.querySelector('#head-to-head table.heatmap').parentNode;
        var before = w.scrollWidth - w.clientWidth; w.scrollLeft = w.scrollWidth; return [before, w.scrollLeft];""")
    assert scroll[0] > 0 and scroll[1] > 0, f"the matrix does not scroll in its box: {scroll}"
    browser.js("document.querySelector('#head-to-head table.heatmap').scrollIntoView()")
    names = browser.js("""var w = document.querySelector('#head-to-head table.heatmap').parentNode
            .getBoundingClientRect();
        return Array.prototype.map.call(document.querySelectorAll('#head-to-head .row-head'), function (th) {
            var cell = th.getBoundingClientRect(), name = th.querySelector('.bot-name').getBoundingClientRect();
            var y = name.top + name.height / 2, hit = document.elementFromPoint(name.left + 5, y);
            return [th.textContent.trim(), cell.left - w.left, name.width, cell.right - name.right,
                    y > window.innerHeight || (!!hit && th.contains(hit))]; });""")
    assert len(names) == BOTS
    for text, left, width, room, on_top in names:
        assert abs(left) <= 1, f"{text}: scrolled out of its box ({left} px)"
        assert width >= 50, f"{text}: its name is cut to {width} px"
        assert room >= 0, f"{text}: its name runs past its cell"
        assert on_top, f"{text}: the cells scroll over the name"
    browser.css("#head-to-head").screenshot(str(screenshot_dir() / "league-head-to-head-phone.png"))
    browser.size(*DESKTOP)


def test_the_long_chain_of_4_players_fits_a_phone(browser: Browser, sites) -> None:
    browser.size(*PHONE)
    browser.open(sites["replay"], "?match=1")
    frames = browser.js("return Arena.viewer.frames.length")
    # the moment with the longest chain
    longest = browser.js("""var best = 0, at = 0; Arena.viewer.frames.forEach(function (f, i) {
        if (f.state.chain && f.state.chain.length > best) { best = f.state.chain.length; at = i; } });
        return [at, best];""")
    assert longest[1] >= 12
    browser.open(sites["replay"], f"?match=1#step={longest[0]}")
    overflow = browser.js("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1
    chain = browser.js("var c = document.querySelector('.bk-chain'); return [c.scrollWidth, c.clientWidth];")
    assert chain[0] <= chain[1] + 1, chain
    tiles = browser.js("""return Array.prototype.map.call(document.querySelectorAll('.bk-chain .tile'),
        function (t) { var r = t.getBoundingClientRect(); return [r.left, r.right]; });""")
    width = browser.js("return window.innerWidth")
    assert all(0 <= left and right <= width for left, right in tiles), "a tile is off the screen"
    browser.screenshot(screenshot_dir() / "match-4-players-phone.png")
    browser.size(*DESKTOP)
    assert frames > 20


def test_the_address_follows_the_step_and_the_speed_control(browser: Browser, sites) -> None:
    browser.size(*DESKTOP)
    browser.open(sites["replay"], "?match=1")
    for _ in range(3):
        browser.keys("\ue014")  # ArrowRight
    assert browser.js("return window.location.hash") == "#step=3"
    assert "?match=1" in browser.js("return window.location.search")
    browser.open(sites["replay"], "?match=1#step=7")
    assert browser.css("#replay").get_attribute("data-frame") == "7"
    assert browser.css(".replay-position").text.split("Step ")[1].startswith("7 of")
    # 10× plays about ten steps in the time 1× plays one
    from selenium.webdriver.support.ui import Select
    Select(browser.css(".replay-speed")).select_by_value("10")
    browser.css('[data-step="first"]').click()
    browser.css('[data-step="play"]').click()
    time.sleep(1.0)
    browser.css('[data-step="play"]').click()
    assert int(browser.css("#replay").get_attribute("data-frame")) >= 6
    assert browser.errors() == []


def drawn_games() -> list[str]:
    from arena.games import GAMES
    return sorted(name for name in GAMES if (GAMES[name].folder / "drawer.js").is_file())


@pytest.mark.parametrize("name", drawn_games())
def test_every_game_replays_a_failed_match_through_its_drawer(browser: Browser, name: str,
                                                              tmp_path: Path) -> None:
    """Every game with a drawer: a match whose bot crashes at its 15th decision replays from the
    record script to the failing step, without an error at any step."""
    game = get_game(name)
    players = game.default_players
    options = game.make_options(players)
    state = game.new_match(options, 21)
    rng = random.Random(2)
    record = MatchRecord(game=name, options=options_to_dict(options), seed=21,
                         seats=[{"name": f"bot-{i}"} for i in range(players)], time_control={})
    while not state.is_terminal() and len(record.decisions) < 15:
        seat, legal = state.current_player(), state.legal_actions()
        action = rng.choice(legal)
        record.decisions.append({"seat": seat, "legal": legal, "action": action, "ms": 1.0})
        state.apply(action)
    assert not state.is_terminal()
    seat, legal, k = state.current_player(), state.legal_actions(), len(record.decisions)
    record.events = state.events
    record.statuses = [SeatStatus() for _ in range(players)]
    record.statuses[seat] = SeatStatus("crash", f"exited with code 1 while deciding (decision {k})",
                                       "Traceback: boom\n", 1.0,
                                       {"decision": k, "legal": legal, "answer": None, "kind": "crash"})
    record.scores = list(state.scores())
    record.ranks = [players if s == seat else 1 for s in range(players)]
    data = TournamentData(
        name=name, game=name, options=record.options, seed=None,
        entrants=[EntrantInfo(i, f"bot-{i}") for i in range(players)],
        matches=[MatchInfo(id=1, number=1, seats=tuple(range(players)), seed=21,
                           scores=tuple(record.scores), ranks=tuple(record.ranks),
                           statuses=tuple(s.status for s in record.statuses),
                           reasons=tuple(s.reason for s in record.statuses),
                           stderr_tails=tuple(s.stderr_tail for s in record.statuses),
                           time_ms=(1.0,) * players, duration_ms=10.0)],
        standings=[], history={}, records={1: record.pack()}, planned=1)
    SiteWriter(data, tmp_path).write()
    browser.size(*DESKTOP)
    browser.open(tmp_path / "replay.html", "?match=1")
    assert browser.errors() == []
    assert browser.js("return Arena.drawers[arguments[0]] !== undefined", name)
    frames = browser.js("return Arena.viewer.frames.length")
    for _ in range(frames - 1):
        browser.keys("\ue014")  # ArrowRight
    assert browser.errors() == []
    assert browser.css("#replay").get_attribute("data-at-end") == "true"
    box = browser.css(".replay-failure")
    assert box.is_displayed() and f"at decision {k}" in box.text and "boom" in box.text
    assert [c.text for c in browser.all(".replay-failure .chip")] == legal
    browser.screenshot(screenshot_dir() / f"failed-{name}.png")


def test_a_record_script_read_in_another_encoding(browser: Browser, sites) -> None:
    """A web server may declare the record scripts' encoding: windows-1252 and latin-1 are undone,
    UTF-8 (which loses bytes) is reported plainly, with the way out, instead of replaying garbage;
    a record in base64 reads the same in every encoding."""
    import base64
    import re
    raw = (sites["replay"].parent / "records" / "1.js").read_bytes()
    body = re.search(rb'"(.*)","bytes"', raw, re.S).group(1)
    data = re.sub(rb"\\(x00|.)", lambda m: {b"n": b"\n", b"r": b"\r", b"x00": b"\0"}.get(m.group(1), m.group(1)), body)
    assert any(b >= 0x80 for b in data)
    browser.open(sites["replay"], "?match=1")
    unpack = """var done = arguments[arguments.length - 1];
        Arena.unpackRecord(arguments[0], arguments[1]).then(
            function (r) { done(['ok', r.decisions.length]); },
            function (e) { done(['error', String(e.message)]); });"""
    # what a browser makes of the bytes when told they are windows-1252 (its bytes 0x81, 0x8d,
    # 0x8f, 0x90 and 0x9d have no character: browsers give them their own code point) or latin-1
    cp1252 = "".join(bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in data)
    for text in (cp1252, data.decode("latin-1")):
        got = browser.driver.execute_async_script(unpack, text, "bytes")
        assert got == ["ok", len(sites["record"]["decisions"])]
    got = browser.driver.execute_async_script(unpack, data.decode("utf-8", errors="replace"), "bytes")
    assert got[0] == "error" and "UTF-8" in got[1] and "--records base64" in got[1]
    got = browser.driver.execute_async_script(unpack, base64.b64encode(data).decode(), "base64")
    assert got == ["ok", len(sites["record"]["decisions"])]


def test_a_replay_served_by_a_web_server_that_declares_utf8(browser: Browser, sites, tmp_path) -> None:
    """Hosted as many leagues host their reports (GitHub Pages sends every .js as UTF-8), a site
    rendered with its records in base64 replays like one opened from disk; one with its records
    as bytes says why it cannot, and what to do."""
    import functools
    import http.server
    import threading

    class Utf8(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".js": "application/javascript; charset=utf-8"}

        def log_message(self, *args) -> None:
            pass
    browser.open(sites["replay"], "?match=1")
    from_disk = browser.js("return Arena.viewer.frames.length")
    assert from_disk > 1
    shutil.copytree(sites["replay"].parent, tmp_path / "bytes")
    shutil.copytree(sites["replay"].parent, tmp_path / "base64")
    SiteWriter(sites["data"], tmp_path / "base64", records="base64").write()
    handler = functools.partial(Utf8, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        site = f"http://127.0.0.1:{server.server_port}"
        browser.driver.get(f"{site}/base64/replay.html?match=1")
        served = browser.wait("return window.Arena && Arena.viewer && Arena.viewer.frames.length")
        assert browser.errors() == []
        assert served == from_disk
        browser.driver.get(f"{site}/bytes/replay.html?match=1")
        status = browser.wait("var s = document.querySelector('.match-status');"
                              "return s && /--records base64/.test(s.textContent) && s.textContent;")
        assert status and "UTF-8" in status
    finally:
        server.shutdown()
        server.server_close()
