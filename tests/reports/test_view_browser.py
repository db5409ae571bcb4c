"""`arena view RECORD.json` and `arena play ... --view`: one match's replay as one HTML file, in a
real headless Chromium, for every game. The file is copied alone into an empty folder and opened
from there (file://): it replays with no console error, steps forward and back, and fetches
nothing (no other file, no request: its Content-Security-Policy would refuse one, loudly)."""
from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.games import GAMES
from arena.record import MatchRecord
from tests.reports.browser import Browser
from tests.reports.conftest import ROOT, screenshot_dir

RANDOM = str(ROOT / "bots" / "random")
NOTE_BOT = str(ROOT / "tests" / "referee" / "note_bot")
# a few whole deals (or rounds) a match, as the kit tests play them: the page is the same code
SHORT = {name: [f"{cap}=3"] for name, game in GAMES.items()
         for cap in ("max_deals", "max_rounds") if cap in {f.name for f in dataclasses.fields(game.Options)}}


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def open_alone(browser: Browser, page: Path, folder: Path) -> Path:
    """Copy ``page`` alone into the empty ``folder`` and open it from there."""
    folder.mkdir()
    alone = folder / page.name
    shutil.copyfile(page, alone)
    browser.open(alone)
    assert sorted(p.name for p in folder.iterdir()) == [page.name]
    return alone


def check_replays_alone(browser: Browser, record: MatchRecord) -> None:
    assert browser.errors() == []
    assert browser.js("return !!(window.Arena && Arena.viewer)")
    frames = browser.js("return Arena.viewer.frames.length")
    assert frames > 3
    assert browser.css(".match-result").is_displayed()
    assert browser.css(".match-title").text.endswith(
        "draw" if record.ranks.count(1) > 1 else record.seats[record.ranks.index(1)]["name"] + " won")
    assert browser.css("#replay").get_attribute("data-frame") == "0"
    browser.css('[data-step="next"]').click()
    browser.css('[data-step="next"]').click()
    assert browser.css("#replay").get_attribute("data-frame") == "2"
    assert browser.css(".replay-decision").is_displayed() or browser.css(".replay-caption").text
    browser.css('[data-step="prev"]').click()
    assert browser.css("#replay").get_attribute("data-frame") == "1"
    browser.keys("\ue010")  # End
    assert browser.css("#replay").get_attribute("data-at-end") == "true"
    # drawn by the game's own drawer (inline too), not as the plain list of events
    assert browser.js("return Arena.viewer.drawer === Arena.drawers[arguments[0]]", record.game)
    assert browser.css(".replay-board").find_elements("css selector", "*")
    assert not browser.all(".replay-board .replay-plain")
    browser.keys("\ue011")  # Home
    assert browser.css("#replay").get_attribute("data-frame") == "0"
    # nothing but the page itself: no script, style or record file, no request of any kind
    assert browser.js("return document.querySelectorAll('script[src], link[rel=stylesheet]').length") == 0
    assert browser.js("return performance.getEntriesByType('resource').map(function (e) { return e.name; })") == []
    assert browser.errors() == []


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_arena_view_replays_one_match_of_every_game_alone(browser: Browser, tmp_path: Path,
                                                          game_name: str) -> None:
    game = GAMES[game_name]
    record_path = tmp_path / "match.json"
    options = [x for item in SHORT.get(game_name, []) for x in ("-o", item)]
    played = invoke("play", game_name, *[RANDOM] * game.default_players, "--seed", "3", "-q",
                    *options, "--replay", str(record_path))
    assert played.exit_code == 0, played.output
    viewed = invoke("view", str(record_path))
    assert viewed.exit_code == 0, viewed.output
    page = tmp_path / "match.html"  # beside the record, by default
    assert viewed.output == f"replay page: {page}\n"
    record = MatchRecord.from_json(record_path.read_text())
    open_alone(browser, page, tmp_path / "alone")
    check_replays_alone(browser, record)
    assert game.title in browser.css(".match-title").text
    browser.screenshot(screenshot_dir() / f"view-{game_name}.png")


def test_play_view_writes_the_page_with_the_notes(browser: Browser, tmp_path: Path) -> None:
    record_path = tmp_path / "notes.json"
    played = invoke("play", "block", NOTE_BOT, RANDOM, "--seed", "5", "-q", "-o", "single_deal=true",
                    "--replay", str(record_path), "--view")
    assert played.exit_code == 0, played.output
    page = tmp_path / "notes.html"
    assert f"replay page written to {page}" in played.output
    record = MatchRecord.from_json(record_path.read_text())
    open_alone(browser, page, tmp_path / "alone")
    check_replays_alone(browser, record)
    k = next(i for i, d in enumerate(record.decisions) if "note" in d)
    step = browser.js("var k = arguments[0]; return Arena.viewer.frames.findIndex("
                      "function (f) { return f.decision === k; })", k)
    browser.keys(*["\ue014"] * step)  # → to the decision's step
    assert browser.css(".replay-note-text").text == record.decisions[k]["note"]


def test_play_view_without_replay_writes_game_seed_html_here(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    played = invoke("play", "block", RANDOM, RANDOM, "--seed", "9", "-q", "-o", "single_deal=true", "--view")
    assert played.exit_code == 0, played.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["block-seed9.html"]
    html = (tmp_path / "block-seed9.html").read_text()
    assert '"seed":9' in html and "Arena.registerGame" in html


@pytest.mark.parametrize("content, words", [
    (None, "cannot read it"),
    ("{not json", "not a match record (not JSON"),
    (json.dumps({"game": "block"}), "not a match record (no \"format\""),
])
def test_view_names_a_file_that_is_not_a_record(tmp_path: Path, content, words) -> None:
    path = tmp_path / "x.json"
    if content is not None:
        path.write_text(content)
    result = invoke("view", str(path))
    assert result.exit_code == 2
    assert result.output.startswith(f"arena: error: {path}: {words}")
    assert not (tmp_path / "x.html").exists()


def test_view_output_puts_the_page_elsewhere_and_never_over_the_record(tmp_path: Path) -> None:
    record_path = tmp_path / "m.json"
    played = invoke("play", "block", RANDOM, RANDOM, "-q", "-o", "single_deal=true", "--replay", str(record_path))
    assert played.exit_code == 0, played.output
    (tmp_path / "pages").mkdir()
    page = tmp_path / "pages" / "one.html"
    assert invoke("view", str(record_path), "--output", str(page)).exit_code == 0
    assert page.is_file() and not (tmp_path / "m.html").exists()
    same = invoke("view", str(record_path), "--output", str(record_path))
    assert same.exit_code == 2 and "would overwrite the record" in same.output
    missing = invoke("view", str(record_path), "--output", str(tmp_path / "nowhere" / "p.html"))
    assert missing.exit_code == 2 and "--output" in missing.output and "does not exist" in missing.output
    assert MatchRecord.from_json(record_path.read_text()).game == "block"
