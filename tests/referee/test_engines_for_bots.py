"""A sandboxed Python bot can import the game engines and build worlds from what it sees."""
from __future__ import annotations

from pathlib import Path

import pytest

from arena.bots import bundled_bot, load_bot
from arena.games import GAMES
from arena.record import OK
from arena.referee import TimeControl, play_match

ENGINE_BOT = Path(__file__).parent / "engine_bot"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_bot_samples_worlds_with_the_engine_in_the_sandbox(name):
    game = GAMES[name]
    bot, other = load_bot(ENGINE_BOT), bundled_bot("random")
    n = game.default_players
    options = game.make_options(n, {_cap_option(game): 3 if game.length_unit == "deals" else 30})
    record = play_match(game, [bot] + [other] * (n - 1), options=options, seed=3,
                        time_control=TimeControl(move_ms=5000, bank_ms=5000))
    assert record.statuses[0].status == OK, record.statuses[0]
    assert sum(1 for d in record.decisions if d["seat"] == 0) >= 1
    assert "sampled a world" in record.statuses[0].stderr_tail


def _cap_option(game) -> str:
    """The option that caps a match's length (a short match is enough here)."""
    return next(f for f in ("max_deals", "max_rounds", "max_hands") if hasattr(game.Options, f))
