"""The tournament config: a TOML file checked key by key (docs/tournaments.md describes every key).

Every problem is one :class:`ConfigError` naming the file and the key (``format.rounds``) or the
entrant path at fault. Relative paths in the file are relative to the file's own folder, so a
config means the same thing whatever the working directory.
"""
from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.bots import name_problem
from arena.errors import ArenaError
from arena.game import Game
from arena.games import get_game
from arena.options import check_typed_values
from arena.referee import TimeControl
from arena.sandbox import Limits
from tournaments.formats import DEFAULT, FORMATS, format_of
from tournaments.formats.protocol import (
    COMMON_KEYS,
    DEFAULT_MAX_TABLES,
    DEFAULT_SUSPEND_AFTER,
    ConfigError,
    Format,
    FormatConfig,
)


@dataclass(frozen=True)
class Key:
    """One key of a TOML table: its allowed types, its default and what it means."""

    name: str
    types: tuple[type, ...]
    default: Any
    doc: str
    required: bool = False


def _keys(*keys: Key) -> dict[str, Key]:
    return {k.name: k for k in keys}


TOP_KEYS = _keys(
    Key("name", (str,), None, "Title of the tournament; default: the config file's name."),
    Key("game", (str,), None, "Registered game name (see `arena games`).", required=True),
    Key("seed", (int,), None, "Tournament seed: every schedule choice and every deal derives from "
                              "it. A secret: default a random one, kept in the store."),
    Key("workers", (int,), 0, "Matches played at once in worker processes; 0 = as many as there "
                              "are cores for them (cores / cores_per_match)."),
    Key("cores_per_match", (int,), 1, "Cores of its own for each match in play (its worker and its "
                                      "bots run only there); 0 = no pinning."),
    Key("cluster", (str,), None, "Address of a Dask scheduler (tcp://HOST:8786) to play the matches "
                                 "on instead of local workers (docs/cluster.md)."),
    Key("output", (str,), None, "Output folder holding the store; default: '<config name>-results' "
                                "beside the config file."),
    Key("entrants", (list,), None, "Bot folders (strings or glob patterns) or inline tables "
                                   "{ path = ..., name = ... }.", required=True),
    Key("options", (dict,), {}, "The game's rule options (see `arena games`)."),
    Key("format", (dict,), {}, "The format table."),
    Key("time_control", (dict, str), {}, "Time control: a table or '1+10' (seconds per move + bank)."),
    Key("limits", (dict,), {}, "Sandbox limits of every bot process."),
    Key("ratings", (dict,), {}, "Rating environment."),
    Key("report", (dict,), {}, "What the report publishes."),
    Key("serve", (dict,), {}, "The contest server's settings (arena serve, docs/serve.md)."),
)
FORMAT_KEYS = _keys(
    Key("type", (str,), DEFAULT, "The format: " + ", ".join(repr(f) for f in FORMATS) + "."),
    Key("players", (int,), None, "Seats per table; default: the game's default player count."),
    Key("suspend_after", (int,), DEFAULT_SUSPEND_AFTER,
        "Suspend an entrant whose last this many matches all failed (its seat), until a new "
        "version arrives; 0 = never."),
    # the keys of some formats only (each format names its own: tournaments.formats)
    Key("rounds", (int,), 1, "How many times every table is played, each time with new deals "
                             "(a Swiss system: how many rounds)."),
    Key("duplicate", (bool,), True, "Play each deal once per seat rotation, so every entrant of a "
                                    "table holds every hand."),
    Key("max_tables", (int,), DEFAULT_MAX_TABLES, "Above this many possible tables, play a balanced "
                                                  "sample of about this many."),
    Key("candidates", (list,), [], "The entrants (names or paths as written) that play against "
                                   "the field."),
    Key("elo0", (float, int), None, "The sequential test's Elo difference of H0 (default 0)."),
    Key("elo1", (float, int), None, "The sequential test's Elo difference of H1 (default 50)."),
    Key("alpha", (float, int), None, "The chance of accepting H1 when H0 holds (default 0.05)."),
    Key("beta", (float, int), None, "The chance of accepting H0 when H1 holds (default 0.05)."),
    Key("max_matches", (int,), None, "Stop after this many matches (sequential test: default "
                                     "2000, an even number; adaptive: default 5000)."),
    Key("confidence", (float, int), None, "The confidence at which each pair of neighbours in the "
                                          "ranking is settled (default 0.95)."),
    Key("margin", (float, int), None, "Two neighbours are level when their score rate is shown "
                                      "inside 0.5 ± margin (default 0.05)."),
)
TIME_CONTROL_KEYS = _keys(
    Key("move_ms", (int,), TimeControl().move_ms, "Free thinking time per decision (ms)."),
    Key("bank_ms", (int,), TimeControl().bank_ms, "Per-match bank drawn on beyond move_ms (ms)."),
    Key("startup_ms", (int,), TimeControl().startup_ms, "Time to start and answer the hello (ms)."),
)
RATINGS_KEYS = _keys(
    Key("draw_probability", (float, int), None, "TrueSkill draw probability; default: estimated "
                                                "from seeded random playouts of the game."),
)
ENTRANT_KEYS = _keys(
    Key("path", (str,), None, "Bot folder, or glob pattern.", required=True),
    Key("name", (str,), None, "A folder's name in this tournament (default: its manifest name); "
                              "for a pattern, a name put before the names of the bots it finds."),
    Key("args", (list,), [], "Arguments added to the end of the bot's command (its manifest's "
                             "'command'), e.g. [\"--boldness\", \"1.15\"]."),
    Key("reference", (bool,), False, "A reference (a grade bar): the leaderboard draws a line at "
                                     "it, and it keeps its name in an anonymous report."),
)
REPORT_KEYS = _keys(
    Key("anonymous", (bool,), False, "Publish aliases instead of the entrants' names and folders; "
                                     "the mapping is written beside the store."),
)
SERVE_KEYS = _keys(
    Key("host", (str,), "127.0.0.1", "The address arena serve listens on ('0.0.0.0': every "
                                     "network of the machine)."),
    Key("port", (int,), 8000, "The port arena serve listens on; 0 = any free one."),
    Key("base_url", (str,), None, "The address authors reach the server at (behind a reverse "
                                  "proxy: https://contest.example.org/); default: where it listens."),
    Key("open", (bool,), False, "Open sign-up: anyone who reaches the server may choose a name and "
                                "hand in (default: only invited authors)."),
    Key("upload_mb", (int,), 5, "The most an upload may be, as sent (MB)."),
    Key("unpacked_mb", (int,), 50, "The most an upload may unpack to (MB)."),
    Key("files", (int,), 2000, "The most files an upload may hold."),
    Key("upload_every_s", (int, float), 60, "Seconds an author waits between two uploads."),
)
# keys that do not change which matches are played
IDENTITY_EXCLUDES = ("workers", "cores_per_match", "output", "cluster", "report", "serve")


@dataclass(frozen=True)
class EntrantRef:
    """An entrant as written in the config: a folder (or glob pattern), an optional name,
    arguments added to its command, and whether its bots are references (grade bars)."""

    path: str
    name: str | None = None
    args: tuple[str, ...] = ()
    reference: bool = False

    def to_dict(self) -> dict[str, Any]:
        """As the store keeps it; ``args`` and ``reference`` only when given, so that a store
        written before entrants had them is still the same tournament."""
        data: dict[str, Any] = {"path": self.path, "name": self.name}
        if self.args:
            data["args"] = list(self.args)
        if self.reference:
            data["reference"] = True
        return data

    @staticmethod
    def from_dict(data: dict[str, Any]) -> EntrantRef:
        return EntrantRef(data["path"], data.get("name"), tuple(data.get("args", ())),
                          bool(data.get("reference", False)))


@dataclass(frozen=True)
class TournamentConfig:
    """A checked tournament config. ``base_dir`` is the folder relative paths are resolved from."""

    name: str
    game: str
    entrants: tuple[EntrantRef, ...]
    format: FormatConfig
    options: dict[str, Any] = field(default_factory=dict)
    time_control: TimeControl = TimeControl()
    limits: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None  # None until prepare() draws one or reads the store's
    workers: int = 0
    cores_per_match: int = 1
    output: str = ""
    draw_probability: float | None = None
    base_dir: Path = Path(".")
    cluster: str | None = None      # Dask scheduler address (tournaments.cluster); None: local
    anonymous: bool = False         # [report] anonymous: aliases instead of names (reports)
    serve: dict[str, Any] = field(default_factory=dict)  # [serve], every key filled in

    def to_dict(self) -> dict[str, Any]:
        """The config as JSON-ready values, every default filled in (the store keeps this)."""
        return {
            "name": self.name, "game": self.game, "seed": self.seed, "workers": self.workers,
            "cores_per_match": self.cores_per_match, "output": self.output,
            "entrants": [e.to_dict() for e in self.entrants],
            "options": dict(self.options),
            "format": {**dataclasses.asdict(self.format), "candidates": list(self.format.candidates)},
            "time_control": dataclasses.asdict(self.time_control),
            "limits": dict(self.limits),
            "ratings": {"draw_probability": self.draw_probability},
            "base_dir": str(self.base_dir),
            "cluster": self.cluster,
            "report": {"anonymous": self.anonymous},
            "serve": dict(self.serve),
        }

    def identity(self) -> dict[str, Any]:
        """What makes two configs the same tournament: all but how and where it runs
        (workers, cores_per_match, output, cluster, base_dir), who is in it (the entrants, a
        gauntlet's candidates: the field may move) and what the report publishes (``[report]``,
        the entrants' ``reference``)."""
        data = self.to_dict()
        for key in (*IDENTITY_EXCLUDES, "base_dir", "entrants"):
            data.pop(key)
        data["format"].pop("candidates")
        data["format"].pop("suspend_after")
        return data

    @staticmethod
    def from_dict(data: dict[str, Any]) -> TournamentConfig:
        """Rebuild a config from :meth:`to_dict` (as the store keeps it)."""
        fmt = dict(data["format"])
        fmt["candidates"] = tuple(fmt.get("candidates", ()))
        return TournamentConfig(
            name=data["name"], game=data["game"], seed=data["seed"], workers=data["workers"],
            cores_per_match=data.get("cores_per_match", 1), output=data["output"],
            entrants=tuple(EntrantRef.from_dict(e) for e in data["entrants"]),
            options=dict(data["options"]), format=FormatConfig(**fmt),
            time_control=TimeControl(**data["time_control"]), limits=dict(data["limits"]),
            draw_probability=data["ratings"].get("draw_probability"),
            base_dir=Path(data["base_dir"]), cluster=data.get("cluster"),
            anonymous=bool(data.get("report", {}).get("anonymous", False)),
            serve=dict(data.get("serve", {})),
        )

    @property
    def output_dir(self) -> Path:
        return (self.base_dir / self.output).resolve()

    def sandbox_limits(self) -> Limits:
        return Limits(**self.limits)

    def describe(self) -> str:
        """One line for people: game, format, seats, rounds."""
        return f"{self.name}: {self.game}, {format_of(self.format.type).describe(self.format)}"


# ----- reading -------------------------------------------------------------------------------

def load_config(path: str | os.PathLike[str]) -> TournamentConfig:
    """Read and check a TOML tournament file."""
    file = Path(path)
    if not file.is_file():
        raise ConfigError(f"tournament config {str(path)!r} does not exist")
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    return parse_config(data, base_dir=file.resolve().parent, source=str(path), stem=file.stem)


def parse_config(data: dict[str, Any], *, base_dir: Path, source: str = "config",
                 stem: str = "tournament") -> TournamentConfig:
    """Check a parsed TOML document; ``source`` names it in error messages."""
    top = _check_table(data, TOP_KEYS, "", source)
    fmt = _check_table(top["format"], FORMAT_KEYS, "format.", source)
    tc_raw = top["time_control"]
    if isinstance(tc_raw, str):
        try:
            time_control = TimeControl.parse(tc_raw)
        except ArenaError as exc:
            raise ConfigError(f"{source}: 'time_control': {exc}") from None
    else:
        tc = _check_table(tc_raw, TIME_CONTROL_KEYS, "time_control.", source)
        try:
            time_control = TimeControl(**tc)
        except ArenaError as exc:
            raise ConfigError(f"{source}: 'time_control': {exc}") from None
    ratings = _check_table(top["ratings"], RATINGS_KEYS, "ratings.", source)
    draw = ratings["draw_probability"]
    if draw is not None and not 0 < draw < 1:
        raise ConfigError(f"{source}: 'ratings.draw_probability' must be between 0 and 1 "
                          f"(exclusive), got {draw!r}")
    limits = _check_limits(top["limits"], source)
    report = _check_table(top["report"], REPORT_KEYS, "report.", source)
    serve = _check_table(top["serve"], SERVE_KEYS, "serve.", source)
    for key in ("upload_mb", "unpacked_mb", "files", "upload_every_s"):
        if serve[key] < 0 or (serve[key] == 0 and key != "upload_every_s"):
            raise ConfigError(f"{source}: 'serve.{key}' must be more than 0, got {serve[key]}")
    if not 0 <= serve["port"] <= 65535:
        raise ConfigError(f"{source}: 'serve.port' must be 0 to 65535, got {serve['port']}")
    entrants = _check_entrants(top["entrants"], source)
    candidates = fmt["candidates"]
    if not all(isinstance(c, str) for c in candidates):
        raise ConfigError(f"{source}: 'format.candidates' must be a list of entrant names or paths")
    kind = _format(fmt["type"], top["format"], source)
    for key, low in (("rounds", 1), ("max_tables", 1), ("suspend_after", 0)):
        if fmt[key] < low:
            raise ConfigError(f"{source}: 'format.{key}' must be at least {low}, got {fmt[key]}")
    if top["workers"] < 0:
        raise ConfigError(f"{source}: 'workers' must be 0 (one per core) or more, got {top['workers']}")
    if top["cores_per_match"] < 0:
        raise ConfigError(f"{source}: 'cores_per_match' must be 0 (no pinning) or more, got "
                          f"{top['cores_per_match']}")
    game = _game(top["game"], source)
    players = fmt["players"] if fmt["players"] is not None else game.default_players
    fields = {"rounds": fmt["rounds"], "duplicate": fmt["duplicate"], "max_tables": fmt["max_tables"],
              "candidates": tuple(candidates)}
    fields.update(kind.check(top["format"], fmt, players, game, source))
    if players not in game.player_counts:
        raise ConfigError(f"{source}: 'format.players' is {players}; {game.name} is played by "
                          f"{game.players_text()} players")
    try:
        check_typed_values(game.Options, top["options"])
        game.make_options(players, top["options"])
    except ArenaError as exc:
        raise ConfigError(f"{source}: [options]: {exc}") from None
    return TournamentConfig(
        name=top["name"] or stem, game=game.name, entrants=entrants,
        format=FormatConfig(type=kind.name, players=players, suspend_after=fmt["suspend_after"],
                            **fields),
        options=dict(top["options"]), time_control=time_control, limits=limits,
        seed=top["seed"], workers=top["workers"], cores_per_match=top["cores_per_match"],
        output=top["output"] or f"{stem}-results",
        draw_probability=float(draw) if draw is not None else None, base_dir=base_dir,
        cluster=_check_cluster(top["cluster"], source), anonymous=report["anonymous"], serve=serve,
    )


def _format(name: str, given: dict[str, Any], source: str) -> Format:
    """The format named by 'format.type'; a key of another format's is refused, naming those
    that take it."""
    try:
        kind = format_of(name)
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    for key in given:
        if key not in COMMON_KEYS and key not in kind.keys:
            takers = [repr(f.name) for f in FORMATS.values() if key in f.keys]
            only = ", ".join(takers[:-1]) + " or " + takers[-1] if len(takers) > 1 else takers[0]
            raise ConfigError(f"{source}: 'format.{key}' is not for type = {kind.name!r}; only "
                              f"type = {only} takes it")
    return kind


def _check_cluster(address: str | None, source: str) -> str | None:
    if address is not None and not address.strip():
        raise ConfigError(f"{source}: 'cluster' is empty; give a Dask scheduler address such as "
                          "'tcp://HOST:8786', or leave the key out to play on this machine")
    return address.strip() if address is not None else None


def _type_name(types: tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", float: "a number", bool: "true or false",
             list: "an array", dict: "a table"}
    return " or ".join(names.get(t, t.__name__) for t in types)


def _value_ok(value: Any, types: tuple[type, ...]) -> bool:
    if isinstance(value, bool):
        return bool in types
    return isinstance(value, types)


def _check_table(data: Any, keys: dict[str, Key], prefix: str, source: str) -> dict[str, Any]:
    """Unknown keys, missing required keys and wrong types are errors naming the full key."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: '{prefix.rstrip('.')}' must be a table")
    for name in data:
        if name not in keys:
            where = f" in [{prefix.rstrip('.')}]" if prefix else ""
            raise ConfigError(f"{source}: unknown key '{prefix}{name}'; known keys{where}: "
                              f"{', '.join(sorted(keys))}")
    out: dict[str, Any] = {}
    for key in keys.values():
        if key.name not in data:
            if key.required:
                raise ConfigError(f"{source}: missing key '{prefix}{key.name}' ({key.doc})")
            out[key.name] = key.default
            continue
        value = data[key.name]
        if not _value_ok(value, key.types):
            raise ConfigError(f"{source}: '{prefix}{key.name}' must be {_type_name(key.types)}, "
                              f"got {type(value).__name__} {value!r}")
        out[key.name] = value
    return out


def _check_limits(data: Any, source: str) -> dict[str, Any]:
    """Sandbox limits are the fields of ``arena.sandbox.Limits``, typed like their defaults."""
    fields = {f.name: f for f in dataclasses.fields(Limits)}
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: 'limits' must be a table")
    defaults = Limits()
    for name, value in data.items():
        if name not in fields:
            raise ConfigError(f"{source}: unknown key 'limits.{name}'; known keys in [limits]: "
                              f"{', '.join(sorted(fields))}")
        default = getattr(defaults, name)
        if default is not None:
            types: tuple[type, ...] = (type(default),) if type(default) is not float else (float, int)
            if not _value_ok(value, types):
                raise ConfigError(f"{source}: 'limits.{name}' must be {_type_name(types)}, "
                                  f"got {type(value).__name__} {value!r}")
    try:
        Limits(**data)
    except (TypeError, ValueError, ArenaError) as exc:
        raise ConfigError(f"{source}: [limits]: {exc}") from None
    return dict(data)


def _check_entrants(data: list[Any], source: str) -> tuple[EntrantRef, ...]:
    refs = []
    for i, item in enumerate(data):
        if isinstance(item, str):
            refs.append(EntrantRef(item))
        elif isinstance(item, dict):
            entry = _check_table(item, ENTRANT_KEYS, f"entrants[{i}].", source)
            problem = name_problem(entry["name"]) if entry["name"] is not None else None
            if problem:
                raise ConfigError(f"{source}: 'entrants[{i}].name': {problem}")
            if not all(isinstance(a, str) for a in entry["args"]):
                raise ConfigError(f"{source}: 'entrants[{i}].args' must be a list of strings, "
                                  f"got {entry['args']!r}")
            refs.append(EntrantRef(entry["path"], entry["name"], tuple(entry["args"]),
                                   entry["reference"]))
        else:
            raise ConfigError(f"{source}: 'entrants[{i}]' must be a bot folder path or a table "
                              f"{{ path = ..., name = ..., args = [...] }}, got {item!r}")
    if not refs:
        raise ConfigError(f"{source}: 'entrants' is empty")
    return tuple(refs)


def _game(name: str, source: str) -> Game:
    try:
        return get_game(name)
    except ArenaError as exc:
        raise ConfigError(f"{source}: 'game': {exc}") from None
