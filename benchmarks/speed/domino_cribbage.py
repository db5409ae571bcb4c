"""Domino Cribbage engine speed: one whole match to 121 per seed, through the interface and as a
plain loop doing the same rules work (docs/games/domino-cribbage.md).

``interface_play`` drives ``Game.new_match`` / ``legal_actions`` / ``apply`` (events, itemised
scores, action strings and all). ``plain_play`` is a bare loop over ints and lists with the rules
inline: the same chance streams (``("dealer",)``, ``("deal", k)``), the same legal lists in the
same order, so the same seeded random policy makes the same decisions and both reach the same
final scores. A decision is a discard or a tile played (go's, heels and the show are automatic on
both sides).

    python benchmarks/speed/domino_cribbage.py [--seconds N]   # this game alone
"""
from __future__ import annotations

import random
import sys
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.game import Chance
from arena.games import get_game
from arena.games.domino_cribbage.tiles import IS_DOUBLE, VALUE

LABEL = "Domino Cribbage, 2 players, one match to 121 per seed"
GAME = get_game("domino-cribbage")
OPTIONS = GAME.make_options(2)
TARGET = OPTIONS.target
SUBSETS = [c for size in range(2, 6) for c in combinations(range(5), size)]


def interface_play(seed: int, policy: random.Random) -> tuple[int, tuple[int, ...]]:
    state = GAME.new_match(OPTIONS, seed)
    decisions = 0
    choice = policy.choice
    while not state.is_terminal():
        state.apply(choice(state.legal_actions()))
        decisions += 1
    return decisions, state.scores()


_SHOWN: dict[tuple[int, ...], int] = {}


def _show(four: list[int], starter: int) -> int:
    """The show's points; fifteens, pairs and runs cached by the sorted values, as the engine."""
    five = four + [starter]
    key = tuple(sorted([VALUE[t] for t in five]))
    points = _SHOWN.get(key)
    if points is None:
        points = _SHOWN[key] = _combinations(key)
    return points + sum(1 for t in five if IS_DOUBLE[t])


def _combinations(values: tuple[int, ...]) -> int:
    points = 0
    for s in SUBSETS:
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
        if j - i >= 2:
            mult = 1
            for v in present[i:j + 1]:
                mult *= counts[v]
            points += (j - i + 1) * mult
        i = j + 1
    return points


def _peg(seq: list[int], count: int) -> int:
    points = 2 if count == 15 or count == 31 else 0
    last = seq[-1]
    n = len(seq)
    if n < 2:
        return points
    if seq[-2] == last:
        k = 2
        while k < n and seq[-1 - k] == last:
            k += 1
        return points + (0, 0, 2, 6, 12)[k]
    seen = {last}
    lo = hi = last
    best = 0
    for i in range(2, n + 1):
        x = seq[-i]
        if x in seen:
            break
        seen.add(x)
        if x < lo:
            lo = x
        elif x > hi:
            hi = x
        if i >= 3 and hi - lo == i - 1:
            best = i
    return points + best


def plain_play(seed: int, policy: random.Random) -> tuple[int, tuple[int, ...]]:
    chance = Chance(seed)
    choice = policy.choice
    dealer = chance.stream("dealer").randrange(2)
    scores = [0, 0]
    decisions = 0
    hand_no = 0
    while True:
        hand_no += 1
        if hand_no > 1:
            dealer ^= 1
        tiles = list(range(28))
        chance.stream("deal", hand_no).shuffle(tiles)
        non = dealer ^ 1
        hands: list[list[int]] = [[], []]
        hands[non] = sorted(tiles[:6])
        hands[dealer] = sorted(tiles[6:12])
        starter = tiles[12]
        crib: list[int] = []
        for seat in (non, dealer):
            hand = hands[seat]
            a, b = choice(list(combinations(hand, 2)))
            decisions += 1
            hand.remove(a)
            hand.remove(b)
            crib += (a, b)
        kept = [list(hands[0]), list(hands[1])]
        if IS_DOUBLE[starter]:
            scores[dealer] += 2
            if scores[dealer] >= TARGET:
                break
        count = VALUE[starter]
        seq = [count]
        seat = non
        said = [False, False]
        over = False
        while True:  # the play: seat is to play and holds a tile that fits
            hand = hands[seat]
            room = 31 - count
            t = choice([x for x in hand if VALUE[x] <= room])
            decisions += 1
            hand.remove(t)
            count += VALUE[t]
            seq.append(VALUE[t])
            p = _peg(seq, count)
            if p:
                scores[seat] += p
                if scores[seat] >= TARGET:
                    over = True
                    break
            other = seat ^ 1
            if count == 31:
                if not hands[0] and not hands[1]:
                    break
                count, seq, said = 0, [], [False, False]
                seat = other if hands[other] else seat
                continue
            if not hands[0] and not hands[1]:
                scores[seat] += 1
                over = scores[seat] >= TARGET
                break
            room = 31 - count
            if any(VALUE[x] <= room for x in hands[other]):
                seat = other
                continue
            if hands[other] and not said[other]:
                said[other] = True
            if any(VALUE[x] <= room for x in hand):
                continue
            if hand:
                said[seat] = True
            scores[seat] += 1
            if scores[seat] >= TARGET:
                over = True
                break
            count, seq, said = 0, [], [False, False]
            seat = other if hands[other] else seat
        if over:
            break
        for seat, four in ((non, kept[non]), (dealer, kept[dealer]), (dealer, crib)):
            scores[seat] += _show(four, starter)
            if scores[seat] >= TARGET:
                over = True
                break
        if over or hand_no >= OPTIONS.max_deals:
            break
    return decisions, tuple(scores)


def main(argv: list[str] | None = None) -> int:
    import argparse
    import time

    parser = argparse.ArgumentParser(description="Domino Cribbage: interface against a plain loop")
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)

    def run(play, seeds):
        policy = random.Random(12345)
        start = time.perf_counter()
        out = [play(s, policy) for s in seeds]
        return time.perf_counter() - start, sum(d for d, _ in out), out

    t1, _, a = run(interface_play, range(50))
    t2, _, b = run(plain_play, range(50))
    if a != b:
        print("error: the plain loop and the interface disagree", file=sys.stderr)
        return 1
    per = (t1 + t2) / 100
    n = max(50, int(args.seconds / (2 * args.rounds) / per * 2))
    rates: dict[str, list[float]] = {"interface": [], "plain": []}
    for r in range(args.rounds):
        seeds = range(r * n, (r + 1) * n)
        order = [("interface", interface_play), ("plain", plain_play)]
        if r % 2:
            order.reverse()
        outs = {}
        for name, play in order:
            elapsed, decisions, outs[name] = run(play, seeds)
            rates[name].append(decisions / elapsed)
        if outs["interface"] != outs["plain"]:
            print("error: the plain loop and the interface disagree", file=sys.stderr)
            return 1
    best = {k: max(v) for k, v in rates.items()}
    print(f"{LABEL}, {n} matches x {args.rounds} rounds per side")
    for name in ("interface", "plain"):
        print(f"  {name:9s}  best {best[name]:>10,.0f} decisions/s")
    ratio = best["interface"] / best["plain"]
    print(f"  ratio interface/plain: {ratio:.2f} (target >= 0.5)")
    return 0 if ratio >= 0.5 else 2


if __name__ == "__main__":
    sys.exit(main())
