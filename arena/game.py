"""The game interface shared by the referee, the bundled bots and the tests.

A *game* describes a rule set: its name, player counts and options type, and makes new matches.
A *state* is one match in progress. Modelled on OpenSpiel's ``State`` and PettingZoo's AEC API:

- ``current_player()`` is the seat to decide (``TERMINAL`` when the match is over). Forced moves
  (e.g. a pass when nothing can be played) are made by the state itself and never reach a seat.
- ``legal_actions()`` lists the actions of the current seat in a deterministic order. An action *is*
  its canonical text form (``"3-6:L"``, ``"pass"``): the same string is used in logs, records, on the
  wire and in tests.
- ``apply(action)`` plays one action; an action that is not legal raises ``IllegalActionError``.
- ``observation(seat)`` is the only door to hidden information: a plain dict (MessagePack-ready)
  holding everything that seat may know, the public history of the match included.
- Chance is explicit: every shuffle is drawn from the state's own ``random.Random(seed)``, so a
  match replays exactly from its seed and its actions, and every chance outcome is written out in
  ``events`` (e.g. the tiles dealt to each seat) so that an independent program can check a match.
- ``events`` is the match's log in order: chance outcomes, every action (``{"type": "action", ...}``,
  the i-th of which is the i-th decision), automatic moves and the result of each deal.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

TERMINAL = -1


@dataclass(frozen=True)
class Result:
    """The outcome of a finished match: final scores and ranks per seat (1 = first; ties share)."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]

    @staticmethod
    def from_scores(scores: list[int] | tuple[int, ...]) -> "Result":
        """Rank seats by score, highest first; equal scores share a rank (1, 1, 3)."""
        ranks = tuple(1 + sum(1 for other in scores if other > s) for s in scores)
        return Result(tuple(scores), ranks)


class State(ABC):
    """One match of a game in progress. See the module docstring for the contract."""

    num_players: int
    options: Any
    events: list[dict[str, Any]]

    @abstractmethod
    def current_player(self) -> int: ...

    @abstractmethod
    def legal_actions(self) -> list[str]: ...

    @abstractmethod
    def apply(self, action: str) -> None: ...

    @abstractmethod
    def observation(self, seat: int) -> dict[str, Any]: ...

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result: ...

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """The running scores (the final ones once terminal)."""

    @abstractmethod
    def redeal_hidden(self, seat: int, rng: random.Random) -> "State":
        """A copy in which everything hidden from ``seat`` is dealt again at random.

        What ``seat`` knows is kept (its own hand, public history, hand sizes), so its observation
        is unchanged. The conformance suite uses it to prove that observations hide what they
        must; search bots use it to sample worlds consistent with what they know.
        """

    @abstractmethod
    def clone(self) -> "State": ...


class Game(ABC):
    """A rule set: names, player counts, options, and a factory of matches."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type]
    rules_doc: ClassVar[str]  # path of the game's page, relative to the repository

    @abstractmethod
    def make_options(self, num_players: int, values: dict[str, Any] | None = None) -> Any:
        """Typed, checked options for a match of ``num_players`` from user values (text or typed)."""

    @abstractmethod
    def new_match(self, options: Any, seed: int) -> State:
        """A new match; every chance outcome is drawn from ``random.Random(seed)``."""

    @abstractmethod
    def describe(self, event: dict[str, Any], names: list[str]) -> str | None:
        """One readable log line for an event (``None`` to skip it)."""
