"""The C, JavaScript and Rust starter kits, written for OpenSpiel games (`arena new-bot --game
openspiel:NAME`), pass `arena check` unchanged: the SDK's protocol carries OpenSpiel's
observation (strings, the tensor as a list of floats, the history with nils) and its action
strings like any game's. Two games, two seats each: one kit written for Leduc poker, its
manifest's `games` widened to the family (`["openspiel:"]`), so that a compiled kit is built once
for both (the kits' code is the same for every game)."""
from __future__ import annotations

import pytest

from arena.bots import load_bot
from arena.checker import CheckPlan, check_bot
from arena.kits import missing_tools, write_kit
from arena.referee import TimeControl
from arena.sandbox import Limits
from tests.conftest import surviving_children
from tests.kits.test_kits import build_cache  # noqa: F401  (the fixture)

pytest.importorskip("pyspiel")

from arena.games import get_game


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["c", "javascript", "rust"])
def test_kit_passes_arena_check_in_two_openspiel_games(lang, tmp_path, build_cache) -> None:  # noqa: F811
    missing = missing_tools(lang)
    assert not missing, f"the {lang} kit needs {', '.join(missing)}"
    folder = write_kit(tmp_path / "mybot", get_game("openspiel:leduc_poker"), lang)
    manifest = folder / "bot.toml"
    text = manifest.read_text(encoding="utf-8")
    assert 'games = ["openspiel:leduc_poker"]' in text
    manifest.write_text(text.replace('"openspiel:leduc_poker"', '"openspiel:"'), encoding="utf-8")
    bot = load_bot(folder)
    for name in ("leduc_poker", "connect_four"):
        game = get_game("openspiel:" + name)
        plan = CheckPlan(game, {}, [2], TimeControl(), Limits(), 1)
        lines: list[str] = []
        problems = check_bot(bot, plan, lines.append)
        assert problems == [], "\n".join(problems)
        played = [line for line in lines if ": ok, " in line]
        assert len(played) == 2, lines
    assert not surviving_children()
