"""Thousand.sample_state: the sampled deal keeps every public fact and the seat's own view."""
from __future__ import annotations

import random
import time

import pytest

from arena.games.thousand import Thousand
from arena.games.thousand.cards import DECK
from arena.games.thousand.sample import _play_facts

GAME = Thousand()


def _positions(n: int, values: dict, seeds=range(6), every: int = 7):
    o = GAME.make_options(n, values)
    for seed in seeds:
        st = GAME.new_match(o, seed)
        rng = random.Random(seed)
        k = 0
        while not st.is_terminal() and st.deal_no <= 3:
            k += 1
            if k % every == 0:
                yield o, st
            st.apply(rng.choice(st.legal_actions()))


@pytest.mark.parametrize("n, values", [
    (3, {}), (2, {}), (4, {}), (3, {"must_overtake": True, "dark_bidding": True}),
    (2, {"must_overtake": True, "ace_marriage": True})])
def test_sampled_states_keep_every_fact(n, values):
    rng = random.Random(5)
    changed = total = 0
    for o, st in _positions(n, values):
        for seat in range(n):
            obs = st.observation(seat)
            new = GAME.sample_state(o, obs, rng)
            assert new.observation(seat) == obs
            if st.current_player() == seat:
                assert new.legal_actions() == st.legal_actions()
            played, banned = _play_facts(obs, o.must_overtake)
            gone = [c for _, c in played]
            every = sorted(sum(new.hands, []) + gone + (list(new.rest_prikup) if n == 2 and new.taken
                                                        else [] if new.taken else sum(new.prikups, [])))
            assert every == list(DECK)
            for s in range(n):
                assert not set(new.hands[s]) & banned[s], (s, banned[s])
            total += 1
            changed += [new.hands[s] for s in range(n) if s != seat] != [st.hands[s] for s in range(n) if s != seat]
    assert total and changed >= 0.6 * total


def test_sample_is_fast():
    o = GAME.make_options(3)
    st = GAME.new_match(o, 1)
    rng = random.Random(1)
    for _ in range(14):
        st.apply(rng.choice(st.legal_actions()))
    obs = st.observation(st.current_player())

    def seconds(make) -> float:
        started = time.perf_counter()
        for i in range(100):
            make(i)
        return time.perf_counter() - started
    # against dealing a new match, measured in alternation (a machine's load slows both alike):
    # a sample is a deal of the unseen cards kept to what the play showed, about 2.5 deals here
    rounds = [(seconds(lambda i: GAME.sample_state(o, obs, rng)),
               seconds(lambda i: GAME.new_match(o, i))) for _ in range(5)]
    sample, deal = min(r[0] for r in rounds), min(r[1] for r in rounds)
    assert sample < 10 * deal, (sample, deal)


def test_sampled_hands_hold_the_marriages_their_bids_showed():
    from arena.games.thousand.cards import cards
    from arena.games.thousand.scoring import max_bid
    from arena.games.thousand.state import ThousandState
    hands = [cards("9H JH 9D JD 9C QS KS"), cards("KH QH AH TH AS TS 9S"), cards("AD TD KD QD AC TC KC")]
    st = ThousandState.from_deal(GAME.make_options(3), hands, [cards("QC JC JS")], dealer=0)
    st.apply("bid 200")  # P2 (diamonds, 80) shows at least 80 in marriages
    st.apply("pass")
    o = st.options
    rng = random.Random(3)
    obs = st.observation(1)
    for _ in range(50):
        new = GAME.sample_state(o, obs, rng)
        assert max_bid(new.hands[2], 300) >= 200
    st.apply("pass")  # P2 declarer; after the exchange the sample keeps P2's original marriages
    st.apply("give JC 0")
    st.apply("give JS 1")
    obs = st.observation(0)
    ok = 0
    for _ in range(30):
        new = GAME.sample_state(o, obs, rng)
        first = [c for c in new.hands[2] + [c for _, c in new.given] if c not in new.taken]
        ok += max_bid(first, 300) >= 200
    assert ok >= 25
