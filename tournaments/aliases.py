"""Aliases: the names an anonymous report shows instead of the entrants' (docs/reports.md).

An alias is an adjective and an animal ("Amber Otter"). Each entrant's is drawn from the store's
alias key (a secret of its own, kept in the store, never published) and its entrant id: for each
id in increasing order, the first alias of a pseudo-random sequence (SHA-256 of the key, the id
and a counter) that no lower id holds. An alias therefore depends only on the key and the
entrants before it: it never changes when others join later, and nothing published (the seed,
when revealed, included) tells which entrant holds it. A reference entrant keeps its name and
takes no alias. An alias has a space and a bot's name cannot (``arena.bots.NAME``), so the two
never meet.
"""
from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable
from dataclasses import dataclass

ADJECTIVES = (
    "Amber", "Azure", "Bold", "Brave", "Bright", "Calm", "Clever", "Copper", "Coral", "Crimson",
    "Dapper", "Eager", "Gentle", "Golden", "Grand", "Happy", "Indigo", "Ivory", "Jade", "Jolly",
    "Keen", "Lively", "Lucky", "Lunar", "Merry", "Misty", "Nimble", "Noble", "Olive", "Plucky",
    "Quick", "Quiet", "Rosy", "Ruby", "Sandy", "Silver", "Sunny", "Swift", "Teal", "Witty",
)
ANIMALS = (
    "Albatross", "Badger", "Beaver", "Bison", "Bobcat", "Camel", "Caribou", "Cheetah", "Crane",
    "Dingo", "Dolphin", "Eagle", "Falcon", "Ferret", "Finch", "Fox", "Gazelle", "Gecko", "Giraffe",
    "Heron", "Hedgehog", "Ibex", "Ibis", "Jackal", "Jaguar", "Koala", "Lemur", "Lynx", "Marmot",
    "Meerkat", "Moose", "Narwhal", "Ocelot", "Orca", "Osprey", "Otter", "Owl", "Panda", "Pelican",
    "Penguin", "Puffin", "Quokka", "Raven", "Salmon", "Seal", "Stork", "Tapir", "Tiger", "Toucan",
    "Turtle", "Walrus", "Weasel", "Wombat", "Yak", "Zebra",
)
SPACE = len(ADJECTIVES) * len(ANIMALS)  # aliases there are (2,200)


@dataclass(frozen=True)
class Alias:
    """An entrant's alias and its number (0 .. SPACE-1), which stands for it where a number is
    needed (the report's page names and colours) without telling its entrant id."""

    number: int
    name: str


def alias_name(number: int) -> str:
    adjective, animal = divmod(number, len(ANIMALS))
    return f"{ADJECTIVES[adjective]} {ANIMALS[animal]}"


def draw_aliases(key: str, ids: Iterable[int], references: Collection[int] = ()) -> dict[int, Alias]:
    """The alias of every entrant id in ``ids`` that is not in ``references``."""
    taken: set[int] = set()
    out: dict[int, Alias] = {}
    for entrant in sorted(set(ids)):
        if entrant in references:
            continue
        if len(taken) >= SPACE:
            raise ValueError(f"more than {SPACE} entrants: no alias is left")
        number = None
        for counter in range(4 * SPACE):  # the chance of a draw being taken is below 1
            digest = hashlib.sha256(f"arena-alias/{key}/{entrant}/{counter}".encode()).digest()
            candidate = int.from_bytes(digest[:8], "big") % SPACE
            if candidate not in taken:
                number = candidate
                break
        if number is None:  # (practically never) the first free alias
            number = min(set(range(SPACE)) - taken)
        taken.add(number)
        out[entrant] = Alias(number, alias_name(number))
    return out
