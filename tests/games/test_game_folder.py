"""A game is one folder: ``arena/games/<game>/`` holds its engine, its options, its observation
page (``observation.md``, linked from protocol/SPEC.md §11) and its replay drawer (``drawer.js``,
``drawer.css``), all found from the game (``Game.folder``); what several games draw alike is in
``arena/games/pieces/``, and the report's own static files know no game."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import arena.games
from arena.games import GAMES, PIECES

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "protocol" / "SPEC.md"


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_every_game_folder_has_its_drawer_styles_and_observation_page(game_name: str) -> None:
    game = GAMES[game_name]
    folder = game.folder
    assert folder.parent == Path(arena.games.__file__).resolve().parent
    assert (folder / "__init__.py").is_file()
    drawer = (folder / "drawer.js").read_text(encoding="utf-8")
    assert f'Arena.registerGame("{game_name}"' in drawer
    for own in ("var PIPS", "die-pip", "tile-body", "pcard-suit"):  # pieces.js draws those
        assert own not in drawer, f"{game_name}'s drawer draws tiles, dice or cards itself"
    assert (folder / "drawer.css").is_file()
    assert game.observation_page == folder / "observation.md"
    page = game.observation_page.read_text(encoding="utf-8")
    assert page.startswith(f'# {game.title} (`"{game_name}"`)\n')
    assert "**Actions**" in page and "**Observation fields**" in page


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_the_spec_links_every_games_observation_page(game_name: str) -> None:
    """SPEC.md §11 is still the whole contract: it links each game's page, by a relative link
    that resolves from protocol/ (as on GitHub)."""
    spec = SPEC.read_text(encoding="utf-8")
    section = spec[spec.index("## 11."):spec.index("## 12.")]
    links = {(SPEC.parent / target).resolve() for target in re.findall(r"\]\(([^)#]+\.md)\)", section)}
    assert GAMES[game_name].observation_page in links
    assert "**Observation fields**" not in section  # the pages hold them, once


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_the_example_field_is_in_the_games_observation(game_name: str) -> None:
    game = GAMES[game_name]
    state = game.new_match(game.make_options(game.default_players), 3)
    assert game.example_field.isidentifier()
    assert game.example_field in state.observation(0)


def test_the_pieces_are_beside_the_games_and_the_report_draws_no_game() -> None:
    assert PIECES == Path(arena.games.__file__).resolve().parent / "pieces"
    pieces = (PIECES / "pieces.js").read_text(encoding="utf-8")
    for piece in ("draw.tile", "draw.card", "draw.die", "draw.track"):
        assert piece in pieces
    assert "--tile-h" in (PIECES / "pieces.css").read_text(encoding="utf-8")
    static = ROOT / "reports" / "static"
    assert not (static / "games").exists()
    assert not (static / "draw.js").exists() and not (static / "draw.css").exists()
    for path in static.iterdir():
        text = path.read_text(encoding="utf-8")
        for word in ("tile", "felt", "pcard", "die-", "pips?\b", "barrel", "domino", "dice"):
            assert not re.search(rf"\b{word}", text, re.I), f"{path.name} speaks of {word!r}"
