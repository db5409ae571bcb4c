"""The Swiss system (``[format] type = "swiss"``): a few rounds in which entrants of close standing
meet, instead of every pair.

- **Tables.** Two players a table (``format.players`` must be 2). Each pairing is one duplicate
  set: one deal played twice, the seats swapped, so the luck of the deal cancels out.
- **Rounds.** ``format.rounds``, by default ⌈log₂ N⌉ + 2 for N entrants; never more than the
  field allows without a pair meeting twice (N − 1 for an even field, N for an odd one).
- **A pairing's result.** The points of its two matches (a win 1, a draw ½ each): more than 1 of
  2 wins the pairing (1), exactly 1 draws it (½ each), less loses it (0).
- **Pairing a round.** The entrants in play are ordered by score, then Buchholz (the sum of the
  scores of the opponents met), then an order drawn from the tournament seed (never the
  entrants' ids, which follow their folders). From the top, each is paired with the next one
  below it that it has not met yet, backtracking when the rest cannot be paired, so no pair
  meets twice and the pairs are as close in standing as that allows. In an odd field one
  entrant sits the round out (a **bye**, scored as a won pairing): the lowest one that has not
  had a bye yet; nobody gets two. If no round can be paired, the tournament ends there.
- **Who sits first.** Of a pair, the one that has sat first less often (counting the tables it
  sat second at against it) sits first in the set's first match (the higher in the standing in
  even rounds, the lower in odd ones, when equal).
- **Ids and deals.** Pairing ``d`` of the tournament (counted from 0, round after round) is the
  deal ``d``, seed ``seeds.deal_seed(seed, d)``, and the matches ``2d + 1`` and ``2d + 2``.
  Every round is kept in the store (its meta value ``swiss_rounds``) before it is played, and
  is a function of the stored results before it, so a run stopped or killed resumes to the same
  pairings.
- **The field.** No late entrant and no new version is admitted (the standing would not compare
  like with like). An entrant withdrawn or suspended loses its pairings not played yet (its
  opponent wins them) and is paired no more.
- **Standings.** By score, ties broken by Buchholz, then by TrueSkill's order (the leaderboard's).
"""
from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.game import Game
from tournaments.formats.protocol import Box, ConfigError, FormatConfig, Outcome, Start, StoreView, Summary
from tournaments.plan import PlannedMatch, Slot
from tournaments.schedule import Schedule
from tournaments.seeds import deal_seed, derive_seed
from tournaments.stats import points

NAME = "swiss"
ROUNDS_KEY = "swiss_rounds"  # the store's meta key of the rounds paired so far
UNPLAYED = -1  # the slot of a Swiss match: it belongs to no slot of a schedule


@dataclass(frozen=True)
class Round:
    """One round's pairings (entrant ids, the one sitting first first) and its bye, if any."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"pairs": [list(p) for p in self.pairs], "bye": self.bye}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Round:
        return Round(tuple((int(a), int(b)) for a, b in data["pairs"]),
                     None if data.get("bye") is None else int(data["bye"]))


def default_rounds(entrants: int) -> int:
    """⌈log₂ N⌉ + 2."""
    return math.ceil(math.log2(max(2, entrants))) + 2


def round_count(rounds: int, entrants: int) -> int:
    """The rounds played: ``rounds`` (0: the default), no more than the field allows without a
    repeat (N − 1 for an even field, N for an odd one)."""
    wanted = rounds or default_rounds(entrants)
    return min(wanted, entrants - 1 if entrants % 2 == 0 else entrants)


def match_ids(deal: int) -> tuple[int, int]:
    """The ids of pairing ``deal``'s two matches."""
    return 2 * deal + 1, 2 * deal + 2


@dataclass
class Table:
    """The scores so far: each entrant's score, opponents met, byes, and how many more tables
    it sat first at than second."""

    score: dict[int, float]
    opponents: dict[int, list[int]]
    byes: set[int]
    firsts: dict[int, int]  # tables sat first at, less tables sat second at
    met: set[frozenset[int]]
    complete: int  # rounds whose every pairing is decided

    def buchholz(self, e: int) -> float:
        return sum(self.score[o] for o in self.opponents[e])


def pairing_points(first: Any, second: Any, a: int) -> float:
    """``a``'s points in a duplicate set of two stored matches (each with ``seats``, ``ranks``)."""
    total = 0.0
    for m in (first, second):
        seat = list(m.seats).index(a)
        total += points(m.ranks, seat, 1 - seat)
    return total


def tally(entrants: Sequence[int], rounds: Sequence[Round], results: Mapping[int, Any],
          in_play: set[int]) -> Table:
    """The scores after ``rounds`` (``results``: match id -> stored match). A pairing not fully
    stored is won by the one still in play when the other is not; while both are, it is still
    to be played, and its round is not complete."""
    t = Table({e: 0.0 for e in entrants}, {e: [] for e in entrants}, set(),
              {e: 0 for e in entrants}, set(), 0)
    deal = 0
    whole = True  # every round so far complete
    for rnd in rounds:
        done = True
        for a, b in rnd.pairs:
            t.met.add(frozenset((a, b)))
            t.firsts[a] += 1
            t.firsts[b] -= 1
            first, second = (results.get(i) for i in match_ids(deal))
            deal += 1
            if first is not None and second is not None:
                pa = pairing_points(first, second, a)
                t.score[a] += 1.0 if pa > 1 else 0.5 if pa == 1 else 0.0
                t.score[b] += 1.0 if pa < 1 else 0.5 if pa == 1 else 0.0
                t.opponents[a].append(b)
                t.opponents[b].append(a)
            elif a in in_play and b not in in_play:
                t.score[a] += 1.0
            elif b in in_play and a not in in_play:
                t.score[b] += 1.0
            elif a in in_play and b in in_play:
                done = False
        if rnd.bye is not None:
            t.byes.add(rnd.bye)
            t.score[rnd.bye] += 1.0
        whole = whole and done
        t.complete += whole
    return t


def drawn_order(entrants: Sequence[int], seed: int) -> dict[int, int]:
    """Entrant id -> its place in an order drawn from the tournament seed (the last tie-break of
    a pairing)."""
    order = sorted(entrants)
    random.Random(derive_seed(seed, NAME)).shuffle(order)
    return {e: i for i, e in enumerate(order)}


def pair_round(ranked: Sequence[int], met: set[frozenset[int]],
               byes: set[int]) -> tuple[list[tuple[int, int]], int | None] | None:
    """The pairs of a round among ``ranked`` (best first) that repeat no pair of ``met``, each as
    close in standing as the rest allows, and the bye (odd fields: the lowest without one), or
    None when there are none."""
    odd = len(ranked) % 2 == 1
    for bye in ([e for e in reversed(ranked) if e not in byes] if odd else [None]):
        pairs = _pairs([e for e in ranked if e != bye], met)
        if pairs is not None:
            return pairs, bye
    return None


def _pairs(rest: list[int], met: set[frozenset[int]]) -> list[tuple[int, int]] | None:
    if not rest:
        return []
    top = rest[0]
    for i in range(1, len(rest)):
        other = rest[i]
        if frozenset((top, other)) in met:
            continue
        tail = _pairs(rest[1:i] + rest[i + 1:], met)
        if tail is not None:
            return [(top, other), *tail]
    return None


def next_round(entrants: Sequence[int], rounds: Sequence[Round], results: Mapping[int, Any],
               in_play: set[int], seed: int) -> Round | None:
    """The pairings of the round after ``rounds`` (all complete), or None if none is possible."""
    t = tally(entrants, rounds, results, in_play)
    draw = drawn_order(entrants, seed)
    ranked = sorted(in_play, key=lambda e: (-t.score[e], -t.buchholz(e), draw[e]))
    found = pair_round(ranked, t.met, t.byes)
    if found is None:
        return None
    pairs, bye = found
    seated = []
    for upper, lower in pairs:  # the one who sat first less often (than second) sits first
        if t.firsts[upper] != t.firsts[lower]:
            first = upper if t.firsts[upper] < t.firsts[lower] else lower
        else:
            first = upper if len(rounds) % 2 == 0 else lower
        seated.append((first, lower if first == upper else upper))
    return Round(tuple(seated), bye)


def round_matches(rounds: Sequence[Round], index: int, seed: int,
                  versions: Mapping[int, int]) -> list[PlannedMatch]:
    """The matches of round ``index``: each pairing's two, the seats swapped."""
    deal = sum(len(r.pairs) for r in rounds[:index])
    out = []
    for table, (a, b) in enumerate(rounds[index].pairs):
        for rotation, seats in enumerate(((a, b), (b, a))):
            out.append(PlannedMatch(match_ids(deal)[rotation], UNPLAYED, index, table, rotation,
                                    deal, deal_seed(seed, deal), seats,
                                    tuple(versions.get(e, 1) for e in seats)))
        deal += 1
    return out


# ----- the summary ------------------------------------------------------------------------------

@dataclass(frozen=True)
class SwissSummary:
    """The standings after the rounds complete: rows of (entrant id, score, Buchholz, byes)."""

    rounds: int                  # rounds complete
    total: int                   # rounds to play
    over: bool                   # every round played, or no further round could be paired
    names: dict[int, str]
    standings: tuple[tuple[int, float, float, int], ...]

    @property
    def finished(self) -> bool:
        return self.over

    @property
    def headline(self) -> str:
        return "Swiss: final standings" if self.over else "Swiss: standings so far"

    def line(self) -> str:
        top = ", ".join(f"{self.names[e]} {s:g}" for e, s, _, _ in self.standings[:3])
        early = " (no further round could be paired)" if self.over and self.rounds < self.total else ""
        return (f"{self.headline} after {self.rounds} of {self.total} rounds{early}: {top} "
                "(score; ties by Buchholz, then TrueSkill)")

    def text(self) -> str:
        lines = ["Swiss standings (score, Buchholz, byes):"]
        lines += [f"  {i + 1}. {self.names[e]}  {s:g}  {b:g}  {n}"
                  for i, (e, s, b, n) in enumerate(self.standings)]
        return "\n".join([*lines, self.line()])

    def box(self) -> Box:
        rows = tuple((str(i + 1), self.names[e], f"{s:g}", f"{b:g}", str(n))
                     for i, (e, s, b, n) in enumerate(self.standings))
        return Box(id=NAME, headline=self.headline, line=self.line(),
                   facts=(("Rounds", f"{self.rounds} of {self.total}"),),
                   caption="The standings: a pairing (one duplicate set) won scores 1, drawn ½, "
                           "a bye 1",
                   header=("Rank", "Bot", "Score", "Buchholz", "Byes"), rows=rows,
                   note="A Swiss system: each round pairs entrants of close standing who have "
                        "not met; ties in score are broken by Buchholz (the sum of the "
                        "opponents' scores), then by TrueSkill's order.",
                   tone="h1" if self.over else "none")

    def ranking_ids(self) -> tuple[int, ...]:
        return tuple(e for e, _, _, _ in self.standings)

    def ranked_by(self) -> tuple[str, str]:
        return ("ranked by the Swiss standings",
                "Ranked, on every page of this report, by the Swiss standings: score, then "
                "Buchholz, then TrueSkill's order (the box above).")

    def rules(self) -> dict[tuple[int, int], str]:
        return {}

    def renamed(self, name: Callable[[str], str], ident: Callable[[int], int]) -> SwissSummary:
        return dataclasses.replace(
            self, names={ident(e): name(n) for e, n in self.names.items()},
            standings=tuple((ident(e), s, b, n) for e, s, b, n in self.standings))


def summarize(entrants: Sequence[int], rounds: Sequence[Round], results: Mapping[int, Any],
              in_play: set[int], total: int, over: bool, names: Mapping[int, str],
              order: Sequence[int]) -> SwissSummary:
    """The standings: score, then Buchholz, then ``order`` (TrueSkill's, best first)."""
    t = tally(entrants, rounds, results, in_play)
    place = {e: i for i, e in enumerate(order)}
    ranked = sorted(entrants, key=lambda e: (-t.score[e], -t.buchholz(e),
                                             place.get(e, len(place)), e))
    return SwissSummary(t.complete, total, over, dict(names),
                        tuple((e, t.score[e], t.buchholz(e), int(e in t.byes)) for e in ranked))


def stored_rounds(store: StoreView) -> list[Round]:
    return [Round.from_json(r) for r in store.meta.get(ROUNDS_KEY) or []]


# ----- the run ----------------------------------------------------------------------------------

class SwissRun:
    """A round at a time: what is left of the current one, then the next one's pairings (kept in
    the store before they are played)."""

    def __init__(self, run: Start) -> None:
        self.run = run
        self.entrants = sorted(e.id for e in run.store.field.entrants())
        self.total = round_count(run.config.rounds, len(self.entrants))
        self.rounds = stored_rounds(run.store)
        self.results: dict[int, Any] = {r.id: r for r in run.rows}
        self.over = False
        self.left = (self.total - len(self.rounds)) * 2 * (len(self.entrants) // 2)
        if self.rounds:
            self.left += sum(1 for m in round_matches(self.rounds, len(self.rounds) - 1,
                                                      run.seed, run.current)
                             if m.id not in self.results)

    def batch(self, keep: Callable[[PlannedMatch], bool]) -> list[PlannedMatch]:
        in_play = set(self.run.store.field.current())
        while True:
            if self.rounds:
                last = round_matches(self.rounds, len(self.rounds) - 1, self.run.seed,
                                     self.run.current)
                left = [m for m in last if m.id not in self.results
                        and all(e in in_play for e in m.seats)]
                kept = [m for m in left if keep(m)]
                if kept:
                    return kept
                if left:  # refused, though in play: nothing more can be played now
                    return []
            if len(self.rounds) >= self.total:
                self.over = True
                return []
            found = next_round(self.entrants, self.rounds, self.results, in_play, self.run.seed)
            if found is None:
                self.over = True
                return []
            self.rounds.append(found)
            self.run.store.meta.set(ROUNDS_KEY, [r.to_json() for r in self.rounds])

    def add(self, result: Outcome) -> None:
        self.results[result.id] = result

    def status(self) -> str | None:
        return f"round {len(self.rounds)} of {self.total}"

    @property
    def decided(self) -> bool:
        return self.over

    def summary(self, names: Mapping[int, str], order: Callable[[], Sequence[int]]) -> SwissSummary:
        return summarize(self.entrants, self.rounds, self.results, set(self.run.store.field.current()),
                         self.total, self.over, names, order())


class Swiss:
    """The format (see the module's docstring)."""

    name = NAME
    keys: tuple[str, ...] = ("rounds",)
    late_entrants = False
    new_versions = False
    fixed = False

    def check(self, given: Mapping[str, Any], values: Mapping[str, Any], players: int,
              game: Game, source: str) -> dict[str, Any]:
        if players != 2:
            raise ConfigError(f"{source}: 'format.players' is {players}; type = '{NAME}' seats "
                              "two players a table")
        return {"rounds": values["rounds"] if "rounds" in given else 0, "duplicate": True}

    def describe(self, f: FormatConfig) -> str:
        rounds = f"{f.rounds} rounds" if f.rounds else "⌈log₂ N⌉ + 2 rounds"
        return f"{NAME}, 2 players per table, {rounds}, a duplicate set per pairing"

    def facts(self, f: FormatConfig) -> dict[str, str]:
        return {"rounds": str(f.rounds) if f.rounds else "⌈log₂ N⌉ + 2",
                "duplicate deals": "a duplicate set per pairing"}

    def entrants(self, f: FormatConfig, names: Sequence[str],
                 paths: Callable[[], Sequence[str]]) -> tuple[int, ...]:
        if len(names) < 2:
            raise ConfigError(f"'entrants': {len(names)} entrant(s); a Swiss system needs at "
                              "least 2")
        return ()

    def schedule(self, entrants: int, f: FormatConfig, seed: int,
                 candidates: Sequence[int]) -> Schedule:
        return Schedule((), (), 0)  # paired round by round from the results

    def planned(self, f: FormatConfig, entrants: int, schedule: Schedule) -> int:
        return round_count(f.rounds, entrants) * 2 * (entrants // 2)

    def join_slots(self, f: FormatConfig, newcomer: int, others: Sequence[int],
                   candidates: Sequence[int], slots: Sequence[Slot], sampled: bool,
                   seed: int) -> list[Slot]:
        return []

    def start(self, run: Start) -> SwissRun:
        return SwissRun(run)

    def read(self, store: StoreView, order: Sequence[int]) -> Summary:
        config = store.meta.config()
        entrants = sorted(e.id for e in store.field.entrants())
        rounds = stored_rounds(store)
        in_play = set(store.field.current())
        total = round_count(config.format.rounds, len(entrants))
        results = {r.id: r for r in store.matches.all()}
        t = tally(entrants, rounds, results, in_play)
        over = t.complete == len(rounds) and (
            len(rounds) >= total
            or next_round(entrants, rounds, results, in_play, config.seed) is None)
        return summarize(entrants, rounds, results, in_play, total, over,
                         {e.id: e.name for e in store.field.entrants()}, order)


SWISS = Swiss()

__all__ = ["NAME", "ROUNDS_KEY", "Round", "SWISS", "Swiss", "SwissRun", "SwissSummary",
           "default_rounds", "match_ids", "next_round", "pair_round", "round_count",
           "round_matches", "summarize", "tally"]
