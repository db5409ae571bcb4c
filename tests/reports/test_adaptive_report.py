"""The report of an adaptive tournament: the index's box (the stop, the matches against a
round-robin round, each neighbour pair's state) and the stopping rule's column on the head-to-head
page's pairs, from hand-made data and from a real run of bundled bots in a real Chromium."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from reports.model import SiteModel
from tests.reports.browser import DESKTOP, Browser
from tests.reports.conftest import ROOT, play, screenshot_dir
from tests.reports.test_sprt_report import ANN, BOB, CY, data
from tournaments.formats.adaptive import IN_DOUBT, LEVEL, MAX_MATCHES, ORDERED, PairState, Summary, store_summary
from tournaments.store import Store


def summary(stop: str | None) -> Summary:
    return Summary(
        stop=stop, matches=7, max_matches=7, round_robin=6, confidence=0.95, margin=0.05,
        ranking=("ann", "bob", "cy"), elo=(50.0, 0.0, -10.0),
        pairs=(PairState(ANN, BOB, 3, 0.75, 0.55, 0.95, 0.97, 0.0, ORDERED),
               PairState(BOB, CY, 0, None, 0.0, 1.0, 0.0, 0.0, IN_DOUBT)),
        names={ANN: "ann", BOB: "bob", CY: "cy"})


def test_the_box_says_the_stop_and_each_neighbour_pair() -> None:
    d = data()
    d.summary = summary(MAX_MATCHES)
    box = SiteModel(d).index(chart_svg="").box
    assert box is not None and box.headline == "Adaptive: max_matches reached" and box.tone == "none"
    facts = {f.label: f.value for f in box.facts}
    assert facts["Stopped"] == "max_matches (7) reached"
    assert facts["Matches"] == "7, 1.17 times the 6 of one round-robin round of this field"
    assert facts["Ranking"] == "ann > bob > cy"
    ann_bob = "settled: ann above bob (ann scores 75 % against bob, at least 55 % at 95 % confidence)"
    assert box.rows == [["ann", "bob", ORDERED, ann_bob],
                         ["bob", "cy", IN_DOUBT, "in doubt: bob and cy, no result yet"]]
    rows = {(r.a.name, r.b.name): r.rule for r in SiteModel(d).head_to_head().pairs}
    assert rows[("ann", "bob")] == ann_bob
    assert rows[("ann", "cy")] == ""  # not neighbours
    assert SiteModel(data()).index(chart_svg="").box is None  # other formats: no box
    assert all(r.rule == "" for r in SiteModel(data()).head_to_head().pairs)


def test_a_level_pair_shows_its_level_confidence() -> None:
    d = data()
    d.summary = Summary(
        stop="settled", matches=7, max_matches=100, round_robin=6, confidence=0.95, margin=0.05,
        ranking=("ann", "bob"), elo=(0.0, 0.0),
        pairs=(PairState(ANN, BOB, 3, 0.5, 0.47, 0.53, 0.0, 0.96, LEVEL),), names={ANN: "ann",
                                                                              BOB: "bob"})
    box = SiteModel(d).index(chart_svg="").box
    assert box is not None and box.tone == "h1" and box.headline == "Adaptive: ranking settled"
    assert tuple(box.rows[0][2:]) == (LEVEL, "settled: ann not below bob by more than 5 % (ann scores "
                                       "50 % against bob, at least 47 % at 95 % confidence)")
    assert "Chance of a wrong order" not in {f.label for f in box.facts}  # not given: not shown
    d.summary = dataclasses.replace(d.summary, wrong=0.032)
    facts = {f.label: f.value for f in SiteModel(d).index(chart_svg="").box.facts}
    assert facts["Chance of a wrong order"] == ("3 % that anyone stands above an entrant that "
                                                "beats it by more than 5 % (the stop asks at most "
                                                "5 %)")


def test_every_page_follows_the_settled_ranking_and_says_so() -> None:
    """TrueSkill's standings say ann, bob, cy; the adaptive run settled cy above bob above ann:
    the leaderboard, the head-to-head matrix and the bots' ranks follow the settled order (a
    settled pair is never shown the other way round), and the note says which order and why."""
    d = data()
    d.summary = Summary(
        stop="settled", matches=7, max_matches=100, round_robin=6, confidence=0.95, margin=0.05,
        ranking=("cy", "bob", "ann"), elo=(40.0, 0.0, -40.0),
        pairs=(PairState(CY, BOB, 3, 0.6, 0.52, 0.7, 0.96, 0.99, ORDERED),
               PairState(BOB, ANN, 3, 0.5, 0.46, 0.54, 0.5, 0.96, LEVEL)),
        names={ANN: "ann", BOB: "bob", CY: "cy"})
    model = SiteModel(d)
    index = model.index(chart_svg="")
    assert [r.bot.name for r in index.leaderboard] == ["cy", "bob", "ann"]
    assert [r.rank for r in index.leaderboard] == [1, 2, 3]
    assert [b.name for b in model.head_to_head().bots] == ["cy", "bob", "ann"]
    assert [b.name for b in index.chart_legend] == ["cy", "bob", "ann"]
    assert index.order[0] == "ranked by the adaptive run's settled ranking"
    assert "μ − 3σ would place 2 of 3 bots elsewhere" in index.order[1]
    for p in d.summary.pairs:  # a settled pair: never shown the other way round
        assert model.order[p.above] < model.order[p.below]
    assert SiteModel(data()).index(chart_svg="").order[0] == "rated with TrueSkill, ranked by μ − 3σ"
    assert [r.bot.name for r in SiteModel(data()).index(chart_svg="").leaderboard] == [
        "ann", "bob", "cy"]


def test_a_pair_in_doubt_says_how_many_sets_it_needs_and_never_a_zero_confidence() -> None:
    d = data()
    d.summary = Summary(
        stop=None, matches=7, max_matches=100, round_robin=6, confidence=0.95, margin=0.05,
        ranking=("ann", "bob"), elo=(0.0, 0.0),
        pairs=(PairState(ANN, BOB, 2, 0.5, 0.2, 0.8, 0.0, 0.0, IN_DOUBT, 120),), names={
            ANN: "ann", BOB: "bob"})
    box = SiteModel(d).index(chart_svg="").box
    assert box is not None
    text = box.rows[0][3]
    assert text == ("in doubt: ann and bob, about 120 more sets needed (ann scores 50 % against "
                    "bob, at least 20 % so far at 95 % confidence)")
    assert "0.0 %" not in text and "[0.0" not in text


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(300)
def test_an_adaptive_report_shows_its_stop_and_its_neighbours(tmp_path: Path) -> None:
    site = play(tmp_path, {
        "name": "greedy and a copy", "game": "block", "seed": 7, "options": {"single_deal": True},
        "entrants": [str(ROOT / "bots" / "greedy"), str(ROOT / "bots" / "random"),
                     {"path": str(ROOT / "bots" / "greedy"), "name": "copy"}],
        "format": {"type": "adaptive", "players": 2, "max_matches": 24},
    }, "adaptive")
    with Store.open(site.store_dir) as store:
        standing = store_summary(store)
    assert standing.stop == MAX_MATCHES and standing.matches == 24
    b = Browser()
    try:
        b.size(*DESKTOP)
        b.open(site.index)
        assert b.errors() == []
        box = b.css("#adaptive")
        assert box.find_element("css selector", "h2").text == "Adaptive: max_matches reached"
        assert standing.line() in box.text and " > ".join(standing.ranking) in box.text
        rows = [[c.text for c in r.find_elements("css selector", "td")]
                for r in box.find_elements("css selector", "tbody tr")]
        assert [r[:3] for r in rows] == [[standing.names[p.above], standing.names[p.below],
                                          p.state] for p in standing.pairs]
        b.screenshot(screenshot_dir() / "adaptive-index.png")
        b.open(site.site_dir / "head-to-head.html")
        assert b.errors() == []
        assert "Stopping rule" in b.css("#pairs thead").text
        ruled = [r.find_elements("css selector", "td")[-1].text for r in b.all("#pairs tbody tr")]
        assert sum(1 for r in ruled if r) == 2  # the two neighbour pairs of three entrants
    finally:
        b.close()
