"""Rule options of Block dominoes."""
from __future__ import annotations

from dataclasses import dataclass, field

from arena.errors import OptionError
from arena.options import check_all_choices


@dataclass(frozen=True)
class BlockOptions:
    """The options of one Block match. ``None`` for a default that depends on the player count."""

    num_players: int = field(default=2, metadata={
        "doc": "Number of players, 2 to 4, each scoring for themselves.",
        "choices": (2, 3, 4)})
    hand_size: int | None = field(default=None, metadata={
        "doc": "Tiles dealt to each player; default 7 for 2 players, else 5."})
    target: int | None = field(default=None, metadata={
        "doc": "Score that ends the match; default 100 for 2 players, else 61."})
    first_leader: str = field(default="lottery", metadata={
        "doc": "Who leads deal 1: a fair lottery, or the holder of the highest double, who must "
               "open with it.",
        "choices": ("lottery", "highest_double")})
    single_deal: bool = field(default=False, metadata={
        "doc": "Play one deal only: the player who dominoes, or the sole lowest of a blocked deal, "
               "wins."})
    max_deals: int = field(default=1000, metadata={
        "doc": "Most deals a match may last; a match still going after that many deals ends "
               "with the scores as they stand, equal top scores sharing first place."})
    auto_pass: bool = field(default=True, metadata={
        "doc": "The engine makes forced passes itself; when false, a player who cannot play is "
               "asked and must answer 'pass'."})

    def __post_init__(self) -> None:
        check_all_choices(self)
        n = self.num_players
        if self.hand_size is None:
            object.__setattr__(self, "hand_size", 7 if n == 2 else 5)
        if self.target is None:
            object.__setattr__(self, "target", 100 if n == 2 else 61)
        assert self.hand_size is not None and self.target is not None  # set just above
        if not 1 <= self.hand_size * n <= 28 or self.hand_size < 1:
            raise OptionError(
                f"option 'hand_size': {self.hand_size} tiles for {n} players does not fit in the "
                f"28 tiles; allowed values: 1 to {28 // n}")
        if self.max_deals < 1:
            raise OptionError(f"option 'max_deals': {self.max_deals} is not allowed; allowed values: 1 or more")
        if self.target < 1:
            raise OptionError(f"option 'target': {self.target} is not allowed; allowed values: 1 or more")
