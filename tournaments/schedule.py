"""Schedules: which entrants meet, in which seats, on which deal — a pure function of the config
and its format's tables.

What a schedule promises (tests/tournaments/test_schedule.py checks each with hypothesis):

- Every table a format gives (``tournaments.formats``: a round-robin's every table, a gauntlet's
  candidate against the field, ...) is played once per round.
- When there are more possible tables than ``max_tables``, a *balanced sample* is played instead,
  and ``Schedule.note`` says so: every entrant (in a gauntlet: every candidate, and every member of
  the field) sits at the same number of tables; pairs meet as evenly as a greedy choice manages.
- Seats rotate: each table is played once per cyclic rotation of its seats, so every entrant sits
  in every seat equally often; the order around a table is drawn from the seed (not the entrants'
  order, which follows their folders: an anonymous report must not tell it). Odd rounds reverse
  the table's order around the table, so with 3 or 4 players the neighbours on each side change
  too.
- Duplicate deals: all rotations of one table in one round share one deal (one seed), so every
  entrant of the table holds every hand of that deal and the luck of the deal cancels out.
  Without duplicate deals, every match has a deal of its own.
- A format that plans as it goes has an empty schedule; it plans its matches from the results,
  with the same deal seeds and match ids in planning order (``tournaments.formats``).
- Match ids count from 1 in schedule order; deal numbers count from 0; every seed is
  ``seeds.deal_seed(tournament seed, deal)``. Table order within a round is shuffled (seeded), so
  a run stopped halfway has played a fair slice of every entrant's matches.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from tournaments.seeds import deal_seed, derive_seed


@dataclass(frozen=True)
class ScheduledMatch:
    """One match of the schedule: who sits where, and which deal they play."""

    id: int                  # 1-based place in the schedule
    round: int               # 0-based round
    table: int               # index into Schedule.tables
    rotation: int            # 0 .. players-1: seat i holds table[(i + rotation) % players]
    deal: int                # deal number; the matches of a duplicate set share it
    seed: int                # the deal's seed, given to the game
    seats: tuple[int, ...]   # entrant index in each seat


@dataclass(frozen=True)
class Schedule:
    matches: tuple[ScheduledMatch, ...]
    tables: tuple[tuple[int, ...], ...]  # entrant indexes of each table, in table order
    possible_tables: int
    note: str = ""  # set when only a sample of the possible tables is played

    @property
    def sampled(self) -> bool:
        return len(self.tables) < self.possible_tables

    def __len__(self) -> int:
        return len(self.matches)


def play_tables(tables: Sequence[tuple[int, ...]], possible: int, note: str, *, size: int,
                rounds: int, duplicate: bool, seed: int, draw_seats: bool = True) -> Schedule:
    """The schedule that plays ``tables`` ``rounds`` times, every rotation of their seats (a
    format's tables: ``tournaments.formats``). ``draw_seats``: who sits first at a table is drawn,
    not the lower entrant id (ids follow the folders' order, which an anonymous report must not
    tell)."""
    if draw_seats:
        draw = random.Random(derive_seed(seed, "seats"))
        tables = [tuple(draw.sample(table, len(table))) for table in tables]
    matches: list[ScheduledMatch] = []
    deal = 0
    for rnd in range(rounds):
        order = list(range(len(tables)))
        random.Random(derive_seed(seed, "order", rnd)).shuffle(order)
        for t in order:
            base = tables[t] if rnd % 2 == 0 else tables[t][::-1]
            for rotation in range(size):
                seats = tuple(base[(i + rotation) % size] for i in range(size))
                matches.append(ScheduledMatch(
                    id=len(matches) + 1, round=rnd, table=t, rotation=rotation, deal=deal,
                    seed=deal_seed(seed, deal), seats=seats))
                if not duplicate:
                    deal += 1
            if duplicate:
                deal += 1
    return Schedule(tuple(matches), tuple(tables), possible, note)


def table_rng(seed: int) -> random.Random:
    """The draw of a format's tables (a balanced sample's)."""
    return random.Random(derive_seed(seed, "tables"))


def sample_count(n: int, size: int, max_tables: int) -> int:
    """The largest table count ≤ max_tables (at least one pass) that seats everyone equally often."""
    step = n // math.gcd(n, size)  # tables per whole number of passes through the entrants
    return max(step, max_tables // step * step)


def balanced_sample(pool: list[int], size: int, count: int,
                     rng: random.Random) -> list[tuple[int, ...]]:
    """``count`` tables of ``size`` from ``pool``, every member at exactly count*size/len(pool).

    The sample is built in *passes*: each pass seats every member of the pool once (a member left
    over at the end of a pass starts the first table of the next, so a pass need not divide
    evenly). Within a pass, tables are filled greedily: each seat goes to the member of the pass
    not yet seated who has met the table's members least so far (a shuffled order breaks ties), and
    a table already in the sample is avoided when another member can complete the table.
    """
    n = len(pool)
    passes = count * size // n
    pairs: Counter[tuple[int, int]] = Counter()
    seen: set[tuple[int, ...]] = set()
    tables: list[tuple[int, ...]] = []
    carry: list[int] = []
    for _ in range(passes):
        remaining = pool[:]
        rng.shuffle(remaining)
        while len(carry) + len(remaining) >= size:
            table = carry or [remaining.pop(0)]
            carry = []
            while len(table) < size:
                best = min(
                    (c for c in remaining if c not in table),
                    key=lambda c: (_seen_penalty(table, c, size, seen)
                                   + sum(pairs[_pair(c, m)] for m in table)))
                remaining.remove(best)
                table.append(best)
            chunk = tuple(sorted(table))
            seen.add(chunk)
            pairs.update(combinations(chunk, 2))
            tables.append(chunk)
        carry = remaining
    assert not carry and len(tables) == count
    return tables


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _seen_penalty(table: list[int], candidate: int, size: int, seen: set[tuple[int, ...]]) -> int:
    if len(table) + 1 < size:
        return 0
    return 1000 if tuple(sorted((*table, candidate))) in seen else 0
