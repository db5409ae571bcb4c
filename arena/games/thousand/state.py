"""A Thousand match in progress (docs/games/thousand.md §4-§12): the deal, the game interface and
copies. The phases of a deal live in their own modules as functions of the state, typed against
the ``match.Match`` protocol and installed below as its methods: ``auction`` (§5), ``exchange``
(the prikup, the exchange, the raise, the redeal: §6, §11), ``tricks`` (the play: §7),
``deal_score`` (§8, §9) and ``observation`` (§10, §16)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.game import TERMINAL, Chance, Result, State
from arena.games.thousand import auction, deal_score, exchange, tricks
from arena.games.thousand import observation as views
from arena.games.thousand.actions import ACTIONS
from arena.games.thousand.cards import CARD_TEXT, DECK
from arena.games.thousand.flow import Carry
from arena.games.thousand.options import ThousandOptions
from arena.games.thousand.phases import AUCTION, BURY, DARK_BID, GIVE, PLAY, PRIKUP, RAISE, REDEAL_ASK

_TRICK_SIZE = {2: 2, 3: 3, 4: 3}


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

    _legal: list[str]
    _result: Result

    # ----- the phases (their modules' functions, as methods) -----------------------------------
    _auction_legal = auction.auction_legal
    _dark_bid_legal = auction.dark_bid_legal
    _auction_action = auction.auction_action
    _after_auction_action = auction.after_auction_action
    _auction_end = auction.auction_end
    _opponents = auction.opponents
    _take_prikup = exchange.take_prikup
    _give_legal = exchange.give_legal
    _give = exchange.give
    _bury_legal = exchange.bury_legal
    _bury = exchange.bury
    _raise_legal = exchange.raise_legal
    _raise = exchange.raise_contract
    _after_raise = exchange.after_raise
    _may_demand_redeal = exchange.redeal_claimants
    _redeal_answer = exchange.redeal_answer
    _redeal = exchange.redeal
    _start_play = tricks.start_play
    _play_legal = tricks.play_legal
    _play = tricks.play
    _end_deal = deal_score.end_deal
    observation = views.seat_observation
    private_items = views.private_items
    _restore = views.restore

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
        self._seat_order()
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

    def _seat_order(self) -> None:
        """The seats in the deal from forehand (§4; the 4-player sitter is out) and who is next."""
        n = self.num_players
        k = _TRICK_SIZE[n]
        self.active = tuple((self.forehand + i) % n for i in range(k))
        self.next_seat = {self.active[i]: self.active[(i + 1) % k] for i in range(k)}
        self._trick_size = k
        self._overtake = self.options.must_overtake

    def _turn(self, seat: int, legal_for: Callable[[int], list[str]]) -> None:
        self.to_move = seat
        self._legal = legal_for(seat)

    # ----- the interface ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.terminal else self.to_move

    def is_terminal(self) -> bool:
        return self.terminal

    def scores(self) -> tuple[int, ...]:
        return tuple(self.carry.totals)

    def _apply_legal(self, action: str) -> None:
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
        elif phase == AUCTION or phase == DARK_BID:
            self._auction_action(seat, kind, value)
        elif phase == PRIKUP:
            self._take_prikup(value)
        elif phase == GIVE:
            self._give(seat, kind, value, extra)
        elif phase == BURY:
            self._bury(seat, value)
        elif phase == RAISE:
            self._raise(kind, value)
        elif phase == REDEAL_ASK:
            self._redeal_answer(seat, kind)

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

    # ----- copies ---------------------------------------------------------------------------
    def clone(self) -> ThousandState:
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

    @classmethod
    def from_observation(cls, options: ThousandOptions, obs: dict[str, Any], chance: Chance, *,
                         hands: list[list[int]], prikups: list[list[int]], taken: list[int],
                         rest_prikup: list[int], given: list[list[int]], buried: int | None,
                         log: list[tuple[int, str]]) -> ThousandState:
        """The state that ``obs`` shows, with the cards it hides given: every hand, the prikups
        (as dealt, before the declarer took one), the taken prikup, the 2-player other prikup
        (with the buried card), the passes ``[[to, card], …]``, the buried card and this deal's
        log with the hidden texts filled in. Later deals are shuffled from ``chance``."""
        state = object.__new__(cls)
        state._restore(options, obs, chance, hands, prikups, taken, rest_prikup, given, buried, log)
        return state

    # ----- positions for tests ------------------------------------------------------------------
    @classmethod
    def from_deal(cls, options: ThousandOptions, hands: list[list[int]], prikups: list[list[int]],
                  dealer: int = 0, totals: list[int] | None = None, deal_no: int = 1,
                  seed: int = 0, carry: Carry | None = None) -> ThousandState:
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
