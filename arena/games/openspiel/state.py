"""One match of an OpenSpiel game on arena's interface (``arena.game.State``).

- **Chance** never comes from OpenSpiel's random state: the k-th chance outcome of a match
  (counting from 0) is drawn from the stream ``("chance", k)`` by its probability, and a game that
  samples chance inside OpenSpiel gets its ``seed``/``rng_seed`` parameter from the stream
  ``("seed",)``. Chance nodes are played by the state itself and never reach a seat.
- **Actions** are OpenSpiel's action strings for the seat to move; where two legal actions share
  a string, each of them gets its action id: ``"<string> #<id>"``.
- **Events**: ``{"type": "chance", "id", "outcome", "board"}`` for every chance outcome,
  ``{"type": "action", "seat", "action", "id", "board"}`` for every decision (``board`` is
  OpenSpiel's text of the state after it), ``capped`` when ``move_cap`` ends a match, and
  ``match_end`` with the scores, the ranks and OpenSpiel's ``returns``.
- **Observation** of a seat: OpenSpiel's information state and observation strings, the tensor
  as a flat list, and the match's ``history`` of action ids with every entry the seat may not
  know written ``None`` (docs/games/openspiel.md).
- **Hands**: a match of several hands (the option ``hands``) plays OpenSpiel's game that many
  times and sums each seat's returns. In hand ``h`` (from 0) OpenSpiel's player ``p`` is seat
  ``(p + h) % n``, so the first seat to act moves round one place a hand; hand 0 draws its chance
  from the match's streams as a match of one hand does, hand ``h`` from a ``Chance`` seeded by the
  stream ``("hand", h)``. A hand ends with a ``hand_end`` event (its returns by seat). The
  observation is the hand's, with ``hand``, ``hands``, ``player`` (the seat's OpenSpiel player in
  this hand) and ``totals`` (the returns of the hands before) added.
"""
from __future__ import annotations

import functools
from typing import Any

from arena.game import TERMINAL, Chance, Result, State

SCALE = 1000  # scores are returns in thousandths when a match's returns are not whole numbers
# OpenSpiel's current player at a chance node and at the end (pyspiel.PlayerId.CHANCE, .TERMINAL):
# one call tells the seat to move, chance, or the end (OpenSpiel's State::CurrentPlayer promises
# TERMINAL at the end; tests/games/test_openspiel.py checks every accepted game)
CHANCE, TERMINAL_PLAYER = -1, -4


def draw(outcomes: list[tuple[int, float]], u: float) -> int:
    """The chance outcome at ``u`` (in [0, 1)) of the cumulative probabilities, in OpenSpiel's order."""
    total = 0.0
    for action, p in outcomes:
        total += p
        if u < total:
            return action
    return outcomes[-1][0]


def action_texts(actions: list[tuple[int, str]]) -> dict[str, int]:
    """The legal actions' texts and their ids, in OpenSpiel's order: OpenSpiel's string of each,
    and where two share one, ``"<string> #<id>"`` for each of them."""
    texts = {text: a for a, text in actions}
    if len(texts) == len(actions):
        return texts
    count: dict[str, int] = {}
    for _, text in actions:
        count[text] = count.get(text, 0) + 1
    return {(text if count[text] == 1 else f"{text} #{a}"): a for a, text in actions}


def scores_of(returns: list[float]) -> tuple[list[int], int]:
    """Whole-number scores of a match's returns, and their scale: the returns themselves when
    they are whole numbers, else in thousandths."""
    if all(float(r).is_integer() for r in returns):
        return [int(r) for r in returns], 1
    return [round(r * SCALE) for r in returns], SCALE


@functools.cache
def turn_order(n: int, k: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Of ``n`` seats in a hand whose first player is seat ``k``: the seat of each OpenSpiel
    player (``(p + k) % n``) and the OpenSpiel player of each seat (``(s - k) % n``)."""
    order = tuple(range(n))
    return order[k:] + order[:k], order[n - k:] + order[:n - k]


def _same_view(before: Any, alternative: int, rest: list[int], seat: int, mine: str, view: Any) -> bool:
    """Whether ``seat``'s view is ``mine`` after ``alternative`` and then ``rest`` from ``before``."""
    state = before.child(alternative)
    for a in rest:
        if state.is_terminal() or a not in state.legal_actions():
            return False
        state.apply_action(a)
    return bool(view(state, seat) == mine)


class Node:
    """What arena works out once per OpenSpiel state of a game, kept in a tree of the states
    met so far (keyed by action ids from the initial state; :meth:`OpenSpielGame.facts`): the
    state's text, its legal actions' texts and ids, its chance outcomes' texts, and which seats
    may know each step from it. All are pure functions of the state, so a match finds them
    again instead of asking OpenSpiel (a game that samples chance inside OpenSpiel keeps none:
    its states are not functions of their histories)."""

    __slots__ = ("tree", "children", "board", "ids", "legal", "outcomes", "seen")

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.children: dict[int, Node] = {}
        self.board: str | None = None
        self.ids: dict[str, int] | None = None
        self.legal: list[str] = []
        self.outcomes: dict[int, str] = {}
        self.seen: dict[int, list[bool]] = {}

    def child(self, action: int) -> Node | None:
        """The node after ``action``; ``None`` once the tree holds its most nodes."""
        node = self.children.get(action)
        if node is None:
            tree = self.tree
            if tree.size >= tree.most:
                return None
            tree.size += 1
            node = self.children[action] = Node(tree)
        return node


Menu = tuple[dict[str, int], list[str]]  # a seat's legal actions: texts to ids, and the texts in order


class Tree:
    """The nodes of one OpenSpiel game (its parameters), at most ``most`` of them; and where the
    game's action strings depend on the player and the action id alone (its
    ``fixed_action_strings``), the seat's legal actions by the player and the legal ids
    (``menus``, at most ``most_menus`` of them; ``None`` in every other game)."""

    def __init__(self, most: int, most_menus: int = 0) -> None:
        self.size, self.most = 1, most
        self.root = Node(self)
        self.most_menus = most_menus
        self.menus: dict[tuple[int, ...], Menu] | None = {} if most_menus else None


class OpenSpielState(State):
    """A match: the OpenSpiel state, the events, and what each seat saw of each step."""

    game: Any  # the arena game (set on the subclass each OpenSpiel game gets)
    # At most 29 attributes: CPython 3.11 keeps the instances of a class with up to 29 in one
    # shared-key layout; a 30th costs every move about a seventh more
    # (benchmarks/openspiel_speed.py; tests/games/test_openspiel.py checks the count).
    MOST_ATTRIBUTES = 29

    def __init__(self, options: Any, seed: int | None, *, chance: Chance | None = None,
                 start: bool = True) -> None:
        self.options = options
        self.num_players = options.num_players
        self.match_chance = chance if chance is not None else Chance(seed if seed is not None else 0)
        self.hands = options.hands
        self._seat_hand(0)
        self.totals = [0.0] * self.num_players  # each seat's returns in the hands before this one
        self.hidden = self.game.hidden_information
        self.simultaneous = self.game.simultaneous
        self.everyone = [True] * self.num_players  # (never changed in place: shared by the entries)
        self._deal(self.match_chance)
        cap = options.move_cap  # (as Game.length_cap, without loading the game again)
        self.cap = int(cap) if cap is not None else int(self.spiel_game.max_game_length()) * self.hands
        self.events: list[dict[str, Any]] = []
        self.moves = 0
        self.finished = False
        self._legal: list[str] = []
        self._ids: dict[str, int] = {}
        self.to_move = TERMINAL  # OpenSpiel's player whose legal actions _legal lists
        if start:
            self._advance()

    def _deal(self, chance: Chance) -> None:
        """Start a hand (OpenSpiel's initial state) whose chance comes from ``chance``."""
        self.chance = chance
        self.spiel_game = self.game.spiel_game(self.options, chance)
        self.spiel = self.game.initial_state(self.spiel_game)
        self.node: Node | None = self.game.facts(self.spiel_game)
        self.tree = None if self.node is None else self.node.tree
        self.menus = None if self.tree is None else self.tree.menus
        self.history: list[int] = []            # the hand's every action id, chance included
        self.seen: list[list[bool]] = []        # per history entry: may each player know it?
        self.chance_count = 0
        self.turn: tuple[int, Any] | None = None  # a simultaneous-move turn: its first entry, its state

    def at_hand(self, hand: int, totals: list[float]) -> None:
        """Before anything is played (sample.py): make this the start of hand ``hand``, after
        hands that left the seats ``totals``; its chance is the state's own."""
        self._seat_hand(hand)
        self.totals = list(totals)

    def _seat_hand(self, hand: int) -> None:
        """Hand ``hand`` is played: which seat is which of OpenSpiel's players in it."""
        self.hand = hand
        self.seats, self.players = turn_order(self.num_players, hand % self.num_players)

    def _by_seat(self, per_player: list[Any]) -> list[Any]:
        """A list indexed by OpenSpiel's players, indexed by seats instead (a copy in the first
        hand, where they are the same; the two events of a step test ``self.hand`` themselves
        and copy without the call)."""
        return [per_player[p] for p in self.players] if self.hand else list(per_player)

    def _end_hand(self) -> list[float]:
        """The ``hand_end`` event of a hand played out; its returns by seat."""
        returns = self._by_seat([float(r) for r in self.spiel.returns()])
        self.events.append({"type": "hand_end", "hand": self.hand, "returns": returns})
        return returns

    def _next_hand(self) -> None:
        """At the end of a hand that is not the last: its event, then the next hand."""
        self.totals = [t + r for t, r in zip(self.totals, self._end_hand())]
        self._seat_hand(self.hand + 1)
        self._deal(Chance.from_rng(self.match_chance.stream("hand", self.hand)))

    # ----- playing ---------------------------------------------------------------------------
    def _advance(self) -> None:
        """Play chance nodes, then list the legal actions of the seat to move, or end the match.
        The legal actions come from the state's node, else from the menus (where the game's
        action strings depend on the player and the ids alone), else from OpenSpiel."""
        player = self.spiel.current_player()  # (the player to move, CHANCE or TERMINAL: OpenSpiel's)
        while player == CHANCE or (player == TERMINAL_PLAYER and self.hand + 1 < self.hands):
            if player == CHANCE:
                self._play_chance()
            else:
                self._next_hand()
            player = self.spiel.current_player()
        if player == TERMINAL_PLAYER:
            return self._finish()
        if self.moves >= self.cap:
            self.events.append({"type": "capped", "moves": self.moves})
            return self._finish()
        self.to_move, node = player, self.node
        if node is not None and node.ids is not None:
            self._ids, self._legal = node.ids, node.legal
            return
        legal = self.spiel.legal_actions()
        menus = self.menus
        menu = None if menus is None else menus.get((player, *legal))
        if menu is None:
            menu = self._menu(player, legal)
        self._ids, self._legal = menu
        if node is not None:
            node.ids, node.legal = menu

    def _menu(self, player: int, legal: list[int]) -> Menu:
        """The legal actions ``legal`` of ``player`` from OpenSpiel's strings (kept in the menus
        where the game has them)."""
        text = self.spiel.action_to_string
        ids = {text(player, a): a for a in legal}
        if len(ids) < len(legal):  # two actions share a string
            ids = action_texts([(a, text(player, a)) for a in legal])
        menu = ids, list(ids)
        tree, menus = self.tree, self.menus
        if tree is not None and menus is not None and len(menus) < tree.most_menus:
            menus[(player, *legal)] = menu
        return menu

    def _play_chance(self) -> None:
        """Draw the chance outcome here from its stream, and play it."""
        spiel, node = self.spiel, self.node
        outcomes = spiel.chance_outcomes()
        u = self.chance.stream("chance", self.chance_count).random()
        action = draw(outcomes, u)
        self.chance_count += 1
        text = None if node is None else node.outcomes.get(action)
        if text is None:
            text = spiel.action_to_string(CHANCE, action)
            if node is not None:
                node.outcomes[action] = text
        self._step(action, CHANCE)  # (self.spiel may be a new state now)
        event: dict[str, Any] = {"type": "chance", "id": action, "outcome": text}
        if self.hidden:
            event["seen"] = self._by_seat(self.seen[-1]) if self.hand else list(self.seen[-1])
        event["board"] = self._board()
        self.events.append(event)

    def _board(self) -> str:
        """OpenSpiel's text of the state (once per node)."""
        node = self.node
        if node is None:
            return str(self.spiel)
        if node.board is None:
            node.board = str(self.spiel)
        return node.board

    def _step(self, action: int, actor: int) -> None:
        """Apply one action id of ``actor`` (the seat to move, or chance), noting which seats
        may know it."""
        spiel, node = self.spiel, self.node
        if self.simultaneous and self.turn is None and not spiel.is_chance_node():
            self.turn = (len(self.history), spiel.clone())
        if self.hidden:
            known = None if node is None else node.seen.get(action)
            if known is not None:
                self.seen.append(known)
                spiel.apply_action(action)
            else:
                seen, after = self.game.visibility(spiel, action)
                if node is not None:
                    node.seen[action] = seen
                self.seen.append(seen)
                if after is not None:
                    self.spiel = spiel = after
                else:
                    spiel.apply_action(action)
        else:
            self.seen.append(self.everyone)
            spiel.apply_action(action)
        if node is not None:
            self.node = node.child(action)
        self.history.append(action)
        if self.turn is not None and (spiel.is_chance_node() or spiel.is_terminal()
                                      or spiel.current_player() <= actor):
            self._reveal(*self.turn)
            self.turn = None

    def _reveal(self, first: int, start: Any) -> None:
        """At the end of a turn of a simultaneous-move game: the moves of the turn that each
        seat may know now (all of them, unless the game keeps them secret)."""
        view = self.game.view
        for j in range(first, len(self.history)):
            before = start.clone()
            for a in self.history[first:j]:
                before.apply_action(a)
            for seat in range(self.num_players):
                if self.seen[j][seat]:
                    continue
                mine = view(self.spiel, seat)
                if all(not _same_view(before, alt, self.history[j + 1:], seat, mine, view)
                       for alt in before.legal_actions() if alt != self.history[j]):
                    self.seen[j] = [True if s == seat else k for s, k in enumerate(self.seen[j])]

    def _apply_legal(self, action: str) -> None:
        player, action_id = self.to_move, self._ids[action]
        self._step(action_id, player)
        self.moves += 1
        event: dict[str, Any] = {"type": "action", "seat": self.seats[player], "action": action, "id": action_id}
        if self.hidden:
            event["seen"] = self._by_seat(self.seen[-1]) if self.hand else list(self.seen[-1])
        event["board"] = self._board()
        self.events.append(event)
        self._advance()

    def _finish(self) -> None:
        if self.hands > 1 and self.spiel.is_terminal():
            self._end_hand()
        self.finished = True
        self._legal = []
        result = self.result()
        self.events.append({"type": "match_end", "scores": list(result.scores),
                            "ranks": list(result.ranks), "returns": self.returns()})

    # ----- playing a history again (sample.py) ------------------------------------------------
    def replay(self, action: int, seen: list[bool]) -> bool:
        """Play the action id ``action`` (a chance outcome or a move, as a history holds it),
        known to ``seen`` seats, without events (a sampled state's events start where it was
        sampled); ``False`` (and nothing played) when it is not legal here."""
        spiel = self.spiel
        if spiel.is_terminal():
            return False
        if spiel.is_chance_node():
            if action not in {a for a, p in spiel.chance_outcomes() if p > 0}:
                return False
            self.chance_count += 1
        elif action in spiel.legal_actions():
            self.moves += 1
        else:
            return False
        spiel.apply_action(action)
        self.node = None if self.node is None else self.node.children.get(action)  # (adds none)
        self.history.append(action)
        self.seen.append(seen)
        return True

    def settle(self) -> None:
        """After :meth:`replay`: the legal actions of the seat to move, or the end."""
        self._advance()

    # ----- the interface ---------------------------------------------------------------------
    def current_player(self) -> int:
        if self.finished:
            return TERMINAL
        player = self.spiel.current_player()
        return self.seats[player] if player >= 0 else player

    def is_terminal(self) -> bool:
        return self.finished

    def returns(self) -> list[float]:
        """Each seat's returns: OpenSpiel's in this hand, added to those of the hands before."""
        hand = [float(r) for r in self.spiel.returns()]
        return [t + r for t, r in zip(self.totals, self._by_seat(hand))] if self.hand else hand

    def scores(self) -> tuple[int, ...]:
        return tuple(scores_of(self.returns())[0])

    def result(self) -> Result:
        # ranked by OpenSpiel's returns (the scores round them only when they are fractions)
        return Result.from_keys(self.scores(), self.returns())

    def observation(self, seat: int) -> dict[str, Any]:
        spiel, kind = self.spiel, self.game.spiel_type
        player = self.players[seat]
        obs: dict[str, Any] = {"seat": seat, "to_move": self.current_player()}
        if kind.provides_information_state_string:
            obs["information_state"] = spiel.information_state_string(player)
        if kind.provides_observation_string:
            obs["observation"] = spiel.observation_string(player)
        if kind.provides_observation_tensor:
            obs["tensor"] = [float(x) for x in spiel.observation_tensor(player)]
        elif kind.provides_information_state_tensor:
            obs["tensor"] = [float(x) for x in spiel.information_state_tensor(player)]
        obs["history"] = [a if seen[player] else None for a, seen in zip(self.history, self.seen)]
        obs["moves"] = self.moves
        if self.hands > 1:
            obs.update(hand=self.hand, hands=self.hands, player=player, totals=list(self.totals))
        return obs

    def clone(self) -> OpenSpielState:
        copy = type(self).__new__(type(self))
        copy.__dict__.update(self.__dict__)
        if self.game.seeded:  # its own game, whose random state is where this one's was
            copy.spiel_game = self.game.spiel_game(self.options, self.chance)
            copy.spiel = copy.spiel_game.new_initial_state()  # (its hand's game and chance)
            for action in self.history:
                copy.spiel.apply_action(action)
        else:
            copy.spiel = self.spiel.clone()
        copy.turn = None if self.turn is None else (self.turn[0], self.turn[1].clone())
        copy.totals = list(self.totals)
        copy.events = list(self.events)
        copy.history = list(self.history)
        copy.seen = list(self.seen)
        copy._legal = list(self._legal)
        copy._ids = dict(self._ids)
        return copy
