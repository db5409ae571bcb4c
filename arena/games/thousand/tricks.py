"""The play of a Thousand deal (docs/games/thousand.md §7, §11): legal cards, marriages and the
trump, tricks and their winners, the 2-player last prikup: the part of ``ThousandState`` from the
first lead to the last trick."""
from __future__ import annotations

from typing import TYPE_CHECKING

from arena.games.thousand.actions import MARRIAGE_TEXT, PLAY_TEXT
from arena.games.thousand.cards import (
    ACE,
    ACE_MARRIAGE_VALUE,
    CARD_TEXT,
    MARRIAGE_VALUE,
    PARTNER,
    POINTS,
    SUIT_OF,
    SUITS,
    card_points,
    has_four_aces,
)
from arena.games.thousand.phases import PLAY

if TYPE_CHECKING:
    from arena.games.thousand.match import Match


def start_play(self: Match) -> None:
    d = self.declarer
    assert d is not None  # the play follows the auction, which named the declarer
    self.phase = PLAY
    self.leader = d
    self.trick_no = 1
    self.trick = []
    self._turn(d, self._play_legal)


def play_legal(self: Match, seat: int) -> list[str]:
    hand = self.hands[seat]
    trick = self.trick
    if not trick:
        if self.trick_no < 2:
            return [PLAY_TEXT[c] for c in hand]
        out = []
        aces = self.options.ace_marriage and has_four_aces(hand)
        for c in hand:
            out.append(PLAY_TEXT[c])
            p = PARTNER[c]
            if (p is not None and p in hand) or (aces and c % 6 == ACE):
                out.append(MARRIAGE_TEXT[c])
        return out
    led = SUIT_OF[trick[0][1]]
    if not self._overtake:
        out = [PLAY_TEXT[c] for c in hand if SUIT_OF[c] == led]
        if out:
            return out
        trump = self.trump
        if trump is not None:
            out = [PLAY_TEXT[c] for c in hand if SUIT_OF[c] == trump]
            if out:
                return out
        return [PLAY_TEXT[c] for c in hand]
    trump = self.trump
    overtake = True
    follow = [c for c in hand if SUIT_OF[c] == led]
    if follow:
        if overtake and (trump == led or not any(SUIT_OF[c] == trump for _, c in trick)):
            best = max(c for _, c in trick if SUIT_OF[c] == led)
            higher = [c for c in follow if c > best]
            if higher:
                follow = higher
        return [PLAY_TEXT[c] for c in follow]
    if trump is not None:
        trumps = [c for c in hand if SUIT_OF[c] == trump]
        if trumps:
            if overtake:
                played = [c for _, c in trick if SUIT_OF[c] == trump]
                if played:
                    higher = [c for c in trumps if c > max(played)]
                    if higher:
                        trumps = higher
            return [PLAY_TEXT[c] for c in trumps]
    return [PLAY_TEXT[c] for c in hand]


def play(self: Match, seat: int, c: int, declare: bool) -> None:
    self.hands[seat].remove(c)
    if declare:
        suit = SUIT_OF[c]
        value = ACE_MARRIAGE_VALUE if c % 6 == ACE else MARRIAGE_VALUE[suit]
        self.marriage_pts[seat] += value
        self.trump = suit
        self.marriages.append([seat, SUITS[suit], value])
        self.events.append({"type": "marriage", "seat": seat, "suit": SUITS[suit],
                            "points": value, "kind": "aces" if c % 6 == ACE else "marriage",
                            "trump": SUITS[suit]})
    trick = self.trick
    trick.append((seat, c))
    if len(trick) < self._trick_size:
        nxt = self.next_seat[seat]
        self.to_move = nxt
        self._legal = self._play_legal(nxt)
        return
    trump = self.trump
    best_seat, best = trick[0]
    pts = POINTS[best]
    for s, x in trick[1:]:  # §7.3
        pts += POINTS[x]
        if SUIT_OF[x] == SUIT_OF[best]:
            if x > best:
                best_seat, best = s, x
        elif SUIT_OF[x] == trump:
            best_seat, best = s, x
    self.card_pts[best_seat] += pts
    self.tricks_won[best_seat] += 1
    cards = [CARD_TEXT[x] for _, x in trick]
    self.tricks.append([trick[0][0], cards, best_seat])
    self.events.append({"type": "trick", "deal": self.deal_no, "trick": self.trick_no,
                        "leader": trick[0][0], "cards": cards, "winner": best_seat,
                        "points": pts, "trump": SUITS[trump] if trump is not None else None})
    self.trick = []
    if not self.hands[best_seat]:
        if self.num_players == 2:  # §11: the last trick takes the remaining prikup
            rest = self.rest_prikup
            p = card_points(rest)
            self.card_pts[best_seat] += p
            self.events.append({"type": "last_prikup", "seat": best_seat,
                                "cards": [CARD_TEXT[x] for x in rest], "points": p})
        self._end_deal()
        return
    self.leader = best_seat
    self.trick_no += 1
    self._turn(best_seat, self._play_legal)
