"""Dice 1000 (Тысяча на костях), 2 to 8 players, rule sets A and B (docs/games/dice-1000.md)."""
from __future__ import annotations

import random
from typing import Any

from arena.game import Chance, Game
from arena.games.dice_1000.options import Dice1000Options
from arena.games.dice_1000.seat_text import describe_observation
from arena.games.dice_1000.state import Dice1000State


class Dice1000(Game):
    name = "dice-1000"
    title = "Dice 1000"
    rules_doc = "docs/games/dice-1000.md"
    player_counts = tuple(range(2, 9))
    default_players = 2
    demo_players = 4  # the demo shows a whole table of the bundled bots
    hidden_information = False
    chance = True
    can_draw = True  # only a capped match can share first place (§9)
    length_unit = "rounds"
    length_option = "max_rounds"
    chance_events = frozenset({"first", "roll"})
    example_field = "turn"
    Options = Dice1000Options
    State = Dice1000State

    def length_cap(self, options: Dice1000Options) -> int:
        return options.max_rounds

    def sample_state(self, options: Dice1000Options, observation: dict[str, Any],
                     rng: random.Random) -> Dice1000State:
        # nothing is hidden: the observation is the state; only future dice are new
        return Dice1000State.from_observation(options, observation, Chance.from_rng(rng))

    def describe_observation(self, observation: dict[str, Any]) -> list[str]:
        """The seat's view in the game's words (seat_text.py)."""
        return describe_observation(observation)

    def describe(self, event: dict[str, Any], names: list[str]) -> str | None:
        kind = event["type"]
        who = names[event["seat"]] if "seat" in event else ""
        if kind == "first":
            return f"{who} goes first"
        if kind == "turn":
            return f"turn {event['turn']} of {who} (round {event['round']}, score {event['score']})"
        if kind == "roll":
            faces = " ".join(map(str, event["faces"]))
            if not event["points"]:
                return f"  {who} rolls {faces}: nothing scores (bust)"
            kept = " ".join(map(str, event["kept"]))
            hot = ", hot dice" if event["by"] != "hot" and len(event["kept"]) == len(event["faces"]) else ""
            forced = {"start": "", "choice": "", "hot": " (hot dice, must roll)",
                      "must": " (may not stop yet)"}[event["by"]]
            left = event["dice_left"]
            return (f"  {who} rolls {faces}{forced}: keeps {kept} for {event['points']}, "
                    f"turn total {event['turn_total']}, {left} {'die' if left == 1 else 'dice'} left{hot}")
        if kind == "action":
            return f"  {who} chooses to {event['action']} at {event['turn_total']}"
        if kind == "bank":
            return f"  {who} banks {event['amount']} -> {event['score']}"
        if kind == "bolt":
            tail = f", {event['amount']} -> {event['score']}" if event["amount"] else ""
            return f"  {who} gets bolt {event['bolts']}{tail}"
        if kind == "attempt":
            return f"  {who} has used {event['used']} barrel attempt(s)"
        if kind == "barrel_cap":
            return f"  {who} is capped at the barrel: {event['score']}"
        if kind == "mount":
            return f"  {who} is on the barrel at {event['score']}"
        if kind == "fall":
            why = "knocked off" if event["reason"] == "knocked_off" else "out of attempts"
            return (f"  {who} falls off the barrel ({why}, fall {event['falls']}): "
                    f"{event['amount']:+d} -> {event['score']}")
        if kind == "leave_barrel":
            return f"  {who} is off the barrel at {event['score']}"
        if kind == "point":
            return f"  {who} passes 1000: point {event['points']}" + (
                f", {event['amount']:+d} -> {event['score']}" if event["amount"] else "")
        if kind == "overtaken":
            return f"  {who} is overtaken by {names[event['by']]}: {event['amount']:+d} -> {event['score']}"
        if kind == "floor":
            return f"  {who} is floored at 0"
        if kind == "dump_truck":
            return f"  {who} hits the dump truck: {event['amount']:+d} -> 0"
        if kind == "turn_end":
            return f"  {event['outcome']} ({event['turn_total']}); scores {event['scores']}"
        if kind == "capped":
            return f"the match is capped after {event['rounds']} rounds"
        if kind == "match_end":
            return f"{_who_wins(event, names)}; scores {event['scores']}"
        return None


def _who_wins(end: dict[str, Any], names: list[str]) -> str:
    """The match's result as its ``ranks`` say it (the record's one result, arena.record.outcome):
    the seat that reached 1000, or, at the cap (§9), the seat ranked first by score."""
    if end["winner"] is not None:
        return f"{names[end['winner']]} wins"
    top = [names[seat] for seat, rank in enumerate(end["ranks"]) if rank == 1]
    if len(top) == 1:
        return f"{top[0]} wins on score at the cap"
    return f"{' and '.join(top)} share first place at the cap"
