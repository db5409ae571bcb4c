"""A Block match in progress: deals, turns, forced passes, blocked deals, scores (block.md §3–§9)."""
from __future__ import annotations

import random
from collections import deque
from typing import Any

from arena.errors import IllegalActionError
from arena.game import TERMINAL, Result, State
from arena.games.block.options import BlockOptions
from arena.games.block.scoring import deal_points
from arena.games.block.tiles import (
    ACTIONS, LEAD_TEXT, LEFT, ORIENTED_TEXT, PASS, PLAY_TEXT, TILE_TEXT, TILES, Tile,
    highest_opening_tile, opening_rank, pips,
)

_PLAY_L, _PLAY_R = PLAY_TEXT
_REDEAL_TRIES = 200  # random deals tried by redeal_hidden before it keeps the actual one


class BlockState(State):
    """One Block match. Create it with ``Block().new_match(options, seed)``."""

    def __init__(self, options: BlockOptions, seed: int) -> None:
        self.options = options
        self.num_players = options.num_players
        self.seed = seed
        self._rng = random.Random(seed)
        self._scores = [0] * self.num_players
        self.events: list[dict[str, Any]] = []
        self.deal_no = 0
        self.leader = 0
        self._finished_deals: list[dict[str, Any]] = []
        self._terminal = False
        self._deal_winner: int | None = None
        if options.first_leader == "lottery":
            # block.md B-1: a fair lottery is one uniform seat, drawn before the first shuffle.
            self.leader = self._rng.randrange(self.num_players)
        self._start_deal()

    # ----- deals ---------------------------------------------------------------------------
    def _start_deal(self) -> None:
        """block.md §4: shuffle the 28 tiles, deal ``hand_size`` each, set the rest aside."""
        n, size = self.num_players, self.options.hand_size
        tiles = list(TILES)
        self._rng.shuffle(tiles)
        hands = [sorted(tiles[i * size:(i + 1) * size]) for i in range(n)]
        set_aside = sorted(tiles[n * size:])
        self.deal_no += 1
        if self.deal_no > 1:
            self.leader = (self.leader + 1) % n  # block.md §4.2: the lead moves left, always
        self._begin(hands, set_aside)

    def _begin(self, hands: list[list[Tile]], set_aside: list[Tile]) -> None:
        self.hands = hands
        self.set_aside = set_aside
        self.chain: deque[Tile] = deque()  # oriented (left half, right half), left to right
        self.ends: tuple[int, int] | None = None
        self.plays: list[list[Any]] = []  # [seat, action text] of this deal, passes included
        self._passes = 0
        self._opening: Tile | None = None
        if self.deal_no == 1 and self.options.first_leader == "highest_double":
            self.leader, self._opening = highest_opening_tile(hands)
        self.events.append({
            "type": "deal", "deal": self.deal_no, "leader": self.leader,
            "hands": [[TILE_TEXT[t] for t in h] for h in hands],
            "set_aside": [TILE_TEXT[t] for t in set_aside],
        })
        self._to_move = self.leader
        self._legal = self._legal_for(self.leader)

    def _legal_for(self, seat: int) -> list[str]:
        """block.md §5: every (tile, side) that matches an end; any tile into an empty chain."""
        hand = self.hands[seat]
        ends = self.ends
        if ends is None:
            if self._opening is not None:
                return [LEAD_TEXT[self._opening]]
            return [LEAD_TEXT[t] for t in hand]
        left, right = ends
        out = []
        for t in hand:
            a, b = t
            if a == left or b == left:
                out.append(_PLAY_L[t])
            if a == right or b == right:
                out.append(_PLAY_R[t])
        if not out and not self.options.auto_pass:
            out.append(PASS)
        return out

    # ----- the interface -------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self._terminal else self._to_move

    def legal_actions(self) -> list[str]:
        return [] if self._terminal else list(self._legal)

    def is_terminal(self) -> bool:
        return self._terminal

    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    def apply(self, action: str) -> None:
        if self._terminal or action not in self._legal:
            raise IllegalActionError(
                f"illegal action {action!r} for seat {self.current_player()} "
                f"(legal: {', '.join(self._legal) or 'none'})")
        seat = self._to_move
        self.plays.append([seat, action])
        if action == PASS:
            self.events.append({"type": "action", "seat": seat, "action": action})
            self._passes += 1
            self._advance(seat)
            return
        tile, side = ACTIONS[action]
        self.hands[seat].remove(tile)
        a, b = tile
        if side is None:
            self.chain.append(tile)
            self.ends = tile
            self._opening = None
        elif side == LEFT:
            left, right = self.ends
            new = b if a == left else a
            self.chain.appendleft((new, left))
            self.ends = (new, right)
        else:
            left, right = self.ends
            new = b if a == right else a
            self.chain.append((right, new))
            self.ends = (left, new)
        self._passes = 0
        self.events.append({"type": "action", "seat": seat, "action": action, "ends": list(self.ends)})
        if not self.hands[seat]:
            self._end_deal(domino_by=seat)  # block.md §6: domino ends the deal at once
        else:
            self._advance(seat)

    def _advance(self, seat: int) -> None:
        """Give the turn to the next seat that can act, passing for those that cannot (B-5)."""
        n = self.num_players
        if self.options.auto_pass:
            for step in range(1, n + 1):
                nxt = (seat + step) % n
                legal = self._legal_for(nxt)
                if legal:
                    self._to_move, self._legal = nxt, legal
                    return
                self.plays.append([nxt, PASS])
                self.events.append({"type": "pass", "seat": nxt})
            self._end_deal(domino_by=None)  # block.md §6: nobody can play
            return
        if self._passes >= n:
            self._end_deal(domino_by=None)
            return
        nxt = (seat + 1) % n
        self._to_move, self._legal = nxt, self._legal_for(nxt)

    def _end_deal(self, domino_by: int | None) -> None:
        """block.md §7–§8: score the deal, then end the match or deal again."""
        remaining = [sum(pips(t) for t in h) for h in self.hands]
        points = deal_points(remaining, domino_by)
        for seat, p in enumerate(points):
            self._scores[seat] += p
        winner = domino_by
        if winner is None and remaining.count(min(remaining)) == 1:
            winner = remaining.index(min(remaining))
        self._deal_winner = winner
        summary = {
            "type": "deal_end", "deal": self.deal_no, "end": "blocked" if domino_by is None else "domino",
            "winner": winner, "hands": [[TILE_TEXT[t] for t in h] for h in self.hands],
            "remaining": remaining, "points": points, "scores": list(self._scores),
        }
        self.events.append(summary)
        self._finished_deals.append({
            "deal": self.deal_no, "leader": self.leader, "plays": self.plays,
            "end": summary["end"], "hands": summary["hands"], "remaining": remaining, "points": points,
        })
        if self.options.single_deal or max(self._scores) >= self.options.target:
            self._terminal = True
            self._legal = []
            result = self.result()
            self.events.append({"type": "match_end", "scores": list(result.scores), "ranks": list(result.ranks)})
        else:
            self._start_deal()

    def result(self) -> Result:
        if not self._terminal:
            raise ValueError("the match is not over")
        if self.options.single_deal:
            # B-8: the deal's winner wins, even with 0 points (a domino against a lone [0|0]);
            # a blocked deal with a tie for lowest is a draw.
            w = self._deal_winner
            return Result(tuple(self._scores),
                          tuple(1 if w is None or s == w else 2 for s in range(self.num_players)))
        return Result.from_scores(self._scores)  # block.md §8: equal top scores are a draw

    # ----- what a seat may know ------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        """block.md §9: the chain, ends, plays and passes, hand sizes, scores, own hand, past deals.

        Records that never change once made (each play, each finished deal) are shared with the
        state rather than copied, since this is built for every decision: treat it as read-only.
        """
        o = self.options
        return {
            "seat": seat,
            "num_players": self.num_players,
            "target": o.target,
            "scores": list(self._scores),
            "deal": self.deal_no,
            "leader": self.leader,
            "to_move": self.current_player(),
            "hand": [TILE_TEXT[t] for t in self.hands[seat]],
            "hand_sizes": [len(h) for h in self.hands],
            "set_aside": len(self.set_aside),
            "chain": [ORIENTED_TEXT[t] for t in self.chain],
            "ends": list(self.ends) if self.ends is not None else None,
            "plays": list(self.plays),
            "deals": list(self._finished_deals),
        }

    # ----- copies ---------------------------------------------------------------------------
    def clone(self) -> "BlockState":
        new = object.__new__(BlockState)
        new.__dict__.update(self.__dict__)
        new._rng = random.Random()
        new._rng.setstate(self._rng.getstate())
        new._scores = list(self._scores)
        new.events = list(self.events)
        new._finished_deals = list(self._finished_deals)
        new.hands = [list(h) for h in self.hands]
        new.set_aside = list(self.set_aside)
        new.chain = deque(self.chain)
        new.plays = [list(p) for p in self.plays]
        new._legal = list(self._legal)
        return new

    def redeal_hidden(self, seat: int, rng: random.Random) -> "BlockState":
        """Deal the others' hands and the set-aside tiles again, keeping every size.

        The new deal agrees with all that ``seat`` knows: a seat that passed holds no tile of the
        ends it passed on; with ``auto_pass`` the seat to move (it was not passed over) holds a
        playable tile; under ``first_leader="highest_double"`` the leader of deal 1 holds (or
        held) the best opening tile of all hands (B-3). Seats are dealt most constrained first.
        Once the match is over every hand has been shown, so nothing is dealt again.
        """
        new = self.clone()
        if self._terminal:
            return new
        others = [s for s in range(self.num_players) if s != seat]
        pool = [t for s in others for t in self.hands[s]] + self.set_aside
        banned = self._banned_tiles()
        others.sort(key=lambda s: -len(banned[s]))
        for _ in range(_REDEAL_TRIES):
            rng.shuffle(pool)
            rest = pool
            for s in others:
                allowed = [t for t in rest if t not in banned[s]]
                k = len(self.hands[s])
                if len(allowed) < k:
                    break
                new.hands[s] = sorted(allowed[:k])
                rest = [t for t in rest if t not in new.hands[s]]
            else:
                if new._agrees_with_turn(seat):
                    new.set_aside = sorted(rest)
                    break
        else:  # constraints too tight for random tries: the actual deal satisfies them all
            new.hands, new._opening = [list(h) for h in self.hands], self._opening
        new._legal = new._legal_for(new._to_move)
        return new

    def _banned_tiles(self) -> list[set[Tile]]:
        """Per seat, the tiles it is publicly known not to hold in the current deal."""
        banned: list[set[Tile]] = [set() for _ in range(self.num_players)]
        ends: list[int] = []
        for s, action in self.plays:  # replay the ends: a pass shows a void in both end values
            if action == PASS:
                banned[s].update(t for t in TILES if ends[0] in t or ends[1] in t)
                continue
            (a, b), side = ACTIONS[action]
            if side is None:
                ends = [a, b]
                if self.deal_no == 1 and self.options.first_leader == "highest_double":
                    # B-3: the opening tile outranked every tile in every hand
                    above = {t for t in TILES if opening_rank(t) > opening_rank((a, b))}
                    for seat_banned in banned:
                        seat_banned.update(above)
            else:
                ends[side] = b if a == ends[side] else a
        return banned

    def _agrees_with_turn(self, seat: int) -> bool:
        """After a redeal for ``seat``: whoever is to move could be, as ``seat`` saw it."""
        if self._opening is not None:  # deal 1 under highest_double, before the opening play
            leader, self._opening = highest_opening_tile(self.hands)
            return leader == self.leader
        if self.options.auto_pass and self._to_move != seat and self.ends is not None:
            return bool(self._legal_for(self._to_move))
        return True

    @classmethod
    def from_position(cls, options: BlockOptions, hands: list[list[Tile]], leader: int,
                      scores: list[int] | None = None, seed: int = 0) -> "BlockState":
        """A match whose current deal starts from given hands (for tests and puzzles).

        Tiles not in any hand are set aside. Later deals are shuffled from ``seed``.
        """
        state = object.__new__(cls)
        state.options = options
        state.num_players = options.num_players
        state.seed = seed
        state._rng = random.Random(seed)
        state._scores = list(scores) if scores is not None else [0] * options.num_players
        state.events = []
        state.deal_no = 1
        state.leader = leader
        state._finished_deals = []
        state._terminal = False
        held = {t for h in hands for t in h}
        state._begin([sorted(h) for h in hands], [t for t in TILES if t not in held])
        return state
