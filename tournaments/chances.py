"""The chance that one entrant is truly stronger than another: the one probability arena prints
about a pair (the report's head-to-head page, "P(stronger)").

TrueSkill's σ is not used for it: TrueSkill counts every match as independent news, so with
duplicate deals (whose matches share their luck) and draws its σ is no standard error, and
Φ((μA − μB) / √(σA² + σB²)) gave two copies of one bot 94 % after two duplicate sets. Instead:
the Bradley–Terry Elo fitted to every match (``tournaments.formats.adaptive``'s ranking), its variances
scaled by the field's dispersion (how the set scores spread against independent wins and
losses), and a normal prior on the strengths estimated from the field itself
(``stats.chances_above``). On simulated fields with known strengths, copies among them, the
chances come true as often as they say (tests/tournaments/test_chances.py).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tournaments.formats.adaptive import Tally, dispersion
from tournaments.stats import bradley_terry_elo, chances_above


def chances(entrants: Sequence[int], played: Iterable[Any], players: int
            ) -> dict[tuple[int, int], float]:
    """(a, b) -> the chance that a is stronger than b, from ``played`` (objects with ``seats``,
    ``ranks`` and ``deal``, the duplicate set they share; matches with anyone outside
    ``entrants`` are left out)."""
    tally = Tally(players)
    known = set(entrants)
    for m in played:
        if all(e in known for e in m.seats):
            tally.add(m)
    elo = bradley_terry_elo(list(entrants), tally.games, tally.points)
    return chances_above(elo, tally.games, dispersion(tally, elo))


__all__ = ["chances"]
