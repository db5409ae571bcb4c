"""Ratings: golden numbers, schedule order, ties, the head-to-head table and the draw estimate."""
from __future__ import annotations

import dataclasses
import random

import pytest
import trueskill

from tournaments.ratings import (
    estimate_draw_probability, format_head_to_head, format_leaderboard, make_env, rate,
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
