"""The sequential test of ``[format] type = "sprt"``: the candidate (entrant 0) against the
baseline (entrant 1), on duplicate pairs, until Wald's SPRT accepts H0 or H1 or ``max_matches``
runs out. It reads the results it is given (or a store, in :func:`store_summary`) and writes nothing.

Pair ``p`` (0-based) of the schedule is matches ``2p + 1`` and ``2p + 2``: one deal, the seats
swapped (``tournaments.schedule``). The test counts the candidate's points in each pair (the
pentanomial, ``tournaments.stats``) **in schedule order** and looks at the log-likelihood ratio
after every pair; the verdict is the first pair at which the LLR leaves its bounds. So the verdict
is a function of the stored results alone: not of how many workers played them, in which order
they finished, or where a run was stopped and resumed. The run plays the pairs in batches and
looks after each batch; pairs of the last batch that lie beyond the verdict are stored and rated
like any match, but the test does not count them.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from tournaments.config import FormatConfig, TournamentConfig
from tournaments.stats import Estimate, estimate, llr_logistic, points, sprt_bounds

PAIRS_PER_WORKER = 2  # a batch: this many duplicate pairs for each match played at once
H0, H1 = "H0", "H1"


class Played(NamedTuple):
    """What the test needs of a match: who sat where, and the ranks (1 = first)."""

    seats: Sequence[int]
    ranks: Sequence[int]


def batch_size(workers: int) -> int:
    """Matches in a batch for ``workers`` matches at once: whole pairs, never fewer than one."""
    return 2 * PAIRS_PER_WORKER * max(1, workers)


def over(verdict: str | None, pairs: int, max_matches: int) -> bool:
    """Whether the test is over: a verdict, or every pair of ``max_matches`` counted without one."""
    return verdict is not None or 2 * pairs >= max_matches


@dataclass(frozen=True)
class SprtSummary:
    """Where the test stands: its settings, the pairs counted, the LLR and the verdict."""

    candidate: str
    baseline: str
    elo0: float
    elo1: float
    alpha: float
    beta: float
    max_matches: int
    lower: float                 # accept H0 at or below
    upper: float                 # accept H1 at or above
    llr: float
    counts: tuple[int, ...]      # the candidate's pairs by points 0, ½, 1, 1½, 2
    verdict: str | None          # "H1", "H0", or None
    estimate: Estimate | None    # the candidate's score and Elo over the counted pairs

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def finished(self) -> bool:
        return over(self.verdict, self.pairs, self.max_matches)

    @property
    def headline(self) -> str:
        if self.verdict is not None:
            return f"SPRT: {self.verdict} accepted"
        return "SPRT: no verdict" if self.finished else "SPRT: no verdict yet"

    def elo_text(self) -> str:
        e = self.estimate
        if e is None:
            return "no pair played yet"
        return f"Elo {e.elo:+.1f} ± {e.elo_margin:.1f} (95%)"

    def line(self) -> str:
        """The one line a run ends with."""
        pairs = f"{self.pairs} duplicate pair{'s' if self.pairs != 1 else ''} ({2 * self.pairs} matches)"
        if self.verdict is not None:
            when = f"after {pairs}"
        elif self.finished:
            when = f"after {pairs}, max_matches {self.max_matches} reached"
        else:
            when = f"after {pairs} of at most {self.max_matches // 2}"
        return (f"{self.headline} {when}: {self.candidate} (candidate) against {self.baseline} "
                f"(baseline), {self.elo_text()}; LLR {self.llr:.2f} (bounds {self.lower:.2f}, "
                f"{self.upper:.2f}; elo0 {self.elo0:g}, elo1 {self.elo1:g}, alpha {self.alpha:g}, "
                f"beta {self.beta:g})")


class SequentialTest:
    """Walks the pairs in schedule order as their results arrive; stops at a verdict."""

    def __init__(self, fmt: FormatConfig) -> None:
        assert fmt.elo0 is not None and fmt.elo1 is not None
        assert fmt.alpha is not None and fmt.beta is not None and fmt.max_matches is not None
        self.fmt = fmt
        self.elo0, self.elo1, self.max_matches = fmt.elo0, fmt.elo1, fmt.max_matches
        self.lower, self.upper = sprt_bounds(fmt.alpha, fmt.beta)
        self.counts = [0] * 5
        self.llr = 0.0
        self.verdict: str | None = None

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def finished(self) -> bool:
        return over(self.verdict, self.pairs, self.max_matches)

    def advance(self, results: Mapping[int, Any]) -> str | None:
        """Count every pair now complete in ``results`` (match id -> an object with ``seats``
        and ``ranks``), in order, from the first not yet counted; stop at the first gap or at a
        verdict, which it returns."""
        while not self.finished:
            first, second = results.get(2 * self.pairs + 1), results.get(2 * self.pairs + 2)
            if first is None or second is None:
                break
            self.counts[round(2 * (_candidate_points(first) + _candidate_points(second)))] += 1
            self.llr = llr_logistic(self.counts, self.elo0, self.elo1)
            if self.llr >= self.upper:
                self.verdict = H1
            elif self.llr <= self.lower:
                self.verdict = H0
        return self.verdict

    def status(self) -> str:
        """For the progress line: the LLR and its bounds."""
        return f"LLR {self.llr:.2f} ({self.lower:.2f}, {self.upper:.2f})"

    def summary(self, candidate: str, baseline: str) -> SprtSummary:
        f = self.fmt
        assert f.alpha is not None and f.beta is not None
        return SprtSummary(
            candidate=candidate, baseline=baseline, elo0=self.elo0, elo1=self.elo1,
            alpha=f.alpha, beta=f.beta, max_matches=self.max_matches,
            lower=self.lower, upper=self.upper, llr=self.llr, counts=tuple(self.counts),
            verdict=self.verdict, estimate=estimate(self.counts))


def _candidate_points(match: Any) -> float:
    seat = list(match.seats).index(0)
    return points(match.ranks, seat, 1 - seat)


def summarize(fmt: FormatConfig, names: Sequence[str], results: Mapping[int, Any]) -> SprtSummary:
    """The test over stored ``results`` (match id -> MatchRow or :class:`Played`)."""
    test = SequentialTest(fmt)
    test.advance(results)
    return test.summary(names[0], names[1])


def store_summary(store: Any, config: TournamentConfig | None = None) -> SprtSummary:
    """The test over what a (read-only) ``tournaments.store.Store`` holds."""
    config = config or store.config()
    firsts = {s.id: s.first_match for s in store.slots()}
    return summarize(config.format, [e.name for e in store.entrants()],
                     {firsts.get(r.slot, r.id - r.rotation) + r.rotation: r
                      for r in store.current_matches()})


__all__ = ["H0", "H1", "PAIRS_PER_WORKER", "Played", "SequentialTest", "SprtSummary",
           "batch_size", "store_summary", "summarize"]
