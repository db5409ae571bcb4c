"""Block dominoes, individual scoring, 2–4 players (rules: ../shared/rules/block.md; docs/games/block.md)."""
from __future__ import annotations

from typing import Any

from arena.game import Game
from arena.games.block.options import BlockOptions
from arena.games.block.state import BlockState
from arena.options import build_options


class Block(Game):
    name = "block"
    title = "Block dominoes"
    min_players = 2
    max_players = 4
    Options = BlockOptions
    rules_doc = "docs/games/block.md"

    def make_options(self, num_players: int, values: dict[str, Any] | None = None) -> BlockOptions:
        return build_options(BlockOptions, values or {}, fixed={"num_players": num_players})

    def new_match(self, options: BlockOptions, seed: int) -> BlockState:
        return BlockState(options, seed)

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
        return None
