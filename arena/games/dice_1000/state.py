"""A Dice 1000 match in progress: turns, forced rolls, banking, pits, overtaking, the dump truck,
bolts and the barrels (docs/games/dice-1000.md §3, §5, §6).

The engine rolls by itself whenever rolling is the only legal action (the first roll of a turn,
hot dice, a total that may not be banked yet), so a seat is asked only for real choices between
``"roll"`` and ``"stop"``. Every roll, set-aside, bank, penalty and total goes to ``events``
(docs/games/dice-1000.md §10).
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from arena.game import TERMINAL, Chance, Result, State
from arena.games.dice_1000.options import Dice1000Options
from arena.games.dice_1000.scoring import KEY_WEIGHT, ROLL_TABLE, ROLL_TABLE_STRAIGHTS

ROLL, STOP = "roll", "stop"
WIN = 1000
# why the engine rolled: the first roll of a turn, hot dice, a total that may not be banked yet,
# or the player's "roll"
BY_START, BY_HOT, BY_MUST, BY_CHOICE = "start", "hot", "must", "choice"
_W1, _W2, _W3, _W4, _W5, _W6 = KEY_WEIGHT[1:]
_WEIGHTS = KEY_WEIGHT[1:]


class Dice1000State(State):
    """One Dice 1000 match. Create it with ``Dice1000().new_match(options, seed)``, or a position
    with :meth:`from_position`."""

    _legal = (ROLL, STOP)  # whenever a seat decides (a forced roll never reaches it)

    def __init__(self, options: Dice1000Options, seed: int) -> None:
        self._setup(options, Chance(seed))
        n = self.num_players
        self.first = self.chance.stream("first").randrange(n)  # §1: the roll-off is a uniform seat
        self.events.append({"type": "first", "seat": self.first})
        self._start_turn(self.first)
        self._run(BY_START)

    def _setup(self, options: Dice1000Options, chance: Chance) -> None:
        n = options.num_players
        self.options = options
        self.num_players = n
        self.chance = chance
        self.events: list[dict[str, Any]] = []
        self._scores = [0] * n
        self.opened = [False] * n
        self.bolts = [0] * n
        self.on_barrel = [False] * n
        self.attempts = [0] * n      # barrel turns used since mounting
        self.falls = [0] * n         # falls off the barrel
        self.entry = [0] * n         # the score recorded by the first bank (0 = not yet)
        self.open_points = [0] * n   # 'open' barrel points
        self.turns = [0] * n         # turns each seat has begun
        self.first = 0
        self.round = 1
        self.last_turn: dict[str, Any] | None = None
        self._terminal = False
        self._capped = False
        self._table = ROLL_TABLE_STRAIGHTS if options.straights else ROLL_TABLE
        self._barrel = options.barrel
        self._threshold = options.barrel_threshold if options.barrel in ("points", "entry_reset") else None
        self._rng_random: Callable[[], float] | None = None  # this turn's dice: _start_turn draws it
        self.seat = 0
        self.turn_no = 0
        self.turn_total = 0
        self.dice_left = 5
        self.rolls: list[dict[str, Any]] = []

    # ----- a turn --------------------------------------------------------------------------
    def _start_turn(self, seat: int) -> None:
        """§3: a turn draws all its dice, in order, from the stream ("turn", seat, k)."""
        self.turns[seat] += 1
        k = self.turns[seat]
        self.seat, self.turn_no = seat, k
        self.turn_total, self.dice_left = 0, 5
        self.rolls = []
        self._rng_random = self.chance.stream("turn", seat, k).random
        self.events.append({"type": "turn", "seat": seat, "turn": k, "round": self.round,
                            "score": self._scores[seat]})

    def _run(self, by: str) -> None:
        """Play on until a seat has a real choice or the match is over: the rolls that are forced,
        the ends of turns, the next turns (a loop, however many turns pass without a choice)."""
        while True:
            outcome = self._roll(by)
            if outcome is None or self._end_turn(outcome):
                return
            by = BY_START

    def _roll(self, by: str) -> str | None:
        """Roll the dice left, score them (§2), and roll on while rolling is the only choice.
        Returns None when the seat has a choice, else how the turn ended ("bust", "overshoot")."""
        r = self._rng_random
        assert r is not None  # a turn has begun
        table = self._table
        events = self.events
        seat = self.seat
        while True:
            d = self.dice_left
            faces = [int(r() * 6) + 1 for _ in range(d)]
            key = 0
            for f in faces:
                key += _WEIGHTS[f - 1]
            points, used, kept = table[key]
            if points:
                self.turn_total += points
                left = d - used
                self.dice_left = left if left else 5  # §3: hot dice, all five again
            ev = {"type": "roll", "seat": seat, "by": by, "faces": faces, "kept": kept,
                  "points": points, "turn_total": self.turn_total, "dice_left": self.dice_left}
            events.append(ev)
            self.rolls.append(ev)
            if not points:
                return "bust"
            if self._barrel == "open" and self._scores[seat] + self.turn_total > WIN:
                return "overshoot"  # §6 open barrel: passing 1000 ends the turn (D-16)
            if used == d:
                by = BY_HOT  # §3: stopping is illegal after hot dice
            elif self._can_stop():
                return None  # a real choice: the seat is asked
            else:
                by = BY_MUST

    def _can_stop(self) -> bool:
        return self.can_bank(self.turn_total)

    def can_bank(self, t: int) -> bool:
        """§3 step 2: may the mover stop with a turn total of ``t`` (opening minimum, pits,
        barrel)? Public for bots that plan the rest of a turn."""
        seat = self.seat
        if not self.opened[seat] and t < self.options.open_min:
            return False
        score = self._scores[seat]
        if self.options.pits:
            top = self.options.in_pit(score)
            if top is not None and score + t < top:
                return False
        if self.on_barrel[seat] and score + t < WIN:
            return False
        return True

    # ----- the interface -------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self._terminal else self.seat

    def is_terminal(self) -> bool:
        return self._terminal

    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    def _apply_legal(self, action: str) -> None:
        self.events.append({"type": "action", "seat": self.seat, "action": action,
                            "turn_total": self.turn_total})
        if action == ROLL:
            self._run(BY_CHOICE)
        elif not self._end_turn("bank"):
            self._run(BY_START)

    # ----- after a turn (§5, in this order) ------------------------------------------------
    def after_turn(self, total: int, outcome: str = "bank", seat: int | None = None) -> Dice1000State:
        """For bots that plan a turn: a copy of this state as it would be if the mover's turn
        (or ``seat``'s, as if it were theirs now) ended with ``total`` banked (``"bank"``) or lost
        (``"bust"``, ``"overshoot"``), every rule of §5 applied, the next turn not begun. Its
        ``events`` hold only what the turn's end wrote. Cheaper than ``clone()``: no dice are
        copied, since none will be rolled."""
        new = object.__new__(Dice1000State)
        d = new.__dict__
        d.update(self.__dict__)
        for name in ("_scores", "opened", "bolts", "on_barrel", "attempts", "falls", "entry",
                     "open_points"):
            d[name] = list(d[name])
        new.events = []
        new.turn_total = total
        if seat is not None:
            new.seat = seat
        new._settle(outcome)
        return new

    def _end_turn(self, outcome: str) -> bool:
        """Apply §5 and begin the next turn (without rolling); True when the match is over."""
        if self._settle(outcome):
            return True
        seat = self.seat
        n = self.num_players
        if (seat + 1) % n == self.first:  # the round is over
            if self.round >= self.options.max_rounds:
                self.events.append({"type": "capped", "rounds": self.round})
                self._finish(None, "capped")
                return True
            self.round += 1
        self._start_turn((seat + 1) % n)
        return False

    def _settle(self, outcome: str) -> bool:
        """§5 for the turn that ends with ``outcome``; True when the mover has won."""
        o = self.options
        seat = self.seat
        scores = self._scores
        events = self.events
        old = scores[seat]
        t = self.turn_total
        if outcome == "bust":
            # §5 step 1: a bolt, unless the mover was unopened, in a pit or on the barrel (D-5)
            if o.bolts_per_penalty and (o.bolts_when_restricted or not (
                    not self.opened[seat] or self.on_barrel[seat] or (o.pits and o.in_pit(old) is not None))):
                self.bolts[seat] += 1
                count = self.bolts[seat]
                penalty = 0
                if count >= o.bolts_per_penalty:
                    penalty = o.bolt_penalty
                    scores[seat] -= penalty
                    self.bolts[seat] = 0
                events.append({"type": "bolt", "seat": seat, "bolts": count, "amount": -penalty,
                               "score": scores[seat]})
            self._leave_barrel_below()
            if self.on_barrel[seat]:  # §6: a barrel turn that does not win uses an attempt
                self.attempts[seat] += 1
                events.append({"type": "attempt", "seat": seat, "used": self.attempts[seat]})
                if o.barrel_attempts and self.attempts[seat] >= o.barrel_attempts:
                    self._fall(seat, "attempts")
        elif outcome == "overshoot":
            # §6 open barrel: a point; the limit-th point sets the score to 0 (D-16)
            self.open_points[seat] += 1
            count = self.open_points[seat]
            amount = 0
            if count >= o.open_barrel_points_limit:
                amount = -scores[seat]
                scores[seat] = 0
                self.open_points[seat] = 0
            events.append({"type": "point", "seat": seat, "points": count, "amount": amount,
                           "score": scores[seat]})
        else:
            # §5 step 2: the bank
            new = old + t
            scores[seat] = new
            first_bank = not self.opened[seat]
            self.opened[seat] = True
            if o.bolt_streak == "consecutive":
                self.bolts[seat] = 0
            events.append({"type": "bank", "seat": seat, "amount": t, "score": new})
            if new >= WIN:  # §3 step 3, D-13, D-18: the mover wins at once
                self._finish(seat, "win")
                return True
            threshold = self._threshold
            if threshold is not None and new >= threshold:
                if new > threshold:
                    events.append({"type": "barrel_cap", "seat": seat, "amount": threshold - new,
                                   "score": threshold})
                    new = scores[seat] = threshold
                if not self.on_barrel[seat]:
                    self.on_barrel[seat] = True
                    self.attempts[seat] = 0
                    events.append({"type": "mount", "seat": seat, "score": new})
                    for q in range(self.num_players):  # mounting knocks the occupant off (D-6)
                        if q != seat and self.on_barrel[q]:
                            self._fall(q, "knocked_off")
            if first_bank:
                self.entry[seat] = new  # §6 entry_reset: the score the first bank recorded
            # §5 step 3: overtaking (D-9, D-17)
            pen = o.overtake_penalty
            if pen:
                for q in range(self.num_players):
                    if q != seat and old < scores[q] < new:
                        scores[q] -= pen
                        events.append({"type": "overtaken", "seat": q, "by": seat, "amount": -pen,
                                       "score": scores[q]})
        # §5 step 4: the floor (D-8)
        if o.floor_at_zero:
            for q, s in enumerate(scores):
                if s < 0:
                    scores[q] = 0
                    events.append({"type": "floor", "seat": q, "amount": -s, "score": 0})
        # §5 step 5: the dump truck (D-10)
        if o.dump_truck:
            for q, s in enumerate(scores):
                if s == o.dump_truck:
                    scores[q] = 0
                    events.append({"type": "dump_truck", "seat": q, "amount": -s, "score": 0})
        self._leave_barrel_below()
        self.last_turn = {"seat": seat, "turn": self.turn_no, "outcome": outcome, "turn_total": t}
        events.append({"type": "turn_end", "seat": seat, "turn": self.turn_no, "outcome": outcome,
                       "turn_total": t, "scores": list(scores)})
        return False

    def _fall(self, q: int, reason: str) -> None:
        """§6: off the barrel. 'points': −barrel_fall_penalty, every barrel_falls_to_zero-th fall to
        0; 'entry_reset': back to the entry score (D-6, D-15, D-17)."""
        o = self.options
        scores = self._scores
        self.on_barrel[q] = False
        self.attempts[q] = 0
        self.falls[q] += 1
        if self._barrel == "entry_reset":
            new = self.entry[q]
        elif o.barrel_falls_to_zero and self.falls[q] % o.barrel_falls_to_zero == 0:
            new = 0
        else:
            new = scores[q] - o.barrel_fall_penalty
        amount = new - scores[q]
        scores[q] = new
        self.events.append({"type": "fall", "seat": q, "reason": reason, "falls": self.falls[q],
                            "amount": amount, "score": new})

    def _leave_barrel_below(self) -> None:
        """A player on the barrel whose score a penalty took below it is off the barrel (not a fall)."""
        if self._threshold is None:
            return
        for q, on in enumerate(self.on_barrel):
            if on and self._scores[q] < self._threshold:
                self.on_barrel[q] = False
                self.attempts[q] = 0
                self.events.append({"type": "leave_barrel", "seat": q, "score": self._scores[q]})

    def _finish(self, winner: int | None, how: str) -> None:
        self._terminal = True
        seat = self.seat
        if winner is not None:
            self.last_turn = {"seat": seat, "turn": self.turn_no, "outcome": how,
                              "turn_total": self.turn_total}
            self.events.append({"type": "turn_end", "seat": seat, "turn": self.turn_no,
                                "outcome": how, "turn_total": self.turn_total,
                                "scores": list(self._scores)})
        result = self.result()
        self.events.append({"type": "match_end", "winner": winner, "scores": list(result.scores),
                            "ranks": list(result.ranks)})

    def result(self) -> Result:
        if not self._terminal:
            raise ValueError("the match is not over")
        # §9: the winner has the only score >= 1000; a capped match ranks by score, ties shared
        return Result.from_scores(self._scores)

    # ----- what a seat may know ------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        """docs/games/dice-1000.md §11: everything is public. The roll records are shared with
        ``events`` (built once per roll): treat the observation as read-only."""
        return {
            "seat": seat,
            "num_players": self.num_players,
            "to_move": TERMINAL if self._terminal else self.seat,
            "first": self.first,
            "round": self.round,
            "scores": list(self._scores),
            "opened": list(self.opened),
            "bolts": list(self.bolts),
            "on_barrel": list(self.on_barrel),
            "barrel_attempts": list(self.attempts),
            "falls": list(self.falls),
            "entry": list(self.entry),
            "open_points": list(self.open_points),
            "turns": list(self.turns),
            "turn": {"seat": self.seat, "number": self.turn_no, "total": self.turn_total,
                     "dice_left": self.dice_left, "rolls": list(self.rolls)},
            "last_turn": self.last_turn,
        }

    # ----- copies and positions -------------------------------------------------------------
    def clone(self) -> Dice1000State:
        new = object.__new__(Dice1000State)
        d = new.__dict__
        d.update(self.__dict__)
        for name in ("_scores", "opened", "bolts", "on_barrel", "attempts", "falls", "entry",
                     "open_points", "turns", "events", "rolls"):
            d[name] = list(d[name])
        # the rest of this turn's dice: a copy of the generator, so the clone rolls what we would
        # (_rng_random is that generator's bound method ``random``, which a type checker sees as a
        # plain callable)
        gen = self._rng_random.__self__  # type: ignore[union-attr]
        copy = random.Random()
        copy.setstate(gen.getstate())
        new._rng_random = copy.random
        return new

    @classmethod
    def from_observation(cls, options: Dice1000Options, obs: dict[str, Any], chance: Chance) -> Dice1000State:
        """The state an observation describes (everything is public); the rest of the current
        turn and every later turn draw from ``chance``."""
        state = object.__new__(cls)
        state._setup(options, chance)
        for name, key in (("_scores", "scores"), ("opened", "opened"), ("bolts", "bolts"),
                          ("on_barrel", "on_barrel"), ("attempts", "barrel_attempts"),
                          ("falls", "falls"), ("entry", "entry"), ("open_points", "open_points"),
                          ("turns", "turns")):
            setattr(state, name, list(obs[key]))
        state.first, state.round = obs["first"], obs["round"]
        turn = obs["turn"]
        state.seat, state.turn_no = turn["seat"], turn["number"]
        state.turn_total, state.dice_left = turn["total"], turn["dice_left"]
        state.rolls = list(turn["rolls"])
        state.last_turn = obs["last_turn"]
        state._terminal = obs["to_move"] == TERMINAL
        state._rng_random = chance.stream("turn", state.seat, state.turn_no).random
        return state

    @classmethod
    def from_position(cls, options: Dice1000Options, to_move: int = 0, scores: list[int] | None = None,
                      opened: list[bool] | None = None, chance: Chance | None = None,
                      **seat_lists: list) -> Dice1000State:
        """A match starting with ``to_move``'s turn from a given position (for tests and puzzles).

        ``scores`` default to 0; ``opened`` defaults to True for every seat with a score;
        ``seat_lists`` may give ``bolts``, ``on_barrel``, ``attempts``, ``falls``, ``entry``,
        ``open_points`` and ``turns`` (each a list by seat). The turn begins (and makes its first
        roll) at once, drawing from ``chance`` (a test may pass a Chance whose streams are scripted).
        """
        n = options.num_players
        state = object.__new__(cls)
        state._setup(options, chance if chance is not None else Chance(0))
        if scores is not None:
            state._scores = list(scores)
        state.opened = list(opened) if opened is not None else [s != 0 for s in state._scores]
        for name, values in seat_lists.items():
            if name not in ("bolts", "on_barrel", "attempts", "falls", "entry", "open_points", "turns"):
                raise TypeError(f"from_position: unknown seat list {name!r}")
            if len(values) != n:
                raise ValueError(f"from_position: {name} needs {n} values")
            setattr(state, name, list(values))
        state.first = to_move
        state._start_turn(to_move)
        state._run(BY_START)
        return state
