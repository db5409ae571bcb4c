"""Checking Dice 1000 matches from their events alone, as an independent program would
(docs/games/dice-1000.md §10): every roll's score and dice, every forced roll, every choice,
every penalty with its amount, every total, in the documented order.

The checker below uses only the events and the options; it shares no code with the engine (its
scoring is the formula of docs §2 written again).
"""
from __future__ import annotations

import random

import pytest

from arena.games import get_game

GAME = get_game("dice-1000")


def roll_score(faces, straights):
    counts = {f: faces.count(f) for f in set(faces)}
    points, kept = 0, []
    for face, c in counts.items():
        if face == 1:
            p = [0, 10, 20, 100, 200, 1000][c]
        elif face == 5:
            p = [0, 5, 10, 50, 100, 500][c]
        else:
            p = face * {3: 10, 4: 20, 5: 100}.get(c, 0)
        if p:
            points += p
            kept += [face] * c
    if straights and sorted(faces) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]):
        s = 125 if sorted(faces)[0] == 1 else 250
        if s > points:
            return s, sorted(faces)
    return points, sorted(kept)


class Checker:
    def __init__(self, o, n):
        self.o, self.n = o, n
        self.score = [0] * n
        self.opened = [False] * n
        self.bolts = [0] * n
        self.barrel = [False] * n
        self.att = [0] * n
        self.falls = [0] * n
        self.entry = [0] * n
        self.points = [0] * n
        self.turns = [0] * n

    def pit_top(self, s):
        return next((hi for lo, hi in self.o.pits if lo <= s < hi), None)

    def threshold(self):
        return self.o.barrel_threshold if self.o.barrel in ("points", "entry_reset") else None

    def may_stop(self, seat, total):
        s = self.score[seat]
        if not self.opened[seat] and total < self.o.open_min:
            return False
        top = self.pit_top(s)
        if top is not None and s + total < top:
            return False
        return not (self.barrel[seat] and s + total < 1000)

    def fall(self, q, reason, out):
        self.barrel[q] = False
        self.att[q] = 0
        self.falls[q] += 1
        if self.o.barrel == "entry_reset":
            new = self.entry[q]
        elif self.o.barrel_falls_to_zero and self.falls[q] % self.o.barrel_falls_to_zero == 0:
            new = 0
        else:
            new = self.score[q] - self.o.barrel_fall_penalty
        out.append({"type": "fall", "seat": q, "reason": reason, "falls": self.falls[q],
                    "amount": new - self.score[q], "score": new})
        self.score[q] = new

    def leave(self, out):
        t = self.threshold()
        for q in range(self.n):
            if self.barrel[q] and t is not None and self.score[q] < t:
                self.barrel[q] = False
                self.att[q] = 0
                out.append({"type": "leave_barrel", "seat": q, "score": self.score[q]})

    def end_of_turn(self, seat, outcome, total):
        """The events docs §5 says follow the last roll or the stop, up to the turn_end."""
        o, out, old = self.o, [], self.score[seat]
        if outcome == "bust":
            restricted = not self.opened[seat] or self.barrel[seat] or self.pit_top(old) is not None
            if o.bolts_per_penalty and (o.bolts_when_restricted or not restricted):
                self.bolts[seat] += 1
                count, amount = self.bolts[seat], 0
                if count >= o.bolts_per_penalty:
                    amount, self.bolts[seat] = -o.bolt_penalty, 0
                self.score[seat] += amount
                out.append({"type": "bolt", "seat": seat, "bolts": count, "amount": amount, "score": self.score[seat]})
            self.leave(out)
            if self.barrel[seat]:
                self.att[seat] += 1
                out.append({"type": "attempt", "seat": seat, "used": self.att[seat]})
                if o.barrel_attempts and self.att[seat] >= o.barrel_attempts:
                    self.fall(seat, "attempts", out)
        elif outcome == "overshoot":
            self.points[seat] += 1
            count, amount = self.points[seat], 0
            if count >= o.open_barrel_points_limit:
                amount, self.points[seat] = -self.score[seat], 0
                self.score[seat] = 0
            out.append({"type": "point", "seat": seat, "points": count, "amount": amount, "score": self.score[seat]})
        else:
            new = old + total
            first = not self.opened[seat]
            self.opened[seat] = True
            if o.bolt_streak == "consecutive":
                self.bolts[seat] = 0
            self.score[seat] = new
            out.append({"type": "bank", "seat": seat, "amount": total, "score": new})
            if new >= 1000:
                return out, "win"
            t = self.threshold()
            if t is not None and new >= t:
                if new > t:
                    out.append({"type": "barrel_cap", "seat": seat, "amount": t - new, "score": t})
                    new = self.score[seat] = t
                if not self.barrel[seat]:
                    self.barrel[seat], self.att[seat] = True, 0
                    out.append({"type": "mount", "seat": seat, "score": new})
                    for q in range(self.n):
                        if q != seat and self.barrel[q]:
                            self.fall(q, "knocked_off", out)
            if first:
                self.entry[seat] = new
            if o.overtake_penalty:
                for q in range(self.n):
                    if q != seat and old < self.score[q] < new:
                        self.score[q] -= o.overtake_penalty
                        out.append({"type": "overtaken", "seat": q, "by": seat,
                                    "amount": -o.overtake_penalty, "score": self.score[q]})
        if o.floor_at_zero:
            for q in range(self.n):
                if self.score[q] < 0:
                    out.append({"type": "floor", "seat": q, "amount": -self.score[q], "score": 0})
                    self.score[q] = 0
        if o.dump_truck:
            for q in range(self.n):
                if self.score[q] == o.dump_truck:
                    out.append({"type": "dump_truck", "seat": q, "amount": -self.score[q], "score": 0})
                    self.score[q] = 0
        self.leave(out)
        return out, outcome


def check(events, o, n):
    c = Checker(o, n)
    it = iter(events)
    ev = next(it)
    assert ev["type"] == "first"
    seat, rnd = ev["seat"], 1
    first = seat
    decisions = 0
    while True:
        ev = next(it)
        c.turns[seat] += 1
        assert ev == {"type": "turn", "seat": seat, "turn": c.turns[seat], "round": rnd, "score": c.score[seat]}
        total, dice, by = 0, 5, "start"
        while True:
            ev = next(it)
            assert ev["type"] == "roll" and ev["seat"] == seat and ev["by"] == by
            assert len(ev["faces"]) == dice and all(1 <= f <= 6 for f in ev["faces"])
            points, kept = roll_score(ev["faces"], o.straights)
            assert (ev["points"], ev["kept"]) == (points, kept)
            if not points:
                assert (ev["turn_total"], ev["dice_left"]) == (total, dice)
                outcome = "bust"
                break
            total += points
            dice = dice - len(kept) or 5
            assert (ev["turn_total"], ev["dice_left"]) == (total, dice)
            if o.barrel == "open" and c.score[seat] + total > 1000:
                outcome = "overshoot"
                break
            if len(kept) == len(ev["faces"]):
                by = "hot"
            elif c.may_stop(seat, total):
                ev = next(it)
                assert ev == {"type": "action", "seat": seat, "action": ev["action"], "turn_total": total}
                decisions += 1
                if ev["action"] == "stop":
                    outcome = "bank"
                    break
                by = "choice"
            else:
                by = "must"
        expected, outcome = c.end_of_turn(seat, outcome, total)
        for want in expected:
            assert next(it) == want
        ev = next(it)
        assert ev == {"type": "turn_end", "seat": seat, "turn": c.turns[seat], "outcome": outcome,
                      "turn_total": total, "scores": c.score}
        if outcome == "win":
            ev = next(it)
            assert ev["type"] == "match_end" and ev["winner"] == seat and ev["scores"] == c.score
            break
        if (seat + 1) % n == first:
            if rnd == o.max_rounds:
                assert next(it) == {"type": "capped", "rounds": rnd}
                ev = next(it)
                assert ev["type"] == "match_end" and ev["winner"] is None and ev["scores"] == c.score
                break
            rnd += 1
        seat = (seat + 1) % n
    assert next(it, None) is None
    return decisions


@pytest.mark.parametrize("n, values", [
    (2, {}), (3, {}), (6, {}), (2, {"variant": "B75_850"}), (4, {"variant": "B75_850"}),
    (3, {"barrel": "open"}), (2, {"barrel": "none", "straights": True}),
    (4, {"bolt_streak": "consecutive", "bolts_when_restricted": True, "floor_at_zero": False}),
    (3, {"barrel": "entry_reset", "barrel_attempts": 2, "barrel_threshold": 800}),
    (2, {"overtake_penalty": 100, "dump_truck": 300, "pits": "100-200,400-450", "open_min": 50}),
    (5, {"max_rounds": 20}),
])
def test_matches_check_event_by_event(n, values):
    o = GAME.make_options(n, values)
    for seed in range(25):
        state = GAME.new_match(o, seed)
        rng = random.Random(seed)
        stop = rng.choice([0.2, 0.5, 0.8])
        while not state.is_terminal():
            state.apply("stop" if rng.random() < stop else "roll")
        decisions = check(state.events, o, n)
        assert decisions == sum(1 for e in state.events if e["type"] == "action")


def test_the_checker_catches_a_wrong_number():
    o = GAME.make_options(3)
    state = GAME.new_match(o, 1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(rng.choice(["roll", "stop"]))
    events = [dict(e) for e in state.events]
    i = next(i for i, e in enumerate(events) if e["type"] == "overtaken")
    events[i]["amount"] = -40
    with pytest.raises(AssertionError):
        check(events, o, 3)
