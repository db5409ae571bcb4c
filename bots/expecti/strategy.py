"""Dice 1000: choose roll or stop by the exact expected value of the rest of the turn.

The choice is a small Markov decision problem. Within a turn the only state is (turn total, dice
left); every roll of d dice has a known distribution of (points, dice set aside), computed once
by enumerating the 6**d outcomes. ``value(t, d)`` is the best expected *equity* of the turn's end,
rolling or stopping wherever that is legal, with forced rolls (hot dice, a total that may not be
banked yet) forced as the engine forces them; it is solved by memoised recursion over the turn
totals reachable from here. Those calculations are in solver.py; the end game (from 600 on, the
chance of winning) in endgame.py.

The equity of a position after the turn (README.md): my worth minus the opponents' average worth,
where a player's worth is their score, less the share of the next bolt penalty their bolt count
already carries, and, for a player on the barrel, the exactly computed chance of winning from the
barrel within the attempts left times the worth of a win, plus the rest times the worth after the
fall. Banking applies every rule of the turn's end the engine applies (opening, pits, barrel cap
and mount, knock-off, overtaking, floor, dump truck), so those are in the equity, not guessed.
A bank that wins is worth ``WIN`` (every other player's worth is then nothing).
"""
from __future__ import annotations

import sys

from endgame import END_ZONE, end_turn, rule_values, save_models
from solver import Turn, reach_probability

sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

WIN_BONUS = 200
ENDGAME = True
THREAT = True  # a win is worth 1000 + this (README.md: "the worth of a win")


# ----- the position after a turn --------------------------------------------------------------
class Context:
    """What the end of this turn can lead to, for the mover, from the observation and options."""

    def __init__(self, obs, options):
        o = rule_values(options)
        self.o = o
        self.n = obs["num_players"]
        self.me = obs["turn"]["seat"]
        self.scores = list(obs["scores"])
        self.opened = obs["opened"]
        self.bolts = obs["bolts"]
        self.on_barrel = obs["on_barrel"]
        self.attempts = obs["barrel_attempts"]
        self.falls = obs["falls"]
        self.entry = obs["entry"]
        self.open_points = obs.get("open_points", [0] * self.n)
        self.straights = bool(o["straights"])
        self.pits = [tuple(p) for p in (o["pits"] or [])]
        self.barrel = o["barrel"] or "none"
        self.threshold = o["barrel_threshold"] if self.barrel in ("points", "entry_reset") else None
        self.win = 1000 + WIN_BONUS
        self.bolt_share = (o["bolt_penalty"] / o["bolts_per_penalty"]) if o["bolts_per_penalty"] else 0.0
        need = 1000 - self.threshold if self.threshold is not None else 0
        self.q = reach_probability(need, self.straights) if self.threshold is not None else 0.0
        s = self.scores[self.me]
        self.s = s
        self.others = [q for q in range(self.n) if q != self.me]
        self.base_others = sum(self.worth(q, self.scores[q], self.on_barrel[q], self.attempts[q],
                                          self.falls[q], self.bolts[q], self.rest_of(q, self.scores))
                               for q in self.others)
        self._stop: dict = {}
        self.bust = self._bust_equity()
        self.overshoot = self._overshoot_equity()

    def in_pit(self, score):
        for lo, hi in self.pits:
            if lo <= score < hi:
                return hi
        return None

    def barrel_win_chance(self, attempts_used):
        a = self.o["barrel_attempts"]
        left = a - attempts_used if a else 6  # unlimited: count six turns (others may win first)
        return 1 - (1 - self.q) ** max(left, 0)

    def fall_score(self, q, score, falls):
        if self.barrel == "entry_reset":
            return self.entry[q] or score
        k = self.o["barrel_falls_to_zero"]
        if k and (falls + 1) % k == 0:
            return 0
        return max(score - self.o["barrel_fall_penalty"], 0)

    def worth(self, q, score, on_barrel, attempts, falls, bolts, rest=0.0):
        """A player's worth; on the barrel, the chance of winning from it times the worth of a
        win (which also wipes out ``rest``, the others' average worth) plus the rest times the
        worth after the fall."""
        w = score - self.bolt_share * bolts
        if on_barrel:
            p = self.barrel_win_chance(attempts)
            w = p * (self.win + rest) + (1 - p) * (self.fall_score(q, score, falls) - self.bolt_share * bolts)
        return w

    def rest_of(self, q, scores):
        return (sum(scores) - scores[q]) / (self.n - 1)

    def equity(self, my_worth, others_worth):
        return my_worth - others_worth / (self.n - 1)

    def threat(self, mine, scores, on_barrel):
        """The overtaking penalty I can expect before my next turn: each opponent below me
        passes me with about the chance of a turn reaching the gap (docs §5 step 3)."""
        pen = self.o["overtake_penalty"]
        if not pen or not THREAT or on_barrel:
            return 0.0
        risk = 0.0
        for q in self.others:
            gap = mine - scores[q]
            if 0 <= gap < 1000 - scores[q]:
                risk += reach_probability(gap + 5, self.straights)
        return pen * risk

    def can_stop(self, t):
        s = self.s
        if not self.opened[self.me] and t < self.o["open_min"]:
            return False
        top = self.in_pit(s)
        if top is not None and s + t < top:
            return False
        if self.on_barrel[self.me] and s + t < 1000:
            return False
        return True

    def _bust_equity(self):
        me, o, s = self.me, self.o, self.s
        restricted = not self.opened[me] or self.on_barrel[me] or self.in_pit(s) is not None
        bolts = self.bolts[me]
        score = s
        if o["bolts_per_penalty"] and (o["bolts_when_restricted"] or not restricted):
            bolts += 1
            if bolts >= o["bolts_per_penalty"]:
                score -= o["bolt_penalty"]
                bolts = 0
        on, att, falls = self.on_barrel[me], self.attempts[me], self.falls[me]
        if on and self.threshold is not None and score < self.threshold:
            on = False
        if on:
            att += 1
            if o["barrel_attempts"] and att >= o["barrel_attempts"]:
                score, on, falls = self.fall_score(me, score, falls), False, falls + 1
        score = self._after_floor_dump(score)
        return self.equity(self.worth(me, score, on, att, falls, bolts, self.rest_of(me, self.scores))
                           - self.threat(score, self.scores, on), self.base_others)

    def _overshoot_equity(self):
        me = self.me
        score = self.s
        if self.open_points[me] + 1 >= self.o["open_barrel_points_limit"]:
            score = 0
        return self.equity(self.worth(me, score, False, 0, 0, self.bolts[me]), self.base_others)

    def _after_floor_dump(self, score):
        if score < 0 and self.o["floor_at_zero"]:
            score = 0
        if self.o["dump_truck"] and score == self.o["dump_truck"]:
            score = 0
        return score

    def stop_equity(self, t):
        """The equity of banking ``t`` now (docs/games/dice-1000.md §5, in order)."""
        if t in self._stop:
            return self._stop[t]
        o, me, s = self.o, self.me, self.s
        new = s + t
        if new >= 1000:
            value = self.win  # every opponent's worth is then nothing
            self._stop[t] = value
            return value
        on = False
        scores = list(self.scores)
        ob = list(self.on_barrel)
        falls = list(self.falls)
        if self.threshold is not None and new >= self.threshold:
            new = self.threshold
            on = True
            for q in self.others:
                if ob[q]:
                    scores[q] = self.fall_score(q, scores[q], falls[q])
                    ob[q] = False
                    falls[q] += 1
        pen = o["overtake_penalty"]
        if pen:
            for q in self.others:
                if s < scores[q] < new:
                    scores[q] -= pen
        new = self._after_floor_dump(new)
        bolts = 0 if o["bolt_streak"] == "consecutive" else self.bolts[me]
        others = 0.0
        for q in self.others:
            sq = self._after_floor_dump(scores[q])
            scores[q] = sq
        scores[me] = new
        for q in self.others:
            others += self.worth(q, scores[q], ob[q], self.attempts[q], falls[q], self.bolts[q],
                                 self.rest_of(q, scores))
        value = self.equity(self.worth(me, new, on, 0, self.falls[me], bolts, self.rest_of(me, scores))
                            - self.threat(new, scores, on), others)
        self._stop[t] = value
        return value


_CACHE: dict = {}


_OPTION_KEYS: dict = {}


def decide(obs, options=None):
    """("roll" or "stop", equity of stopping, equity of rolling) for the seat to move."""
    turn = obs["turn"]
    t, d = turn["total"], turn["dice_left"]
    okey = _OPTION_KEYS.get(id(options))
    if okey is None or okey[0] is not options:
        okey = _OPTION_KEYS[id(options)] = (options, repr(sorted((options or {}).items())))
    key = (okey[1], turn["seat"], tuple(obs["scores"]), tuple(obs["opened"]), tuple(obs["bolts"]),
           tuple(obs["on_barrel"]), tuple(obs["barrel_attempts"]), tuple(obs["falls"]),
           tuple(obs["entry"]), tuple(obs.get("open_points", ())))
    solver = _CACHE.get(key)
    if solver is None or t < 5 * solver.lo:
        if len(_CACHE) > 64:
            _CACHE.clear()
        ctx = Context(obs, options)
        if ENDGAME and ctx.s >= END_ZONE and ctx.threshold is not None and ctx.opened[ctx.me]:
            ctx = end_turn(obs, ctx, okey[1])
        solver = _CACHE[key] = Turn(ctx, t)
    ctx = solver.ctx
    roll = solver.roll_value(t, d)
    stop = ctx.stop_equity(t) if ctx.can_stop(t) else float("-inf")
    return ("stop" if stop >= roll else "roll"), stop, roll


def choose(observation, legal, options=None):
    if len(legal) == 1:
        return legal[0]
    action, _, _ = decide(observation, options)
    return action if action in legal else legal[0]


if __name__ == "__main__":
    save_models()
