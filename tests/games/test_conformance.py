"""Conformance of every registered game to the interface of ``arena.game``.

Every game in ``arena.games.GAMES``, every allowed player count and a few option sets per game are
played out from fixed seeds with a seeded random policy, and checked only through the interface:

- before the end, the seat to move is a real seat and has a non-empty, deterministic list of
  string actions; ``current_player()`` is ``TERMINAL`` exactly when ``is_terminal()``;
- the i-th ``{"type": "action"}`` event is the i-th decision, and replaying the seed and the
  actions gives the same legal lists, the same events and the same result;
- at random points: ``game.sample_state(options, observation(seat), rng)`` builds a state whose
  observation for ``seat`` is the same (and its legal actions when it is to move), that really
  differs in what is hidden from ``seat`` when something is, and that plays on legally;
  observations survive MessagePack unchanged and hold nothing of another seat's
  ``private_items``; ``clone()`` is independent; illegal actions raise ``IllegalActionError``
  and leave the state as it was;
- every match ends within the game's ``length_cap`` (a ``capped`` event when it is reached);
- results are in bounds: ranks 1..n, better scores never rank worse, ranks are competition ranks;
  a game that cannot be drawn never gives two seats first place.

A new game plugs in by being registered; everything is asked of the game through its interface
and hooks. What the interface cannot tell (which option sets are worth playing) is in the small
``SPECS`` table below; a game without an entry gets the generic checks.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest

from arena.errors import IllegalActionError, OptionError
from arena.game import TERMINAL, Result
from arena.games import GAMES

SEEDS = range(30)
SAMPLE_RATE = 0.06   # share of decisions at which the heavy checks run (plus the first and the end)
SAMPLE_TRIES = 8     # samples tried at a point before concluding that nothing could change
SAMPLE_PLAYOUT = 30  # decisions played on a sampled state


@dataclass
class Spec:
    """What the conformance suite needs to know about a game beyond the interface."""

    option_sets: list[dict[str, Any]] = field(default_factory=lambda: [{}])
    check_result: Callable[[Any, Result], None] | None = None
    seeds: range = SEEDS


def _block_check_result(state, result):
    assert all(s >= 0 for s in result.scores)
    capped = any(e["type"] == "capped" for e in state.events)
    if not state.options.single_deal and not capped:
        assert max(result.scores) >= state.options.target
        assert result == Result.from_scores(result.scores)


def _dice_1000_check_result(state, result):
    capped = any(e["type"] == "capped" for e in state.events)
    assert capped or max(result.scores) >= 1000


def _domino_cribbage_check_result(state, result):
    target = state.options.target
    if any(e["type"] == "capped" for e in state.events):
        assert max(result.scores) < target
    else:
        assert max(result.scores) >= target > min(result.scores)


SPECS: dict[str, Spec] = {
    "block": Spec(option_sets=[{}, {"auto_pass": False}, {"single_deal": True},
                               {"first_leader": "highest_double"}, {"hand_size": 7},
                               {"max_deals": 2}],
                  check_result=_block_check_result),
    "dice-1000": Spec(option_sets=[{}, {"variant": "B75_850"}, {"barrel": "open"},
                                   {"barrel": "none", "straights": True},
                                   {"bolt_streak": "consecutive", "bolts_when_restricted": True,
                                    "floor_at_zero": False},
                                   {"max_rounds": 3}],
                      check_result=_dice_1000_check_result, seeds=range(6)),
    "domino-cribbage": Spec(option_sets=[{}, {"starter_in_pegging_count": False},
                                         {"target": 61, "zero_tile_rescores_15": False},
                                         {"heels_points": 0, "show_double_bonus": 2,
                                          "starter_double_counts_in_show": False},
                                         {"target": 1000, "max_deals": 3}],
                            check_result=_domino_cribbage_check_result),
    "thousand": Spec(option_sets=[{"max_deals": 6}, {"max_deals": 4, "dark_bidding": True, "redeal": True},
                                  {"max_deals": 4, "must_overtake": True, "ace_marriage": True,
                                   "golden_round": "forced120_double", "rospis_penalty": "bolt"},
                                  {"max_deals": 3, "show_prikup_on_forced_100": True,
                                   "rospis": False, "golden_round": "double"}],
                     seeds=range(8)),
}


def spec_for(name: str) -> Spec:
    return SPECS.get(name, Spec())


def _cases() -> list:
    """(game, player count, option values), leaving out option sets that change nothing at that
    player count (``hand_size=7`` is the 2-player default) or do not apply to it."""
    cases = []
    for name, game in sorted(GAMES.items()):
        for n in range(game.min_players, game.max_players + 1):
            made = []
            for values in spec_for(name).option_sets:
                try:
                    options = game.make_options(n, values)
                except OptionError:
                    continue
                if options in made:
                    continue
                made.append(options)
                label = ",".join(f"{k}={v}" for k, v in values.items()) or "defaults"
                slow = [pytest.mark.slow] if name == "dice-1000" and n >= 5 else []  # 5-15 s each
                cases.append(pytest.param(name, n, values, id=f"{name}-{n}p-{label}", marks=slow))
    return cases


CASES = _cases()


# ----- helpers ------------------------------------------------------------------------------------
def packed_observations(state) -> tuple[bytes, ...]:
    return tuple(msgpack.packb(state.observation(s)) for s in range(state.num_players))


def snapshot(state) -> tuple:
    """Everything the interface shows of a state, to prove that something did not change it."""
    terminal = state.is_terminal()
    return (state.current_player(), terminal, state.legal_actions(), len(state.events),
            tuple(state.scores()), packed_observations(state), state.result() if terminal else None)


def strings_in(value: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every string inside an observation (keys included), leaving out top-level ``skip`` keys."""
    out: set[str] = set()
    stack = [value]
    top = True
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                if top and k in skip:
                    continue
                stack.append(k)
                stack.append(x)
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        top = False
    return out


def check_observations(state) -> None:
    n = state.num_players
    for seat in range(n):
        obs = state.observation(seat)
        assert isinstance(obs, dict)
        back = msgpack.unpackb(msgpack.packb(obs), strict_map_key=False)
        assert back == obs, "the observation changes through MessagePack (tuples? bytes?)"
        seen = strings_in(obs)
        for other in range(n):
            if other != seat:
                leaked = state.private_items(other) & seen
                assert not leaked, f"seat {seat} sees {sorted(leaked)} of seat {other}"


def check_illegal(state, rng: random.Random, seen_actions: list[str]) -> None:
    before = snapshot(state)
    legal = set(state.legal_actions())
    candidates = ["", "not an action", "pass", "resign", 7, None]
    candidates += [a + "?" for a in legal][:2]
    candidates += rng.sample(seen_actions, min(len(seen_actions), 5))
    for action in candidates:
        if action in legal:
            continue
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert snapshot(state) == before, f"the illegal action {action!r} changed the state"


def check_clone(state, rng: random.Random) -> None:
    before = snapshot(state)
    copy = state.clone()
    assert snapshot(copy) == before
    if not state.is_terminal():
        copy.apply(rng.choice(copy.legal_actions()))
    assert snapshot(state) == before, "playing on a clone changed the original"


def play_on(state, rng: random.Random, decisions: int) -> None:
    """Play a (redealt) state on a little, checking the basic invariants."""
    for _ in range(decisions):
        if state.is_terminal():
            assert state.current_player() == TERMINAL and state.legal_actions() == []
            return
        legal = state.legal_actions()
        assert legal, "a redealt state has no legal action before the end"
        assert 0 <= state.current_player() < state.num_players
        state.apply(rng.choice(legal))


def check_sample(game, state, rng: random.Random, stats: dict[str, int]) -> None:
    """sample_state keeps what the seat knows, really deals the rest again, and plays on."""
    before = snapshot(state)
    to_move = state.current_player()
    for seat in range(state.num_players):
        mine = state.observation(seat)
        others = tuple(p for s, p in enumerate(packed_observations(state)) if s != seat)
        changed = False
        for i in range(SAMPLE_TRIES):
            new = game.sample_state(state.options, mine, rng)
            assert new.observation(seat) == mine, f"sample_state for seat {seat} changed its observation"
            assert new.current_player() == to_move and new.is_terminal() == state.is_terminal()
            if to_move == seat:
                assert new.legal_actions() == state.legal_actions()
            changed = changed or tuple(p for s, p in enumerate(packed_observations(new))
                                       if s != seat) != others
            if i == 0:
                play_on(new, rng, SAMPLE_PLAYOUT)
            if changed and i >= 1:
                break
        assert snapshot(state) == before, "sample_state changed the original state"
        if game.hidden_information and not state.is_terminal():
            stats["hidden"] += 1
            stats["changed"] += changed
        elif not game.hidden_information:
            assert not changed, "sampling changed another seat's view of a game without secrets"


def check_result(game, state, spec: Spec) -> None:
    result = state.result()
    n = state.num_players
    assert isinstance(result, Result)
    assert len(result.scores) == len(result.ranks) == n
    assert tuple(result.scores) == tuple(state.scores())
    assert all(isinstance(s, int) for s in result.scores)
    assert all(1 <= r <= n for r in result.ranks)
    assert min(result.ranks) == 1
    for i in range(n):
        # competition ranks (1, 1, 3): one more than the number of seats ranked strictly better
        assert result.ranks[i] == 1 + sum(1 for r in result.ranks if r < result.ranks[i])
        for j in range(n):
            if result.scores[i] > result.scores[j]:
                assert result.ranks[i] < result.ranks[j], "a better score ranks worse"
    if not game.can_draw:
        assert list(result.ranks).count(1) == 1, "a game that cannot be drawn shared first place"
    if spec.check_result is not None:
        spec.check_result(state, result)


# ----- one match --------------------------------------------------------------------------------
def play_match(game, options, n: int, seed: int, spec: Spec, stats: dict[str, int]) -> None:
    rng = random.Random(f"policy {seed}")
    check_rng = random.Random(f"checks {seed}")
    state = game.new_match(options, seed)
    assert state.num_players == n
    actions: list[str] = []
    seats: list[int] = []
    legal_lists: list[list[str]] = []
    seen: list[str] = []
    first = True
    while True:
        terminal = state.is_terminal()
        player = state.current_player()
        assert (player == TERMINAL) == terminal
        if terminal:
            assert state.legal_actions() == []
            break
        assert 0 <= player < state.num_players
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        assert all(isinstance(a, str) for a in legal)
        assert len(set(legal)) == len(legal), "an action is listed twice"
        assert state.legal_actions() == legal
        if first or check_rng.random() < SAMPLE_RATE:
            first = False
            check_observations(state)
            check_illegal(state, check_rng, seen)
            check_clone(state, check_rng)
            check_sample(game, state, check_rng, stats)
        action = rng.choice(legal)
        seen.extend(legal[:3])
        legal_lists.append(legal)
        actions.append(action)
        seats.append(player)
        state.apply(action)

    check_result(game, state, spec)
    check_observations(state)
    check_illegal(state, check_rng, seen)
    check_sample(game, state, check_rng, stats)
    assert state.events[-1]["type"] == "match_end"
    capped = [e for e in state.events if e["type"] == "capped"]
    assert len(capped) <= 1 and (not capped or state.events[-2] is capped[0])

    decisions = [e for e in state.events if e.get("type") == "action"]
    assert [e["action"] for e in decisions] == actions
    assert [e["seat"] for e in decisions] == seats

    # replay from the seed and the actions: the same lists, events and result
    replay = game.new_match(options, seed)
    for legal, action in zip(legal_lists, actions):
        assert replay.legal_actions() == legal
        replay.apply(action)
    assert replay.is_terminal()
    assert replay.events == state.events
    assert replay.result() == state.result()
    assert packed_observations(replay) == packed_observations(state)


@pytest.mark.parametrize("name, n, values", CASES)
def test_conformance(name, n, values):
    game = GAMES[name]
    spec = spec_for(name)
    options = game.make_options(n, values)
    stats = {"hidden": 0, "changed": 0}
    for seed in spec.seeds:
        play_match(game, options, n, seed, spec, stats)
    if game.hidden_information:
        # A sample may find no other consistent deal now and then (late in a deal, after passes),
        # but it must change the hidden information most of the time.
        assert stats["hidden"] and stats["changed"] >= 0.75 * stats["hidden"], stats


def test_every_game_has_its_cases():
    assert {c.values[0] for c in CASES} == set(GAMES)
