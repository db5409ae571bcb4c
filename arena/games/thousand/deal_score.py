"""The end of a Thousand deal (docs/games/thousand.md §8, §9, §12, §14): each seat's deal score,
bolts and the barrel freeze, then the match flow (``flow.settle``) and the next deal, a win or the
length cap: the part of ``ThousandState`` that closes a deal."""
from __future__ import annotations

from typing import TYPE_CHECKING

from arena.games.thousand.cards import card_points
from arena.games.thousand.flow import settle
from arena.games.thousand.phases import OVER
from arena.games.thousand.scoring import half_up5, marriage_total, prikup_score, round5

if TYPE_CHECKING:
    from arena.games.thousand.match import Match


def end_deal(self: Match) -> None:
    o, n = self.options, self.num_players
    d, contract = self.declarer, self.contract
    golden = 2 if self.golden else 1
    carry = self.carry
    rows, deltas, contract_falls = [], [0] * n, set()
    made = None
    barrel_floor = o.barrel_min_contract
    assert barrel_floor is not None  # ThousandOptions sets it
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
                elif contract >= barrel_floor:
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
