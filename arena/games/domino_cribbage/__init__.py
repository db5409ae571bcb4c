"""Domino Cribbage: cribbage with a double-six domino set, two players
(docs/games/domino-cribbage.md)."""
from __future__ import annotations

import random
from typing import Any

from arena.game import HIDDEN, Game
from arena.games.domino_cribbage.options import DominoCribbageOptions
from arena.games.domino_cribbage.seat_text import describe_observation
from arena.games.domino_cribbage.state import DominoCribbageState, sample_state

_SHOWN = {"hand": "hand", "crib": "crib"}


def _items_text(items: list[dict[str, Any]]) -> str:
    parts = []
    for item in items:
        kind = item["kind"]
        if kind == "run" and "length" in item:
            kind = f"run of {item['length']}"
        if "tiles" in item:
            kind += " (" + " ".join(item["tiles"]) + ")"
        parts.append(f"{kind} = {item['points']}")
    return ", ".join(parts)


class DominoCribbage(Game):
    name = "domino-cribbage"
    title = "Domino Cribbage"
    rules_doc = "docs/games/domino-cribbage.md"
    player_counts = (2,)
    default_players = 2
    hidden_information = True
    chance = True
    can_draw = False
    length_unit = "deals"
    chance_events = frozenset({"first_dealer", "deal", "starter"})
    example_field = "hand"
    Options = DominoCribbageOptions
    State = DominoCribbageState

    def length_cap(self, options: DominoCribbageOptions) -> int:
        return options.max_deals

    def seen_by(self, event: dict[str, Any], seats: set[int]) -> dict[str, Any]:
        """The other hand is face down, and so are the two tiles the other seat lays in the crib
        (the crib is turned up when it scores)."""
        if event["type"] == "action" and "count" not in event and event["seat"] not in seats:
            return {**event, "action": f"discard {HIDDEN} {HIDDEN}"}
        if event["type"] == "crib":  # laid face down: turned up by the show's score of the crib
            return {**event, "tiles": [HIDDEN] * len(event["tiles"])}
        return super().seen_by(event, seats)

    def sample_state(self, options: DominoCribbageOptions, observation: dict[str, Any],
                     rng: random.Random) -> DominoCribbageState:
        return sample_state(options, observation, rng)

    def describe_observation(self, observation: dict[str, Any]) -> list[str]:
        """The seat's view in the game's words (seat_text.py)."""
        return describe_observation(observation)

    def describe(self, event: dict[str, Any], names: list[str]) -> str | None:
        kind = event["type"]
        if kind == "first_dealer":
            return f"{names[event['dealer']]} deals first (by lot)"
        if kind == "deal":
            lines = [f"hand {event['hand']}: {names[event['dealer']]} deals"]
            lines += [f"  {names[s]}: {' '.join(h)}" for s, h in enumerate(event["hands"])]
            return "\n".join(lines)
        if kind == "action":
            who = names[event["seat"]]
            if "count" in event:
                return f"  {who} plays {event['action']}, count {event['count']}"
            return f"  {who} lays {event['action'][len('discard '):]} in the crib"
        if kind == "crib":
            return f"  crib ({names[event['seat']]}): {' '.join(event['tiles'])}"
        if kind == "starter":
            return f"  starter {event['tile']} ({event['value']})"
        if kind == "go":
            return f"  {names[event['seat']]}: go (count {event['count']})"
        if kind == "reset":
            return f"  new count, {names[event['leader']]} leads"
        if kind == "score":
            who = names[event["seat"]]
            reason = event["reason"]
            detail = ""
            if reason in _SHOWN:
                detail = f" {' '.join(event['tiles'])} + {event['starter']}"
            items = event.get("items")
            if items:
                detail += f": {_items_text(items)}"
            return f"  {who} scores {event['points']} for {reason}{detail}; scores {event['scores']}"
        if kind == "hand_end":
            return f"  end of hand {event['hand']}: scores {event['scores']}"
        if kind == "capped":
            return f"the match reached its cap of {event['deals']} hands; scores {event['scores']}"
        if kind == "match_end":
            return f"match over: scores {event['scores']}, ranks {event['ranks']}"
        return None
