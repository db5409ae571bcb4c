"""Starter kits: every kit, for every registered game, passes ``arena check``; ``arena new-bot``.

The C and Rust kits are built by arena's build step (in the sandbox, into a fresh build cache per
test session); the toolchains come from scripts/install-system-packages.sh (Debian packages under
/usr). A missing toolchain fails the test with the packages to install.
"""
from __future__ import annotations


import pytest
from click.testing import CliRunner

from arena.bots import load_bot
from arena.checker import CheckPlan, check_bot
from arena.cli import cli
from arena.games import GAMES
from arena.kits import LANGUAGES, game_section, missing_tools, write_kit
from arena.referee import TimeControl
from arena.sandbox import Limits
from tests.conftest import surviving_children




@pytest.fixture(scope="session")
def build_cache(tmp_path_factory):
    folder = tmp_path_factory.mktemp("build-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ARENA_BUILD_CACHE", str(folder))
        yield folder


@pytest.mark.slow
@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_kit_passes_arena_check(game_name, lang, tmp_path, build_cache):
    missing = missing_tools(lang)
    assert not missing, (f"the {lang} kit needs {', '.join(missing)}: run "
                         f"scripts/install-system-packages.sh (Debian packages "
                         f"{' '.join(LANGUAGES[lang].packages)})")
    game = GAMES[game_name]
    bot = load_bot(write_kit(tmp_path / "mybot", game, lang))
    # the check as a student runs it: every match cut short after a few deals (the game's length
    # cap ends it properly: end message, ranks); the kits' code is the same for every decision
    plan = CheckPlan(game, {}, sorted(game.player_counts), TimeControl(), Limits(), 1)
    lines: list[str] = []
    problems = check_bot(bot, plan, lines.append)
    assert problems == [], "\n".join(problems)
    played = [line for line in lines if ": ok, " in line]
    assert len(played) == sum(game.player_counts), lines
    assert all(" decisions of its own" in line for line in played)
    assert not surviving_children()


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_readme_explains_the_game_from_the_spec(game_name, tmp_path):
    game = GAMES[game_name]
    section = game_section(game)
    assert "**Actions**" in section or "Actions" in section, f"SPEC.md §11 has no {game_name} actions"
    for lang in LANGUAGES:
        folder = write_kit(tmp_path / lang, game, lang, name="mybot")
        readme = (folder / "README.md").read_text(encoding="utf-8")
        assert section in readme
        assert f"arena check {tmp_path / lang} --game {game_name}" in readme
        assert "first legal action" in readme and LANGUAGES[lang].code in readme
        manifest = load_bot(folder)
        assert manifest.name == "mybot" and manifest.games == (game_name,)
        code = (folder / LANGUAGES[lang].code).read_text(encoding="utf-8")
        assert "{{name}}" not in code and "{{game}}" not in code
        assert "choose" in code


def test_new_bot_command(tmp_path):
    runner = CliRunner()
    target = tmp_path / "alice-bot"
    result = runner.invoke(cli, ["new-bot", str(target), "--game", "block", "--lang", "c"])
    assert result.exit_code == 0, result.output
    assert "choose() in" in result.output and f"arena check {target} --game block" in result.output
    assert sorted(p.name for p in target.iterdir()) == ["Makefile", "README.md", "bot.toml",
                                                        "main.c", "mp.c", "mp.h"]
    assert load_bot(target).build == ("make",)
    again = runner.invoke(cli, ["new-bot", str(target), "--game", "block", "--lang", "c"])
    assert again.exit_code == 2 and "already exists" in again.output
    bad = runner.invoke(cli, ["new-bot", str(tmp_path / "x"), "--game", "block", "--lang", "cobol"])
    assert bad.exit_code == 2 and "python, c, javascript or rust" in bad.output
    js = runner.invoke(cli, ["new-bot", str(tmp_path / "z"), "--game", "block", "--lang", "js"])
    assert js.exit_code == 0 and (tmp_path / "z" / "msgpack.js").is_file()
    odd = runner.invoke(cli, ["new-bot", str(tmp_path / "9 lives"), "--game", "block", "--lang", "c"])
    assert odd.exit_code == 2 and "--name" in odd.output
    nogame = runner.invoke(cli, ["new-bot", str(tmp_path / "y"), "--game", "chess", "--lang", "c"])
    assert nogame.exit_code == 2 and "unknown game" in nogame.output
