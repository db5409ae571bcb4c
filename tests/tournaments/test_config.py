"""The TOML config: defaults, the documented example, and one clear error per kind of bad input."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arena.bots import bundled_bots, load_bot
from arena.games import GAMES
from tournaments.backends import SerialBackend
from tournaments.config import (
    ENTRANT_KEYS,
    FORMAT_KEYS,
    RATINGS_KEYS,
    REPORT_KEYS,
    SERVE_KEYS,
    TIME_CONTROL_KEYS,
    TOP_KEYS,
    ConfigError,
    TournamentConfig,
    load_config,
)
from tournaments.entrants import resolve_entrants, resolve_field
from tournaments.run import prepare, run_tournament
from tournaments.store import ReportSettings, Store

from .conftest import make_bot, small_config, write_config

ROOT = Path(__file__).resolve().parents[2]


def test_the_documented_example_loads_and_schedules() -> None:
    config = load_config(ROOT / "tournaments" / "example.toml")
    prepared = prepare(config)
    assert config.game == "block" and config.format.rounds == 3
    names = [b.name for b in bundled_bots("block")] + ["random-twin"]  # "../bots/*" + the twin
    assert [e.name for e in prepared.entrants] == names
    pairs = len(names) * (len(names) - 1) // 2
    assert len(prepared.schedule) == pairs * 2 * 3  # every pair, both seats, 3 rounds
    assert config.output_dir == ROOT / "tournaments" / "example-results"


def test_the_example_says_what_the_code_does() -> None:
    """Its comments give the defaults the config applies, and it keeps its seed secret (so left
    out: arena draws one)."""
    text = (ROOT / "tournaments" / "example.toml").read_text(encoding="utf-8")
    comments = {}
    key = None
    for line in text.splitlines():
        found = re.match(r"#?\s*(\w+)\s*=[^#]*#\s*(.*)$", line)
        if found:
            key, comments[found[1]] = found[1], found[2]
        elif key and re.match(r"\s+#", line):  # a comment continued on the next line
            comments[key] += " " + line.strip().lstrip("# ")
        else:
            key = None
    assert load_config(ROOT / "tournaments" / "example.toml").seed is None
    assert TOP_KEYS["seed"].default is None and "default: a random one" in comments["seed"]
    assert FORMAT_KEYS["players"].default is None
    assert "default: the game's default player count" in comments["players"]


def test_the_docs_describe_every_key() -> None:
    docs = (ROOT / "docs" / "tournaments.md").read_text(encoding="utf-8")
    for prefix, keys in (("", TOP_KEYS), ("format.", FORMAT_KEYS),
                         ("time_control.", TIME_CONTROL_KEYS), ("ratings.", RATINGS_KEYS),
                         ("report.", REPORT_KEYS), ("serve.", SERVE_KEYS), ("", ENTRANT_KEYS)):
        for key in keys:
            assert f"`{prefix}{key}`" in docs, f"docs/tournaments.md does not describe {prefix}{key}"


def test_defaults_and_relative_paths(tmp_path: Path, bots: dict[str, Path]) -> None:
    path = write_config(tmp_path / "cfg" / "mine.toml",
                        {"game": "block", "entrants": ["../bots/alpha", "../bots/b*"]})
    config = load_config(path)
    assert config.name == "mine" and config.seed is None and config.workers == 0
    assert config.format.players == 2 and config.format.rounds == 1 and config.format.duplicate
    assert config.output_dir == tmp_path / "cfg" / "mine-results"
    assert [b.name for b in resolve_entrants(config)] == ["alpha", "beta"]


def test_without_players_a_tournament_plays_the_games_default_count(tmp_path: Path) -> None:
    for name, game in GAMES.items():
        path = write_config(tmp_path / f"{name}.toml", {"game": name, "entrants": ["a", "b"]})
        assert load_config(path).format.players == game.default_players


def test_an_entrant_adds_arguments_to_its_bots_command(tmp_path: Path, bots: dict[str, Path]) -> None:
    """One folder entered twice, once with arguments: two entrants, one command longer."""
    data = small_config([bots["alpha"], {"path": str(bots["alpha"]), "name": "alpha_bold",
                                         "args": ["--boldness", "1.15"]}, bots["beta"]])
    config = load_config(write_config(tmp_path / "t.toml", data))
    alpha, bold, beta = resolve_entrants(config)
    assert bold.name == "alpha_bold" and bold.path == alpha.path
    assert bold.command == alpha.command + ("--boldness", "1.15")
    assert beta.command == load_bot(bots["beta"]).command
    assert config.to_dict()["entrants"][1]["args"] == ["--boldness", "1.15"]
    assert "args" not in config.to_dict()["entrants"][0]  # a store kept before args matches


def test_a_store_written_before_entrants_had_arguments_is_the_same_tournament(
        tmp_path: Path, bots: dict[str, Path]) -> None:
    config = load_config(write_config(tmp_path / "t.toml", small_config([bots["alpha"], bots["beta"]])))
    stored = config.to_dict()
    for entry in stored["entrants"]:
        assert set(entry) == {"path", "name"}  # what older stores hold
    assert TournamentConfig.from_dict(stored).identity() == config.identity()


def test_what_the_report_publishes_is_not_the_tournament(tmp_path: Path, bots: dict[str, Path]) -> None:
    """[report] and an entrant's reference change no match: the same tournament either way, and
    a run keeps them in the store as the config says them now; a pattern's bots are all
    references, and a folder entered twice is a reference only where its entry says so."""
    pattern = str(bots["alpha"].parent / "[bg]*")  # beta and gamma
    bar = {"path": str(bots["alpha"]), "name": "alpha_bar"}
    plain = small_config([bots["alpha"], bar, pattern])
    marked = small_config([bots["alpha"], {**bar, "reference": True},
                           {"path": pattern, "reference": True}], report={"anonymous": True})
    config = load_config(write_config(tmp_path / "marked.toml", marked))
    assert config.anonymous and config.entrants[2].reference
    assert config.identity() == load_config(write_config(tmp_path / "plain.toml", plain)).identity()
    assert TournamentConfig.from_dict(config.to_dict()) == config
    out = tmp_path / "out"
    run_tournament(prepare(config, out), backend=SerialBackend(), progress=False, say=lambda _: None)
    with Store.open(out) as store:
        settings = store.meta.report_settings()
    assert settings.anonymous and settings.references == (1, 2, 3)  # alpha_bar, beta, gamma
    run_tournament(prepare(load_config(tmp_path / "plain.toml"), out), backend=SerialBackend(),
                   progress=False, say=lambda _: None)  # the same tournament: nothing to play
    with Store.open(out) as store:
        assert store.meta.report_settings() == ReportSettings(False, (), settings.alias_key)


def test_time_control_as_text(tmp_path: Path, bots: dict[str, Path]) -> None:
    data = small_config([bots["alpha"], bots["beta"]], time_control="0.5+3")
    config = load_config(write_config(tmp_path / "t.toml", data))
    assert (config.time_control.move_ms, config.time_control.bank_ms) == (500, 3000)


BAD = [
    ({"colour": "red"}, "unknown key 'colour'; known keys: "),
    ({"format": {"type": "round-robin", "playrs": 3}}, "unknown key 'format.playrs'; known keys in [format]"),
    ({"format": {"rounds": "3"}}, "'format.rounds' must be an integer, got str '3'"),
    ({"format": {"rounds": 0}}, "'format.rounds' must be at least 1"),
    ({"format": {"duplicate": 1}}, "'format.duplicate' must be true or false"),
    ({"format": {"type": "knockout"}}, "'format.type' is 'knockout'; known formats: round-robin, "
                                       "gauntlet"),
    ({"format": {"players": 5}}, "'format.players' is 5; block is played by 2, 3 or 4 players"),
    ({"format": {"type": "gauntlet"}}, "'format.candidates' must name at least one entrant"),
    ({"seed": 1.5}, "'seed' must be an integer, got float 1.5"),
    ({"workers": -1}, "'workers' must be 0 (one per core) or more"),
    ({"cores_per_match": -1}, "'cores_per_match' must be 0 (no pinning) or more"),
    ({"cores_per_match": "all"}, "'cores_per_match' must be an integer, got str 'all'"),
    ({"game": "chess"}, "'game': unknown game 'chess'"),
    ({"options": {"target": "lots"}}, "[options]: option 'target'"),
    ({"options": {"trumps": True}}, "[options]: unknown option 'trumps'"),
    ({"time_control": {"move_ms": 0}}, "'time_control': time control move_ms=0"),
    ({"time_control": {"move": 1}}, "unknown key 'time_control.move'"),
    ({"time_control": "fast"}, "'time_control': time control 'fast'"),
    ({"limits": {"memory_gb": 1}}, "unknown key 'limits.memory_gb'; known keys in [limits]"),
    ({"limits": {"memory_mb": "1G"}}, "'limits.memory_mb' must be an integer"),
    ({"ratings": {"draw_probability": 1.5}}, "'ratings.draw_probability' must be between 0 and 1"),
    ({"entrants": []}, "'entrants' is empty"),
    ({"entrants": [3]}, "'entrants[0]' must be a bot folder path or a table"),
    ({"entrants": [{"name": "x"}]}, "missing key 'entrants[0].path'"),
    ({"entrants": [{"path": "x", "name": "my bot"}]},
     "'entrants[0].name': bot name 'my bot' is not allowed: use 1 to 64 letters"),
    ({"entrants": [{"path": "x", "args": "--bold"}]}, "'entrants[0].args' must be an array, got str"),
    ({"entrants": [{"path": "x", "args": ["--depth", 3]}]},
     "'entrants[0].args' must be a list of strings, got ['--depth', 3]"),
    ({"options": {"target": "100"}},
     "[options]: option 'target' must be an integer, got the string '100' (write it without quotes)"),
    ({"options": {"single_deal": "true"}},
     "[options]: option 'single_deal' must be true or false, got the string 'true'"),
    ({"report": {"anonymus": True}}, "unknown key 'report.anonymus'; known keys in [report]: anonymous"),
    ({"report": {"anonymous": "yes"}}, "'report.anonymous' must be true or false, got str 'yes'"),
    ({"report": True}, "'report' must be a table, got bool True"),
    ({"entrants": [{"path": "x", "reference": 1}]}, "'entrants[0].reference' must be true or false"),
]


@pytest.mark.parametrize("change, message", BAD, ids=[m for _, m in BAD])
def test_bad_config_is_one_clear_error_naming_the_key(tmp_path: Path, bots: dict[str, Path],
                                                      change: dict, message: str) -> None:
    data = small_config([bots["alpha"], bots["beta"]])
    for key, value in change.items():
        if isinstance(value, dict) and key == "format":
            data[key] = {**data[key], **value}
        else:
            data[key] = value
    path = write_config(tmp_path / "t.toml", data)
    with pytest.raises(ConfigError) as info:
        prepare(load_config(path))
    text = str(info.value)
    assert message in text
    assert "\n" not in text and str(path) in text


def test_missing_bot_folder_names_the_path(tmp_path: Path, bots: dict[str, Path]) -> None:
    data = small_config([bots["alpha"], tmp_path / "nowhere"])
    with pytest.raises(ConfigError, match=re.escape("entrants[1]: bot folder")):
        prepare(load_config(write_config(tmp_path / "t.toml", data)))
    data = small_config([bots["alpha"], bots["beta"] / "main.py"])
    with pytest.raises(ConfigError, match=re.escape("main.py' is a file, not a folder; give the "
                                                    "folder that holds bot.toml")):
        prepare(load_config(write_config(tmp_path / "t.toml", data)))
    data = small_config([bots["alpha"], "../nothing/*"])
    with pytest.raises(ConfigError, match=re.escape("pattern '../nothing/*' matches no bot folder")):
        prepare(load_config(write_config(tmp_path / "t.toml", data)))


def test_too_few_entrants(tmp_path: Path, bots: dict[str, Path]) -> None:
    data = small_config([bots["alpha"], bots["beta"]], format={"players": 3})
    with pytest.raises(ConfigError, match=re.escape("2 entrant(s) for tables of 3; a round-robin "
                                                    "needs at least 3")):
        prepare(load_config(write_config(tmp_path / "t.toml", data)))
    data = small_config([bots["alpha"], bots["beta"]],
                        format={"type": "gauntlet", "players": 3, "candidates": ["alpha"]})
    with pytest.raises(ConfigError, match="needs at least 2 entrant"):
        prepare(load_config(write_config(tmp_path / "t.toml", data)))


def test_duplicate_names_and_unknown_candidates(tmp_path: Path, bots: dict[str, Path]) -> None:
    data = small_config([bots["alpha"], bots["alpha"]])
    with pytest.raises(ConfigError, match="two entrants are named 'alpha'"):
        prepare(load_config(write_config(tmp_path / "t.toml", data)))
    data["entrants"] = [str(bots["alpha"]), {"path": str(bots["alpha"]), "name": "alpha-2"}]
    prepared = prepare(load_config(write_config(tmp_path / "t.toml", data)))
    assert [e.name for e in prepared.entrants] == ["alpha", "alpha-2"]
    data = small_config([bots["alpha"], bots["beta"]],
                        format={"type": "gauntlet", "candidates": ["zeta"]})
    with pytest.raises(ConfigError, match="'format.candidates': 'zeta' is not an entrant"):
        prepare(load_config(write_config(tmp_path / "t.toml", data)))


def test_not_toml_and_missing_file(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text("name = ", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(tmp_path / "bad.toml")
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "none.toml")


def test_a_glob_enters_only_the_bots_that_play_the_game(tmp_path: Path) -> None:
    bundled = Path(__file__).resolve().parents[2] / "bots"
    for name in GAMES:
        path = write_config(tmp_path / f"{name}.toml", {"game": name, "entrants": [f"{bundled}/*"]})
        bots = resolve_entrants(load_config(path))
        assert bots and all(not b.games or name in b.games for b in bots)
    path = write_config(tmp_path / "wrong.toml",
                        {"game": "thousand", "entrants": [str(bundled / "greedy"), str(bundled / "random")]})
    with pytest.raises(ConfigError, match=r"entrants\[0\]: bot 'greedy' .* plays block, not thousand"):
        resolve_entrants(load_config(path))


def test_options_are_typed_values_in_toml(tmp_path: Path, bots: dict[str, Path]) -> None:
    """A TOML value has its type; the words of an option's default still stand for it."""
    data = small_config([bots["alpha"], bots["beta"]], options={"target": 100, "hand_size": "default"})
    config = load_config(write_config(tmp_path / "t.toml", data))
    assert config.options["target"] == 100 and config.options["hand_size"] == "default"


def kit(folder: Path, name: str = "mybot") -> Path:
    """A bot folder whose manifest names it ``name`` (as `arena new-bot --name` writes it)."""
    folder.mkdir(parents=True)
    (folder / "main.py").write_text("from protocol.sdk import run\nrun(lambda o, l: l[0])\n")
    (folder / "bot.toml").write_text(f'name = "{name}"\ncommand = "python3 main.py"\n')
    return folder


def names(tmp_path: Path, entrants: list) -> list[str]:
    path = write_config(tmp_path / "t.toml", {"game": "block", "entrants": entrants})
    return [b.name for b in resolve_entrants(load_config(path))]


def test_kits_that_share_a_name_enter_by_their_folders(tmp_path: Path) -> None:
    """Three students' bots all named 'mybot' enter as ana.mybot, bob.mybot, cy.mybot, whether
    the bot is the student's folder or a folder in it."""
    for student in ("ana", "bob", "cy"):
        kit(tmp_path / "students" / student)
        kit(tmp_path / "nested" / student / "mybot")
    assert names(tmp_path, ["students/*"]) == ["ana.mybot", "bob.mybot", "cy.mybot"]
    assert names(tmp_path, ["nested/*/*"]) == ["ana.mybot", "bob.mybot", "cy.mybot"]
    bundled = ROOT / "bots"
    assert names(tmp_path, [f"{bundled}/*"]) == [b.name for b in bundled_bots("block")]


def test_a_bot_keeps_its_name_when_others_join(tmp_path: Path) -> None:
    """A name depends only on the pattern and the bot's own folder: a bot that joins later, with
    the same manifest name, renames no one (the store keeps entrants by name)."""
    kit(tmp_path / "students" / "ana")
    assert names(tmp_path, ["students/*"]) == ["ana.mybot"]
    kit(tmp_path / "students" / "mybot")
    kit(tmp_path / "students" / "zoe")
    kit(tmp_path / "students" / "odd folder!", "other")
    assert names(tmp_path, ["students/*"]) == ["ana.mybot", "mybot", "odd-folder-.other", "zoe.mybot"]


def test_a_name_given_to_a_pattern_goes_before_its_bots_names(tmp_path: Path) -> None:
    kit(tmp_path / "a" / "ana")
    kit(tmp_path / "b" / "ana")
    assert names(tmp_path, ["a/*", {"path": "b/*", "name": "b"}]) == ["ana.mybot", "b.ana.mybot"]


ADVICE = re.compile(r"entrants\[(\d+)\]: two entrants are named .*; (?:give (?:one|the pattern) a "
                    r"name.*: \{ path = (\".*\"), name = \"\.\.\.\" \}|choose another name in "
                    r"entrants\[(\d+)\])$")


@pytest.mark.parametrize("entrants", [
    ["bots/alpha", "bots/alpha"],                              # one folder twice
    ["a/*", "b/*"],                                            # two patterns, the same folders
    ["bots/*", "bots/alpha"],                                  # a pattern and a folder
    ["bots/alpha", "bots/*"],                                  # a folder and a pattern
    ["bots/alpha", {"path": "bots/beta", "name": "alpha"}],    # a name taken
    [{"path": "a/*", "name": "b"}, {"path": "bots/beta", "name": "b.ana.mybot"}],
    [{"path": "bots/beta", "name": "b.ana.mybot"}, {"path": "a/*", "name": "b"}],
], ids=["folder-twice", "patterns", "pattern-folder", "folder-pattern", "name-taken",
        "name-of-a-pattern's-bot", "pattern's-name"])
def test_the_advice_for_two_entrants_of_one_name_works(tmp_path: Path, entrants: list) -> None:
    """Each collision's advice, followed as written (a name in place of "..."), is accepted."""
    make_bot(tmp_path / "bots", "alpha")
    make_bot(tmp_path / "bots", "beta")
    kit(tmp_path / "a" / "ana")
    kit(tmp_path / "b" / "ana")
    for attempt in range(3):
        try:
            names(tmp_path, entrants)
            break
        except ConfigError as exc:
            advice = ADVICE.search(str(exc))
            assert advice, str(exc)
            index = int(advice.group(1))
            assert advice.group(3) in (None, advice.group(1))
            if advice.group(2):
                entrants[index] = {"path": json.loads(advice.group(2)), "name": f"n{attempt}"}
            else:
                entrants[index] = {**entrants[index], "name": f"n{attempt}"}
    else:
        pytest.fail(f"the advice did not lead to a config that loads: {entrants}")
    assert attempt > 0


@pytest.mark.parametrize("key, bad, fixed, message", [
    ("time_control", "1", "1+0", "time control '1': give the bank too, as MOVE+BANK in seconds: "
                                 "'1+10', or '1+0' for no bank"),
    ("cluster", " ", None, "'cluster' is empty; give a Dask scheduler address such as "
                           "'tcp://HOST:8786', or leave the key out"),
    ("options", {"target": "61"}, {"target": 61}, "option 'target' must be an integer, got the "
                                                  "string '61' (write it without quotes)"),
    ("entrants", ["../bots/alpha", 7], ["../bots/alpha", {"path": "../bots/beta", "name": "b"}],
     "'entrants[1]' must be a bot folder path or a table { path = ..., name = ..., args = [...] }"),
])
def test_the_advice_of_a_config_error_works(tmp_path: Path, bots: dict[str, Path], key: str,
                                            bad, fixed, message: str) -> None:
    """An error that says what to write is right: written so, the config loads."""
    data = small_config([bots["alpha"], bots["beta"]])
    data[key] = bad
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_config(write_config(tmp_path / "conf" / "t.toml", data))
    if fixed is None:
        del data[key]
    else:
        data[key] = fixed
    resolve_entrants(load_config(write_config(tmp_path / "conf" / "t.toml", data)))


def test_a_name_made_from_a_long_folder_is_refused_until_the_folder_is_renamed(tmp_path: Path) -> None:
    long = tmp_path / "students" / ("a" * 60)
    kit(long)
    assert names(tmp_path, ["students/*"]) == []                  # skipped, with the reason:
    config = load_config(write_config(tmp_path / "t.toml", {"game": "block", "entrants": ["students/*"]}))
    [skipped] = resolve_field(config).skipped
    assert re.fullmatch(r"bot name .* is not allowed: use 1 to 64 .*; rename its folder", skipped.reason)
    long.rename(tmp_path / "students" / "ana")
    assert names(tmp_path, ["students/*"]) == ["ana.mybot"]
