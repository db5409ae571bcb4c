"""Starter kits: every kit, for every registered game, passes ``arena check``; ``arena new-bot``.

The C and Rust kits are built by arena's build step (in the sandbox, into a fresh build cache per
test session); the toolchains come from scripts/install-system-packages.sh (Debian packages under
/usr). A missing toolchain fails the test with the packages to install.
"""
from __future__ import annotations

import random
import re

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
def test_readme_explains_the_game_from_its_observation_page(game_name, tmp_path):
    game = GAMES[game_name]
    section = game_section(game)
    page = game.observation_page.read_text(encoding="utf-8")
    assert section and section in page and not section.startswith("#")
    assert "**Actions**" in section, f"{game.observation_page} has no {game_name} actions"
    for lang in LANGUAGES:
        folder = write_kit(tmp_path / lang, game, lang, name="mybot")
        readme = (folder / "README.md").read_text(encoding="utf-8")
        assert section in readme
        assert f"arena check {tmp_path / lang} --game {game_name}" in readme
        assert "first legal action" in readme and LANGUAGES[lang].code in readme
        manifest = load_bot(folder)
        assert manifest.name == "mybot" and manifest.games == (game_name,)
        code = (folder / LANGUAGES[lang].code).read_text(encoding="utf-8")
        assert "{{" not in code
        assert "choose" in code


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_readme_says_what_every_observation_field_holds(game_name):
    """Every field of a real observation has a row of the README's table: its type and meaning,
    not only its name."""
    game = GAMES[game_name]
    rows = {}
    for line in game_section(game).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) >= 3 and all(cells[1:]):
            for field_name in re.findall(r"`([a-z_]+)`", cells[0]):
                rows[field_name] = cells
    state = game.new_match(game.make_options(game.default_players), 1)
    observation = state.observation(state.current_player())
    assert sorted(set(observation) - set(rows)) == []


# How each kit's code names an observation field in its comments and code.
FIELD_USES = re.compile(r'observation\["(\w+)"\]|mp_get\(observation, "(\w+)"\)'
                        r'|observation\.get\("(\w+)"\)|observation\.(?!get\b)(\w+)')


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_a_kit_names_only_fields_of_its_games_observation(game_name, tmp_path):
    """Each kit shows how to read one observation field (the game's ``example_field``): it must be
    a field of that game's real observation, in every language (Dice 1000 has no ``hand``)."""
    game = GAMES[game_name]
    options = game.capped_options(game.default_players, {}, 2)
    state, rng = game.new_match(options, 7), random.Random(7)
    fields = set(state.observation(0))
    while not state.is_terminal():  # a short match played out: some fields come only at the end
        state.apply(rng.choice(state.legal_actions()))
    fields |= set(state.observation(0))
    for lang in LANGUAGES:
        folder = write_kit(tmp_path / lang, game, lang, name="mybot")
        named = set()
        for path in folder.rglob("*"):
            if path.is_file() and path.name != "README.md":
                for match in FIELD_USES.finditer(path.read_text(encoding="utf-8")):
                    named.add(next(g for g in match.groups() if g))
        assert named, f"the {lang} kit names no observation field"
        assert named <= fields, (lang, named - fields)
        readme = (folder / "README.md").read_text(encoding="utf-8")
        for field in re.findall(r"^\| `(\w+)`", readme, re.M):  # the observation tables
            assert field in fields, (lang, field)
        if game_name == "dice-1000":
            assert "hand" not in named and "`hand`" not in readme


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


def test_new_bot_writes_python_when_no_language_is_given(tmp_path):
    """docs/classroom.md: `arena new-bot mybot --game block`."""
    target = tmp_path / "mybot"
    result = CliRunner().invoke(cli, ["new-bot", str(target), "--game", "block"])
    assert result.exit_code == 0, result.output
    assert "a Python bot for Block" in result.output
    assert load_bot(target).command[0] == "python3"


def debian_python_package() -> str | None:
    """A package that a Debian package installed for the system Python (under /usr), not the
    standard library's nor one arena stages for bots: None if this machine has none."""
    import subprocess
    from pathlib import Path

    folder = Path("/usr/lib/python3/dist-packages")
    names = sorted(p.name for p in folder.glob("*") if (p / "__init__.py").is_file())
    for name in names:
        if name.isidentifier() and name not in ("msgpack", "protocol", "arena"):
            found = subprocess.run(["/usr/bin/python3", "-c", f"import {name}; print({name}.__file__)"],
                                   capture_output=True, text=True)
            if found.returncode == 0 and found.stdout.startswith(str(folder)):
                return name
    return None


def test_a_python_bot_imports_what_its_readme_says(tmp_path):
    """The Python kit's README says what a sandboxed bot can import, Debian's packages under /usr
    included (docs/sandbox.md, "The interpreter question"); a bot of the kit does import one."""
    from arena.referee import play_match

    note = " ".join((write_kit(tmp_path / "doc", GAMES["block"], "python") / "README.md")
                    .read_text(encoding="utf-8").split())
    assert "only the standard library" not in note
    assert "the Python packages installed under `/usr` on the machine that plays the matches" in note
    package = debian_python_package()
    if package is None:
        pytest.skip("no Debian Python package under /usr/lib/python3/dist-packages to import")
    folder = write_kit(tmp_path / "mybot", GAMES["block"], "python")
    code = (folder / "main.py").read_text(encoding="utf-8")
    (folder / "main.py").write_text(f"import sys, {package}\nprint('imported', {package}.__file__, "
                                    "file=sys.stderr)\n" + code, encoding="utf-8")
    bot = load_bot(folder)
    record = play_match("block", [bot, bot], options={"target": 10})
    assert [s.status for s in record.statuses] == ["ok", "ok"], record.statuses
    assert f"imported /usr/lib/python3/dist-packages/{package}/" in record.statuses[0].stderr_tail
