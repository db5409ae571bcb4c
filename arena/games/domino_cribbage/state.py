"""A Domino Cribbage match in progress: the deal, the discard to the crib, the starter and heels,
the play with its running count, go's and 31, the show, the dealer alternating, and the match to
the target (docs/games/domino-cribbage.md).

Tiles are indices into ``tiles.TILES`` (0..27); texts and values come from tables built once.
"""
from __future__ import annotations

import random
from itertools import combinations
from typing import Any, cast

from arena.game import TERMINAL, Chance, Result, State
from arena.games.domino_cribbage.options import DominoCribbageOptions
from arena.games.domino_cribbage.scoring import peg_items, show
from arena.games.domino_cribbage.tiles import DISCARD_TEXT, DISCARDS, INDEX, IS_DOUBLE, N_TILES, TEXT, VALUE

DISCARD, PLAY, OVER = "discard", "play", "over"
GO = "go"
HAND_SIZE = 6
_ALL = range(N_TILES)


def _discard_actions(hand: list[int]) -> list[str]:
    """Every pair of a sorted hand, in combinations order (so in canonical text order too)."""
    # a < b in a sorted hand: every entry is a text, never the None of DISCARD_TEXT's lower half
    return cast(list[str], [DISCARD_TEXT[a][b] for a, b in combinations(hand, 2)])


class DominoCribbageState(State):
    """One Domino Cribbage match. Create it with ``DominoCribbage().new_match(options, seed)``."""

    num_players = 2

    def __init__(self, options: DominoCribbageOptions, seed: int) -> None:
        self.options = options
        self.chance = Chance(seed)
        self.events: list[dict[str, Any]] = []
        self._scores = [0, 0]
        self.hand_no = 0
        self.history: list[list[int]] = []
        self._terminal = False
        self._capped = False
        # docs §Deal 1 (rule C-14): the first dealer by lot, from its own stream
        self.dealer = self.chance.stream("dealer").randrange(2)
        self.events.append({"type": "first_dealer", "dealer": self.dealer})
        self._start_hand()

    # ----- a hand ---------------------------------------------------------------------------
    def _start_hand(self) -> None:
        """docs §Deal: shuffle, six tiles each (non-dealer first), the 13th tile is the starter."""
        self.hand_no += 1
        if self.hand_no > 1:
            self.dealer ^= 1  # the dealer alternates every hand
        tiles = list(_ALL)
        self.chance.stream("deal", self.hand_no).shuffle(tiles)
        non = self.dealer ^ 1
        hands: list[list[int]] = [[], []]
        hands[non] = sorted(tiles[:HAND_SIZE])
        hands[self.dealer] = sorted(tiles[HAND_SIZE:2 * HAND_SIZE])
        self._begin(hands, tiles[2 * HAND_SIZE])
        self.events.append({"type": "deal", "hand": self.hand_no, "dealer": self.dealer,
                            "hands": [[TEXT[t] for t in h] for h in hands]})

    def _begin(self, hands: list[list[int]], starter: int) -> None:
        self.hands = hands
        self.kept: list[list[int]] = [[], []]
        self.discards: list[tuple[int, int] | None] = [None, None]
        self.crib: list[int] = []
        self._starter_next = starter    # turned up after the discards
        self.starter: int | None = None
        self.phase = DISCARD
        self.count = 0
        self.seq: list[int] = []        # values of the current count sequence
        self.seq_tiles: list[int] = []  # its tiles (the starter first when it opens the count)
        self.said_go = [False, False]
        self.plays: list[list[Any]] = []    # [seat, tile text or "go", count after]
        self.played: list[list[str]] = [[], []]
        self.pegged = [0, 0]            # points of the play this hand (heels not included)
        self.heels = 0
        self._to_move = self.dealer ^ 1  # the non-dealer discards first, then the dealer
        self._legal = _discard_actions(hands[self._to_move])

    def _award(self, seat: int, points: int, event: dict[str, Any]) -> bool:
        """Add one award unit and log it; True if it reaches the target (the match ends at once)."""
        self._scores[seat] += points
        event["scores"] = list(self._scores)
        self.events.append(event)
        if self._scores[seat] >= self.options.target:
            self._finish()
            return True
        return False

    def _finish(self) -> None:
        self._terminal = True
        self.phase = OVER
        self._legal = []
        self._to_move = TERMINAL
        result = self.result()
        self.events.append({"type": "match_end", "scores": list(result.scores),
                            "ranks": list(result.ranks)})

    # ----- the interface ----------------------------------------------------------------------
    def current_player(self) -> int:
        return self._to_move

    def is_terminal(self) -> bool:
        return self._terminal

    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    def _apply_legal(self, action: str) -> None:
        seat = self._to_move
        if self.phase == DISCARD:
            self._discard(seat, action)
        else:
            self._play(seat, action)

    def _discard(self, seat: int, action: str) -> None:
        a, b = DISCARDS[action]
        hand = self.hands[seat]
        hand.remove(a)
        hand.remove(b)
        self.discards[seat] = (a, b)
        self.crib += (a, b)
        self.kept[seat] = list(hand)
        self.events.append({"type": "action", "seat": seat, "action": action})
        if seat != self.dealer:
            self._to_move = self.dealer
            self._legal = _discard_actions(self.hands[self.dealer])
            return
        self.crib.sort()
        self.events.append({"type": "crib", "seat": self.dealer, "tiles": [TEXT[t] for t in self.crib]})
        starter = self.starter = self._starter_next
        self.events.append({"type": "starter", "tile": TEXT[starter], "value": VALUE[starter]})
        if IS_DOUBLE[starter] and self.options.heels_points:
            # docs §Starter (rule C-6): heels at once, before the play; it can win the match
            self.heels = self.options.heels_points
            if self._award(self.dealer, self.heels, {"type": "score", "seat": self.dealer,
                                                     "reason": "heels", "points": self.heels}):
                return
        self.phase = PLAY
        if self.options.starter_in_pegging_count:
            # docs §The play (rule C-2): the starter opens the first count
            self.count = VALUE[starter]
            self.seq = [self.count]
            self.seq_tiles = [starter]
        self._to_move = self.dealer ^ 1  # the non-dealer plays first
        self._legal = self._playable(self._to_move)

    def _playable(self, seat: int) -> list[str]:
        room = 31 - self.count
        return [TEXT[t] for t in self.hands[seat] if VALUE[t] <= room]

    def _play(self, seat: int, action: str) -> None:
        t = INDEX[action]
        hands = self.hands
        hands[seat].remove(t)
        v = VALUE[t]
        count = self.count = self.count + v
        seq = self.seq
        seq.append(v)
        self.seq_tiles.append(t)
        self.plays.append([seat, action, count])
        self.played[seat].append(action)
        self.events.append({"type": "action", "seat": seat, "action": action, "count": count})
        items = peg_items(seq, count, self.options.zero_tile_rescores_15)
        if items:
            points = 0
            for item in items:
                points += item["points"]
            self.pegged[seat] += points
            if self._award(seat, points, {"type": "score", "seat": seat, "reason": "play",
                                          "points": points, "items": items}):
                return
        other = seat ^ 1
        if count == 31:
            # docs §The play: 31 ends the count; the opponent of the player of the 31 leads
            if not hands[0] and not hands[1]:
                self._show()  # the 31 was the last tile: no point for it besides the 31's 2
                return
            self._reset(other if hands[other] else seat)
            return
        if not hands[0] and not hands[1]:
            # the last tile of the play scores 1 (it is the final go)
            self.pegged[seat] += 1
            if self._award(seat, 1, {"type": "score", "seat": seat, "reason": "last tile", "points": 1}):
                return
            self._show()
            return
        room = 31 - count
        theirs = [TEXT[x] for x in hands[other] if VALUE[x] <= room]
        if theirs:
            self._to_move = other
            self._legal = theirs
            return
        if hands[other] and not self.said_go[other]:
            self._go(other)
        mine = [TEXT[x] for x in hands[seat] if VALUE[x] <= room]
        if mine:
            self._to_move = seat  # going on after the other's go is compulsory (rule C-10)
            self._legal = mine
            return
        if hands[seat]:
            self._go(seat)
        # neither can play: the player of the last tile scores the go
        self.pegged[seat] += 1
        if self._award(seat, 1, {"type": "score", "seat": seat, "reason": "go", "points": 1}):
            return
        self._reset(other if hands[other] else seat)

    def _go(self, seat: int) -> None:
        self.said_go[seat] = True
        self.plays.append([seat, GO, self.count])
        self.events.append({"type": "go", "seat": seat, "count": self.count})

    def _reset(self, leader: int) -> None:
        """docs §The play (rule C-11): a new count from 0, led by ``leader``."""
        self.count = 0
        self.seq = []
        self.seq_tiles = []
        self.said_go = [False, False]
        self.events.append({"type": "reset", "leader": leader})
        self._to_move = leader
        self._legal = [TEXT[x] for x in self.hands[leader]]

    def _show(self) -> None:
        """docs §The show: the non-dealer's hand, the dealer's hand, then the crib (dealer's)."""
        o = self.options
        starter = self.starter
        assert starter is not None  # cut before the play
        dealer = self.dealer
        non = dealer ^ 1
        points = [0, 0, 0]
        for k, (seat, reason, tiles) in enumerate(((non, "hand", self.kept[non]),
                                                   (dealer, "hand", self.kept[dealer]),
                                                   (dealer, "crib", self.crib))):
            total, items = show(tiles, starter, o.show_double_bonus, o.starter_double_counts_in_show)
            points[k] = total
            if self._award(seat, total, {"type": "score", "seat": seat, "reason": reason,
                                         "points": total, "tiles": [TEXT[t] for t in tiles],
                                         "starter": TEXT[starter], "items": items}):
                return
        shows = [0, 0]
        shows[non], shows[dealer] = points[0], points[1]
        # one small fixed row per finished hand (docs: What a bot sees, history)
        self.history.append([self.hand_no, dealer, self.heels, self.pegged[0], self.pegged[1],
                             shows[0], shows[1], points[2]])
        self.events.append({"type": "hand_end", "hand": self.hand_no, "scores": list(self._scores)})
        if self.hand_no >= o.max_deals:
            self._capped = True
            self.events.append({"type": "capped", "deals": self.hand_no, "scores": list(self._scores)})
            self._finish()
            return
        self._start_hand()

    def result(self) -> Result:
        if not self._terminal:
            raise ValueError("the match is not over")
        if self._capped:
            # docs §Length cap: by score; equal scores go to the non-dealer of the last hand
            non = self.dealer ^ 1
            return Result.from_keys(self._scores, [(s, seat == non) for seat, s in enumerate(self._scores)])
        return Result.from_scores(self._scores)  # the first to the target is alone on it

    # ----- what a seat may know --------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        """docs §What a bot sees. Records that never change once made are shared, not copied:
        treat the observation as read-only."""
        own = self.discards[seat]
        starter = self.starter
        return {
            "seat": seat,
            "num_players": 2,
            "target": self.options.target,
            "scores": list(self._scores),
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_move": self._to_move,
            "hand": [TEXT[t] for t in self.hands[seat]],
            "discard": [TEXT[own[0]], TEXT[own[1]]] if own is not None else None,
            "crib_size": len(self.crib),
            "hand_sizes": [len(self.hands[0]), len(self.hands[1])],
            "starter": TEXT[starter] if starter is not None else None,
            "count": self.count,
            "sequence": [TEXT[t] for t in self.seq_tiles],
            "said_go": list(self.said_go),
            "pegging": list(self.pegged),
            "heels": self.heels,
            "plays": list(self.plays),
            "played": [list(self.played[0]), list(self.played[1])],
            "history": list(self.history),
        }

    def private_items(self, seat: int) -> set[str]:
        """The seat's tiles in hand and, until the show, its own two tiles in the crib."""
        out = {TEXT[t] for t in self.hands[seat]}
        own = self.discards[seat]
        if own is not None and not self._terminal:
            out.update((TEXT[own[0]], TEXT[own[1]]))
        return out

    # ----- copies ---------------------------------------------------------------------------
    def clone(self) -> DominoCribbageState:
        new = object.__new__(DominoCribbageState)
        d = new.__dict__
        d.update(self.__dict__)
        d["events"] = list(self.events)
        d["_scores"] = list(self._scores)
        d["history"] = list(self.history)
        d["hands"] = [list(self.hands[0]), list(self.hands[1])]
        d["kept"] = [list(self.kept[0]), list(self.kept[1])]
        d["discards"] = list(self.discards)
        d["crib"] = list(self.crib)
        d["seq"] = list(self.seq)
        d["seq_tiles"] = list(self.seq_tiles)
        d["said_go"] = list(self.said_go)
        d["plays"] = list(self.plays)
        d["played"] = [list(self.played[0]), list(self.played[1])]
        d["pegged"] = list(self.pegged)
        d["_legal"] = list(self._legal)
        return new

    # ----- positions built by hand (tests, puzzles) -------------------------------------------
    @classmethod
    def from_position(cls, options: DominoCribbageOptions, hands: list[list[int]], dealer: int,
                      starter: int, scores: list[int] | None = None, seed: int = 0,
                      hand_no: int = 1) -> DominoCribbageState:
        """A match whose current hand is dealt ``hands`` (six tiles each, by seat) with ``starter``
        to be turned up after the discards. Later hands are shuffled from ``seed``."""
        state = object.__new__(cls)
        state.options = options
        state.chance = Chance(seed)
        state.events = []
        state._scores = list(scores) if scores is not None else [0, 0]
        state.hand_no = hand_no
        state.history = []
        state._terminal = False
        state._capped = False
        state.dealer = dealer
        state._begin([sorted(h) for h in hands], starter)
        return state


def sample_state(options: DominoCribbageOptions, obs: dict[str, Any],
                 rng: random.Random) -> DominoCribbageState:
    """A full state agreeing with everything in ``obs`` (see ``DominoCribbage.sample_state``).

    Hidden: the other seat's tiles in hand, its two crib tiles once laid, and the starter before
    it is turned. Public facts that bind them: a go at count c shows that every tile the seat then
    held (so every tile it still holds) is worth more than 31 - c; a seat to move in the play holds
    a tile that fits. Everything else about the hidden tiles is free.
    """
    seat = obs["seat"]
    other = seat ^ 1
    state = object.__new__(DominoCribbageState)
    state.options = options
    state.chance = Chance.from_rng(rng)
    state.events = []
    state._scores = list(obs["scores"])
    state.hand_no = obs["hand_no"]
    state.history = list(obs["history"])
    state.dealer = obs["dealer"]
    phase = obs["phase"]
    state._terminal = phase == OVER
    state._capped = state._terminal and bool(state.history) and not any(
        s >= options.target for s in state._scores)

    mine = [INDEX[t] for t in obs["hand"]]
    own_discard = [INDEX[t] for t in obs["discard"]] if obs["discard"] is not None else []
    played = [[INDEX[t] for t in obs["played"][0]], [INDEX[t] for t in obs["played"][1]]]
    starter = INDEX[obs["starter"]] if obs["starter"] is not None else None
    known = set(mine) | set(own_discard) | set(played[0]) | set(played[1])
    if starter is not None:
        known.add(starter)
    pool = [t for t in _ALL if t not in known]
    rng.shuffle(pool)

    k = obs["hand_sizes"][other]
    other_discarded = obs["crib_size"] - len(own_discard) == 2
    floor = -1  # every hidden tile of the other seat is worth more than this
    for s, text, count in obs["plays"]:
        if s == other and text == GO:
            floor = max(floor, 31 - count)
    need_room = 31 - obs["count"] if (phase == PLAY and obs["to_move"] == other) else None
    allowed = [t for t in pool if VALUE[t] > floor]
    theirs = allowed[:k]
    if need_room is not None and not any(VALUE[t] <= need_room for t in theirs):
        for _ in range(8):  # a few fresh draws keep the sample close to uniform
            rng.shuffle(allowed)
            theirs = allowed[:k]
            if any(VALUE[t] <= need_room for t in theirs):
                break
        else:  # constructive: one tile that fits, the rest from what is allowed
            fit = [t for t in allowed if VALUE[t] <= need_room]
            first = rng.choice(fit)
            rest = [t for t in allowed if t != first]
            theirs = [first] + rest[:k - 1]
    taken = set(theirs)
    rest = [t for t in pool if t not in taken]
    their_discard = rest[:2] if other_discarded else []
    rest = rest[2:] if other_discarded else rest
    if starter is None:
        starter_next = rest[0]
    else:
        starter_next = starter

    hands: list[list[int]] = [[], []]
    hands[seat] = sorted(mine)
    hands[other] = sorted(theirs)
    state._begin(hands, starter_next)
    state.phase = phase
    discards: list[tuple[int, int] | None] = [None, None]
    if own_discard:
        discards[seat] = (own_discard[0], own_discard[1])
    if their_discard:
        a, b = sorted(their_discard)
        discards[other] = (a, b)
    state.discards = discards
    state.crib = sorted(own_discard + their_discard)
    for s in (0, 1):
        if discards[s] is not None:
            state.kept[s] = sorted(hands[s] + played[s])
    state.starter = starter
    state.count = obs["count"]
    state.seq_tiles = [INDEX[t] for t in obs["sequence"]]
    state.seq = [VALUE[t] for t in state.seq_tiles]
    state.said_go = list(obs["said_go"])
    state.plays = list(obs["plays"])
    state.played = [list(obs["played"][0]), list(obs["played"][1])]
    state.pegged = list(obs["pegging"])
    state.heels = obs["heels"]
    to_move = obs["to_move"]
    state._to_move = to_move
    if phase == DISCARD:
        state._legal = _discard_actions(hands[to_move])
    elif phase == PLAY:
        state._legal = state._playable(to_move)
    else:
        state._legal = []
    return state
