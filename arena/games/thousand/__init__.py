"""Thousand (Тысяча), the trick-taking card game with an auction, for 2, 3 or 4 players
(docs/games/thousand.md)."""
from __future__ import annotations

import random
from typing import Any

from arena.game import HIDDEN, Game, hidden_hands
from arena.games.thousand.options import ThousandOptions
from arena.games.thousand.seat_text import describe_observation
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

    def seen_by(self, event: dict[str, Any], seats: set[int]) -> dict[str, Any]:
        """The other hands and the prikups are face down; a prikup not shown is seen by its
        declarer only, a card given by the giver and its receiver, a buried card by the declarer."""
        kind = event["type"]
        if kind == "deal":
            event = hidden_hands(event, seats)
            return {**event, "prikups": [[HIDDEN] * len(p) for p in event["prikups"]]}
        if kind == "prikup" and not event["shown"] and event["seat"] not in seats:
            return {**event, "cards": [HIDDEN] * len(event["cards"])}
        if kind == "action" and event["seat"] not in seats:
            words = event["action"].split()
            if words[0] == "bury" or (words[0] == "give" and int(words[2]) not in seats):
                return {**event, "action": " ".join([words[0], HIDDEN, *words[2:]])}
        return event

    def sample_state(self, options: ThousandOptions, observation: dict[str, Any],
                     rng: random.Random) -> ThousandState:
        from arena.games.thousand.sample import sample_state
        return sample_state(options, observation, rng)

    def describe_observation(self, observation: dict[str, Any]) -> list[str]:
        """The seat's view in the game's words (seat_text.py)."""
        return describe_observation(observation)

    def describe(self, event: dict[str, Any], names: list[str]) -> str | None:
        from arena.games.thousand.describe import describe
        return describe(event, names)
