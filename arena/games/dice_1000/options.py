"""Rule options of Dice 1000: rule set A (the default) and the preset B (docs/games/dice-1000.md §4;
rules D-1, D-2, D-5, D-6, D-15, D-16)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.errors import OptionError
from arena.options import check_all_choices

Pits = tuple[tuple[int, int], ...]
PITS_A: Pits = ((200, 300), (600, 700))
BARRELS = ("points", "entry_reset", "open", "none")


def parse_pits(raw: Any) -> Pits:
    """Pits from CLI text ("200-300,600-700"; "none" or "" for no pits) or a TOML/JSON list
    ([[200, 300], [600, 700]]). Each pit is [low, high): a score s with low <= s < high."""
    if isinstance(raw, str):
        text = raw.strip().lower()
        if text in ("", "none", "off", "no"):
            return ()
        pairs = []
        for part in text.split(","):
            lo, sep, hi = part.strip().partition("-")
            if not sep:
                raise ValueError(f"{part.strip()!r} is not low-high")
            pairs.append((int(lo), int(hi)))
    elif isinstance(raw, (list, tuple)):
        pairs = []
        for item in raw:
            if not isinstance(item, (list, tuple)) or len(item) != 2:
                raise ValueError(f"{item!r} is not a pair [low, high]")
            lo, hi = item
            if isinstance(lo, bool) or isinstance(hi, bool) or not isinstance(lo, int) or not isinstance(hi, int):
                raise ValueError(f"{item!r} is not a pair of whole numbers")
            pairs.append((lo, hi))
    else:
        raise ValueError(f"{raw!r} is not a list of pits")
    return tuple(sorted(pairs))


@dataclass(frozen=True)
class Dice1000Options:
    """The options of one Dice 1000 match. ``variant`` picks a preset; options given explicitly
    override it (docs/games/dice-1000.md §4)."""

    PRESET_FIELD = "variant"
    PRESETS = {
        "A": {},
        "B75_850": {"open_min": 75, "pits": (), "overtake_penalty": 0, "dump_truck": 0,
                    "bolts_per_penalty": 0, "barrel": "entry_reset", "barrel_threshold": 850,
                    "barrel_attempts": 0},
    }

    num_players: int = field(default=2, metadata={
        "doc": "Number of players, 2 to 8 (§1).", "choices": tuple(range(2, 9))})
    variant: str = field(default="A", metadata={
        "doc": "Rule set: 'A' (classic: pits, overtaking, dump truck, bolts, barrel by points at "
               "880) or 'B75_850' (enter with 75, no pits/overtaking/dump truck/bolts, barrel at "
               "850 needing 150, knocked off back to the entry score) (§4, D-1, D-15).",
        "choices": ("A", "B75_850")})
    open_min: int = field(default=75, metadata={
        "doc": "The least turn total an unopened player may bank (§3, D-2)."})
    pits: Pits | None = field(default=PITS_A, metadata={
        "doc": "Pits [low, high): a player scoring in one may only bank a turn that takes them to "
               "high or more (§3, D-7); 'none' for no pits.",
        "parse": parse_pits, "syntax": "200-300,600-700 (or none); in TOML [[200, 300], [600, 700]]",
        "show": lambda pits: ",".join(f"{lo}-{hi}" for lo, hi in pits) or "none"})
    overtake_penalty: int = field(default=50, metadata={
        "doc": "Points lost by every player a bank jumps over (§5 step 3, D-9); 0 = off."})
    dump_truck: int = field(default=555, metadata={
        "doc": "A player whose score is exactly this after a turn goes to 0 (§5 step 5, D-10); 0 = off."})
    bolts_per_penalty: int = field(default=3, metadata={
        "doc": "Bolts (busts) that cost bolt_penalty (§5 step 1, D-5); 0 = bolts are not counted."})
    bolt_penalty: int = field(default=100, metadata={
        "doc": "Points lost on every bolts_per_penalty-th bolt (§5 step 1, D-5)."})
    bolts_when_restricted: bool = field(default=False, metadata={
        "doc": "Count bolts also while unopened, in a pit or on the barrel (§5 step 1, D-5)."})
    bolt_streak: str = field(default="cumulative", metadata={
        "doc": "'cumulative': bolts add up over the game; 'consecutive': a bank resets the count (D-5).",
        "choices": ("cumulative", "consecutive")})
    floor_at_zero: bool = field(default=True, metadata={
        "doc": "A score below 0 after a turn becomes 0 (§5 step 4, D-8)."})
    barrel: str | None = field(default="points", metadata={
        "doc": "Barrel type: 'points' (banks reaching barrel_threshold are set to it; win from it "
               "in one turn; attempts and falls), 'entry_reset' (as points, but a player knocked "
               "off goes back to their entry score), 'open' (exactly 1000 to win; passing it "
               "gives a point), 'none' (§6, D-6, D-15, D-16).",
        "choices": BARRELS})
    barrel_threshold: int = field(default=880, metadata={
        "doc": "The barrel score for 'points' and 'entry_reset' (§6)."})
    barrel_attempts: int = field(default=3, metadata={
        "doc": "Turns a player on the barrel gets before falling (§6, D-6); 0 = unlimited."})
    barrel_fall_penalty: int = field(default=100, metadata={
        "doc": "Points lost by a player falling off a 'points' barrel (§6, D-6)."})
    barrel_falls_to_zero: int = field(default=3, metadata={
        "doc": "Every this-many-th fall off a 'points' barrel sets the score to 0 instead (§6, D-6, "
               "D-17); 0 = never."})
    open_barrel_points_limit: int = field(default=6, metadata={
        "doc": "Under the 'open' barrel, the point (a turn passing 1000) that sets the score to 0 "
               "(§6, D-16)."})
    straights: bool = field(default=False, metadata={
        "doc": "1-2-3-4-5 scores 125 and 2-3-4-5-6 scores 250 when all five dice show it (§2, D-3)."})
    max_rounds: int = field(default=1000, metadata={
        "doc": "Length cap in rounds (every seat one turn); a match reaching it is ranked by score, "
               "equal scores sharing a rank (the first alone wins). Random play ends within a few "
               "hundred rounds; a bot that stops only at a high turn total often reaches the "
               "default (§9)."})

    def __post_init__(self) -> None:
        if self.barrel is None:  # the command line's 'none' arrives as None
            object.__setattr__(self, "barrel", "none")
        check_all_choices(self)
        # 'none' on the command line arrives as None: no pits
        pits = () if self.pits is None else parse_pits(self.pits)
        object.__setattr__(self, "pits", pits)
        for name in ("open_min", "overtake_penalty", "dump_truck", "bolts_per_penalty", "bolt_penalty",
                     "barrel_attempts", "barrel_fall_penalty", "barrel_falls_to_zero"):
            if getattr(self, name) < 0:
                raise OptionError(f"option {name!r}: {getattr(self, name)} is not allowed; allowed values: 0 or more")
        if self.open_min > 1000:
            raise OptionError(f"option 'open_min': {self.open_min} is not allowed; allowed values: 0 to 1000")
        if self.max_rounds < 1:
            raise OptionError(f"option 'max_rounds': {self.max_rounds} is not allowed; allowed values: 1 or more")
        if self.open_barrel_points_limit < 1:
            raise OptionError(f"option 'open_barrel_points_limit': {self.open_barrel_points_limit} "
                              "is not allowed; allowed values: 1 or more")
        if not 0 < self.barrel_threshold < 1000:
            raise OptionError(f"option 'barrel_threshold': {self.barrel_threshold} is not allowed; "
                              "allowed values: 1 to 999")
        top = 0
        for lo, hi in pits:
            if not 0 < lo < hi <= 1000 or lo < top:
                raise OptionError(f"option 'pits': {self.pits_text()} is not allowed; pits are "
                                  "low-high with 0 < low < high <= 1000 and do not overlap")
            top = hi
        if self.barrel in ("points", "entry_reset") and any(hi > self.barrel_threshold for _, hi in pits):
            raise OptionError(f"options 'pits' and 'barrel_threshold': the pit {self.pits_text()} "
                              f"reaches above the barrel at {self.barrel_threshold}")

    def pits_text(self) -> str:
        assert self.pits is not None  # __post_init__ makes 'none' ()
        return ",".join(f"{lo}-{hi}" for lo, hi in self.pits) or "none"

    def in_pit(self, score: int) -> int | None:
        """The top of the pit ``score`` is in, or None (§3, D-7)."""
        assert self.pits is not None  # __post_init__ makes 'none' ()
        for lo, hi in self.pits:
            if lo <= score < hi:
                return hi
        return None
