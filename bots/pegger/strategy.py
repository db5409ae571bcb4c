"""The pegger Domino Cribbage player (rules: docs/games/domino-cribbage.md).

``choose(observation, legal) -> action`` is a pure function of what the seat knows and the legal
action texts (ties go to the first listed action), so the bot is deterministic. It needs no
engine: tile values, the show and the play's points are computed here.

- **Discard**: for each of the 15 ways to keep four tiles, the average show of the four kept tiles
  over every starter the seat cannot see, plus (as dealer) or minus (as non-dealer) the average
  value the two laid tiles bring to the crib with the starter.
- **Play**: the points the tile scores now, minus the points the opponent can expect to score
  with its reply (each tile the seat cannot see is in the opponent's hand with the same chance);
  a little bonus for keeping the count away from 5 and 21 (a ten makes them 15 and 31) and for
  leading low.
"""
from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import Any

ALL_TILES = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
VALUE = {t: int(t[0]) + int(t[2]) for t in ALL_TILES}
DOUBLE = {t: t[0] == t[2] for t in ALL_TILES}
ORDER = {t: i for i, t in enumerate(ALL_TILES)}

OPTIONS: dict[str, Any] = {"show_double_bonus": 1, "starter_double_counts_in_show": True,
                           "zero_tile_rescores_15": True}

W_REPLY = 1.0     # weight of the opponent's expected reply points
W_COUNT = 0.6     # leaving the count at 5 or 21
W_LOW_LEAD = 0.15  # per point of value saved when leading


def set_options(options: dict[str, Any]) -> None:
    for key in OPTIONS:
        if key in options:
            OPTIONS[key] = options[key]


_SUBSETS = [c for size in range(2, 6) for c in combinations(range(5), size)]
_SUBSETS3 = [c for size in range(2, 4) for c in combinations(range(3), size)]


@cache
def show_value(values: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs of a sorted tuple of tile values (doubles are added apart)."""
    n = len(values)
    subsets = _SUBSETS if n == 5 else [c for size in range(2, n + 1) for c in combinations(range(n), size)]
    points = 0
    for s in subsets:
        if sum(values[i] for i in s) == 15:
            points += 2
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    for c in counts.values():
        points += c * (c - 1)
    present = sorted(counts)
    i = 0
    while i < len(present):
        j = i
        while j + 1 < len(present) and present[j + 1] == present[j] + 1:
            j += 1
        length = j - i + 1
        if length >= 3:
            mult = 1
            for v in present[i:j + 1]:
                mult *= counts[v]
            points += length * mult
        i = j + 1
    return points


def doubles_bonus(tiles: list[str], starter: str) -> int:
    bonus = OPTIONS["show_double_bonus"]
    n = sum(1 for t in tiles if DOUBLE[t])
    if OPTIONS["starter_double_counts_in_show"] and DOUBLE[starter]:
        n += 1
    return bonus * n


def peg_points(seq: list[int], count: int) -> int:
    """The points of the last value of ``seq`` (the current count sequence) at ``count``."""
    points = 0
    last = seq[-1]
    if count == 15 and (OPTIONS["zero_tile_rescores_15"] or last != 0):
        points += 2
    elif count == 31:
        points += 2
    n = len(seq)
    k = 1
    while k < n and seq[-1 - k] == last:
        k += 1
    if k >= 2:
        points += {2: 2, 3: 6, 4: 12}.get(k, 12)
    elif n >= 3:
        for size in range(n, 2, -1):
            w = seq[-size:]
            if max(w) - min(w) == size - 1 and len(set(w)) == size:
                points += size
                break
    return points


def choose_discard(observation: dict[str, Any], legal: list[str]) -> str:
    hand = observation["hand"]
    unseen = [t for t in ALL_TILES if t not in hand]
    mine_is_crib = observation["dealer"] == observation["seat"]
    best, best_value = legal[0], None
    for action in legal:
        laid = action.split()[1:]
        kept = [t for t in hand if t not in laid]
        kept_values = [VALUE[t] for t in kept]
        laid_values = [VALUE[t] for t in laid]
        total = 0.0
        crib = 0.0
        for s in unseen:
            sv = VALUE[s]
            total += show_value(tuple(sorted(kept_values + [sv]))) + doubles_bonus(kept, s)
            crib += show_value(tuple(sorted(laid_values + [sv]))) + doubles_bonus(laid, s)
        value = (total + (crib if mine_is_crib else -crib)) / len(unseen)
        if best_value is None or value > best_value + 1e-9:
            best, best_value = action, value
    return best


def choose_play(observation: dict[str, Any], legal: list[str]) -> str:
    if len(legal) == 1:
        return legal[0]
    seat = observation["seat"]
    other = 1 - seat
    count = observation["count"]
    seq = [VALUE[t] for t in observation["sequence"]]
    seen = set(observation["hand"]) | set(observation["discard"] or [])
    seen.add(observation["starter"])
    for tiles in observation["played"]:
        seen.update(tiles)
    unseen = [t for t in ALL_TILES if t not in seen]
    their_count = observation["hand_sizes"][other]
    they_went = observation["said_go"][other]
    p_hold = their_count / len(unseen) if unseen else 0.0
    best, best_value = legal[0], None
    for action in legal:
        v = VALUE[action]
        new_count = count + v
        new_seq = seq + [v]
        value = float(peg_points(new_seq, new_count))
        if new_count < 31 and their_count and not they_went:
            reply = 0.0
            for u in unseen:
                uv = VALUE[u]
                if new_count + uv <= 31:
                    reply += peg_points(new_seq + [uv], new_count + uv)
            value -= W_REPLY * p_hold * reply
            if new_count in (5, 21):
                value -= W_COUNT
        if not seq:
            value -= W_LOW_LEAD * v  # lead low: more room to answer
        else:
            value += 0.01 * v  # otherwise shed high tiles, which fit less often later
        if best_value is None or value > best_value + 1e-9:
            best, best_value = action, value
    return best


def choose(observation: dict[str, Any], legal: list[str]) -> str:
    if observation.get("phase") == "discard":
        return choose_discard(observation, legal)
    return choose_play(observation, legal)
