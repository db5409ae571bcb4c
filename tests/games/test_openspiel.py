"""OpenSpiel's games as arena games (arena/games/openspiel/): the listing, refusals, the extra's
absence, chance from arena's streams, actions, scores, and every accepted game played at random
through the engine with OpenSpiel's own returns for the same actions and chance outcomes."""
from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.errors import OptionError, UnknownGameError
from arena.game import Chance
from arena.games import get_game, openspiel
from arena.games.openspiel import catalog
from arena.games.openspiel.state import CHANCE, TERMINAL_PLAYER, action_texts, draw, scores_of
from arena.options import options_from_dict

pyspiel = pytest.importorskip("pyspiel")

LONG = 150  # moves after which the random matches of the quick test are capped


def arena(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


# ----- the listing and the registry ----------------------------------------------------------
def test_games_lists_openspiel_games_with_players_and_parameters() -> None:
    code, out = arena("games")
    assert code == 0
    assert "openspiel:leduc_poker: Leduc Poker (OpenSpiel) (rules: docs/games/openspiel.md)" in out
    # players from OpenSpiel's 'players' parameter, 2 to 10; its other parameters are options
    assert "  players: 2 to 10 (default 2); hidden information; chance; can be drawn" in out
    assert "  suit_isomorphism (default false)" in out
    assert "The two suits of a rank count as one card" in out  # described: a chosen game
    assert "OpenSpiel's parameter 'chess960' (OpenSpiel gives no description" in out
    # chinese checkers loads with 2, 3, 4 or 6 players only
    assert "openspiel:chinese_checkers: Chinese Checkers (OpenSpiel)" in out
    assert "  players: 2, 3, 4 or 6 (default 2)" in out
    assert "openspiel:2048" not in out and "openspiel:efg_game" not in out
    assert f"OpenSpiel games: {len(openspiel.accepted())} listed as openspiel:NAME" in out


def test_refused_games_are_one_line_naming_the_game() -> None:
    refused = openspiel.refused()
    assert refused["2048"].startswith("a one-player game")
    assert refused["mfg_garnet"].startswith("a mean-field game")
    assert "not concrete" in refused["efg_game"]
    assert "double-dummy" in refused["bridge_uncontested_bidding"]
    with pytest.raises(UnknownGameError, match=r"^game 'openspiel:2048': a one-player game"):
        get_game("openspiel:2048")
    with pytest.raises(UnknownGameError, match="not an OpenSpiel game"):
        get_game("openspiel:no_such_game")
    code, out = arena("play", "openspiel:blackjack", "bots/random", "bots/random")
    assert code == 2 and out.count("\n") == 1 and "'openspiel:blackjack'" in out


def test_without_the_extra_the_games_say_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog, "pyspiel_module", lambda: None)
    with pytest.raises(UnknownGameError, match=r"pip install 'arena\[openspiel\]'"):
        get_game("openspiel:hex")
    code, out = arena("games")
    assert code == 0 and "openspiel:" not in out.replace("OpenSpiel games (openspiel:NAME)", "")
    assert out.rstrip().endswith("pip install 'arena[openspiel]' (open-spiel 2.0.2, a wheel)")


def test_options_are_checked_by_openspiel_and_player_counts() -> None:
    hex_game = get_game("openspiel:hex")
    assert hex_game.make_options(2, {"board_size": "5"}).parameters() == {"board_size": 5}
    with pytest.raises(OptionError, match="unknown option 'players'"):
        hex_game.make_options(2, {"players": 3})
    with pytest.raises(OptionError, match="openspiel:hex: OpenSpiel refuses these options"):
        hex_game.make_options(2, {"string_rep": "nonsense"})
    kuhn = get_game("openspiel:kuhn_poker")
    assert kuhn.make_options(3).parameters() == {"players": 3}
    assert kuhn.new_match(kuhn.make_options(3), 1).spiel_game.num_players() == 3


def test_every_accepted_games_options_come_back_from_a_record() -> None:
    """A record's (and a bot's hello's) options make the same options again, an option whose
    default is empty text included (bargaining's instances_file, hanabi's observation_type): the
    ospiel bot read them so and crashed in those games."""
    from arena.options import options_to_dict
    for name in openspiel.accepted():
        game = get_game("openspiel:" + name)
        options = game.make_options(game.default_players)
        assert options_from_dict(game, options_to_dict(options)) == options, name


def test_actions_shared_by_two_ids_are_told_apart() -> None:
    assert action_texts([(0, "Pass"), (3, "Bid 1"), (7, "Pass")]) == {"Pass #0": 0, "Bid 1": 3, "Pass #7": 7}
    assert list(action_texts([(2, "b"), (1, "a")])) == ["b", "a"]  # OpenSpiel's order


def test_scores_are_the_returns_or_thousandths() -> None:
    assert scores_of([1.0, -1.0]) == ([1, -1], 1)
    assert scores_of([0.5, -0.25]) == ([500, -250], 1000)


# ----- chance -------------------------------------------------------------------------------
def test_every_chance_outcome_comes_from_the_named_streams() -> None:
    game = get_game("openspiel:leduc_poker")
    options = game.make_options(2)
    for seed in range(5):
        state = game.new_match(options, seed)
        chance = [e for e in state.events if e["type"] == "chance"]
        spiel = game.spiel_game(options, Chance(seed)).new_initial_state()
        for k, event in enumerate(chance):  # the k-th outcome: stream ("chance", k), by probability
            u = Chance(seed).stream("chance", k).random()
            assert event["id"] == draw(spiel.chance_outcomes(), u)
            spiel.apply_action(event["id"])
    assert draw([(4, 0.25), (9, 0.75)], 0.2) == 4 and draw([(4, 0.25), (9, 0.75)], 0.25) == 9


def test_a_game_that_samples_chance_itself_takes_its_seed_from_the_streams() -> None:
    game = get_game("openspiel:tarok")
    options = game.make_options(3)
    expected = Chance(11).stream("seed").getrandbits(31)
    assert game.parameters(options, Chance(11))["rng_seed"] == expected
    deals = {str(game.new_match(options, seed).spiel) for seed in (11, 11, 12)}
    assert len(deals) == 2  # the same seed deals the same cards; another seed others


def test_duplicate_luck_in_leduc_poker_every_seat_the_same_cards() -> None:
    """Two matches of a duplicate set (the same seed, other players): each seat is dealt the same
    private card in both, and the same public card where both reach the second round."""
    game = get_game("openspiel:leduc_poker")
    options = game.make_options(2)
    public_compared = 0
    for seed in range(20):
        played = []
        for policy in ("first", "last"):
            state = game.new_match(options, seed)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply(legal[0] if policy == "first" else legal[-1])
            played.append([e["id"] for e in state.events if e["type"] == "chance"])
        a, b = played
        assert a[:2] == b[:2]  # seat 0's card, seat 1's card
        if len(a) == len(b) == 3:
            public_compared += 1
            assert a[2] == b[2]
    assert public_compared >= 5


# ----- every game against OpenSpiel's own returns ---------------------------------------------
def play_random(name: str, seed: int, cap: int | None) -> None:
    """A random match of ``openspiel:name`` through arena's engine, and OpenSpiel's own loop over
    the same actions and chance outcomes: the same end, the same returns, arena's ranks by them."""
    game = get_game("openspiel:" + name)
    options = game.make_options(game.default_players, {} if cap is None else {"move_cap": cap})
    state = game.new_match(options, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.observation(state.current_player())
        state.apply(rng.choice(state.legal_actions()))
    spiel = game.spiel_game(options, Chance(seed)).new_initial_state()
    ids = [e["id"] for e in state.events if e["type"] in ("chance", "action")]
    for action in ids:  # arena tells chance and the end by OpenSpiel's current player alone
        assert not spiel.is_terminal() and spiel.current_player() != TERMINAL_PLAYER
        assert spiel.is_chance_node() == (spiel.current_player() == CHANCE)
        spiel.apply_action(action)
    assert spiel.is_terminal() == (not any(e["type"] == "capped" for e in state.events))
    assert spiel.is_terminal() == (spiel.current_player() == TERMINAL_PLAYER)
    returns = [float(r) for r in spiel.returns()]
    end = state.events[-1]
    assert end["type"] == "match_end" and end["returns"] == returns
    assert list(state.result().ranks) == [1 + sum(r > mine for r in returns) for mine in returns]


@pytest.mark.parametrize("name, matches", [("leduc_poker", 40), ("goofspiel", 2), ("connect_four", 10),
                                           ("liars_dice", 10)])
def test_facts_kept_per_state_change_no_record_and_no_view(name: str, matches: int,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The tree of facts (state.py's Node: texts, legal actions, who may know each step) only
    saves work: matches played with it, cold and warm, hold the same events, legal actions and
    observations of every seat as matches played without it."""
    game = get_game("openspiel:" + name)
    options = game.make_options(game.default_players)

    def play(seed: int) -> list:
        rng, state, seen = random.Random(seed), game.new_match(options, seed), []
        while not state.is_terminal():
            seen.append((state.legal_actions(), [state.observation(s) for s in range(state.num_players)]))
            state.apply(rng.choice(state.legal_actions()))
        return [seen, state.events, [state.observation(s) for s in range(state.num_players)]]

    cold = [play(seed) for seed in range(matches)]
    warm = [play(seed) for seed in range(matches)]
    monkeypatch.setattr(type(game), "facts", lambda self, spiel_game: None)
    assert [play(seed) for seed in range(matches)] == cold == warm


@pytest.mark.parametrize("name", sorted(catalog.FIXED_ACTION_STRINGS))
def test_actions_found_again_by_player_and_ids_are_openspiels_strings_of_the_state(name: str) -> None:
    """Where arena finds a seat's actions again by the player and the legal ids
    (catalog.FIXED_ACTION_STRINGS; state.py's Tree.menus), they are OpenSpiel's strings of that
    very state, at every decision of random matches, each played twice (the second time from
    what the first kept)."""
    game = get_game("openspiel:" + name)
    options = game.make_options(game.default_players)
    decisions = 0
    for seed in [*range(20), *range(20)]:
        state, rng = game.new_match(options, seed), random.Random(seed)
        assert state.menus is not None
        while not state.is_terminal():
            spiel = state.spiel
            player = spiel.current_player()
            assert state.legal_actions() == list(action_texts(
                [(a, spiel.action_to_string(player, a)) for a in spiel.legal_actions()]))
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
    assert decisions >= 40 and state.menus


def test_a_match_keeps_few_enough_attributes_for_a_shared_layout() -> None:
    """A 30th attribute of the state made every move of connect four about a seventh slower
    (CPython's shared keys of instance dictionaries hold at most 29)."""
    for name, values in (("connect_four", {}), ("leduc_poker", {"hands": 3}), ("goofspiel", {"num_cards": 3})):
        game = get_game("openspiel:" + name)
        state = game.new_match(game.make_options(2, values), 1)
        while not state.is_terminal():
            state.apply(state.legal_actions()[-1])
        assert len(state.clone().__dict__) <= state.MOST_ATTRIBUTES, sorted(state.__dict__)


def test_chance_and_the_end_are_openspiels_player_ids() -> None:
    assert (CHANCE, TERMINAL_PLAYER) == (int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL))


@pytest.mark.parametrize("name", openspiel.accepted())
def test_every_accepted_game_plays_as_openspiel_does(name: str) -> None:
    for seed in (1, 2):
        play_random(name, seed, LONG)


def test_the_chosen_games_play_whole_matches_as_openspiel_does() -> None:
    for name in ("connect_four", "hex", "backgammon", "kuhn_poker", "leduc_poker", "liars_dice",
                 "goofspiel", "gin_rummy"):
        play_random(name, 3, None)


# ----- through the command line and the sandbox -----------------------------------------------
@pytest.mark.parametrize("name", openspiel.accepted())
def test_arena_play_with_sandboxed_random_bots_matches_openspiel(name: str, tmp_path) -> None:
    """Every accepted game through the command line: ``arena play`` with the bundled random bot
    in its sandbox at every seat (capped at LONG moves), the record's steps played again by
    OpenSpiel's own loop to the same end and the same returns."""
    from arena.record import MatchRecord
    from tests.conftest import BOTS
    game = get_game("openspiel:" + name)
    record_path = tmp_path / "match.json"
    bots = [str(BOTS / "random")] * game.default_players
    code, out = arena("play", game.name, *bots, "--seed", "6", "-o", f"move_cap={LONG}", "--replay", str(record_path))
    assert code == 0, out
    assert "[ok]" in out and "returns: random#0" in out
    record = MatchRecord.from_json(record_path.read_text())
    spiel = game.spiel_game(options_from_dict(game, record.options), Chance(6)).new_initial_state()
    steps = [e for e in record.events if e["type"] in ("chance", "action")]
    for event in steps:
        spiel.apply_action(event["id"])
    assert spiel.is_terminal() == (not any(e["type"] == "capped" for e in record.events))
    assert [float(r) for r in spiel.returns()] == record.events[-1]["returns"]
    assert [e["action"] for e in steps if e["type"] == "action"] == [d["action"] for d in record.decisions]


def test_a_person_plays_a_seat_and_sees_only_their_own_card() -> None:
    from tests.cli.test_human import ALWAYS_ONE, RANDOM
    from tests.cli.test_human import arena as run
    result = run("play", "openspiel:kuhn_poker", "human", RANDOM, "--seed", "2", stdin=ALWAYS_ONE)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    mine, theirs = [line for line in out.splitlines() if line.startswith("  chance: ")][:2]
    assert mine != "  chance: ?" and theirs == "  chance: ?"  # seat 1's card is face down
    assert "  information state: " in out and "history (OpenSpiel action ids, ? where you may not know): " in out
    state = get_game("openspiel:kuhn_poker").new_match(get_game("openspiel:kuhn_poker").make_options(2), 2)
    their_card = state.events[1]["outcome"]
    assert their_card not in out.split("result:")[0].replace(mine, "")


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_duplicate_tournament_of_leduc_poker_deals_each_seat_the_same_cards_in_turn(tmp_path) -> None:
    """A real tournament with duplicate deals (two entrants, each set played in both seats): the
    matches of a set share the seed, and each entrant is dealt, in its turn in each seat, the card
    that seat gets in the other match of the set."""
    from tests.conftest import BOTS
    from tournaments.backends import SerialBackend
    from tournaments.config import parse_config
    from tournaments.run import prepare, run_tournament
    from tournaments.store import Store
    config = parse_config({
        "name": "Leduc", "game": "openspiel:leduc_poker", "seed": 3,
        "entrants": [str(BOTS / "random"), {"path": str(BOTS / "random"), "name": "random-2"}],
        "format": {"players": 2, "rounds": 3, "duplicate": True},
        "ratings": {"draw_probability": 0.1},
    }, base_dir=tmp_path, source="test", stem="leduc")
    out = tmp_path / "out"
    run_tournament(prepare(config, out), backend=SerialBackend(), progress=False, say=lambda _: None)
    with Store.open(out) as store:
        rows = store.matches.all()
        sets: dict[int, list] = {}
        for row in rows:
            sets.setdefault(row.seed, []).append(row)
        assert len(sets) == 3 and all(len(pair) == 2 for pair in sets.values())
        for a, b in sets.values():
            assert a.seats == tuple(reversed(b.seats))  # each entrant in each seat once
            cards = [[e["id"] for e in store.matches.record(r.id).events if e["type"] == "chance"][:2] for r in (a, b)]
            assert cards[0] == cards[1]  # seat s holds the same card in both matches
            holder = {(r.seats[s], cards[0][s]) for r in (a, b) for s in (0, 1)}
            assert len(holder) == 4  # so each entrant held both cards of the deal, one in each match
