"""What a person at the table reads at their turn (``arena play GAME human ...``, and the page of
``--browser``): each game says the seat's observation in its own words (seat_text.py in the
game's folder), one representative text per game."""
from __future__ import annotations

import random

import pytest

from arena.game import Game, describe_fields
from arena.games import GAMES, get_game


def test_block_says_the_chain_its_ends_and_the_hand_with_its_pips():
    obs = {"seat": 1, "num_players": 2, "target": 100, "scores": [12, 30], "deal": 3, "leader": 0,
           "to_move": 1, "hand": ["0-0", "2-3", "6-6"], "hand_sizes": [4, 3], "set_aside": 14,
           "chain": ["4-1", "1-1", "1-6"], "ends": [4, 6], "plays": [[0, "1-1"], [1, "1-4:L"], [0, "1-6:R"]]}
    assert get_game("block").describe_observation(obs) == [
        "Deal 3; scores before it: seat 0 12, seat 1 (you) 30; the match ends at 100.",
        "Chain, left to right: 4-1 1-1 1-6; open ends 4 (left) and 6 (right).",
        "This deal: seat 0 played 1-1, seat 1 (you) played 1-4:L, seat 0 played 1-6:R.",
        "Other hands: seat 0 4 tiles; 14 tiles set aside, face down.",
        "Your hand: 0-0 2-3 6-6 (3 tiles, 17 pips).",
    ]


def test_domino_cribbage_says_the_starter_the_count_and_the_crib():
    obs = {"seat": 0, "num_players": 2, "target": 61, "scores": [7, 9], "hand_no": 2, "dealer": 0,
           "phase": "play", "to_move": 0, "hand": ["0-4", "3-3"], "discard": ["2-4", "2-6"],
           "crib_size": 4, "hand_sizes": [2, 2], "starter": "6-6", "count": 19,
           "sequence": ["6-6", "0-5", "1-1"], "said_go": [False, True], "pegging": [0, 2], "heels": 2,
           "plays": [[1, "0-5", 17], [0, "1-1", 19]], "played": [["1-1"], ["0-5"]], "history": []}
    assert get_game("domino-cribbage").describe_observation(obs) == [
        "Hand 2; you deal: the crib is yours.",
        "Scores: seat 0 (you) 7, seat 1 9; the first to 61 wins.",
        "Starter: 6-6 (heels: 2 to the dealer).",
        "Count: 19 (tiles of this count: 6-6 0-5 1-1); go said by seat 1.",
        "Played this hand: seat 0 (you) 1-1; seat 1 0-5.",
        "Points of the play this hand: seat 0 (you) 0, seat 1 2.",
        "In the crib: 4 tiles, yours 2-4 2-6.",
        "Seat 1 holds 2 tiles.",
        "Your hand: 0-4 3-3.",
    ]


def test_dice_1000_says_the_rolls_the_dice_kept_and_the_turn_total():
    obs = {"seat": 0, "num_players": 2, "to_move": 0, "first": 1, "round": 4, "scores": [120, 880],
           "opened": [True, True], "bolts": [1, 0], "on_barrel": [False, True], "barrel_attempts": [0, 1],
           "falls": [0, 0], "entry": [75, 90], "open_points": [0, 0], "turns": [4, 4],
           "turn": {"seat": 0, "number": 4, "total": 35, "dice_left": 1, "rolls": [
               {"faces": [1, 5, 4, 3, 2], "kept": [1, 5], "points": 15, "turn_total": 15, "dice_left": 3},
               {"faces": [5, 1, 3], "kept": [5, 1], "points": 15, "turn_total": 30, "dice_left": 1}]},
           "last_turn": {"seat": 1, "turn": 4, "outcome": "bust", "turn_total": 40}}
    assert get_game("dice-1000").describe_observation(obs) == [
        "Round 4; scores: seat 0 (you) 120, seat 1 880.",
        "On the barrel: seat 1 (attempts used 1).",
        "Bolts: seat 0 (you) 1.",
        "Last turn: seat 1 went bust with 40.",
        "Roll 1: 1 5 4 3 2; kept 1 5 for 15.",
        "Roll 2: 5 1 3; kept 5 1 for 15.",
        "Your turn total: 35; 1 die to roll next.",
    ]


def test_thousand_says_the_contract_the_trick_and_the_hand_by_suit():
    game = get_game("thousand")
    state = game.new_match(game.make_options(3), 0)
    obs = {**state.observation(state.current_player()),
           "seat": 2, "phase": "play", "dealer": 0, "forehand": 1, "scores": [40, -120, 310],
           "bolts": [0, 2, 0], "declarer": 1, "contract": 140, "how": "auction", "prikup_shown": True,
           "prikup": ["QC", "TC", "AC"], "received": "9C", "trump": "H", "trick_no": 3, "leader": 1,
           "trick": [[1, "AS"], [2, "9S"]], "tricks_won": [0, 2, 0], "card_points": [0, 35, 0],
           "marriages": [[1, "H", 100]], "hand": ["KD", "TD", "9C", "JS", "AH"], "hand_sizes": [6, 5, 5]}
    assert game.describe_observation(obs) == [
        "Deal 1; seat 0 deals, seat 1 is forehand.",
        "Totals: seat 0 40, seat 1 -120, seat 2 (you) 310.",
        "Seat 1 has 2 bolts.",
        "Contract: seat 1 plays 140.",
        "Prikup taken: QC TC AC (shown to all).",
        "You received 9C from the declarer.",
        "Trump: hearts. Tricks won: seat 0 0, seat 1 2, seat 2 (you) 0; card points: seat 0 0, "
        "seat 1 35, seat 2 (you) 0.",
        "Marriage: seat 1 declared hearts for 100.",
        "Trick 3, led by seat 1: seat 1 AS, seat 2 (you) 9S.",
        "Cards held: seat 0 6, seat 1 5.",
        "Your hand: hearts A; diamonds 10 K; clubs 9; spades J (5 cards).",
    ]


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_every_games_text_reads_every_observation_of_a_match(game: Game):
    """Every observation a seat meets in a match (random play, a few matches of a few deals or
    rounds) reads as text in the game's words: no field missing or of a surprising shape breaks
    it, and it is not the generic field-by-field dump."""
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_match(game.capped_options(game.default_players, {}, 3), seed)
        while not state.is_terminal():
            obs = state.observation(state.current_player())
            lines = game.describe_observation(obs)
            assert lines and all(isinstance(line, str) and line for line in lines)
            assert lines != describe_fields(obs)
            state.apply(rng.choice(state.legal_actions()))
