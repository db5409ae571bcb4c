"""Thousand (Тысяча), the trick-taking card game with an auction, for 2, 3 or 4 players
(docs/games/thousand.md)."""
from __future__ import annotations

import random
from typing import Any

from arena.game import Game
from arena.games.thousand.options import ThousandOptions
from arena.games.thousand.state import ThousandState


class Thousand(Game):
    name = "thousand"
    title = "Thousand"
    rules_doc = "docs/games/thousand.md"
    player_counts = (2, 3, 4)
    default_players = 3
    hidden_information = True
    chance = True
    can_draw = True
    length_unit = "deals"
    demo_length = 8  # deals: whole matches (about 15 deals each) would make a 5-minute demo
    chance_events = frozenset({"dealer", "deal"})
    example_field = "hand"
    Options = ThousandOptions
    State = ThousandState

    def length_cap(self, options: ThousandOptions) -> int:
        return options.max_deals

    def sample_state(self, options: ThousandOptions, observation: dict[str, Any],
                     rng: random.Random) -> ThousandState:
        from arena.games.thousand.sample import sample_state
        return sample_state(options, observation, rng)

    def describe(self, event: dict[str, Any], names: list[str]) -> str | None:
        from arena.games.thousand.describe import describe
        return describe(event, names)
