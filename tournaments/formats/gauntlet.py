"""The gauntlet (``[format] type = "gauntlet"``): every table holds one candidate
(``format.candidates``) and ``players - 1`` entrants of the field; candidates never meet each
other. Above ``max_tables`` possible tables, a balanced sample: each candidate at the same number
of tables, meeting every member of the field equally often. A late candidate meets the field as
a candidate does; a newcomer to the field meets every candidate."""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any

from arena.game import Game
from tournaments.formats.fixed import SCHEDULE_KEYS, FixedFormat
from tournaments.formats.protocol import ConfigError, FormatConfig
from tournaments.schedule import Schedule, balanced_sample, play_tables, sample_count, table_rng


def gauntlet_tables(n: int, size: int, candidates: list[int], max_tables: int,
                    rng: random.Random) -> tuple[list[tuple[int, ...]], int, str]:
    field = [i for i in range(n) if i not in candidates]
    per_candidate = math.comb(len(field), size - 1)
    possible = per_candidate * len(candidates)
    if possible <= max_tables:
        tables = [tuple(sorted((c, *rest))) for c in candidates
                  for rest in combinations(field, size - 1)]
        return tables, possible, ""
    count = sample_count(len(field), size - 1, max(1, max_tables // len(candidates)))
    if count >= per_candidate:
        tables = [tuple(sorted((c, *rest))) for c in candidates
                  for rest in combinations(field, size - 1)]
        return tables, possible, ""
    tables = []
    for c in candidates:
        tables += [tuple(sorted((c, *rest))) for rest in balanced_sample(field, size - 1, count, rng)]
    per = count * (size - 1) // len(field)
    note = (f"{possible:,} possible gauntlet tables is more than format.max_tables = {max_tables}; "
            f"playing a balanced sample: each candidate at {count} tables, meeting every member "
            f"of the field {per} time(s)")
    return tables, possible, note


class Gauntlet(FixedFormat):
    name = "gauntlet"
    keys: tuple[str, ...] = (*SCHEDULE_KEYS, "candidates")

    def check(self, given: Mapping[str, Any], values: Mapping[str, Any], players: int,
              game: Game, source: str) -> dict[str, Any]:
        if not values["candidates"]:
            raise ConfigError(f"{source}: 'format.candidates' must name at least one entrant "
                              "for a gauntlet")
        return {}

    def entrants(self, f: FormatConfig, names: Sequence[str],
                 paths: Callable[[], Sequence[str]]) -> tuple[int, ...]:
        by_name = {n: i for i, n in enumerate(names)}
        candidates: list[int] = []
        for c in f.candidates:
            index = by_name.get(c)
            if index is None:
                matches = [i for i, path in enumerate(paths()) if path == c]
                if not matches:
                    raise ConfigError(f"'format.candidates': {c!r} is not an entrant; "
                                      f"entrants: {', '.join(names)}")
                index = matches[0]
            if index in candidates:
                raise ConfigError(f"'format.candidates': {c!r} is listed twice")
            candidates.append(index)
        field_size = len(names) - len(candidates)
        if field_size < f.players - 1:
            raise ConfigError(f"'entrants': a gauntlet with tables of {f.players} needs at least "
                              f"{f.players - 1} entrant(s) besides the candidates; there are "
                              f"{field_size}")
        return tuple(sorted(candidates))

    def schedule(self, entrants: int, f: FormatConfig, seed: int,
                 candidates: Sequence[int]) -> Schedule:
        tables, possible, note = gauntlet_tables(entrants, f.players, sorted(candidates),
                                                 f.max_tables, table_rng(seed))
        return play_tables(tables, possible, note, size=f.players, rounds=f.rounds,
                           duplicate=f.duplicate, seed=seed)

    def groups(self, f: FormatConfig, newcomer: int, others: Sequence[int],
               candidates: Sequence[int]) -> list[tuple[int, ...]]:
        field = [e for e in others if e not in candidates]
        if newcomer in candidates:
            return [tuple(g) for g in combinations(field, f.players - 1)]
        return [(c, *rest) for c in candidates if c in others
                for rest in combinations(field, f.players - 2)]


GAUNTLET = Gauntlet()

__all__ = ["GAUNTLET", "Gauntlet", "gauntlet_tables"]
