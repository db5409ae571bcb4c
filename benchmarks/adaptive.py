"""How many matches does an adaptive tournament need, against a round-robin, to rank a field right?

    python benchmarks/adaptive.py [--sizes 8,16,40] [--seeds 300] [--first-seed 1] [--players 2]
                                  [--gap 0.6] [--margin 0.05] [--workers 4]

Simulated fields, no bot processes: entrant ``i`` has a known strength, in classes ``gap`` apart
with ties (every third class holds two equal entrants). A match is drawn from a model of duplicate
play: each seat of a deal has a luck drawn once per deal, N(0, 1), so a duplicate set hands every
entrant of its table the same luck in turn; each entrant's performance in a match is its strength
+ its seat's luck + N(0, 1) noise, and the ranks follow the performances. The true score rate of A
against B is then ``Φ((s_A − s_B) / 2)`` (``gap`` 0.6: 61.8 % between neighbouring classes).

Which entrant holds which strength is shuffled per seed. A ranking is *right* when no entrant
stands above one whose true score against it is beyond ``0.5 + margin``: equal entrants may stand
in either order. For each field and seed:

- **adaptive**: the real planner (``tournaments.adaptive.Plan``, confidence 0.95, ``--margin``,
  batches of ``batch_sets(--workers)``) plays until it stops; whether its ranking is right after
  each batch, its matches at the stop, and every neighbour pair's claim there (*ordered* is wrong
  when the lower one is truly at least as strong, *level* when the true rate is outside
  0.5 ± margin);
- **round-robin**: round after round (every table, every rotation, one deal per set), ranked by
  total points (the maximum-likelihood order of a complete round-robin); the first number of
  rounds at which at least 95 % of the seeds rank the field right.

It prints, per size: the fewest matches after which 95 % of the seeds rank the field right, for
the adaptive (as it goes) and the round-robin, their ratio and a bootstrap 90 % interval of it
(the seeds drawn again with replacement, 200 times: the 95th percentile of a few hundred runs
moves by a few batches from one set of seeds to another); then the adaptive's mean matches
at its stop (and their ratio to that round-robin's), its rate of right rankings there, how often
``max_matches`` (the matches of 40 round-robin rounds) stopped it, and its wrong claims against
what 95 % promises. The same command prints the same figures.
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

from tournaments.adaptive import (  # noqa: E402
    LEVEL, MAX_MATCHES, ORDERED, Plan, Settings, batch_sets, round_robin_matches)
from tournaments.seeds import derive_seed  # noqa: E402

CONFIDENCE, MARGIN, TARGET = 0.95, 0.05, 0.95
LUCK, NOISE = 1.0, 1.0
MAX_ROUNDS = 40
RESAMPLES = 200


class Field:
    """Entrants with known strengths; matches drawn from the duplicate-play model."""

    def __init__(self, size: int, gap: float, players: int, seed: int) -> None:
        strengths: list[float] = []
        cls = 0
        while len(strengths) < size:
            strengths += [cls * gap] * (2 if cls % 3 == 1 else 1)
            cls += 1
        self.strength = strengths[:size]
        random.Random(derive_seed(seed, "benchmark-field")).shuffle(self.strength)  # ids say nothing
        self.players = players
        spread = math.sqrt(2 * NOISE ** 2 + 2 * LUCK ** 2)
        self.true = {(a, b): NormalDist().cdf((self.strength[a] - self.strength[b]) / spread)
                     for a in range(size) for b in range(size) if a != b}

    def ranks(self, seats: tuple[int, ...], luck: list[float], rng: random.Random) -> list[int]:
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
                self.wrong += abs(true - 0.5) > MARGIN

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


def ratio_interval(runs: list[Run], right: list[list[bool]], per_round: int
                   ) -> tuple[float, float] | None:
    """A bootstrap 90 % interval of the ratio (adaptive over round-robin, both to rank right in
    TARGET of the seeds), the seeds drawn again with replacement: how far the ratio measured over
    this many seeds can be trusted."""
    rng = random.Random(derive_seed(0, "benchmark-bootstrap"))
    ratios = []
    for _ in range(RESAMPLES):
        drawn = [rng.randrange(len(runs)) for _ in runs]
        adaptive = matches_to_target([runs[i] for i in drawn])
        rounds = rounds_to_target([right[i] for i in drawn])
        if adaptive is None or rounds is None:
            return None
        ratios.append(adaptive / (rounds * per_round))
    ratios.sort()
    return ratios[int(0.05 * RESAMPLES)], ratios[int(0.95 * RESAMPLES) - 1]


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
                    for s, r in enumerate(field.ranks(seats, seat_luck, rng)):
                        total[seats[s]] += k - r  # one point for each seat ranked below
            ranking = sorted(range(size), key=lambda e: (-total[e], e))
            right.append(field.right(ranking))
    return out


def _text(x: float | None) -> str:
    return "-" if x is None else f"{x:.0f}"


def _ratio(x: float | None, base: int | None) -> str:
    return "-" if x is None or not base else f"{x / base:.2f}"


def main(argv: list[str] | None = None) -> int:
    global MARGIN
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="8,16,40", help="field sizes (default 8,16,40)")
    parser.add_argument("--seeds", type=int, default=300, help="seeds per size (default 300)")
    parser.add_argument("--first-seed", type=int, default=1,
                        help="the first seed (default 1): the seeds are FIRST, FIRST + 1, ...")
    parser.add_argument("--players", type=int, default=2, help="players per table (default 2)")
    parser.add_argument("--margin", type=float, default=MARGIN,
                        help="the format's margin, and the truth's (default 0.05)")
    parser.add_argument("--workers", type=int, default=4,
                        help="workers the batch size is made for (default 4)")
    parser.add_argument("--gap", type=float, default=0.6,
                        help="strength between neighbouring classes (default 0.6)")
    args = parser.parse_args(argv)
    MARGIN = args.margin
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"confidence {CONFIDENCE}, margin {MARGIN:g}, {args.players} players, gap {args.gap}, "
          f"batches of {batch_sets(args.workers, args.players)} sets, {args.seeds} seeds per size")
    print(f"{'':>8} {'matches to rank right in 95%':^51} {'the stopping rule':^42}")
    print(f"{'entrants':>8} {'adaptive':>9} {'round-robin':>20} {'ratio':>6} {'90% of it':>10} "
          f"{'matches':>8} "
          f"{'ratio':>6} {'right':>6} {'max hit':>7} {'wrong claims':>18} {'seconds':>8}")
    for size in sizes:
        start = time.monotonic()
        seeds = list(range(args.first_seed, args.first_seed + args.seeds))
        fields = [Field(size, args.gap, args.players, seed) for seed in seeds]
        runs = [Run(field, seed, args.workers) for field, seed in zip(fields, seeds)]
        right = round_robin_right(fields, seeds)
        rounds = rounds_to_target(right)
        per_round = round_robin_matches(size, args.players)
        interval = ratio_interval(runs, right, per_round)
        rr = rounds * per_round if rounds else None
        to_target = matches_to_target(runs)
        stop = sum(r.matches for r in runs) / len(runs)
        claims, wrong = sum(r.claims for r in runs), sum(r.wrong for r in runs)
        rr_text = f"{rounds} rounds, {rr}" if rr else f"> {MAX_ROUNDS} rounds"
        spread = f"{interval[0]:.2f}-{interval[1]:.2f}" if interval else "-"
        print(f"{size:>8} {_text(to_target):>9} {rr_text:>20} {_ratio(to_target, rr):>6} {spread:>10} "
              f"{stop:>8.0f} {_ratio(stop, rr):>6} "
              f"{100 * sum(r.right[-1] for r in runs) / len(runs):>5.0f}% "
              f"{sum(r.max_hit for r in runs):>7} "
              f"{wrong:>5}/{claims:<5} ({100 * wrong / max(1, claims):.1f}%) "
              f"{time.monotonic() - start:>8.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
