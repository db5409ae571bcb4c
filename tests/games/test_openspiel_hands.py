"""A match of several hands of an OpenSpiel game (the option ``hands``): each hand is OpenSpiel's
game played out, its returns by seat in a ``hand_end`` event, summed over the match; OpenSpiel's
first player moves round one seat a hand; each hand draws its own luck, the same in every match
of a duplicate set; a seat sees the hand it is in and the totals before it."""
from __future__ import annotations

import random

import pytest

from arena.errors import OptionError
from arena.game import Chance
from arena.games import get_game, openspiel
from arena.games.openspiel.state import draw
from tests.games.test_conformance import Spec, play_match

pytest.importorskip("pyspiel")


def random_match(name: str, players: int, hands: int, seed: int, policy: str = "random", **values):
    game = get_game("openspiel:" + name)
    options = game.make_options(players, {"hands": hands, **({"num_cards": 4} if name == "goofspiel" else {}),
                                          **values})
    state = game.new_match(options, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(rng.choice(legal) if policy == "random" else legal[0] if policy == "first" else legal[-1])
    return game, options, state


def split_hands(events: list[dict]) -> list[list[dict]]:
    """The events of each hand, its hand_end last (a hand cut short by move_cap: its capped)."""
    hands: list[list[dict]] = [[]]
    for event in events:
        if event["type"] != "match_end":
            hands[-1].append(event)
        if event["type"] == "hand_end":
            hands.append([])
    return [hand for hand in hands if hand]


def hand_chance(seed: int, hand: int) -> Chance:
    return Chance(seed) if hand == 0 else Chance.from_rng(Chance(seed).stream("hand", hand))


def check_hands(name: str, players: int, hands: int, seed: int, **values) -> int:
    """A random match of ``hands`` hands, and OpenSpiel's own loop over each hand's actions and
    chance outcomes: the same ends and returns, the seats of OpenSpiel's players turned by the
    hand, each hand's chance from its own streams, the match's returns their sums. The hands
    played out."""
    game, options, state = random_match(name, players, hands, seed, **values)
    totals = [0.0] * players
    played = split_hands(state.events)
    for h, events in enumerate(played):
        spiel = game.spiel_game(options, hand_chance(seed, h)).new_initial_state()
        drawn = 0
        for event in events[:-1]:
            if event["type"] == "chance":  # the hand's k-th outcome: its own stream ("chance", k)
                u = hand_chance(seed, h).stream("chance", drawn).random()
                assert spiel.is_chance_node() and event["id"] == draw(spiel.chance_outcomes(), u)
                drawn += 1
            else:  # OpenSpiel's player p is seat (p + h) % players
                assert event["seat"] == (spiel.current_player() + h) % players
            spiel.apply_action(event["id"])
        returns = [float(r) for r in spiel.returns()]
        by_seat = [returns[(seat - h) % players] for seat in range(players)]
        if events[-1]["type"] == "hand_end":
            assert spiel.is_terminal() and events[-1]["hand"] == h and events[-1]["returns"] == by_seat
        else:  # the last hand, cut short by move_cap
            assert h == len(played) - 1 and events[-1]["type"] == "capped" and not spiel.is_terminal()
        totals = [t + r for t, r in zip(totals, by_seat)]
    end = state.events[-1]
    assert end["type"] == "match_end" and end["returns"] == totals
    assert list(state.result().ranks) == [1 + sum(t > mine for t in totals) for mine in totals]
    return sum(events[-1]["type"] == "hand_end" for events in played)


@pytest.mark.parametrize("name, players", [("kuhn_poker", 2), ("kuhn_poker", 3), ("leduc_poker", 2),
                                           ("goofspiel", 2), ("connect_four", 2)])
def test_each_hand_is_openspiels_game_and_the_match_sums_their_returns(name: str, players: int) -> None:
    for seed in (1, 2):
        assert check_hands(name, players, 4, seed) == 4


@pytest.mark.parametrize("name", openspiel.accepted())
def test_every_accepted_game_plays_two_hands_as_openspiel_does(name: str) -> None:
    players = get_game("openspiel:" + name).default_players
    check_hands(name, players, 2, 1, move_cap=300)


def test_the_first_hand_is_a_match_of_one_hand() -> None:
    for seed in range(3):
        _, _, one = random_match("leduc_poker", 2, 1, seed, "first")
        _, _, three = random_match("leduc_poker", 2, 3, seed, "first")
        assert not any(e["type"] == "hand_end" for e in one.events)
        assert three.events[:len(one.events) - 1] == one.events[:-1]
        assert three.events[len(one.events) - 1]["type"] == "hand_end"


def test_every_hand_deals_its_own_cards_the_same_in_every_match_of_a_duplicate_set() -> None:
    """Two matches of a set (the same seed, other players): in each hand the same cards go to the
    same OpenSpiel players; and the hands of a match are not dealt alike."""
    differ = 0
    for seed in range(10):
        deals = []
        for policy in ("first", "last"):
            _, _, state = random_match("leduc_poker", 2, 4, seed, policy)
            deals.append([[e["id"] for e in hand if e["type"] == "chance"][:2] for hand in split_hands(state.events)])
        assert deals[0] == deals[1]
        differ += len({tuple(d) for d in deals[0]}) > 1
    assert differ >= 8


def test_a_seat_sees_its_hand_its_player_and_the_totals_before() -> None:
    game = get_game("openspiel:kuhn_poker")
    options = game.make_options(2, {"hands": 3})
    state = game.new_match(options, 7)
    assert "hand" not in game.new_match(game.make_options(2), 7).observation(0)
    seen = []
    while not state.is_terminal():
        seat = state.current_player()
        obs = state.observation(seat)
        ended = [e["returns"] for e in state.events if e["type"] == "hand_end"]
        assert obs["hand"] == len(ended) and obs["hands"] == 3
        assert obs["player"] == (seat - obs["hand"]) % 2
        assert obs["totals"] == [sum(r[s] for r in ended) for s in (0, 1)]
        assert obs["information_state"] == state.spiel.information_state_string(obs["player"])
        seen.append((obs["hand"], seat, obs["player"]))
        lines = game.describe_observation(obs)
        assert any(line.startswith(f"hand {obs['hand'] + 1} of 3; you are OpenSpiel's player") for line in lines)
        state.apply(state.legal_actions()[0])
    assert {(h, p) for h, _, p in seen if _ == 0} >= {(0, 0), (1, 1), (2, 0)}  # seat 0 acts first, then second


@pytest.mark.parametrize("name, players, seeds", [("kuhn_poker", 2, 4), ("kuhn_poker", 3, 2), ("leduc_poker", 2, 3),
                                                  ("goofspiel", 2, 2)])
def test_conformance_over_several_hands(name: str, players: int, seeds: int) -> None:
    """Hidden information, deterministic replay, sample_state in every hand, clone, results."""
    game = get_game("openspiel:" + name)
    options = game.make_options(players, {"hands": 3, **({"num_cards": 4} if name == "goofspiel" else {})})
    stats = {"hidden": 0, "changed": 0}
    for seed in range(seeds):
        play_match(game, options, players, seed, Spec(seeds=range(seeds)), stats)
    assert stats["changed"] > 0, stats


def test_hands_are_one_to_ten_thousand() -> None:
    game = get_game("openspiel:kuhn_poker")
    for bad in (0, 10_001):
        with pytest.raises(OptionError, match="option 'hands': it is 1 to 10,000"):
            game.make_options(2, {"hands": bad})
    assert game.length_cap(game.make_options(2, {"hands": 5})) == 5 * game.length_cap(game.make_options(2))


def test_a_move_cap_ends_a_match_of_hands_ranked_by_the_returns_so_far() -> None:
    game = get_game("openspiel:kuhn_poker")
    options = game.make_options(2, {"hands": 50, "move_cap": 7})
    state = game.new_match(options, 3)
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    capped = [e for e in state.events if e["type"] == "capped"]
    assert capped == [{"type": "capped", "moves": 7}]
    ended = [e["returns"] for e in state.events if e["type"] == "hand_end"]
    assert 1 <= len(ended) < 50
    assert state.events[-1]["returns"] == [sum(r[s] for r in ended) for s in (0, 1)]
