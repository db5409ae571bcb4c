"""Block dominoes against its settled rules: every worked example of block.md §10 with its exact
numbers, every option of block.md §2 / DECISIONS.md B-1, B-3, B-5, B-7, B-8, and the checks of
option values.

Positions are built by hand with ``BlockState.from_position`` (the leader of the deal moves first;
tiles in no hand are set aside). Hands are written ``"6-6 0-1"``.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from arena.errors import IllegalActionError, OptionError
from arena.game import TERMINAL
from arena.games import get_game
from arena.games.block.scoring import deal_points
from arena.games.block.state import BlockState
from arena.games.block.tiles import TILE_TEXT, parse_tile, pips

BLOCK = get_game("block")


def opts(n: int, **values):
    return BLOCK.make_options(n, values)


def tiles(text: str) -> list[tuple[int, int]]:
    return [parse_tile(t) for t in text.split()]


def position(n: int, seat_hands: list[str], leader: int = 0, scores=None, seed: int = 0,
             **values) -> BlockState:
    return BlockState.from_position(opts(n, **values), [tiles(h) for h in seat_hands], leader,
                                    scores=scores, seed=seed)


def deal_ends(state) -> list[dict]:
    return [e for e in state.events if e["type"] == "deal_end"]


def deals(state) -> list[dict]:
    return [e for e in state.events if e["type"] == "deal"]


def snapshot(state) -> tuple:
    return (state.current_player(), state.legal_actions(), len(state.events), state.scores(),
            tuple(repr(state.observation(s)) for s in range(state.num_players)))


def pass_until_deal_ends(state) -> None:
    """With auto_pass off, answer 'pass' while it is the only action and the deal is going on."""
    count = len(deal_ends(state))
    while len(deal_ends(state)) == count:
        assert state.legal_actions() == ["pass"]
        state.apply("pass")


def play_random(state, rng: random.Random, stop=None) -> None:
    while not state.is_terminal() and not (stop and stop(state)):
        state.apply(rng.choice(state.legal_actions()))


# --------------------------------------------------------------------------------------------
# §10.1 Chain and end values
# --------------------------------------------------------------------------------------------
CHAIN_EXAMPLES = [
    # id, hands (seat 0 leads), actions, ends (as sets) after each action, final chain left to right
    ("1-4, 1-1 on 1, 4-4 on 4, 3-4 on 4", ["1-4 4-4 3-5", "1-1 3-4 0-6"],
     ["1-4", "1-1:L", "4-4:R", "3-4:R"], [{1, 4}, {1, 4}, {1, 4}, {1, 3}],
     ["1-1", "1-4", "4-4", "4-3"]),
    ("3-6 then 6-6 on 6: no branch", ["3-6 3-4", "6-6 0-2"],
     ["3-6", "6-6:R"], [{3, 6}, {3, 6}], ["3-6", "6-6"]),
    ("0-0 lead", ["0-0 1-1", "0-3 2-5 4-6"], ["0-0"], [{0}], ["0-0"]),
    ("2-2 lead", ["2-2 1-1", "2-5 1-3"], ["2-2"], [{2}], ["2-2"]),
]


@pytest.mark.parametrize("hands, actions, end_sets, chain",
                         [c[1:] for c in CHAIN_EXAMPLES], ids=[c[0] for c in CHAIN_EXAMPLES])
def test_10_1_chain_and_end_values(hands, actions, end_sets, chain):
    state = position(2, hands)
    for action, want in zip(actions, end_sets):
        state.apply(action)
        assert set(state.ends) == want
        assert state.events[-1]["ends"] == list(state.ends)  # the record writes the ordered ends
    obs = state.observation(0)
    assert obs["chain"] == chain
    assert set(obs["ends"]) == end_sets[-1]


def test_10_1_ordered_ends_of_the_first_example():
    state = position(2, ["1-4 4-4 3-5", "1-1 3-4 0-6"])
    seen = []
    for action in ["1-4", "1-1:L", "4-4:R", "3-4:R"]:
        state.apply(action)
        seen.append(state.ends)
    # the first tile [a|b] gives (a, b); the far half of [1|1] becomes the left end
    assert seen == [(1, 4), (1, 4), (1, 4), (1, 3)]


def test_10_1_double_six_on_six_is_the_only_play():
    state = position(2, ["3-6 0-1", "6-6 0-2"])
    state.apply("3-6")
    assert state.legal_actions() == ["6-6:R"]


def test_10_1_blank_double_only_blanks_follow():
    state = position(2, ["0-0 1-1", "0-3 2-5 4-6"])
    state.apply("0-0")
    assert state.ends == (0, 0)
    assert state.legal_actions() == ["0-3:L", "0-3:R"]  # [0|0] is no wildcard


def test_10_1_two_two_gives_two_attach_points_with_mirror_results():
    state = position(2, ["2-2 1-1 5-6", "2-5 1-3"])
    state.apply("2-2")
    assert state.legal_actions() == ["2-5:L", "2-5:R"]
    left, right = state.clone(), state.clone()
    left.apply("2-5:L")
    right.apply("2-5:R")
    assert left.ends == (5, 2) and right.ends == (2, 5)
    assert left.observation(0)["chain"] == ["5-2", "2-2"]
    assert right.observation(0)["chain"] == ["2-2", "2-5"]


# --------------------------------------------------------------------------------------------
# §10.2 Seed 001 examples
# --------------------------------------------------------------------------------------------
def test_10_2_four_players_irina_pavel_aliya_timur():
    # seats: 0 Irina, 1 Pavel, 2 Aliya, 3 Timur
    state = position(4, ["2-5 0-1", "5-5 0-2", "3-5 0-3", "2-6 0-4"])
    steps = [(0, "2-5", {2, 5}), (1, "5-5:R", {2, 5}), (2, "3-5:R", {2, 3}), (3, "2-6:L", {6, 3})]
    for seat, action, ends in steps:
        assert state.current_player() == seat
        assert action in state.legal_actions()
        state.apply(action)
        assert set(state.ends) == ends
    assert state.ends == (6, 3)


def test_10_2_three_six_on_the_three_end():
    state = position(2, ["2-3 0-1 2-6", "3-6 0-0"])
    state.apply("2-3")
    assert set(state.ends) == {2, 3}
    assert state.legal_actions() == ["3-6:R"]
    state.apply("3-6:R")
    assert set(state.ends) == {2, 6}


@pytest.mark.parametrize("auto_pass", [False, True])
def test_10_2_pass_is_illegal_with_a_playable_tile(auto_pass):
    state = position(2, ["4-6 0-1 2-5", "2-4 0-0"], auto_pass=auto_pass)
    state.apply("4-6")
    assert set(state.ends) == {4, 6}
    assert state.current_player() == 1
    legal = state.legal_actions()
    assert "pass" not in legal
    assert legal == ["2-4:L"]  # play([4|2], the 4 end)
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply("pass")
    assert snapshot(state) == before
    state.apply("2-4:L")
    assert state.ends == (2, 6)


# --------------------------------------------------------------------------------------------
# §10.3 Scoring
# --------------------------------------------------------------------------------------------
# id, hands (the leader opens with the first tile of its hand: a lone tile -> domino at once; a
# [6|6] nobody else can follow -> blocked at once), leader, remaining pips, domino_by, points
SCORING_ROWS = [
    ("domino 3p: [0|0] and 8 pips", ["1-2", "0-0", "2-6"], 0, [0, 0, 8], 0, [8, 0, 0]),
    ("domino 3p: 5 and 5", ["3-3", "0-5", "1-4"], 0, [0, 5, 5], 0, [10, 0, 0]),
    ("blocked 3p: 3, 7, 8", ["6-6 0-1 0-2", "3-4", "3-5"], 0, [3, 7, 8], None, [12, 0, 0]),
    ("blocked 3p: 3, 3, 8 tie", ["6-6 0-1 0-2", "1-2", "3-5"], 0, [3, 3, 8], None, [0, 0, 0]),
    ("blocked 3p: Irina 4, Pavel 11, Aliya 11", ["6-6 1-3", "5-5 0-1", "2-4 0-5"], 0,
     [4, 11, 11], None, [18, 0, 0]),
    ("blocked 2p: 6, 6 tie", ["6-6 0-1 0-5", "2-4"], 0, [6, 6], None, [0, 0]),
    ("blocked 2p: 6, 10", ["5-5", "6-6 2-4"], 1, [10, 6], None, [0, 4]),
    ("blocked 4p: 2, 9, 9, 15", ["6-6 0-2", "4-5", "2-3 0-4", "5-5 1-4"], 0,
     [2, 9, 9, 15], None, [31, 0, 0, 0]),
]
ROW_IDS = [r[0] for r in SCORING_ROWS]


@pytest.mark.parametrize("hands, leader, remaining, domino_by, points",
                         [r[1:] for r in SCORING_ROWS], ids=ROW_IDS)
def test_10_3_deal_points(hands, leader, remaining, domino_by, points):
    assert deal_points(remaining, domino_by) == points


@pytest.mark.parametrize("auto_pass", [True, False], ids=["auto_pass", "manual_pass"])
@pytest.mark.parametrize("hands, leader, remaining, domino_by, points",
                         [r[1:] for r in SCORING_ROWS], ids=ROW_IDS)
def test_10_3_scoring_through_the_engine(hands, leader, remaining, domino_by, points, auto_pass):
    n = len(hands)
    state = position(n, hands, leader=leader, auto_pass=auto_pass)
    state.apply(hands[leader].split()[0])  # the first tile written in the leader's hand
    if domino_by is None and not auto_pass:
        pass_until_deal_ends(state)
    (end,) = deal_ends(state)
    assert end["end"] == ("domino" if domino_by is not None else "blocked")
    assert end["remaining"] == remaining
    assert end["points"] == points
    assert end["scores"] == points
    assert list(state.scores()) == points
    winners = [s for s, p in enumerate(points) if p]
    assert end["winner"] == (domino_by if domino_by is not None else (winners[0] if winners else None))


def test_10_3_pip_counts():
    assert [pips(parse_tile(t)) for t in ["6-4", "0-5", "0-0", "6-6"]] == [10, 5, 0, 12]
    assert pips(parse_tile("0-1")) + pips(parse_tile("0-2")) == 3


def test_10_3_a_lone_blank_double_does_not_tie_the_domino_player():
    state = position(3, ["1-2", "0-0", "2-6"], single_deal=True)
    state.apply("1-2")
    assert state.result().scores == (8, 0, 0)
    assert state.result().ranks == (1, 2, 2)


def test_single_deal_domino_against_a_lone_blank_double_is_a_win():
    """B-8: the domino player wins a single deal even when it scores 0 (it used to be a draw)."""
    state = position(2, ["1-2", "0-0"], single_deal=True)
    state.apply("1-2")
    assert state.is_terminal()
    assert state.result().scores == (0, 0)
    assert state.result().ranks == (1, 2)


# --------------------------------------------------------------------------------------------
# §10.4 Match end and rotation
# --------------------------------------------------------------------------------------------
def test_10_4_excess_over_the_target_is_kept():
    state = position(2, ["6-6 0-1", "3-5"], scores=[95, 0])
    assert state.options.target == 100
    state.apply("6-6")  # blocked: A keeps 1 pip, B 8 -> A wins 7
    (end,) = deal_ends(state)
    assert end["points"] == [7, 0]
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.result().scores == (102, 0)
    assert state.result().ranks == (1, 2)
    assert state.events[-1] == {"type": "match_end", "scores": [102, 0], "ranks": [1, 2]}


def test_10_4_below_the_target_deals_again():
    state = position(2, ["6-6 0-1", "3-5"], scores=[92, 0])
    state.apply("6-6")
    assert not state.is_terminal()
    assert state.scores() == (99, 0)
    assert state.deal_no == 2


@pytest.mark.parametrize("hands, actions", [
    (["0-1", "0-3", "1-2"], ["1-2"]),
    (["2-3", "4-4", "1-2 0-0"], ["1-2", "2-3:R"]),
    (["0-1", "3-4", "6-6 0-2"], ["6-6"]),
    (["0-3", "1-2", "6-6 0-4"], ["6-6"]),
], ids=["domino by the leader", "domino by another seat", "blocked, sole lowest",
        "blocked, tie for lowest"])
def test_10_4_rotation_of_the_leader_in_three_players(hands, actions):
    state = position(3, hands, leader=2)
    assert state.current_player() == 2
    for action in actions:
        state.apply(action)
    assert len(deal_ends(state)) == 1
    assert not state.is_terminal()
    assert state.deal_no == 2
    assert state.leader == 0
    assert deals(state)[-1]["leader"] == 0
    assert state.current_player() == 0
    assert state.observation(1)["leader"] == 0


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_lead_moves_one_seat_left_every_deal(n):
    for seed in range(5):
        state = BLOCK.new_match(opts(n), seed)
        play_random(state, random.Random(seed))
        leaders = [d["leader"] for d in deals(state)]
        assert len(leaders) >= 2
        assert all(b == (a + 1) % n for a, b in zip(leaders, leaders[1:]))


# --------------------------------------------------------------------------------------------
# §2 options: defaults and custom values
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n, hand_size, target", [(2, 7, 100), (3, 5, 61), (4, 5, 61)])
def test_defaults_per_player_count(n, hand_size, target):
    o = opts(n)
    assert (o.num_players, o.hand_size, o.target) == (n, hand_size, target)
    assert (o.first_leader, o.auto_pass, o.single_deal) == ("lottery", True, False)
    state = BLOCK.new_match(o, 7)
    (deal,) = deals(state)
    assert [len(h) for h in deal["hands"]] == [hand_size] * n
    assert len(deal["set_aside"]) == 28 - n * hand_size
    assert state.observation(0)["set_aside"] == 28 - n * hand_size
    assert state.observation(0)["target"] == target
    dealt = [t for h in deal["hands"] for t in h] + deal["set_aside"]
    assert sorted(dealt) == sorted(TILE_TEXT.values())  # all 28 tiles, each once


@pytest.mark.parametrize("n, hand_size", [(2, 3), (2, 14), (3, 9), (4, 7), (4, 1)])
def test_custom_hand_size(n, hand_size):
    state = BLOCK.new_match(opts(n, hand_size=hand_size), 3)
    (deal,) = deals(state)
    assert [len(h) for h in deal["hands"]] == [hand_size] * n
    assert len(deal["set_aside"]) == 28 - n * hand_size
    play_random(state, random.Random(3))
    assert all(len(d["hands"]) == n and all(len(h) == hand_size for h in d["hands"])
               for d in deals(state))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_custom_target_ends_the_match_at_the_first_deal_reaching_it(n):
    for seed in range(5):
        state = BLOCK.new_match(opts(n, target=20), seed)
        play_random(state, random.Random(seed))
        ends = deal_ends(state)
        assert max(ends[-1]["scores"]) >= 20
        assert all(max(e["scores"]) < 20 for e in ends[:-1])
        assert state.observation(0)["target"] == 20


def test_option_values_from_text():
    o = opts(3, hand_size="6", target="50", first_leader="highest_double", single_deal="true",
             auto_pass="off")
    assert (o.hand_size, o.target, o.first_leader, o.single_deal, o.auto_pass) == (
        6, 50, "highest_double", True, False)


# --------------------------------------------------------------------------------------------
# first_leader (B-1, B-3)
# --------------------------------------------------------------------------------------------
def expected_opening(hands: list[list[str]]) -> tuple[int, str]:
    """B-3 written out independently: highest double; else heaviest, ties to the higher half."""
    best = None
    for seat, hand in enumerate(hands):
        for text in hand:
            a, b = parse_tile(text)
            key = (a == b, a + b, max(a, b))
            if best is None or key > best[0]:
                best = (key, seat, text)
    return best[1], best[2]


@pytest.mark.parametrize("n, hand_size", [(2, 7), (3, 5), (4, 5), (2, 2), (4, 1)])
def test_highest_double_leads_deal_one_with_it(n, hand_size):
    without_double = 0
    for seed in range(40):
        state = BLOCK.new_match(opts(n, hand_size=hand_size, first_leader="highest_double"), seed)
        (deal,) = deals(state)
        seat, tile = expected_opening(deal["hands"])
        if not any(parse_tile(t)[0] == parse_tile(t)[1] for h in deal["hands"] for t in h):
            without_double += 1
        assert deal["leader"] == seat == state.current_player() == state.leader
        assert state.legal_actions() == [tile]
        other = next(t for t in deal["hands"][seat] if t != tile) if hand_size > 1 else None
        if other:
            with pytest.raises(IllegalActionError):
                state.apply(other)
        state.apply(tile)
        play_random(state, random.Random(seed), stop=lambda s: s.deal_no > 1)
        if not state.is_terminal():
            assert state.leader == (seat + 1) % n  # deal 2 rotates as usual
            assert deals(state)[1]["leader"] == (seat + 1) % n
    if hand_size == 1:
        assert without_double > 0  # the no-double branch was exercised


@pytest.mark.parametrize("hands, seat, tile", [
    (["4-5 0-1", "3-6 1-2"], 1, "3-6"),   # 9 pips each: the higher half (6) wins
    (["4-6 0-1", "5-6 1-2"], 1, "5-6"),   # heaviest tile
    (["5-6 4-6", "0-0 1-2"], 1, "0-0"),   # any double beats any non-double
    (["2-2 5-6", "1-1 6-6"], 1, "6-6"),   # the highest double
    (["3-3 1-2", "0-1 2-2", "0-2 1-3"], 0, "3-3"),
])
def test_highest_double_hand_built(hands, seat, tile):
    state = position(len(hands), hands, leader=0, first_leader="highest_double")
    assert state.current_player() == seat
    assert state.legal_actions() == [tile]


def test_lottery_leader_is_deterministic_per_seed():
    for n in (2, 3, 4):
        for seed in range(20):
            a, b = BLOCK.new_match(opts(n), seed), BLOCK.new_match(opts(n), seed)
            assert a.leader == b.leader and a.events == b.events


@pytest.mark.parametrize("n", [2, 3, 4])
def test_lottery_leader_is_uniform_over_seeds(n):
    seeds = 600
    counts = Counter(BLOCK.new_match(opts(n), seed).leader for seed in range(seeds))
    assert set(counts) == set(range(n))
    for seat in range(n):
        assert abs(counts[seat] - seeds / n) < 0.25 * seeds / n, counts


def test_lottery_does_not_follow_the_doubles():
    """The lottery leader is not simply the holder of the highest double."""
    agree = 0
    for seed in range(100):
        state = BLOCK.new_match(opts(2), seed)
        agree += state.leader == expected_opening(deals(state)[0]["hands"])[0]
    assert 25 < agree < 75


# --------------------------------------------------------------------------------------------
# single_deal (B-8)
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_single_deal_ends_after_one_deal(n):
    kinds = Counter()
    for seed in range(40):
        state = BLOCK.new_match(opts(n, single_deal=True), seed)
        play_random(state, random.Random(seed))
        (end,) = deal_ends(state)
        assert len(deals(state)) == 1
        result = state.result()
        if end["winner"] is None:
            kinds["tie"] += 1
            assert result.ranks == (1,) * n
        else:
            kinds[end["end"]] += 1
            assert result.ranks == tuple(1 if s == end["winner"] else 2 for s in range(n))
        assert list(result.scores) == end["points"]


def test_single_deal_blocked_tie_for_lowest_is_a_draw():
    state = position(3, ["6-6 0-1 0-2", "1-2", "3-5"], single_deal=True)
    state.apply("6-6")
    assert state.is_terminal()
    assert state.result().ranks == (1, 1, 1)
    assert state.result().scores == (0, 0, 0)


def test_single_deal_sole_lowest_wins():
    state = position(3, ["6-6 0-1 0-2", "3-4", "3-5"], single_deal=True)
    state.apply("6-6")
    assert state.result().scores == (12, 0, 0)
    assert state.result().ranks == (1, 2, 2)


# --------------------------------------------------------------------------------------------
# auto_pass (B-5), blocked and domino ends (§6)
# --------------------------------------------------------------------------------------------
def test_auto_pass_makes_forced_passes_itself():
    state = position(3, ["6-6 0-1", "2-3 1-1", "4-6 0-0"])
    state.apply("6-6")
    assert state.current_player() == 2  # seat 1 holds no 6
    assert state.events[-1] == {"type": "pass", "seat": 1}
    assert state.plays[-1] == [1, "pass"]
    assert state.observation(0)["plays"] == [[0, "6-6"], [1, "pass"]]


def test_manual_pass_is_offered_alone_and_goes_on():
    state = position(3, ["6-6 0-1", "2-3 1-1", "4-6 0-0"], auto_pass=False)
    state.apply("6-6")
    assert state.current_player() == 1
    assert state.legal_actions() == ["pass"]
    state.apply("pass")
    assert state.events[-1] == {"type": "action", "seat": 1, "action": "pass"}
    assert state.current_player() == 2
    assert state.legal_actions() == ["4-6:L", "4-6:R"]


def test_manual_blocked_deal_ends_after_every_seat_passed_in_turn():
    hands = ["6-6 0-1 0-2", "3-4", "3-5"]
    manual = position(3, hands, auto_pass=False)
    manual.apply("6-6")
    for seat in (1, 2, 0):
        assert not deal_ends(manual)
        assert manual.current_player() == seat
        assert manual.legal_actions() == ["pass"]
        manual.apply("pass")
    auto = position(3, hands)
    auto.apply("6-6")
    assert deal_ends(manual) == deal_ends(auto)
    assert manual.scores() == auto.scores() == (12, 0, 0)
    assert manual.observation(0)["scores"] == auto.observation(0)["scores"]


def test_manual_passes_then_a_play_continues_the_deal():
    # seats 1 and 2 pass, seat 0 (who played last) can still play: not blocked
    state = position(3, ["6-6 5-6 0-1", "1-2 0-3", "1-3 0-4"], auto_pass=False)
    state.apply("6-6")
    state.apply("pass")
    state.apply("pass")
    assert state.current_player() == 0 and not deal_ends(state)
    assert state.legal_actions() == ["5-6:L", "5-6:R"]
    state.apply("5-6:L")
    assert state.current_player() == 1 and state.legal_actions() == ["pass"]


def test_blocked_is_detected_right_after_the_play_that_caused_it():
    state = position(2, ["3-3 1-1", "3-5 2-2"])
    state.apply("3-3")
    state.apply("3-5:R")  # ends (3, 5): nobody holds a 3 or a 5
    kinds = [e["type"] for e in state.events]
    i = kinds.index("deal_end")
    assert kinds[i - 3:i] == ["action", "pass", "pass"]
    assert [e["seat"] for e in state.events[i - 2:i]] == [0, 1]
    end = state.events[i]
    assert end["end"] == "blocked" and end["remaining"] == [2, 4] and end["points"] == [2, 0]
    assert state.deal_no == 2


def test_blocked_detection_at_the_lead_with_three_players():
    state = position(3, ["6-6 0-1 0-2", "3-4", "3-5"])
    state.apply("6-6")
    kinds = [e["type"] for e in state.events]
    assert kinds[1:6] == ["action", "pass", "pass", "pass", "deal_end"]
    assert [e["seat"] for e in state.events[2:5]] == [1, 2, 0]


@pytest.mark.parametrize("auto_pass", [True, False])
def test_domino_ends_the_deal_at_once_even_if_others_could_play(auto_pass):
    state = position(2, ["1-2 5-6", "2-5 1-3"], auto_pass=auto_pass)
    for action in ["1-2", "2-5:R", "5-6:R"]:
        state.apply(action)
    (end,) = deal_ends(state)
    assert end["end"] == "domino" and end["winner"] == 0
    assert end["hands"] == [[], ["1-3"]]  # [1|3] still fitted the 1 end
    assert end["points"] == [4, 0]
    assert state.deal_no == 2


@pytest.mark.parametrize("n", [2, 3, 4])
def test_auto_pass_on_and_off_give_the_same_match(n):
    for seed in range(10):
        auto = BLOCK.new_match(opts(n), seed)
        manual = BLOCK.new_match(opts(n, auto_pass=False), seed)
        for state in (auto, manual):
            rng = random.Random(seed)
            while not state.is_terminal():
                legal = state.legal_actions()
                assert "pass" not in legal or legal == ["pass"]
                state.apply("pass" if legal == ["pass"] else rng.choice(legal))
        assert deal_ends(auto) == deal_ends(manual)
        assert auto.result() == manual.result()
        assert auto.scores() == manual.scores()
        auto_passes = sum(e["type"] == "pass" for e in auto.events)
        manual_passes = sum(e.get("action") == "pass" for e in manual.events)
        assert auto_passes == manual_passes
        assert not any(e.get("action") == "pass" for e in auto.events)


# --------------------------------------------------------------------------------------------
# Match draw (B-7)
# --------------------------------------------------------------------------------------------
def test_match_draw_two_players():
    state = position(2, ["6-6 0-1", "2-3"], leader=1, scores=[103, 90])
    state.apply("2-3")  # domino: seat 1 wins the 13 pips seat 0 still holds
    assert state.is_terminal()
    assert state.result().scores == (103, 103)
    assert state.result().ranks == (1, 1)


def test_match_draw_three_players():
    state = position(3, ["0-2", "1-1", "0-4"], leader=1, scores=[61, 55, 10])
    state.apply("1-1")
    assert state.result().scores == (61, 61, 10)
    assert state.result().ranks == (1, 1, 3)


# --------------------------------------------------------------------------------------------
# Option checks
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n, values, words", [
    (2, {"colour": "red"}, ["'colour'", "first_leader", "hand_size", "target"]),
    (2, {"first_leader": "youngest"}, ["'first_leader'", "'youngest'", "'lottery'", "'highest_double'"]),
    (4, {"hand_size": 8}, ["'hand_size'", "8", "1 to 7"]),
    (3, {"hand_size": 10}, ["'hand_size'", "1 to 9"]),
    (2, {"hand_size": 0}, ["'hand_size'", "1 to 14"]),
    (2, {"target": 0}, ["'target'", "1 or more"]),
    (5, {}, ["'num_players'", "5", "2, 3, 4"]),
    (1, {}, ["'num_players'", "2, 3, 4"]),
    (2, {"hand_size": "seven"}, ["'hand_size'", "'seven'", "int"]),
    (2, {"auto_pass": "maybe"}, ["'auto_pass'", "'maybe'", "bool"]),
])
def test_option_errors_name_the_option_and_the_allowed_values(n, values, words):
    with pytest.raises(OptionError) as info:
        BLOCK.make_options(n, values)
    message = str(info.value)
    for word in words:
        assert word in message, message


# --------------------------------------------------------------------------------------------
# sample_state keeps what the seat knows
# --------------------------------------------------------------------------------------------
def test_redeal_respects_the_voids_shown_by_passes():
    state = position(3, ["6-6 0-1 3-6", "2-3 1-1 0-5", "4-6 0-0 1-5"])
    state.apply("6-6")  # seat 1 passes: it holds no 6
    assert state.plays[-1] == [1, "pass"]
    rng = random.Random(1)
    for _ in range(200):
        for seat in (0, 2):
            new = sample(state, seat, rng)
            assert new.observation(seat) == state.observation(seat)
            assert not any(6 in t for t in new.hands[1])


def test_redeal_keeps_a_playable_tile_for_the_seat_to_move():
    for seed in range(30):
        state = BLOCK.new_match(opts(2), seed)
        rng = random.Random(seed)
        play_random(state, rng, stop=lambda s: len(s.plays) >= 5)
        if state.is_terminal() or state.ends is None:
            continue
        other = 1 - state.current_player()
        for _ in range(20):
            new = sample(state, other, rng)
            assert new.legal_actions(), "the seat to move must still be able to play"
            new.apply(new.legal_actions()[0])


def test_redeal_before_the_highest_double_opening():
    for seed in range(30):
        state = BLOCK.new_match(opts(3, first_leader="highest_double"), seed)
        rng = random.Random(seed)
        leader = state.leader
        for seat in range(3):
            new = sample(state, seat, rng)
            assert new.observation(seat) == state.observation(seat)
            assert new.current_player() == leader
            assert expected_opening([[TILE_TEXT[t] for t in h] for h in new.hands]) == (
                leader, new.legal_actions()[0])
            new.apply(new.legal_actions()[0])  # the opening tile is in the leader's hand


def test_redeal_after_the_highest_double_opening():
    state = position(2, ["3-3 0-1 0-2", "1-3 2-4 0-5"], first_leader="highest_double")
    state.apply("3-3")  # public: nobody held a double above [3|3]
    rng = random.Random(5)
    banned = {(4, 4), (5, 5), (6, 6)}
    for _ in range(100):
        new = sample(state, 0, rng)
        assert not banned & set(new.hands[1])


def sample(state, seat, rng):
    """A state built from ``seat``'s observation alone, as a bot would build it."""
    new = BLOCK.sample_state(state.options, state.observation(seat), rng)
    assert new.observation(seat) == state.observation(seat)
    return new


def test_sample_after_the_match_is_over_too():
    state = BLOCK.new_match(opts(2, single_deal=True), 4)
    play_random(state, random.Random(4))
    new = sample(state, 0, random.Random(0))
    assert new.is_terminal() and new.hands[0] == state.hands[0]


def test_sample_never_sees_the_real_hidden_tiles():
    """Sampling from an observation cannot reproduce the true deal more often than chance."""
    state = BLOCK.new_match(opts(2), 9)
    rng = random.Random(3)
    same = sum(sample(state, 0, rng).hands[1] == state.hands[1] for _ in range(100))
    assert same <= 2
