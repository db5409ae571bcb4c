"""The Thousand record is complete: an independent reading of the events alone recomputes every
deal's scores and every total (docs/games/thousand.md §17), for random matches in every variant,
and re-derives every deal from the seed (§4). Only the event stream and the documents are read
here, never the engine's state.
"""
from __future__ import annotations

import hashlib
import random

import pytest

from arena.games.thousand import Thousand

GAME = Thousand()
PTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
MAR = {"H": 100, "D": 80, "C": 60, "S": 40}
RANKS = "9JQKTA"  # trick order, low to high (§1)
# §4: the 24 cards before the shuffle: 9H JH QH KH TH AH 9D … AS
ORDER = [r + s for s in "HDCS" for r in RANKS]


def r5(x: int) -> int:
    return (x + 2) // 5 * 5


def best_card(cards: list[str], trump: str | None) -> int:
    """§7: the index of the trick's winning card: the highest trump, else the highest card of the
    suit led."""
    best = 0
    for i, c in enumerate(cards):
        b = cards[best]
        if c[1] == b[1]:
            if RANKS.index(c[0]) > RANKS.index(b[0]):
                best = i
        elif c[1] == trump:
            best = i
    return best


def check_events(events: list[dict], o) -> int:
    n = o.num_players
    totals, bolts = [0] * n, [0] * n
    on = [False] * n
    deal = None
    trump = None
    checked = 0
    for ev in events:
        t = ev["type"]
        if t == "deal":
            deal = {"ev": ev, "cp": [0] * n, "mp": [0] * n, "tricks": [0] * n, "contract": None,
                    "declarer": None, "dark": False, "rospis": False, "hands": [list(h) for h in ev["hands"]]}
            trump = None
            assert sorted(sum(ev["hands"], []) + sum(ev["prikups"], [])) == sorted(
                r + s for r in "9JQKTA" for s in "HDCS")
        elif t == "contract":
            deal["contract"], deal["declarer"], deal["dark"] = ev["contract"], ev["declarer"], ev["dark"]
        elif t == "action":
            a = ev["action"]
            if a.startswith("raise "):
                deal["contract"] = int(a.split()[1])
            elif a == "rospis":
                deal["rospis"] = True
        elif t == "marriage":
            deal["mp"][ev["seat"]] += ev["points"]
            trump = ev["trump"]
        elif t == "trick":
            pts = sum(PTS[c[0]] for c in ev["cards"])
            assert pts == ev["points"]
            assert ev["trump"] == trump  # the trump of the last declaration, none before one
            in_play = [s for s in range(n) if s != deal["ev"]["sitter"]]  # seat order, to the left
            i = in_play.index(ev["leader"]) + best_card(ev["cards"], trump)
            assert ev["winner"] == in_play[i % len(in_play)]
            deal["cp"][ev["winner"]] += pts
            deal["tricks"][ev["winner"]] += 1
        elif t == "last_prikup":
            assert sum(PTS[c[0]] for c in ev["cards"]) == ev["points"]
            deal["cp"][ev["seat"]] += ev["points"]
        elif t == "deal_score":
            d, c = deal["declarer"], deal["contract"]
            assert (ev["declarer"], ev["contract"], ev["dark"]) == (d, c, deal["dark"])
            golden = 2 if deal["ev"]["golden"] else 1
            sitter = deal["ev"]["sitter"]
            for row in ev["seats"]:
                s = row["seat"]
                if s == sitter:
                    pk = deal["ev"]["prikups"][0]
                    cp = sum(PTS[x[0]] for x in pk)
                    mp = sum(MAR[u] for u in "HDCS" if "K" + u in pk and "Q" + u in pk)
                    score, mult = r5(cp + mp), golden
                    assert (row["card_points"], row["marriage_points"]) == (cp, mp)
                else:
                    assert row["card_points"] == deal["cp"][s] and row["marriage_points"] == deal["mp"][s]
                    assert row["tricks"] == deal["tricks"][s]
                    pts = deal["cp"][s] + deal["mp"][s]
                    if s == d:
                        mult = golden * (2 if deal["dark"] else 1)
                        if deal["rospis"]:
                            score = -c if o.rospis_penalty == "bid" else 0
                        else:
                            score = c if pts >= c else -c
                            assert ev["outcome"] == ("made" if pts >= c else "failed")
                    else:
                        mult = golden
                        score = -(-c // 10) * 5 if deal["rospis"] else r5(pts)
                assert (row["score"], row["multiplier"]) == (score, mult), row
                assert row["barrel"] == on[s]
                delta = score * mult
                if on[s]:
                    made_big = s == d and not deal["rospis"] and score > 0 and c >= o.barrel_min_contract
                    failed = s == d and not deal["rospis"] and score < 0
                    delta = delta if (made_big or failed) else 0
                assert row["delta"] == delta
                if row["bolt"]:
                    bolts[s] += 1
                assert row["bolts"] == bolts[s]
                totals[s] += delta
                checked += 1
        elif t == "bolt_penalty":
            totals[ev["seat"]] += ev["amount"]
            bolts[ev["seat"]] = 0
            assert totals[ev["seat"]] == ev["total"]
        elif t == "barrel_mount":
            assert ev["from"] == totals[ev["seat"]]
            totals[ev["seat"]] = ev["total"]
            on[ev["seat"]] = True
        elif t == "barrel_fall":
            totals[ev["seat"]] += ev["amount"]
            assert totals[ev["seat"]] == ev["total"]
            on[ev["seat"]] = False
        elif t == "dump_truck":
            assert totals[ev["seat"]] == ev["from"]
            totals[ev["seat"]] = 0
        elif t == "totals":
            assert ev["totals"] == totals and ev["bolts"] == bolts
            assert [b[0] for b in ev["barrel"]] == on
        elif t == "match_end":
            assert ev["scores"] == totals
    return checked


@pytest.mark.parametrize("n, values", [
    (3, {}), (2, {}), (4, {}), (3, {"golden_round": "double", "dark_bidding": True}),
    (3, {"golden_round": "forced120_double", "rospis_penalty": "bolt", "dump_truck": True}),
    (2, {"ace_marriage": True, "must_overtake": True, "redeal": True}),
    (4, {"barrel_auction": "automatic", "win_score": 1000, "bolt_condition": "zero_score"}),
])
def test_events_recompute_every_number(n, values):
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location(
        "thousand_strategy_ev", Path(__file__).resolve().parents[2] / "bots" / "thousand" / "strategy.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    o = GAME.make_options(n, values)
    total = 0
    for seed in range(6):
        st = GAME.new_match(o, seed)
        rng = random.Random(seed)
        smart = set(range(n)) if seed % 2 else {0}
        while not st.is_terminal():
            seat, legal = st.current_player(), st.legal_actions()
            st.apply(mod.choose(st.observation(seat), legal) if seat in smart else rng.choice(legal))
        total += check_events(st.events, o)
    assert total > 0


def stream(seed: int, *key) -> random.Random:
    """A named chance stream as docs/match-record.md defines it."""
    text = "arena-chance/" + str(seed) + "/" + "/".join(str(k) for k in key)
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1)


@pytest.mark.parametrize("n, values", [(3, {"redeal": True}), (2, {"redeal": True}), (4, {})])
def test_deals_rederived_from_the_seed(n, values):
    """§4: the first dealer from ``dealer``; deal d's r-th redeal shuffles the 24 cards in their
    documented order with ``deal/d/r`` and cuts them seat 0 first, then the prikup(s)."""
    o = GAME.make_options(n, {**values, "max_deals": 12})
    redeals = deals = 0
    for seed in (3, 1_000_003, 2**62 + 5):
        st = GAME.new_match(o, seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        first = [e for e in st.events if e["type"] == "dealer"]
        assert [e["seat"] for e in first] == [stream(seed, "dealer").randrange(n)]
        for ev in st.events:
            if ev["type"] != "deal":
                continue
            deck = list(ORDER)
            stream(seed, "deal", ev["deal"], ev["redeal"]).shuffle(deck)
            sizes = {2: [9, 9, 3, 3], 3: [7, 7, 7, 3]}.get(n) or [
                0 if s == ev["dealer"] else 7 for s in range(4)] + [3]
            blocks, i = [], 0
            for k in sizes:
                blocks.append(sorted(deck[i:i + k], key=ORDER.index))  # events list cards in deck order
                i += k
            assert ev["hands"] + ev["prikups"] == blocks
            deals += 1
            redeals += ev["redeal"] > 0
    assert deals > 12 and (redeals > 0 or "redeal" not in values)


def test_trick_carries_the_trump_in_force():
    """§7: no trump on trick 1; a marriage declared on a lead makes its suit trump for that trick
    and the next ones, and every trick event says so."""
    from arena.games.thousand.cards import cards
    from arena.games.thousand.state import ThousandState
    hands = [cards("9H JH 9D JD 9C QS KS"), cards("KH QH AH TH AS TS 9S"),
             cards("AD TD KD QD AC TC KC")]
    st = ThousandState.from_deal(GAME.make_options(3, {}), hands, [cards("QC JC JS")], dealer=0)
    for a in ("pass", "pass", "give 9S 2", "give JS 0", "keep",  # P1 declarer at a forced 100
              "play AS", "play 9S", "play JS",                  # trick 1, no trump
              "play KH marriage", "play AD", "play 9H",          # trick 2, hearts trump from here
              "play AH", "play KC", "play JH",
              "play TS", "play KD", "play QS"):                  # trick 4
        st.apply(a)
    tricks = [e for e in st.events if e["type"] == "trick"]
    assert [t["trump"] for t in tricks] == [None, "H", "H", "H"]
    assert [t["winner"] for t in tricks] == [1, 1, 1, 1]
