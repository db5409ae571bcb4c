"""Dice 1000 rules: every worked example of the rules file's §8 with its exact numbers, every
option, the §5 order, every barrel type, the length cap, duplicate luck and sample_state.

Positions are built with ``Dice1000State.from_position`` and the dice are scripted with
``Script``, a Chance whose every stream hands out the next scripted faces in order.
"""
from __future__ import annotations

import random

import pytest

from arena.errors import IllegalActionError, OptionError
from arena.game import TERMINAL, Chance
from arena.games import get_game
from arena.games.dice_1000.options import PITS_A
from arena.games.dice_1000.scoring import roll_outcomes, score_dice
from arena.games.dice_1000.state import Dice1000State
from arena.options import options_from_dict, options_to_dict

GAME = get_game("dice-1000")
BUST = [2, 3, 4, 6, 6]


class _Dice(random.Random):
    def __init__(self, queue: list[int]) -> None:
        super().__init__(0)
        self.queue = queue

    def random(self) -> float:
        if not self.queue:
            raise ScriptEnd
        return (self.queue.pop(0) - 0.5) / 6  # the engine's face is int(random() * 6) + 1


class ScriptEnd(Exception):
    """The scripted dice ran out: the position is as far as the test wanted it (the scores and
    events of every finished turn are complete; the next turn has begun)."""


def act(state, *actions):
    try:
        for a in actions:
            state.apply(a)
    except ScriptEnd:
        pass


class Script(Chance):
    """Every stream deals the next scripted faces, in order, whatever its key."""

    def __init__(self, *rolls: list[int]) -> None:
        super().__init__(0)
        self.queue = [f for roll in rolls for f in roll]

    def stream(self, *key):
        return _Dice(self.queue)


def position(n=2, to_move=0, scores=None, rolls=(), values=None, **lists):
    options = GAME.make_options(n, values or {})
    chance = Script(*rolls)
    try:
        state = Dice1000State.from_position(options, to_move=to_move, scores=scores, chance=chance, **lists)
    except ScriptEnd:  # no decision in the scripted dice: build the same position step by step
        return run_position(n, to_move, scores, rolls, values, **lists)
    state.script = chance
    return state


def run_position(n=2, to_move=0, scores=None, rolls=(), values=None, **lists):
    """A position whose scripted turns need no decision: returns the state when the dice run out."""
    options = GAME.make_options(n, values or {})
    state = object.__new__(Dice1000State)
    state._setup(options, Script(*rolls))
    state._scores = list(scores) if scores is not None else [0] * n
    state.opened = [x != 0 for x in state._scores]
    state.script = state.chance
    for name, v in lists.items():
        setattr(state, name, list(v))
    state.first = to_move
    try:
        state._start_turn(to_move)
        state._run("start")
    except ScriptEnd:
        pass
    return state


def of(state, kind):
    return [e for e in state.events if e["type"] == kind]


def last_rolls(state):
    return [(e["faces"], e["points"], e["turn_total"], e["dice_left"], e["by"]) for e in of(state, "roll")]


# ----- §2 and §8: one roll ----------------------------------------------------------------------
ROLL_TABLE = [
    # roll, points, dice left (5 when hot), points with straights, dice left with straights
    ((1, 5, 3, 3, 4), 15, 3, 15, 3),
    ((5, 5, 2), 10, 1, 10, 1),
    ((4, 4, 4, 2, 6), 40, 2, 40, 2),
    ((4, 4, 4, 4, 2), 80, 1, 80, 1),
    ((4, 4, 4, 4, 4), 400, 0, 400, 0),
    ((1, 1, 1, 2, 3), 100, 2, 100, 2),
    ((1, 1, 1, 1, 3), 200, 1, 200, 1),
    ((1, 1, 1, 1, 1), 1000, 0, 1000, 0),
    ((5, 5, 5, 5, 1), 110, 0, 110, 0),
    ((2, 2, 2, 5, 5), 30, 0, 30, 0),
    ((3, 3, 3, 1, 5), 45, 0, 45, 0),
    ((6, 6, 6, 6, 6), 600, 0, 600, 0),
    ((2, 3, 4, 6, 6), 0, None, 0, None),
    ((1, 2, 3, 4, 5), 15, 3, 125, 0),
    ((2, 3, 4, 5, 6), 5, 4, 250, 0),
    ((1, 1), 20, 0, 20, 0),
]


@pytest.mark.parametrize("faces, points, left, s_points, s_left", ROLL_TABLE)
def test_roll_table(faces, points, left, s_points, s_left):
    p, kept = score_dice(faces)
    assert p == points
    assert (len(faces) - len(kept) if p else None) == left
    p, kept = score_dice(faces, straights=True)
    assert p == s_points
    assert (len(faces) - len(kept) if p else None) == s_left


@pytest.mark.parametrize("faces, points, left, s_points, s_left", ROLL_TABLE)
def test_roll_table_through_the_engine(faces, points, left, s_points, s_left):
    """The engine scores a thrown roll the same way (a turn with that many dice left)."""
    for straights, want, want_left in ((False, points, left), (True, s_points, s_left)):
        # one roll of len(faces) dice: a turn with dice_left set by hand
        options = GAME.make_options(2, {"straights": straights})
        chance = Script(faces, BUST, BUST, BUST)
        state = object.__new__(Dice1000State)
        state._setup(options, chance)
        state._scores = [500, 0]
        state.opened = [True, False]
        state.turns[0] = 1
        state.seat, state.turn_no, state.dice_left = 0, 1, len(faces)
        state._rng_random = chance.stream().random
        try:
            state._roll("start")
        except ScriptEnd:
            pass
        roll = of(state, "roll")[0]
        assert roll["faces"] == list(faces)
        assert roll["points"] == want
        if want:
            assert roll["dice_left"] == (want_left or 5)


def test_roll_distribution_is_complete():
    for d in range(1, 6):
        assert abs(sum(p for p, _, _ in roll_outcomes(d)) - 1) < 1e-12
    bust5 = sum(p for p, pts, _ in roll_outcomes(5) if pts == 0)
    assert abs(bust5 - 600 / 7776) < 1e-12  # 5 dice of 2, 3, 4, 6 with no triple


# ----- §3 and §8: the turn -------------------------------------------------------------------
def test_seed_turn_bank():
    s = position(scores=[100, 0], rolls=[[1, 5, 3, 3, 4], [5, 5, 2]])
    assert s.current_player() == 0 and s.turn_total == 15 and s.dice_left == 3
    act(s, "roll")
    assert (s.turn_total, s.dice_left) == (25, 1)
    assert s.legal_actions() == ["roll", "stop"]
    s.script.queue[:] = BUST  # the next turn (seat 1) busts at once
    act(s, "stop")
    assert s.scores() == (125, 0)
    bank = of(s, "bank")[0]
    assert bank == {"type": "bank", "seat": 0, "amount": 25, "score": 125}


def test_seed_turn_hot_dice_then_bust():
    s = position(scores=[100, 0], rolls=[[1, 5, 3, 3, 4], [5, 5, 2], [1], BUST, BUST])
    act(s, "roll")
    act(s, "roll")
    rolls = last_rolls(s)
    assert rolls[:4] == [
        ([1, 5, 3, 3, 4], 15, 15, 3, "start"),
        ([5, 5, 2], 10, 25, 1, "choice"),
        ([1], 10, 35, 5, "choice"),          # hot dice: all five again, stopping illegal
        (BUST, 0, 35, 5, "hot"),             # the compulsory roll, made by the engine
    ]
    end = of(s, "turn_end")[0]
    assert end["outcome"] == "bust" and end["turn_total"] == 35 and end["scores"] == [100, 0]
    assert of(s, "bolt")[0] == {"type": "bolt", "seat": 0, "bolts": 1, "amount": 0, "score": 100}
    assert s.bolts == [1, 0]


THROUGH_70 = [[6, 6, 6, 2, 3], [1, 2]]            # 60 (2 left), 70 (1 left)
TO_75 = [[6, 6, 6, 2, 3], [5, 5], [5, 2, 3, 4, 6]]  # 60, 70 hot, 75 with 4 left


def test_opening_70_may_not_stop():
    s = position(scores=[0, 0], rolls=THROUGH_70 + [[5], BUST, BUST])
    rolls = last_rolls(s)
    assert [r[4] for r in rolls[:4]] == ["start", "must", "must", "hot"]  # 60 and 70: no choice
    assert rolls[2][2] == 75 and rolls[3][1] == 0
    assert not [e for e in s.events if e["type"] == "action"]
    assert of(s, "bolt") == []  # an unopened player's bust is no bolt (D-5)
    assert s.opened == [False, False]


def test_opening_75_may_stop():
    s = position(scores=[0, 0], rolls=TO_75 + [BUST])
    assert s.current_player() == 0 and s.turn_total == 75
    act(s, "stop")
    assert s.scores() == (75, 0) and s.opened == [True, False] and s.entry == [75, 0]


def test_open_min_option():
    s = position(scores=[0, 0], rolls=[[6, 6, 6, 2, 3], BUST], values={"open_min": 50})
    assert s.current_player() == 0 and s.turn_total == 60
    act(s, "stop")
    assert s.scores() == (60, 0)


def test_pit_225_needs_75():
    s = position(scores=[225, 0], rolls=TO_75 + [BUST])
    assert [r[4] for r in last_rolls(s)] == ["start", "must", "hot"]
    assert s.turn_total == 75
    act(s, "stop")
    assert s.scores() == (300, 0)


def test_pit_225_at_70_may_not_stop():
    s = position(scores=[225, 0], rolls=THROUGH_70 + [[5], BUST, BUST])
    assert [r[4] for r in last_rolls(s)][:4] == ["start", "must", "must", "hot"]
    assert s.scores() == (225, 0)
    assert of(s, "bolt") == []  # in a pit: no bolt


def test_pit_610_needs_90():
    s = position(scores=[610, 0], rolls=[[6, 6, 6, 2, 3], [1, 1], [5, 2, 3, 4, 6], [5, 2, 3, 4], BUST])
    assert [r[2] for r in last_rolls(s)] == [60, 80, 85, 90]
    assert [r[4] for r in last_rolls(s)] == ["start", "must", "hot", "must"]
    act(s, "stop")
    assert s.scores() == (700, 0)


def test_pits_option():
    s = position(scores=[225, 0], rolls=[[6, 6, 6, 2, 3], BUST], values={"pits": "none"})
    assert s.turn_total == 60 and s.current_player() == 0  # no pit: 60 may be banked
    s = position(scores=[410, 0], rolls=[[6, 6, 6, 2, 3], [1, 1], [5, 2, 3, 4, 6], BUST, BUST],
                 values={"pits": "400-500"})
    assert s.scores() == (410, 0)  # 85 does not reach 500: no choice, and the last 4 dice bust
    assert of(s, "action") == [] and of(s, "turn_end")[0]["turn_total"] == 85


# ----- §5: overtaking, floor, dump truck -------------------------------------------------------
def test_overtaking_70():
    s = position(n=3, scores=[180, 200, 240], rolls=[[6, 6, 6, 2, 3], [1, 2], BUST])
    act(s, "roll")
    act(s, "stop")
    assert s.scores() == (250, 150, 190)
    assert [(e["seat"], e["by"], e["amount"], e["score"]) for e in of(s, "overtaken")] == [
        (1, 0, -50, 150), (2, 0, -50, 190)]
    assert GAME.make_options(3).in_pit(250) == 300  # A is now in the pit


def test_overtaking_60_level_is_not_overtaken():
    s = position(n=3, scores=[180, 200, 240], rolls=[[6, 6, 6, 2, 3], BUST])
    act(s, "stop")
    assert s.scores() == (240, 150, 240)


def test_overtake_penalty_option():
    s = position(n=3, scores=[180, 200, 240], rolls=[[6, 6, 6, 2, 3], BUST],
                 values={"overtake_penalty": 20})
    act(s, "stop")
    assert s.scores() == (240, 180, 240)
    s = position(n=3, scores=[180, 200, 240], rolls=[[6, 6, 6, 2, 3], BUST],
                 values={"overtake_penalty": 0})
    act(s, "stop")
    assert s.scores() == (240, 200, 240)


def test_dump_truck_mover():
    s = position(scores=[505, 0], rolls=[[5, 5, 5, 2, 3], BUST])
    act(s, "stop")
    assert s.scores() == (0, 0) and s.opened[0]
    assert of(s, "dump_truck")[0] == {"type": "dump_truck", "seat": 0, "amount": -555, "score": 0}


def test_dump_truck_overtaken():
    s = position(n=3, scores=[590, 605, 0], opened=[True, True, True], rolls=[[3, 3, 3, 2, 4], BUST])
    act(s, "stop")
    assert s.scores() == (620, 0, 0)
    assert [e["type"] for e in s.events if e.get("seat") == 1 and e["type"] in ("overtaken", "dump_truck")] == [
        "overtaken", "dump_truck"]


def test_dump_truck_option():
    s = position(scores=[505, 0], rolls=[[5, 5, 5, 2, 3], BUST], values={"dump_truck": 0})
    act(s, "stop")
    assert s.scores() == (555, 0)
    s = position(scores=[300, 0], rolls=[[5, 5, 5, 2, 3], BUST], values={"dump_truck": 350})
    act(s, "stop")
    assert s.scores() == (0, 0)


def test_floor_at_zero_and_its_option():
    s = position(n=3, scores=[0, 30, 0], opened=[True, True, True], rolls=[[6, 6, 6, 2, 3], BUST])
    act(s, "stop")
    assert s.scores() == (60, 0, 0)
    assert of(s, "floor")[0] == {"type": "floor", "seat": 1, "amount": 20, "score": 0}
    s = position(n=3, scores=[0, 30, 0], opened=[True, True, True], rolls=[[6, 6, 6, 2, 3], BUST],
                 values={"floor_at_zero": False})
    act(s, "stop")
    assert s.scores() == (60, -20, 0)


# ----- bolts -------------------------------------------------------------------------------------
def test_bolts_third_costs_100_into_the_pit():
    s = position(scores=[300, 0], bolts=[2, 0], rolls=[BUST, BUST])
    assert s.scores() == (200, 0) and s.bolts == [0, 0]
    assert of(s, "bolt")[0] == {"type": "bolt", "seat": 0, "bolts": 3, "amount": -100, "score": 200}
    assert GAME.make_options(2).in_pit(200) == 300


def test_bolts_cumulative_over_banks_and_consecutive_option():
    rolls = [BUST, BUST, [6, 6, 6, 2, 3], BUST, BUST, BUST, BUST]
    # seat 0: bust, bank 60, bust, bust; seat 1 (unopened) busts in between
    s = position(scores=[300, 0], rolls=rolls)
    act(s, "stop")
    assert s.scores() == (260, 0)  # 3rd bolt: 360 - 100
    s = position(scores=[300, 0], rolls=rolls, values={"bolt_streak": "consecutive"})
    act(s, "stop")
    assert s.scores() == (360, 0) and s.bolts == [2, 0]


def test_bolts_options_per_penalty_amount_and_restricted():
    s = position(scores=[300, 0], bolts=[1, 0], rolls=[BUST, BUST], values={"bolts_per_penalty": 2, "bolt_penalty": 70})
    assert s.scores() == (230, 0)
    s = position(scores=[300, 0], bolts=[2, 0], rolls=[BUST, BUST], values={"bolts_per_penalty": 0})
    assert s.scores() == (300, 0) and of(s, "bolt") == []
    s = position(scores=[0, 250], opened=[False, True], bolts=[2, 2], rolls=[BUST, BUST],
                 values={"bolts_when_restricted": True})
    assert s.scores() == (0, 150)  # unopened seat 0: floored at 0; seat 1 in the pit counts too
    s = position(scores=[0, 250], opened=[False, True], bolts=[2, 2], rolls=[BUST, BUST])
    assert s.scores() == (0, 250) and s.bolts == [2, 2]


# ----- barrels ---------------------------------------------------------------------------------
def test_barrel_mount_three_attempts_then_fall():
    s = position(scores=[850, 100], rolls=[[4, 4, 4, 5, 2]] + [BUST] * 6)
    act(s, "stop")
    assert s.scores() == (780, 0)  # 895 -> 880; three busts: fall to 780; B's 3rd bolt 100 -> 0
    kinds = [(e["type"], e.get("seat")) for e in s.events if e["type"] in ("barrel_cap", "mount", "attempt", "fall")]
    assert kinds == [("barrel_cap", 0), ("mount", 0), ("attempt", 0), ("attempt", 0), ("attempt", 0), ("fall", 0)]
    assert of(s, "barrel_cap")[0]["amount"] == -15
    assert of(s, "fall")[0] == {"type": "fall", "seat": 0, "reason": "attempts", "falls": 1, "amount": -100,
                                "score": 780}
    assert s.on_barrel == [False, False] and s.falls == [1, 0]


def test_barrel_needs_120_in_one_turn():
    s = position(scores=[880, 100], on_barrel=[True, False], rolls=[[6, 6, 6, 2, 3], [1, 2], [5], [6, 6, 6, 2, 3]])
    rolls = last_rolls(s)
    assert [r[2] for r in rolls] == [60, 70, 75, 135] and [r[4] for r in rolls] == ["start", "must", "must", "hot"]
    act(s, "stop")
    assert s.is_terminal() and s.scores() == (1015, 100) and s.result().ranks == (1, 2)


def test_barrel_knock_off_by_mounting():
    s = position(scores=[880, 860], to_move=1, on_barrel=[True, False], attempts=[1, 0],
                 rolls=[[3, 3, 3, 2, 4], BUST])
    act(s, "stop")
    assert s.scores()[:2] == (780, 880) and s.on_barrel == [False, True]
    assert of(s, "fall")[0]["reason"] == "knocked_off"


def test_barrel_jump_over_wins():
    s = position(scores=[850, 100], rolls=[[1, 1, 1, 5, 5], [6, 6, 6, 2, 3]])
    act(s, "stop")
    assert s.is_terminal() and s.scores() == (1020, 100)
    end = s.events[-1]
    assert end == {"type": "match_end", "winner": 0, "scores": [1020, 100], "ranks": [1, 2]}
    assert s.current_player() == TERMINAL and s.legal_actions() == []


def test_knock_off_then_overtaking_d17():
    s = position(scores=[700, 880], on_barrel=[False, True],
                 rolls=[[1, 1, 1, 5, 5], [6, 6, 6, 1, 2], BUST])
    assert s.turn_total == 180
    act(s, "stop")
    assert s.scores() == (880, 730)
    assert [e["type"] for e in s.events if e.get("seat") == 1][:2] == ["fall", "overtaken"]


def test_third_fall_goes_to_zero_and_options():
    s = position(scores=[880, 100], on_barrel=[True, False], attempts=[2, 0], falls=[2, 0], rolls=[BUST, BUST])
    assert s.scores()[0] == 0 and s.falls == [3, 0]
    s = position(scores=[880, 100], on_barrel=[True, False], attempts=[0, 0], rolls=[BUST, BUST],
                 values={"barrel_attempts": 1, "barrel_fall_penalty": 30})
    assert s.scores()[0] == 850
    s = position(scores=[880, 100], on_barrel=[True, False], attempts=[2, 0], falls=[2, 0], rolls=[BUST, BUST],
                 values={"barrel_falls_to_zero": 0})
    assert s.scores()[0] == 780
    s = position(scores=[880, 100], on_barrel=[True, False], attempts=[0, 0], rolls=[BUST, BUST],
                 values={"barrel_attempts": 0})
    assert s.scores()[0] == 880 and s.attempts == [1, 0]  # unlimited attempts


def test_barrel_threshold_option_and_none():
    s = position(scores=[800, 0], rolls=[[6, 6, 6, 2, 3], BUST], values={"barrel_threshold": 850})
    act(s, "stop")
    assert s.scores() == (850, 0) and s.on_barrel == [True, False]
    s = position(scores=[850, 0], rolls=[[4, 4, 4, 5, 2], BUST], values={"barrel": "none"})
    act(s, "stop")
    assert s.scores() == (895, 0) and s.on_barrel == [False, False]


def test_bolt_on_the_barrel_when_restricted_counts():
    s = position(scores=[880, 100], on_barrel=[True, False], bolts=[2, 0], rolls=[BUST, BUST],
                 values={"bolts_when_restricted": True})
    assert s.scores()[0] == 780 and s.on_barrel == [False, False]
    assert [e["type"] for e in s.events if e.get("seat") == 0 and e["type"] != "roll"][1:3] == ["bolt", "leave_barrel"]


def test_open_barrel_exact_1000_and_points():
    v = {"barrel": "open"}
    s = position(scores=[900, 0], rolls=[[1, 1, 1, 2, 3], BUST], values=v)
    act(s, "stop")
    assert s.is_terminal() and s.scores() == (1000, 0)
    s = position(scores=[950, 0], rolls=[[1, 1, 1, 2, 3], BUST], values=v)
    assert s.scores() == (950, 0) and s.open_points == [1, 0]
    assert of(s, "turn_end")[0]["outcome"] == "overshoot" and of(s, "bolt") == []
    s = position(scores=[950, 0], open_points=[5, 0], rolls=[[1, 1, 1, 2, 3], BUST], values=v)
    assert s.scores() == (0, 0) and s.open_points == [0, 0]
    s = position(scores=[950, 0], open_points=[2, 0], rolls=[[1, 1, 1, 2, 3], BUST],
                 values={"barrel": "open", "open_barrel_points_limit": 3})
    assert s.scores() == (0, 0)
    # not yet opened: 1000 from 0 is exactly 1000; more is a point
    s = position(scores=[0, 0], rolls=[[1, 1, 1, 1, 1], [1, 2, 3, 4, 6], BUST], values=v)
    assert s.scores() == (0, 0) and s.open_points == [1, 0]


def test_set_b_entry_score_knock_off_and_win():
    v = {"variant": "B75_850"}
    s = position(scores=[0, 0], rolls=[[6, 6, 6, 2, 3], [1, 1], [5, 5, 2, 3, 4], BUST], values=v)
    assert s.turn_total == 90
    act(s, "stop")
    assert s.entry == [90, 0]
    s = position(scores=[800, 800], entry=[90, 75], rolls=[[6, 6, 6, 2, 3], [1, 2], [3, 3, 3, 2, 4]], values=v)
    act(s, "roll")
    act(s, "stop")  # 800 + 70 = 870 -> 850, on the barrel
    assert s.scores() == (850, 800) and s.on_barrel == [True, False]
    # seat 1: 30 with 2 left (stop legal in set B: no pits) -> 830; use 50 instead
    s = position(scores=[850, 800], entry=[90, 75], on_barrel=[True, False], to_move=1,
                 rolls=[[5, 5, 5, 2, 3], BUST], values=v)
    act(s, "stop")
    assert s.scores() == (90, 850) and s.on_barrel == [False, True]
    assert of(s, "fall")[0] == {"type": "fall", "seat": 0, "reason": "knocked_off", "falls": 1,
                                "amount": -760, "score": 90}
    s = position(scores=[850, 800], on_barrel=[True, False], rolls=[[1, 1, 1, 5, 5], [4, 4, 4, 2, 3]], values=v)
    assert s.turn_total == 150
    act(s, "stop")
    assert s.is_terminal() and s.scores() == (1000, 800)


def test_set_b_unlimited_attempts_no_bolts_no_overtaking():
    v = {"variant": "B75_850"}
    s = position(scores=[850, 100], on_barrel=[True, False], attempts=[5, 0], rolls=[BUST, BUST], values=v)
    assert s.scores() == (850, 100) and s.attempts == [6, 0] and of(s, "bolt") == []
    s = position(n=3, scores=[180, 200, 505], rolls=[[6, 6, 6, 2, 3], [1, 2], BUST], values=v)
    act(s, "roll")
    act(s, "stop")
    assert s.scores() == (250, 200, 505)


# ----- options ---------------------------------------------------------------------------------
DEFAULTS_A = {"variant": "A", "open_min": 75, "pits": PITS_A, "overtake_penalty": 50, "dump_truck": 555,
              "bolts_per_penalty": 3, "bolt_penalty": 100, "bolts_when_restricted": False,
              "bolt_streak": "cumulative", "floor_at_zero": True, "barrel": "points",
              "barrel_threshold": 880, "barrel_attempts": 3, "barrel_fall_penalty": 100,
              "barrel_falls_to_zero": 3, "open_barrel_points_limit": 6, "straights": False,
              "max_rounds": 1000}
PRESET_B = {"open_min": 75, "pits": (), "overtake_penalty": 0, "dump_truck": 0, "bolts_per_penalty": 0,
            "barrel": "entry_reset", "barrel_threshold": 850, "barrel_attempts": 0, "floor_at_zero": True,
            "straights": False}


def test_defaults_are_rule_set_a():
    o = GAME.make_options(2)
    assert {k: getattr(o, k) for k in DEFAULTS_A} == DEFAULTS_A


def test_preset_b():
    o = GAME.make_options(4, {"variant": "B75_850"})
    assert {k: getattr(o, k) for k in PRESET_B} == PRESET_B


@pytest.mark.parametrize("name, text, value", [
    ("open_min", "50", 50), ("pits", "200-300", ((200, 300),)), ("pits", "none", ()),
    ("overtake_penalty", "25", 25), ("dump_truck", "0", 0), ("bolts_per_penalty", "4", 4),
    ("bolt_penalty", "50", 50), ("bolts_when_restricted", "true", True),
    ("bolt_streak", "consecutive", "consecutive"), ("floor_at_zero", "false", False),
    ("barrel", "open", "open"), ("barrel", "none", "none"), ("barrel_threshold", "900", 900),
    ("barrel_attempts", "5", 5), ("barrel_fall_penalty", "50", 50), ("barrel_falls_to_zero", "2", 2),
    ("open_barrel_points_limit", "3", 3), ("straights", "on", True), ("max_rounds", "10", 10),
])
@pytest.mark.parametrize("variant", ["A", "B75_850"])
def test_every_option_alone_on_top_of_each_preset(name, text, value, variant):
    o = GAME.make_options(3, {"variant": variant, name: text})
    assert getattr(o, name) == value
    base = GAME.make_options(3, {"variant": variant})
    for other in DEFAULTS_A:
        if other not in (name, "variant"):
            assert getattr(o, other) == getattr(base, other), other
    assert options_from_dict(GAME, options_to_dict(o)) == o


def test_pits_from_toml_list():
    assert GAME.make_options(2, {"pits": [[600, 700], [200, 300]]}).pits == PITS_A
    assert GAME.make_options(2, {"pits": []}).pits == ()


@pytest.mark.parametrize("values, words", [
    ({"pits": "300-200"}, "'pits'"), ({"pits": "200-300,250-400"}, "'pits'"),
    ({"pits": "abc"}, "'pits'"), ({"pits": [[1, 2, 3]]}, "'pits'"),
    ({"pits": "850-900"}, "'barrel_threshold'"), ({"barrel_threshold": 1000}, "'barrel_threshold'"),
    ({"open_min": -5}, "'open_min'"), ({"max_rounds": 0}, "'max_rounds'"),
    ({"barrel": "keg"}, "'barrel'"), ({"variant": "C"}, "'variant'"), ({"bolt_penalty": -1}, "'bolt_penalty'"),
    ({"open_barrel_points_limit": 0}, "'open_barrel_points_limit'"),
])
def test_invalid_options_one_line(values, words):
    with pytest.raises(OptionError) as err:
        GAME.make_options(2, values)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_player_counts():
    assert GAME.player_counts == tuple(range(2, 9))
    with pytest.raises(OptionError):
        GAME.make_options(9)


# ----- the length cap --------------------------------------------------------------------------
def test_capped_match_ranks_by_score_ties_shared():
    o = GAME.make_options(3, {"max_rounds": 1})
    s = Dice1000State.from_position(o, to_move=1, scores=[120, 50, 120],
                                    chance=Script([6, 6, 6, 2, 3], BUST, BUST, BUST))
    act(s, "stop")
    assert s.is_terminal()
    assert s.scores() == (120, 110, 120)
    assert of(s, "capped") == [{"type": "capped", "rounds": 1}]
    assert s.result().ranks == (1, 3, 1)
    assert s.events[-1]["winner"] is None
    assert GAME.length_cap(o) == 1 and GAME.length_unit == "rounds"


def test_a_long_run_of_turns_without_a_choice_is_no_recursion():
    """open_min=1000: nobody is ever asked; the match runs to the cap in a loop."""
    o = GAME.make_options(8, {"open_min": 1000, "max_rounds": 300})
    s = GAME.new_match(o, 1)
    assert s.is_terminal() and of(s, "capped") == [{"type": "capped", "rounds": 300}]
    assert of(s, "action") == []


def test_random_play_always_finishes():
    for n in (2, 8):
        o = GAME.make_options(n)
        for seed in range(20):
            s = GAME.new_match(o, seed)
            rng = random.Random(seed)
            while not s.is_terminal():
                s.apply(rng.choice(s.legal_actions()))
            assert max(s.scores()) >= 1000 or of(s, "capped")


# ----- interface details -----------------------------------------------------------------------
def test_illegal_actions():
    s = position(scores=[100, 0], rolls=[[1, 5, 3, 3, 4], BUST])
    for bad in ("", "Roll", "pass", None, 3):
        with pytest.raises(IllegalActionError):
            s.apply(bad)


def test_decisions_are_only_real_choices_and_match_action_events():
    o = GAME.make_options(4)
    s = GAME.new_match(o, 5)
    rng = random.Random(5)
    chosen = []
    while not s.is_terminal():
        assert s.legal_actions() == ["roll", "stop"]
        a = rng.choice(s.legal_actions())
        chosen.append(a)
        s.apply(a)
    assert [e["action"] for e in of(s, "action")] == chosen
    assert GAME.chance_events == {"first", "roll"}


def test_observation_is_compact_and_sample_state_rebuilds_it():
    o = GAME.make_options(3)
    s = GAME.new_match(o, 9)
    rng = random.Random(9)
    sizes = []
    while not s.is_terminal():
        obs = s.observation(1)
        sizes.append(len(repr({k: v for k, v in obs.items() if k != "turn"})))
        copy = GAME.sample_state(o, obs, random.Random(len(sizes)))
        assert copy.observation(1) == obs
        assert copy.legal_actions() == s.legal_actions()
        copy.apply("roll")  # plays on
        s.apply(rng.choice(s.legal_actions()))
    assert max(sizes) < 600
    obs = s.observation(0)
    assert GAME.sample_state(o, obs, random.Random(1)).observation(0) == obs
    assert GAME.sample_state(o, obs, random.Random(1)).is_terminal()


def test_clone_rolls_the_same_dice():
    s = GAME.new_match(GAME.make_options(2), 3)
    c = s.clone()
    act(s, "roll")
    c.apply("roll")
    assert s.events == c.events


# ----- duplicate luck on the real game ----------------------------------------------------------
def turn_faces(state):
    """{(seat, k): every face the seat's k-th turn rolled, in order}."""
    out: dict[tuple[int, int], list[int]] = {}
    key = None
    for e in state.events:
        if e["type"] == "turn":
            key = (e["seat"], e["turn"])
            out[key] = []
        elif e["type"] == "roll":
            out[key].extend(e["faces"])
    return out


@pytest.mark.parametrize("n", [2, 3, 5])
def test_duplicate_luck_same_dice_per_seat_and_turn(n):
    o = GAME.make_options(n)
    for seed in range(10):
        matches = []
        for policy in (0.3, 0.8):  # two bots that differ only in where they stop
            s = GAME.new_match(o, seed)
            rng = random.Random(f"policy {policy} {seed}")
            while not s.is_terminal():
                s.apply("stop" if rng.random() < policy else "roll")
            matches.append(s)
        a, b = (turn_faces(m) for m in matches)
        assert of(matches[0], "first") == of(matches[1], "first")
        common = set(a) & set(b)
        assert len(common) >= 10
        differ = 0
        for key in common:
            x, y = a[key], b[key]
            short = min(len(x), len(y))
            assert x[:short] == y[:short], key  # the same faces; only how many were used differs
            differ += len(x) != len(y)
        assert differ > 0


def test_sample_state_draws_the_future_from_the_bots_rng():
    o = GAME.make_options(2)
    s = GAME.new_match(o, 21)
    obs = s.observation(s.current_player())
    futures = set()
    for k in range(6):
        copy = GAME.sample_state(o, obs, random.Random(k))
        copy.apply("roll")
        futures.add(tuple(next(e for e in copy.events if e["type"] == "roll")["faces"]))
    s.apply("roll")
    true_next = tuple(next(e for e in s.events if e["type"] == "roll" and e["by"] == "choice")["faces"])
    assert len(futures) > 1
    assert futures != {true_next}
