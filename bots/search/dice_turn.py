"""The rest of a Dice 1000 turn, solved exactly (dice.py says what for): one roll's chances in
units of 5 points (``Rolls``, from the engine's own scoring), the turn solved backwards for given
worths of banking, busting and winning (``solve``), and how the turn then ends (``flow``)."""
from __future__ import annotations

from arena.games.dice_1000.scoring import roll_outcomes


class Rolls:
    """One roll of d dice, in units of 5 points: bust[d], hot[d] (all d dice score), and
    steps[d] = [(probability, points // 5, dice left)] of the scoring outcomes (0 left = hot)."""

    def __init__(self, straights: bool) -> None:
        self.bust, self.hot, self.steps = [0.0] * 6, [0.0] * 6, [[] for _ in range(6)]
        for d in range(1, 6):
            for p, points, used in roll_outcomes(d, straights):
                if not points:
                    self.bust[d] += p
                else:
                    self.steps[d].append((p, points // 5, d - used))
                    if used == d:
                        self.hot[d] += p
        self.reach = max(k for d in range(1, 6) for _, k, _ in self.steps[d]) + 1


def solve(rolls: Rolls, lo: int, top: int, stop: list, bust: float, over: float | None,
          win: float = 1.0):
    """The rest of a turn, backwards. Totals are indices (total = 5 * i); ``top`` is the first
    that reaches 1000. ``stop[i]``: the worth of banking at i (None where the rules forbid it);
    ``bust``: the worth of a bust; ``win``: of a winning bank; ``over``: past 1000 under the open barrel
    (None for the other barrels). Returns ``(roll, node)``: ``roll[d][i]`` is the worth of
    rolling d dice at i and playing on best; ``node[d][i]`` of having d dice left there after a
    scoring roll (d = 0: hot dice, a roll of five is compulsory)."""
    pb, steps = rolls.bust, rolls.steps
    size = top + rolls.reach
    if over is None:
        # at or past 1000 a scoring roll wins (stop), except hot dice, which must roll again
        hot = (pb[5] * bust + (1 - pb[5] - rolls.hot[5]) * win) / (1 - rolls.hot[5])
        node = [[hot] * size] + [[win] * size for _ in range(5)]
    else:
        # §6 open barrel: exactly 1000 wins; a roll passing it ends the turn with a point
        node = [[over] * size for _ in range(6)]
        for d in range(1, 6):
            node[d][top] = win
        node[0][top] = pb[5] * bust + (1 - pb[5]) * over
    roll = [None] + [[0.0] * size for _ in range(5)]
    for i in range(top - 1, lo - 1, -1):
        for d in range(1, 6):
            v = pb[d] * bust
            for p, k, left in steps[d]:
                v += p * node[left][i + k]
            roll[d][i] = v
        node[0][i] = roll[5][i]
        s = stop[i]
        for d in range(1, 6):
            r = roll[d][i]
            node[d][i] = s if s is not None and s > r else r
    return roll, node


def flow(rolls: Rolls, top: int, stop: list, roll: list, over: bool):
    """The turn's ends under the policy ``solve`` found, from the start (a roll of five at 0):
    (probability of a bust, {i: probability of banking at i}, of a win, of an overshoot)."""
    pb, steps = rolls.bust, rolls.steps
    arrive = [[0.0] * (top + rolls.reach) for _ in range(6)]
    arrive[0][0] = 1.0
    busts = wins = overs = 0.0
    banks: dict[int, float] = {}
    hot_win = (1 - pb[5] - rolls.hot[5]) / (1 - rolls.hot[5])
    for i in range(top):
        for left in range(6):
            m = arrive[left][i]
            if not m:
                continue
            d = left or 5
            if left and stop[i] is not None and stop[i] >= roll[d][i]:
                banks[i] = banks.get(i, 0.0) + m
                continue
            busts += m * pb[d]
            for p, k, after in steps[d]:
                j = i + k
                if j < top:
                    arrive[after][j] += m * p
                elif over:
                    if j > top:
                        overs += m * p
                    elif after:
                        wins += m * p
                    else:
                        busts += m * p * pb[5]
                        overs += m * p * (1 - pb[5])
                elif after:
                    wins += m * p
                else:
                    wins += m * p * hot_win
                    busts += m * p * (1 - hot_win)
    return busts, banks, wins, overs
