"""Each game's observation page (``observation.md`` in its folder, protocol/SPEC.md §11) names
every key its observations hold, and every key the page names is in an observation: a few seeded
random matches of each game at every player count, through the engine, with every seat's
observation after every decision and at the end.

A key is named in the first column of the page's "Observation fields" table; a key of a map is
written after the map's key and a dot (``turn.seat``), a key of each map of an array after the
array's key and ``[].`` (``turn.rolls[].faces``)."""
from __future__ import annotations

import random
import re
from typing import Any

import pytest

from arena.game import Game
from arena.games import GAMES, get_game

SEEDS = range(2)
# options that keep the random matches short; the keys of an observation do not depend on them
SHORT = {"thousand": {"max_deals": 3}, "dice-1000": {"max_rounds": 8}}
# OpenSpiel games that between them have every field of the adapter's page
OPENSPIEL = ("openspiel:kuhn_poker", "openspiel:tic_tac_toe")


def key_paths(value: Any, prefix: str = "") -> set[str]:
    """Every key of every map in ``value``, as the pages write it (``turn.rolls[].faces``)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            path = f"{prefix}.{key}" if prefix else key
            found.add(path)
            found |= key_paths(item, path)
    elif isinstance(value, (list, tuple)):
        for item in value:
            found |= key_paths(item, prefix + "[]")
    return found


def documented(page: str) -> set[str]:
    """The keys named in the first column of the page's "Observation fields" table."""
    lines = page.split("**Observation fields**", 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2:]:  # after the header and the |---| line
        if not line.startswith("|"):
            break
        rows.append(line)
    return {name for row in rows for name in re.findall(r"`([^`]+)`", row.split("|")[1])}


def produced(game: Game, counts: list[int], values: dict[str, Any]) -> set[str]:
    """The key paths of every seat's observations in seeded random matches, one per seed and
    player count, from the first decision to the end."""
    found: set[str] = set()
    for n in counts:
        for seed in SEEDS:
            state = game.new_match(game.make_options(n, values), seed)
            policy = random.Random(seed)
            while True:
                for seat in range(n):
                    found |= key_paths(state.observation(seat))
                if state.is_terminal():
                    break
                state.apply(policy.choice(state.legal_actions()))
    return found


def test_key_paths_and_the_pages_table_are_read_as_the_pages_write_them() -> None:
    obs = {"seat": 0, "turn": {"rolls": [{"faces": [1, 5]}, {"faces": []}]}, "last": None,
           "tricks": [[0, ["9H"], 1]]}
    assert key_paths(obs) == {"seat", "turn", "turn.rolls", "turn.rolls[].faces", "last",
                              "tricks"}
    page = ("# G\n\n**Observation fields** (notes, with `not_a_field`)\n\n"
            "| field | type | meaning |\n|---|---|---|\n"
            "| `seat`, `turn.rolls[].faces` | int | your seat (`\"x\"`) |\n"
            "| `last` | map | |\n\nAfter the table: `nor_this`.\n")
    assert documented(page) == {"seat", "turn.rolls[].faces", "last"}


def check(game: Game, counts: list[int], values: dict[str, Any]) -> None:
    page = documented(game.observation_page.read_text(encoding="utf-8"))
    seen = produced(game, counts, values)
    assert sorted(seen - page) == [], f"{game.name}: keys of the observation not on its page"
    assert sorted(page - seen) == [], f"{game.name}: fields on its page never observed"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_page_names_every_key_of_the_observation_and_nothing_else(name: str) -> None:
    game = GAMES[name]
    check(game, sorted(game.player_counts), SHORT.get(name, {}))


def test_the_openspiel_page_names_every_key_of_the_observation_and_nothing_else() -> None:
    pytest.importorskip("pyspiel")
    games = [get_game(name) for name in OPENSPIEL]
    page = documented(games[0].observation_page.read_text(encoding="utf-8"))
    seen: set[str] = set()
    for game in games:
        assert game.observation_page == games[0].observation_page  # one page for every game
        seen |= produced(game, [game.default_players], {})
    seen |= produced(get_game("openspiel:kuhn_poker"), [2], {"hands": 2})  # a match of several hands
    assert sorted(seen - page) == [], "keys of OpenSpiel observations not on its page"
    assert sorted(page - seen) == [], "fields on the OpenSpiel page never observed"
