"""Which OpenSpiel games arena plays, and why it refuses the others (one line each).

Everything here is read from OpenSpiel's game types (``pyspiel.registered_games()``), and from
loading a game with its default parameters, without playing it. ``pyspiel`` comes with the
optional extra ``arena[openspiel]``; without it nothing here is imported and :data:`INSTALL`
says how to get it.
"""
from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Iterator
from typing import Any

PREFIX = "openspiel:"
INSTALL = ("the OpenSpiel games need the optional extra: pip install 'arena[openspiel]' "
           "(open-spiel 2.0.2, a wheel)")
# parameters that seed OpenSpiel's own random state: arena sets them from the match's chance
# streams, so they are no rule options
SEED_PARAMETERS = ("seed", "rng_seed")
# games that load and play, but too slowly for a table with a clock: each move solves the deal
# double-dummy (about 0.3 s), and arena plays every other legal move too, to tell which seats
# may know the one played (docs/games/openspiel.md)
TOO_SLOW = {"bridge_uncontested_bidding": "each move solves the deal double-dummy (about 0.3 s, "
                                          "times every legal move)"}
MAX_SEATS = 10  # the most seats arena offers at an OpenSpiel table (some allow 100)
# games whose action strings are a function of the player and the action id alone, whatever the
# state, as OpenSpiel's source writes them (connect four's: the player's mark and the column;
# Leduc poker's: the game's own ActionToString, "Fold", "Call", "Raise"): arena finds a seat's
# actions again by the player and the legal ids instead of asking OpenSpiel each time
# (state.py's Tree.menus; tests/games/test_openspiel.py checks them against OpenSpiel at every
# state of random matches)
FIXED_ACTION_STRINGS = frozenset({"connect_four", "leduc_poker"})


def pyspiel_module() -> Any:
    """``pyspiel``, or ``None`` when the extra is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """OpenSpiel's C++ writes its errors and warnings to the process's stderr before it raises:
    while arena tries what loads (and says so in its own words), they go nowhere."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def try_load(name: str, parameters: dict[str, Any] | None = None) -> tuple[Any, str | None]:
    """The OpenSpiel game ``name`` with ``parameters``, or ``None`` and OpenSpiel's first line of
    why not."""
    import pyspiel
    try:
        with quiet():
            return pyspiel.load_game(name, parameters or {}), None
    except Exception as exc:  # noqa: BLE001  (SpielError, or a C++ exception pybind11 turned into another)
        text = str(exc).strip()
        return None, text.splitlines()[0] if text else type(exc).__name__


def available() -> bool:
    return pyspiel_module() is not None


@functools.cache
def game_types() -> dict[str, Any]:
    """Every registered OpenSpiel game's type, by its short name."""
    pyspiel = pyspiel_module()
    if pyspiel is None:
        return {}
    return {t.short_name: t for t in pyspiel.registered_games()}


def type_refusal(game_type: Any) -> str | None:
    """Why arena does not play a game of this type (one line), or ``None``: read from the type
    alone, without loading the game."""
    import pyspiel
    if not game_type.is_concrete:
        return ("not a game of its own (OpenSpiel marks it not concrete: a wrapper around another "
                "game, or one read from a file)")
    if game_type.dynamics == pyspiel.GameType.Dynamics.MEAN_FIELD:
        return "a mean-field game (a population, not seats)"
    if game_type.max_num_players < 2:
        return "a one-player game; arena plays tables of 2 or more seats"
    sampled = game_type.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    if sampled and not any(p in game_type.parameter_specification for p in SEED_PARAMETERS):
        return "samples its chance inside OpenSpiel and takes no seed, so a match could not be replayed"
    return None


@functools.cache
def refusal(name: str) -> str | None:
    """Why arena does not play the OpenSpiel game ``name`` (one line), or ``None`` when it does:
    its type, then loading it with its default parameters."""
    game_type = game_types().get(name)
    if game_type is None:
        return "not an OpenSpiel game"
    reason = type_refusal(game_type) or TOO_SLOW.get(name)
    if reason is not None:
        return reason
    game, error = try_load(name)
    if game is None:
        return f"does not load with its default parameters ({error})"
    if not player_counts(name):
        return "loads with fewer than 2 players whatever its 'players' parameter says"
    return None


@functools.cache
def player_counts(name: str) -> tuple[int, ...]:
    """The table sizes arena offers: those from 2 to MAX_SEATS that OpenSpiel loads with its
    ``players`` parameter (and really has that many players), or the game's one count when it has
    no such parameter."""
    declared = game_types()[name]
    if "players" not in declared.parameter_specification:
        game, _ = try_load(name)
        return (game.num_players(),) if game is not None and game.num_players() >= 2 else ()
    top = min(declared.max_num_players, MAX_SEATS)
    counts = []
    for n in range(max(2, declared.min_num_players), top + 1):
        game, _ = try_load(name, {"players": n})
        if game is not None and game.num_players() == n:
            counts.append(n)
    return tuple(counts)


def accepted() -> list[str]:
    """The short names of the OpenSpiel games arena plays, in order."""
    return [name for name in sorted(game_types()) if refusal(name) is None]


def refused() -> dict[str, str]:
    """The OpenSpiel games arena does not play, with the reason."""
    return {name: reason for name in sorted(game_types()) if (reason := refusal(name)) is not None}
