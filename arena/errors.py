"""Errors a user can cause. Each message names the input at fault.

Anything else that escapes is a bug in arena itself. A misbehaving *bot* is never an
exception: the referee turns it into a seat status (see ``arena.referee``).
"""
from __future__ import annotations


class ArenaError(Exception):
    """A problem with what the user gave us: a config, an option, a bot folder."""


class OptionError(ArenaError):
    """A rule option that does not exist or has a value outside its allowed values."""


class UnknownGameError(ArenaError):
    """A game name that is not in the registry."""


class BotError(ArenaError):
    """A bot folder that cannot be used: no manifest, a bad manifest, a missing command."""


class IllegalActionError(ArenaError):
    """An action that is not in the legal list of the current position."""
