"""The match flow after each deal: totals, the win check, bolts, the barrel, the dump truck
(docs/games/thousand.md §9, steps 2-8, applied in that order; rules T-12 … T-18, T-27, T-32, T-33).

``Carry`` is the state the rules carry from deal to deal. ``settle`` takes the deal's deltas after
the barrel freeze (step 1, done by the deal scoring) and appends one event per change.
"""
from __future__ import annotations

from typing import Any


class Carry:
    """Totals, bolts and barrel state per seat (docs/games/thousand.md §3)."""

    __slots__ = ("totals", "bolts", "on_barrel", "attempts", "falls")

    def __init__(self, n: int) -> None:
        self.totals = [0] * n
        self.bolts = [0] * n
        self.on_barrel = [False] * n
        self.attempts = [0] * n
        self.falls = [0] * n

    def copy(self) -> Carry:
        new = Carry.__new__(Carry)
        new.totals = list(self.totals)
        new.bolts = list(self.bolts)
        new.on_barrel = list(self.on_barrel)
        new.attempts = list(self.attempts)
        new.falls = list(self.falls)
        return new

    def barrel_rows(self) -> list[list[Any]]:
        return [[self.on_barrel[s], self.attempts[s], self.falls[s]] for s in range(len(self.totals))]


def winners(totals: list[int], win_score: int, declarer: int | None) -> list[int]:
    """§9 step 3 (T-18): the highest total at or above win_score wins; an exact tie goes to the
    declarer when they are one of the tied, else every tied seat shares the win (a draw)."""
    qualified = [s for s, t in enumerate(totals) if t >= win_score]
    if not qualified:
        return []
    best = max(totals[s] for s in qualified)
    top = [s for s in qualified if totals[s] == best]
    if len(top) > 1 and declarer in top:
        return [declarer]
    return top


def settle(opts: Any, carry: Carry, deltas: list[int], on_start: list[bool], declarer: int | None,
           contract_falls: set[int], events: list[dict[str, Any]]) -> list[int]:
    """Apply §9 steps 2-8 to ``carry``; return the winners (empty when the match goes on).

    ``on_start`` says who was on the barrel at the start of the deal; ``contract_falls`` are the
    barrel players who failed a contract (step 1a: they fall in step 7 with no extra penalty).
    """
    n = len(deltas)
    totals = carry.totals
    for s in range(n):                                   # step 2
        totals[s] += deltas[s]
    won = winners(totals, opts.win_score, declarer)      # step 3
    if won:
        return won                                       # T-33: nothing more in a winning deal
    for s in range(n):                                   # step 4: bolt penalties
        if carry.bolts[s] >= opts.bolts_per_penalty:
            carry.bolts[s] = 0
            totals[s] -= opts.bolt_penalty
            events.append({"type": "bolt_penalty", "seat": s, "amount": -opts.bolt_penalty,
                           "total": totals[s]})
    falling: dict[int, str] = {s: "contract" for s in contract_falls}
    for s in range(n):                                   # step 5: barrel attempts
        if on_start[s] and s not in falling:
            carry.attempts[s] += 1
            events.append({"type": "barrel_attempt", "seat": s, "attempt": carry.attempts[s]})
            if carry.attempts[s] >= opts.barrel_attempts:
                falling[s] = "attempts"
    mounting = [s for s in range(n) if not on_start[s]   # step 6: barrel entry
                and opts.barrel_threshold <= totals[s] < opts.win_score]
    for s in mounting:
        events.append({"type": "barrel_mount", "seat": s, "from": totals[s],
                       "total": opts.barrel_threshold})
        totals[s] = opts.barrel_threshold
        carry.on_barrel[s] = True
        carry.attempts[s] = 0
    if mounting:
        occupants = [s for s in range(n) if on_start[s] and s not in falling]
        for s in occupants:
            falling[s] = "collision"
        if len(mounting) > 1:
            for s in mounting:
                falling[s] = "collision"
    for s in sorted(falling):                            # step 7: falls
        reason = falling[s]
        carry.falls[s] += 1
        fall_no = carry.falls[s]
        before = totals[s]
        if fall_no >= opts.barrel_falls_to_zero:
            totals[s] = 0
            carry.falls[s] = 0                           # T-32: the count restarts
        elif reason != "contract":
            totals[s] -= opts.barrel_fall_penalty
        carry.on_barrel[s] = False
        carry.attempts[s] = 0
        events.append({"type": "barrel_fall", "seat": s, "reason": reason, "fall": fall_no,
                       "amount": totals[s] - before, "total": totals[s]})
    if opts.dump_truck:                                  # step 8: dump truck
        for s in range(n):
            if totals[s] == 555 or (opts.dump_truck_negative and totals[s] == -555):
                events.append({"type": "dump_truck", "seat": s, "from": totals[s], "total": 0})
                totals[s] = 0
    return []
