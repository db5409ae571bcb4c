"""Dice 1000: choose roll or stop by the exact expected value of the rest of the turn.

The choice is a small Markov decision problem. Within a turn the only state is (turn total, dice
left); every roll of d dice has a known distribution of (points, dice set aside), computed here
once by enumerating the 6**d outcomes. ``value(t, d)`` is the best expected *equity* of the turn's
end, rolling or stopping wherever that is legal, with forced rolls (hot dice, a total that may not
be banked yet) forced as the engine forces them; it is solved by memoised recursion over the turn
totals reachable from here.

The equity of a position after the turn (README.md): my worth minus the opponents' average worth,
where a player's worth is their score, less the share of the next bolt penalty their bolt count
already carries, and, for a player on the barrel, the exactly computed chance of winning from the
barrel within the attempts left times the worth of a win, plus the rest times the worth after the
fall. Banking applies every rule of the turn's end the engine applies (opening, pits, barrel cap
and mount, knock-off, overtaking, floor, dump truck), so those are in the equity, not guessed.
A bank that wins is worth ``WIN`` (every other player's worth is then nothing).
"""
from __future__ import annotations

import json
import sys
from itertools import product
from pathlib import Path

sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

WIN_BONUS = 200
ENDGAME = True
THREAT = True  # a win is worth 1000 + this (README.md: "the worth of a win")
DEFAULTS = {
    "open_min": 75, "pits": [[200, 300], [600, 700]], "overtake_penalty": 50, "dump_truck": 555,
    "bolts_per_penalty": 3, "bolt_penalty": 100, "bolts_when_restricted": False,
    "bolt_streak": "cumulative", "floor_at_zero": True, "barrel": "points", "barrel_threshold": 880,
    "barrel_attempts": 3, "barrel_fall_penalty": 100, "barrel_falls_to_zero": 3,
    "open_barrel_points_limit": 6, "straights": False,
}


# ----- one roll (docs/games/dice-1000.md §2) ---------------------------------------------------
def score(faces, straights):
    counts = [0] * 7
    for f in faces:
        counts[f] += 1
    points = used = 0
    for face in range(1, 7):
        c = counts[face]
        if not c:
            continue
        if face == 1:
            p = (0, 10, 20, 100, 200, 1000)[c]
        elif face == 5:
            p = (0, 5, 10, 50, 100, 500)[c]
        elif c >= 3:
            p = face * (10, 20, 100)[c - 3]
        else:
            p = 0
        if p:
            points += p
            used += c
    if straights and len(faces) == 5:
        s = tuple(sorted(faces))
        best = {(1, 2, 3, 4, 5): 125, (2, 3, 4, 5, 6): 250}.get(s, 0)
        if best > points:
            return best, 5
    return points, used


def outcomes(dice, straights):
    """[(probability, points, dice left afterwards)] of one roll; points 0 = bust."""
    acc = {}
    for faces in product(range(1, 7), repeat=dice):
        p, used = score(faces, straights)
        key = (p, dice - used if p else dice)
        acc[key] = acc.get(key, 0) + 1
    total = 6 ** dice
    return [(c / total, p, left) for (p, left), c in sorted(acc.items())]


_OUTCOMES = {s: {d: outcomes(d, s) for d in range(1, 6)} for s in (False, True)}
_REACH: dict = {}


def reach_probability(need: int, straights: bool) -> float:
    """The chance that a turn forced to roll until its total reaches ``need`` gets there (a
    barrel turn: stopping below 1000 is illegal).

    Every roll scores a multiple of 5, so a need is reached exactly when its multiple of 5 at or
    above it is; ``reach[straights][r][d]`` is the chance of scoring ``5 * r`` more points with
    ``d`` dice in hand, and one table, grown upwards as needs ask for it, answers every need (a
    need only looks at smaller ones)."""
    table = _OUTCOMES[straights]
    reach = _REACH.get(straights)
    if reach is None:
        # at the goal after hot dice: the compulsory roll of five must score (not hot again)
        hot = sum(p for p, pts, left in table[5] if pts and left == 0)
        bust = sum(p for p, pts, left in table[5] if not pts)
        reach = _REACH[straights] = [[(1 - bust - hot) / (1 - hot)] * 6]
    r = max(-(-need // 5), 0)
    while len(reach) <= r:
        k = len(reach)
        row = [0.0] * 6
        for d in range(1, 6):
            v = 0.0
            for p, pts, left in table[d]:
                if not pts:
                    continue
                rest = max(k - pts // 5, 0)
                if left == 0:
                    v += p * reach[rest][5]
                elif rest == 0:
                    v += p
                else:
                    v += p * reach[rest][left]
            row[d] = v
        reach.append(row)
    return reach[r][5]


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


# ----- the turn ---------------------------------------------------------------------------------
_STEPS = {s: {d: [(p, pts // 5, left) for p, pts, left in _OUTCOMES[s][d] if pts] for d in range(1, 6)}
          for s in (False, True)}
_GROUPS = {s: {d: [(left, [(p, k) for p, k, rest in _STEPS[s][d] if rest == left]) for left in range(d)
                   if any(rest == left for _, _, rest in _STEPS[s][d])] for d in range(1, 6)}
           for s in (False, True)}
_MAX_STEP = {s: max(k for d in range(1, 6) for _, k, _ in _STEPS[s][d]) + 1 for s in (False, True)}
_BUST = {s: {d: sum(p for p, pts, _ in _OUTCOMES[s][d] if not pts) for d in range(1, 6)} for s in (False, True)}


class Turn:
    """Optimal play of the rest of this turn: ``roll[d][i]`` is the expected equity of rolling
    ``d`` dice at turn total ``5 * i`` and playing on optimally, solved backwards from the total
    that wins (or that is exactly 1000 under the open barrel) down to the current total."""

    def __init__(self, ctx: Context, low: int = 0):
        self.ctx = ctx
        steps = _STEPS[ctx.straights]
        pbust = _BUST[ctx.straights]
        bust, win = ctx.bust, ctx.win
        open_barrel = ctx.barrel == "open"
        top = -(-(1000 - ctx.s) // 5)  # the first total index that reaches 1000
        lo = min(low // 5, top)
        # beyond the top (not open): the total already wins; a roll only has to score, then stop
        hot = {d: sum(p for p, k, left in steps[d] if left == 0) for d in range(1, 6)}
        beyond = {5: (pbust[5] * bust + (1 - pbust[5] - hot[5]) * win) / (1 - hot[5])}
        for d in range(1, 5):
            beyond[d] = pbust[d] * bust + hot[d] * beyond[5] + (1 - pbust[d] - hot[d]) * win
        if open_barrel:
            tail = [ctx.overshoot] * 6  # past 1000: the turn ends with a point
        else:
            tail = [beyond[5]] + [win] * 5
        # node[left][j] for j past the top holds the tail value, so the sums need no bounds test
        size = top + 1 + _MAX_STEP[ctx.straights]
        roll = [None] + [[0.0] * (top + 1) for _ in range(5)]
        node = [[tail[left]] * size for left in range(6)]
        stop_at = ctx.stop_equity
        can_stop = ctx.can_stop
        groups = _GROUPS[ctx.straights]
        n0, n1, n2, n3, n4, n5 = node
        for i in range(top, lo - 1, -1):
            for d in range(1, 6):
                v = pbust[d] * bust
                for left, grp in groups[d]:
                    row = node[left]
                    for p, k in grp:
                        v += p * row[i + k]
                roll[d][i] = v
            n0[i] = roll[5][i]  # hot dice: the compulsory roll
            t = 5 * i
            if can_stop(t):
                stop = stop_at(t)
                for d in range(1, 6):
                    r = roll[d][i]
                    node[d][i] = r if r > stop else stop
            else:
                for d in range(1, 6):
                    node[d][i] = roll[d][i]
        self.roll = roll
        self.beyond = beyond
        self.lo = lo
        self.top = top

    def roll_value(self, t, d):
        i = -(-t // 5)
        if i > self.top:
            return self.beyond[d]
        if i < self.lo:
            raise ValueError("total below the solved range")
        return self.roll[d][i]


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
