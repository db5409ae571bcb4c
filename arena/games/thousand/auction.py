"""The auction of a Thousand deal (docs/games/thousand.md §5, dark bidding T-25, T-34): the part of
``ThousandState`` that offers bids, records them and names the declarer."""
from __future__ import annotations

from typing import TYPE_CHECKING

from arena.games.thousand.actions import BID_TEXT, DARK, LOOK, PASS, PRIKUP_TEXT, bid_range
from arena.games.thousand.phases import AUCTION, DARK_BID, PRIKUP
from arena.games.thousand.scoring import max_bid

if TYPE_CHECKING:
    from arena.games.thousand.match import Match


def auction_legal(self: Match, seat: int) -> list[str]:
    o = self.options
    first = self.high + o.bid_step
    if o.negative_bidding == "forbidden" and self.carry.totals[seat] < 0:
        return [LOOK] if not self.looked[seat] and not self.dark_bid[seat] else [PASS]
    if not self.looked[seat] and not self.dark_bid[seat]:
        return [LOOK, DARK] if first <= o.max_bid_cap else [LOOK]
    if self.dark_bid[seat]:
        ceiling = o.max_bid_cap  # T-34: a dark bid is checked against the cap only
    else:
        ceiling = max_bid(self.hands[seat], o.max_bid_cap, o.ace_marriage)
    return bid_range(first, ceiling, o.bid_step, BID_TEXT, PASS)


def dark_bid_legal(self: Match, seat: int) -> list[str]:
    o = self.options
    return bid_range(self.high + o.bid_step, o.max_bid_cap, o.bid_step, BID_TEXT, None)


def auction_action(self: Match, seat: int, kind: str, value: int | None) -> None:
    """One decision of the auction: ``look``, ``dark``, ``pass`` or a bid."""
    if kind == "look":
        self.looked[seat] = True
        self._legal = self._auction_legal(seat)
    elif kind == "dark":
        self.dark_bid[seat] = True
        self.phase = DARK_BID
        self._legal = self._dark_bid_legal(seat)
    else:
        self.phase = AUCTION
        if kind == "pass":
            self.passed[seat] = True
        else:
            assert value is not None  # a bid's action names its value
            self.high, self.high_bidder, self.bids_made = value, seat, True
        self._after_auction_action(seat)


def after_auction_action(self: Match, seat: int) -> None:
    left = [s for s in self.active if not self.passed[s]]
    if len(left) == 1:
        d = left[0]
        self._auction_end(d, self.high, "auction" if self.bids_made else "forced_100")
        return
    nxt = self.next_seat[seat]
    while self.passed[nxt]:
        nxt = self.next_seat[nxt]
    self._turn(nxt, self._auction_legal)


def auction_end(self: Match, declarer: int, contract: int, how: str) -> None:
    o = self.options
    self.declarer, self.contract, self.how = declarer, contract, how
    self.forced_100 = how == "forced_100"
    self.dark = how == "auction" and self.dark_bid[declarer]
    self.shown = not ((self.forced_100 and not o.show_prikup_on_forced_100) or self.dark)
    self.looked = [True] * self.num_players  # §6.6: every hand is seen once the auction ends
    self.events.append({"type": "contract", "declarer": declarer, "contract": contract,
                        "how": how, "dark": self.dark})
    self.opponents = self._opponents(declarer)
    if self.num_players == 2:
        self.phase = PRIKUP
        self.to_move, self._legal = declarer, list(PRIKUP_TEXT)
    else:
        self._take_prikup(0)


def opponents(self: Match, declarer: int) -> tuple[int, ...]:
    """The declarer's opponents in play order from its left (§6.3: the first give goes
    left)."""
    opps, s = [], self.next_seat[declarer]
    while s != declarer:
        opps.append(s)
        s = self.next_seat[s]
    return tuple(opps)
