"""Observations do not grow with the match: an ``act`` of a long match is no bigger than one of
a short match (the current deal in full, what the rules carry between deals, nothing more)."""
from __future__ import annotations

import random

from arena.games import get_game
from protocol.wire import encode

BLOCK = get_game("block")


def largest_act(options, seeds: range) -> int:
    """The largest ``act`` frame, as the referee sends it, over random matches."""
    largest = 0
    for seed in seeds:
        policy = random.Random(seed)
        state = BLOCK.new_match(options, seed)
        decision = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            message = {"type": "act", "decision": decision,
                       "observation": state.observation(state.current_player()), "legal": legal,
                       "clock": {"move_ms": 1000, "bank_ms": 10000}}
            largest = max(largest, len(encode(message)))
            state.apply(policy.choice(legal))
            decision += 1
    return largest


def test_the_largest_act_of_a_block_match_to_500_is_that_of_a_single_deal():
    seeds = range(12)
    long = largest_act(BLOCK.make_options(2, {"target": 500}), seeds)
    short = largest_act(BLOCK.make_options(2, {"single_deal": True}), seeds)
    assert long <= 1.1 * short, (long, short)
