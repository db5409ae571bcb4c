"""Rule options of Thousand (docs/games/thousand.md §2; rules T-5 … T-35)."""
from __future__ import annotations

from dataclasses import dataclass, field

from arena.errors import OptionError
from arena.options import check_all_choices


def _ceil5(x: int) -> int:
    return -(-x // 5) * 5


@dataclass(frozen=True)
class ThousandOptions:
    """The options of one Thousand match. ``None`` is a default that depends on another option."""

    num_players: int = field(default=3, metadata={
        "doc": "Number of players: 3; 2 (two prikups, blind choice) and 4 (the dealer sits out) "
               "are variants (docs/games/thousand.md §11, §12).", "choices": (2, 3, 4)})
    win_score: int = field(default=1001, metadata={
        "doc": "A total at or above this wins; 1001 means 'exceed 1000', 1000 the pagat game (rule T-11)."})
    barrel_threshold: int = field(default=880, metadata={
        "doc": "A total in [barrel_threshold, win_score) is set to it and the player mounts the barrel."})
    barrel_min_contract: int | None = field(default=None, metadata={
        "doc": "The least made contract that wins from the barrel; default ceil5(win_score - "
               "barrel_threshold): 125, or 120 with win_score=1000."})
    barrel_attempts: int = field(default=3, metadata={
        "doc": "Deals a player may stay on the barrel; the last one used makes them fall (T-13)."})
    barrel_fall_penalty: int = field(default=120, metadata={
        "doc": "Points lost by a fall from the barrel (not after a failed barrel contract)."})
    barrel_falls_to_zero: int = field(default=3, metadata={
        "doc": "Every this-many-th fall sets the total to 0 instead (T-15, T-32)."})
    bid_step: int = field(default=5, metadata={
        "doc": "Bids and raises go up in steps of this (a multiple of 5)."})
    max_bid_cap: int = field(default=300, metadata={
        "doc": "No bid or raise above this, whatever the marriages held (T-6)."})
    bolt_penalty: int = field(default=120, metadata={
        "doc": "Points lost when the bolt count reaches bolts_per_penalty (the count then resets)."})
    bolts_per_penalty: int = field(default=3, metadata={
        "doc": "Bolts that cost bolt_penalty (not necessarily in a row, T-17)."})
    bolt_condition: str = field(default="no_tricks", metadata={
        "doc": "A bolt is a deal with no trick taken, or with a deal score of zero.",
        "choices": ("no_tricks", "zero_score")})
    must_overtake: bool = field(default=False, metadata={
        "doc": "Following suit or trumping, a player must beat the best card so far if able (T-8, T-31)."})
    show_prikup_on_forced_100: bool = field(default=False, metadata={
        "doc": "Show the prikup also when forehand takes it on the forced 100 (T-7)."})
    rospis: bool = field(default=True, metadata={
        "doc": "The declarer (not on the barrel) may write the deal off after taking the prikup (T-19)."})
    rospis_penalty: str = field(default="bid", metadata={
        "doc": "A write-off costs the declarer the contract ('bid') or gives a bolt ('bolt'); the "
               "opponents score half the contract rounded up to 5 either way.",
        "choices": ("bid", "bolt")})
    redeal: bool = field(default=False, metadata={
        "doc": "After the exchange a weak hand (four nines, < 14 card points; three nines for a "
               "forced-100 declarer) may demand a redeal; a prikup under 5 points forces one (T-21)."})
    ace_marriage: bool = field(default=False, metadata={
        "doc": "All four aces are a marriage worth 200 (T-26)."})
    dump_truck: bool = field(default=False, metadata={
        "doc": "A total of exactly 555 after a deal becomes 0 (T-27)."})
    dump_truck_negative: bool = field(default=False, metadata={
        "doc": "With dump_truck: a total of exactly -555 also becomes 0."})
    dark_bidding: bool = field(default=False, metadata={
        "doc": "A player may bid without looking at their hand; a dark declarer's result is "
               "doubled and the prikup is not shown (T-25, T-34)."})
    golden_round: str = field(default="off", metadata={
        "doc": "The first 3 deals: scored x2 ('double'), or forehand plays 120 with no auction and "
               "x2 ('forced120_double') (T-24).",
        "choices": ("off", "double", "forced120_double")})
    barrel_auction: str = field(default="normal", metadata={
        "doc": "A barrel player bids like anyone ('normal') or takes the prikup at "
               "barrel_min_contract with no auction ('automatic') (T-28).",
        "choices": ("normal", "automatic")})
    negative_bidding: str = field(default="allowed", metadata={
        "doc": "With 'forbidden' a player with a negative total may only pass (T-20).",
        "choices": ("allowed", "forbidden")})
    max_deals: int = field(default=200, metadata={
        "doc": "Length cap: after this many deals (played or written off) the match ends and is "
               "ranked by totals; equal totals share a place (docs/games/thousand.md §14)."})

    def __post_init__(self) -> None:
        check_all_choices(self)
        if self.barrel_min_contract is None:
            object.__setattr__(self, "barrel_min_contract",
                               _ceil5(self.win_score - self.barrel_threshold))
        assert self.barrel_min_contract is not None  # set just above
        if not 0 < self.barrel_threshold < self.win_score:
            raise OptionError(f"option 'barrel_threshold': {self.barrel_threshold} must be between 1 "
                              f"and win_score - 1 ({self.win_score - 1})")
        if self.bid_step < 5 or self.bid_step % 5:
            raise OptionError(f"option 'bid_step': {self.bid_step} is not allowed; allowed values: "
                              f"a positive multiple of 5")
        if not 120 <= self.max_bid_cap <= 1000 or self.max_bid_cap % 5:
            raise OptionError(f"option 'max_bid_cap': {self.max_bid_cap} is not allowed; allowed "
                              f"values: a multiple of 5 from 120 to 1000")
        if not 100 <= self.barrel_min_contract <= self.max_bid_cap:
            raise OptionError(f"options 'barrel_min_contract' and 'max_bid_cap': a barrel contract of "
                              f"{self.barrel_min_contract} must be between 100 and max_bid_cap "
                              f"({self.max_bid_cap})")
        for name in ("barrel_attempts", "barrel_falls_to_zero", "bolts_per_penalty", "max_deals"):
            if getattr(self, name) < 1:
                raise OptionError(f"option {name!r}: {getattr(self, name)} is not allowed; "
                                  f"allowed values: 1 or more")
        for name in ("barrel_fall_penalty", "bolt_penalty"):
            if getattr(self, name) < 0:
                raise OptionError(f"option {name!r}: {getattr(self, name)} is not allowed; "
                                  f"allowed values: 0 or more")
        if self.dump_truck_negative and not self.dump_truck:
            raise OptionError("option 'dump_truck_negative' needs 'dump_truck=true'")
        if self.golden_round == "forced120_double" and self.barrel_auction == "automatic":
            raise OptionError("options 'golden_round=forced120_double' and 'barrel_auction=automatic' "
                              "both skip the auction; choose one")
