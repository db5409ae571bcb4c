"""The prikup (talon), the exchange, the raise, the write-off and the redeal of a Thousand deal
(docs/games/thousand.md §6, §11): the part of ``ThousandState`` between auction and play."""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from arena.games.thousand.actions import BURY_TEXT, GIVE_TEXT, KEEP, PLAY_ON, RAISE_TEXT, REDEAL, ROSPIS, bid_range
from arena.games.thousand.cards import CARD_TEXT, card_points
from arena.games.thousand.phases import BURY, GIVE, RAISE, REDEAL_ASK
from arena.games.thousand.scoring import max_bid, may_demand_redeal

if TYPE_CHECKING:
    from arena.games.thousand.match import Match


def take_prikup(self: Match, index: int) -> None:
    d = self.declarer
    assert d is not None  # the prikup is taken after the auction, which named the declarer
    self.taken_index = index
    self.taken = list(self.prikups[index])
    if self.num_players == 2:
        self.rest_prikup = list(self.prikups[1 - index])
    self.events.append({"type": "prikup", "seat": d, "index": index,
                        "cards": [CARD_TEXT[c] for c in self.taken], "shown": self.shown})
    self.hands[d] = sorted(self.hands[d] + self.taken)
    self.phase = GIVE
    self._turn(d, self._give_legal)


def give_legal(self: Match, seat: int) -> list[str]:
    to = self.opponents[len(self.given)]
    out = [GIVE_TEXT[c][to] for c in self.hands[seat]]
    if not self.given and self.options.rospis and not self.carry.on_barrel[seat]:
        out.append(ROSPIS)  # T-19: before passing a card, never on the barrel
    return out


def give(self: Match, seat: int, kind: str, value: int, to: int) -> None:
    """The declarer passes ``value`` to seat ``to``, or writes the deal off (``rospis``)."""
    if kind == "rospis":
        self.rospis_done = True
        self._end_deal()
        return
    self.hands[seat].remove(value)
    hand = self.hands[to]
    hand.append(value)
    hand.sort()
    self.given.append([to, value])
    if len(self.given) < len(self.opponents):
        self._legal = self._give_legal(seat)
    elif self.num_players == 2:
        self.phase = BURY
        self._legal = self._bury_legal(seat)
    else:
        self.phase = RAISE
        self._legal = self._raise_legal(seat)


def bury_legal(self: Match, seat: int) -> list[str]:
    return [BURY_TEXT[c] for c in self.hands[seat]]


def bury(self: Match, seat: int, value: int) -> None:
    """2 players: the declarer's card into the other prikup."""
    self.hands[seat].remove(value)
    self.rest_prikup.append(value)
    self.rest_prikup.sort()
    self.buried = value
    self.phase = RAISE
    self._legal = self._raise_legal(seat)


def raise_legal(self: Match, seat: int) -> list[str]:
    o = self.options
    ceiling = max_bid(self.hands[seat], o.max_bid_cap, o.ace_marriage)  # T-6: the 8-card hand
    return bid_range(self.contract + o.bid_step, ceiling, o.bid_step, RAISE_TEXT, KEEP)


def raise_contract(self: Match, kind: str, value: int) -> None:
    if kind == "raise":
        self.contract = value
    self._after_raise()


def after_raise(self: Match) -> None:
    o = self.options
    if o.redeal:  # §6.5, T-21, T-35
        if card_points(self.taken) < 5:
            self.events.append({"type": "redeal", "deal": self.deal_no, "reason": "prikup",
                                "seat": None})
            self._redeal()
            return
        self.redeal_queue = self._may_demand_redeal(self.active)
        if self.redeal_queue:
            self.phase = REDEAL_ASK
            self.to_move, self._legal = self.redeal_queue.pop(0), [PLAY_ON, REDEAL]
            return
    self._start_play()


def redeal_claimants(self: Match, seats: Iterable[int]) -> list[int]:
    """The ``seats`` whose hands entitle them to demand a redeal (T-21, T-35), in order."""
    return [s for s in seats if may_demand_redeal(self.hands[s],
                                                  self.forced_100 and s == self.declarer)]


def redeal_answer(self: Match, seat: int, kind: str) -> None:
    """A seat entitled to a redeal says ``play on`` or ``redeal``."""
    if kind == "redeal":
        self.events.append({"type": "redeal", "deal": self.deal_no, "reason": "demand",
                            "seat": seat})
        self._redeal()
    elif self.redeal_queue:
        self.to_move = self.redeal_queue.pop(0)
    else:
        self._start_play()


def redeal(self: Match) -> None:
    self.redeal_no += 1
    self._start_deal()
