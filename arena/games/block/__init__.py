"""Block dominoes, individual scoring, 2–4 players (docs/games/block.md)."""
from __future__ import annotations

import random
from typing import Any

from arena.game import HIDDEN, Game
from arena.games.block.options import BlockOptions
from arena.games.block.seat_text import describe_observation
from arena.games.block.state import BlockState


class Block(Game):
    name = "block"
    title = "Block dominoes"
    rules_doc = "docs/games/block.md"
    player_counts = (2, 3, 4)
    default_players = 2
    hidden_information = True
    chance = True
    can_draw = True
    length_unit = "deals"
    chance_events = frozenset({"deal"})
    example_field = "hand"
    Options = BlockOptions
    State = BlockState

    def length_cap(self, options: BlockOptions) -> int:
        return 1 if options.single_deal else options.max_deals

    def seen_by(self, event: dict[str, Any], seats: set[int]) -> dict[str, Any]:
        """The other hands are face down, and so are the tiles set aside (block.md: every seat
        knows how many, never which ones)."""
        if event["type"] == "deal":
            event = {**event, "set_aside": [HIDDEN] * len(event["set_aside"])}
        return super().seen_by(event, seats)

    def sample_state(self, options: BlockOptions, observation: dict[str, Any],
                     rng: random.Random) -> BlockState:
        return BlockState.from_observation(options, observation, rng)

    def describe_observation(self, observation: dict[str, Any]) -> list[str]:
        """The seat's view in the game's words (seat_text.py)."""
        return describe_observation(observation)

    def describe(self, event: dict[str, Any], names: list[str]) -> str | None:
        kind = event["type"]
        if kind == "deal":
            lines = [f"deal {event['deal']}: {names[event['leader']]} leads"]
            lines += [f"  {names[s]}: {' '.join(h)}" for s, h in enumerate(event["hands"])]
            return "\n".join(lines)
        if kind == "action":
            ends = event.get("ends")
            tail = f"  ends {ends[0]}|{ends[1]}" if ends else ""
            return f"  {names[event['seat']]} plays {event['action']}{tail}"
        if kind == "pass":
            return f"  {names[event['seat']]} passes"
        if kind == "deal_end":
            w = event["winner"]
            who = names[w] if w is not None else "nobody"
            pts = max(event["points"])
            return (f"  deal {event['deal']} {event['end']}: pips left {event['remaining']}; "
                    f"{who} scores {pts}; scores {event['scores']}")
        if kind == "capped":
            return f"  the match reached its cap of {event['deals']} deals; scores {event['scores']}"
        return None
