"""An OpenSpiel game's rule options: one field per parameter of the game, as OpenSpiel declares
it (name, type, default), plus arena's ``hands`` and ``move_cap``.

OpenSpiel's ``players`` parameter is arena's player count (``num_players``, from the number of
bots); a seed parameter (``seed``, ``rng_seed``) is set from the match's chance streams and is no
option. OpenSpiel gives no descriptions of its parameters: :data:`DESCRIPTIONS` has ours for the
games docs/games/openspiel.md describes; the others say where to look.
"""
from __future__ import annotations

import dataclasses
import keyword
from typing import Any

from arena.games.openspiel.catalog import SEED_PARAMETERS

NO_DESCRIPTION = "OpenSpiel's parameter {name!r} (OpenSpiel gives no description; see its source for the game)"
MAX_MOVES_DOC = ("The most moves (decisions of the seats) a match lasts; none: the game's own "
                 "maximum (OpenSpiel's max_game_length) times the hands. A match cut short ends "
                 "with a 'capped' event, ranked by the returns so far.")
HANDS_DOC = ("Hands (games, in a board game) a match plays: each seat's returns are summed over "
             "them, and OpenSpiel's players move round the seats one place a hand (its first "
             "player is seat 0 in the first hand, seat 1 in the second, ...). Each hand has luck "
             "of its own, the same in every match of a duplicate set. 1 to 10,000.")
MOST_HANDS = 10_000

# Descriptions of the parameters of the chosen games (OpenSpiel's source, in our words).
DESCRIPTIONS: dict[str, dict[str, str]] = {
    "connect_four": {"rows": "Rows of the board.", "columns": "Columns of the board.",
                     "x_in_row": "Stones in a row that win.",
                     "egocentric_obs_tensor": "The tensor shows the seat to move's stones first."},
    "hex": {"board_size": "Cells on each side of the (rhombic) board, when num_rows and num_cols are not given.",
            "num_rows": "Rows of the board.", "num_cols": "Columns of the board.",
            "swap": "The second seat may take the first seat's opening stone instead of playing (the pie rule).",
            "string_rep": "How cells are written: 'standard' (x, o and the edges they touch) or 'explicit'.",
            "plain_obs_tensor": "The tensor shows only the stones, not the edges they reach."},
    "backgammon": {"hyper_backgammon": "Hyper-backgammon: three checkers each.",
                   "scoring_type": "How a win counts: 'winloss_scoring' (1), 'enable_gammons' (1, 2 for a "
                                   "gammon, 3 for a backgammon) or 'full_scoring'.",
                   "max_player_turns": "The most turns per seat (0: no limit)."},
    "kuhn_poker": {},
    "leduc_poker": {"action_mapping": "Actions are read as amounts to bet rather than fold/call/raise.",
                    "suit_isomorphism": "The two suits of a rank count as one card in the observation.",
                    "starting_player": "The seat that bets first."},
    "liars_dice": {"numdice": "Dice per seat.", "dice_sides": "Sides of each die.",
                   "bidding_rule": "Which bids may follow: 'reset-face' or 'reset-quantity'."},
    "goofspiel": {"num_cards": "Cards in each hand and in the prize deck (1 to N).",
                  "num_turns": "Turns played (-1: num_cards).",
                  "points_order": "Order of the prize cards: 'random', 'descending' or 'ascending'.",
                  "returns_type": "What a seat's return is: 'win_loss', 'point_difference' or 'total_points'.",
                  "imp_info": "Seats see only who won each turn, not the bids.",
                  "egocentric": "The observation starts with the observing seat."},
    "gin_rummy": {"gin_bonus": "Bonus for going gin.", "undercut_bonus": "Bonus for an undercut.",
                  "knock_card": "Most deadwood a knock allows.", "hand_size": "Cards dealt to each seat.",
                  "num_ranks": "Ranks per suit.", "num_suits": "Suits in the deck.",
                  "oklahoma": "The knock limit is the upcard's value (Oklahoma gin)."},
}


def field_name(parameter: str) -> str:
    """An OpenSpiel parameter's name as an option name: itself, or with non-identifier
    characters replaced and a ``p_`` in front where it is no Python identifier or is the name of
    one of arena's own options (``50_move_rule`` is ``p_50_move_rule``)."""
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in parameter)
    if not name.isidentifier() or keyword.iskeyword(name) or name in ("num_players", "move_cap", "hands"):
        name = "p_" + name
    return name


def _parse_float(raw: Any) -> float:
    if isinstance(raw, bool):
        raise ValueError("not a number")
    return float(raw)


def _show_float(value: float) -> str:
    return f"{value:g}"


def options_class(game_name: str, game_type: Any, player_counts: tuple[int, ...],
                  default_players: int, rebuild: Any) -> type:
    """The options dataclass of the OpenSpiel game ``game_name``. Its ``parameters()`` gives
    OpenSpiel's parameters that differ from their defaults (and players); ``rebuild(game_name, values)`` makes it again
    from its values (options travel between processes by pickle)."""
    described = DESCRIPTIONS.get(game_name, {})
    fields: list[tuple[str, Any, Any]] = [
        ("num_players", int, dataclasses.field(default=default_players, metadata={
            "doc": "Players (OpenSpiel's 'players' parameter where the game has one).",
            "choices": player_counts}))]
    names: dict[str, str] = {}
    for parameter, default in sorted(game_type.parameter_specification.items()):
        if parameter == "players" or parameter in SEED_PARAMETERS:
            continue
        name = field_name(parameter)
        names[name] = parameter
        doc = described.get(parameter) or NO_DESCRIPTION.format(name=parameter)
        if name != parameter:
            doc += f" (OpenSpiel's {parameter!r})"
        metadata: dict[str, Any] = {"doc": doc}
        tp: Any = type(default)
        if isinstance(default, float):
            metadata.update(parse=_parse_float, syntax="0.5", show=_show_float)
        elif not isinstance(default, (bool, int, str)):
            continue  # no such parameter type in 2.0.2; a new one is left at its default
        fields.append((name, tp, dataclasses.field(default=default, metadata=metadata)))
    fields.append(("hands", int, dataclasses.field(default=1, metadata={"doc": HANDS_DOC})))
    fields.append(("move_cap", int | None, dataclasses.field(default=None, metadata={"doc": MAX_MOVES_DOC})))

    defaults = dict(game_type.parameter_specification)

    def parameters(self: Any) -> dict[str, Any]:
        """OpenSpiel's parameters that differ from its defaults, and ``players``."""
        out = {names[n]: getattr(self, n) for n in names if getattr(self, n) != defaults[names[n]]}
        if "players" in game_type.parameter_specification:
            out["players"] = self.num_players
        return out

    def reduce(self: Any) -> tuple[Any, tuple[str, dict[str, Any]]]:
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return rebuild, (game_name, values)

    cls = dataclasses.make_dataclass(
        f"OpenSpielOptions_{field_name(game_name)}", fields, frozen=True,
        namespace={"GAME": game_name, "parameters": parameters, "__reduce__": reduce})
    cls.__module__ = __name__
    return cls
