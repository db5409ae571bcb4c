"""The site in a real headless Chromium: no console errors, the right order, the replay, screenshots.

Screenshots of every page type are saved to ``$ARENA_TEST_OUTPUT/screenshots`` (default
``test-output/screenshots`` in the repository) for people to look at.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.reports.browser import DESKTOP, PHONE, Browser
from tests.reports.conftest import EVIL_TEXT, Site, screenshot_dir
from tournaments.ratings import compute_ratings
from tournaments.store import Store

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def shots() -> Path:
    return screenshot_dir()


def replay(site: Site, match_id: int) -> tuple[Path, str]:
    return site.site_dir / "replay.html", f"?match={match_id}"


def page_types(site: Site) -> dict[str, tuple[Path, str]]:
    """One page of each type (the page and what follows its address)."""
    with Store.open(site.store_dir) as store:
        ratings = compute_ratings(store)
        matches = store.matches.all()
    evil = next(s for s in ratings.standings if s.entrant.name == "flaky")
    failed = next(m for m in matches if m.failed)
    bot = next((site.site_dir / "bots").glob(f"{evil.entrant.id}-*.html"))
    return {
        "index": (site.index, ""),
        "head-to-head": (site.site_dir / "head-to-head.html", ""),
        "matches": (site.site_dir / "matches" / "list-1.html", ""),
        "bot": (bot, ""),
        "match": replay(site, matches[0].id),
        "match-failed": replay(site, failed.id) + ("#end",),
    }


def test_every_page_type_loads_without_errors(browser: Browser, two_player: Site, shots: Path) -> None:
    for kind, (page, *address) in page_types(two_player).items():
        for label, (width, height) in (("", DESKTOP), ("-phone", PHONE)):
            browser.size(width, height)
            browser.open(page, "".join(address))
            assert browser.errors() == [], (kind, label)
            assert browser.no_alert(), f"{kind}: a bot's text ran as script"
            # phone width: the page itself never scrolls sideways (wide tables scroll inside)
            overflow = browser.js("return document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"{kind}{label} is {overflow}px too wide"
            browser.screenshot(shots / f"{kind}{label}.png")
    browser.size(*DESKTOP)


def test_the_leaderboard_lists_entrants_in_rating_order(browser: Browser, two_player: Site) -> None:
    with Store.open(two_player.store_dir) as store:
        expected = [s.entrant.name for s in compute_ratings(store).standings]
    browser.open(two_player.index)
    names = [el.text for el in browser.all("table.leaderboard tbody tr .bot-name")]
    assert names == expected
    assert browser.no_alert()
    ranks = [el.text for el in browser.all("table.leaderboard tbody tr .rank")]
    assert ranks == [str(i) for i in range(1, len(expected) + 1)]
    bot, _ = page_types(two_player)["bot"]
    browser.open(bot)
    assert EVIL_TEXT in browser.all(".bot-description")[0].text  # shown as text, not run
    assert browser.no_alert()


def final_scores(browser: Browser) -> list[int]:
    boxes = browser.all(".replay-scores .replay-score")
    return [int(b.get_attribute("data-score")) for b in sorted(boxes, key=lambda b: int(b.get_attribute("data-seat")))]


def test_the_replay_ends_on_the_stored_scores(browser: Browser, two_player: Site, three_player: Site) -> None:
    for site in (two_player, three_player):
        with Store.open(site.store_dir) as store:
            rows = store.matches.all()
        for row in rows:
            browser.open(*replay(site, row.id))
            assert browser.css("#replay").get_attribute("data-frame") == "0"
            browser.keys("\ue010")  # End
            root = browser.css("#replay")
            assert root.get_attribute("data-at-end") == "true"
            assert final_scores(browser) == list(row.scores), row.id
            outcome = browser.css(".replay-outcome")
            assert outcome.is_displayed()
            if row.failed:
                assert any(status in outcome.text for status in row.statuses if status != "ok")
            assert browser.errors() == []


def test_the_replay_steps_through_every_decision(browser: Browser, two_player: Site, shots: Path) -> None:
    with Store.open(two_player.store_dir) as store:
        row = min(store.matches.all(), key=lambda m: store.matches.record(m.id).events.__len__())
        record = store.matches.record(row.id)
    browser.open(*replay(two_player, row.id))
    root = browser.css("#replay")
    frames = browser.js("return Arena.viewer.frames.length")
    seen_decisions = []
    for step in range(frames - 1):
        decision = browser.js("var f = Arena.viewer.frames[Arena.viewer.pos]; return f.failure ? null : f.decision;")
        if decision is not None:
            seen_decisions.append(decision)
            # the action taken and the legal alternatives are on screen
            chips = [c.text.replace("✔ ", "") for c in browser.all(".replay-decision .chip")]
            assert chips == record.decisions[decision]["legal"]
            assert browser.css(".replay-decision .chip-chosen").text.endswith(record.decisions[decision]["action"])
        browser.keys("\ue014")  # ArrowRight
        assert root.get_attribute("data-frame") == str(step + 1)
    assert root.get_attribute("data-at-end") == "true"
    seen_decisions.append(browser.js("var f = Arena.viewer.frames[Arena.viewer.pos]; "
                                     "return f.failure ? null : f.decision;"))
    assert [d for d in seen_decisions if d is not None] == list(range(len(record.decisions)))
    browser.keys("\ue012")  # ArrowLeft
    assert root.get_attribute("data-frame") == str(frames - 2)
    browser.keys("\ue011")  # Home
    assert root.get_attribute("data-frame") == "0"
    browser.css('[data-step="next"]').click()
    browser.css('[data-step="next"]').click()
    assert root.get_attribute("data-frame") == "2"
    browser.css('[data-step="prev"]').click()
    assert root.get_attribute("data-frame") == "1"
    browser.css('[data-step="next-section"]').click()  # the next deal, when there is one
    assert int(root.get_attribute("data-frame")) > 1
    browser.css('[data-step="last"]').click()
    assert root.get_attribute("data-at-end") == "true"
    assert final_scores(browser) == list(row.scores)
    # Play from the start (a step every 700 ms), then pause: however slow the machine, it moves
    # on by itself, and stops when paused
    browser.css('[data-step="first"]').click()
    play = browser.css('[data-step="play"]')
    play.click()
    wait_until(lambda: int(root.get_attribute("data-frame")) >= 2, "playing never reached frame 2")
    play.click()
    reached = int(root.get_attribute("data-frame"))
    time.sleep(1.5)  # two steps' worth
    assert int(root.get_attribute("data-frame")) == reached
    assert browser.errors() == []


def wait_until(condition, message: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, message
        time.sleep(0.05)


def test_screenshots_of_the_replay(browser: Browser, two_player: Site, three_player: Site, shots: Path) -> None:
    """Mid-deal and end-of-deal pictures of the board, for people to look at."""
    with Store.open(two_player.store_dir) as store:
        row = next(m for m in store.matches.all() if not m.failed)
    page, query = replay(two_player, row.id)
    browser.size(*DESKTOP)
    browser.open(page, query + "#step=8")
    browser.screenshot(shots / "match-mid-deal.png")
    # the first deal's result
    browser.open(page, query)
    frames = browser.js("return Arena.viewer.frames.map(function (f) { return f.event && f.event.type; })")
    browser.open(page, f"{query}#step={frames.index('deal_end')}")
    assert browser.css(".bk-dealend").is_displayed()
    browser.screenshot(shots / "match-deal-end.png")
    browser.open(page, query + "#end")
    browser.screenshot(shots / "match-end.png")
    with Store.open(three_player.store_dir) as store:
        row3 = store.matches.all()[0]
    page3, query3 = replay(three_player, row3.id)
    browser.open(page3, query3 + "#step=7")
    browser.screenshot(shots / "match-3-players.png")
    browser.open(three_player.index)
    browser.screenshot(shots / "index-3-players.png")
    assert browser.errors() == []
