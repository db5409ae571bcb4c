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

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from arena.game import Game
from tournaments.formats.protocol import Box, ConfigError, FormatConfig, Outcome, Start, StoreView, Summary
from tournaments.plan import PlannedMatch, Slot
from tournaments.schedule import Schedule, play_tables
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

    def text(self) -> str:
        return self.line()

    def box(self) -> Box:
        """The index's box: the verdict, the test's facts, the pairs by the candidate's points."""
        e = self.estimate
        facts = (
            ("Candidate", self.candidate), ("Baseline", self.baseline),
            ("Elo of the candidate", "—" if e is None else
             f"{e.elo:+.1f} ± {e.elo_margin:.1f} (95%)"),
            ("Log-likelihood ratio", f"{_num(self.llr)} (H0 at {_num(self.lower)}, H1 at "
                                     f"{_num(self.upper)})"),
            ("Hypotheses", f"H0: {self.elo0:g} Elo, H1: {self.elo1:g} Elo; α {self.alpha:g}, "
                           f"β {self.beta:g}"),
            ("Pairs counted", f"{self.pairs:,} ({2 * self.pairs:,} matches) of at most "
                              f"{self.max_matches // 2:,}"),
        )
        return Box(id=NAME, headline=self.headline, line=self.line(), facts=facts,
                   caption="Duplicate pairs (one deal, the seats swapped) by the candidate's "
                           "points of 2",
                   header=("0", "½", "1", "1½", "2"), rows=(tuple(map(str, self.counts)),),
                   note="A sequential probability ratio test: the log-likelihood ratio of H1 "
                        "against H0 after every pair, in schedule order, until it leaves its "
                        "bounds.", tone=(self.verdict or "none").lower(), numeric=True)

    def ranking_ids(self) -> tuple[int, ...]:
        return ()

    def ranked_by(self) -> tuple[str, str]:
        return "", ""

    def rules(self) -> dict[tuple[int, int], str]:
        return {}

    def renamed(self, name: Callable[[str], str], ident: Callable[[int], int]) -> SprtSummary:
        return dataclasses.replace(self, candidate=name(self.candidate),
                                   baseline=name(self.baseline))


def _num(value: float) -> str:
    text = f"{value:.2f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text  # no "-0.00"


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


def store_summary(store: Any) -> SprtSummary:
    """The test over what a (read-only) ``tournaments.store.Store`` holds."""
    config = store.meta.config()
    return summarize(config.format, [e.name for e in store.field.entrants()],
                     positions(store.field.slots(), store.matches.current()))


def positions(slots: Sequence[Slot], rows: Sequence[Any]) -> dict[int, Any]:
    """The stored ``rows`` by their place in the first schedule (their slot's first id, plus
    their rotation), which is what the test counts its pairs by, whichever version played them."""
    firsts = {s.id: s.first_match for s in slots}
    return {firsts.get(r.slot, r.id - r.rotation) + r.rotation: r for r in rows}


# ----- the format ------------------------------------------------------------------------------

NAME = "sprt"
DEFAULTS = {"elo0": 0.0, "elo1": 50.0, "alpha": 0.05, "beta": 0.05, "max_matches": 2000}


class SprtCourse:
    """The run: the next matches left in schedule order, a batch at a time, until a verdict
    (the test looks after every match, and a batch is asked for only while there is none)."""

    def __init__(self, run: Start) -> None:
        self.test = SequentialTest(run.config)
        firsts = {s.id: s.first_match for s in run.slots}
        self.position: Callable[[Any], int] = lambda m: firsts.get(m.slot, 0) + m.rotation
        self.results: dict[int, Any] = {self.position(r): r for r in run.current_rows}
        decided = self.test.advance(self.results) is not None  # a resume of a decided test
        self.todo = [] if decided else run.todo
        self.left = len(self.todo)
        self.size = batch_size(run.workers)

    def batch(self, keep: Callable[[PlannedMatch], bool]) -> list[PlannedMatch]:
        if self.test.advance(self.results) is not None:
            return []
        return [m for m in self.todo if self.position(m) not in self.results and keep(m)][:self.size]

    def add(self, result: Outcome) -> None:
        self.results[self.position(result)] = result
        self.test.advance(self.results)

    def status(self) -> str | None:
        return self.test.status()

    @property
    def decided(self) -> bool:
        return self.test.finished

    def summary(self, names: Mapping[int, str], order: Callable[[], Sequence[int]]) -> SprtSummary:
        return self.test.summary(names[0], names[1])


class Sprt:
    """The format: two entrants, the candidate then the baseline, on one table of duplicate
    pairs; a new version of either plays every pair again (``tournaments.plan``)."""

    name = NAME
    keys: tuple[str, ...] = tuple(DEFAULTS)
    late_entrants = False
    new_versions = True
    fixed = False

    def check(self, given: Mapping[str, Any], values: Mapping[str, Any], players: int,
              game: Game, source: str) -> dict[str, Any]:
        if players != 2:
            said = "is" if given.get("players") is not None else f"defaults to {game.name}'s"
            can = (" (set it to 2: " + game.name + " is played by " + game.players_text() + ")"
                   if 2 in game.player_counts else f" ({game.name} is not played by 2)")
            raise ConfigError(f"{source}: 'format.players' {said} {players}; type = '{NAME}' "
                              f"tests two players{can}")
        out = {k: values[k] if values[k] is not None else v for k, v in DEFAULTS.items()}
        for key in ("alpha", "beta"):
            if not 0 < out[key] < 1:
                raise ConfigError(f"{source}: 'format.{key}' must be between 0 and 1 (exclusive), "
                                  f"got {out[key]!r}")
        if out["alpha"] + out["beta"] >= 1:
            raise ConfigError(f"{source}: 'format.alpha' + 'format.beta' must be less than 1, got "
                              f"{out['alpha']} + {out['beta']}")
        if not out["elo1"] > out["elo0"]:
            raise ConfigError(f"{source}: 'format.elo1' must be greater than 'format.elo0', got "
                              f"elo0 {out['elo0']}, elo1 {out['elo1']}")
        if out["max_matches"] < 2 or out["max_matches"] % 2:
            raise ConfigError(f"{source}: 'format.max_matches' must be an even number of at least "
                              f"2 (matches come in duplicate pairs), got {out['max_matches']}")
        for key in ("elo0", "elo1", "alpha", "beta"):
            out[key] = float(out[key])
        return out

    def describe(self, f: FormatConfig) -> str:
        return (f"{NAME} (elo0 {f.elo0:g}, elo1 {f.elo1:g}, alpha {f.alpha:g}, beta {f.beta:g}), "
                f"duplicate pairs, at most {f.max_matches} matches")

    def facts(self, f: FormatConfig) -> dict[str, str]:
        return {"test": f"elo0 {f.elo0:g}, elo1 {f.elo1:g}, alpha {f.alpha:g}, beta {f.beta:g}, "
                        f"at most {f.max_matches} matches"}

    def entrants(self, f: FormatConfig, names: Sequence[str],
                 paths: Callable[[], Sequence[str]]) -> tuple[int, ...]:
        if len(names) != 2:
            raise ConfigError(f"'entrants': type = '{NAME}' tests two entrants, the candidate "
                              f"then the baseline; there are {len(names)}")
        return ()

    def schedule(self, entrants: int, f: FormatConfig, seed: int,
                 candidates: Sequence[int]) -> Schedule:
        """One table of two, a round per duplicate pair: a new deal for each pair, the seats
        swapped within it and the first seat alternating from pair to pair."""
        return play_tables([(0, 1)], 1, "", size=2, rounds=(f.max_matches or 0) // 2,
                           duplicate=True, seed=seed, draw_seats=False)

    def planned(self, f: FormatConfig, entrants: int, schedule: Schedule) -> int:
        return len(schedule)

    def join_slots(self, f: FormatConfig, newcomer: int, others: Sequence[int],
                   candidates: Sequence[int], slots: Sequence[Slot], sampled: bool,
                   seed: int) -> list[Slot]:
        return []

    def start(self, run: Start) -> SprtCourse:
        return SprtCourse(run)

    def read(self, store: StoreView, order: Sequence[int]) -> Summary:
        return store_summary(store)


SPRT = Sprt()

__all__ = ["H0", "H1", "NAME", "PAIRS_PER_WORKER", "Played", "SPRT", "SequentialTest",
           "SprtSummary", "batch_size", "positions", "store_summary", "summarize"]
