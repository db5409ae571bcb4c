"""A Block match in progress: deals, turns, forced passes, blocked deals, scores (block.md §3–§9)."""
from __future__ import annotations

import random
from collections import deque
from typing import Any

from arena.game import TERMINAL, Chance, Result, State
from arena.games.block.options import BlockOptions
from arena.games.block.scoring import deal_points
from arena.games.block.tiles import (
    ACTIONS,
    LEAD_TEXT,
    LEFT,
    ORIENTED_TEXT,
    PASS,
    PLAY_TEXT,
    TILE_OF_TEXT,
    TILE_TEXT,
    TILES,
    Tile,
    ends_after,
    highest_opening_tile,
    opening_rank,
    pips,
)
from arena.games.sampling import deal_hidden

_PLAY_L, _PLAY_R = PLAY_TEXT


class BlockState(State):
    """One Block match. Create it with ``Block().new_match(options, seed)``."""

    def __init__(self, options: BlockOptions, seed: int) -> None:
        self.options = options
        self.num_players = options.num_players
        self.chance = Chance(seed)
        self._scores = [0] * self.num_players
        self.events: list[dict[str, Any]] = []
        self.deal_no = 0
        self.leader = 0
        self._terminal = False
        self._deal_winner: int | None = None
        if options.first_leader == "lottery":
            # docs/games/block.md §2 (rule B-1): a fair lottery is one uniform seat.
            self.leader = self.chance.stream("leader").randrange(self.num_players)
        self._start_deal()

    # ----- deals ---------------------------------------------------------------------------
    def _start_deal(self) -> None:
        """docs/games/block.md §3: shuffle the 28 tiles, deal ``hand_size`` each in seat order,
        set the rest aside. Deal k is shuffled by the stream ``("deal", k)``, so every match of a
        duplicate set deals the same hands to the same seats in every deal."""
        n, size = self.num_players, self.options.hand_size
        self.deal_no += 1
        tiles = list(TILES)
        self.chance.stream("deal", self.deal_no).shuffle(tiles)
        hands = [sorted(tiles[i * size:(i + 1) * size]) for i in range(n)]
        set_aside = sorted(tiles[n * size:])
        if self.deal_no > 1:
            self.leader = (self.leader + 1) % n  # the lead moves left, always
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

    def is_terminal(self) -> bool:
        return self._terminal

    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    def _apply_legal(self, action: str) -> None:
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
            assert self.ends is not None  # a tile is played on an open end
            left, right = self.ends
            new = b if a == left else a
            self.chain.appendleft((new, left))
            self.ends = (new, right)
        else:
            assert self.ends is not None  # a tile is played on an open end
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
        over = self.options.single_deal or max(self._scores) >= self.options.target
        if not over and self.deal_no >= self.options.max_deals:
            # docs/games/block.md §8: a match cut at its cap ranks by the scores, ties shared
            self.events.append({"type": "capped", "deals": self.deal_no, "scores": list(self._scores)})
            over = True
        if over:
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
        """docs/games/block.md §9: the chain, ends, this deal's plays and passes, hand sizes,
        scores, own hand. Nothing of finished deals but the scores: its size does not grow with
        the match. ``plays`` is shared with the state rather than copied (this is built for every
        decision): treat it as read-only."""
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
            "plays": self.plays,
        }

    def private_items(self, seat: int) -> set[str]:
        return {TILE_TEXT[t] for t in self.hands[seat]}

    # ----- copies ---------------------------------------------------------------------------
    def clone(self) -> BlockState:
        new = object.__new__(BlockState)
        new.__dict__.update(self.__dict__)
        new._scores = list(self._scores)
        new.events = list(self.events)
        new.hands = [list(h) for h in self.hands]
        new.set_aside = list(self.set_aside)
        new.chain = deque(self.chain)
        new.plays = list(self.plays)  # its [seat, action] rows are never changed in place
        new._legal = list(self._legal)
        return new

    @classmethod
    def from_observation(cls, options: BlockOptions, obs: dict[str, Any],
                         rng: random.Random) -> BlockState:
        """A state that ``obs["seat"]`` cannot tell from the real one (``Game.sample_state``).

        The other hands and the set-aside tiles are dealt again from the tiles the seat has not
        seen, keeping every size and every public fact: a seat that passed holds no tile of the
        ends it passed on; with ``auto_pass`` the seat to move (it was not passed over) holds a
        playable tile; under ``first_leader="highest_double"`` the leader of deal 1 holds (or
        held) the best opening tile of all hands. Later deals are shuffled from ``rng``.
        """
        seat = obs["seat"]
        state = object.__new__(cls)
        state.options = options
        state.num_players = n = options.num_players
        state.chance = Chance.from_rng(rng)
        state._scores = list(obs["scores"])
        state.events = []
        state.deal_no = obs["deal"]
        state.leader = obs["leader"]
        state._deal_winner = None
        state.plays = [list(p) for p in obs["plays"]]
        state.chain = deque(_oriented(t) for t in obs["chain"])
        state.ends = tuple(obs["ends"]) if obs["ends"] is not None else None
        passes = 0
        for _, action in reversed(state.plays):
            if action != PASS:
                break
            passes += 1
        state._passes = passes
        to_move = obs["to_move"]
        state._terminal = to_move == TERMINAL
        state._to_move = 0 if state._terminal else to_move
        own = sorted(TILE_OF_TEXT[t] for t in obs["hand"])
        seen = set(own) | {(min(t), max(t)) for t in state.chain}
        pool = [t for t in TILES if t not in seen]
        others = [s for s in range(n) if s != seat]
        sizes = [obs["hand_sizes"][s] for s in others] + [obs["set_aside"]]
        state.hands = [[] for _ in range(n)]
        state.hands[seat] = own
        state._opening = None
        banned = state._banned_tiles()
        opening_pending = (state.deal_no == 1 and options.first_leader == "highest_double"
                           and not state.chain)

        def accept(bins: list[list[Tile]]) -> bool:
            hands = list(state.hands)
            for s, b in zip(others, bins):
                hands[s] = b
            if opening_pending:
                return highest_opening_tile(hands)[0] == state.leader
            if options.auto_pass and not state._terminal and to_move != seat and state.ends is not None:
                left, right = state.ends
                return any(left in t or right in t for t in hands[to_move])
            return True

        bins = deal_hidden(pool, sizes, [banned[s] for s in others] + [set()], rng, accept)
        for s, b in zip(others, bins):
            state.hands[s] = sorted(b)
        state.set_aside = sorted(bins[-1])
        if opening_pending:
            state._opening = highest_opening_tile(state.hands)[1]
        state._legal = [] if state._terminal else state._legal_for(state._to_move)
        return state

    def _banned_tiles(self) -> list[set[Tile]]:
        """Per seat, the tiles it is publicly known not to hold in the current deal."""
        banned: list[set[Tile]] = [set() for _ in range(self.num_players)]
        ends: tuple[int, int] | None = None
        for s, action in self.plays:  # replay the ends: a pass shows a void in both end values
            if action == PASS:
                assert ends is not None  # a deal opens with a lead, never a pass
                banned[s].update(t for t in TILES if ends[0] in t or ends[1] in t)
                continue
            if ends is None and self.deal_no == 1 and self.options.first_leader == "highest_double":
                # rule B-3: the opening tile outranked every tile in every hand
                opening = ACTIONS[action][0]
                above = {t for t in TILES if opening_rank(t) > opening_rank(opening)}
                for seat_banned in banned:
                    seat_banned.update(above)
            ends = ends_after(ends, action)
        return banned

    @classmethod
    def from_position(cls, options: BlockOptions, hands: list[list[Tile]], leader: int,
                      scores: list[int] | None = None, seed: int = 0) -> BlockState:
        """A match whose current deal starts from given hands (for tests and puzzles).

        Tiles not in any hand are set aside. Later deals are shuffled from ``seed``.
        """
        state = object.__new__(cls)
        state.options = options
        state.num_players = options.num_players
        state.chance = Chance(seed)
        state._scores = list(scores) if scores is not None else [0] * options.num_players
        state.events = []
        state.deal_no = 1
        state.leader = leader
        state._terminal = False
        held = {t for h in hands for t in h}
        state._begin([sorted(h) for h in hands], [t for t in TILES if t not in held])
        return state


def _oriented(text: str) -> Tile:
    """A tile as laid in the chain, left half first: ``"4-1"`` -> ``(4, 1)``."""
    a, _, b = text.partition("-")
    return (int(a), int(b))
