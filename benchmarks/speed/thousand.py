"""Thousand engine speed: one 3-player deal through the interface next to a bare loop.

Both sides play one deal (a match with ``max_deals=1``) from the same chance streams (the first
dealer from ``("dealer",)``, the cards from ``("deal", 1, 0)``) with the same seeded random policy
over legal lists of the same order, so they make the same decisions and reach the same totals.
The plain side is tuples, ints and inline rules: auction with marriage ceilings, prikup,
write-off, two gives, raise, 8 tricks with follow / trump / marriages, scoring.

Run alone (``python benchmarks/speed/thousand.py``) it also prints the MessagePack bytes per
``act`` (observation + legal list) over whole 3-player matches.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.game import Chance
from arena.games.thousand import Thousand

LABEL = "thousand: one 3-player deal"
GAME = Thousand()
OPTIONS = GAME.make_options(3, {"max_deals": 1})

_PTS = (0, 2, 3, 4, 10, 11)
_MAR = (100, 80, 60, 40)


def interface_play(seed: int, policy: random.Random) -> tuple[int, tuple[int, ...]]:
    state = GAME.new_match(OPTIONS, seed)
    decisions = 0
    choice = policy.choice
    while not state.is_terminal():
        state.apply(choice(state.legal_actions()))
        decisions += 1
    return decisions, state.scores()


def _ceiling(hand) -> int:
    s = set(hand)
    return min(300, 120 + sum(_MAR[u] for u in range(4) if u * 6 + 3 in s and u * 6 + 2 in s))


def plain_play(seed: int, policy: random.Random) -> tuple[int, tuple[int, ...]]:
    choice = policy.choice
    chance = Chance(seed)
    dealer = chance.stream("dealer").randrange(3)
    deck = list(range(24))
    chance.stream("deal", 1, 0).shuffle(deck)
    hands = [sorted(deck[0:7]), sorted(deck[7:14]), sorted(deck[14:21])]
    prikup = sorted(deck[21:24])
    fore = (dealer + 1) % 3
    passed = [False, False, False]
    high, seat, decisions = 100, (fore + 1) % 3, 0
    while True:  # auction
        opts = [None] + list(range(high + 5, _ceiling(hands[seat]) + 1, 5))
        x = choice(opts)
        decisions += 1
        if x is None:
            passed[seat] = True
        else:
            high = x
        left = [s for s in range(3) if not passed[s]]
        if len(left) == 1:
            decl = left[0]
            break
        seat = (seat + 1) % 3
        while passed[seat]:
            seat = (seat + 1) % 3
    contract = high
    hand = sorted(hands[decl] + prikup)
    hands[decl] = hand
    totals = [0, 0, 0]
    opps = ((decl + 1) % 3, (decl + 2) % 3)
    x = choice(hand + [None])  # first give, or the write-off
    decisions += 1
    if x is None:
        half = -(-contract // 10) * 5
        for s in opps:
            totals[s] = half
        totals[decl] = -contract
        return decisions, tuple(totals)
    hand.remove(x)
    hands[opps[0]].append(x)
    hands[opps[0]].sort()
    x = choice(list(hand))
    decisions += 1
    hand.remove(x)
    hands[opps[1]].append(x)
    hands[opps[1]].sort()
    r = choice([None] + list(range(contract + 5, _ceiling(hand) + 1, 5)))
    decisions += 1
    if r is not None:
        contract = r
    trump = None
    leader = decl
    tricks = [0, 0, 0]
    cpts = [0, 0, 0]
    mpts = [0, 0, 0]
    for t in range(8):  # play
        trick = []
        seat = leader
        for k in range(3):
            h = hands[seat]
            if k == 0:
                opts = []
                for c in h:
                    opts.append((c, False))
                    r6 = c % 6
                    if t > 0 and ((r6 == 3 and c - 1 in h) or (r6 == 2 and c + 1 in h)):
                        opts.append((c, True))
            else:
                led = trick[0][1] // 6
                f = [c for c in h if c // 6 == led]
                if not f and trump is not None:
                    f = [c for c in h if c // 6 == trump]
                opts = [(c, False) for c in (f or h)]
            c, dec = choice(opts)
            decisions += 1
            h.remove(c)
            if dec:
                trump = c // 6
                mpts[seat] += _MAR[trump]
            trick.append((seat, c))
            seat = (seat + 1) % 3
        bs, b = trick[0]
        for s, x in trick[1:]:
            if x // 6 == b // 6:
                if x > b:
                    bs, b = s, x
            elif x // 6 == trump:
                bs, b = s, x
        cpts[bs] += sum(_PTS[x % 6] for _, x in trick)
        tricks[bs] += 1
        leader = bs
    for s in range(3):
        p = cpts[s] + mpts[s]
        if s == decl:
            totals[s] = contract if p >= contract else -contract
        else:
            totals[s] = (p + 2) // 5 * 5
    return decisions, tuple(totals)


def bytes_per_act(seeds=range(5), heuristic: bool = True) -> float:
    """Mean MessagePack size of an act message (observation + legal) over whole 3-player matches."""
    import importlib.util

    import msgpack
    choose = None
    if heuristic:
        spec = importlib.util.spec_from_file_location(
            "thousand_strategy", Path(__file__).resolve().parents[2] / "bots" / "thousand" / "strategy.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        choose = mod.choose
    total = count = 0
    options = GAME.make_options(3)
    for seed in seeds:
        state = GAME.new_match(options, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat, legal = state.current_player(), state.legal_actions()
            obs = state.observation(seat)
            total += len(msgpack.packb({"type": "act", "observation": obs, "legal": legal}))
            count += 1
            state.apply(choose(obs, legal) if choose else rng.choice(legal))
    return total / count


if __name__ == "__main__":
    import time
    best = {"interface": 0.0, "plain": 0.0}
    for round_no in range(20):  # alternate in short rounds, keep each side's best round
        for name, fn in (("interface", interface_play), ("plain", plain_play)):
            t = time.perf_counter()
            dec = 0
            for seed in range(round_no * 150, round_no * 150 + 150):
                dec += fn(seed, random.Random(seed))[0]
            best[name] = max(best[name], dec / (time.perf_counter() - t))
    print(f"interface {best['interface']:,.0f} decisions/s, plain {best['plain']:,.0f} decisions/s, "
          f"ratio {best['interface'] / best['plain']:.2f}")
    for seed in range(200):
        assert interface_play(seed, random.Random(seed)) == plain_play(seed, random.Random(seed)), seed
    print(f"bytes per act, 3 heuristic bots, whole matches: {bytes_per_act():,.0f}")
    print(f"bytes per act, 3 random bots, whole (capped) matches: {bytes_per_act(range(2), False):,.0f}")
