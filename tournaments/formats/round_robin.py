"""The round-robin (``[format] type = "round-robin"``, the default): every table of ``players``
entrants (every pair, for 2 players) played once per round, so every pair meets equally often;
above ``max_tables`` possible tables, a balanced sample in which every entrant sits at the same
number of tables (``tournaments.schedule``). A late entrant plays a table with every group of
``players - 1`` of the entrants in play (as many as an average entrant, in a sample)."""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from itertools import combinations

from tournaments.formats.fixed import FixedFormat, need_entrants
from tournaments.formats.protocol import FormatConfig
from tournaments.schedule import Schedule, balanced_sample, play_tables, sample_count, table_rng


def round_robin_tables(n: int, size: int, max_tables: int,
                       rng: random.Random) -> tuple[list[tuple[int, ...]], int, str]:
    possible = math.comb(n, size)
    count = sample_count(n, size, max_tables)
    if possible <= max_tables or count >= possible:  # all of them, or no smaller balanced sample
        return list(combinations(range(n), size)), possible, ""
    tables = balanced_sample(list(range(n)), size, count, rng)
    per = len(tables) * size // n
    note = (f"{possible:,} possible tables of {size} among {n} entrants is more than "
            f"format.max_tables = {max_tables}; playing a balanced sample of {len(tables)} tables "
            f"in which every entrant sits at {per}")
    return tables, possible, note


class RoundRobin(FixedFormat):
    name = "round-robin"

    def entrants(self, f: FormatConfig, names: Sequence[str],
                 paths: Callable[[], Sequence[str]]) -> tuple[int, ...]:
        need_entrants(names, f, "a round-robin")
        return ()

    def schedule(self, entrants: int, f: FormatConfig, seed: int,
                 candidates: Sequence[int]) -> Schedule:
        tables, possible, note = round_robin_tables(entrants, f.players, f.max_tables,
                                                    table_rng(seed))
        return play_tables(tables, possible, note, size=f.players, rounds=f.rounds,
                           duplicate=f.duplicate, seed=seed)

    def groups(self, f: FormatConfig, newcomer: int, others: Sequence[int],
               candidates: Sequence[int]) -> list[tuple[int, ...]]:
        return [tuple(g) for g in combinations(others, f.players - 1)]


ROUND_ROBIN = RoundRobin()

__all__ = ["ROUND_ROBIN", "RoundRobin", "round_robin_tables"]
