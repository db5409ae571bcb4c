"""An independent check of Domino Cribbage match logs, written from docs/games/domino-cribbage.md
alone (it imports nothing of the engine but the interface to play matches): it replays the
events of many random matches and agrees or disagrees with every tile, count, go, reset and
point. It shows that the events hold everything a checker needs.
"""
from __future__ import annotations

import random
from itertools import combinations

import pytest

from arena.game import Chance
from arena.games import get_game

GAME = get_game("domino-cribbage")
ORDER = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]


def val(t: str) -> int:
    return int(t[0]) + int(t[2])


def is_double(t: str) -> bool:
    return t[0] == t[2]


def peg(seq: list[int], count: int, zero_rescores: bool) -> int:
    """Points of the last value of seq, by brute force over the tail."""
    pts = 0
    if count == 15 and not (seq[-1] == 0 and not zero_rescores):
        pts += 2
    if count == 31:
        pts += 2
    same = 0
    for v in reversed(seq):
        if v != seq[-1]:
            break
        same += 1
    pts += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    best = 0
    for n in range(3, len(seq) + 1):
        tail = sorted(seq[-n:])
        if tail == list(range(tail[0], tail[0] + n)):
            best = n
    return pts + best


def show(four: list[str], starter: str, bonus: int, starter_counts: bool) -> int:
    five = four + [starter]
    vals = [val(t) for t in five]
    present = set(vals)
    pts = 0
    for k in range(2, 6):
        for idx in combinations(range(5), k):
            chosen = [vals[i] for i in idx]
            if sum(chosen) == 15:
                pts += 2
            if k == 2 and chosen[0] == chosen[1]:
                pts += 2
            if k >= 3 and len(set(chosen)) == k and max(chosen) - min(chosen) == k - 1 \
                    and min(chosen) - 1 not in present and max(chosen) + 1 not in present:
                pts += k
    doubles = sum(1 for t in four if is_double(t)) + (1 if starter_counts and is_double(starter) else 0)
    return pts + bonus * doubles


def check(events: list[dict], o, seed: int) -> None:
    """Replay the log; any disagreement fails an assertion."""
    chance = Chance(seed)
    it = iter(events)
    scores = [0, 0]

    def award(seat, points, reason):
        e = next(it)
        assert (e["type"], e["seat"], e["reason"], e["points"]) == ("score", seat, reason, points), e
        scores[seat] += points
        assert e["scores"] == scores
        if "items" in e:
            assert sum(i["points"] for i in e["items"]) == points
        return scores[seat] >= o.target

    def finish():
        e = next(it)
        assert e["type"] == "match_end" and e["scores"] == scores
        assert next(it, None) is None

    e = next(it)
    dealer = chance.stream("dealer").randrange(2)
    assert e == {"type": "first_dealer", "dealer": dealer}
    hand_no = 0
    while True:
        hand_no += 1
        if hand_no > 1:
            dealer ^= 1
        non = 1 - dealer
        tiles = list(range(28))
        chance.stream("deal", hand_no).shuffle(tiles)
        dealt = [None, None]
        dealt[non] = sorted(ORDER[t] for t in tiles[:6])
        dealt[dealer] = sorted(ORDER[t] for t in tiles[6:12])
        dealt = [sorted(h, key=ORDER.index) for h in dealt]
        starter = ORDER[tiles[12]]
        e = next(it)
        assert e == {"type": "deal", "hand": hand_no, "dealer": dealer, "hands": dealt}
        hands = [list(h) for h in dealt]
        crib = []
        for seat in (non, dealer):
            e = next(it)
            assert e["type"] == "action" and e["seat"] == seat
            laid = e["action"].split()[1:]
            assert e["action"].startswith("discard ") and len(laid) == 2
            assert ORDER.index(laid[0]) < ORDER.index(laid[1])
            for t in laid:
                hands[seat].remove(t)
            crib += laid
        kept = [list(h) for h in hands]
        e = next(it)
        assert e == {"type": "crib", "seat": dealer, "tiles": sorted(crib, key=ORDER.index)}
        e = next(it)
        assert e == {"type": "starter", "tile": starter, "value": val(starter)}
        if is_double(starter) and o.heels_points:
            if award(dealer, o.heels_points, "heels"):
                return finish()
        count, seq = (val(starter), [val(starter)]) if o.starter_in_pegging_count else (0, [])
        seat = non
        went = [False, False]
        ended = False
        while hands[0] or hands[1]:
            fits = [t for t in hands[seat] if count + val(t) <= 31]
            assert fits, "a seat was left to move with nothing to play"
            e = next(it)
            assert e["type"] == "action" and e["seat"] == seat and e["action"] in fits, e
            hands[seat].remove(e["action"])
            count += val(e["action"])
            seq.append(val(e["action"]))
            assert e["count"] == count
            p = peg(seq, count, o.zero_tile_rescores_15)
            if p and award(seat, p, "play"):
                return finish()
            other = 1 - seat
            if count == 31:
                if hands[0] or hands[1]:
                    leader = other if hands[other] else seat
                    assert next(it) == {"type": "reset", "leader": leader}
                    count, seq, went, seat = 0, [], [False, False], leader
                continue
            if not hands[0] and not hands[1]:
                if award(seat, 1, "last tile"):
                    return finish()
                continue
            if any(count + val(t) <= 31 for t in hands[other]):
                seat = other
                continue
            if hands[other] and not went[other]:
                assert next(it) == {"type": "go", "seat": other, "count": count}
                went[other] = True
            if any(count + val(t) <= 31 for t in hands[seat]):
                continue
            if hands[seat]:
                assert next(it) == {"type": "go", "seat": seat, "count": count}
            if award(seat, 1, "go"):
                return finish()
            leader = other if hands[other] else seat
            assert next(it) == {"type": "reset", "leader": leader}
            count, seq, went, seat = 0, [], [False, False], leader
        for who, reason, four in ((non, "hand", kept[non]), (dealer, "hand", kept[dealer]),
                                  (dealer, "crib", crib)):
            pts = show(four, starter, o.show_double_bonus, o.starter_double_counts_in_show)
            ended = award(who, pts, reason)
            if ended:
                return finish()
        e = next(it)
        assert e == {"type": "hand_end", "hand": hand_no, "scores": scores}
        if hand_no == o.max_deals:
            assert next(it) == {"type": "capped", "deals": hand_no, "scores": scores}
            return finish()


@pytest.mark.parametrize("values", [
    {}, {"starter_in_pegging_count": False}, {"zero_tile_rescores_15": False, "target": 61},
    {"heels_points": 3, "show_double_bonus": 2, "starter_double_counts_in_show": False},
    {"target": 500, "max_deals": 4},
])
def test_an_independent_checker_agrees_with_every_event(values):
    o = GAME.make_options(2, values)
    for seed in range(60):
        state = GAME.new_match(o, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        check(state.events, o, seed)


def test_the_checker_catches_a_wrong_point():
    o = GAME.make_options(2)
    state = GAME.new_match(o, 1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    events = [dict(e) for e in state.events]
    i = next(i for i, e in enumerate(events) if e["type"] == "score" and e["reason"] == "hand")
    events[i]["points"] += 1
    with pytest.raises(AssertionError):
        check(events, o, 1)
