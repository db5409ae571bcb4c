"""What a seat may know of a Thousand match (docs/games/thousand.md §10, §16), and the way back:
the state an observation shows, once ``sample_state`` has dealt the cards it hides (§18)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.game import TERMINAL, Chance, Result
from arena.games.thousand.actions import (
    BURY_HIDDEN,
    BURY_TEXT,
    GIVE_HIDDEN,
    GIVE_TEXT,
    PASS,
    PLAY_ON,
    PRIKUP_TEXT,
    REDEAL,
)
from arena.games.thousand.cards import ACE_MARRIAGE_VALUE, ACES, CARD_OF, CARD_TEXT, DECK, KING, QUEEN, SUITS
from arena.games.thousand.flow import Carry
from arena.games.thousand.phases import AUCTION, BURY, DARK_BID, GIVE, OVER, PHASES, PLAY, PRIKUP, RAISE, REDEAL_ASK

if TYPE_CHECKING:
    from arena.games.thousand.match import Match
    from arena.games.thousand.options import ThousandOptions

# a give or a burial in the log, as a seat that did not see the card reads it
_HIDDEN: dict[str, tuple[str, int | None]] = {GIVE_TEXT[c][s]: (GIVE_HIDDEN[s], s) for c in DECK for s in range(4)}
_HIDDEN.update({BURY_TEXT[c]: (BURY_HIDDEN, None) for c in DECK})
_PHASE_OF = {p: p for p in PHASES}  # an observation's phase text -> the state's own object


def seat_observation(self: Match, seat: int) -> dict[str, Any]:
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


def private_items(self: Match, seat: int) -> set[str]:
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


def restore(self: Match, options: ThousandOptions, obs: dict[str, Any], chance: Chance,
            hands: list[list[int]], prikups: list[list[int]], taken: list[int],
            rest_prikup: list[int], given: list[list[int]], buried: int | None,
            log: list[tuple[int, str]]) -> None:
    """Set every field of a state made with ``object.__new__`` to what ``obs`` shows, with the
    cards it hides given (``ThousandState.from_observation``)."""
    n = obs["num_players"]
    self.options = options
    self.num_players = n
    self.chance = chance
    self.events = []
    carry = Carry(n)
    carry.totals = list(obs["scores"])
    carry.bolts = list(obs["bolts"])
    for s, (on, att, falls) in enumerate(obs["barrel"]):
        carry.on_barrel[s], carry.attempts[s], carry.falls[s] = on, att, falls
    self.carry = carry
    self.history = [{"deal": d, "declarer": dc, "contract": c, "outcome": oc,
                     "deltas": list(dl)} for d, dc, c, oc, dl in obs["deals"]]
    self.terminal = obs["to_move"] == TERMINAL
    self.winners = []
    self.capped = False
    self.deal_no, self.redeal_no, self.dealer = obs["deal"], obs["redeal"], obs["dealer"]
    self.forehand, self.sitter, self.golden = obs["forehand"], obs["sitter"], obs["golden"]
    self._seat_order()
    self.looked = list(obs["looked"])
    self.dark_bid = list(obs["dark_bids"])
    self.passed = list(obs["passed"])
    self.high, self.high_bidder = obs["high_bid"], obs["high_bidder"]
    self.bids_made = any(t.startswith("bid ") for _, t in obs["log"])
    self.declarer, self.contract = obs["declarer"], obs["contract"]
    self.how, self.dark = obs["how"], obs["dark"]
    self.forced_100 = self.how == "forced_100"
    self.shown = obs["prikup_shown"]
    self.rospis_done = obs["rospis"]
    self.taken_index = obs["prikup_index"]
    self.opponents = self._opponents(self.declarer) if self.declarer is not None else ()
    self.trump = SUITS.index(obs["trump"]) if obs["trump"] is not None else None
    self.trick = [(s, CARD_OF[c]) for s, c in obs["trick"]]
    self.leader, self.trick_no = obs["leader"], obs["trick_no"]
    self.tricks_won = list(obs["tricks_won"])
    self.card_pts = list(obs["card_points"])
    self.marriage_pts = list(obs["marriage_points"])
    self.marriages = [list(m) for m in obs["marriages"]]
    self.tricks = [[ld, list(cs), w] for ld, cs, w in obs["tricks"]]
    self.on_barrel_start = list(carry.on_barrel)
    self.redeal_queue = []
    self.phase = phase = _PHASE_OF[obs["phase"]]  # the state compares phases with ``is``
    self.to_move = seat = obs["to_move"]
    self.hands, self.prikups, self.taken, self.rest_prikup = hands, prikups, taken, rest_prikup
    self.given, self.buried, self.log = given, buried, log
    # who is to move and what they may do
    if self.terminal:
        self._legal = []
        self.phase = OVER
        self._result = Result(tuple(obs["scores"]), tuple(obs["ranks"]))
    elif phase == AUCTION:
        self._legal = self._auction_legal(seat)
    elif phase == DARK_BID:
        self._legal = self._dark_bid_legal(seat)
    elif phase == PRIKUP:
        self._legal = list(PRIKUP_TEXT)
    elif phase == GIVE:
        self._legal = self._give_legal(seat)
    elif phase == BURY:
        self._legal = self._bury_legal(seat)
    elif phase == RAISE:
        self._legal = self._raise_legal(seat)
    elif phase == REDEAL_ASK:
        self._legal = [PLAY_ON, REDEAL]
        later = self.active[self.active.index(seat) + 1:]  # the seats still to be asked
        self.redeal_queue = self._may_demand_redeal(later)
    elif phase == PLAY:
        self._legal = self._play_legal(seat)
    else:
        self._legal = [PASS]
