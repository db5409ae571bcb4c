"""A match cut short by the game's length cap has one result, the same everywhere: the record's
``ranks`` (a capped match is ranked by the game's rule for one: Dice 1000 by score). The terminal
of `arena play`, the report's list of matches, the replay page's title and its last frame (the
game's drawer and the viewer's result) all say it, and none says "no winner" beside it."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.record import MatchRecord, outcome
from tests.reports.browser import Browser
from tests.reports.conftest import ROOT, play
from tournaments.store import Store

pytestmark = pytest.mark.browser
OPTIONS = {"max_rounds": 2, "open_min": 5}  # two rounds; a seat opens with its first points


@pytest.mark.timeout(120)
def test_a_capped_match_has_one_result_in_the_terminal_record_report_and_replay(browser: Browser, tmp_path):
    bots = [ROOT / "bots" / "threshold", ROOT / "bots" / "random"]
    site = play(tmp_path, {"name": "Capped", "game": "dice-1000", "seed": 4, "options": OPTIONS,
                           "entrants": [str(b) for b in bots], "format": {"players": 2, "rounds": 1}},
                "capped")
    with Store.open(site.store_dir) as store:
        records = {m.id: store.matches.record(m.id) for m in store.matches.all()}
    # a capped match with one seat ahead: the threshold bot rolls on for 350 and has not banked
    match_id, record = next((i, r) for i, r in records.items() if r.ranks.count(1) == 1
                            and any(e["type"] == "capped" for e in r.events))
    names = [s["name"] for s in record.seats]
    winner = names[record.ranks.index(1)]
    end = record.events[-1]
    assert end["type"] == "match_end" and end["winner"] is None  # the game's 1000 was not reached
    expected = f"{winner} won"
    assert outcome(record.ranks, names, [s.status for s in record.statuses]) == expected

    # the terminal: the same match played again by `arena play`
    seats = [str(next(b for b in bots if b.name == name)) for name in names]
    played = CliRunner().invoke(cli, ["play", "dice-1000", *seats, "--seed", str(record.seed),
                                      *[x for k, v in OPTIONS.items() for x in ("-o", f"{k}={v}")],
                                      "--replay", str(tmp_path / "again.json")], catch_exceptions=False)
    assert played.exit_code == 0, played.output
    again = MatchRecord.from_json((tmp_path / "again.json").read_text())
    assert again.events == record.events and again.ranks == record.ranks
    assert f"result: {expected}\n" in played.output
    assert f"{winner} wins on score at the cap" in played.output
    assert "no winner" not in played.output

    # the report: the list of matches, and the replay page (its title, its last frame)
    listed = (site.site_dir / "matches" / "list-1.html").read_text()
    row = next(r for r in listed.split("<tr") if f'href="../replay.html?match={match_id}"' in r)
    assert re.search(rf"<td>{re.escape(expected)}<td>", row), row
    browser.open(site.site_dir / "replay.html", f"?match={match_id}#end")
    assert browser.errors() == []
    assert browser.css(".match-title").text.endswith(expected)
    assert browser.css("#replay").get_attribute("data-at-end") == "true"
    assert browser.css(".replay-outcome h3").text == f"Match result: {expected}"
    caption = browser.css(".replay-caption").text
    assert f"{winner} wins" in caption and "capped" in caption, caption
