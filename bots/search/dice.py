"""Dice 1000: the rest of the turn solved exactly, every way it can end valued by the chance of
winning the match (docs/games/dice-1000.md).

Nothing is hidden in Dice 1000 and a seat only ever chooses between rolling and stopping, so the
rest of a turn is a small Markov decision problem on (turn total, dice left) whose chances are
known exactly (``roll_outcomes``, from the engine's own scoring). Sampling it, as search.py does
for the other games, would only approximate what can be computed. The hard part is what the
position a turn leaves is *worth*: points are not the aim, finishing first is. Two steps:

1. **A race model** (``Race``), one per rule set: from each position of a lone player
   (score, opened, on the barrel and barrel attempts used), how likely it is to have reached 1000
   within k of its turns, playing every turn to finish in the fewest turns on average. Each turn
   of the model is solved exactly with the same ``solve`` (dice_turn.py) as below, and every
   rule of a turn's end (pits, opening, barrel cap and falls, bolts, dump truck) is the
   engine's, through ``Dice1000State.after_turn``. Building it takes a few seconds, so the bot's build step
   (``build`` in bot.toml: ``python3 dice.py``) saves the models of the rules' presets once per
   machine, in ``race-models.msgpack`` beside this file; other rules build theirs during play.
2. **The decision** (``choose``): for every total the turn may still end on, and for a bust,
   ``after_turn`` gives the exact position after it (overtaking and knock-offs of the others
   included), and the race model gives my chance of finishing first from there, everyone playing
   in seat order, each at their own pace (a seat below me may also pass me, or knock me off the
   barrel, before my next turn: the engine says what that leaves me with). The turn is solved
   backwards from the total that wins, and the bot rolls when rolling on (and playing the rest
   of the turn best) is worth more.

Behind in the race, this takes risks that a points-maximiser would not (and the reverse when
ahead), which is where it gains on a bot that counts points. It takes a few milliseconds, with
no sampling, so the bot's iteration count does not change its choice in this game (nor does its
clock, once the model is built: see ``race``).
"""
from __future__ import annotations

import dataclasses
import sys
import threading
from pathlib import Path

from dice_turn import Rolls, flow, solve

from arena.game import Chance
from arena.games.dice_1000.state import WIN, Dice1000State

try:
    import msgpack
except ImportError:  # outside the sandbox's SDK: no saved models, each is built when needed
    msgpack = None

TURNS = 120  # turns ahead the race model counts exactly; beyond, a geometric tail
SWEEPS = 2   # passes over the positions: the second one corrects the few that look downwards
SAVED = Path(__file__).with_name("race-models.msgpack")  # written by the build step (bot.toml)


def key(state: Dice1000State, seat: int, penalty: int = 0) -> tuple:
    """A seat's position in the race model: score (less ``penalty``), opened, on the barrel,
    attempts used there, and falls off it so far (counted up to the fall that empties the
    score, §6)."""
    score = max(state.scores()[seat] - penalty, 0)
    cycle = state.options.barrel_falls_to_zero if state.options.barrel == "points" else 0
    counted = state.on_barrel[seat] and state.options.barrel_attempts  # 0: attempts unlimited
    return (score, state.opened[seat] or score > 0, state.on_barrel[seat],
            state.attempts[seat] if counted else 0,
            state.falls[seat] % cycle if cycle else 0)


def lone(options, position: tuple, bolts: int = 0) -> Dice1000State:
    """A state where seat 0, at ``position``, is to move and the others are unopened at 0 (so
    nothing it does can touch them): the race model's player alone."""
    n = options.num_players
    score, opened, barrel, attempts, falls = position

    def seats(mine, rest):
        return [mine] + [rest] * (n - 1)
    obs = {"num_players": n, "to_move": 0, "first": 0, "round": 1, "scores": seats(score, 0),
           "opened": seats(opened, False), "bolts": seats(bolts, 0),
           "on_barrel": seats(barrel, False), "barrel_attempts": seats(attempts, 0),
           "falls": seats(falls, 0), "entry": [0] * n, "open_points": [0] * n,
           "turns": [1] * n, "last_turn": None,
           "turn": {"seat": 0, "number": 1, "total": 0, "dice_left": 5, "rolls": []}}
    return Dice1000State.from_observation(options, obs, Chance(0))


class Race:
    """``left[position][k]``: the chance that a lone player at ``position`` has not reached 1000
    after k more turns of its own."""

    def __init__(self, options, pause=lambda: None) -> None:
        """``pause()`` is called between small pieces of the work: a build in the background
        waits there while the bot is not on its own clock (see ``race``)."""
        self.rules(options)
        rolls = self.rolls
        barrel = options.barrel in ("points", "entry_reset")
        cap = self.cap
        cycle = options.barrel_falls_to_zero if options.barrel == "points" else 0
        positions = []
        for f in range(max(cycle, 1)):
            positions += [(0, False, False, 0, f)] + [(s, True, False, 0, f) for s in range(0, cap, 5)]
            if barrel:
                positions += [(cap, True, True, a, f) for a in range(max(options.barrel_attempts, 1))]
        positions.sort(key=lambda p: (-p[0], -p[3], -p[4]))  # the top first: most turns end higher
        index = {p: j for j, p in enumerate(positions)}
        count = options.bolts_per_penalty
        share = 1 / count if count else 0.0  # a bust brings the bolt penalty this much nearer
        ends = []  # per position: top, where a bank at i leads (or None), the busts [(p, to)]
        for p in positions:
            pause()
            state = lone(options, p)
            top = -(-(WIN - p[0]) // 5)
            banks = [index[key(state.after_turn(5 * i), 0)] if state.can_bank(5 * i) else None
                     for i in range(top)]
            busts = [(1 - share, index[key(state.after_turn(0, "bust"), 0)])]
            if share:
                busts.append((share, index[key(lone(options, p, count - 1).after_turn(0, "bust"), 0)]))
            over = index[key(state.after_turn(0, "overshoot"), 0)] if self.over else None
            ends.append((top, banks, busts, over))
        # expected turns to finish, as a worth (minus the turns): each turn solved exactly
        worth = [-1 - (WIN - p[0]) / 50 for p in positions]
        for _ in range(SWEEPS):
            for j, (top, banks, busts, over) in enumerate(ends):
                pause()
                stop = [None if b is None else worth[b] for b in banks]
                for _ in range(2):  # a bust mostly comes back here: a short fixed point
                    bust = sum(w * worth[b] for w, b in busts)
                    roll, _ = solve(rolls, 0, top, stop, bust, None if over is None else worth[over], 0.0)
                    worth[j] = roll[5][0] - 1
        # the turn's ends under that play, then the chance of not yet having finished
        moves, self.passes = [], {}
        for j, (top, banks, busts, over) in enumerate(ends):
            pause()
            stop = [None if b is None else worth[b] for b in banks]
            bust = sum(w * worth[b] for w, b in busts)
            roll, _ = solve(rolls, 0, top, stop, bust, None if over is None else worth[over], 0.0)
            pbust, banked, _, povers = flow(rolls, top, stop, roll, self.over)
            to = [(pbust * w, b) for w, b in busts] + [(m, banks[i]) for i, m in banked.items()]
            if over is not None:
                to.append((povers, over))
            moves.append(to)
            # passes[position][x // 5]: the chance its turn banks to a score above x
            above = [0.0] * (WIN // 5 + 1)
            for i, m in banked.items():
                for x in range(positions[banks[i]][0] // 5):
                    above[x] += m
            self.passes[positions[j]] = above
        rows = [[1.0] * len(positions)]
        for _ in range(TURNS):
            pause()
            prev = rows[-1]
            rows.append([sum(m * prev[b] for m, b in to) for to in moves])
        self.left = {p: [row[j] for row in rows] for p, j in index.items()}
        # row() by (position, bolts): a decision asks for the same few seats' rows hundreds of
        # times (every total it may bank, every seat that may pass it), and with 8 players
        # mixing them again each time was most of its time

    def rules(self, options) -> None:
        """What the model needs of the rules besides its tables."""
        self.rows: dict = {}  # row()'s answers, by position and bolts
        self.rolls = Rolls(options.straights)
        self.over = options.barrel == "open"
        self.cap = options.barrel_threshold if options.barrel in ("points", "entry_reset") else WIN
        self.penalty = options.overtake_penalty

    def saved(self) -> dict:
        """The model's tables, as the build step saves them."""
        return {"positions": list(self.left), "left": list(self.left.values()),
                "passes": [self.passes[p] for p in self.left]}

    @classmethod
    def load(cls, options, saved: dict) -> Race:
        """The model ``saved()`` gave, for these rules."""
        race = cls.__new__(cls)
        race.rules(options)
        positions = [tuple(p) for p in saved["positions"]]
        race.left = dict(zip(positions, saved["left"]))
        race.passes = dict(zip(positions, saved["passes"]))
        return race

    def chance(self, state: Dice1000State, me: int, cache: dict) -> float:
        """My chance of finishing first from ``state`` (the end of my turn, the next seat to
        move): every other seat has its k-th turn before my k-th, so I win on my k-th turn if
        I finish then and none of them has within k turns (finishing times taken as
        independent)."""
        if state.is_terminal():
            return 1.0 if state.result().ranks[me] == 1 else 0.0
        others = tuple((key(state, q), state.bolts[q]) for q in range(state.num_players) if q != me)
        rest = cache.get(others)
        if rest is None:
            rest = [1.0] * (TURNS + 1)
            for q in range(state.num_players):
                if q != me:
                    rest = [a * b for a, b in zip(rest, self.row(state, q))]
            cache[others] = rest
        # the threats taken one at a time: each leaves me where I was, or with its chance where
        # its turn puts me; most lead to the same row (any overtaking costs me the same), so
        # the weights are summed per row and the rows mixed once
        parts = [[self.row(state, me), 1.0]]
        for chance, got in self.threats(state, me, cache):
            for part in parts:
                part[1] *= 1 - chance
            same = next((part for part in parts if part[0] is got), None)
            if same is None:
                parts.append([got, chance])
            else:
                same[1] += chance
        mine = parts[0][0] if len(parts) == 1 else blend(parts)
        won = sum((mine[k - 1] - mine[k]) * rest[k] for k in range(1, TURNS + 1))
        # after TURNS turns each "not yet" shrinks by a steady ratio: sum that tail in one go
        r = mine[-1] / mine[-2] if mine[-2] else 0.0
        q = rest[-1] / rest[-2] if rest[-2] else 0.0
        return won + mine[-1] * (1 - r) * rest[-1] * q / (1 - r * q)

    def threats(self, state: Dice1000State, me: int, cache: dict) -> list:
        """What the others' turns before my next one may do to me: [(chance, my row after)] for
        each seat that may bank past me (overtaking, §5 step 3) or, when I am on the barrel,
        mount it (knocking me off, §6). The chance is their turn's, from the model; the effect
        is the engine's, as if they banked just enough. What a seat's bank does to me depends
        only on where the two of us stand, so ``cache`` keeps it by our two positions: with 8
        players the same few banks come back for every total a decision values."""
        scores = state.scores()
        mine = scores[me]
        me_at = (key(state, me), mine, state.bolts[me])
        out = []
        for q in range(state.num_players):
            q_at = key(state, q) if q != me else None
            above = self.passes.get(q_at) if q != me else None
            if above is None or scores[q] >= mine:
                continue
            if state.on_barrel[me]:  # the only bank that touches me is a mount
                chance, total = above[mine // 5 - 1], mine - scores[q]
            elif self.penalty:
                chance, total = above[mine // 5], mine + 5 - scores[q]
            else:
                continue
            if chance > 0 and scores[q] + total < WIN:
                memo = ("threat", me_at, q_at, scores[q])
                got = cache.get(memo)
                if got is None:
                    got = cache[memo] = self.row(state.after_turn(total, seat=q), me)
                out.append((chance, got))
        return out

    def row(self, state: Dice1000State, seat: int, penalty: int = 0) -> list:
        """``left`` for a seat of ``state`` (``penalty`` points lower). The model counts every
        bust as a third of the bolt penalty (it does not track bolts): a seat with more bolts
        than the average one is that much nearer its penalty, one with fewer that much further."""
        position = key(state, seat, penalty)
        memo = (position, state.scores()[seat] - penalty, state.bolts[seat])  # the score unclipped
        got = self.rows.get(memo)
        if got is not None:
            return got
        got = self.left_of(position)
        o = state.options
        if o.bolts_per_penalty and o.bolt_penalty:
            nearer = (state.bolts[seat] - (o.bolts_per_penalty - 1) / 2) / o.bolts_per_penalty
            if nearer:
                shift = o.bolt_penalty if nearer > 0 else -o.bolt_penalty
                got = mix(got, self.left_of(key(state, seat, penalty + shift)), abs(nearer))
        self.rows[memo] = got
        return got

    def left_of(self, position: tuple) -> list:
        got = self.left.get(position)
        if got is None and not position[2]:  # above the highest score off the barrel
            got = self.left.get((min(position[0], self.cap - 5),) + position[1:])
        if got is None:  # a position the model has no row for
            got = self.left[min(self.left, key=lambda p: abs(p[0] - position[0]))]
        return got


def blend(parts: list) -> list:
    """The sum of [row, weight] parts, term by term."""
    (a, wa), (b, wb), *more = parts
    got = [wa * x + wb * y for x, y in zip(a, b)]
    for c, wc in more:
        got = [x + wc * y for x, y in zip(got, c)]
    return got


def mix(a: list, b: list, w: float) -> list:
    """(1 - w) a + w b, term by term."""
    return [x + w * (y - x) for x, y in zip(a, b)]


class Points:
    """Stands in for the race model while it is being built: a position is worth my score less
    the others' average (in thousands), a win 1."""

    over = False

    def __init__(self, options) -> None:
        self.rolls = Rolls(options.straights)
        self.over = options.barrel == "open"
        self.built = threading.Event()  # set when the race model that replaces it is ready

    def chance(self, state: Dice1000State, me: int, cache: dict) -> float:
        if state.is_terminal():
            return 1.0 if state.result().ranks[me] == 1 else 0.0
        scores = state.scores()
        return (scores[me] - (sum(scores) - scores[me]) / (len(scores) - 1)) / 1000


def rule_set(options) -> str:
    """Which model fits these rules: a lone player's race is the same whatever the number of
    players and the round limit."""
    return repr(dataclasses.replace(options, num_players=2, max_rounds=1))


def saved_models(path: Path = SAVED) -> dict:
    """The models the build step saved, by rule set (none if it did not run)."""
    if msgpack is None or not path.is_file():
        return {}
    return msgpack.unpackb(path.read_bytes())


_RACES: dict = {}
# Set while this bot thinks on its own clock. A background build works only then: in the other
# players' time it would take the CPU they are timed on (they may share this bot's core).
_ON_CLOCK = threading.Event()


def race(options, deadline: float | None = None, clock=None):
    """The race model of these rules: the one the build step saved, else built once per rule set
    (it takes a few seconds). Without a ``deadline`` it is built at once. On a clock, a first
    call starts building it in a background thread and every decision gives that build its
    thinking time, until ``deadline``; meanwhile the decision is made by the stand-in ``Points``.
    So a short clock is never overrun, and the build never runs in the other players' time
    (beyond one small piece of it, a few milliseconds). Play on a clock is not reproducible
    anyway."""
    name = rule_set(options)
    got = _RACES.get(name)
    if isinstance(got, Race):
        return got
    if got is None:
        saved = saved_models().get(name)
        if saved is not None:
            _RACES[name] = Race.load(options, saved)
            print("dice: the race model of these rules, as the build step saved it", file=sys.stderr)
            return _RACES[name]
    if deadline is None:
        _RACES[name] = Race(options)
        return _RACES[name]
    if got is None:
        print("dice: building the race model of these rules in my thinking time (a few seconds); "
              "counting points until it is ready", file=sys.stderr)
        _RACES[name] = got = Points(options)

        def build():
            _RACES[name] = Race(options, pause=_ON_CLOCK.wait)
            got.built.set()
        threading.Thread(target=build, daemon=True).start()
    _ON_CLOCK.set()
    got.built.wait(max(deadline - clock(), 0))
    _ON_CLOCK.clear()
    return _RACES[name]


def choose(game, options, observation: dict, legal: list[str], rng,
           deadline: float | None = None, clock=None) -> str:
    """Roll or stop, whichever gives the better chance of finishing first."""
    state = game.sample_state(options, observation, rng)  # nothing is hidden: this is the state
    me = observation["seat"]
    model = race(options, deadline, clock)
    t, d, score = state.turn_total, state.dice_left, state.scores()[me]
    top = -(-(WIN - score) // 5)
    i0 = t // 5
    if i0 >= top:
        return "stop"  # stopping wins
    cache: dict = {}
    stop = [None] * top
    for i in range(i0, top):
        if state.can_bank(5 * i):
            stop[i] = model.chance(state.after_turn(5 * i), me, cache)
    bust = model.chance(state.after_turn(t, "bust"), me, cache)
    over = model.chance(state.after_turn(t, "overshoot"), me, cache) if model.over else None
    roll, _ = solve(model.rolls, i0, top, stop, bust, over)
    return "stop" if stop[i0] is not None and stop[i0] >= roll[d][i0] else "roll"


def save_models(path: Path = SAVED) -> None:
    """The build step: the race models of every preset of the rules, saved beside this file."""
    from arena.games import get_game
    game = get_game("dice-1000")
    models = {}
    for variant in game.Options.PRESETS:
        options = game.make_options(2, {"variant": variant})
        models[rule_set(options)] = Race(options).saved()
    path.write_bytes(msgpack.packb(models))


if __name__ == "__main__":
    save_models()
