"""The Domino Cribbage replay in a real headless Chromium: both hands, the crib, the starter, the
tiles of the current count with the count, and the score track with each score's reason, at every
step of a real match (pegger against random), with no console errors.

Screenshots go to ``$ARENA_TEST_OUTPUT/screenshots`` (default ``test-output/screenshots``).
"""
from __future__ import annotations

import pytest

from tests.reports.browser import DESKTOP, PHONE, Browser
from tests.reports.conftest import ROOT, Site, play, screenshot_dir
from tournaments.store import Store


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return play(tmp_path_factory.mktemp("report-cribbage"), {
        "name": "Cribbage night",
        "game": "domino-cribbage",
        "seed": 5,
        "entrants": [str(ROOT / "bots" / "pegger"), str(ROOT / "bots" / "random")],
        "format": {"players": 2, "rounds": 1},
    }, "cribbage")


def test_the_cribbage_replay_draws_every_step(browser: Browser, site: Site) -> None:
    out, site_dir = site.store_dir, site.site_dir
    shots = screenshot_dir()
    with Store.open(out) as store:
        rows = store.matches.all()
        assert rows and all(not m.failed for m in rows)
        row = rows[0]
        record = store.matches.record(row.id)
    events = record.events
    page, query = site_dir / "replay.html", f"?match={row.id}"
    browser.size(*DESKTOP)
    browser.open(page, query)
    assert browser.errors() == []
    at = browser.js("var v = Arena.viewer; return v.frames.map(function (f) {"
                    " return f.event ? v.record.events.indexOf(f.event) : -1; })")
    frames = [events[i] if i >= 0 else None for i in at]
    assert len(frames) > 20
    root = browser.css("#replay")
    seen = {"count": 0, "score": 0, "show": 0, "go": 0}
    for pos, ev in enumerate(frames):
        if pos:
            browser.keys("\ue014")  # ArrowRight
        assert root.get_attribute("data-frame") == str(pos)
        if ev is None:
            continue
        # the score track stands at the scores after this event
        upto = events[:at[pos] + 1]
        scores = [0, 0]
        for e in upto:
            if e["type"] == "score":
                scores = e["scores"]
        lanes = browser.all(".dc-board .dc-lane")
        assert [int(p.get_attribute("data-score")) for p in lanes] == scores, pos
        assert [t.get_attribute("aria-label").split()[-3] for t in browser.all(".dc-lane .track")] == \
            [str(x) for x in scores]
        if ev["type"] == "action" and "count" in ev:
            seen["count"] += 1
            assert browser.css(".dc-count").text == str(ev["count"])
            assert browser.css(f'.dc-seq [data-tile="{ev["action"]}"]') is not None
            played = browser.all(f'.dc-seat[data-seat="{ev["seat"]}"] .dc-playedrow [data-tile="{ev["action"]}"]')
            assert len(played) == 1
        if ev["type"] == "score":
            seen["score"] += 1
            log = browser.css(".dc-log li.is-new").text
            assert f"+{ev['points']}" in log and str(ev["scores"][ev["seat"]]) in log
            reason = {"play": ev.get("items", [{}])[0].get("kind", ""), "go": "go",
                      "last tile": "last tile", "heels": "heels", "hand": "hand", "crib": "crib"}[ev["reason"]]
            assert reason in log
            if ev["reason"] in ("hand", "crib"):
                seen["show"] += 1
                assert browser.css(".dc-show").is_displayed()
        if ev["type"] == "go":
            seen["go"] += 1
            assert "go" in browser.css(f'.dc-seat[data-seat="{ev["seat"]}"] .dc-seat-head').text.lower()
        if ev["type"] == "deal":
            for seat in (0, 1):
                tiles = browser.all(f'.dc-seat[data-seat="{seat}"] .dc-hand [data-tile]')
                assert [t.get_attribute("data-tile") for t in tiles] == ev["hands"][seat]
        if ev["type"] == "starter":
            assert browser.css(f'.dc-starter-box [data-tile="{ev["tile"]}"]')
            crib = [t.get_attribute("data-tile") for t in browser.all(".dc-crib-box [data-tile]")]
            assert len(crib) == 4
        if pos in (12, 30):
            browser.screenshot(shots / f"cribbage-step-{pos}.png")
    assert all(seen.values()), seen
    assert root.get_attribute("data-at-end") == "true"
    boxes = browser.all(".replay-scores .replay-score")
    assert [int(b.get_attribute("data-score")) for b in boxes] == list(row.scores)
    browser.screenshot(shots / "cribbage-end.png")
    assert browser.errors() == []
    # phone width: nothing spills sideways
    browser.size(*PHONE)
    browser.open(page, query + "#step=14")
    assert browser.errors() == []
    overflow = browser.js("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1
    browser.screenshot(shots / "cribbage-phone.png")
    browser.size(*DESKTOP)


def test_page_down_moves_from_hand_to_hand(browser: Browser, site: Site) -> None:
    out, site_dir = site.store_dir, site.site_dir
    with Store.open(out) as store:
        row = store.matches.all()[0]
        hands = sum(1 for e in store.matches.record(row.id).events if e["type"] == "deal")
    browser.size(*DESKTOP)
    browser.open(site_dir / "replay.html", f"?match={row.id}")
    assert browser.css(".replay-position").text.startswith("Hand 1 ")
    for hand in range(2, hands + 1):
        browser.keys("\ue00f")  # PageDown
        assert browser.css(".replay-position").text.startswith(f"Hand {hand} ")
        # the first frame of a hand is its deal: six tiles in each hand, an empty crib
        for seat in (0, 1):
            assert len(browser.all(f'.dc-seat[data-seat="{seat}"] .dc-hand [data-tile]')) == 6
        assert browser.all(".dc-crib-box [data-tile]") == []
    browser.keys("\ue00e")  # PageUp
    assert browser.css(".replay-position").text.startswith(f"Hand {hands - 1} ")
    assert browser.errors() == []
