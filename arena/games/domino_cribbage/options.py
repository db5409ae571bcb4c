"""Rule options of Domino Cribbage (docs/games/domino-cribbage.md, Options)."""
from __future__ import annotations

from dataclasses import dataclass, field

from arena.errors import OptionError
from arena.options import check_all_choices

DEFAULT_MAX_DEALS = 200


@dataclass(frozen=True)
class DominoCribbageOptions:
    """The options of one Domino Cribbage match (two players)."""

    num_players: int = field(default=2, metadata={
        "doc": "Number of players: Domino Cribbage is a game for two.",
        "choices": (2,)})
    target: int = field(default=121, metadata={
        "doc": "The score that wins the match the moment a player reaches it, even in the middle "
               "of the play (121 is the usual game, 61 the short one; any positive number)."})
    heels_points: int = field(default=2, metadata={
        "doc": "Points the dealer scores at once when the starter is a double (heels)."})
    show_double_bonus: int = field(default=1, metadata={
        "doc": "Points per double among the five tiles counted in the show of a hand or the crib."})
    starter_double_counts_in_show: bool = field(default=True, metadata={
        "doc": "A double starter also earns the double bonus in each of the three counts of the "
               "show (it is part of every hand and of the crib)."})
    starter_in_pegging_count: bool = field(default=True, metadata={
        "doc": "The starter opens the first count of the play: the count starts at its value and "
               "it takes part in that count's fifteens, 31, pairs and runs (scoring for nobody "
               "itself). False: the count starts at 0, as in card cribbage."})
    zero_tile_rescores_15: bool = field(default=True, metadata={
        "doc": "Playing [0|0] when the count is 15 leaves it at 15 and scores the fifteen again. "
               "False: a fifteen scores only when a tile brings the count up to 15."})
    max_deals: int = field(default=DEFAULT_MAX_DEALS, metadata={
        "doc": "Length cap in hands: a match still short of the target after this many whole "
               "hands ends and is ranked by score, a tie going to the non-dealer of the last hand. "
               "Real play reaches 121 in about ten hands."})

    def __post_init__(self) -> None:
        check_all_choices(self)
        for name, low in (("target", 1), ("heels_points", 0), ("show_double_bonus", 0),
                          ("max_deals", 1)):
            value = getattr(self, name)
            if value < low:
                raise OptionError(f"option {name!r}: {value} is not allowed; allowed values: "
                                  f"{low} or more")
        if (not self.starter_double_counts_in_show) and self.show_double_bonus == 0:
            # Switching off a bonus that does not exist is a mistake in the option set.
            raise OptionError("options 'starter_double_counts_in_show' = false and "
                              "'show_double_bonus' = 0 do not go together: with no double bonus "
                              "there is no starter double to leave out; drop one of them")
