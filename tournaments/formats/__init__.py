"""The tournament formats: one module each, every one a ``tournaments.formats.protocol.Format``.

Adding a format is one module here and one line in :data:`FORMATS` (its tests and its section of
docs/tournaments.md beside); nothing else in arena names a format (a test looks).
"""
from __future__ import annotations

from collections.abc import Sequence

from tournaments.formats.adaptive import ADAPTIVE
from tournaments.formats.gauntlet import GAUNTLET
from tournaments.formats.protocol import ConfigError, Format, FormatConfig
from tournaments.formats.round_robin import ROUND_ROBIN
from tournaments.formats.sprt import SPRT
from tournaments.formats.swiss import SWISS
from tournaments.schedule import Schedule

# the registry: a format's name -> the format; the first is the default
FORMATS: dict[str, Format] = {f.name: f for f in (ROUND_ROBIN, GAUNTLET, ADAPTIVE, SPRT, SWISS)}
DEFAULT = next(iter(FORMATS))


def format_of(name: str) -> Format:
    """The format named ``name`` (the default for ""); a ConfigError for an unknown one."""
    found = FORMATS.get(name or DEFAULT)
    if found is None:
        raise ConfigError(f"'format.type' is {name!r}; known formats: {', '.join(FORMATS)}")
    return found


def make_schedule(num_entrants: int, fmt: FormatConfig, seed: int,
                  candidates: Sequence[int] = ()) -> Schedule:
    """The first schedule of a tournament of ``num_entrants`` (indexes 0..n-1) in format ``fmt``
    (empty for a format that plans as it goes)."""
    return format_of(fmt.type).schedule(num_entrants, fmt, seed, candidates)


__all__ = ["DEFAULT", "FORMATS", "format_of", "make_schedule"]
