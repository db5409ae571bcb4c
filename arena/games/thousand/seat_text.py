"""What a person at the table reads at their turn in Thousand (``arena play thousand human
...``): the deal, the totals, the auction or the contract, the prikup, the cards passed, the
trump, the trick on the table, this deal's tricks and points, and the player's own hand by suit
(fields: observation.md)."""
from __future__ import annotations

from typing import Any

from arena.game import seat_name

SUIT_NAMES = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}
RANKS = "ATKQJ9"  # high to low: ace, ten, king, queen, jack, nine


def by_suit(cards: list[str]) -> str:
    """``KH TH 9D`` as ``hearts K 10; diamonds 9`` (high to low)."""
    groups = []
    for suit, name in SUIT_NAMES.items():
        ranks = sorted((c[0] for c in cards if c[1] == suit), key=RANKS.index)
        if ranks:
            groups.append(f"{name} {' '.join('10' if r == 'T' else r for r in ranks)}")
    return "; ".join(groups) or "none"


def per_seat(values: list[Any], you: int) -> str:
    return ", ".join(f"{seat_name(s, you)} {v}" for s, v in enumerate(values))


def describe_observation(obs: dict[str, Any]) -> list[str]:
    you = obs["seat"]
    head = f"Deal {obs['deal']}" + (f" (dealt again {obs['redeal']}x)" if obs["redeal"] else "")
    head += f"; seat {obs['dealer']} deals, seat {obs['forehand']} is forehand"
    if obs["sitter"] is not None:
        head += f", seat {obs['sitter']} sits out"
    lines = [head + (" (golden round: scores count double)." if obs["golden"] else ".")]
    lines.append(f"Totals: {per_seat(obs['scores'], you)}.")
    marks = [f"{seat_name(s, you)} is on the barrel ({used} attempts used)"
             for s, (on, used, _) in enumerate(obs["barrel"]) if on]
    marks += [f"{seat_name(s, you)} has {b} bolt{'s' if b != 1 else ''}" for s, b in enumerate(obs["bolts"]) if b]
    if marks:
        text = "; ".join(marks)
        lines.append(text[0].upper() + text[1:] + ".")
    if obs["declarer"] is None:
        passed = [seat_name(s, you) for s, p in enumerate(obs["passed"]) if p]
        lines.append(f"Auction: the high bid is {obs['high_bid']} by {seat_name(obs['high_bidder'], you)}"
                     + (f"; passed: {', '.join(passed)}" if passed else "") + ".")
    else:
        how = {"forced_100": " (nobody bid over forehand)", "golden_120": " (golden round)",
               "barrel": " (from the barrel)"}.get(obs["how"], "")
        lines.append(f"Contract: {seat_name(obs['declarer'], you)} plays {obs['contract']}{how}"
                     + (", bid dark (counts double)" if obs["dark"] else "")
                     + ("; written off" if obs["rospis"] else "") + ".")
    if obs["prikup"]:
        shown = "shown to all" if obs["prikup_shown"] else "seen by the declarer only"
        lines.append(f"Prikup taken: {' '.join(obs['prikup'])} ({shown}).")
    if obs["received"]:
        lines.append(f"You received {obs['received']} from the declarer.")
    if obs["given"]:
        lines.append("You passed: " + ", ".join(f"{card} to seat {s}" for s, card in obs["given"]) + ".")
    if obs["buried"]:
        lines.append(f"You buried {obs['buried']}.")
    if obs["trick_no"]:
        trump = SUIT_NAMES[obs["trump"]] if obs["trump"] else "none yet"
        lines.append(f"Trump: {trump}. Tricks won: {per_seat(obs['tricks_won'], you)}; "
                     f"card points: {per_seat(obs['card_points'], you)}.")
        for s, suit, points in obs["marriages"]:
            lines.append(f"Marriage: {seat_name(s, you)} declared {SUIT_NAMES.get(suit, suit)} for {points}.")
        on_table = ", ".join(f"{seat_name(s, you)} {card}" for s, card in obs["trick"]) or "nothing yet"
        lines.append(f"Trick {obs['trick_no']}, led by {seat_name(obs['leader'], you)}: {on_table}.")
    others = ", ".join(f"seat {s} {n}" for s, n in enumerate(obs["hand_sizes"]) if s != you)
    lines.append(f"Cards held: {others}.")
    hand = obs["hand"]
    lines.append("Your hand: " + ("not looked at yet (you bid dark)" if hand is None
                                  else f"{by_suit(hand)} ({len(hand)} card{'s' if len(hand) != 1 else ''})") + ".")
    return lines
