"""Rules of Thousand: every worked example of the rules (thousand.md §13, E1-E16) with its exact
numbers, every option, and the edges the rules name.

Positions are built by hand with ``ThousandState.from_deal`` (hands and prikups given) and, for
the scoring examples, with ``scored`` below: a deal whose card points, marriages and tricks are set
directly before the deal is scored (the play that would lead there is irrelevant to the sums).
"""
from __future__ import annotations

import random

import pytest

from arena.errors import IllegalActionError, OptionError
from arena.games.thousand import Thousand
from arena.games.thousand.cards import CARD_TEXT, DECK, card, cards
from arena.games.thousand.flow import Carry, winners
from arena.games.thousand.scoring import half_up5, max_bid, prikup_score, round5
from arena.games.thousand.state import PLAY, ThousandState

GAME = Thousand()


def opts(n: int = 3, **values):
    return GAME.make_options(n, values)


def deal3(h0: str, h1: str, h2: str, prikup: str) -> tuple[list[list[int]], list[list[int]]]:
    hands = [cards(h0), cards(h1), cards(h2)]
    pk = cards(prikup)
    assert sorted(sum(hands, []) + pk) == list(DECK)
    return hands, [pk]


# A full 3-player deal: P1 holds the heart marriage, P2 none, P0 the spade marriage.
H0 = "9H JH 9D JD 9C QS KS"
H1 = "KH QH AH TH AS TS 9S"
H2 = "AD TD KD QD AC TC KC"
PK = "QC JC JS"


def new3(dealer: int = 0, **values) -> ThousandState:
    hands, prikups = deal3(H0, H1, H2, PK)
    return ThousandState.from_deal(opts(3, **values), hands, prikups, dealer=dealer)


def play(state: ThousandState, *actions: str) -> None:
    for a in actions:
        state.apply(a)


def last(state: ThousandState, kind: str) -> dict:
    return [e for e in state.events if e["type"] == kind][-1]


def scored(n: int = 3, declarer: int = 1, contract: int = 120, card_pts=None, marriage_pts=None,
           tricks=None, carry: Carry | None = None, rospis: bool = False, dark: bool = False,
           golden: bool = False, deal_no: int = 5, **values) -> ThousandState:
    """A deal at its end: ``declarer`` played ``contract`` and took the given card points,
    marriages and tricks (dealer P0, so P1 is forehand in 3 and 4 players)."""
    o = opts(n, **values)
    deck = list(DECK)
    sizes = {2: [9, 9], 3: [7, 7, 7], 4: [0, 7, 7, 7]}[n]
    hands, i = [], 0
    for k in sizes:
        hands.append(deck[i:i + k])
        i += k
    prikups = [deck[i:i + 3]] + ([deck[i + 3:i + 6]] if n == 2 else [])
    st = ThousandState.from_deal(o, hands, prikups, dealer=0, deal_no=deal_no, carry=carry)
    st.declarer, st.contract, st.dark, st.golden = declarer, contract, dark, golden
    st.taken = list(prikups[0])
    st.card_pts = list(card_pts or [0] * n)
    st.marriage_pts = list(marriage_pts or [0] * n)
    st.tricks_won = list(tricks or [1] * n)
    st.rospis_done = rospis
    st.on_barrel_start = list(st.carry.on_barrel)
    st._end_deal()
    return st


def rows(st: ThousandState) -> list[dict]:
    return last(st, "deal_score")["seats"]


def deltas(st: ThousandState) -> list[int]:
    return [r["delta"] for r in rows(st)]


# ----- §1, helpers -----------------------------------------------------------------------------
def test_cards_and_points():
    assert len(DECK) == 24 and CARD_TEXT[card("QH")] == "QH" and card("10S") == card("TS")
    from arena.games.thousand.cards import POINTS
    assert sum(POINTS) == 120
    assert [POINTS[card(t)] for t in "AH TH KH QH JH 9H".split()] == [11, 10, 4, 3, 2, 0]


def test_e2_bid_ceiling():
    assert max_bid(cards("KH QH AS TS 9D JC QC"), 300) == 220
    assert max_bid(cards("AH TS 9D JC QC KD JS"), 300) == 120
    assert max_bid(cards("KH QH KD QD KC QC 9S"), 300) == 300
    assert max_bid(cards("AH AD AC AS 9S 9D JC"), 300, ace_marriage=True) == 300
    assert max_bid(cards("AH AD AC AS 9S 9D JC"), 1000, ace_marriage=True) == 320
    assert max_bid(cards("AH AD AC AS 9S 9D JC"), 300, ace_marriage=False) == 120


@pytest.mark.parametrize("points, rounded", [
    (0, 0), (2, 0), (3, 5), (12, 10), (13, 15), (17, 15), (18, 20), (21, 20), (23, 25), (27, 25),
    (28, 30), (62, 60), (63, 65), (122, 120)])
def test_e3_rounding(points, rounded):
    assert round5(points) == rounded


@pytest.mark.parametrize("contract, half", [(100, 50), (105, 55), (110, 55), (115, 60), (120, 60)])
def test_rospis_half(contract, half):
    assert half_up5(contract) == half


# ----- §5 auction ------------------------------------------------------------------------------
def test_e1_auction_and_shown_prikup():
    st = new3(dealer=0)
    assert st.current_player() == 2  # forehand P1 sits on 100; middlehand P2 speaks first
    play(st, "bid 110", "pass", "bid 115", "pass")
    c = last(st, "contract")
    assert (c["declarer"], c["contract"], c["how"]) == (1, 115, "auction")
    assert last(st, "prikup")["shown"] is True
    assert sorted(st.observation(0)["prikup"]) == sorted(PK.split())


def test_e1_forced_100_prikup_hidden():
    st = new3(dealer=0)
    play(st, "pass", "pass")
    c = last(st, "contract")
    assert (c["declarer"], c["contract"], c["how"]) == (1, 100, "forced_100")
    assert last(st, "prikup")["shown"] is False
    assert st.observation(0)["prikup"] is None and st.observation(2)["prikup"] is None
    assert sorted(st.observation(1)["prikup"]) == sorted(PK.split())
    st2 = new3(dealer=0, show_prikup_on_forced_100=True)
    play(st2, "pass", "pass")
    assert sorted(st2.observation(0)["prikup"]) == sorted(PK.split())


def test_bids_are_capped_by_marriages_and_passing_is_final():
    st = new3(dealer=0)
    legal = st.legal_actions()  # P2 holds K+Q of diamonds (80) and no other marriage: up to 200
    assert legal[0] == "pass" and legal[1] == "bid 105" and legal[-1] == "bid 200"
    play(st, "bid 200")
    assert st.current_player() == 0 and st.legal_actions() == ["pass"]  # P0: spades, max 160
    play(st, "pass")
    assert st.current_player() == 1  # P1: hearts, max 220
    assert st.legal_actions()[-1] == "bid 220" and st.legal_actions()[1] == "bid 205"
    play(st, "pass")
    assert last(st, "contract")["declarer"] == 2


def test_bid_step_option():
    st = new3(dealer=0, bid_step=10)
    assert st.legal_actions()[:3] == ["pass", "bid 110", "bid 120"]


def test_negative_bidding_forbidden():
    hands, prikups = deal3(H0, H1, H2, PK)
    st = ThousandState.from_deal(opts(3, negative_bidding="forbidden"), hands, prikups, dealer=0,
                                 totals=[0, 0, -5])
    assert st.legal_actions() == ["pass"]
    st = ThousandState.from_deal(opts(3), hands, prikups, dealer=0, totals=[0, 0, -5])
    assert len(st.legal_actions()) > 1


def test_illegal_action_raises():
    st = new3()
    with pytest.raises(IllegalActionError):
        st.apply("bid 300")


# ----- §6 prikup, exchange, raise, rospis ---------------------------------------------------------
def test_exchange_one_card_each_and_raise_limit():
    st = new3(dealer=0)
    play(st, "pass", "pass")  # P1 declarer at 100 with KH QH + prikup QC JC JS
    legal = st.legal_actions()
    assert legal[-1] == "rospis" and all(a.startswith("give ") and a.endswith(" 2") for a in legal[:-1])
    assert len(legal) == 11
    play(st, "give 9S 2")
    legal = st.legal_actions()
    assert "rospis" not in legal and all(a.endswith(" 0") for a in legal) and len(legal) == 9
    play(st, "give JS 0")
    assert st.observation(2)["received"] == "9S" and st.observation(0)["received"] == "JS"
    assert st.observation(2)["log"][-2:] == [[1, "give 9S 2"], [1, "give ? 0"]]
    legal = st.legal_actions()  # 8 cards: K+Q of hearts → max 220
    assert legal[0] == "keep" and legal[1] == "raise 105" and legal[-1] == "raise 220"
    play(st, "raise 150")
    assert st.contract == 150 and st.phase == PLAY and st.current_player() == 1


@pytest.mark.parametrize("contract, penalty, d_delta, opp, bolts", [
    (115, "bid", -115, 60, 0), (100, "bid", -100, 50, 0), (115, "bolt", 0, 60, 1)])
def test_e8_rospis(contract, penalty, d_delta, opp, bolts):
    st = new3(dealer=0, rospis_penalty=penalty)
    if contract == 100:
        play(st, "pass", "pass")
    else:
        play(st, "bid 110", "pass", "bid 115", "pass")
    play(st, "rospis")
    sc = last(st, "deal_score")
    assert sc["outcome"] == "rospis" and sc["contract"] == contract
    assert deltas(st) == [opp, d_delta, opp]
    assert st.carry.bolts == [0, bolts, 0]
    assert st.carry.totals == [opp, d_delta, opp]


def test_rospis_option_off_and_never_on_the_barrel():
    st = new3(dealer=0, rospis=False)
    play(st, "pass", "pass")
    assert "rospis" not in st.legal_actions()
    hands, prikups = deal3(H0, H1, H2, PK)
    carry = Carry(3)
    carry.totals[1], carry.on_barrel[1] = 880, True
    st = ThousandState.from_deal(opts(3), hands, prikups, dealer=0, carry=carry)
    play(st, "pass", "pass")
    assert "rospis" not in st.legal_actions()


def test_dark_rospis_is_doubled():
    st = scored(declarer=1, contract=120, rospis=True, dark=True)
    assert deltas(st) == [60, -240, 60]


# ----- §6.6 dark bidding ----------------------------------------------------------------------------
def test_dark_bidding_hides_the_hand_and_the_list_does_not_leak_it():
    st = new3(dealer=0, dark_bidding=True)
    assert st.legal_actions() == ["look", "dark"]
    assert st.observation(2)["hand"] is None
    play(st, "dark")
    bids = st.legal_actions()
    assert bids[0] == "bid 105" and bids[-1] == "bid 300" and "pass" not in bids
    # another deal where P2 holds no marriage offers the very same list
    hands, prikups = deal3(H2, H0, H1, PK)
    st2 = ThousandState.from_deal(opts(3, dark_bidding=True), hands, prikups, dealer=0)
    play(st2, "dark")
    assert st2.legal_actions() == bids
    play(st, "bid 250")
    assert st.observation(2)["hand"] is None  # still hidden until the auction ends
    play(st, "look", "pass", "look", "pass")
    c = last(st, "contract")
    assert (c["declarer"], c["contract"], c["dark"]) == (2, 250, True)
    assert last(st, "prikup")["shown"] is False
    assert st.observation(2)["hand"] is not None


def test_dark_contract_in_golden_round_multiplies():
    st = scored(declarer=1, contract=150, card_pts=[10, 150, 0], golden=True, dark=True)
    assert deltas(st)[1] == 600 and deltas(st)[0] == 20  # 150 × 2 × 2; defender 10 × 2
    st = scored(declarer=1, contract=150, card_pts=[10, 100, 10], golden=True, dark=True)
    assert deltas(st)[1] == -600


# ----- §7 play ------------------------------------------------------------------------------------
def playing(hands: dict[int, str], trump: str | None, trick: list[tuple[int, str]], trick_no: int = 2,
            **values) -> ThousandState:
    """A 3-player deal in play: the given hands, trump and cards already in the trick."""
    st = new3(dealer=0, **values)
    st.phase = PLAY
    st.declarer = 1
    for s, h in hands.items():
        st.hands[s] = sorted(cards(h))
    st.trump = None if trump is None else "HDCS".index(trump)
    st.trick = [(s, card(c)) for s, c in trick]
    st.trick_no = trick_no
    seat = (trick[-1][0] + 1) % 3 if trick else 1
    st.to_move, st._legal = seat, st._play_legal(seat)
    return st


@pytest.mark.parametrize("hand, legal", [
    ("9S QH AD", ["play 9S"]), ("QH AD", ["play QH"]), ("AD JC", ["play AD", "play JC"])])
def test_e13_follow_and_trump(hand, legal):
    st = playing({1: hand}, "H", [(0, "AS")])
    assert sorted(st.legal_actions()) == sorted(legal)


def test_e13_no_trump_void_plays_anything_and_cannot_win():
    st = playing({2: "AH TD", 0: "9C"}, None, [(1, "KC")])
    assert sorted(st.legal_actions()) == ["play AH", "play TD"]
    play(st, "play AH", "play 9C")
    assert last(st, "trick")["winner"] == 1


def test_e13_must_overtake():
    st = playing({1: "TS 9S"}, None, [(0, "AS")], must_overtake=True)
    assert sorted(st.legal_actions()) == ["play 9S", "play TS"]
    st = playing({1: "TS 9S"}, None, [(0, "KS")], must_overtake=True)
    assert st.legal_actions() == ["play TS"]
    st = playing({1: "TS 9S"}, None, [(0, "KS")])
    assert sorted(st.legal_actions()) == ["play 9S", "play TS"]
    st = playing({2: "KH 9H JD"}, "H", [(0, "AS"), (1, "QH")], must_overtake=True)
    assert st.legal_actions() == ["play KH"]  # trumping over a trump (T-31)
    st = playing({2: "KH 9H JD"}, "H", [(0, "JH"), (1, "QH")], must_overtake=True)
    assert st.legal_actions() == ["play KH"]  # following a trump lead


def test_trick_winner_with_trump():
    st = playing({2: "9H 9D", 0: "TS"}, "H", [(1, "AS")])
    play(st, "play 9H", "play TS")
    t = last(st, "trick")
    assert t["winner"] == 2 and t["points"] == 21


def test_e14_marriage_timing():
    st = new3(dealer=0)
    play(st, "pass", "pass", "give 9S 2", "give JS 0", "keep")
    assert st.current_player() == 1 and "play QH marriage" not in st.legal_actions()
    play(st, "play QH")  # trick 1: no declaration, no trump
    assert st.trump is None and st.marriage_pts[1] == 0
    st2 = playing({1: "KD QD QC KC 9H"}, None, [], trick_no=3)
    st2.to_move, st2._legal = 1, st2._play_legal(1)
    assert "play KD marriage" in st2.legal_actions() and "play 9H marriage" not in st2.legal_actions()
    play(st2, "play KD marriage")
    m = last(st2, "marriage")
    assert (m["seat"], m["points"], m["trump"]) == (1, 80, "D") and st2.marriage_pts[1] == 80
    st2.trick, st2.to_move = [], 1
    st2._legal = st2._play_legal(1)
    play(st2, "play QC marriage")
    assert st2.marriage_pts[1] == 140 and last(st2, "marriage")["trump"] == "C"


def test_ace_marriage_declared():
    st = playing({1: "AH AD AC AS 9S"}, None, [], trick_no=2, ace_marriage=True)
    st.to_move, st._legal = 1, st._play_legal(1)
    assert "play AD marriage" in st.legal_actions()
    play(st, "play AD marriage")
    assert st.marriage_pts[1] == 200 and st.trump == 1
    st = playing({1: "AH AD AC AS 9S"}, None, [], trick_no=2)
    st.to_move, st._legal = 1, st._play_legal(1)
    assert "play AD marriage" not in st.legal_actions()


# ----- §8 deal scoring ----------------------------------------------------------------------------
def test_e4_contract_made():
    st = scored(declarer=1, contract=120, card_pts=[20, 88, 12], marriage_pts=[0, 80, 0])
    assert deltas(st) == [20, 120, 10]
    r = rows(st)
    assert r[1]["points"] == 168 and r[2]["score"] == 10 and last(st, "deal_score")["outcome"] == "made"


def test_e5_failed_by_two_points():
    st = scored(declarer=1, contract=140, card_pts=[47, 38, 35], marriage_pts=[0, 100, 0])
    assert deltas(st) == [45, -140, 35]
    assert last(st, "deal_score")["outcome"] == "failed"


def test_e6_defender_marriage():
    st = scored(declarer=1, contract=100, card_pts=[23, 97, 0], marriage_pts=[40, 0, 0])
    assert rows(st)[0]["points"] == 63 and deltas(st)[0] == 65


def test_e7_bolt_third_costs_120_and_resets():
    carry = Carry(3)
    carry.bolts[2] = 2
    carry.totals = [100, 100, 300]
    st = scored(declarer=1, contract=120, card_pts=[30, 90, 0], tricks=[2, 6, 0], carry=carry)
    assert rows(st)[2]["bolt"] and rows(st)[2]["delta"] == 0
    pen = last(st, "bolt_penalty")
    assert (pen["seat"], pen["amount"], pen["total"]) == (2, -120, 180)
    assert st.carry.bolts == [0, 0, 0]


def test_bolt_condition_zero_score():
    st = scored(declarer=1, contract=120, card_pts=[2, 108, 10], tricks=[1, 6, 1],
                bolt_condition="zero_score")
    assert [r["bolt"] for r in rows(st)] == [True, False, False]
    st = scored(declarer=1, contract=120, card_pts=[2, 108, 10], tricks=[1, 6, 1])
    assert [r["bolt"] for r in rows(st)] == [False, False, False]


def test_golden_round_double():
    st = scored(declarer=1, contract=120, card_pts=[20, 88, 12], marriage_pts=[0, 80, 0],
                golden=True, golden_round="double")
    assert deltas(st) == [40, 240, 20]


def test_golden_round_forced120_and_first_three_deals():
    o = opts(3, golden_round="forced120_double")
    st = GAME.new_match(o, 7)
    c = last(st, "contract")
    assert c["how"] == "golden_120" and c["contract"] == 120 and c["declarer"] == st.forehand
    rng = random.Random(1)
    while st.deal_no < 4 and not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    assert [e["golden"] for e in st.events if e["type"] == "deal"][:4] == [True, True, True, False]
    assert st.phase == "auction" and len([e for e in st.events if e["type"] == "contract"]) == 3


# ----- §9 match flow -------------------------------------------------------------------------------
def test_e9_barrel_mount_freeze_and_win():
    carry = Carry(3)
    carry.totals = [0, 0, 860]  # W = P2
    st = scored(declarer=1, contract=120, card_pts=[10, 83, 27], carry=carry)
    assert st.carry.totals[2] == 880 and st.carry.on_barrel[2]
    m = last(st, "barrel_mount")
    assert (m["from"], m["total"]) == (885, 880)
    st = scored(declarer=1, contract=120, card_pts=[0, 80, 40], carry=st.carry.copy())
    assert st.carry.totals[2] == 880 and deltas(st)[2] == 0 and st.carry.attempts[2] == 1
    st = scored(declarer=2, contract=125, card_pts=[0, 20, 100], marriage_pts=[0, 0, 100],
                carry=st.carry.copy())
    assert st.carry.totals[2] == 1005 and st.is_terminal() and st.result().ranks[2] == 1
    assert st.events[-1]["winners"] == [2]


def test_e9_barrel_win_score_1000():
    o = opts(3, win_score=1000)
    assert o.barrel_min_contract == 120 and opts(3).barrel_min_contract == 125
    carry = Carry(3)
    carry.totals, carry.on_barrel = [0, 0, 880], [False, False, True]
    st = scored(declarer=2, contract=120, card_pts=[0, 0, 120], carry=carry, win_score=1000)
    assert st.is_terminal() and st.carry.totals[2] == 1000
    carry = Carry(3)
    carry.totals, carry.on_barrel = [0, 0, 880], [False, False, True]
    st = scored(declarer=2, contract=120, card_pts=[0, 0, 120], carry=carry)
    assert not st.is_terminal() and st.carry.totals[2] == 880  # 120 < 125: nothing


def test_e9_barrel_failed_contract_falls():
    carry = Carry(3)
    carry.totals, carry.on_barrel = [0, 0, 880], [False, False, True]
    st = scored(declarer=2, contract=125, card_pts=[60, 0, 60], carry=carry)
    assert st.carry.totals[2] == 755 and not st.carry.on_barrel[2] and st.carry.falls[2] == 1
    f = last(st, "barrel_fall")
    assert (f["reason"], f["amount"]) == ("contract", 0)


def test_e9_three_deals_without_winning_and_third_fall():
    carry = Carry(3)
    carry.totals, carry.on_barrel = [0, 0, 880], [False, False, True]
    for _ in range(3):
        st = scored(declarer=1, contract=120, card_pts=[0, 120, 0], carry=carry)
        carry = st.carry.copy()
    assert carry.totals[2] == 760 and carry.falls[2] == 1 and not carry.on_barrel[2]
    carry.totals[2], carry.on_barrel[2], carry.falls[2] = 880, True, 2
    carry.attempts[2] = 2
    st = scored(declarer=1, contract=120, card_pts=[0, 120, 0], carry=carry)
    assert st.carry.totals[2] == 0 and st.carry.falls[2] == 0
    assert last(st, "barrel_fall")["fall"] == 3


def test_e10_collisions():
    carry = Carry(3)
    carry.totals, carry.on_barrel = [0, 850, 880], [False, False, True]  # W = P2 on the barrel
    st = scored(declarer=0, contract=120, card_pts=[80, 40, 0], marriage_pts=[60, 0, 0], carry=carry)
    assert st.carry.totals == [120, 880, 760] and st.carry.on_barrel == [False, True, False]
    carry = Carry(3)
    carry.totals = [0, 875, 870]
    st = scored(declarer=0, contract=100, card_pts=[80, 20, 20], marriage_pts=[40, 0, 0], carry=carry)
    assert st.carry.totals == [100, 760, 760] and st.carry.on_barrel == [False, False, False]


def test_e11_jump_over_the_barrel():
    carry = Carry(3)
    carry.totals = [0, 845, 0]
    st = scored(declarer=1, contract=160, card_pts=[0, 100, 20], marriage_pts=[0, 60, 0], carry=carry)
    assert st.carry.totals[1] == 1005 and st.is_terminal() and st.result().ranks == (3, 1, 2)


@pytest.mark.parametrize("neg, start, end", [(False, 535, 0), (False, -575, -555), (True, -575, 0)])
def test_e12_dump_truck(neg, start, end):
    carry = Carry(3)
    carry.totals = [start, 0, 0]
    st = scored(declarer=1, contract=100, card_pts=[20, 100, 0], tricks=[1, 7, 1], carry=carry,
                dump_truck=True, dump_truck_negative=neg)
    assert st.carry.totals[0] == end
    st = scored(declarer=1, contract=100, card_pts=[20, 100, 0], carry=Carry(3).copy())
    assert st.carry.totals[0] == 20


def test_win_ties():
    assert winners([1005, 1005, 0], 1001, 1) == [1]
    assert winners([1005, 1005, 0], 1001, 2) == [0, 1]
    assert winners([1010, 1005, 0], 1001, 1) == [0]
    assert winners([1000, 0, 0], 1001, 0) == []


def test_tie_is_a_draw_and_winning_deal_stops_processing():
    carry = Carry(3)
    carry.totals, carry.bolts = [940, 960, 0], [0, 2, 0]
    st = scored(declarer=2, contract=100, card_pts=[63, 43, 14], tricks=[3, 0, 5], carry=carry)
    assert st.carry.totals[:2] == [1005, 1005]
    assert st.result().ranks == (1, 1, 3)
    assert st.carry.bolts[1] == 3 and not [e for e in st.events if e["type"] == "bolt_penalty"]


def test_length_cap():
    st = GAME.new_match(opts(3, max_deals=2), 3)
    rng = random.Random(0)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    assert st.events[-2] == {"type": "capped", "deals": 2}
    r = st.result()
    assert list(r.ranks) == [1 + sum(1 for x in r.scores if x > s) for s in r.scores]
    assert GAME.length_cap(opts(3)) == 200


# ----- §11 two players, §12 four players ------------------------------------------------------
def test_e15_four_player_dealer_scores_the_prikup():
    assert prikup_score(cards("AS KH QH")) == 120
    st = scored(n=4, declarer=1, contract=100, card_pts=[0, 100, 10, 10])
    assert rows(st)[0]["role"] == "sitter" and not rows(st)[0]["bolt"]
    dealt = [e for e in st.events if e["type"] == "deal"][0]["prikups"][0]
    assert rows(st)[0]["score"] == prikup_score(cards(" ".join(dealt))) == deltas(st)[0]


def test_four_player_layout_and_sitter():
    st = GAME.new_match(opts(4), 11)
    deal = st.events[1]
    assert deal["sitter"] == st.dealer and deal["hands"][st.dealer] == []
    assert sorted(len(h) for h in deal["hands"]) == [0, 7, 7, 7]
    assert st.dealer not in st.active and st.current_player() == (st.dealer + 2) % 4


def test_e16_two_player_last_trick_takes_the_other_prikup():
    o = opts(2)
    hands = [cards("9H JH QH KH TH AH 9D QD KD"), cards("TD AD 9C QC KC TC AC QS KS")]
    prikups = [cards("JC 9S TS"), cards("JD AS JS")]
    st = ThousandState.from_deal(o, hands, prikups, dealer=1)  # P0 forehand sits on 100
    assert st.current_player() == 1  # the dealer speaks first
    play(st, "pass")
    assert st.legal_actions() == ["prikup 0", "prikup 1"]
    play(st, "prikup 1", "give JD 1", "bury AS")
    assert sorted(st.rest_prikup) == sorted(cards("JC 9S TS AS"))
    assert st.observation(1)["log"][-1] == [0, "bury ?"]
    play(st, "keep")
    assert len(st.hands[0]) == 10 and len(st.hands[1]) == 10
    rng = random.Random(2)
    while st.phase == PLAY and st.deal_no == 1:
        st.apply(rng.choice(st.legal_actions()))
    lp = last(st, "last_prikup")
    assert lp["points"] == 23 and lp["seat"] == last(st, "trick")["winner"]
    assert len([e for e in st.events if e["type"] == "trick"]) == 10


# ----- redeal option -------------------------------------------------------------------------------
def test_redeal_on_a_poor_prikup_and_on_demand():
    hands, prikups = deal3("9H JH 9D JD 9C QS KS", "KH QH AH TH AS TS QC",
                           "AD TD KD QD AC TC KC", "9S JC JS")
    st = ThousandState.from_deal(opts(3, redeal=True), hands, prikups, dealer=0)
    play(st, "pass", "pass", "give 9S 2", "give JS 0", "keep")  # prikup 0+2+2 = 4 < 5
    r = last(st, "redeal")
    assert r["reason"] == "prikup" and st.redeal_no == 1 and st.deal_no == 1 and st.dealer == 0
    hands, prikups = deal3(H0, H1, H2, PK)
    st = ThousandState.from_deal(opts(3, redeal=True), hands, prikups, dealer=0)
    play(st, "pass", "pass", "give QC 2", "give JC 0", "keep")  # P0: 9H JH 9D JD 9C QS KS JC
    assert st.current_player() == 0 and st.legal_actions() == ["play on", "redeal"]
    play(st, "redeal")
    assert last(st, "redeal")["seat"] == 0 and st.redeal_no == 1
    d = [e for e in st.events if e["type"] == "deal"][-1]
    assert (d["deal"], d["redeal"]) == (1, 1)


# ----- barrel auction automatic ---------------------------------------------------------------------
def test_barrel_auction_automatic():
    hands, prikups = deal3(H0, H1, H2, PK)
    carry = Carry(3)
    carry.totals, carry.on_barrel = [880, 0, 0], [True, False, False]
    st = ThousandState.from_deal(opts(3, barrel_auction="automatic"), hands, prikups, dealer=1,
                                 carry=carry)
    c = last(st, "contract")
    assert (c["declarer"], c["contract"], c["how"]) == (0, 125, "barrel")


# ----- options ----------------------------------------------------------------------------------------
def test_option_defaults():
    o = opts()
    assert (o.num_players, o.win_score, o.barrel_threshold, o.barrel_min_contract, o.barrel_attempts,
            o.barrel_fall_penalty, o.barrel_falls_to_zero, o.bid_step, o.max_bid_cap, o.bolt_penalty,
            o.bolts_per_penalty, o.bolt_condition, o.must_overtake, o.show_prikup_on_forced_100,
            o.rospis, o.rospis_penalty, o.redeal, o.ace_marriage, o.dump_truck,
            o.dump_truck_negative, o.dark_bidding, o.golden_round, o.barrel_auction,
            o.negative_bidding, o.max_deals) == (
        3, 1001, 880, 125, 3, 120, 3, 5, 300, 120, 3, "no_tricks", False, False, True, "bid",
        False, False, False, False, False, "off", "normal", "allowed", 200)
    assert GAME.default_players == 3 and GAME.player_counts == (2, 3, 4)


@pytest.mark.parametrize("values, words", [
    ({"dump_truck_negative": True}, "dump_truck"),
    ({"golden_round": "forced120_double", "barrel_auction": "automatic"}, "golden_round"),
    ({"bid_step": 7}, "bid_step"),
    ({"barrel_min_contract": 400}, "barrel_min_contract"),
    ({"barrel_threshold": 1200}, "barrel_threshold"),
    ({"max_deals": 0}, "max_deals"),
    ({"bolt_condition": "never"}, "bolt_condition"),
    ({"golden_round": "triple"}, "golden_round"),
])
def test_invalid_options_one_clear_line(values, words):
    with pytest.raises(OptionError) as err:
        opts(3, **values)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_options_from_text():
    o = GAME.make_options(3, {"win_score": "1000", "must_overtake": "true", "golden_round": "double"})
    assert o.win_score == 1000 and o.must_overtake and o.golden_round == "double"


# ----- chance and duplicates --------------------------------------------------------------------------
def test_deals_are_shared_across_different_choices():
    def deals(policy_seed: int) -> dict:
        st = GAME.new_match(opts(3, max_deals=4), 99)
        rng = random.Random(policy_seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        return {(e["deal"], e["redeal"]): (e["hands"], e["prikups"]) for e in st.events
                if e["type"] == "deal"}
    a, b = deals(1), deals(2)
    assert a == b or all(a[k] == b[k] for k in a.keys() & b.keys())
    assert len(a.keys() & b.keys()) >= 4


def test_observation_does_not_hold_hidden_cards():
    st = new3(dealer=0)
    obs = st.observation(0)
    assert obs["hand"] == sorted(H0.split(), key=card) and obs["prikup"] is None
    assert "KH" not in str(obs)


# ----- numeric options away from their defaults -----------------------------------------------
def _on_barrel(total: int = 880, attempts: int = 0, falls: int = 0) -> Carry:
    carry = Carry(3)
    carry.totals, carry.on_barrel = [0, 0, total], [False, False, True]
    carry.attempts[2], carry.falls[2] = attempts, falls
    return carry


@pytest.mark.parametrize("values, total, on", [
    ({"barrel_attempts": 1}, 760, False),
    ({"barrel_attempts": 1, "barrel_fall_penalty": 100}, 780, False),
    ({"barrel_attempts": 1, "barrel_falls_to_zero": 1}, 0, False),
    ({}, 880, True),
])
def test_barrel_numbers(values, total, on):
    st = scored(declarer=1, contract=120, card_pts=[0, 120, 0], carry=_on_barrel(), **values)
    assert st.carry.totals[2] == total and st.carry.on_barrel[2] == on


def test_barrel_threshold_option():
    carry = Carry(3)
    carry.totals = [0, 0, 870]
    st = scored(declarer=1, contract=120, card_pts=[0, 110, 10], carry=carry, barrel_threshold=900)
    assert st.carry.totals[2] == 880 and not st.carry.on_barrel[2]
    carry = Carry(3)
    carry.totals = [0, 0, 890]
    st = scored(declarer=1, contract=120, card_pts=[0, 110, 10], carry=carry, barrel_threshold=900)
    assert st.carry.totals[2] == 900 and st.carry.on_barrel[2]


def test_bolt_numbers():
    carry = Carry(3)
    carry.bolts[2] = 1
    st = scored(declarer=1, contract=120, card_pts=[0, 120, 0], tricks=[1, 7, 0], carry=carry,
                bolt_penalty=50, bolts_per_penalty=2)
    assert st.carry.totals[2] == -50 and st.carry.bolts[2] == 0


def test_max_bid_cap_option():
    st = new3(dealer=0, max_bid_cap=150)
    assert st.legal_actions()[-1] == "bid 150"
