"""The phases of a Thousand deal, as the observation's ``phase`` names them
(docs/games/thousand.md §16). The state compares them with ``is``: always use these objects."""
from __future__ import annotations

AUCTION, DARK_BID, PRIKUP, GIVE, BURY, RAISE, REDEAL_ASK, PLAY, OVER = (
    "auction", "dark_bid", "prikup", "give", "bury", "raise", "redeal", "play", "over")
PHASES = (AUCTION, DARK_BID, PRIKUP, GIVE, BURY, RAISE, REDEAL_ASK, PLAY, OVER)
