"""What a person at the table reads at their turn in Domino Cribbage (``arena play
domino-cribbage human ...``): the hand and the dealer, the scores, the starter, the count and its
tiles, what each seat laid, the crib and the player's own tiles (fields: observation.md)."""
from __future__ import annotations

from typing import Any

from arena.game import seat_name


def describe_observation(obs: dict[str, Any]) -> list[str]:
    you, dealer = obs["seat"], obs["dealer"]
    scores = ", ".join(f"{seat_name(s, you)} {v}" for s, v in enumerate(obs["scores"]))
    crib = "you deal: the crib is yours" if dealer == you else f"seat {dealer} deals: the crib is theirs"
    lines = [f"Hand {obs['hand_no']}; {crib}.",
             f"Scores: {scores}; the first to {obs['target']} wins."]
    if obs["phase"] == "discard":
        lines.append("Lay two tiles in the crib; the starter is turned after both seats have laid theirs.")
    else:
        heels = f" (heels: {obs['heels']} to the dealer)" if obs["heels"] else ""
        lines.append(f"Starter: {obs['starter']}{heels}.")
        tiles = " ".join(obs["sequence"]) or "none yet"
        gone = [f"seat {s}" for s, said in enumerate(obs["said_go"]) if said]
        lines.append(f"Count: {obs['count']} (tiles of this count: {tiles})"
                     + (f"; go said by {', '.join(gone)}" if gone else "") + ".")
        played = "; ".join(f"{seat_name(s, you)} {' '.join(t) or 'none'}" for s, t in enumerate(obs["played"]))
        lines.append(f"Played this hand: {played}.")
        pegged = ", ".join(f"{seat_name(s, you)} {p}" for s, p in enumerate(obs["pegging"]))
        lines.append(f"Points of the play this hand: {pegged}.")
    if obs["discard"]:
        lines.append(f"In the crib: {obs['crib_size']} tiles, yours {' '.join(obs['discard'])}.")
    other = 1 - you
    lines.append(f"Seat {other} holds {obs['hand_sizes'][other]} tiles.")
    lines.append(f"Your hand: {' '.join(obs['hand']) or 'no tiles left'}.")
    return lines
