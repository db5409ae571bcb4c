"""An OpenSpiel game as an arena game: :func:`make_game` builds one ``Game`` subclass per
OpenSpiel game (its name, player counts, kind, options and state class come from OpenSpiel)."""
from __future__ import annotations

import functools
import random
from typing import Any

from arena.errors import OptionError
from arena.game import HIDDEN, Chance, Game
from arena.games.openspiel import catalog
from arena.games.openspiel.options import MOST_HANDS, options_class
from arena.games.openspiel.state import Node, OpenSpielState, Tree

_INITIAL: dict[int, tuple[Any, Any]] = {}  # id of an OpenSpiel game -> (the game, its initial state)
_TREES: dict[int, tuple[Any, Tree]] = {}   # id of an OpenSpiel game -> (the game, its tree of facts)
MOST_NODES = 10_000  # nodes of facts kept per OpenSpiel game (state.py's Node; 1 to 2 kB each)
MOST_TREES = 4       # OpenSpiel games (parameters) whose facts are kept at a time
MOST_MENUS = 10_000  # lists of legal actions kept per OpenSpiel game (state.py's Tree.menus)
SAMPLE_BUDGET = 20_000  # nodes a sample_state search may visit before it gives up


@functools.lru_cache(maxsize=256)
def load(name: str, parameters: tuple[tuple[str, Any], ...]) -> Any:
    """The OpenSpiel game ``name`` with ``parameters``, simultaneous-move games turned into
    turn-based ones (each seat's move hidden from the others until all have moved)."""
    import pyspiel
    with catalog.quiet():
        game = pyspiel.load_game(name, dict(parameters))
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    return game


class OpenSpielGame(Game):
    """What every OpenSpiel game shares; :func:`make_game` fills in the rest."""

    rules_doc = "docs/games/openspiel.md"
    length_unit = "moves"
    length_option = "move_cap"
    chance_events = frozenset({"chance"})
    example_field = "observation"
    can_draw = True
    spiel_type: Any        # OpenSpiel's type of the game as arena plays it (turn-based)
    declared: Any          # OpenSpiel's type of the game as registered
    simultaneous: bool     # a simultaneous-move game, played turn by turn
    seeded: bool           # has a seed parameter, set from the match's chance streams
    short_name: str        # OpenSpiel's name
    fixed_action_strings: bool  # its action strings depend on the player and the id alone

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return make_game, (self.short_name,)

    def parameters(self, options: Any, chance: Chance) -> dict[str, Any]:
        """OpenSpiel's parameters of a match: the options, and a seed from the stream ``("seed",)``
        for a game that samples chance itself."""
        parameters: dict[str, Any] = options.parameters()
        for name in catalog.SEED_PARAMETERS:
            if name in self.declared.parameter_specification:
                parameters[name] = chance.stream("seed").getrandbits(31)
        return parameters

    def spiel_game(self, options: Any, chance: Chance) -> Any:
        """The OpenSpiel game of a match: loaded once per parameters, but afresh for a game that
        samples chance itself (its random state lives in the game and moves on with each
        match)."""
        if self.seeded:
            return load.__wrapped__(self.short_name, tuple(sorted(self.parameters(options, chance).items())))
        return self.unseeded(options)

    @functools.lru_cache(maxsize=256)  # noqa: B019  (games live as long as the process)
    def unseeded(self, options: Any) -> Any:
        """The OpenSpiel game of ``options`` for a game that does not sample chance itself."""
        return load(self.short_name, tuple(sorted(options.parameters().items())))

    def initial_state(self, spiel_game: Any) -> Any:
        """A new initial state of ``spiel_game``: a copy of one kept per game (a new one costs
        milliseconds in some games, gin rummy's 4 ms), or a fresh one where the game samples chance
        itself (its random state would be shared)."""
        if self.seeded:
            return spiel_game.new_initial_state()
        key = id(spiel_game)
        kept = _INITIAL.get(key)
        if kept is None or kept[0] is not spiel_game:
            kept = _INITIAL[key] = (spiel_game, spiel_game.new_initial_state())
        return kept[1].clone()

    def facts(self, spiel_game: Any) -> Node | None:
        """The root of the tree of facts of ``spiel_game`` (state.py's ``Node``), kept per game;
        ``None`` where the game samples chance itself."""
        if self.seeded:
            return None
        key = id(spiel_game)
        kept = _TREES.get(key)
        if kept is None or kept[0] is not spiel_game:
            if len(_TREES) >= MOST_TREES:
                _TREES.clear()
            kept = _TREES[key] = (spiel_game, Tree(MOST_NODES, MOST_MENUS if self.fixed_action_strings else 0))
        return kept[1].root

    def make_options(self, num_players: int, values: dict[str, Any] | None = None) -> Any:
        options = super().make_options(num_players, values)
        if options.move_cap is not None and options.move_cap < 1:
            raise OptionError("option 'move_cap': it is at least 1")
        if not 1 <= options.hands <= MOST_HANDS:
            raise OptionError(f"option 'hands': it is 1 to {MOST_HANDS:,}, not {options.hands}")
        try:
            game = self.spiel_game(options, Chance(0))
        except Exception as exc:  # noqa: BLE001  (SpielError, or a C++ exception pybind11 turned into another)
            text = str(exc).strip()
            raise OptionError(f"{self.name}: OpenSpiel refuses these options: "
                              f"{text.splitlines()[0] if text else type(exc).__name__}") from None
        if game.num_players() != num_players:
            raise OptionError(f"{self.name} has {game.num_players()} players with these options, "
                              f"not {num_players}")
        return options

    def length_cap(self, options: Any) -> int:
        if options.move_cap is not None:
            return int(options.move_cap)
        return int(self.spiel_game(options, Chance(0)).max_game_length()) * options.hands

    def view(self, spiel: Any, seat: int) -> str:
        """What ``seat`` knows at ``spiel``: its information state, else its observation."""
        if self.spiel_type.provides_information_state_string:
            return str(spiel.information_state_string(seat))
        return str(spiel.observation_string(seat))

    def visibility(self, spiel: Any, action: int) -> tuple[list[bool], Any]:
        """Which seats may know that ``action`` is played at ``spiel`` (the one who plays it, and
        every seat whose view (:meth:`view`) after it differs from its view after each other
        legal action there), and the state after it (``None`` when it was not needed)."""
        view = self.view
        actor = spiel.current_player()
        legal = [a for a, _ in spiel.chance_outcomes()] if spiel.is_chance_node() else spiel.legal_actions()
        n = spiel.num_players()
        if len(legal) < 2:
            return [True] * n, None  # (never a child of a chance node sampled inside OpenSpiel)
        after = spiel.child(action)
        others = [spiel.child(a) for a in legal if a != action]
        seen = [True] * n
        for seat in range(n):
            if seat != actor:
                mine = view(after, seat)
                seen[seat] = all(view(o, seat) != mine for o in others)
        return seen, after

    def sample_state(self, options: Any, observation: dict[str, Any], rng: random.Random) -> Any:
        """A state whose view for the observing seat is the given one: the match played again
        from its history, each entry the seat may not know chosen again among the legal ones
        (chance by its probability, or guided by what the seat sees later: sample.py), searched
        depth-first until the seat's view at the end is the same. Future chance comes from ``rng``."""
        from arena.games.openspiel.sample import sample
        return sample(self, options, observation, rng, SAMPLE_BUDGET)

    def describe(self, event: dict[str, Any], names: list[str]) -> str | None:
        if event["type"] == "chance":
            return f"  chance: {event['outcome']}"
        if event["type"] == "action":
            return f"{names[event['seat']]}: {event['action']}"
        if event["type"] == "hand_end":
            return f"hand {event['hand'] + 1} ends: " + ", ".join(
                f"{names[i]} {r:g}" for i, r in enumerate(event["returns"]))
        if event["type"] == "capped":
            return f"capped after {event['moves']} moves"
        if event["type"] == "match_end":
            return "returns: " + ", ".join(f"{names[i]} {r:g}" for i, r in enumerate(event["returns"]))
        return None

    def describe_observation(self, observation: dict[str, Any]) -> list[str]:
        """OpenSpiel's own texts of what the seat knows: its information state and its
        observation (each where the game has it), and the steps of the match it knows."""
        lines = []
        for key, label in (("information_state", "information state"), ("observation", "observation")):
            if key in observation:
                text = str(observation[key]).splitlines() or [""]
                lines += [f"{label}: {text[0]}", *(f"  {line}" for line in text[1:])]
        if "hand" in observation:
            totals = ", ".join(f"{t:g}" for t in observation["totals"])
            lines.append(f"hand {observation['hand'] + 1} of {observation['hands']}; you are OpenSpiel's "
                         f"player {observation['player']}; returns of the hands before, by seat: {totals}")
        history = " ".join("?" if a is None else str(a) for a in observation.get("history", []))
        lines.append(f"history (OpenSpiel action ids, ? where you may not know): {history or '(none)'}")
        return lines

    def seen_by(self, event: dict[str, Any], seats: set[int]) -> dict[str, Any]:
        """In a game of hidden information OpenSpiel's text of the whole state is not shown,
        and a chance outcome or a move that the seats may not know is face down."""
        if not self.hidden_information or event["type"] not in ("chance", "action"):
            return event
        shown = {**event, "board": HIDDEN}
        if event.get("seen") is not None and not any(event["seen"][s] for s in seats):
            shown.update(id=HIDDEN, **({"outcome": HIDDEN} if event["type"] == "chance" else {}))
        return shown


@functools.cache
def make_game(name: str) -> OpenSpielGame:
    """The arena game of the OpenSpiel game ``name`` (one of :func:`catalog.accepted`)."""
    import pyspiel
    declared = catalog.game_types()[name]
    spiel_type = load(name, ()).get_type()
    counts = catalog.player_counts(name)
    default = declared.parameter_specification.get("players", load(name, ()).num_players())
    default = default if default in counts else counts[0]
    perfect = spiel_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    attrs: dict[str, Any] = {
        "__module__": __name__,  # its folder (Game.folder): the observation page, the drawer
        "name": catalog.PREFIX + name,
        "title": f"{declared.long_name} (OpenSpiel)",
        "player_counts": counts,
        "default_players": default,
        "hidden_information": not perfect,
        "chance": declared.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC,
        "spiel_type": spiel_type,
        "seeded": any(p in declared.parameter_specification for p in catalog.SEED_PARAMETERS),
        "simultaneous": declared.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS,
        "declared": declared,
        "short_name": name,
        "fixed_action_strings": name in catalog.FIXED_ACTION_STRINGS,
        "Options": options_class(name, declared, counts, default, rebuild_options),
    }
    cls = type(f"OpenSpiel_{name}", (OpenSpielGame,), attrs)
    game = cls()
    cls.State = type(f"OpenSpielState_{name}", (OpenSpielState,), {"game": game, "__module__": __name__})  # type: ignore[attr-defined]
    return game


def rebuild_options(name: str, values: dict[str, Any]) -> Any:
    """Options of the OpenSpiel game ``name`` from their values (how options unpickle)."""
    return make_game(name).Options(**values)
