"""The Thousand replay board in a real headless Chromium: cards with suit symbols and colours,
the auction table, the prikup, the passed cards, the trick with its winner, the trump and the
score sheet; no console errors from the first frame to the last. Screenshots go beside the others.
"""
from __future__ import annotations

import pytest

from tests.reports.browser import DESKTOP, PHONE, Browser
from tests.reports.conftest import ROOT, Site, play, screenshot_dir
from tournaments.store import Store


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return play(tmp_path_factory.mktemp("report-thousand"), {
        "name": "Thousand evening",
        "game": "thousand",
        "seed": 5,
        "options": {"max_deals": 3},
        "entrants": [str(ROOT / "bots" / "thousand"), {"path": str(ROOT / "bots" / "thousand"), "name": "thousand_bold",
                                                          "args": ["--boldness", "1.15"]},
                     str(ROOT / "bots" / "random")],
        "format": {"players": 3, "rounds": 1},
    }, "thousand")


def test_the_thousand_board(browser: Browser, site: Site) -> None:
    shots = screenshot_dir()
    with Store.open(site.store_dir) as store:
        row = store.matches.all()[0]
        record = store.matches.record(row.id)
    page, query = site.site_dir / "replay.html", f"?match={row.id}"
    browser.size(*DESKTOP)
    browser.open(page, query)
    assert browser.errors() == []
    types = browser.js("return Arena.viewer.frames.map(function (f) { return f.event && f.event.type; })")
    assert "trick" in types and "deal_score" in types
    # mid-auction / after the exchange / a finished trick
    first_trick = types.index("trick")
    browser.open(page, f"{query}#step={first_trick}")
    assert browser.errors() == []
    cards = browser.all(".th-hand .pcard")
    assert cards, "the hands are drawn as cards"
    symbols = {c.find_element("css selector", ".pcard-suit").text for c in cards}
    assert symbols <= set("♥♦♣♠") and symbols
    red = [c for c in cards if "pcard-red" in c.get_attribute("class")]
    assert all(c.get_attribute("data-card")[1] in "HD" for c in red)
    assert browser.css(".th-auction table").is_displayed()
    assert browser.css(".th-prikup").is_displayed()
    assert browser.css(".th-trick .th-won").is_displayed(), "the trick's winner is marked"
    assert browser.css(".th-trump").text.startswith("trump")
    browser.screenshot(shots / "thousand-trick.png")
    if any(e["type"] == "action" and e["action"].startswith("give ") for e in record.events):
        assert browser.all(".th-given .pcard")
    score_at = types.index("deal_score")
    browser.open(page, f"{query}#step={score_at}")
    assert browser.css(".th-dealscore table").is_displayed()
    browser.screenshot(shots / "thousand-deal-score.png")
    browser.open(page, query + "#end")
    assert browser.css(".th-sheet table").is_displayed()
    assert browser.css("#replay").get_attribute("data-at-end") == "true"
    boxes = browser.all(".replay-scores .replay-score")
    scores = [int(b.get_attribute("data-score"))
              for b in sorted(boxes, key=lambda b: int(b.get_attribute("data-seat")))]
    assert scores == list(row.scores)
    browser.screenshot(shots / "thousand-end.png")
    browser.size(*PHONE)
    browser.open(page, f"{query}#step={first_trick}")
    overflow = browser.js("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1
    browser.screenshot(shots / "thousand-phone.png")
    browser.size(*DESKTOP)
    # every frame draws without an error
    frames = browser.js("return Arena.viewer.frames.length")
    browser.open(page, query)
    for _ in range(frames - 1):
        browser.keys("\ue014")
    assert browser.errors() == []


def test_the_sheets_scroll_in_their_box_at_phone_width_with_names_in_view(browser: Browser, site: Site) -> None:
    """At a phone's width the score sheet and a deal's score table are wider than the screen: they
    scroll inside their box, their first column (the deal; the seats' names) staying in view."""
    with Store.open(site.store_dir) as store:
        row = store.matches.all()[0]
    page, query = site.site_dir / "replay.html", f"?match={row.id}"
    browser.size(*PHONE)
    browser.open(page, query)
    types = browser.js("return Arena.viewer.frames.map(function (f) { return f.event && f.event.type; })")
    for step, box in ((types.index("deal_score"), ".th-dealscore .table-wrap"),
                      (len(types) - 1, ".th-sheet .table-wrap")):
        browser.open(page, f"{query}#step={step}")
        assert browser.errors() == []
        assert browser.js("return document.documentElement.scrollWidth - window.innerWidth") <= 1
        scroll = browser.js("""var b = document.querySelector(arguments[0]);
            var before = b.scrollWidth - b.clientWidth; b.scrollLeft = b.scrollWidth;
            return [before, b.scrollLeft];""", box)
        assert scroll[0] > 0 and scroll[1] > 0, f"{box} does not scroll in its box: {scroll}"
        firsts = browser.js("""var b = document.querySelector(arguments[0]), r = b.getBoundingClientRect();
            b.scrollIntoView();
            return Array.prototype.map.call(b.querySelectorAll('tr > :first-child'), function (c) {
                var x = c.getBoundingClientRect(), hit = document.elementFromPoint(x.left + 4, x.top + x.height / 2);
                return [c.textContent, x.left - b.getBoundingClientRect().left, !!hit && c.contains(hit)]; });""", box)
        assert len(firsts) > 1
        for text, left, on_top in firsts:
            assert abs(left) <= 1 and on_top, f"{box}: {text!r} scrolled away ({left} px)"
        browser.css(box.split()[0]).screenshot(str(screenshot_dir() / f"thousand-phone-{box.split()[0][1:]}.png"))
    browser.size(*DESKTOP)
