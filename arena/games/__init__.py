"""The registry: a game's name to the game. Each game is a folder here (``Game.folder``); what
several games share for drawing (domino tiles, playing cards, dice) is in ``pieces/``."""
from __future__ import annotations

from pathlib import Path

from arena.errors import UnknownGameError
from arena.game import Game
from arena.games.block import Block
from arena.games.dice_1000 import Dice1000
from arena.games.domino_cribbage import DominoCribbage
from arena.games import openspiel
from arena.games.thousand import Thousand

# pieces.js, pieces.css: the replay viewer's drawings of domino tiles, playing cards, dice, tracks
PIECES = Path(__file__).resolve().parent / "pieces"

GAMES: dict[str, Game] = {game.name: game for game in (Block(), Dice1000(), DominoCribbage(), Thousand())}
DEFAULT_GAME = Block.name  # what `arena demo` and the benchmarks play when no game is named


def get_game(name: str) -> Game:
    """The game registered under ``name``, or the OpenSpiel game ``openspiel:NAME``; an unknown
    name is a clear error."""
    if name.startswith(openspiel.PREFIX):
        return openspiel.lookup(name)
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGameError(f"unknown game {name!r}; known games: {known}") from None
