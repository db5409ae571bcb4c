"""A Thousand match in progress: deal, auction, prikup, exchange, raise, play, scoring, match flow
(docs/games/thousand.md §4-§12)."""
from __future__ import annotations

from typing import Any

from arena.game import TERMINAL, Chance, Result, State
from arena.games.thousand.actions import (
    ACTIONS, BID_TEXT, BURY_HIDDEN, BURY_TEXT, DARK, GIVE_HIDDEN, GIVE_TEXT, KEEP, LOOK,
    MARRIAGE_TEXT, PASS, PLAY_ON, PLAY_TEXT, PRIKUP_TEXT, RAISE_TEXT, REDEAL, ROSPIS, bid_range,
)
from arena.games.thousand.cards import (
    ACE, ACE_MARRIAGE_VALUE, ACES, CARD_TEXT, DECK, KING, MARRIAGE_VALUE, POINTS, QUEEN, SUIT_OF,
    PARTNER, SUITS, card_points, has_four_aces,
)
from arena.games.thousand.flow import Carry, settle
from arena.games.thousand.options import ThousandOptions
from arena.games.thousand.scoring import (
    half_up5, marriage_total, max_bid, may_demand_redeal, prikup_score, round5,
)

AUCTION, DARK_BID, PRIKUP, GIVE, BURY, RAISE, REDEAL_ASK, PLAY, OVER = (
    "auction", "dark_bid", "prikup", "give", "bury", "raise", "redeal", "play", "over")

_TRICK_SIZE = {2: 2, 3: 3, 4: 3}
# a give or a burial in the log, as a seat that did not see the card reads it
_HIDDEN = {GIVE_TEXT[c][s]: (GIVE_HIDDEN[s], s) for c in DECK for s in range(4)}
_HIDDEN.update({BURY_TEXT[c]: (BURY_HIDDEN, None) for c in DECK})


def deal_layout(n: int, dealer: int) -> tuple[list[int], list[int]]:
    """How a shuffled deck is cut (docs/games/thousand.md §4): per seat its hand size (0 for the 4-player
    sitter) in seat order 0, 1, …, then the prikup sizes. Seat s takes the next block of the deck."""
    if n == 2:
        return [9, 9], [3, 3]
    if n == 3:
        return [7, 7, 7], [3]
    return [0 if s == dealer else 7 for s in range(4)], [3]


class ThousandState(State):
    """One Thousand match. Create it with ``Thousand().new_match(options, seed)``."""

    def __init__(self, options: ThousandOptions, seed: int) -> None:
        self.options = options
        self.num_players = n = options.num_players
        self.chance = Chance(seed)
        self.events: list[dict[str, Any]] = []
        self.carry = Carry(n)
        self.history: list[dict[str, Any]] = []
        self.terminal = False
        self.winners: list[int] = []
        self.capped = False
        self.deal_no = 1
        self.redeal_no = 0
        self.dealer = self.chance.stream("dealer").randrange(n)  # §4.1: the first dealer by lot
        self.events.append({"type": "dealer", "seat": self.dealer})
        self._start_deal()

    # ----- the deal ------------------------------------------------------------------------
    def _start_deal(self) -> None:
        """§4: shuffle with the stream ("deal", d, redeal_no) and cut by ``deal_layout``."""
        deck = list(DECK)
        self.chance.stream("deal", self.deal_no, self.redeal_no).shuffle(deck)
        sizes, prikup_sizes = deal_layout(self.num_players, self.dealer)
        hands, i = [], 0
        for k in sizes:
            hands.append(sorted(deck[i:i + k]))
            i += k
        prikups = []
        for k in prikup_sizes:
            prikups.append(sorted(deck[i:i + k]))
            i += k
        self._begin_deal(hands, prikups)

    def _begin_deal(self, hands: list[list[int]], prikups: list[list[int]]) -> None:
        n, o = self.num_players, self.options
        self.hands = hands
        self.prikups = prikups
        self.forehand = (self.dealer + 1) % n
        self.sitter = self.dealer if n == 4 else None
        k = _TRICK_SIZE[n]
        self.active = tuple((self.forehand + i) % n for i in range(k))
        self.next_seat = {self.active[i]: self.active[(i + 1) % k] for i in range(k)}
        self._trick_size = k
        self._overtake = o.must_overtake
        self.golden = o.golden_round != "off" and self.deal_no <= 3
        dark_on = o.dark_bidding
        self.looked = [not (dark_on and s in self.active) for s in range(n)]
        self.dark_bid = [False] * n
        self.passed = [s not in self.active for s in range(n)]
        self.high, self.high_bidder, self.bids_made = 100, self.forehand, False
        self.declarer: int | None = None
        self.contract = 0
        self.how = ""
        self.dark = self.forced_100 = self.shown = self.rospis_done = False
        self.taken: list[int] = []
        self.taken_index: int | None = None
        self.rest_prikup: list[int] = []
        self.opponents: tuple[int, ...] = ()
        self.given: list[list[int]] = []
        self.buried: int | None = None
        self.redeal_queue: list[int] = []
        self.trump: int | None = None
        self.trick: list[tuple[int, int]] = []
        self.leader = self.forehand
        self.trick_no = 0
        self.tricks_won = [0] * n
        self.card_pts = [0] * n
        self.marriage_pts = [0] * n
        self.marriages: list[list[Any]] = []
        self.tricks: list[list[Any]] = []
        self.log: list[tuple[int, str]] = []  # (seat, action) of this deal's decisions
        self.on_barrel_start = list(self.carry.on_barrel)
        self.events.append({
            "type": "deal", "deal": self.deal_no, "redeal": self.redeal_no, "dealer": self.dealer,
            "forehand": self.forehand, "sitter": self.sitter, "golden": self.golden,
            "hands": [[CARD_TEXT[c] for c in h] for h in hands],
            "prikups": [[CARD_TEXT[c] for c in p] for p in prikups]})
        self.phase = AUCTION
        barrel_seat = next((s for s in self.active if self.carry.on_barrel[s]), None)
        if o.golden_round == "forced120_double" and self.golden:
            self._auction_end(self.forehand, 120, "golden_120")          # §5.6
        elif o.barrel_auction == "automatic" and barrel_seat is not None:
            self._auction_end(barrel_seat, o.barrel_min_contract, "barrel")  # T-28
        else:
            self._turn(self.next_seat[self.forehand], self._auction_legal)   # §5.2

    def _turn(self, seat: int, legal_for) -> None:
        self.to_move = seat
        self._legal = legal_for(seat)

    # ----- auction (§5, §6.6) ----------------------------------------------------------------
    def _auction_legal(self, seat: int) -> list[str]:
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

    def _dark_bid_legal(self, seat: int) -> list[str]:
        o = self.options
        return bid_range(self.high + o.bid_step, o.max_bid_cap, o.bid_step, BID_TEXT, None)

    def _after_auction_action(self, seat: int) -> None:
        left = [s for s in self.active if not self.passed[s]]
        if len(left) == 1:
            d = left[0]
            self._auction_end(d, self.high, "auction" if self.bids_made else "forced_100")
            return
        nxt = self.next_seat[seat]
        while self.passed[nxt]:
            nxt = self.next_seat[nxt]
        self._turn(nxt, self._auction_legal)

    def _auction_end(self, declarer: int, contract: int, how: str) -> None:
        o = self.options
        self.declarer, self.contract, self.how = declarer, contract, how
        self.forced_100 = how == "forced_100"
        self.dark = how == "auction" and self.dark_bid[declarer]
        self.shown = not ((self.forced_100 and not o.show_prikup_on_forced_100) or self.dark)
        self.looked = [True] * self.num_players  # §6.6: every hand is seen once the auction ends
        self.events.append({"type": "contract", "declarer": declarer, "contract": contract,
                            "how": how, "dark": self.dark})
        opps, s = [], self.next_seat[declarer]
        while s != declarer:
            opps.append(s)
            s = self.next_seat[s]
        self.opponents = tuple(opps)
        if self.num_players == 2:
            self.phase = PRIKUP
            self.to_move, self._legal = declarer, list(PRIKUP_TEXT)
        else:
            self._take_prikup(0)

    # ----- prikup, exchange, raise (§6, §11) ------------------------------------------------
    def _take_prikup(self, index: int) -> None:
        d = self.declarer
        self.taken_index = index
        self.taken = list(self.prikups[index])
        if self.num_players == 2:
            self.rest_prikup = list(self.prikups[1 - index])
        self.events.append({"type": "prikup", "seat": d, "index": index,
                            "cards": [CARD_TEXT[c] for c in self.taken], "shown": self.shown})
        self.hands[d] = sorted(self.hands[d] + self.taken)
        self.phase = GIVE
        self._turn(d, self._give_legal)

    def _give_legal(self, seat: int) -> list[str]:
        to = self.opponents[len(self.given)]
        out = [GIVE_TEXT[c][to] for c in self.hands[seat]]
        if not self.given and self.options.rospis and not self.carry.on_barrel[seat]:
            out.append(ROSPIS)  # T-19: before passing a card, never on the barrel
        return out

    def _bury_legal(self, seat: int) -> list[str]:
        return [BURY_TEXT[c] for c in self.hands[seat]]

    def _raise_legal(self, seat: int) -> list[str]:
        o = self.options
        ceiling = max_bid(self.hands[seat], o.max_bid_cap, o.ace_marriage)  # T-6: the 8-card hand
        return bid_range(self.contract + o.bid_step, ceiling, o.bid_step, RAISE_TEXT, KEEP)

    def _after_raise(self) -> None:
        o = self.options
        if o.redeal:  # §6.5, T-21, T-35
            if card_points(self.taken) < 5:
                self.events.append({"type": "redeal", "deal": self.deal_no, "reason": "prikup",
                                    "seat": None})
                self._redeal()
                return
            self.redeal_queue = [s for s in self.active if may_demand_redeal(
                self.hands[s], self.forced_100 and s == self.declarer)]
            if self.redeal_queue:
                self.phase = REDEAL_ASK
                self.to_move, self._legal = self.redeal_queue.pop(0), [PLAY_ON, REDEAL]
                return
        self._start_play()

    def _redeal(self) -> None:
        self.redeal_no += 1
        self._start_deal()

    # ----- play (§7) --------------------------------------------------------------------------
    def _start_play(self) -> None:
        self.phase = PLAY
        self.leader = self.declarer
        self.trick_no = 1
        self.trick = []
        self._turn(self.declarer, self._play_legal)

    def _play_legal(self, seat: int) -> list[str]:
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

    def _play(self, seat: int, c: int, declare: bool) -> None:
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

    # ----- the interface ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.terminal else self.to_move

    def legal_actions(self) -> list[str]:
        return [] if self.terminal else list(self._legal)

    def is_terminal(self) -> bool:
        return self.terminal

    def scores(self) -> tuple[int, ...]:
        return tuple(self.carry.totals)

    def apply(self, action: str) -> None:
        if action not in self._legal or self.terminal:
            raise self.illegal(action)
        seat = self.to_move
        self.events.append({"type": "action", "seat": seat, "action": action})
        self.log.append((seat, action))
        kind, value, extra = ACTIONS[action]
        phase = self.phase
        if phase is PLAY:
            if not extra:  # the common case inline: a plain card that does not end the trick
                trick = self.trick
                if len(trick) + 1 < self._trick_size:
                    self.hands[seat].remove(value)
                    trick.append((seat, value))
                    nxt = self.to_move = self.next_seat[seat]
                    self._legal = self._play_legal(nxt)
                    return
            self._play(seat, value, extra)
            return
        if phase == AUCTION or phase == DARK_BID:
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
                    self.high, self.high_bidder, self.bids_made = value, seat, True
                self._after_auction_action(seat)
        elif phase == PRIKUP:
            self._take_prikup(value)
        elif phase == GIVE:
            if kind == "rospis":
                self.rospis_done = True
                self._end_deal()
                return
            self.hands[seat].remove(value)
            hand = self.hands[extra]
            hand.append(value)
            hand.sort()
            self.given.append([extra, value])
            if len(self.given) < len(self.opponents):
                self._legal = self._give_legal(seat)
            elif self.num_players == 2:
                self.phase = BURY
                self._legal = self._bury_legal(seat)
            else:
                self.phase = RAISE
                self._legal = self._raise_legal(seat)
        elif phase == BURY:
            self.hands[seat].remove(value)
            self.rest_prikup.append(value)
            self.rest_prikup.sort()
            self.buried = value
            self.phase = RAISE
            self._legal = self._raise_legal(seat)
        elif phase == RAISE:
            if kind == "raise":
                self.contract = value
            self._after_raise()
        elif phase == REDEAL_ASK:
            if kind == "redeal":
                self.events.append({"type": "redeal", "deal": self.deal_no, "reason": "demand",
                                    "seat": seat})
                self._redeal()
            elif self.redeal_queue:
                self.to_move = self.redeal_queue.pop(0)
            else:
                self._start_play()

    # ----- scoring (§8, §9) ----------------------------------------------------------------
    def _end_deal(self) -> None:
        o, n = self.options, self.num_players
        d, contract = self.declarer, self.contract
        golden = 2 if self.golden else 1
        carry = self.carry
        rows, deltas, contract_falls = [], [0] * n, set()
        made = None
        for s in range(n):
            on = self.on_barrel_start[s]
            bolt = False
            if s == self.sitter:
                role = "sitter"
                cp = card_points(self.prikups[0])
                mp = marriage_total(self.prikups[0], False)
                points = cp + mp
                score, mult = prikup_score(self.prikups[0]), golden
            elif s == d:
                role = "declarer"
                cp, mp = self.card_pts[s], self.marriage_pts[s]
                points = cp + mp
                mult = golden * (2 if self.dark else 1)
                if self.rospis_done:
                    score = -contract if o.rospis_penalty == "bid" else 0
                    bolt = o.rospis_penalty == "bolt"
                else:
                    made = points >= contract  # §8: exact, no rounding
                    score = contract if made else -contract
            else:
                role = "defender"
                cp, mp = self.card_pts[s], self.marriage_pts[s]
                points = cp + mp
                score = half_up5(contract) if self.rospis_done else round5(points)
                mult = golden
            raw = score * mult
            delta = raw
            if on:  # §9 step 1: the barrel freeze
                delta = 0
                if role == "declarer" and not self.rospis_done:
                    if not made:
                        delta = raw
                        contract_falls.add(s)
                    elif contract >= o.barrel_min_contract:
                        delta = raw
            elif role != "sitter" and not self.rospis_done:  # §8 bolts
                if o.bolt_condition == "no_tricks":
                    bolt = self.tricks_won[s] == 0
                else:
                    bolt = raw == 0
            if bolt:
                carry.bolts[s] += 1
            deltas[s] = delta
            rows.append({"seat": s, "role": role, "tricks": self.tricks_won[s], "card_points": cp,
                         "marriage_points": mp, "points": points, "score": score,
                         "multiplier": mult, "barrel": on, "delta": delta, "bolt": bolt,
                         "bolts": carry.bolts[s]})
        outcome = "rospis" if self.rospis_done else ("made" if made else "failed")
        self.events.append({"type": "deal_score", "deal": self.deal_no, "declarer": d,
                            "contract": contract, "outcome": outcome, "dark": self.dark,
                            "golden": self.golden, "seats": rows})
        won = settle(o, carry, deltas, self.on_barrel_start, d, contract_falls, self.events)
        self.events.append({"type": "totals", "deal": self.deal_no, "totals": list(carry.totals),
                            "bolts": list(carry.bolts), "barrel": carry.barrel_rows()})
        self.history.append({"deal": self.deal_no, "declarer": d, "contract": contract,
                             "outcome": outcome, "deltas": deltas})
        self.phase = OVER
        if won:
            self.winners = won
            self._finish()
        elif self.deal_no >= o.max_deals:
            self.capped = True
            self.events.append({"type": "capped", "deals": self.deal_no})
            self._finish()
        else:
            self.deal_no += 1
            self.redeal_no = 0
            self.dealer = (self.dealer + 1) % n
            self._start_deal()

    def _finish(self) -> None:
        self.terminal = True
        self._legal = []
        self.to_move = TERMINAL
        r = self._result = self.result()
        self.events.append({"type": "match_end", "scores": list(r.scores), "ranks": list(r.ranks),
                            "winners": list(self.winners), "capped": self.capped})

    def result(self) -> Result:
        if not self.terminal:
            raise ValueError("the match is not over")
        fixed = getattr(self, "_result", None)
        if fixed is not None:  # worked out once (or read from a finished match's observation)
            return fixed
        totals = self.carry.totals
        if self.winners:  # §9 step 3: the winner(s) first, the others by totals
            return Result.from_keys(totals, [(s in self.winners, t) for s, t in enumerate(totals)])
        return Result.from_scores(totals)  # §14: a capped match ranks by totals

    # ----- what a seat may know (§10) ---------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        n = self.num_players
        carry = self.carry
        d = self.declarer
        hand = self.hands[seat]
        log = []
        for s, t in self.log:
            hidden = _HIDDEN.get(t)
            if hidden is not None and s != seat and hidden[1] != seat:
                t = hidden[0]
            log.append([s, t])
        prikup = None
        if self.taken_index is not None and (self.shown or seat == d):
            prikup = [CARD_TEXT[c] for c in self.taken]
        received = None
        for to, c in self.given:
            if to == seat:
                received = CARD_TEXT[c]
        obs = {
            "seat": seat, "num_players": n, "to_move": self.current_player(), "phase": self.phase,
            "deal": self.deal_no, "redeal": self.redeal_no, "dealer": self.dealer,
            "forehand": self.forehand, "sitter": self.sitter, "golden": self.golden,
            "scores": list(carry.totals), "bolts": list(carry.bolts),
            "barrel": carry.barrel_rows(),
            "hand": [CARD_TEXT[c] for c in hand] if self.looked[seat] else None,
            "hand_sizes": [len(h) for h in self.hands],
            "looked": list(self.looked), "dark_bids": list(self.dark_bid),
            "passed": list(self.passed), "high_bid": self.high, "high_bidder": self.high_bidder,
            "declarer": d, "contract": self.contract, "how": self.how, "dark": self.dark,
            "prikup_shown": self.shown, "prikup_index": self.taken_index, "prikup": prikup,
            "received": received,
            "given": [[to, CARD_TEXT[c]] for to, c in self.given] if seat == d else None,
            "buried": CARD_TEXT[self.buried] if seat == d and self.buried is not None else None,
            "rospis": self.rospis_done,
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "trick_no": self.trick_no, "leader": self.leader,
            "trick": [[s, CARD_TEXT[c]] for s, c in self.trick],
            "tricks": [list(t) for t in self.tricks],
            "tricks_won": list(self.tricks_won), "card_points": list(self.card_pts),
            "marriage_points": list(self.marriage_pts),
            "marriages": [list(m) for m in self.marriages],
            "log": log,
            "deals": [[h["deal"], h["declarer"], h["contract"], h["outcome"], list(h["deltas"])]
                      for h in self.history],
        }
        if self.terminal:
            obs["ranks"] = list(self.result().ranks)
        return obs

    def private_items(self, seat: int) -> set[str]:
        """Cards only ``seat`` may see now: its hand (once looked at), less the cards another seat
        also knows (a shown prikup card, a card received from the declarer, a declared marriage's
        partner); for the 2-player declarer also the buried card."""
        if not self.looked[seat]:
            return set()
        hand = set(self.hands[seat])
        if self.declarer == seat and self.shown:
            hand -= set(self.taken)
        hand -= {c for to, c in self.given if to == seat}
        for s, suit, value in self.marriages:
            if s == seat:
                si = SUITS.index(suit)
                hand -= set(ACES) if value == ACE_MARRIAGE_VALUE else {si * 6 + KING, si * 6 + QUEEN}
        out = {CARD_TEXT[c] for c in hand}
        if self.declarer == seat and self.buried is not None and not (
                self.shown and self.buried in self.taken):
            out.add(CARD_TEXT[self.buried])
        return out

    # ----- copies ---------------------------------------------------------------------------
    def clone(self) -> "ThousandState":
        new = object.__new__(ThousandState)
        d = self.__dict__
        new.__dict__.update(d)
        new.carry = self.carry.copy()
        new.events = list(self.events)
        new.history = list(self.history)
        new.hands = [list(h) for h in self.hands]
        new.prikups = [list(p) for p in self.prikups]
        new.looked = list(self.looked)
        new.dark_bid = list(self.dark_bid)
        new.passed = list(self.passed)
        new.taken = list(self.taken)
        new.rest_prikup = list(self.rest_prikup)
        new.given = [list(g) for g in self.given]
        new.redeal_queue = list(self.redeal_queue)
        new.trick = list(self.trick)
        new.tricks_won = list(self.tricks_won)
        new.card_pts = list(self.card_pts)
        new.marriage_pts = list(self.marriage_pts)
        new.marriages = list(self.marriages)
        new.tricks = list(self.tricks)
        new.log = list(self.log)
        new.on_barrel_start = list(self.on_barrel_start)
        new.winners = list(self.winners)
        new._legal = list(self._legal)
        return new

    # ----- positions for tests ------------------------------------------------------------------
    @classmethod
    def from_deal(cls, options: ThousandOptions, hands: list[list[int]], prikups: list[list[int]],
                  dealer: int = 0, totals: list[int] | None = None, deal_no: int = 1,
                  seed: int = 0, carry: Carry | None = None) -> "ThousandState":
        """A match whose current deal starts from given hands and prikups (for tests).

        Later deals are shuffled from ``seed``; ``carry`` (or ``totals``) sets the state the rules
        carry between deals."""
        state = object.__new__(cls)
        state.options = options
        state.num_players = n = options.num_players
        state.chance = Chance(seed)
        state.events = []
        state.carry = carry if carry is not None else Carry(n)
        if totals is not None:
            state.carry.totals = list(totals)
        state.history = []
        state.terminal = False
        state.winners = []
        state.capped = False
        state.deal_no = deal_no
        state.redeal_no = 0
        state.dealer = dealer
        state._begin_deal([sorted(h) for h in hands], [sorted(p) for p in prikups])
        return state
