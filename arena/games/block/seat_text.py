"""What a person at the table reads at their turn in Block dominoes (``arena play block human
...``): the deal and the scores, the chain and its open ends, this deal's plays, the other hands'
sizes and the player's own hand (fields: observation.md)."""
from __future__ import annotations

from typing import Any

from arena.game import seat_name


def pips(tile: str) -> int:
    a, _, b = tile.partition("-")
    return int(a) + int(b)


def describe_observation(obs: dict[str, Any]) -> list[str]:
    you = obs["seat"]
    scores = ", ".join(f"{seat_name(s, you)} {v}" for s, v in enumerate(obs["scores"]))
    lines = [f"Deal {obs['deal']}; scores before it: {scores}; the match ends at {obs['target']}."]
    if obs["ends"] is None:
        lines.append("The chain is empty: you lead with any tile.")
    else:
        left, right = obs["ends"]
        lines.append(f"Chain, left to right: {' '.join(obs['chain'])}; open ends {left} (left) "
                     f"and {right} (right).")
    plays = [f"{seat_name(s, you)} {'passed' if a == 'pass' else 'played ' + a}" for s, a in obs["plays"]]
    if plays:
        lines.append("This deal: " + ", ".join(plays) + ".")
    others = ", ".join(f"seat {s} {n} tile{'s' if n != 1 else ''}"
                       for s, n in enumerate(obs["hand_sizes"]) if s != you)
    lines.append(f"Other hands: {others}; {obs['set_aside']} tiles set aside, face down.")
    hand = obs["hand"]
    lines.append(f"Your hand: {' '.join(hand)} ({len(hand)} tiles, {sum(map(pips, hand))} pips).")
    return lines
