"""Dealing hidden items again so that they fit what a seat knows (for ``Game.sample_state``).

A seat that does not see the other hands still knows a lot: how many items each holds, and items
some of them cannot hold (a Block player who passed holds no tile of either open end; a card
player who did not follow suit holds no card of that suit). :func:`deal_hidden` deals a pool of
items into bins of given sizes so that no bin gets an item it cannot hold. It tries a few uniform
random deals first (cheap, and unbiased when the constraints are loose), then falls back to a
randomised backtracking search that always finds a deal when one exists. It never needs the true
deal.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

T = TypeVar("T", bound=Hashable)

RANDOM_TRIES = 30


class NoConsistentDeal(ValueError):
    """No deal of the pool fits the sizes and the constraints (the observation was inconsistent)."""


def deal_hidden(pool: Sequence[T], sizes: Sequence[int], banned: Sequence[set[T] | frozenset[T]],
                rng: random.Random,
                accept: Callable[[list[list[T]]], bool] | None = None) -> list[list[T]]:
    """Deal ``pool`` into ``len(sizes)`` bins of ``sizes[i]`` items; bin ``i`` gets nothing in
    ``banned[i]``; ``accept`` (optional) must approve the whole deal. Bins come back in the order
    their items had in the shuffled pool (sort them if order matters)."""
    if sum(sizes) != len(pool):
        raise NoConsistentDeal(f"{len(pool)} items do not fill bins of sizes {list(sizes)}")
    items = list(pool)
    order = sorted(range(len(sizes)), key=lambda b: -len(banned[b]))  # most constrained first
    for _ in range(RANDOM_TRIES):
        rng.shuffle(items)
        bins: list[list[T]] = [[] for _ in sizes]
        rest = items
        for b in order:
            ban = banned[b]
            take = [x for x in rest if x not in ban][:sizes[b]]
            if len(take) < sizes[b]:
                break
            bins[b] = take
            taken = set(take)
            rest = [x for x in rest if x not in taken]
        else:
            if accept is None or accept(bins):
                return bins
    return _search(items, sizes, banned, rng, accept)


def _search(items: list[T], sizes: Sequence[int], banned: Sequence[set[T] | frozenset[T]],
            rng: random.Random, accept: Callable[[list[list[T]]], bool] | None,
            budget: int = 200_000) -> list[list[T]]:
    """Backtracking: place the most constrained item first, into a random bin with room."""
    n = len(sizes)
    options = {x: [b for b in range(n) if x not in banned[b]] for x in items}
    order = sorted(items, key=lambda x: (len(options[x]), rng.random()))
    room = list(sizes)
    bins: list[list[T]] = [[] for _ in sizes]
    steps = 0

    def place(i: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > budget:
            return False
        if i == len(order):
            return accept is None or accept(bins)
        x = order[i]
        choices = [b for b in options[x] if room[b]]
        rng.shuffle(choices)
        for b in choices:
            room[b] -= 1
            bins[b].append(x)
            if place(i + 1):
                return True
            bins[b].pop()
            room[b] += 1
        return False

    if not place(0):
        raise NoConsistentDeal("no deal of the hidden items fits what this seat knows")
    return bins
