"""Domino Cribbage: the three places where knowing the game beats searching it blindly
(rules: docs/games/domino-cribbage.md).

**The discard** (``choose_discard``). Which two tiles to lay in the crib decides most of a hand's
points, and those points come from the show, which is pure arithmetic over the tiles nobody has
seen: the starter (one of the 22 tiles this seat cannot see) and the other player's two crib
tiles. So instead of hoping that a few hundred random simulations happen to turn up the right
starters, each of the 15 discards is valued *exactly* (``show_values``): the average show of the
four tiles kept over every possible starter, plus (our crib) or minus (theirs) the average crib
over every starter and every pair the other player may lay (taken as equally likely). The play
after the discard (the pegging) is still estimated by simulation with the engine: the same
sampled worlds are played out after each discard (``pegging_after``), and the discard with the
best sum is laid.

**The reward of the play** (``rewards``). Once the tiles are laid, the show is settled: no tile
played changes it. A simulation of the play that scores the show too adds noise (the other hand
and the crib are guessed in each world) to a signal of a few pegging points. So in the play a
simulation is worth the pegging difference only, plus the match bonus when the simulated hand
ends the match, where the show does matter: whoever reaches the target first wins.

**The other's discard is a hint** (``plausible_worlds``). Players keep good tiles: a world in
which the other laid away a pair of fives and kept junk is possible but unlikely. The play's
worlds are drawn from more uniform samples, weighted by how sensible the other's discard is in
each of them.
"""
from __future__ import annotations

import math
import random
from itertools import combinations

import worlds

from arena.games.domino_cribbage.scoring import peg_points, show_points
from arena.games.domino_cribbage.tiles import INDEX, IS_DOUBLE, N_TILES, VALUE

PEG_SCALE = 6.0   # a typical pegging swing of one hand, in points: rewards of about -1..1
WIN_BONUS = 5.0   # winning the match, in reward units (30 points): worth ~ a coin flip of a match
PEG_WEIGHT = 1.0  # how much the simulated pegging counts against the exact show, per point

# one tile of each value, to ask the engine for the show of five values (it reads only values
# once the double bonus is left out, which is added here by counting the doubles)
_REP = {}
for _t in range(N_TILES):
    _REP.setdefault(VALUE[_t], _t)
_BASE: dict[tuple[int, ...], int] = {}


def base_show(values: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs of five sorted values, from the engine's own scoring (cached)."""
    points = _BASE.get(values)
    if points is None:
        rep = [_REP[v] for v in values]
        points = _BASE[values] = show_points(rep[:4], rep[4], 0, False)
    return points


def show_values(observation: dict, options, legal: list[str]) -> dict[str, float]:
    """Per discard: the expected show of the kept tiles, plus/minus the expected crib (points)."""
    hand = [INDEX[t] for t in observation["hand"]]
    unseen = [t for t in range(N_TILES) if t not in hand]
    bonus = options.show_double_bonus
    starter_bonus = bonus if options.starter_double_counts_in_show else 0
    # the starter: by (value, double), how many unseen tiles
    starters: dict[tuple[int, bool], int] = {}
    for s in unseen:
        key = VALUE[s], IS_DOUBLE[s]
        starters[key] = starters.get(key, 0) + 1
    # the starter and the other's two crib tiles: by (sorted values, bonus points), how many ways
    # (22 * 210 triples fall into a few hundred classes, so 15 discards cost little)
    triples: dict[tuple[tuple[int, ...], int], int] = {}
    for s in unseen:
        for a, b in combinations([t for t in unseen if t != s], 2):
            key = (tuple(sorted((VALUE[s], VALUE[a], VALUE[b]))),
                   bonus * (IS_DOUBLE[a] + IS_DOUBLE[b]) + starter_bonus * IS_DOUBLE[s])
            triples[key] = triples.get(key, 0) + 1
    n_starters = len(unseen)
    n_triples = sum(triples.values())
    mine_is_crib = observation["dealer"] == observation["seat"]
    out = {}
    for action in legal:
        laid = [INDEX[t] for t in action.split()[1:]]
        kept = [t for t in hand if t not in laid]
        kept_values = [VALUE[t] for t in kept]
        kept_bonus = bonus * sum(IS_DOUBLE[t] for t in kept)
        total = 0.0
        for (v, double), n in starters.items():
            total += n * (base_show(tuple(sorted(kept_values + [v])))
                          + kept_bonus + starter_bonus * double)
        hand_ev = total / n_starters
        laid_values = [VALUE[t] for t in laid]
        laid_bonus = bonus * sum(IS_DOUBLE[t] for t in laid)
        crib = 0.0
        for (values, extra), n in triples.items():
            crib += n * (base_show(tuple(sorted(laid_values + list(values)))) + laid_bonus + extra)
        crib_ev = crib / n_triples
        out[action] = hand_ev + (crib_ev if mine_is_crib else -crib_ev)
    return out


def rollout_play(state, rng: random.Random) -> str:
    """The rollout policy of the play: the tile that scores most now (the engine's own points of
    a tile: fifteen, 31, pairs, runs); if none scores, a random tile that does not leave the
    count at 5 or 21 (where any ten gives the other player 15 or 31)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    count, seq = state.count, state.seq
    rescore = state.options.zero_tile_rescores_15
    best, best_points, safe = legal, 0, []
    for a in legal:
        v = VALUE[INDEX[a]]
        points = peg_points(seq + [v], count + v, rescore)
        if points > best_points:
            best, best_points = [a], points
        elif points and points == best_points:
            best.append(a)
        elif count + v not in (5, 21):
            safe.append(a)
    if best_points == 0 and safe:
        best = safe
    return best[0] if len(best) == 1 else rng.choice(best)


def pegging_after(world, seat: int, rng: random.Random) -> tuple[int, int]:
    """Play ``world`` (just after our discard) to the end of the hand with the rollout policy
    (the other's discard, if still to come, at random): our pegging points minus theirs, and
    +1 / -1 if we won / lost the match in this hand (0 if it goes on)."""
    hand_no = world.hand_no
    while not world.is_terminal() and world.hand_no == hand_no:
        if world.phase == "discard":
            world.apply(rng.choice(world.legal_actions()))
        else:
            world.apply(rollout_play(world, rng))
    if world.is_terminal():
        won = 1 if world.result().ranks[seat] == 1 else -1
        pegged = world.pegged  # the match ended in this hand: its pegging is still there
        return pegged[seat] - pegged[seat ^ 1], won
    # the last tile triggered the show and the next deal at once: the hand's pegging is then in
    # its history row [hand, dealer, heels, pegging 0, pegging 1, ...]
    pegged = world.history[-1][3:5]
    return pegged[seat] - pegged[seat ^ 1], 0


def choose_discard(game, options, observation: dict, legal: list[str], rng: random.Random,
                   iterations: int | None = None, deadline: float | None = None, clock=None) -> str:
    """The discard with the best exact show value plus simulated pegging. The simulations go
    round the discards on the same sampled worlds (what differs between two discards is then the
    discard, not the luck of the worlds), ``iterations`` in all or until ``deadline``."""
    values = show_values(observation, options, legal)
    seat = observation["seat"]
    pegs = {a: 0 for a in legal}
    ends = {a: 0 for a in legal}
    runs = 0
    while True:
        world = game.sample_state(options, observation, rng)
        seed = rng.random()  # the same rollout luck after every discard
        for a in legal:
            w = world.clone()
            w.apply(a)
            peg, end = pegging_after(w, seat, random.Random(seed))
            pegs[a] += peg
            ends[a] += end
        runs += 1
        done = runs * len(legal)
        if (iterations is not None and done >= iterations) or \
                (iterations is None and clock() >= deadline):
            break
    # near the target, a discard that makes us win (or stops them winning) in this hand gets
    # the match bonus, as in the play's search: there the race matters more than the points
    return max(legal, key=lambda a: values[a] + (PEG_WEIGHT * pegs[a]
                                                 + WIN_BONUS * PEG_SCALE * ends[a]) / runs)


def rewards(root_scores: tuple[int, ...], state) -> list[float]:
    """Per seat, the reward of a simulation of the play: the pegging difference since the root
    in units of ``PEG_SCALE`` (the score gained, less the show if the hand was counted: its
    history row is [hand, dealer, heels, pegging 0, pegging 1, show 0, show 1, crib]), or
    ``WIN_BONUS`` to the winner, from the loser, when the match ended inside the simulation."""
    if state.is_terminal():
        out = [-WIN_BONUS, -WIN_BONUS]
        out[state.result().ranks.index(1)] = WIN_BONUS
        return out
    scores = state.scores()
    gain = [scores[s] - root_scores[s] for s in (0, 1)]
    if state.phase == "discard":  # the hand was counted and the next one dealt: take the show out
        row = state.history[-1]
        for s in (0, 1):
            gain[s] -= row[5 + s] + (row[7] if s == row[1] else 0)
    return [(gain[0] - gain[1]) / PEG_SCALE, (gain[1] - gain[0]) / PEG_SCALE]


# ----- who holds what: the other's discard tells something about its tiles ---------------------
BETA = 1.0        # how sure we are that the other lays what looks best to it, per point
CANDIDATES = 3    # sampled worlds per world kept, when reweighting them
MODEL = True      # sample the play's worlds by the other's discard (plausible_worlds)
_CRIB: dict[tuple[int, int, int], float] = {}


def crib_guess(a: int, b: int) -> float:
    """The crib two tiles make on average with a starter and two more tiles drawn from the rest
    of the set (what another player can reckon without knowing our tiles; cached by values)."""
    key = (min(VALUE[a], VALUE[b]), max(VALUE[a], VALUE[b]), IS_DOUBLE[a] + IS_DOUBLE[b])
    value = _CRIB.get(key)
    if value is None:
        # the other 26 tiles by (value, double): a few hundred kinds of deal instead of 7 800
        kinds: dict[tuple[int, int], int] = {}
        for t in range(N_TILES):
            if t not in (a, b):
                kinds[VALUE[t], IS_DOUBLE[t]] = kinds.get((VALUE[t], IS_DOUBLE[t]), 0) + 1
        kinds_list = list(kinds)
        total = n = 0
        for s in kinds_list:
            left = dict(kinds)
            left[s] -= 1
            for i, x in enumerate(kinds_list):
                for y in kinds_list[i:]:
                    ways = left[x] * (left[y] - 1) // 2 if x == y else left[x] * left[y]
                    if ways:
                        ways *= kinds[s]
                        values = tuple(sorted((VALUE[a], VALUE[b], s[0], x[0], y[0])))
                        total += ways * (base_show(values) + key[2] + s[1] + x[1] + y[1])
                        n += ways
        value = _CRIB[key] = total / n
    return value


def discard_regret(six: list[int], laid: tuple[int, int], own_crib: bool) -> float:
    """How much worse (in points) laying ``laid`` from ``six`` looks than the best discard of
    ``six``, to a player who values a discard by its hand's average show plus or minus
    ``crib_guess`` (the pegger's way, roughly; with the default double bonus: a model of the
    other player needs to be plausible, not exact)."""
    unseen: dict[tuple[int, bool], int] = {}
    for s in range(N_TILES):
        if s not in six:
            k = VALUE[s], IS_DOUBLE[s]
            unseen[k] = unseen.get(k, 0) + 1
    best = actual = None
    for pair in combinations(six, 2):
        kept = [t for t in six if t not in pair]
        kv = [VALUE[t] for t in kept]
        kb = sum(IS_DOUBLE[t] for t in kept)
        hand = sum(n * (base_show(tuple(sorted(kv + [v]))) + kb + d) for (v, d), n in unseen.items())
        crib = crib_guess(*pair)
        value = hand / 22 + (crib if own_crib else -crib)
        if best is None or value > best:
            best = value
        if set(pair) == set(laid):
            actual = value
    return best - actual


def plausible_worlds(game, options, observation: dict, rng: random.Random, n: int,
                     deadline: float | None = None, clock=None) -> list:
    """``n`` worlds for the play's search, weighted by exp(-BETA * regret of the other's discard
    in that world) (``worlds.plausible_worlds``): worlds where the other kept what a sensible
    player keeps come up more often."""
    other = observation["seat"] ^ 1
    own_crib = observation["dealer"] == other

    def weight(w) -> float:
        six = w.kept[other] + list(w.discards[other])
        return math.exp(-BETA * discard_regret(six, w.discards[other], own_crib))

    return worlds.plausible_worlds(game, options, observation, rng, n, weight, CANDIDATES,
                                   deadline, clock)
