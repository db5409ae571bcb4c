"""An OpenSpiel game's replay in a real headless Chromium: one match of Leduc poker played with
`arena play ... --view`, its one-file page opened alone. The generic drawer of the family
"openspiel:" draws it: at every step OpenSpiel's own text of the state (the event's board), the
returns at the end, no console error."""
from __future__ import annotations

from pathlib import Path

import pytest

from arena.record import MatchRecord
from tests.reports.browser import Browser
from tests.reports.conftest import screenshot_dir
from tests.reports.test_view_browser import RANDOM, invoke, open_alone

pytest.importorskip("pyspiel")


def test_openspiel_replay_shows_openspiels_text_of_each_step(browser: Browser, tmp_path: Path) -> None:
    record_path = tmp_path / "leduc.json"
    played = invoke("play", "openspiel:leduc_poker", RANDOM, RANDOM, "--seed", "4", "-q",
                    "--replay", str(record_path), "--view")
    assert played.exit_code == 0, played.output
    record = MatchRecord.from_json(record_path.read_text())
    open_alone(browser, tmp_path / "leduc.html", tmp_path / "alone")
    assert browser.errors() == []
    # the family's drawer (no drawer of the game's own), not the plain list of events
    assert browser.js("return Arena.viewer.drawer === Arena.drawers['openspiel:']")
    assert not browser.all(".replay-board .replay-plain")
    boards = [e["board"] for e in record.events if e["type"] == "action"]
    for k, board in enumerate(boards):  # the k-th action's step: OpenSpiel's text after it
        step = browser.js("var k = arguments[0]; return Arena.viewer.frames.findIndex("
                          "function (f) { return f.decision === k; })", k)
        browser.open(tmp_path / "alone" / "leduc.html", f"#step={step}")
        assert browser.css(".os-board").get_attribute("textContent") == board
    browser.open(tmp_path / "alone" / "leduc.html", "#end")
    returns = [e for e in record.events if e["type"] == "match_end"][0]["returns"]
    assert [li.text for li in browser.all(".os-returns li")] == [
        f"{seat['name']}: {r:g}" for seat, r in zip(record.seats, returns)]
    assert browser.errors() == []
    browser.screenshot(screenshot_dir() / "view-openspiel-leduc.png")


@pytest.mark.parametrize("name", ["kuhn_poker", "connect_four"])  # with chance, and without
def test_a_match_of_several_hands_shows_the_hand_and_the_returns_so_far(
        browser: Browser, tmp_path: Path, name: str) -> None:
    record_path = tmp_path / f"{name}.json"
    played = invoke("play", f"openspiel:{name}", RANDOM, RANDOM, "--seed", "5", "-o", "hands=3", "-q",
                    "--replay", str(record_path), "--view")
    assert played.exit_code == 0, played.output
    record = MatchRecord.from_json(record_path.read_text())
    open_alone(browser, tmp_path / f"{name}.html", tmp_path / "alone")
    ends = [e for e in record.events if e["type"] == "hand_end"]
    assert [e["hand"] for e in ends] == [0, 1, 2]
    totals = [0.0, 0.0]
    for end in ends:  # at each hand's end: its caption, and the returns of the hands so far
        totals = [t + r for t, r in zip(totals, end["returns"])]
        step = browser.js("var k = arguments[0]; return Arena.viewer.frames.findIndex(function (f) "
                          "{ return f.event && f.event.type === 'hand_end' && f.event.hand === k; })", end["hand"])
        assert step >= 0
        browser.open(tmp_path / "alone" / f"{name}.html", f"#step={step}")
        assert browser.css(".os-hand").text == f"hand {end['hand'] + 1} of 3"
        assert [li.text for li in browser.all(".os-returns li")] == [
            f"{seat['name']}: {r:g}" for seat, r in zip(record.seats, totals)]
    assert browser.errors() == []
