"""Every OpenSpiel game as an arena game, named ``openspiel:NAME`` (docs/games/openspiel.md).

OpenSpiel (``pyspiel``) comes with the optional extra ``arena[openspiel]``. The registry
(``arena.games.get_game``) asks :func:`lookup` for names with the prefix; ``arena games`` lists
:func:`listing`. Nothing of OpenSpiel is imported until one of them is asked for.
"""
from __future__ import annotations

from arena.errors import UnknownGameError
from arena.game import Game
from arena.games.openspiel.catalog import INSTALL, PREFIX, accepted, available, refusal, refused

__all__ = ["INSTALL", "PREFIX", "accepted", "available", "listing", "lookup", "refused", "summary"]


def lookup(name: str) -> Game:
    """The arena game ``openspiel:NAME``; an error naming the game (and why) otherwise."""
    short = name[len(PREFIX):]
    if not available():
        raise UnknownGameError(f"game {name!r}: {INSTALL}")
    reason = refusal(short)
    if reason is not None:
        raise UnknownGameError(f"game {name!r}: {reason}")
    from arena.games.openspiel.game import make_game
    return make_game(short)


def listing() -> list[Game]:
    """The OpenSpiel games arena plays (none without the extra)."""
    from arena.games.openspiel.game import make_game
    return [make_game(name) for name in accepted()] if available() else []


def summary() -> str:
    """The line ``arena games`` ends with: how many OpenSpiel games it lists and refuses, or how
    to install them."""
    if not available():
        return f"OpenSpiel games (openspiel:NAME): {INSTALL}"
    return (f"OpenSpiel games: {len(accepted())} listed as openspiel:NAME; {len(refused())} not "
            "played (docs/games/openspiel.md says which and why). OpenSpiel gives its parameters no "
            "descriptions: those of the chosen games are in docs/games/openspiel.md.")
