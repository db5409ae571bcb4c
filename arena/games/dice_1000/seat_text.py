"""What a person at the table reads at their turn in Dice 1000 (``arena play dice-1000 human
...``): the round and the scores, who is not opened yet, on the barrel or has bolts, the last
turn, and this turn's rolls, the dice kept and the turn total (fields: observation.md)."""
from __future__ import annotations

from typing import Any

from arena.game import seat_name


def faces(values: list[int]) -> str:
    return " ".join(map(str, values)) or "none"


def describe_observation(obs: dict[str, Any]) -> list[str]:
    you = obs["seat"]
    seats = range(obs["num_players"])
    scores = ", ".join(f"{seat_name(s, you)} {v}" for s, v in enumerate(obs["scores"]))
    lines = [f"Round {obs['round']}; scores: {scores}."]
    unopened = [seat_name(s, you) for s in seats if not obs["opened"][s]]
    if unopened:
        lines.append(f"Not opened yet: {', '.join(unopened)}.")
    barrel = [f"{seat_name(s, you)} (attempts used {obs['barrel_attempts'][s]})" for s in seats if obs["on_barrel"][s]]
    if barrel:
        lines.append(f"On the barrel: {', '.join(barrel)}.")
    bolts = [f"{seat_name(s, you)} {b}" for s, b in enumerate(obs["bolts"]) if b]
    if bolts:
        lines.append(f"Bolts: {', '.join(bolts)}.")
    last = obs.get("last_turn")
    if last:
        said = {"bank": "banked", "bust": "went bust with", "overshoot": "overshot with"}
        lines.append(f"Last turn: {seat_name(last['seat'], you)} {said.get(last['outcome'], last['outcome'])} "
                     f"{last['turn_total']}.")
    turn = obs["turn"]
    for i, roll in enumerate(turn["rolls"], 1):
        lines.append(f"Roll {i}: {faces(roll['faces'])}; kept {faces(roll['kept'])} for {roll['points']}.")
    left = turn["dice_left"]
    lines.append(f"Your turn total: {turn['total']}; {left} {'die' if left == 1 else 'dice'} to roll next.")
    return lines
