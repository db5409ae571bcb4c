"""A bot's notes in the replay, in a real headless Chromium: a real tournament with a bot that
sends a note with its actions (tests/referee/note_bot); the replay shows each decision's note at
its step (as text: control characters stay visible, nothing runs), says when one was dropped,
and shows nothing for a decision without one."""
from __future__ import annotations

import pytest

from tests.reports.browser import Browser
from tests.reports.conftest import ROOT, Site, play, screenshot_dir
from tournaments.store import Store

NOTE_BOT = ROOT / "tests" / "referee" / "note_bot"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return play(tmp_path_factory.mktemp("notes-site"), {
        "name": "Notes", "game": "block", "seed": 4, "options": {"single_deal": True},
        "entrants": [str(NOTE_BOT), str(ROOT / "bots" / "random")],
        "format": {"players": 2, "rounds": 2},
    }, "notes")


def test_the_replay_shows_each_decision_s_note_at_its_step(browser: Browser, site: Site) -> None:
    with Store.open(site.store_dir) as store:
        records = {m.id: store.matches.record(m.id) for m in store.matches.all()}
    shown = {"note": 0, "note_dropped": 0, "none": 0}
    for match_id, record in records.items():
        page, query = site.site_dir / "replay.html", f"?match={match_id}"
        browser.open(page, query)
        assert browser.errors() == []
        for k, decision in enumerate(record.decisions):
            kind = ("note" if "note" in decision else "note_dropped" if "note_dropped" in decision
                    else "none")
            if shown[kind] >= 3:
                continue
            step = browser.js("var k = arguments[0]; return Arena.viewer.frames.findIndex("
                              "function (f) { return f.decision === k && !f.failure; })", k)
            assert step > 0
            browser.open(page, f"{query}#step={step}")
            notes = browser.all(".replay-decision .replay-note")
            box = browser.css(".replay-decision").text
            # the note (or nothing) comes last, after the chips of the legal actions
            assert box.splitlines()[-1].endswith(notes[0].text if notes else decision["legal"][-1]), box
            if kind == "note":
                assert browser.css(".replay-decision .replay-note-text").text == decision["note"]
                if shown["note"] == 0:
                    browser.screenshot(screenshot_dir() / "replay-note.png")
            elif kind == "note_dropped":
                assert [n.text for n in notes] == [f"Its note was dropped: {decision['note_dropped']}."]
            else:
                assert notes == []
            shown[kind] += 1
        assert browser.errors() == [] and browser.no_alert()
    assert min(shown.values()) >= 1, shown
    # the control characters a bot sent are shown as text, made visible
    assert any("\\x1b[31m" in d.get("note", "") for r in records.values() for d in r.decisions)
