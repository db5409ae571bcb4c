"""What the phases of a Thousand match read and set: the fields and methods of ``ThousandState``
that the functions of ``auction``, ``exchange``, ``tricks``, ``deal_score`` and ``observation``
use, as a protocol. The phase modules are typed against it without importing the state (which
imports them); the state matches it, which mypy checks where the state binds them as methods."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from arena.game import Chance, Result
from arena.games.thousand.flow import Carry
from arena.games.thousand.options import ThousandOptions


class Match(Protocol):
    """A Thousand match in progress (docs/games/thousand.md §4-§12); cards are ints (``cards``)."""

    # the match: its options, chance streams, event log and what carries between deals
    options: ThousandOptions
    num_players: int
    chance: Chance
    events: list[dict[str, Any]]
    carry: Carry
    history: list[dict[str, Any]]  # one row per finished deal
    terminal: bool
    winners: list[int]
    capped: bool
    _result: Result
    # the deal and whose turn it is
    deal_no: int
    redeal_no: int
    dealer: int
    forehand: int
    sitter: int | None  # the 4-player dealer, who sits the deal out
    golden: bool
    active: tuple[int, ...]  # the seats in the deal from forehand
    next_seat: dict[int, int]
    phase: str
    to_move: int
    _legal: list[str]
    log: list[tuple[int, str]]  # (seat, action) of this deal's decisions
    on_barrel_start: list[bool]
    hands: list[list[int]]
    prikups: list[list[int]]
    # the auction
    looked: list[bool]
    dark_bid: list[bool]
    passed: list[bool]
    high: int
    high_bidder: int
    bids_made: bool
    declarer: int | None
    contract: int
    how: str
    dark: bool
    forced_100: bool
    shown: bool
    opponents: tuple[int, ...]
    # the prikup, the exchange, the raise and the redeal
    taken: list[int]
    taken_index: int | None
    rest_prikup: list[int]
    given: list[list[int]]  # [to, card] for each card the declarer passed
    buried: int | None
    rospis_done: bool
    redeal_queue: list[int]
    # the play
    trump: int | None
    trick: list[tuple[int, int]]  # (seat, card)
    leader: int
    trick_no: int
    tricks_won: list[int]
    card_pts: list[int]
    marriage_pts: list[int]
    marriages: list[list[Any]]  # [seat, suit, points]
    tricks: list[list[Any]]  # [leader, card texts, winner]
    _trick_size: int
    _overtake: bool

    def current_player(self) -> int: ...
    def result(self) -> Result: ...
    def _turn(self, seat: int, legal_for: Callable[[int], list[str]]) -> None: ...
    def _seat_order(self) -> None: ...
    def _start_deal(self) -> None: ...
    def _finish(self) -> None: ...
    def _auction_legal(self, seat: int) -> list[str]: ...
    def _dark_bid_legal(self, seat: int) -> list[str]: ...
    def _after_auction_action(self, seat: int) -> None: ...
    def _auction_end(self, declarer: int, contract: int, how: str) -> None: ...
    def _opponents(self, declarer: int) -> tuple[int, ...]: ...
    def _take_prikup(self, index: int) -> None: ...
    def _give_legal(self, seat: int) -> list[str]: ...
    def _bury_legal(self, seat: int) -> list[str]: ...
    def _raise_legal(self, seat: int) -> list[str]: ...
    def _after_raise(self) -> None: ...
    def _may_demand_redeal(self, seats: Iterable[int]) -> list[int]: ...
    def _redeal(self) -> None: ...
    def _start_play(self) -> None: ...
    def _play_legal(self, seat: int) -> list[str]: ...
    def _end_deal(self) -> None: ...
