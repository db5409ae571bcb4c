"""The game interface shared by the referee, the bundled bots, the search bot and the tests.

A *game* describes a rule set: its name, player counts, what kind of game it is, its options, and
makes new matches. A *state* is one match in progress. Modelled on OpenSpiel's ``Game``/``State``
and PettingZoo's AEC API:

- ``current_player()`` is the seat to decide (``TERMINAL`` when the match is over). Forced moves
  (a pass when nothing can be played, a compulsory roll) are made by the state itself, logged as
  events, and never reach a seat.
- ``legal_actions()`` lists the actions of the current seat in a deterministic order. An action *is*
  its canonical text form (``"3-6:L"``, ``"bid 115"``, ``"roll"``): the same string is used in logs,
  records, on the wire and in tests.
- ``apply(action)`` plays one action; an action that is not legal raises ``IllegalActionError``.
- ``observation(seat)`` is the only door to hidden information: a plain dict (MessagePack-ready)
  holding everything that seat may know. Its size does not grow with the match: the current deal's
  (or turn's) public history in full, the state the rules carry between deals, and at most one
  fixed-size row per finished deal.
- Chance is explicit and drawn from **named streams** (:class:`Chance`): every chance outcome comes
  from a ``random.Random`` derived from the match seed and a key that says what it is
  (``("deal", 3)``, ``("turn", seat, k)``). Two matches of a duplicate set therefore meet the same
  luck in the same seat even after their players chose differently. Every chance outcome is written
  out in ``events`` so that an independent program can check a match.
- ``events`` is the match's log in order: chance outcomes, every action (``{"type": "action",
  "seat": s, "action": a, ...}``, the i-th of which is the i-th decision), automatic moves, every
  score with its reason, and the end of the match (``{"type": "match_end", ...}``).
- Every match ends: a game caps its length in whole deals (or turns) from its options
  (:meth:`Game.length_cap`); a match that reaches the cap ends with a ``{"type": "capped", ...}``
  event and is ranked by the game's documented rule.
- :meth:`Game.sample_state` builds, from a seat's observation and the bot's own RNG, a full state
  consistent with everything that seat knows. Search bots use it; so does the conformance suite.
"""
from __future__ import annotations

import hashlib
import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from arena.errors import IllegalActionError
from arena.options import build_options

TERMINAL = -1
SEED_BITS = 63  # fits a signed 64-bit integer in SQLite, MessagePack and any language


def stream_seed(seed: int, key: tuple[int | str, ...]) -> int:
    """The seed of the chance stream ``key`` of a match: SHA-256 of the match seed and the key.

    Stable across processes, machines and Python versions (``hash()`` is salted per process).
    """
    text = "arena-chance/" + str(int(seed)) + "/" + "/".join(str(part) for part in key)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> (64 - SEED_BITS)


def bot_seed(seed: int, seat: int) -> int:
    """The seed a bot gets in ``hello`` (protocol/SPEC.md §4): SHA-256 of the match seed and the
    seat under the label ``arena-bot``, which no chance stream uses, so it is one-way and says
    nothing of the deal; 63 bits like every seed."""
    text = "arena-bot/" + str(int(seed)) + "/" + str(int(seat))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> (64 - SEED_BITS)


class Chance:
    """The chance of one match: a named stream per kind of chance outcome.

    ``chance.stream("deal", 3)`` is a fresh ``random.Random`` for deal 3; asking for the same key
    again gives the same sequence again. A game chooses keys that mean the same thing in every
    match of a duplicate set (deal numbers count deals, a seat's turns count that seat's turns), so
    that the same seat meets the same luck whatever was chosen before. A state built by
    :meth:`Game.sample_state` gets ``Chance.from_rng(rng)``, so the future it plays out comes from
    the bot's own RNG, not from the match's.
    """

    __slots__ = ("seed",)

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)

    @staticmethod
    def from_rng(rng: random.Random) -> Chance:
        return Chance(rng.getrandbits(SEED_BITS))

    def stream(self, *key: int | str) -> random.Random:
        return random.Random(stream_seed(self.seed, key))

    def __repr__(self) -> str:
        return "Chance(<secret>)"  # a seed in a log or an exception would reveal every deal


@dataclass(frozen=True)
class Result:
    """The outcome of a finished match: final scores and ranks per seat (1 = first; ties share)."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]

    @staticmethod
    def from_scores(scores: list[int] | tuple[int, ...]) -> Result:
        """Rank seats by score, highest first; equal scores share a rank (1, 1, 3)."""
        ranks = tuple(1 + sum(1 for other in scores if other > s) for s in scores)
        return Result(tuple(scores), ranks)

    @staticmethod
    def from_keys(scores: list[int] | tuple[int, ...], keys: list[Any] | tuple[Any, ...]) -> Result:
        """Rank seats by ``keys`` (higher is better; equal keys share a rank), reporting ``scores``.

        For a game whose tie-break is more than the score: e.g. ``(score, -order)`` never ties.
        """
        ranks = tuple(1 + sum(1 for other in keys if other > k) for k in keys)
        return Result(tuple(scores), ranks)


class State(ABC):
    """One match of a game in progress. See the module docstring for the contract.

    A game's state keeps the legal actions of the seat to move in ``_legal`` (empty or stale once
    the match is over: :meth:`is_terminal` decides) and plays a legal action in :meth:`_apply_legal`;
    :meth:`apply` is the one guard in front of it.
    """

    num_players: int
    options: Any
    events: list[dict[str, Any]]
    _legal: Sequence[str]

    @abstractmethod
    def __init__(self, options: Any, seed: int) -> None:
        """A new match (:meth:`Game.new_match`): every chance outcome drawn from ``Chance(seed)``."""

    @abstractmethod
    def current_player(self) -> int: ...

    def legal_actions(self) -> list[str]:
        return [] if self.is_terminal() else list(self._legal)

    def apply(self, action: str) -> None:
        """Play one action of the seat to move; one that is not legal raises
        :class:`IllegalActionError` naming the legal ones, and changes nothing."""
        if self.is_terminal() or action not in self._legal:
            raise self.illegal(action)
        self._apply_legal(action)

    @abstractmethod
    def _apply_legal(self, action: str) -> None:
        """Play ``action``, known to be legal here."""

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
    def clone(self) -> State:
        """An independent copy: applying actions to it never changes this state."""

    def illegal(self, action: object) -> IllegalActionError:
        """The error for an action that is not legal here, naming the seat and the legal ones."""
        legal = ", ".join(self.legal_actions()) or "none"
        return IllegalActionError(f"illegal action {action!r} for seat {self.current_player()} "
                                  f"(legal: {legal})")

    def private_items(self, seat: int) -> set[str]:
        """The texts (tiles, cards) that only ``seat`` may see right now: the conformance suite
        checks that no other seat's observation holds one. Games without hidden items keep ``set()``."""
        return set()


AnyState = State  # in a Game, the name State is the attribute that names its state class


class Game(ABC):
    """A rule set: what kind of game it is, its options, and a factory of matches."""

    name: ClassVar[str]
    title: ClassVar[str]
    rules_doc: ClassVar[str]             # the game's page, relative to the repository
    player_counts: ClassVar[tuple[int, ...]]
    default_players: ClassVar[int]
    hidden_information: ClassVar[bool]   # does any seat ever lack something another seat knows?
    chance: ClassVar[bool]               # are there shuffles or dice?
    can_draw: ClassVar[bool]             # can two seats share first place?
    length_unit: ClassVar[str] = "deals"  # what length_cap counts
    length_option: ClassVar[str] = "max_deals"  # the option that sets length_cap
    demo_players: ClassVar[int | None] = None  # the table `arena demo` plays; None: default_players
    # the clock `arena demo` plays, in ms a move and ms of bank: every bundled bot of the game
    # must fit it with room to spare (tests/bots/test_clocks.py)
    demo_time_control: ClassVar[tuple[int, int]] = (150, 1000)
    # the most length_unit a demo match lasts (None: whole matches), so that a demo takes about a
    # minute: a capped match is ranked by the game's rule for one
    demo_length: ClassVar[int | None] = None
    chance_events: ClassVar[frozenset[str]] = frozenset()  # event types that hold chance outcomes
    example_field: ClassVar[str]         # an observation field the starter kits name (``"hand"``)
    Options: ClassVar[type]             # the options dataclass (arena.options)
    State: ClassVar[type[AnyState]]     # a match: State(options, seed)

    @property
    def folder(self) -> Path:
        """The game's folder: the package its class is defined in (``arena/games/<game>/``). Beside
        the engine it holds :attr:`observation_page` and the replay drawer (``drawer.js``,
        ``drawer.css``), so everything that knows the game is found from the game."""
        file = sys.modules[type(self).__module__].__file__
        assert file is not None  # a game is a module read from a file
        return Path(file).resolve().parent

    @property
    def observation_page(self) -> Path:
        """``observation.md`` in :attr:`folder`: the observation fields and the action notation
        (protocol/SPEC.md §11 links it; the starter kits' READMEs include it)."""
        return self.folder / "observation.md"

    @property
    def min_players(self) -> int:
        return min(self.player_counts)

    @property
    def max_players(self) -> int:
        return max(self.player_counts)

    def players_text(self) -> str:
        """The allowed player counts as a person reads them: "2", "2 to 8", "2, 3 or 4"."""
        counts = sorted(self.player_counts)
        if len(counts) == 1:
            return str(counts[0])
        if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 3:
            return f"{counts[0]} to {counts[-1]}"
        return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"

    def make_options(self, num_players: int, values: dict[str, Any] | None = None) -> Any:
        """Typed, checked options for a match of ``num_players`` from user values (text or typed).

        ``values`` may name a preset (e.g. ``variant``) that the other values override; the
        result holds every value resolved, as the record stores it.
        """
        return build_options(self.Options, values or {}, fixed={"num_players": num_players})

    def new_match(self, options: Any, seed: int) -> AnyState:
        """A new match; every chance outcome is drawn from ``Chance(seed)``'s named streams."""
        return self.State(options, seed)

    @abstractmethod
    def length_cap(self, options: Any) -> int:
        """The most ``length_unit`` (whole deals, or turns) a match of these options may last."""

    def capped_options(self, num_players: int, values: dict[str, Any], most: int) -> Any:
        """The options of ``values``, with the match capped at ``most`` ``length_unit`` if it
        could last longer (``length_option`` set to ``most``): a match cut short, ranked by the
        game's rule for a capped match."""
        options = self.make_options(num_players, values)
        if self.length_cap(options) <= most:
            return options
        return self.make_options(num_players, {**values, self.length_option: most})

    @abstractmethod
    def sample_state(self, options: Any, observation: dict[str, Any], rng: random.Random) -> AnyState:
        """A full state consistent with everything the observing seat knows.

        Hidden hands are sampled to fit every public fact (voids shown by not following suit,
        passes, go's, bids, cards passed); the seat's own observation of the result equals
        ``observation``. It always succeeds, and future chance in the result comes from ``rng``.
        ``options`` are the match's options (``make_options`` of the ``hello``'s values).
        """

    @abstractmethod
    def describe(self, event: dict[str, Any], names: list[str]) -> str | None:
        """One readable log line for an event (``None`` to skip it)."""

    def describe_observation(self, observation: dict[str, Any]) -> list[str]:
        """What a seat may know, as lines a person reads at their turn (``arena play GAME human
        ...``): by default each field of the observation by its name on the game's observation
        page; a game may say it in its own way."""
        return describe_fields(observation)

    def seen_by(self, event: dict[str, Any], seats: set[int]) -> dict[str, Any]:
        """``event`` as the seats in ``seats`` see it when it happens: what they may not know is
        shown face down (:data:`HIDDEN`). ``arena play`` with people at the table
        prints events so. By default a deal's other hands are hidden; a game with other hidden
        moves says so here."""
        if event["type"] == "deal" and "hands" in event:
            return hidden_hands(event, seats)
        return event


# ----- what a person at the table sees (``arena play GAME human ...``, arena.human) ----------
HIDDEN = "?"  # an item a seat does not see, as a person's table shows it


def seat_name(seat: int, you: int) -> str:
    """A seat as the person playing ``you`` reads it: ``seat 1``, or ``seat 0 (you)``."""
    return f"seat {seat} (you)" if seat == you else f"seat {seat}"


def hidden_hands(event: dict[str, Any], seats: set[int]) -> dict[str, Any]:
    """``event`` with the ``hands`` of every seat not in ``seats`` shown face down."""
    return {**event, "hands": [list(h) if i in seats else [HIDDEN] * len(h)
                               for i, h in enumerate(event["hands"])]}


def describe_value(value: Any) -> str:
    """A readable text of one observation value: lists of plain values joined by spaces, nested
    lists and maps in brackets, a map's entries as ``key value`` joined by ``;``, ``none`` for
    nil."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        if not value:
            return "(none)"
        if all(not isinstance(v, (list, tuple, dict)) for v in value):
            return " ".join(describe_value(v) for v in value)
        return ", ".join(f"[{describe_value(v)}]" if isinstance(v, (list, tuple, dict))
                         else describe_value(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k} {describe_value(v)}" for k, v in value.items())
    return str(value)


def describe_fields(observation: dict[str, Any]) -> list[str]:
    """Every field of an observation on its own line, by the name the game's observation page
    gives it (``hand: 0-3 2-5 6-6``)."""
    return [f"{key}: {describe_value(value)}" for key, value in observation.items()]
