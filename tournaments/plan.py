"""The plan of a tournament whose field moves: its slots, and which matches still need playing.

A **slot** is one table of one round of the schedule: a duplicate set, every seat rotation of
it. The schedule made when the tournament starts gives the first slots (``from_schedule``); an
entrant that joins later adds the slots of its own share (``join_slots``). Slots are stored
(``tournaments.store``), so the plan never changes under a stored match.

A slot is **done** when every rotation of it was played by the *current* versions of its
entrants. :func:`needed` is the one rule for what is left: a new version replays its
predecessor's slots against its opponents' current versions, as whole sets; two entrants that
changed at once play their shared slot once, between the two new versions; a slot with a
withdrawn or suspended entrant waits.

Seeds and ids: a set of an initial slot whose entrants are all at version 1 is the schedule's
own match, with its id and seed (``schedule.make_schedule``). Any other set gets **fresh deals**,
derived one way from the secret tournament seed, the slot and every entrant's version
(:func:`set_seed`), so no hand already published in a report is dealt to a new version again, and
ids after the schedule's, given as the matches are played.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.schedule import Schedule, ScheduledMatch
from tournaments.seeds import deal_seed, derive_seed

LATER = -1  # the deal number of a set outside the first schedule: its seed is its own


@dataclass(frozen=True)
class Slot:
    """One table of one round: seat ``i`` of rotation ``r`` holds ``entrants[(i + r) % n]``."""

    id: int                      # 0-based place in the plan
    round: int
    table: int
    entrants: tuple[int, ...]    # entrant ids in the order of rotation 0
    deal: int = LATER            # the schedule's (first) deal of this slot; LATER for a joiner's
    first_match: int = 0         # the schedule's id of rotation 0; 0 for a joiner's slot


@dataclass(frozen=True)
class PlannedMatch:
    """A match to play: a rotation of a slot between given versions (ids as in ScheduledMatch)."""

    id: int                      # the schedule's id, or 0: given when stored (after the others)
    slot: int
    round: int
    table: int
    rotation: int
    deal: int
    seed: int
    seats: tuple[int, ...]       # entrant id per seat
    versions: tuple[int, ...]    # version per seat

    @staticmethod
    def of(match: ScheduledMatch) -> PlannedMatch:
        """A match of a first schedule, between every entrant's first version (its slot is the
        schedule's table of that round: ``from_schedule``)."""
        size = len(match.seats)
        return PlannedMatch(match.id, (match.id - 1) // size, match.round, match.table,
                            match.rotation, match.deal, match.seed, match.seats, (1,) * size)


@dataclass(frozen=True)
class Done:
    """What :func:`needed` must know of a stored match: its slot, rotation and versions."""

    slot: int
    rotation: int
    seats: tuple[int, ...]
    versions: tuple[int, ...]


def from_schedule(schedule: Schedule, players: int) -> list[Slot]:
    """The slots of a schedule: every run of ``players`` matches is one table's rotations."""
    slots: list[Slot] = []
    for first in schedule.matches[::players]:
        slots.append(Slot(id=len(slots), round=first.round, table=first.table,
                          entrants=first.seats, deal=first.deal, first_match=first.id))
    return slots


def set_seed(tournament_seed: int, slot: Slot, versions: Mapping[int, int], rotation: int,
             duplicate: bool) -> int:
    """The seed of a rotation of ``slot`` played by ``versions`` (entrant id -> version)."""
    if slot.first_match and all(versions[e] == 1 for e in slot.entrants):
        return deal_seed(tournament_seed, slot.deal + (0 if duplicate else rotation))
    who = [f"{e}v{versions[e]}" for e in sorted(slot.entrants)]
    return derive_seed(tournament_seed, "set", slot.id, *who, *(() if duplicate else (rotation,)))


def matches_of(slot: Slot, versions: Mapping[int, int], tournament_seed: int,
               duplicate: bool) -> list[PlannedMatch]:
    """Every rotation of ``slot`` between ``versions`` (entrant id -> version)."""
    size = len(slot.entrants)
    canonical = bool(slot.first_match) and all(versions[e] == 1 for e in slot.entrants)
    out = []
    for rotation in range(size):
        seats = tuple(slot.entrants[(i + rotation) % size] for i in range(size))
        out.append(PlannedMatch(
            id=slot.first_match + rotation if canonical else 0, slot=slot.id, round=slot.round,
            table=slot.table, rotation=rotation,
            deal=(slot.deal + (0 if duplicate else rotation)) if canonical else LATER,
            seed=set_seed(tournament_seed, slot, versions, rotation, duplicate), seats=seats,
            versions=tuple(versions[e] for e in seats)))
    return out


def among(versions: Mapping[int, int], match: Any) -> bool:
    """Whether ``match`` (with ``seats`` and the ``versions`` that played them) was played among
    ``versions`` (entrant id -> version): the one rule of what the standings and plans count."""
    return all(versions.get(e) == v for e, v in zip(match.seats, match.versions))


def needed(slots: Sequence[Slot], current: Mapping[int, int], played: Iterable[Done],
           tournament_seed: int, duplicate: bool) -> list[PlannedMatch]:
    """The matches still to play, in plan order: every rotation of every slot whose entrants are
    all in ``current`` (entrant id -> current version; the withdrawn and suspended are left out)
    that ``played`` (the stored matches; any others are ignored) does not hold between those
    versions."""
    done = {(p.slot, p.rotation) for p in played if among(current, p)}
    out = []
    for slot in slots:
        if not all(e in current for e in slot.entrants):
            continue
        for match in matches_of(slot, current, tournament_seed, duplicate):
            if (slot.id, match.rotation) not in done:
                out.append(match)
    return out


def join_slots(groups: Sequence[tuple[int, ...]], newcomer: int, slots: Sequence[Slot],
               sampled: bool, tournament_seed: int) -> list[Slot]:
    """The slots an entrant joining late adds: a table with each of ``groups`` (its format's:
    ``tournaments.formats``), every round; when the schedule is a balanced sample, as many
    tables as an average entrant sits at."""
    groups = list(groups)
    size = 1 + len(groups[0]) if groups else 0
    first_round = [s for s in slots if s.round == 0]
    if sampled and first_round:
        seated = Counter(e for s in first_round for e in s.entrants)
        share = max(1, round(len(first_round) * size / max(1, len(seated))))
        rng = random.Random(derive_seed(tournament_seed, "join", newcomer))
        rng.shuffle(groups)
        groups.sort(key=lambda g: sum(seated[e] for e in g))
        groups = groups[:share]
    rounds = 1 + max((s.round for s in slots), default=0)
    next_table = 1 + max((s.table for s in slots), default=-1)
    out: list[Slot] = []
    for rnd in range(rounds):
        for t, group in enumerate(groups):
            table = tuple(sorted((newcomer, *group)))
            out.append(Slot(id=len(slots) + len(out), round=rnd, table=next_table + t,
                            entrants=table if rnd % 2 == 0 else table[::-1]))
    return out
