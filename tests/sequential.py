"""A sequential test for the strength claims: play until the claim is significant, not a fixed
number of matches.

A claim says "A scores at least ``p1`` against B" (a score is 1 for a win, 0 for a loss, 0.5 for
a tie, or the mean over a duplicate set). Wald's sequential probability ratio test weighs
H1: score rate = ``p1`` against H0: score rate = ``p0`` (below the claim) one outcome at a time,
with the fractional-Bernoulli likelihood ``s ln(p1/p0) + (1 - s) ln((1 - p1)/(1 - p0))``, and stops
as soon as the log-likelihood ratio leaves ``[ln(beta/(1 - alpha)), ln((1 - beta)/alpha)]``:

- above the upper bound: the claim holds (H1), wrong at most ``alpha`` of the time when the true
  rate is ``p0`` or lower;
- below the lower bound: the claim fails (H0), wrong at most ``beta`` of the time when the true
  rate is ``p1`` or higher;
- after ``max_outcomes`` without either: no verdict, which fails the test too.

The outcomes come from fixed seeds, so a run is reproducible: the test either always passes or
always fails on the same code. A strong claim stops after tens of outcomes, a close one plays on
up to its cap.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

H1, H0, NO_VERDICT = "H1", "H0", "no verdict"


@dataclass(frozen=True)
class Verdict:
    outcome: str      # H1 (the claim holds), H0 (it does not) or NO_VERDICT
    count: int        # outcomes weighed
    mean: float       # their mean score
    llr: float        # the final log-likelihood ratio

    def __str__(self) -> str:
        return (f"{self.outcome} after {self.count} outcomes (mean score {self.mean:.3f}, "
                f"LLR {self.llr:.2f})")


def sprt(outcomes: Iterable[float], p0: float, p1: float, *, alpha: float = 0.001,
         beta: float = 0.001, max_outcomes: int) -> Verdict:
    """Weigh ``outcomes`` (scores in [0, 1]) one by one until H1 or H0 is accepted."""
    if not 0 < p0 < p1 < 1:
        raise ValueError(f"need 0 < p0 < p1 < 1, got p0={p0}, p1={p1}")
    win, loss = math.log(p1 / p0), math.log((1 - p1) / (1 - p0))
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    llr = total = 0.0
    count = 0
    for score in outcomes:
        if not 0 <= score <= 1:
            raise ValueError(f"a score must be in [0, 1], got {score}")
        count += 1
        total += score
        llr += score * win + (1 - score) * loss
        if llr >= upper or llr <= lower or count >= max_outcomes:
            break
    outcome = H1 if llr >= upper else H0 if llr <= lower else NO_VERDICT
    return Verdict(outcome, count, total / count if count else 0.0, llr)
