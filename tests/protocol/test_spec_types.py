"""What SPEC.md §2 promises a decoder: the referee sends maps with str keys, str (never bin),
ints, bools, nil and arrays; no floats, no extension types. Checked on every game's messages."""
from __future__ import annotations

import random

import pytest

from arena.games import GAMES
from arena.options import options_to_dict
from protocol.wire import decode_body, encode

ALLOWED = (str, int, bool, type(None))


def _walk(value, where):
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str), f"{where}: key {key!r}"
            _walk(item, f"{where}.{key}")
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _walk(item, f"{where}[{i}]")
    else:
        assert isinstance(value, ALLOWED) and not isinstance(value, float), f"{where}: {value!r}"


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_observations_hold_only_the_spec_types(game_name):
    game = GAMES[game_name]
    for n in sorted(game.player_counts):
        options = game.make_options(n)
        _walk(options_to_dict(options), f"{game_name} {n}p hello.options")
        state = game.new_match(options, 11)
        rng = random.Random(n)
        decisions = 0
        while not state.is_terminal() and decisions < 400:
            seat = state.current_player()
            observation = state.observation(seat)
            _walk(observation, f"{game_name} {n}p decision {decisions}")
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1


def test_extra_bytes_after_the_map_are_refused():
    from protocol.wire import FrameError

    body = encode({"type": "ready", "protocol": 1})[4:] + b"\xc0"
    with pytest.raises(FrameError):
        decode_body(body)
