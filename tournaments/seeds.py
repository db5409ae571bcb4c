"""Seeds derived from the tournament seed: stable across runs, machines and Python versions.

Python's ``hash()`` is salted per process, so it cannot be used; SHA-256 of a canonical text is.
"""
from __future__ import annotations

import hashlib

from arena.game import SEED_BITS


def derive_seed(tournament_seed: int, *parts: int | str) -> int:
    """A seed for ``parts`` (e.g. ``"deal", 17``) under ``tournament_seed``: SHA-256, first 63 bits."""
    text = "/".join(["arena-tournament", str(int(tournament_seed)), *(str(p) for p in parts)])
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def deal_seed(tournament_seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` (its place in the schedule); every match of a duplicate
    set plays the same deal, so they share it."""
    return derive_seed(tournament_seed, "deal", deal)
