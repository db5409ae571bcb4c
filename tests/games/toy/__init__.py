"""Two tiny games on the interface of ``arena.game``, for tests of what every game relies on.

This folder is a whole game as docs/adding-a-game.md describes it: the engine (here), its
observation page (``observation.md``) and its replay drawer (``drawer.js``, ``drawer.css``);
tests/games/test_fifth_game.py registers it and plays, checks and draws it like the others.

- ``ToyDice``: press your luck with one die. On your turn you roll; a 1 loses the turn's total,
  anything else adds to it; then you choose ``roll`` or ``stop``. Turn k of seat s rolls from the
  chance stream ``("turn", s, k)``, so a seat meets the same dice in every match of a duplicate
  set, whatever anybody chose before.
- ``Stalemate``: nobody ever scores; only its length cap ends it.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from arena.game import TERMINAL, Chance, Game, Result, State


def _parse_faces(raw: Any) -> tuple[int, ...]:
    items = raw.split(",") if isinstance(raw, str) else list(raw)
    faces = tuple(int(x) for x in items)
    if not faces or any(not 1 <= f <= 6 for f in faces):
        raise ValueError("faces are whole numbers from 1 to 6")
    return faces


@dataclass(frozen=True)
class ToyOptions:
    PRESET_FIELD = "variant"
    PRESETS = {"short": {"target": 10, "max_rounds": 5}, "long": {"target": 60}}

    num_players: int = field(default=2, metadata={"doc": "Players.", "choices": (2, 3)})
    variant: str = field(default="standard", metadata={
        "doc": "A preset.", "choices": ("standard", "short", "long")})
    target: int = field(default=20, metadata={"doc": "Score that wins."})
    max_rounds: int = field(default=100, metadata={"doc": "Most rounds a match lasts."})
    wind: str = field(default="calm", metadata={"doc": "A choice named none.",
                                                "choices": ("calm", "none")})
    bust_faces: tuple[int, ...] = field(default=(1,), metadata={
        "doc": "Faces that lose the turn.", "parse": _parse_faces, "syntax": "1,2"})


class ToyDiceState(State):
    def __init__(self, options: ToyOptions, seed: int) -> None:
        self.options = options
        self.num_players = options.num_players
        self.chance = Chance(seed)
        self.totals = [0] * self.num_players
        self.turns = [0] * self.num_players
        self.events: list[dict[str, Any]] = []
        self.seat = 0
        self.rounds = 0
        self.over = False
        self._start_turn()

    def _start_turn(self) -> None:
        self.turns[self.seat] += 1
        self.dice = self.chance.stream("turn", self.seat, self.turns[self.seat])
        self.turn_total = 0
        self._roll()

    def _roll(self) -> None:
        face = self.dice.randint(1, 6)
        self.events.append({"type": "roll", "seat": self.seat, "turn": self.turns[self.seat],
                            "face": face})
        if face in self.options.bust_faces:
            self.turn_total = 0
            self._end_turn()
        else:
            self.turn_total += face

    def _end_turn(self) -> None:
        self.totals[self.seat] += self.turn_total
        if self.totals[self.seat] >= self.options.target:
            return self._finish()
        self.seat = (self.seat + 1) % self.num_players
        if self.seat == 0:
            self.rounds += 1
            if self.rounds >= self.options.max_rounds:
                self.events.append({"type": "capped", "rounds": self.rounds})
                return self._finish()
        self._start_turn()

    def _finish(self) -> None:
        self.over = True
        r = self.result()
        self.events.append({"type": "match_end", "scores": list(r.scores), "ranks": list(r.ranks)})

    def current_player(self) -> int:
        return TERMINAL if self.over else self.seat

    _legal = ("roll", "stop")

    def _apply_legal(self, action: str) -> None:
        self.events.append({"type": "action", "seat": self.seat, "action": action})
        if action == "roll":
            self._roll()
        else:
            self._end_turn()

    def observation(self, seat: int) -> dict[str, Any]:
        return {"seat": seat, "to_move": self.current_player(), "totals": list(self.totals),
                "turn_total": self.turn_total}

    def is_terminal(self) -> bool:
        return self.over

    def result(self) -> Result:
        return Result.from_scores(self.totals)

    def scores(self) -> tuple[int, ...]:
        return tuple(self.totals)

    def clone(self) -> ToyDiceState:
        raise NotImplementedError


class ToyDice(Game):
    name = "toy-dice"
    title = "Toy dice"
    rules_doc = "tests/games/toy/observation.md"
    player_counts = (2, 3)
    default_players = 2
    hidden_information = False
    chance = True
    can_draw = True
    length_unit = "rounds"
    length_option = "max_rounds"
    example_field = "totals"
    chance_events = frozenset({"roll"})
    Options = ToyOptions
    State = ToyDiceState

    def length_cap(self, options: ToyOptions) -> int:
        return options.max_rounds

    def sample_state(self, options, observation, rng: random.Random):
        raise NotImplementedError

    def describe(self, event: dict[str, Any], names: list[str]) -> str | None:
        return None


class Stalemate(ToyDice):
    """Every turn ends with nothing: only the length cap ends a match."""

    name = "toy-stalemate"

    def make_options(self, num_players: int, values: dict[str, Any] | None = None) -> ToyOptions:
        values = dict(values or {})
        values.setdefault("bust_faces", (1, 2, 3, 4, 5, 6))
        return super().make_options(num_players, values)
