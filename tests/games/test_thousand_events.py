"""The Thousand record is complete: an independent reading of the events alone recomputes every
deal's scores and every total (docs/games/thousand.md §17), for random matches in every variant.
Only the event stream is read here, never the engine's state.
"""
from __future__ import annotations

import random

import pytest

from arena.games.thousand import Thousand

GAME = Thousand()
PTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
MAR = {"H": 100, "D": 80, "C": 60, "S": 40}


def r5(x: int) -> int:
    return (x + 2) // 5 * 5


def check_events(events: list[dict], o) -> int:
    n = o.num_players
    totals, bolts = [0] * n, [0] * n
    on = [False] * n
    deal = None
    checked = 0
    for ev in events:
        t = ev["type"]
        if t == "deal":
            deal = {"ev": ev, "cp": [0] * n, "mp": [0] * n, "tricks": [0] * n, "contract": None,
                    "declarer": None, "dark": False, "rospis": False, "hands": [list(h) for h in ev["hands"]]}
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
        elif t == "trick":
            pts = sum(PTS[c[0]] for c in ev["cards"])
            assert pts == ev["points"]
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
