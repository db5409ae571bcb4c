"""The report's numbers from hand-made data with draws: head-to-head cells, opponents' rows, the
leaderboard's win rate and average score, all checked against numbers worked out by hand; the
head-to-head table is the one tournaments.ratings counts (``pair_table``), shown as given."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from reports.data import EntrantInfo, MatchInfo, Standing, TournamentData
from reports.model import SiteModel
from reports.render import SiteWriter
from tournaments.ratings import pair_table, rate
from tournaments.store import Entrant, MatchRow

ANN, BOB, CY = 0, 1, 2
NAMES = ["ann", "bob", "cy"]

# (seats, ranks, scores) of each match, in schedule order; a shared rank 1 is a draw
MATCHES_2P = [
    ((ANN, BOB), (1, 1), (50, 50)),   # draw
    ((BOB, ANN), (2, 1), (30, 100)),  # ann wins
    ((ANN, BOB), (1, 1), (61, 61)),   # draw
    ((CY, ANN), (1, 2), (100, 12)),   # cy wins
    ((BOB, CY), (1, 1), (40, 40)),    # draw
]


def data(matches, players: int = 2) -> TournamentData:
    rows = [MatchInfo(id=i, number=i, seats=seats, seed=i, scores=scores, ranks=ranks,
                      statuses=("ok",) * len(seats), reasons=("",) * len(seats),
                      stderr_tails=("",) * len(seats), time_ms=(1.0,) * len(seats),
                      duration_ms=10.0)
            for i, (seats, ranks, scores) in enumerate(matches, 1)]
    standings = [Standing(ANN, 30.0, 3.0, 4, 1, 2, 55.75, 0), Standing(CY, 26.0, 4.0, 2, 1, 1, 70.0, 0),
                 Standing(BOB, 24.0, 3.5, 4, 0, 3, 45.25, 0)]
    return TournamentData(name="draws", game="block", options={"num_players": players}, seed=1,
                          entrants=[EntrantInfo(i, n, f"/bots/{n}") for i, n in enumerate(NAMES)],
                          matches=rows, standings=standings, history={},
                          pairs=pair_table(rows), planned=len(rows))


def cells(model: SiteModel) -> dict[tuple[str, str], str]:
    view = model.head_to_head()
    names = [b.name for b in view.bots]
    return {(row.bot.name, names[j]): cell.main for row in view.rows
            for j, cell in enumerate(row.cells) if not cell.empty}


def test_head_to_head_counts_draws_as_draws() -> None:
    got = cells(SiteModel(data(MATCHES_2P)))
    assert got == {
        ("ann", "bob"): "1-2-0", ("bob", "ann"): "0-2-1",
        ("ann", "cy"): "0-0-1", ("cy", "ann"): "1-0-0",
        ("bob", "cy"): "0-1-0", ("cy", "bob"): "0-1-0",
    }


def test_the_score_rate_counts_a_draw_as_half() -> None:
    view = SiteModel(data(MATCHES_2P)).head_to_head()
    by_pair = {(row.bot.name, view.bots[j].name): cell for row in view.rows
               for j, cell in enumerate(row.cells) if not cell.empty}
    assert by_pair[("ann", "bob")].sub == "67%"   # (1 + 2/2) / 3
    assert by_pair[("bob", "ann")].sub == "33%"
    assert by_pair[("bob", "cy")].sub == "50%"
    assert "1 won, 2 drawn, 0 lost in 3 matches; score rate 66.7%" in by_pair[("ann", "bob")].title


def test_the_report_shows_the_pair_table_of_the_ratings_module() -> None:
    """The head-to-head table is counted once, by tournaments.ratings; the report shows it as
    given and counts nothing itself."""
    rows = [MatchRow(id=i, round=0, table=0, rotation=0, deal=i, seed=i, seats=seats,
                     scores=scores, ranks=ranks, statuses=("ok", "ok"), reasons=("", ""),
                     think_ms=(0.0, 0.0), stderr_tails=("", ""), duration_ms=1.0, startup_ms=0.5,
                     wall_ms=1.0, worker="w", finished_at="")
            for i, (seats, ranks, scores) in enumerate(MATCHES_2P, 1)]
    entrants = [Entrant(i, n, f"/bots/{n}", "0" * 64) for i, n in enumerate(NAMES)]
    ratings = rate(entrants, rows, 0.1, players=2)
    h2h = ratings.head_to_head
    assert h2h is not None
    got = cells(SiteModel(dataclasses.replace(data(MATCHES_2P), pairs=ratings.pairs)))
    assert len(got) == 6
    for (a, b), text in got.items():
        assert text == "-".join(map(str, h2h[(NAMES.index(a), NAMES.index(b))])), (a, b)
    assert cells(SiteModel(dataclasses.replace(data(MATCHES_2P), pairs={}))) == {}  # not recounted


def test_a_bots_opponents_rows() -> None:
    model = SiteModel(data(MATCHES_2P))
    view = model.bot_view(ANN, [m for m in model.data.matches if ANN in m.seats])
    rows = {r.bot.name: r for r in view.opponents}
    bob = rows["bob"]
    assert (bob.matches, bob.wins, bob.draws, bob.losses) == (3, 1, 2, 0)
    assert bob.score_rate == "67%"
    assert bob.avg_score == "70.3"            # (50 + 100 + 61) / 3
    assert bob.avg_opponent_score == "47.0"   # (50 + 30 + 61) / 3
    assert bob.avg_place == "1.00"
    cy = rows["cy"]
    assert (cy.wins, cy.draws, cy.losses, cy.avg_place) == (0, 0, 1, "2.00")


def test_three_players_sharing_a_place() -> None:
    """With three at the table, a bot's place is averaged; shared places count as they stand."""
    matches = [((ANN, BOB, CY), (1, 1, 3), (20, 20, 5)), ((CY, ANN, BOB), (1, 2, 2), (30, 9, 9))]
    model = SiteModel(data(matches, players=3))
    got = cells(model)
    assert got[("ann", "bob")] == "1.50"   # places 1 and 2 at the tables ann shared with bob
    assert got[("cy", "ann")] == "2.00"    # places 3 and 1
    view = model.bot_view(ANN, model.data.matches)
    bob = next(r for r in view.opponents if r.bot.name == "bob")
    assert (bob.wins, bob.draws, bob.losses) == (0, 2, 0)  # level with bob both times


def test_the_index_shows_the_cells(tmp_path: Path) -> None:
    index = SiteWriter(data(MATCHES_2P), tmp_path).write_index()
    html = index.read_text(encoding="utf-8")
    for text in ("1-2-0", "0-2-1", "0-0-1", "1-0-0"):
        assert f'<span class="cell-main">{text}</span>' in html


def failing(n: int) -> list[MatchInfo]:
    """ann against bob n times: ann answers illegally (a different legal list each time), or
    times out with a different time left in its bank every third match."""
    rows = []
    for i in range(1, n + 1):
        if i % 3:
            status = "illegal_action"
            legal = [f'{i}-{j}' for j in range(i % 5 + 1)]
            reason = f"decision {i + 4}: '6-6:Z' is not one of the legal actions {legal}"
        else:
            status = "timeout"
            reason = f"did not answer in time: decision {i} exceeded its 1000 ms plus {10 * i} ms left in its bank"
        rows.append(MatchInfo(id=100 + i, number=i, seats=(ANN, BOB), seed=i, scores=(0, 10), ranks=(2, 1),
                              statuses=(status, "ok"), reasons=(reason, ""), stderr_tails=("", ""),
                              time_ms=(1.0, 1.0), duration_ms=10.0))
    return rows


def test_failures_are_grouped_by_kind_with_a_few_examples() -> None:
    matches = failing(51)  # 34 illegal actions, 17 timeouts
    d = data([])
    d.matches = matches
    model = SiteModel(d)
    view = model.bot_view(ANN, matches)
    assert view.failures_total == 51
    groups = [(g.status, g.kind, g.count) for g in view.failure_groups]
    assert groups == [
        ("illegal_action", "decision …: '…' is not one of the legal actions […]", 34),
        ("timeout", "did not answer in time: decision … exceeded its … ms plus … ms left in its bank", 17),
    ]
    illegal, timeout = view.failure_groups
    assert [e.number for e in illegal.examples] == [1, 2, 4]
    assert [e.href for e in timeout.examples] == ["replay.html?match=103#end", "replay.html?match=106#end",
                                                  "replay.html?match=109#end"]
    assert timeout.examples[0].reason == matches[2].reasons[0]  # the whole reason of that match


def test_the_bot_page_lists_the_kinds_and_links_their_matches(tmp_path: Path) -> None:
    matches = failing(6)
    d = data([])
    d.matches = matches
    SiteWriter(d, tmp_path).write()
    html = (tmp_path / "bots" / "0-ann.html").read_text(encoding="utf-8")
    assert html.count('class="failure-group"') == 2
    assert 'href="../replay.html?match=104#end"' in html and "and 1 more" in html


def test_a_bot_keeps_its_colour_when_the_ranks_change() -> None:
    """A live page renders again every 30 s: colours follow the bot, not its rank."""
    first = SiteModel(data(MATCHES_2P))
    d = data(MATCHES_2P)
    d.standings = list(reversed(d.standings))
    second = SiteModel(d)
    assert [b.name for b in first.index(None).chart_legend] != [b.name for b in second.index(None).chart_legend]
    for entrant in (ANN, BOB, CY):
        assert first.bot(entrant).colour == second.bot(entrant).colour
    assert len({first.bot(e).colour for e in (ANN, BOB, CY)}) == 3


def test_forty_bots_have_forty_colours() -> None:
    from reports.colours import bot_colour
    assert len({bot_colour(i) for i in range(40)}) == 40


def test_the_leaderboard_says_what_breaks_a_tie(tmp_path: Path) -> None:
    """The order and the ties come from the ratings module (tournaments.ratings.leaderboard_order,
    the one rule); the report says the rule, and beside a bot ranked above a level one, why."""
    from tournaments.ratings import TieBreak, tie_rule

    level = data(MATCHES_2P)
    level.standings = [Standing(CY, 26.0, 4.0, 2, 1, 1, 70.0, 0,
                                tie=TieBreak("their matches against each other", "1", "0")),
                       Standing(ANN, 26.0, 4.0, 4, 1, 2, 55.75, 0), Standing(BOB, 24.0, 3.5, 4, 0, 3, 45.25, 0)]
    rows = SiteModel(level).leaderboard()
    assert [r.bot.name for r in rows] == ["cy", "ann", "bob"]
    assert rows[0].tie == "Level with ann on μ − 3σ; ahead on their matches against each other, 1 to 0"
    assert rows[1].tie is None and rows[2].tie is None
    html = SiteWriter(level, tmp_path).write_index().read_text(encoding="utf-8")
    assert "conservative rating μ − 3σ, on every page of this report" in html   # the one order
    assert f"{tie_rule()[:1].upper()}{tie_rule()[1:]}." in html
    assert tie_rule() == ("bots level on μ − 3σ as shown are ordered by their matches against each "
                          "other, then by wins, then by average score")
    assert '<div class="tie-note muted small">Level with ann on μ − 3σ; ahead on their matches' in html
