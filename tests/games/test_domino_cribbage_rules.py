"""Domino Cribbage against its settled rules (domino-cribbage.md; docs/games/domino-cribbage.md):
every worked example of §9 with its exact numbers, every option of §2 with its default, the
deal, the discard's secrecy, go's, 31, the last tile, the show's order, the end of the match the
moment a player reaches the target, the length cap and its ranking, duplicate luck, and
``sample_state``.

Positions are built by hand with ``position(...)``: the two hands of four tiles that each seat
keeps (non-dealer's, dealer's), the starter, and the dealer; each seat's two crib tiles are taken
from tiles used nowhere else unless given. Tiles are written ``"2-3 5-5"``.
"""
from __future__ import annotations

import random
from collections import Counter

import msgpack
import pytest

from arena.errors import IllegalActionError, OptionError
from arena.game import TERMINAL
from arena.games import get_game
from arena.games.domino_cribbage.scoring import peg_items, peg_points, show_items, show_points
from arena.games.domino_cribbage.state import DominoCribbageState
from arena.games.domino_cribbage.tiles import DISCARDS, INDEX, N_TILES, VALUE, discard_text, parse_tile, parse_tiles

GAME = get_game("domino-cribbage")


def opts(**values):
    return GAME.make_options(2, values)


def position(non: str, dealer_hand: str, starter: str, dealer: int = 1, scores=None,
             crib: tuple[str, str] | None = None, seed: int = 0, **values) -> DominoCribbageState:
    """A hand about to be played: both seats have discarded, the starter is turned (heels, if
    any, scored), and the non-dealer is to play its first tile."""
    kept = {dealer ^ 1: parse_tiles(non), dealer: parse_tiles(dealer_hand)}
    s = parse_tile(starter)
    used = set(kept[0]) | set(kept[1]) | {s}
    spare = [t for t in range(N_TILES) if t not in used]
    if crib is not None:
        discards = {dealer ^ 1: parse_tiles(crib[0]), dealer: parse_tiles(crib[1])}
    else:
        discards = {dealer ^ 1: spare[:2], dealer: spare[2:4]}
    hands = [kept[seat] + discards[seat] for seat in (0, 1)]
    assert len(set(hands[0]) | set(hands[1]) | {s}) == 13, "a tile is used twice"
    state = DominoCribbageState.from_position(opts(**values), hands, dealer, s, scores=scores,
                                              seed=seed)
    state.apply(discard_text(*discards[dealer ^ 1]))
    state.apply(discard_text(*discards[dealer]))
    return state


def scores_of(state, reasons=("play", "go", "last tile")) -> list[tuple[int, str, int]]:
    """(seat, reason, points) of the score events with one of ``reasons``, in order."""
    return [(e["seat"], e["reason"], e["points"]) for e in state.events
            if e["type"] == "score" and e["reason"] in reasons]


def play(state, *tiles: str) -> None:
    for t in tiles:
        state.apply(t)


def events_of(state, kind: str) -> list[dict]:
    return [e for e in state.events if e["type"] == kind]


# ----- §1 tiles and notation -------------------------------------------------------------------
def test_tile_values_and_counts_per_total():
    per_total = Counter(VALUE)
    assert dict(sorted(per_total.items())) == {0: 1, 1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4, 7: 3,
                                               8: 3, 9: 2, 10: 2, 11: 1, 12: 1}
    assert parse_tile("4-1") == parse_tile("[1|4]") == INDEX["1-4"]
    with pytest.raises(ValueError):
        parse_tile("7-1")


def test_discard_text_is_canonical():
    assert discard_text(parse_tile("5-5"), parse_tile("1-4")) == "discard 1-4 5-5"
    assert len(DISCARDS) == 28 * 27 // 2
    state = GAME.new_match(opts(), 3)
    legal = state.legal_actions()
    assert len(legal) == 15 and len(set(legal)) == 15
    for action in legal:
        a, b = action.split()[1:]
        assert INDEX[a] < INDEX[b]
    assert legal == sorted(legal, key=lambda a: DISCARDS[a])


# ----- §9.1 the show ---------------------------------------------------------------------------
SHOW_ROWS = [
    # hand, starter, fifteens, pairs, runs, doubles, total
    ("2-3 5-5 4-6 1-4", "0-5", 14, 8, 0, 1, 23),
    ("3-3 2-4 1-5 0-6", "2-5", 0, 12, 0, 1, 13),
    ("1-2 2-2 0-5 3-3", "4-4", 4, 0, 4, 3, 11),
    ("0-0 0-1 1-1 6-6", "3-6", 4, 0, 3, 3, 10),
    ("5-6 4-4 0-0 1-2", "6-6", 4, 0, 0, 3, 7),
    ("1-3 0-5 2-3 2-4", "4-5", 6, 2, 6, 0, 14),
    ("2-5 3-4 1-6 0-0", "1-1", 0, 6, 0, 2, 8),
]


@pytest.mark.parametrize("hand, starter, fifteens, pairs, runs, doubles, total", SHOW_ROWS)
def test_show_worked_examples(hand, starter, fifteens, pairs, runs, doubles, total):
    items = show_items(parse_tiles(hand), parse_tile(starter))
    by_kind = Counter()
    for item in items:
        by_kind[item["kind"]] += item["points"]
        assert all(t in hand.split() + [starter] for t in item["tiles"])
    assert (by_kind["fifteen"], by_kind["pair"], by_kind["run"], by_kind["double"]) == (
        fifteens, pairs, runs, doubles)
    assert show_points(parse_tiles(hand), parse_tile(starter)) == total


def test_show_items_name_each_combination():
    items = show_items(parse_tiles("2-3 5-5 4-6 1-4"), parse_tile("0-5"))
    fifteens = [sorted(i["tiles"]) for i in items if i["kind"] == "fifteen"]
    assert len(fifteens) == 7  # 6 x "5+10" and 1 x "5+5+5"
    assert sorted(["0-5", "1-4", "2-3"]) in fifteens
    runs = [i for i in show_items(parse_tiles("1-3 0-5 2-3 2-4"), parse_tile("4-5")) if i["kind"] == "run"]
    assert [r["points"] for r in runs] == [3, 3]  # the double run 4-5-6 is two runs of 3


def test_zero_tile_doubles_every_show_fifteen():
    """rule C-7 (a): [0|0] makes a twin of every fifteen without it: 5+10 and 10+2+3, each with
    and without the zero."""
    items = show_items(parse_tiles("2-3 4-6 1-1 0-0"), parse_tile("1-2"))
    fifteens = sorted(sorted(i["tiles"]) for i in items if i["kind"] == "fifteen")
    assert fifteens == sorted([["2-3", "4-6"], ["0-0", "2-3", "4-6"], ["1-1", "1-2", "4-6"],
                               ["0-0", "1-1", "1-2", "4-6"]])


def test_show_options_double_bonus_and_starter_double():
    hand, starter = parse_tiles("5-6 4-4 0-0 1-2"), parse_tile("6-6")
    assert show_points(hand, starter) == 7
    assert show_points(hand, starter, double_bonus=3) == 4 + 3 * 3
    assert show_points(hand, starter, double_bonus=1, starter_double_counts=False) == 6
    assert show_points(hand, starter, double_bonus=0) == 4


# ----- §9.2–§9.4 pegging sequences -------------------------------------------------------------
def test_pegging_sequence_a_fifteen_pair_go_31():
    state = position("2-3 4-6 3-4 0-4", "5-5 1-4 2-6 6-6", "0-1", starter_in_pegging_count=False)
    N, D = 0, 1
    counts = []
    for tile in ["2-3", "5-5", "4-6", "1-4", "3-4", "2-6", "0-4", "6-6"]:
        state.apply(tile)
        counts.append(state.events[[i for i, e in enumerate(state.events) if e["type"] == "action"][-1]]["count"])
    assert counts == [5, 15, 25, 30, 7, 15, 19, 31]
    assert scores_of(state) == [(D, "play", 2), (N, "play", 2), (D, "go", 1), (D, "play", 2), (D, "play", 2)]
    assert [(e["seat"], e["count"]) for e in events_of(state, "go")] == [(N, 30), (D, 30)]
    pegged = [sum(p for s, _, p in scores_of(state) if s == seat) for seat in (N, D)]
    assert pegged == [2, 7]
    last = [e for e in state.events if e["type"] == "score" and e["reason"] == "play"][-1]
    assert last["items"] == [{"kind": "thirty-one", "points": 2}]
    assert not any(e["reason"] == "last tile" for e in events_of(state, "score"))  # 31 is the last tile


def test_pegging_sequence_b_runs():
    state = position("2-3 0-6 1-3 5-6", "3-4 2-6 1-5 0-3", "0-1", starter_in_pegging_count=False)
    play(state, "2-3", "3-4", "0-6", "2-6", "1-3")
    # then neither can play at 30: the non-dealer scores the go
    assert scores_of(state) == [(0, "play", 3), (1, "play", 4), (0, "play", 5), (0, "go", 1)]
    runs = [e["items"] for e in events_of(state, "score")[:3]]
    assert runs == [[{"kind": "run", "length": n, "points": n}] for n in (3, 4, 5)]


@pytest.mark.parametrize("values, points", [
    ([4, 6, 5], [0, 0, 5]),
    ([4, 6, 5, 3, 7, 6], [0, 0, 5, 4, 5, 2]),
    ([5, 7, 6, 8, 4], [0, 0, 3, 4, 5]),
    ([3, 4, 4, 6], [0, 0, 2, 0]),       # a repeated value ends the run search: 3-4-6 is no run
    ([2, 3, 4, 4, 5], [0, 0, 3, 2, 0]),  # 3-4-5 after a pair: the last three are 4, 4, 5
    ([1, 2, 3], [0, 0, 3]), ([3, 1, 2], [0, 0, 3]), ([0, 1, 3], [0, 0, 0]),
])
def test_pegging_runs_in_any_order(values, points):
    got = [peg_points(values[:i + 1], sum(values[:i + 1])) for i in range(len(values))]
    assert got == points


def test_pegging_run_chain_through_the_engine():
    state = position("0-4 1-4 3-4 6-6", "0-6 1-2 2-4 5-6", "0-1", starter_in_pegging_count=False)
    play(state, "0-4", "0-6", "1-4", "1-2", "3-4", "2-4")
    assert scores_of(state) == [(0, "play", 5), (1, "play", 4), (0, "play", 5), (1, "play", 2)]


def test_default_mode_starter_opens_the_count_fifteen():
    state = position("5-5 0-1 0-2 1-1", "6-6 5-6 4-6 3-6", "2-3")
    assert state.observation(0)["count"] == 5 and state.observation(0)["sequence"] == ["2-3"]
    state.apply("5-5")
    assert state.events[-2]["count"] == 15
    assert scores_of(state) == [(0, "play", 2)]
    assert state.events[-1]["items"] == [{"kind": "fifteen", "points": 2}]


def test_default_mode_pair_with_the_starter():
    state = position("0-5 0-1 0-2 1-1", "6-6 5-6 4-6 3-6", "2-3")
    state.apply("0-5")
    assert scores_of(state) == [(0, "play", 2)]
    assert state.events[-1]["items"] == [{"kind": "pair", "points": 2}]


def test_default_mode_run_with_the_starter():
    state = position("3-4 0-1 0-2 1-1", "1-5 5-6 4-6 3-6", "2-3")
    play(state, "3-4", "1-5")
    assert scores_of(state) == [(1, "play", 3)]
    assert state.events[-2]["count"] == 18


def test_starter_scores_for_nobody_and_later_counts_start_at_zero():
    state = position("6-6 5-6 4-6 0-0", "5-5 4-5 3-6 2-6", "0-6")
    assert state.count == 6
    play(state, "6-6", "3-6")  # 6+12 = 18, 27
    assert scores_of(state) == []
    assert state.current_player() == 0 and state.legal_actions() == ["0-0"]  # 27: only the 0 fits
    state.apply("0-0")  # 27; the dealer has nothing under 4: go, the non-dealer cannot either
    assert [(e["seat"], e["count"]) for e in events_of(state, "go")] == [(1, 27), (0, 27)]
    assert scores_of(state) == [(0, "go", 1)]
    assert state.count == 0 and state.seq == []


# ----- §5 go, 31, leader after a reset, last tile ----------------------------------------------
def test_go_is_automatic_and_going_on_is_compulsory():
    state = position("6-6 5-6 0-1 0-2", "5-5 4-6 3-6 2-6", "1-1", starter_in_pegging_count=False)
    play(state, "6-6", "5-5", "0-1")  # 12, 22, 23
    # dealer holds 10, 9, 8: 23 + 8 = 31 fits
    assert state.legal_actions() == ["2-6"]
    state.apply("2-6")  # 31: +2, reset, the non-dealer leads
    assert scores_of(state)[-1] == (1, "play", 2)
    assert events_of(state, "reset")[-1]["leader"] == 0
    play(state, "5-6")  # 11
    state.apply("4-6")  # 21; the non-dealer has 0-2 (2): 23
    state.apply("0-2")  # 23; the dealer's 3-6 (9) would make 32: go; the non-dealer has nothing left
    assert [(e["seat"], e["count"]) for e in events_of(state, "go")] == [(1, 23)]
    assert scores_of(state)[-1] == (0, "go", 1)
    assert events_of(state, "reset")[-1]["leader"] == 1
    state.apply("3-6")  # the last tile: 1 for last
    assert scores_of(state)[-1] == (1, "last tile", 1)


def test_leader_continues_when_the_opponent_is_out_of_tiles():
    state = position("6-6 5-6 4-6 3-6", "0-0 0-1 0-2 1-1", "2-2", starter_in_pegging_count=False,
                     heels_points=0)
    play(state, "6-6", "0-0", "5-6", "0-1", "0-2")  # 12, 12, 23, 24, 26: non-dealer can't play 10
    # the dealer played 0-2 at 26, then the non-dealer said go, the dealer went on with 1-1
    assert state.current_player() == 1 and state.legal_actions() == ["1-1"]
    state.apply("1-1")  # 28: the dealer is out of tiles, the non-dealer can't play: dealer's go
    assert scores_of(state)[-1] == (1, "go", 1)
    assert events_of(state, "reset")[-1]["leader"] == 0
    play(state, "4-6")
    # the dealer holds nothing: the non-dealer goes on alone, with no go logged for the dealer
    assert state.current_player() == 0
    state.apply("3-6")  # 19, the last tile
    assert scores_of(state)[-1] == (0, "last tile", 1)
    assert all(e["seat"] == 0 for e in events_of(state, "go"))


def test_zero_tile_rescores_fifteen_option():
    for rescore, expected in ((True, 2), (False, 0)):
        state = position("5-5 0-0 6-6 5-6", "2-3 1-1 4-6 3-6", "0-1", starter_in_pegging_count=False,
                         zero_tile_rescores_15=rescore)
        play(state, "5-5", "2-3", "0-0")  # 10, 15 (+2 dealer), 15 again
        assert [p for s, _, p in scores_of(state) if s == 0] == ([expected] if expected else [])
    assert peg_items([10, 5, 0], 15, True) == [{"kind": "fifteen", "points": 2}]
    assert peg_items([10, 5, 0], 15, False) == []


def test_pair_royal_and_double_pair_royal():
    assert peg_points([6, 6], 12) == 2
    assert peg_points([3, 6, 6, 6], 21) == 6
    assert peg_points([6, 6, 6, 6], 24) == 12
    state = position("0-6 1-5 0-1 0-2", "2-4 3-3 1-1 1-2", "4-5", starter_in_pegging_count=False)
    play(state, "0-6", "2-4", "1-5", "3-3")
    assert scores_of(state) == [(1, "play", 2), (0, "play", 6), (1, "play", 12)]


def test_an_eight_tile_run_is_possible():
    """rule C-4: no cap on the run length."""
    assert peg_points([0, 1, 2, 3, 4, 5, 6, 7], 28) == 8


# ----- §4 deal, discard secrecy, starter, heels ------------------------------------------------
def test_deal_non_dealer_discards_first_and_sees_nothing_of_the_other():
    state = GAME.new_match(opts(), 11)
    deal = events_of(state, "deal")[0]
    dealer = deal["dealer"]
    non = dealer ^ 1
    assert events_of(state, "first_dealer")[0]["dealer"] == dealer
    assert all(len(h) == 6 for h in deal["hands"])
    assert state.current_player() == non
    non_action = state.legal_actions()[0]
    state.apply(non_action)
    assert state.current_player() == dealer
    mine = set(non_action.split()[1:])
    obs = state.observation(dealer)
    text = msgpack.packb(obs)
    assert obs["starter"] is None and obs["discard"] is None and obs["crib_size"] == 2
    assert not any(t.encode() in text for t in mine)
    assert state.private_items(non) >= mine
    dealer_action = state.legal_actions()[-1]
    state.apply(dealer_action)
    obs_non = state.observation(non)
    assert not set(dealer_action.split()[1:]) & set(map(str, msgpack.unpackb(msgpack.packb(obs_non))["plays"]))
    assert not any(t.encode() in msgpack.packb(obs_non) for t in dealer_action.split()[1:])
    assert obs_non["starter"] is not None
    crib = events_of(state, "crib")[0]
    assert sorted(crib["tiles"]) == sorted(non_action.split()[1:] + dealer_action.split()[1:])
    starter = events_of(state, "starter")[0]
    assert starter["tile"] not in deal["hands"][0] + deal["hands"][1]


def test_heels_when_the_starter_is_a_double():
    state = position("5-6 4-4 0-0 1-2", "2-3 1-4 0-5 1-3", "6-6", dealer=0)
    heels = [e for e in events_of(state, "score") if e["reason"] == "heels"]
    assert heels == [{"type": "score", "seat": 0, "reason": "heels", "points": 2, "scores": [2, 0]}]
    state2 = position("5-6 4-4 0-0 1-2", "2-3 1-4 0-5 1-3", "6-6", dealer=0, heels_points=5)
    assert state2.scores() == (5, 0)
    state3 = position("5-6 4-4 0-0 1-2", "2-3 1-4 0-5 1-3", "6-6", dealer=0, heels_points=0)
    assert state3.scores() == (0, 0)


def test_heels_can_win_the_match():
    state = position("5-6 4-4 0-0 1-2", "2-3 1-4 0-5 1-3", "6-6", dealer=1, scores=[100, 119])
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.result().ranks == (2, 1) and state.scores() == (100, 121)
    assert state.events[-1]["type"] == "match_end"


# ----- §6 the show order and §7 winning at once -------------------------------------------------
def test_show_order_non_dealer_hand_dealer_hand_crib():
    # §9.1 rows 1 and 6 as the two hands; starter 4-5 would not fit row 1, so use row 2's idea
    state = position("2-3 5-5 4-6 1-4", "1-3 2-4 3-6 0-2", "0-5", dealer=1,
                     crib=("0-0 6-6", "1-1 2-2"), starter_in_pegging_count=False)
    while events_of(state, "hand_end") == []:
        state.apply(state.legal_actions()[0])
    shows = [e for e in events_of(state, "score") if e["reason"] in ("hand", "crib")]
    assert [(e["seat"], e["reason"]) for e in shows] == [(0, "hand"), (1, "hand"), (1, "crib")]
    assert shows[0]["points"] == 23 and shows[0]["tiles"] == ["1-4", "2-3", "4-6", "5-5"]
    assert shows[2]["tiles"] == ["0-0", "1-1", "2-2", "6-6"]
    assert shows[2]["points"] == show_points(parse_tiles("0-0 1-1 2-2 6-6"), parse_tile("0-5"))
    for e in shows:
        assert e["points"] == sum(i["points"] for i in e["items"])
    end = events_of(state, "hand_end")[0]
    assert end["scores"] == list(state.scores())
    assert sum(e["points"] for e in events_of(state, "score")) == sum(state.scores())


def test_match_ends_the_moment_the_target_is_reached_mid_play():
    state = position("5-5 0-1 0-2 1-1", "6-6 5-6 4-6 3-6", "2-3", scores=[119, 0])
    state.apply("5-5")  # fifteen with the starter: 121
    assert state.is_terminal() and state.scores() == (121, 0)
    assert [e["type"] for e in state.events[-3:]] == ["action", "score", "match_end"]
    assert state.result().ranks == (1, 2)
    assert state.legal_actions() == [] and state.current_player() == TERMINAL


def test_a_whole_award_is_added_past_the_target():
    state = position("2-3 0-6 1-3 5-6", "3-4 2-6 1-5 0-3", "0-1", scores=[119, 0],
                     starter_in_pegging_count=False)
    play(state, "2-3", "3-4", "0-6")  # a run of 3 from 119: the whole 3 is added
    assert state.is_terminal() and state.scores() == (122, 0)


def test_match_ends_in_the_show_in_order():
    # the non-dealer's hand is counted first and wins, though the dealer's hand is bigger
    state = position("2-3 5-5 4-6 1-4", "1-3 2-4 3-6 0-2", "0-5", dealer=1, scores=[105, 120],
                     crib=("0-0 6-6", "1-1 2-2"), starter_in_pegging_count=False)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert state.result().ranks[0] == 1 or state.scores()[1] >= 121  # pegging may win it first
    last_score = events_of(state, "score")[-1]
    assert state.scores()[last_score["seat"]] >= 121


def test_target_takes_any_positive_integer():
    for target in (1, 5, 61, 121, 1000):
        assert opts(target=target).target == target
        state = GAME.new_match(opts(target=target), 2)
        rng = random.Random(0)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        assert max(state.scores()) >= target
        assert state.result().ranks in ((1, 2), (2, 1))


# ----- dealer alternation, cap, duplicate luck ---------------------------------------------------
def test_dealer_alternates_and_hand_numbers_count():
    state = GAME.new_match(opts(target=1000), 4)
    rng = random.Random(4)
    while len(events_of(state, "deal")) < 5:
        state.apply(rng.choice(state.legal_actions()))
    deals = events_of(state, "deal")
    first = deals[0]["dealer"]
    assert [d["dealer"] for d in deals] == [first, first ^ 1, first, first ^ 1, first]
    assert [d["hand"] for d in deals] == [1, 2, 3, 4, 5]


def test_first_dealer_lottery_is_fair():
    dealers = Counter(GAME.new_match(opts(), seed).dealer for seed in range(400))
    assert 160 < dealers[0] < 240


def test_length_cap_ranks_by_score_then_the_non_dealer():
    o = opts(target=100000, max_deals=3)
    assert GAME.length_cap(o) == 3
    state = GAME.new_match(o, 9)
    rng = random.Random(9)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert len(events_of(state, "deal")) == 3
    capped = events_of(state, "capped")
    assert capped == [{"type": "capped", "deals": 3, "scores": list(state.scores())}]
    assert state.events[-1]["type"] == "match_end"
    result = state.result()
    a, b = state.scores()
    if a != b:
        assert result.ranks == ((1, 2) if a > b else (2, 1))
    # a tie goes to the non-dealer of the last hand
    state._scores = [50, 50]
    non = state.dealer ^ 1
    assert state.result().ranks[non] == 1 and state.result().ranks[non ^ 1] == 2


def test_duplicate_matches_share_every_hand_and_starter():
    o = opts(target=300)
    runs = []
    for policy_seed in (1, 2):
        state = GAME.new_match(o, 77)
        rng = random.Random(policy_seed)
        while not state.is_terminal() and len(events_of(state, "deal")) < 6:
            state.apply(rng.choice(state.legal_actions()))
        runs.append(state)
    a, b = runs
    assert [e["type"] for e in a.events] != [e["type"] for e in b.events]  # they played differently
    n = min(len(events_of(a, "starter")), len(events_of(b, "starter")))
    assert n >= 4
    assert events_of(a, "first_dealer") == events_of(b, "first_dealer")
    assert events_of(a, "deal")[:n] == events_of(b, "deal")[:n]
    assert events_of(a, "starter")[:n] == events_of(b, "starter")[:n]


# ----- §2 options ------------------------------------------------------------------------------
def test_option_defaults():
    o = opts()
    assert (o.num_players, o.target, o.heels_points, o.show_double_bonus,
            o.starter_double_counts_in_show, o.starter_in_pegging_count, o.zero_tile_rescores_15,
            o.max_deals) == (2, 121, 2, 1, True, True, True, 200)
    assert GAME.player_counts == (2,) and not GAME.can_draw


@pytest.mark.parametrize("values, message", [
    ({"target": 0}, "option 'target'"),
    ({"target": -5}, "option 'target'"),
    ({"heels_points": -1}, "option 'heels_points'"),
    ({"show_double_bonus": -1}, "option 'show_double_bonus'"),
    ({"max_deals": 0}, "option 'max_deals'"),
    ({"starter_double_counts_in_show": False, "show_double_bonus": 0},
     "options 'starter_double_counts_in_show' = false and 'show_double_bonus' = 0"),
    ({"target": "x"}, "option 'target'"),
    ({"nobs": 1}, "unknown option 'nobs'"),
])
def test_bad_options_get_one_clear_line(values, message):
    with pytest.raises(OptionError) as info:
        opts(**values)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_three_players_are_refused():
    with pytest.raises(OptionError):
        GAME.make_options(3)


def test_options_from_text():
    o = GAME.make_options(2, {"target": "61", "starter_in_pegging_count": "false",
                              "zero_tile_rescores_15": "no", "heels_points": "3",
                              "show_double_bonus": "2", "starter_double_counts_in_show": "false",
                              "max_deals": "50"})
    assert (o.target, o.starter_in_pegging_count, o.zero_tile_rescores_15, o.heels_points,
            o.show_double_bonus, o.starter_double_counts_in_show, o.max_deals) == (
        61, False, False, 3, 2, False, 50)


def test_starter_double_counts_in_show_option_in_the_engine():
    for counts, bonus in ((True, 1), (False, 0)):
        state = position("5-6 1-4 2-3 1-2", "0-2 1-3 0-3 2-4", "6-6", dealer=1,
                         crib=("0-4 0-5", "1-5 0-1"), starter_double_counts_in_show=counts,
                         starter_in_pegging_count=False)
        while not events_of(state, "hand_end"):
            state.apply(state.legal_actions()[0])
        first = [e for e in events_of(state, "score") if e["reason"] == "hand"][0]
        assert sum(i["points"] for i in first["items"] if i["kind"] == "double") == bonus


# ----- the interface --------------------------------------------------------------------------
def random_states(seeds=range(6), **values):
    for seed in seeds:
        state = GAME.new_match(opts(**values), seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            yield state
            state.apply(rng.choice(state.legal_actions()))


def test_illegal_actions_are_refused():
    state = GAME.new_match(opts(), 1)
    for bad in ("go", "discard", "discard 6-6 6-6", "", state.legal_actions()[0] + " "):
        with pytest.raises(IllegalActionError):
            state.apply(bad)


def test_observation_does_not_leak_and_does_not_grow():
    sizes = []
    for state in random_states(range(3)):
        for seat in (0, 1):
            obs = state.observation(seat)
            other = seat ^ 1
            packed = msgpack.packb(obs)
            for t in state.private_items(other):
                assert f'"{t}"'.encode() not in packed and t.encode() not in packed
            sizes.append(len(msgpack.packb({k: v for k, v in obs.items() if k != "history"})))
    assert max(sizes) < 1500


def test_sample_state_keeps_the_observation_and_varies_the_rest():
    rng = random.Random(5)
    changed = checked = 0
    for i, state in enumerate(random_states(range(4))):
        if i % 3:
            continue
        for seat in (0, 1):
            obs = state.observation(seat)
            new = GAME.sample_state(state.options, obs, rng)
            assert new.observation(seat) == obs
            assert new.current_player() == state.current_player()
            if state.current_player() == seat:
                assert new.legal_actions() == state.legal_actions()
            checked += 1
            changed += sorted(new.hands[seat ^ 1]) != sorted(state.hands[seat ^ 1]) or new.crib != state.crib
            probe = new.clone()
            for _ in range(30):
                if probe.is_terminal():
                    break
                probe.apply(rng.choice(probe.legal_actions()))
    assert changed >= 0.8 * checked


def test_sample_state_respects_the_go_facts():
    state = position("6-6 5-6 0-1 0-2", "5-5 4-6 3-6 2-6", "1-1", starter_in_pegging_count=False)
    play(state, "6-6", "5-5", "0-1", "2-6", "5-6", "4-6", "0-2")
    obs = state.observation(0)
    assert [1, "go", 23] in obs["plays"]
    rng = random.Random(0)
    for _ in range(200):
        new = GAME.sample_state(state.options, obs, rng)
        assert all(VALUE[t] > 8 for t in new.hands[1])
        assert new.observation(0) == obs


def test_clone_is_independent():
    state = GAME.new_match(opts(), 8)
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert len(state.events) != len(copy.events)
    assert state.hands != copy.hands


def test_describe_gives_a_line_for_every_event():
    names = ["Ann", "Bob"]
    kinds = set()
    for seed in range(3):
        state = GAME.new_match(opts(max_deals=4, target=90), seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        for e in state.events:
            kinds.add(e["type"])
            assert isinstance(GAME.describe(e, names), str)
    assert {"first_dealer", "deal", "action", "crib", "starter", "go", "reset", "score",
            "hand_end", "match_end"} <= kinds


def test_every_point_is_a_score_event():
    for seed in range(20):
        state = GAME.new_match(opts(), seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        totals = [0, 0]
        for e in state.events:
            if e["type"] == "score":
                totals[e["seat"]] += e["points"]
                assert e["scores"] == totals
                if "items" in e:
                    assert e["points"] == sum(i["points"] for i in e["items"])
        assert tuple(totals) == state.scores()


def test_observation_fields_are_the_documented_ones():
    state = GAME.new_match(opts(), 21)
    assert set(state.observation(0)) == {
        "seat", "num_players", "target", "scores", "hand_no", "dealer", "phase", "to_move", "hand",
        "discard", "crib_size", "hand_sizes", "starter", "count", "sequence", "said_go", "plays",
        "played", "pegging", "heels", "history"}
    rng = random.Random(2)
    while state.hand_no < 2 or len(state.plays) < 4:
        state.apply(rng.choice(state.legal_actions()))
    obs = state.observation(state.current_player())
    assert obs["plays"] == [[0, "0-1", 12], [1, "2-5", 19], [0, "4-5", 28], [1, "go", 28]]  # the docs' example
    assert obs["sequence"] == ["5-6", "0-1", "2-5", "4-5"] and state.legal_actions() == ["0-0"]


def test_an_act_grows_by_one_small_row_per_finished_hand():
    """The current hand in full and one row of 8 numbers per finished hand: a match to 1000 sends
    acts no bigger than a match to 61 plus at most 12 bytes per extra hand."""
    from protocol.wire import encode

    def largest(target: int) -> tuple[int, int]:
        size = hands = 0
        for seed in range(4):
            state = GAME.new_match(opts(target=target), seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                obs = state.observation(state.current_player())
                message = {"type": "act", "decision": 0, "observation": obs,
                           "legal": state.legal_actions(), "clock": {"move_ms": 1000, "bank_ms": 10000}}
                size = max(size, len(encode(message)))
                state.apply(rng.choice(state.legal_actions()))
            hands = max(hands, state.hand_no)
        return size, hands

    short, short_hands = largest(61)
    long, long_hands = largest(1000)
    assert long_hands > 50
    assert long <= short + 12 * (long_hands - short_hands), (short, long, long_hands)
