"""What every game relies on: named chance streams, the length cap, presets and list options."""
from __future__ import annotations

import hashlib
import random

import pytest

from arena.errors import IllegalActionError, OptionError
from arena.game import Chance, Game, State, stream_seed
from arena.games import GAMES
from arena.options import options_from_dict, options_to_dict
from tests.games.toy import Stalemate, ToyDice

TOY = ToyDice()


def rolls_by_turn(state) -> dict[tuple[int, int], list[int]]:
    out: dict[tuple[int, int], list[int]] = {}
    for e in state.events:
        if e["type"] == "roll":
            out.setdefault((e["seat"], e["turn"]), []).append(e["face"])
    return out


def play(state, policy) -> None:
    while not state.is_terminal():
        state.apply(policy(state))


def test_duplicate_luck_survives_different_choices():
    """Two matches of one seed, one cautious and one greedy player per seat: after the first
    different choice, each seat still rolls the same faces, turn by turn and roll by roll."""
    options = TOY.make_options(2)
    for seed in range(20):
        cautious = TOY.new_match(options, seed)
        play(cautious, lambda s: "stop" if s.turn_total >= 4 else "roll")
        greedy = TOY.new_match(options, seed)
        play(greedy, lambda s: "stop" if s.turn_total >= 12 else "roll")
        a, b = rolls_by_turn(cautious), rolls_by_turn(greedy)
        shared = set(a) & set(b)
        assert len(shared) >= 2
        for key in shared:
            k = min(len(a[key]), len(b[key]))
            assert a[key][:k] == b[key][:k], (seed, key)
        actions = [[e["action"] for e in m.events if e["type"] == "action"] for m in (cautious, greedy)]
        assert actions[0] != actions[1]  # the two really chose differently


def test_chance_streams_are_named_and_stable():
    chance = Chance(42)
    first = [chance.stream("deal", 1).random() for _ in range(2)]
    assert first[0] == first[1]  # the same key gives the same sequence again
    assert chance.stream("deal", 1).random() != chance.stream("deal", 2).random()
    assert chance.stream("turn", 0, 1).random() != chance.stream("turn", 1, 0).random()
    # fixed across Python versions and machines, as docs/adding-a-game.md documents it
    digest = hashlib.sha256(b"arena-chance/42/deal/1").digest()
    assert stream_seed(42, ("deal", 1)) == int.from_bytes(digest[:8], "big") >> 1
    assert "42" not in repr(chance)


def test_a_sampled_future_comes_from_the_bots_rng():
    a = Chance.from_rng(random.Random(1)).stream("deal", 1).random()
    b = Chance.from_rng(random.Random(2)).stream("deal", 1).random()
    assert a != b


def test_a_match_that_never_finishes_ends_at_its_cap():
    game = Stalemate()
    options = game.make_options(3, {"max_rounds": 7})
    state = game.new_match(options, 5)
    decisions = 0
    while not state.is_terminal():
        state.apply("stop")
        decisions += 1
        assert decisions < 1000
    capped = [e for e in state.events if e["type"] == "capped"]
    assert capped == [{"type": "capped", "rounds": 7}]
    assert state.events[-1]["type"] == "match_end"
    assert game.length_cap(options) == 7


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_caps_its_length(name):
    game = GAMES[name]
    for n in game.player_counts:
        assert game.length_cap(game.make_options(n)) >= 1
    assert game.default_players in game.player_counts
    assert game.length_unit in ("deals", "turns", "rounds", "hands")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_can_cut_a_match_short_by_its_length_option(name):
    """What `arena check` plays by default: each match capped at a few deals (rounds), in every
    player count, through the game's own cap (its length_option), then ranked."""
    game = GAMES[name]
    rng = random.Random(7)
    cut = 0
    for n in game.player_counts:
        assert game.length_cap(game.make_options(n)) > 2  # a whole match may last longer
        options = game.capped_options(n, {}, 2)
        assert game.length_cap(options) == 2
        state = game.new_match(options, n)
        play(state, lambda st: rng.choice(st.legal_actions()))
        capped = [e for e in state.events if e["type"] == "capped"]
        assert all(e[game.length_unit] == 2 for e in capped), (n, capped)
        assert len(state.result().ranks) == n
        cut += bool(capped)
    assert cut  # random play does not finish a match in two deals (or rounds)


def test_a_cap_shorter_than_the_one_asked_for_is_kept():
    block = GAMES["block"]
    assert block.length_cap(block.capped_options(2, {"single_deal": True}, 2)) == 1
    assert block.length_cap(block.capped_options(2, {"max_deals": "50"}, 3)) == 3


def test_a_preset_sets_options_that_explicit_ones_override():
    short = TOY.make_options(2, {"variant": "short"})
    assert (short.target, short.max_rounds) == (10, 5)
    mixed = TOY.make_options(2, {"variant": "short", "target": "30"})
    assert (mixed.target, mixed.max_rounds) == (30, 5)
    assert TOY.make_options(2).target == 20
    with pytest.raises(OptionError, match="'variant'"):
        TOY.make_options(2, {"variant": "medium"})


def test_a_list_option_from_the_cli_and_from_toml():
    assert TOY.make_options(2, {"bust_faces": "1,2"}).bust_faces == (1, 2)
    assert TOY.make_options(2, {"bust_faces": [1, 6]}).bust_faces == (1, 6)
    with pytest.raises(OptionError, match=r"'bust_faces'.*write it as 1,2"):
        TOY.make_options(2, {"bust_faces": "1,7"})


def test_resolved_options_round_trip_through_a_record():
    options = TOY.make_options(3, {"variant": "short", "bust_faces": "2,3"})
    data = options_to_dict(options)
    assert data["bust_faces"] == [2, 3] and data["target"] == 10
    assert options_from_dict(TOY, data) == options


def test_none_reaches_a_syntax_of_its_own_and_a_choice_named_none_is_itself():
    """'none' is text for a field's own parser (Dice 1000's pits) and a choice like any other
    (its barrel type 'none'), never turned into 'use the default'."""
    from arena.games import get_game

    dice = get_game("dice-1000")
    options = dice.make_options(2, {"pits": "none", "barrel": "none"})
    assert options.pits == () and options.barrel == "none"
    assert TOY.make_options(2, {"wind": "none"}).wind == "none"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_one_legality_guard_and_one_factory_for_every_game(name):
    """``apply``'s guard, ``make_options`` and ``new_match`` are the base class's, not a copy per
    game: an illegal action (or any action once the match is over) raises and changes nothing."""
    game = GAMES[name]
    assert type(game).make_options is Game.make_options and type(game).new_match is Game.new_match
    state = game.new_match(game.make_options(game.default_players), 3)
    assert type(state).apply is State.apply and type(state).legal_actions is State.legal_actions
    before = len(state.events)
    with pytest.raises(IllegalActionError, match="illegal action 'no such move'"):
        state.apply("no such move")
    assert len(state.events) == before
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply("roll")
