"""How many matches does an adaptive tournament need, against a round-robin, to rank a field right?

    python benchmarks/adaptive.py [--sizes 8,16,40] [--seeds 100] [--first-seed 1] [--players 2]
                                  [--kinds class,continuous] [--gap 0.6] [--sd 0.9] [--draws 0.15]
                                  [--copies 3] [--margin 0.05] [--workers 4]

Simulated fields, no bot processes, of two kinds (``--kinds``):

- **class** fields: strengths in classes ``gap`` apart with ties (every third class holds two
  equal entrants). A match is drawn from a model of duplicate play: each seat of a deal has a luck
  drawn once per deal, N(0, 1), so a duplicate set hands every entrant of its table the same luck
  in turn; each entrant's performance in a match is its strength + its seat's luck + N(0, 1)
  noise, and the ranks follow the performances. The true score rate of A against B is then
  ``Φ((s_A − s_B) / 2)`` (``gap`` 0.6: 61.8 % between neighbouring classes).
- **continuous** fields (2 players): strengths drawn from N(0, ``sd``), and in every 16 entrants
  ``copies`` entrants of one strength (exact copies of one bot); the duplicate-free model of one
  match per deal: a draw with probability ``draws``, otherwise A wins with probability
  ``Φ((s_A − s_B) / √2)``. Many neighbours are a few percent apart.

Which entrant holds which strength is shuffled per seed. A ranking is *right* when no entrant
stands above one whose true score against it is beyond ``0.5 + margin``: equal entrants (and any
two within the margin) may stand in either order. For each kind, size and seed:

- **adaptive**: the real planner (``tournaments.formats.adaptive.Plan``, confidence 0.95, ``--margin``,
  batches of ``batch_sets(--workers)``, ``max_matches`` 40 round-robin rounds) plays until it
  stops; its matches at the stop (what a user pays), whether it stopped by itself (not by
  ``max_matches``), whether its ranking is right there, whether it was right after each batch
  (for the fewest matches an oracle would have needed), and every neighbour pair's claim at the
  stop (a settled pair's claim is wrong when the upper one's true score against the lower one is
  below 0.5 − margin; an *ordered* one's also when it is below ½);
- **round-robin**: round after round (every table, every rotation, one deal per set), ranked by
  total points (the maximum-likelihood order of a complete round-robin); the first number of
  rounds at which at least 95 % of the seeds rank the field right.

It prints a row per kind and size: the round-robin's matches to rank 95 % of the seeds right; the
adaptive's mean matches at its stop, their ratio to the round-robin's and the aim (0.3 on class
fields of 16 and more, 0.5 at fewer, 0.7 on continuous fields; at most 1 is required), the seeds
whose stop came by itself, the seeds right at the stop, the claims wrong at the stop; and the
adaptive's matches to rank 95 % right as it goes (an oracle's view, not a stop). The same command
prints the same figures.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from itertools import combinations
from pathlib import Path
from statistics import NormalDist

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.formats.adaptive import LEVEL, MAX_MATCHES, ORDERED, Plan, Settings, batch_sets, round_robin_matches
from tournaments.seeds import derive_seed

CONFIDENCE, MARGIN, TARGET = 0.95, 0.05, 0.95
LUCK, NOISE = 1.0, 1.0
MAX_ROUNDS = 40
CLASS, CONTINUOUS = "class", "continuous"
COPIES_PER = 16  # a continuous field holds one group of copies in every this many entrants


class Field:
    """Entrants with known strengths; matches drawn from the kind's model."""

    def __init__(self, kind: str, size: int, players: int, seed: int, gap: float = 0.6,
                 sd: float = 0.9, draws: float = 0.0, copies: int = 0) -> None:
        self.kind, self.players, self.draws = kind, players, draws
        rng = random.Random(derive_seed(seed, "benchmark-field"))
        strengths: list[float] = []
        if kind == CLASS:
            cls = 0
            while len(strengths) < size:
                strengths += [cls * gap] * (2 if cls % 3 == 1 else 1)
                cls += 1
            strengths = strengths[:size]
        else:
            if players != 2:
                raise SystemExit("continuous fields are of 2 players a table")
            groups = max(1, size // COPIES_PER) if copies > 1 else 0
            for _ in range(groups):
                strengths += [rng.gauss(0, sd)] * copies
            strengths = strengths[:size]
            strengths += [rng.gauss(0, sd) for _ in range(size - len(strengths))]
        rng.shuffle(strengths)  # ids say nothing
        self.strength = strengths
        self.true = {(a, b): self._true(a, b) for a in range(size) for b in range(size) if a != b}

    def _true(self, a: int, b: int) -> float:
        diff = self.strength[a] - self.strength[b]
        if self.kind == CLASS:
            return NormalDist().cdf(diff / math.sqrt(2 * NOISE ** 2 + 2 * LUCK ** 2))
        return self.draws / 2 + (1 - self.draws) * NormalDist().cdf(diff / math.sqrt(2))

    def ranks(self, seats: tuple[int, ...], luck: list[float], rng: random.Random) -> list[int]:
        if self.kind == CONTINUOUS:
            a, b = seats
            if rng.random() < self.draws:
                return [1, 1]
            p = NormalDist().cdf((self.strength[a] - self.strength[b]) / math.sqrt(2))
            return [1, 2] if rng.random() < p else [2, 1]
        perf = [self.strength[e] + luck[s] + rng.gauss(0, NOISE) for s, e in enumerate(seats)]
        order = sorted(range(len(seats)), key=lambda s: -perf[s])
        ranks = [0] * len(seats)
        for place, s in enumerate(order, 1):
            ranks[s] = place
        return ranks

    def right(self, ranking: list[int] | tuple[int, ...]) -> bool:
        return all(self.true[(a, b)] >= 0.5 - MARGIN for a, b in combinations(ranking, 2))


class Result:
    __slots__ = ("seats", "ranks")

    def __init__(self, seats: tuple[int, ...], ranks: list[int]) -> None:
        self.seats, self.ranks = seats, ranks


class Run:
    """One adaptive run: its ranking after every batch, its stop, its claims."""

    def __init__(self, field: Field, seed: int, workers: int) -> None:
        size, k = len(field.strength), field.players
        settings = Settings(k, CONFIDENCE, MARGIN, MAX_ROUNDS * round_robin_matches(size, k),
                            seed, batch_sets(workers, k))
        rng = random.Random(derive_seed(seed, "benchmark-outcomes"))
        plan = Plan(settings, tuple(range(size)))
        results: dict[int, Result] = {}
        luck: dict[int, list[float]] = {}
        self.right = [field.right(plan.now.ranking)]  # after 0, 1, 2, ... complete batches
        self.batch = settings.batch_sets * k
        while plan.advance(results) is None:
            for m in plan.left(results):
                seat_luck = luck.setdefault(m.deal, [rng.gauss(0, LUCK) for _ in range(k)])
                results[m.id] = Result(m.seats, field.ranks(m.seats, seat_luck, rng))
            plan.advance(results)
            self.right.append(field.right(plan.now.ranking))
        self.matches = plan.counted
        self.max_hit = plan.stop == MAX_MATCHES
        self.claims = self.wrong = 0
        for p in plan.now.pairs:
            true = field.true[(p.above, p.below)]
            if p.state == ORDERED:
                self.claims += 1
                self.wrong += true <= 0.5
            elif p.state == LEVEL:
                self.claims += 1
                self.wrong += true < 0.5 - MARGIN

    def right_after(self, batches: int) -> bool:
        return self.right[min(batches, len(self.right) - 1)]


def matches_to_target(runs: list[Run]) -> int | None:
    """The fewest matches after which at least TARGET of the runs rank the field right."""
    longest = max(len(r.right) for r in runs)
    for b in range(longest):
        if sum(r.right_after(b) for r in runs) >= TARGET * len(runs):
            return b * runs[0].batch
    return None


def rounds_to_target(right: list[list[bool]]) -> int | None:
    """The fewest round-robin rounds after which at least TARGET of the seeds rank it right."""
    return next((rnd + 1 for rnd in range(MAX_ROUNDS)
                 if sum(r[rnd] for r in right) >= TARGET * len(right)), None)


def round_robin_right(fields: list[Field], seeds: list[int]) -> list[list[bool]]:
    """Per seed: whether its round-robin ranks the field right after 1, 2, … MAX_ROUNDS rounds."""
    size, k = len(fields[0].strength), fields[0].players
    out = []
    tables = list(combinations(range(size), k))
    for field, seed in zip(fields, seeds):
        rng = random.Random(derive_seed(seed, "benchmark-round-robin"))
        total = [0.0] * size
        right = []
        out.append(right)
        for _ in range(MAX_ROUNDS):
            for table in tables:
                seat_luck = [rng.gauss(0, LUCK) for _ in range(k)]  # the deal's, seat by seat
                for rotation in range(k):
                    seats = tuple(table[(i + rotation) % k] for i in range(k))
                    ranks = field.ranks(seats, seat_luck, rng)
                    for s, r in enumerate(ranks):  # a point for each seat below, ½ for each equal
                        total[seats[s]] += sum(1.0 if r < o else 0.5 if r == o else 0.0
                                               for o2, o in enumerate(ranks) if o2 != s)
            ranking = sorted(range(size), key=lambda e: (-total[e], e))
            right.append(field.right(ranking))
    return out


def aim(kind: str, size: int) -> float:
    """The issue's aim for the stop's matches against the round-robin's."""
    if kind == CONTINUOUS:
        return 0.7
    return 0.3 if size >= 16 else 0.5


def _text(x: float | None) -> str:
    return "-" if x is None else f"{x:.0f}"


def _ratio(x: float | None, base: int | None) -> str:
    return "-" if x is None or not base else f"{x / base:.2f}"


def main(argv: list[str] | None = None) -> int:
    global MARGIN
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="8,16,40", help="field sizes (default 8,16,40)")
    parser.add_argument("--seeds", type=int, default=100, help="seeds per size (default 100)")
    parser.add_argument("--first-seed", type=int, default=1,
                        help="the first seed (default 1): the seeds are FIRST, FIRST + 1, ...")
    parser.add_argument("--kinds", default=f"{CLASS},{CONTINUOUS}",
                        help="the kinds of field (default class,continuous)")
    parser.add_argument("--players", type=int, default=2, help="players per table (default 2)")
    parser.add_argument("--margin", type=float, default=MARGIN,
                        help="the format's margin, and the truth's (default 0.05)")
    parser.add_argument("--workers", type=int, default=4,
                        help="workers the batch size is made for (default 4)")
    parser.add_argument("--gap", type=float, default=0.6,
                        help="class fields: strength between neighbouring classes (default 0.6)")
    parser.add_argument("--sd", type=float, default=0.9,
                        help="continuous fields: the spread of the strengths (default 0.9)")
    parser.add_argument("--draws", type=float, default=0.15,
                        help="continuous fields: the chance of a draw (default 0.15)")
    parser.add_argument("--copies", type=int, default=3,
                        help="continuous fields: entrants of one strength in every 16 (default 3)")
    args = parser.parse_args(argv)
    MARGIN = args.margin
    sizes = [int(s) for s in args.sizes.split(",")]
    kinds = args.kinds.split(",")
    if any(k not in (CLASS, CONTINUOUS) for k in kinds):
        parser.error(f"--kinds: {args.kinds!r}: class and/or continuous")
    print(f"confidence {CONFIDENCE}, margin {MARGIN:g}, {args.players} players, batches of "
          f"{batch_sets(args.workers, args.players)} sets, {args.seeds} seeds per size; class: gap "
          f"{args.gap}; continuous: sd {args.sd}, draws {args.draws:g}, {args.copies} copies in 16")
    print(f"{'kind':>10} {'entrants':>8} {'round-robin to 95% right':>24} {'stop: matches':>13} "
          f"{'ratio':>6} {'aim':>5} {'by itself':>9} {'right':>6} {'wrong claims':>18} "
          f"{'oracle 95%':>10} {'seconds':>8}")
    for kind in kinds:
        for size in sizes:
            start = time.monotonic()
            seeds = list(range(args.first_seed, args.first_seed + args.seeds))
            fields = [Field(kind, size, args.players, seed, args.gap, args.sd, args.draws,
                            args.copies) for seed in seeds]
            runs = [Run(field, seed, args.workers) for field, seed in zip(fields, seeds)]
            rounds = rounds_to_target(round_robin_right(fields, seeds))
            rr = rounds * round_robin_matches(size, args.players) if rounds else None
            stop = sum(r.matches for r in runs) / len(runs)
            claims, wrong = sum(r.claims for r in runs), sum(r.wrong for r in runs)
            rr_text = f"{rounds} rounds, {rr}" if rr else f"> {MAX_ROUNDS} rounds"
            print(f"{kind:>10} {size:>8} {rr_text:>24} {stop:>13.0f} {_ratio(stop, rr):>6} "
                  f"{aim(kind, size):>5.1f} "
                  f"{100 * sum(not r.max_hit for r in runs) / len(runs):>8.0f}% "
                  f"{100 * sum(r.right[-1] for r in runs) / len(runs):>5.0f}% "
                  f"{wrong:>5}/{claims:<5} ({100 * wrong / max(1, claims):.1f}%) "
                  f"{_text(matches_to_target(runs)):>10} "
                  f"{time.monotonic() - start:>8.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
