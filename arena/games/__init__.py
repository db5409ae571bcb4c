"""The registry: a game's name to the game. Each game is a folder here (``Game.folder``); what
several games share for drawing (domino tiles, playing cards, dice) is in ``pieces/``."""
from __future__ import annotations

import difflib
from pathlib import Path

from arena.errors import UnknownGameError
from arena.game import Game
from arena.games import openspiel
from arena.games.block import Block
from arena.games.dice_1000 import Dice1000
from arena.games.domino_cribbage import DominoCribbage
from arena.games.thousand import Thousand

# pieces.js, pieces.css: the replay viewer's drawings of domino tiles, playing cards, dice, tracks
PIECES = Path(__file__).resolve().parent / "pieces"

GAMES: dict[str, Game] = {game.name: game for game in (Block(), Dice1000(), DominoCribbage(), Thousand())}
DEFAULT_GAME = Block.name  # what `arena demo` and the benchmarks play when no game is named


def get_game(name: str) -> Game:
    """The game registered under ``name``, in any letter case (``Block`` is ``block``), or the
    OpenSpiel game ``openspiel:NAME``: the one place a game's name is read. An unknown name is
    one line naming the nearest games."""
    if name.startswith(openspiel.PREFIX):
        return openspiel.lookup(name)
    wanted = name.lower()
    if wanted in GAMES:
        return GAMES[wanted]
    nearest = difflib.get_close_matches(wanted, GAMES, n=3, cutoff=0.6)
    nearest += [n for n in sorted(GAMES) if wanted and n.startswith(wanted) and n not in nearest]
    hint = f"did you mean {' or '.join(repr(n) for n in nearest)}? " if nearest else ""
    raise UnknownGameError(f"unknown game {name!r}; {hint}known games: {', '.join(sorted(GAMES))}")
