"""The Dice 1000 replay in a real headless Chromium: dice faces for every roll with the dice set
aside marked, the turn's running total, and a score ladder per player with the pits, the barrel
and the dump-truck number; no console errors; the last frame shows the stored scores."""
from __future__ import annotations

import pytest

from tests.reports.browser import DESKTOP, PHONE, Browser
from tests.reports.conftest import ROOT, Site, play, screenshot_dir
from tournaments.store import Store


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return play(tmp_path_factory.mktemp("dice-site"), {
        "name": "Dice night",
        "game": "dice-1000",
        "seed": 5,
        "entrants": [str(ROOT / "bots" / "expecti"), {"path": str(ROOT / "bots" / "threshold"), "name": "threshold-200",
                                                         "args": ["200"]}],
        "format": {"players": 2, "rounds": 1},
        "time_control": {"move_ms": 2000, "bank_ms": 20000, "startup_ms": 15000},
    }, "dice")


def test_dice_replay_draws_rolls_totals_and_ladders(browser: Browser, site) -> None:
    out, site_dir = site.store_dir, site.site_dir
    with Store.open(out) as store:
        row = next(m for m in store.matches.all() if not m.failed)
        record = store.matches.record(row.id)
    page, query = site_dir / "replay.html", f"?match={row.id}"
    browser.size(*DESKTOP)
    browser.open(page, query)
    assert browser.errors() == []
    kinds = browser.js("return Arena.viewer.frames.map(function (f) { return f.event && f.event.type; })")
    assert "roll" in kinds and "turn_end" in kinds
    rolls = [e for e in record.events if e["type"] == "roll"]
    # a roll that scored without taking every die: the frame right after it
    target = next(i for i, e in enumerate(rolls) if e["points"] and len(e["kept"]) < len(e["faces"]))
    frame = [i for i, k in enumerate(kinds) if k == "roll"][target]
    browser.open(page, f"{query}#step={frame}")
    assert browser.js("return Arena.viewer.frames[Arena.viewer.pos].event.type") == "roll"
    last = browser.css(".dk-roll.is-last")
    faces = [int(d.get_attribute("data-face")) for d in last.find_elements("css selector", "svg.die")]
    assert faces == rolls[target]["faces"]
    kept = sorted(int(d.get_attribute("data-face")) for d in last.find_elements("css selector", "svg.die-kept"))
    assert kept == rolls[target]["kept"]
    assert browser.css(".dk-total b").text == str(rolls[target]["turn_total"])
    # a ladder per player, each with both pits, the barrel and the dump truck marked
    ladders = browser.all(".dk-ladder")
    assert len(ladders) == 2
    for ladder in ladders:
        assert len(ladder.find_elements("css selector", ".dk-pit")) == 2
        assert len(ladder.find_elements("css selector", ".dk-barrel")) == 1
        assert len(ladder.find_elements("css selector", ".dk-dump")) == 1
    browser.screenshot(screenshot_dir() / "dice-1000-roll.png")
    # the end: the ladders and the score boxes show the stored scores
    browser.open(page, f"{query}#end")
    assert browser.css("#replay").get_attribute("data-at-end") == "true"
    scores = [int(x.text) for x in browser.all(".dk-ladder-score")]
    assert scores == list(row.scores)
    browser.screenshot(screenshot_dir() / "dice-1000-end.png")
    browser.size(*PHONE)
    browser.open(page, f"{query}#step={frame}")
    assert browser.errors() == []
    overflow = browser.js("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    browser.screenshot(screenshot_dir() / "dice-1000-phone.png")
