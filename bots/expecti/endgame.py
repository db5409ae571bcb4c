"""The expected-value Dice 1000 bot's end game (from ``END_ZONE`` on, with a barrel): the chance
of winning a race against the opponents, solved once per rule set and hazard level (``EndModel``,
saved by the build step), and ``Solo``, a position valued by it for ``solver.Turn``. The rules as
the bot reads them (``DEFAULTS``, ``rule_values``) are here too, as the saved tables depend on
them."""
from __future__ import annotations

import json
from pathlib import Path

from solver import Turn, reach_probability

DEFAULTS = {
    "open_min": 75, "pits": [[200, 300], [600, 700]], "overtake_penalty": 50, "dump_truck": 555,
    "bolts_per_penalty": 3, "bolt_penalty": 100, "bolts_when_restricted": False,
    "bolt_streak": "cumulative", "floor_at_zero": True, "barrel": "points", "barrel_threshold": 880,
    "barrel_attempts": 3, "barrel_fall_penalty": 100, "barrel_falls_to_zero": 3,
    "open_barrel_points_limit": 6, "straights": False,
}


# ----- the end game: the chance of winning ---------------------------------------------------
END_ZONE = 600   # from this score on (barrel "points" or "entry_reset") the bot maximises P(win)
H_LEVELS = (0.002, 0.005, 0.01, 0.02, 0.035, 0.05, 0.07, 0.1, 0.15, 0.25)


class Solo:
    """The position of one player after a turn, in the race model: the turn's equity is the
    chance of winning, ``1`` for a winning bank, else ``(1 - h) * U(position after the turn)``
    (the opponents finish first with probability ``h`` per round)."""

    def __init__(self, model, s, on_barrel, attempts, falls, bolts_count, table=None):
        m = self.m = model
        self.s, self.on, self.a, self.f = s, on_barrel, attempts, falls
        self.straights, self.barrel, self.win = m.straights, m.barrel, 1.0
        self.overshoot = 0.0
        self.table = table or m
        g = m.g
        o = m.o
        if on_barrel:
            a = attempts + 1
            if o["barrel_attempts"] and a >= o["barrel_attempts"]:
                self.bust = g * m.after_fall(s, falls)
            else:
                self.bust = g * m.U_barrel(falls, a)
        else:
            counts = o["bolts_per_penalty"] and (o["bolts_when_restricted"] or m.in_pit(s) is None)
            if counts and bolts_count is not None and bolts_count + 1 >= o["bolts_per_penalty"]:
                self.bust = g * m.U(s - o["bolt_penalty"], falls)
            elif counts:
                share = 1 / o["bolts_per_penalty"]
                self.bust = g * ((1 - share) * m.U(s, falls) + share * m.U(s - o["bolt_penalty"], falls))
            else:
                self.bust = g * m.U(s, falls)

    def can_stop(self, t):
        s = self.s
        top = self.m.in_pit(s)
        if top is not None and s + t < top:
            return False
        return not (self.on and s + t < 1000)

    def stop_equity(self, t):
        m = self.m
        new = self.s + t
        if new >= 1000:
            return 1.0
        if new >= m.threshold:
            return m.g * self.table.U_barrel(self.f, 0)  # mounts (the table after a knock-off)
        if m.o["dump_truck"] and new == m.o["dump_truck"]:
            new = 0
        return m.g * m.U(new, self.f)


class EndModel:
    """U(score, falls) and U_barrel(falls, attempts used): the chance of winning a race against
    opponents who finish with probability ``h`` per round, playing every turn optimally (each
    turn solved exactly, as in ``Turn``). Solved by value iteration over the end zone; below it a
    score is worth the zone's entry discounted by the rounds it takes to climb there at the
    expected points of a turn."""

    def __init__(self, o, h, straights, tables=None):
        self.o, self.h, self.g = o, h, 1 - h
        self.straights = straights
        self.barrel = o["barrel"]
        self.threshold = o["barrel_threshold"]
        self.pits = [tuple(p) for p in (o["pits"] or [])]
        self.q = reach_probability(1000 - self.threshold, straights)
        k = o["barrel_falls_to_zero"] if self.barrel == "points" else 0
        self.k = k or 1
        self.lo = END_ZONE // 5
        self.hi = -(-self.threshold // 5)  # first index at or above the barrel
        self.climb = turn_gain(straights)
        if tables is not None:  # as the build step saved them
            self.u, self.ub = tables
            return
        self.u = [[0.5] * (self.hi - self.lo) for _ in range(self.k)]
        self.ub = [[0.5] * max(o["barrel_attempts"], 1) for _ in range(self.k)]
        for _ in range(3):
            self._sweep()

    def in_pit(self, score):
        for lo, hi in self.pits:
            if lo <= score < hi:
                return hi
        return None

    def U(self, s, f):
        f %= self.k
        i = s // 5
        if i >= self.hi:
            return self.U_barrel(f, 0)
        if i >= self.lo:
            return self.u[f][i - self.lo]
        # below the zone: the rounds needed to climb there, at a turn's expected gain
        return self.u[f][0] * self.g ** ((END_ZONE - max(s, 0)) / self.climb)

    def U_barrel(self, f, a):
        return self.ub[f % self.k][min(a, len(self.ub[0]) - 1)]

    def after_fall(self, s, f):
        o = self.o
        if self.barrel == "entry_reset":
            return self.U(END_ZONE // 2, 0)  # back to an entry score: far below
        if o["barrel_falls_to_zero"] and (f + 1) % o["barrel_falls_to_zero"] == 0:
            return self.U(0, 0)
        return self.U(s - o["barrel_fall_penalty"], f + 1)

    def _sweep(self):
        o, q, g = self.o, self.q, self.g
        A = o["barrel_attempts"]
        for f in range(self.k - 1, -1, -1):
            # the barrel: each turn wins with q; the last attempt's bust is a fall
            for a in range(len(self.ub[0]) - 1, -1, -1):
                if A:
                    nxt = self.after_fall(self.threshold, f) if a + 1 >= A else self.ub[f][a + 1]
                    self.ub[f][a] = q + (1 - q) * g * nxt
                else:  # unlimited attempts: U = q + (1 - q) g U
                    self.ub[f][a] = q / (1 - (1 - q) * g)
            for i in range(self.hi - 1, self.lo - 1, -1):
                s = 5 * i
                for _ in range(2):  # the bust returns here: a short fixed point
                    solo = Solo(self, s, False, 0, f, None)
                    self.u[f][i - self.lo] = Turn(solo, 0).roll_value(0, 5)


_TURN_GAIN: dict = {}


def turn_gain(straights):
    """Expected points a turn banks when played for points (an opened player, no pits)."""
    if straights not in _TURN_GAIN:
        class Flat:
            pass
        c = Flat()
        c.s, c.straights, c.barrel, c.win, c.bust, c.overshoot = 0, straights, "none", 1000.0, 0.0, 0.0
        c.can_stop = lambda t: True
        c.stop_equity = lambda t: float(t)
        _TURN_GAIN[straights] = max(Turn(c, 0).roll_value(0, 5), 5.0)
    return _TURN_GAIN[straights]


_MODELS: dict = {}


def end_model(o, okey, h, straights):
    level = min(H_LEVELS, key=lambda x: abs(x - h))
    key = (okey, level)
    if key not in _MODELS:
        tables = saved_models().get(rules_key(o), {}).get(str(level))
        _MODELS[key] = EndModel(o, level, straights, tables)
    return _MODELS[key]


# ----- the build step: the end-game tables of the rules' presets, saved beside this file -------
SAVED = Path(__file__).with_name("end-models.json")  # written by the build step (bot.toml)
_SAVED: dict = {}


def rule_values(options):
    """The rules as the bot reads them: its defaults, overridden by the match's options."""
    o = dict(DEFAULTS)
    if options:
        o.update({k: v for k, v in options.items() if v is not None})
    return o


def rules_key(o):
    """The rules an end-game table depends on, as text (the same for a tuple and a list)."""
    return json.dumps([[k, o[k]] for k in sorted(DEFAULTS)])


def saved_models(path=SAVED):
    """{rules_key: {level: (u, ub)}} as the build step saved them (none if it did not run)."""
    if path not in _SAVED:
        _SAVED[path] = json.loads(path.read_text()) if path.is_file() else {}
    return _SAVED[path]


def save_models(path=SAVED):
    """The build step: every level's end-game tables for each preset of the rules (a model takes
    about half a second to build, too long for a short clock; loaded, it takes no time)."""
    from arena.games import get_game
    from arena.options import options_to_dict

    game = get_game("dice-1000")
    models = {}
    for variant in game.Options.PRESETS:
        o = rule_values(options_to_dict(game.make_options(2, {"variant": variant})))
        if o["barrel"] not in ("points", "entry_reset"):
            continue  # no end game in points of the chance of winning
        models[rules_key(o)] = {str(level): [m.u, m.ub] for level in H_LEVELS
                                for m in [EndModel(o, level, bool(o["straights"]))]}
    path.write_text(json.dumps(models))


def finish_hazard(ctx, q_seat, score, on_barrel):
    """An opponent's chance of winning on a given turn of theirs: on the barrel, the barrel
    chance; otherwise the better of jumping to 1000 and of mounting and then winning."""
    if on_barrel:
        return ctx.q
    jump = reach_probability(max(1000 - score, 5), ctx.straights)
    if ctx.threshold is not None:
        mount = reach_probability(max(ctx.threshold - score, 5), ctx.straights) * ctx.q
        return max(jump, mount)
    return jump


def hazard(ctx, scores, on_barrel):
    keep = 1.0
    for q in ctx.others:
        keep *= 1 - finish_hazard(ctx, q, scores[q], on_barrel[q])
    return 1 - keep


def end_turn(obs, ctx, okey):
    """The Turn solver for an end-game position, maximising the chance of winning."""
    me = ctx.me
    h = hazard(ctx, ctx.scores, ctx.on_barrel)
    model = end_model(ctx.o, okey, h, ctx.straights)
    after = model
    if any(ctx.on_barrel[q] for q in ctx.others):  # mounting would knock them off
        ob = [False if q != me else ctx.on_barrel[q] for q in range(ctx.n)]
        fallen = [ctx.fall_score(q, ctx.scores[q], ctx.falls[q]) if ctx.on_barrel[q] else ctx.scores[q]
                  for q in range(ctx.n)]
        after = end_model(ctx.o, okey, hazard(ctx, fallen, ob), ctx.straights)
    solo = Solo(model, ctx.s, ctx.on_barrel[me], ctx.attempts[me], ctx.falls[me], ctx.bolts[me], after)
    return solo
