"""The expected-value Dice 1000 bot's exact calculations (strategy.py says how they are used):
one roll's points and dice left, enumerated once for every number of dice; the chance that a turn
forced to roll reaches a total; and ``Turn``, the optimal play of the rest of a turn for a position
``ctx`` (``strategy.Context``, or ``endgame.Solo`` near the end) that says what stopping at each
total is worth, what a bust and a win are worth, and where stopping is legal."""
from __future__ import annotations

from itertools import product


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

    def __init__(self, ctx, low: int = 0):
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
