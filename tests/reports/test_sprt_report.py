"""The report of pair statistics and of a sequential test: the head-to-head page's pairs (counts
per duplicate set, score and Elo intervals, P(stronger)) from hand-made data, and a real SPRT
of bundled bots whose index shows the verdict's box, in a real Chromium."""
from __future__ import annotations

from pathlib import Path
from statistics import NormalDist

import pytest

from reports.data import EntrantInfo, MatchInfo, Standing, TournamentData
from reports.model import SiteModel
from tests.reports.browser import DESKTOP, Browser
from tests.reports.conftest import ROOT, play, screenshot_dir
from tournaments.chances import chances
from tournaments.formats.adaptive import Met
from tournaments.formats.sprt import store_summary
from tournaments.ratings import pair_table
from tournaments.stats import estimate
from tournaments.store import Store

ANN, BOB, CY = 0, 1, 2

# (seed, seats, ranks): duplicate sets share their seed
MATCHES = [
    (1, (ANN, BOB), (1, 2)), (1, (BOB, ANN), (2, 1)),  # ann 2 of 2
    (2, (ANN, BOB), (1, 1)), (2, (BOB, ANN), (1, 2)),  # ann ½
    (3, (ANN, BOB), (1, 2)), (3, (BOB, ANN), (1, 2)),  # ann 1
    (4, (CY, ANN), (1, 2)),                            # a set half played
]


def data(duplicate: bool = True) -> TournamentData:
    rows = [MatchInfo(id=i, number=i, seats=seats, seed=seed, scores=(0, 0), ranks=ranks,
                      statuses=("ok", "ok"), reasons=("", ""), stderr_tails=("", ""),
                      time_ms=(1.0, 1.0), duration_ms=10.0)
            for i, (seed, seats, ranks) in enumerate(MATCHES, 1)]
    standings = [Standing(ANN, 27.0, 1.5, 7, 4, 1, 0.0, 0), Standing(BOB, 25.0, 2.0, 6, 1, 1, 0.0, 0),
                 Standing(CY, 24.0, 8.0, 1, 1, 0, 0.0, 0)]
    return TournamentData(name="pairs", game="block", options={"num_players": 2}, seed=None,
                          entrants=[EntrantInfo(i, n) for i, n in enumerate(["ann", "bob", "cy"])],
                          matches=rows, standings=standings, history={},
                          pairs=pair_table(rows), planned=len(rows), duplicate=duplicate)


def test_the_full_head_to_head_page_lists_every_pair_by_duplicate_set() -> None:
    model = SiteModel(data())
    view = model.head_to_head()
    rows = {(r.a.name, r.b.name): r for r in view.pairs}
    assert set(rows) == {("ann", "bob"), ("ann", "cy")}  # bob and cy never met
    ab = rows[("ann", "bob")]
    assert ab.sets == 3 and ab.counts == "0 · 1 · 1 · 0 · 1" and ab.pending == 0
    e = estimate([0, 1, 1, 0, 1])
    assert ab.score == f"{100 * e.score:.1f}% ({100 * e.score_low:.1f}–{100 * e.score_high:.1f}%)"
    assert ab.elo == f"{e.elo:+.0f} ± {e.elo_margin:.0f}"
    # the chance from every match (tournaments.chances), not from TrueSkill's μ and σ
    played = [Met(seats, ranks, seed) for seed, seats, ranks in MATCHES]
    assert ab.p_above == f"{100 * chances([ANN, BOB, CY], played, 2)[(ANN, BOB)]:.1f}%"
    assert ab.p_above != f"{100 * NormalDist().cdf(2 / 2.5):.1f}%"  # (27 − 25) / √(1.5² + 2²)
    ac = rows[("ann", "cy")]
    assert ac.sets == 0 and ac.pending == 1 and ac.score == "—"
    assert view.outcomes == "0, ½, 1, 1½, 2 points of 2"
    assert model.head_to_head(limit=24).pairs == []  # the index's matrix does without them


def test_without_duplicate_deals_each_match_is_a_set() -> None:
    view = SiteModel(data(duplicate=False)).head_to_head()
    rows = {(r.a.name, r.b.name): r for r in view.pairs}
    assert rows[("ann", "bob")].counts == "2 · 1 · 3"  # lost 2, drew 1, won 3 and rows[("ann", "bob")].sets == 6
    assert view.outcomes == "0, ½, 1 points of 1"


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(300)
def test_an_sprt_report_shows_its_verdict_and_its_pair(tmp_path: Path) -> None:
    site = play(tmp_path, {
        "name": "greedy or random", "game": "block", "seed": 7, "options": {"single_deal": True},
        "entrants": [str(ROOT / "bots" / "greedy"), str(ROOT / "bots" / "random")],
        "format": {"type": "sprt", "elo1": 100, "max_matches": 24},
    }, "sprt")
    with Store.open(site.store_dir) as store:
        summary = store_summary(store)
    b = Browser()
    try:
        b.size(*DESKTOP)
        b.open(site.index)
        assert b.errors() == []
        box = b.css("#sprt")
        assert box.find_element("css selector", "h2").text == summary.headline
        assert summary.line() in box.text and "greedy (candidate) against random" in box.text
        cells = [c.text for c in box.find_elements("css selector", "tbody td")]
        assert cells == [str(c) for c in summary.counts]
        b.screenshot(screenshot_dir() / "sprt-index.png")
        b.open(site.site_dir / "head-to-head.html")
        assert b.errors() == []
        row = [c.text for c in b.all("#pairs tbody tr")[0].find_elements("css selector", "td")]
        assert row[:4] == ["greedy", "random", str(summary.pairs),
                           " · ".join(str(c) for c in summary.counts)]
    finally:
        b.close()
