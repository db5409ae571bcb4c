"""Ratings: golden numbers, schedule order, ties, the head-to-head table and the draw estimate."""
from __future__ import annotations

import dataclasses
import random

import pytest
import trueskill

from tournaments.ratings import (
    Standing,
    TieBreak,
    estimate_draw_probability,
    format_head_to_head,
    format_leaderboard,
    in_order,
    leaderboard_order,
    make_env,
    pair_table,
    rate,
    tie_rule,
)
from tournaments.store import Entrant, MatchRow

ENTRANTS = [Entrant(i, name, f"/bots/{name}", "0" * 64) for i, name in enumerate(["ann", "bob", "cy"])]


def row(match_id: int, seats: tuple[int, ...], ranks: tuple[int, ...],
        scores: tuple[int, ...] | None = None, statuses: tuple[str, ...] | None = None) -> MatchRow:
    n = len(seats)
    return MatchRow(
        id=match_id, round=0, table=0, rotation=0, deal=match_id, seed=match_id, seats=seats,
        scores=scores or tuple(10 * (n - r) for r in ranks), ranks=ranks,
        statuses=statuses or ("ok",) * n, reasons=("",) * n, think_ms=(0.0,) * n,
        stderr_tails=("",) * n, duration_ms=1.0, startup_ms=0.5, wall_ms=1.0, worker="w",
        finished_at="")


MATCHES = [
    row(1, (0, 1), (1, 2)),
    row(2, (1, 0), (2, 1)),
    row(3, (0, 2), (1, 1)),
    row(4, (2, 1), (1, 2), statuses=("ok", "timeout")),
    row(5, (1, 2), (1, 2)),
    row(6, (2, 0), (2, 1)),
]


def test_golden_numbers() -> None:
    ratings = rate(ENTRANTS, MATCHES, 0.1, players=2)
    got = {s.entrant.name: (round(s.mu, 3), round(s.sigma, 3)) for s in ratings.standings}
    assert got == GOLDEN
    assert [s.entrant.name for s in ratings.standings] == ["ann", "cy", "bob"]
    ann, cy, bob = ratings.standings
    assert (ann.matches, ann.wins, ann.draws, ann.losses) == (4, 3, 1, 0)
    assert bob.failures == {"timeout": 1} and bob.failure_count == 1
    assert ann.conservative == pytest.approx(ann.mu - 3 * ann.sigma)


GOLDEN = {"ann": (31.031, 4.998), "cy": (22.56, 4.506), "bob": (23.414, 5.035)}


def test_same_numbers_as_trueskill_by_hand() -> None:
    env = trueskill.TrueSkill(mu=25.0, sigma=25 / 3, beta=25 / 6, tau=25 / 300, draw_probability=0.1)
    r = [env.create_rating() for _ in ENTRANTS]
    for m in MATCHES:
        new = env.rate([(r[e],) for e in m.seats], ranks=list(m.ranks))
        for seat, e in enumerate(m.seats):
            r[e] = new[seat][0]
    ratings = rate(ENTRANTS, MATCHES, 0.1, players=2)
    for s in ratings.standings:
        assert (s.mu, s.sigma) == (r[s.entrant.id].mu, r[s.entrant.id].sigma)


def test_applied_in_schedule_order_whatever_the_order_given() -> None:
    shuffled = MATCHES[:]
    random.Random(3).shuffle(shuffled)
    assert rate(ENTRANTS, shuffled, 0.1, players=2) == rate(ENTRANTS, MATCHES, 0.1, players=2)
    assert [h.match_id for h in rate(ENTRANTS, shuffled, 0.1, players=2).history] == [1, 2, 3, 4, 5, 6]
    # order matters to TrueSkill, so rating by id is what makes a parallel run rate like a serial one
    renumbered = [dataclasses.replace(m, id=7 - m.id) for m in MATCHES]
    assert rate(ENTRANTS, renumbered, 0.1, players=2).standings != \
        rate(ENTRANTS, MATCHES, 0.1, players=2).standings


def test_history_has_every_entrant_after_every_match() -> None:
    ratings = rate(ENTRANTS, MATCHES, 0.1, players=2)
    assert len(ratings.history) == 6 and all(len(h.ratings) == 3 for h in ratings.history)
    final = {s.entrant.id: (s.mu, s.sigma) for s in ratings.standings}
    assert ratings.history[-1].ratings == tuple(final[i] for i in range(3))
    assert ratings.history[0].ratings[2] == (25.0, 25 / 3)  # cy has not played yet


def test_n_player_ranks_with_ties() -> None:
    matches = [row(1, (0, 1, 2), (1, 2, 2)), row(2, (1, 2, 0), (1, 3, 1))]
    ratings = rate(ENTRANTS, matches, 0.2, players=3)
    env = make_env(0.2)
    a, b, c = (env.create_rating() for _ in range(3))
    (a,), (b,), (c,) = env.rate([(a,), (b,), (c,)], ranks=[1, 2, 2])
    (b,), (c,), (a,) = env.rate([(b,), (c,), (a,)], ranks=[1, 3, 1])
    assert ratings.standing("ann").mu == a.mu and ratings.standing("cy").sigma == c.sigma
    assert ratings.head_to_head is None
    ann = ratings.standing("ann")
    assert (ann.wins, ann.draws) == (1, 1)  # sole first, then shared first


def test_the_pair_table_compares_each_two_at_a_table() -> None:
    """Three at a table, ranks 1, 2, 2 and scores 30, 10, 10, then the same three ranked 2, 1, 3
    (scores 5, 9, 1): a ranks above b once and below once, b and c are level once (a draw)."""
    pairs = pair_table([row(1, (0, 1, 2), (1, 2, 2), scores=(30, 10, 10)),
                        row(2, (0, 1, 2), (2, 1, 3), scores=(5, 9, 1))])
    a_b, b_c, c_a = pairs[(0, 1)], pairs[(1, 2)], pairs[(2, 0)]
    assert (a_b.matches, a_b.wins, a_b.draws, a_b.losses) == (2, 1, 0, 1)
    assert (a_b.places, a_b.score, a_b.opponent_score) == (1 + 2, 30 + 5, 10 + 9)
    assert (b_c.wins, b_c.draws, b_c.losses, b_c.places) == (1, 1, 0, 2 + 1)
    assert (c_a.wins, c_a.draws, c_a.losses, c_a.score_rate) == (0, 0, 2, 0.0)
    assert a_b.score_rate == 0.5 and len(pairs) == 6
    assert pair_table([row(1, (0, 0), (1, 2))]) == {}  # a bot at a table with itself meets no one


def test_head_to_head_and_tables() -> None:
    ratings = rate(ENTRANTS, MATCHES, 0.1, players=2)
    assert ratings.head_to_head is not None
    assert ratings.head_to_head[(0, 1)] == (2, 0, 0)
    assert ratings.head_to_head[(0, 2)] == (1, 1, 0)
    assert ratings.head_to_head[(2, 0)] == (0, 1, 1)
    board = format_leaderboard(ratings)
    assert board.splitlines()[2].split()[:2] == ["1", "ann"]
    assert "1 (1 timeout)" in board
    h2h = format_head_to_head(ratings).splitlines()
    assert h2h[2].split() == ["1", "ann", "-", "1-1-0", "2-0-0"]


def test_draw_probability_suits_the_game() -> None:
    two = estimate_draw_probability("block", {}, 2)
    one_deal_four = estimate_draw_probability("block", {"single_deal": True}, 4)
    assert two == pytest.approx(0.005)  # no tie in 200 playouts: the floor
    assert 0.3 < one_deal_four <= 0.9   # many share the last rank on 0 points
    assert estimate_draw_probability("block", {}, 3, seed=1) == estimate_draw_probability("block", {}, 3, seed=1)


def test_average_score_wins_draws_and_losses_by_hand() -> None:
    """Scores unlike the ranks, so that averaging the wrong column shows."""
    matches = [
        row(1, (0, 1), (1, 2), scores=(120, 35)),
        row(2, (1, 0), (1, 2), scores=(90, 80)),
        row(3, (0, 2), (2, 1), scores=(10, 61)),
        row(4, (2, 1), (1, 1), scores=(44, 44)),
    ]
    ratings = rate(ENTRANTS, matches, 0.1, players=2)
    ann, bob, cy = (ratings.standing(n) for n in ("ann", "bob", "cy"))
    assert ann.average_score == 70.0            # (120 + 80 + 10) / 3
    assert bob.average_score == 169 / 3         # (35 + 90 + 44) / 3
    assert cy.average_score == 52.5             # (61 + 44) / 2
    assert (ann.matches, ann.wins, ann.draws, ann.losses) == (3, 1, 0, 2)
    assert (bob.matches, bob.wins, bob.draws, bob.losses) == (3, 1, 1, 1)
    assert (cy.matches, cy.wins, cy.draws, cy.losses) == (2, 1, 1, 0)
    lines = {line.split()[1]: line.split() for line in format_leaderboard(ratings).splitlines()[2:]}
    assert lines["ann"][7] == "70.0" and lines["bob"][7] == "56.3" and lines["cy"][7] == "52.5"
    assert ratings.head_to_head[(1, 2)] == (0, 1, 0) and ratings.head_to_head[(0, 1)] == (1, 0, 1)


def test_an_entrant_without_matches_averages_nothing() -> None:
    ratings = rate(ENTRANTS, [row(1, (0, 1), (1, 2), scores=(7, 3))], 0.1, players=2)
    cy = ratings.standing("cy")
    assert (cy.matches, cy.average_score, cy.mu, cy.sigma) == (0, 0.0, 25.0, 25 / 3)


# Two entrants level on μ − 3σ as shown (9.49), ann a hair ahead in the float: bob beat ann in
# their one match and won 4 matches to ann's 2.
LEVEL = [
    row(1, (0, 1), (2, 1), scores=(4, 33)), row(2, (0, 2), (1, 2), scores=(48, 87)),
    row(3, (1, 2), (1, 2), scores=(69, 33)), row(4, (0, 2), (1, 2), scores=(9, 0)),
    row(5, (1, 2), (1, 2), scores=(68, 61)), row(6, (2, 1), (2, 1), scores=(48, 56)),
    row(7, (1, 2), (2, 1), scores=(19, 66)),
]


def test_entrants_level_on_the_rating_shown_are_ordered_by_their_matches_against_each_other() -> None:
    ratings = rate(ENTRANTS, LEVEL, 0.1, players=2)
    ann, bob = ratings.standing("ann"), ratings.standing("bob")
    assert f"{ann.conservative:.2f}" == f"{bob.conservative:.2f}" == "9.49"
    assert ann.conservative > bob.conservative  # what the float alone would rank first
    assert ratings.head_to_head[(1, 0)] == (1, 0, 0) and (bob.wins, ann.wins) == (4, 2)
    names = [s.entrant.name for s in ratings.standings]
    assert names.index("bob") == names.index("ann") - 1
    assert bob.tie == TieBreak("their matches against each other", "1", "0") and ann.tie is None
    board = format_leaderboard(ratings).splitlines()
    assert [line.split()[1] for line in board[2:5]] == names
    assert board[5] == ("tie: bob and ann are level on mu-3sigma 9.49; bob is ahead on their "
                        "matches against each other, 1 to 0")
    assert len(board) == 6


def standing(entrant: int, wins: int = 0, average: float = 0.0, mu: float = 25.0) -> Standing:
    return Standing(ENTRANTS[entrant], mu=mu, sigma=5.0, matches=4, wins=wins, draws=0,
                    losses=4 - wins, average_score=average)


@pytest.mark.parametrize("standings, matches, order, tie", [
    # never met: wins decide
    ([standing(0, wins=1), standing(1, wins=3)], [], ["bob", "ann"], ("wins", "3", "1")),
    # 1-1 against each other, as many wins: the average score, compared to one decimal
    ([standing(0, 2, 51.2), standing(1, 2, 51.3)], [row(1, (0, 1), (1, 2)), row(2, (0, 1), (2, 1))],
     ["bob", "ann"], ("average score", "51.3", "51.2")),
    # ... and where that is level too (51.3 both), the name
    ([standing(1, 2, 51.34), standing(0, 2, 51.26)], [row(1, (0, 1), (1, 2)), row(2, (0, 1), (2, 1))],
     ["ann", "bob"], ("name", "ann", "bob")),
    # a draw between them counts a half each; their matches decide before the wins
    ([standing(0, wins=3), standing(1, wins=1)], [row(1, (1, 0), (1, 1)), row(2, (0, 1), (2, 1))],
     ["bob", "ann"], ("their matches against each other", "1.5", "0.5")),
    # level to 2 decimals though not in the float: still level
    ([standing(0, wins=1, mu=25.004), standing(1, wins=2, mu=25.0)], [], ["bob", "ann"], ("wins", "2", "1")),
])
def test_the_tie_breaks_in_order(standings, matches, order, tie) -> None:
    board = leaderboard_order(standings, matches)
    assert [s.entrant.name for s in board] == order
    assert board[0].tie == TieBreak(*tie) and board[1].tie is None


def test_three_level_entrants_play_a_small_league_among_themselves() -> None:
    """Points only from the matches among the level entrants, N seats at a table."""
    level = [standing(0, wins=5), standing(1, wins=0), standing(2, wins=0)]
    matches = [row(1, (0, 1, 2), (3, 1, 2)), row(2, (2, 1, 0), (1, 2, 3)), row(3, (1, 2), (1, 2))]
    board = leaderboard_order(level, matches)
    # bob: 2 + 1 + 1 = 4 points; cy: 1 + 2 + 0 = 3; ann: 0 + 0 = 0 (her five wins were elsewhere)
    assert [s.entrant.name for s in board] == ["bob", "cy", "ann"]
    assert board[0].tie == TieBreak("their matches against each other", "4", "3")
    assert board[1].tie == TieBreak("their matches against each other", "3", "0")


def test_the_terminal_follows_a_formats_own_ranking_and_says_which_model_orders_it() -> None:
    """TrueSkill's μ − 3σ says ann, cy, bob; a format that ranks the field itself (an adaptive
    run's settled ranking) says bob, cy, ann: the terminal's leaderboard and head-to-head table
    follow the format's order, and the heading says which order it is and that μ − 3σ would
    place the bots elsewhere, as the report does."""
    ratings = rate(ENTRANTS, MATCHES, 0.1, players=2)
    assert [s.entrant.name for s in ratings.standings] == ["ann", "cy", "bob"]
    ordered, heading = in_order(ratings, (1, 2, 0), "ranked by the adaptive run's settled ranking")
    assert [s.entrant.name for s in ordered.standings] == ["bob", "cy", "ann"]
    table = format_leaderboard(ordered).splitlines()
    assert [line.split()[:2] for line in table[2:]] == [["1", "bob"], ["2", "cy"], ["3", "ann"]]
    assert [line.split()[1] for line in format_head_to_head(ordered).splitlines()[2:]] == [
        "bob", "cy", "ann"]
    assert heading == ("ranked by the adaptive run's settled ranking; mu - 3 sigma, mu and sigma "
                       "are shown for the uncertainty of each rating, not as the order: mu - 3 "
                       "sigma would place 2 of 3 bots elsewhere")
    same, heading = in_order(ratings, (0, 2, 1), "ranked by the Swiss standings")
    assert same.standings == ratings.standings and heading.endswith(  # no tie broken here
        "mu - 3 sigma gives the same order")
    # a format without its own ranking (round-robin, SPRT): TrueSkill's order and tie rule
    plain, heading = in_order(ratings, (), "")
    assert plain == ratings and heading == f"ranked by mu - 3 sigma; {tie_rule('mu - 3 sigma')}"
