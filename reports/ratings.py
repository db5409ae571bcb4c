"""Standings and rating history computed from match rows, for stores that do not provide them.

``tournaments.ratings`` is the source of truth; this is the same rule written small (an explicit
TrueSkill environment, matches applied in schedule order, ranks as stored, a failed seat already
ranked last by the referee) so that a report can be drawn from any list of ``MatchInfo``.
"""
from __future__ import annotations

from collections import defaultdict

import trueskill

from reports.data import EntrantInfo, MatchInfo, RatingPoint, Standing


def compute(entrants: list[EntrantInfo], matches: list[MatchInfo],
            env: trueskill.TrueSkill | None = None
            ) -> tuple[list[Standing], dict[int, list[RatingPoint]]]:
    """Standings in leaderboard order (μ − 3σ, highest first) and each entrant's μ/σ history."""
    env = env or trueskill.TrueSkill(draw_probability=0.0)
    ratings = {e.id: env.create_rating() for e in entrants}
    history: dict[int, list[RatingPoint]] = {e.id: [] for e in entrants}
    played = defaultdict(int)
    wins = defaultdict(int)
    draws = defaultdict(int)
    score_sum = defaultdict(float)
    failures = defaultdict(int)
    for m in matches:
        if not m.played:
            continue
        for seat, eid in enumerate(m.seats):
            played[eid] += 1
            score_sum[eid] += m.scores[seat] if seat < len(m.scores) else 0
            if seat < len(m.statuses) and m.statuses[seat] != "ok":
                failures[eid] += 1
            if m.ranks[seat] == 1:
                if list(m.ranks).count(1) > 1:
                    draws[eid] += 1
                else:
                    wins[eid] += 1
        if len(set(m.seats)) != len(m.seats):
            continue  # a bot against itself teaches its rating nothing
        groups = [(ratings[eid],) for eid in m.seats]
        new = env.rate(groups, ranks=[r - 1 for r in m.ranks])
        for eid, (rating,) in zip(m.seats, new):
            ratings[eid] = rating
            history[eid].append(RatingPoint(m.number, rating.mu, rating.sigma))
    standings = [
        Standing(entrant=e.id, mu=ratings[e.id].mu, sigma=ratings[e.id].sigma,
                 matches=played[e.id], wins=wins[e.id], draws=draws[e.id],
                 avg_score=score_sum[e.id] / played[e.id] if played[e.id] else 0.0,
                 failures=failures[e.id])
        for e in entrants
    ]
    name = {e.id: e.name for e in entrants}
    standings.sort(key=lambda s: (-s.exposed, -s.mu, name[s.entrant], s.entrant))
    return standings, history
