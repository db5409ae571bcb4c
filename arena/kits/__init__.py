"""Starter kits: ``arena new-bot DIR --game GAME --lang LANG`` writes a working bot folder.

Each language's kit is a folder of templates here (``python/``, ``c/``, ``javascript/``,
``rust/``): a manifest, the code (with a small MessagePack codec where the language has none
built in) and nothing that needs a package registry. ``{{name}}``, ``{{game}}`` and ``{{field}}``
(an observation field of the game, ``Game.example_field``) are filled in.
Every kit does the same: it answers the handshake, decodes each observation, plays the first legal
action (the rule the author replaces, in one function ``choose``), logs to stderr and exits at the
end of the match.

The README of a new bot is put together from one text per language (:data:`LANGUAGES`) and one
per game: the game's observation page (``observation.md`` in its folder, which protocol/SPEC.md
§11 links: its observation fields and action notation), so that each game's notation is written
once, for every language.
"""
from __future__ import annotations

import shutil
import textwrap
from dataclasses import dataclass
from pathlib import Path

from arena.bots import name_problem
from arena.errors import ArenaError
from arena.game import Game
from arena.outputs import check_output_folder

KITS = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Language:
    """What a bot author needs to know about one kit."""

    key: str
    title: str
    code: str                  # the file holding ``choose``
    packages: tuple[str, ...]  # Debian packages of the toolchain (installed under /usr)
    tools: tuple[str, ...]     # programs that must be on the PATH to build and run it
    build_note: str            # how it is built (or that it is not)
    files: str                 # what each file is


LANGUAGES: dict[str, Language] = {lang.key: lang for lang in (
    Language("python", "Python", "main.py", ("python3", "python3-msgpack"), ("python3",),
             "Nothing to build: arena runs `python3 main.py` with the system Python and the arena "
             "SDK (`protocol.sdk`) on its `PYTHONPATH`. In the sandbox a bot can import the "
             "standard library, `msgpack`, the Python packages installed under `/usr` on the "
             "machine that plays the matches (Debian's `python3-numpy` and the like: ask the "
             "organiser which) and modules in its own folder; nothing from pip in a home folder "
             "or a virtual environment.",
             "- `main.py`: the bot; `choose(observation, legal)` is the function to replace.\n"
             "- `bot.toml`: the manifest (name, command, games)."),
    Language("c", "C", "main.c", ("gcc", "libc6-dev", "make"), ("cc", "make"),
             "arena builds it once per version with `make` (the manifest's `build` step), inside "
             "the sandbox with no network, then runs `./bot`. Build it yourself with `make` to see "
             "compiler errors sooner, and `make clean` before you submit the folder, so that the "
             "build starts from your source.",
             "- `main.c`: the bot; `choose(observation, legal)` is the function to replace.\n"
             "- `mp.c`, `mp.h`: a small MessagePack reader and writer with the framing "
             "(`mp_receive`, `mp_send`, `mp_get`, `mp_at`).\n"
             "- `Makefile`, `bot.toml`: the build and the manifest."),
    Language("javascript", "JavaScript (Node.js)", "main.js", ("nodejs",), ("node",),
             "Nothing to build: arena runs `node main.js` with the system Node.js. There is no "
             "network and no `node_modules` in the sandbox: the MessagePack codec comes with the "
             "kit (`msgpack.js`).",
             "- `main.js`: the bot; `choose(observation, legal)` is the function to replace.\n"
             "- `msgpack.js`: a small MessagePack codec with the framing (`receive`, `send`).\n"
             "- `bot.toml`: the manifest."),
    Language("rust", "Rust", "src/main.rs", ("rustc", "cargo"), ("cargo", "rustc"),
             "arena builds it once per version with `cargo build --release --offline` (the "
             "manifest's `build` step), inside the sandbox with no network, then runs "
             "`./target/release/bot`. Only the standard library is used: no crate registry is "
             "reachable. Use the Debian `rustc` and `cargo` (under `/usr`): a toolchain installed "
             "by rustup under your home folder is not visible inside the sandbox. Delete `target/` "
             "before you submit the folder.",
             "- `src/main.rs`: the bot; `choose(observation, legal)` is the function to replace.\n"
             "- `src/msgpack.rs`: a small MessagePack codec with the framing (`receive`, `send`).\n"
             "- `Cargo.toml`, `Cargo.lock`, `bot.toml`: the build and the manifest."),
)}


def missing_tools(lang: str) -> list[str]:
    """The programs a kit needs that this machine's bots cannot find under /usr."""
    from arena.sandbox.command import SYSTEM_PATH

    return [t for t in LANGUAGES[lang].tools if shutil.which(t, path=SYSTEM_PATH) is None]


def game_section(game: Game) -> str:
    """The game's observation page (``observation.md`` in its folder: observation fields and
    action notation), without its heading."""
    try:
        text = game.observation_page.read_text(encoding="utf-8")
    except FileNotFoundError:
        return (f"The observation and the actions are described in `{game.rules_doc}` "
                "in the arena repository.")
    lines = text.strip().splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return "\n".join(lines).strip()


def readme(game: Game, lang: Language, name: str, folder: str) -> str:
    """The README of a new bot: how to run it, what to change, and the game's notation."""
    setup = " ".join(lang.packages)
    section = game_section(game)
    rules = f"`arena games {game.name}` lists the options and their defaults."
    if not section.startswith("Rules"):
        rules = f"Rules: `{game.rules_doc}` in the arena repository. " + rules
    build_note = textwrap.fill(lang.build_note, 96)
    files = "\n".join(textwrap.fill(line, 96, subsequent_indent="  ")
                      for line in lang.files.splitlines())
    return f"""# {name}: a {game.title} bot in {lang.title}

A starter bot made by `arena new-bot`. It already plays legal moves: it answers the referee's
handshake, reads every observation, plays **the first legal action** and logs to stderr. Replace
that rule with your own in `choose` in `{lang.code}`.

## Run it

Set-up, once per machine (Debian packages, installed under `/usr`, where the sandbox sees them):
`sudo apt-get install {setup}`.

Check it as arena will (every seat, every player count, against the random bot):

    arena check {folder} --game {game.name}

Watch one match: `arena play {game.name} {folder} RANDOM_BOT_FOLDER` (the random bot is `bots/random`
in the arena repository). Then submit the folder as it is, source code and all.

{build_note}

## Files

{files}

## How the bot talks to the referee

Messages are MessagePack maps in frames (a 4-byte big-endian length, then the map) on stdin and
stdout; the kit does this for you. stdout belongs to the protocol: anything else written there
ends the match, so log to **stderr** (arena keeps its last 16 KiB and `arena check` shows the last
lines). The first message, `hello`, carries the game's options (`hello.options`), your seat and
the players' names; they are sent only there. Every `act` then carries `decision` (the number of
the decision in the match, over all seats), the `observation` (everything your seat may know) and
`legal` (the actions you may play, never empty). Answer with exactly one string of `legal`. After
`end`, exit with status 0. The whole protocol: `protocol/SPEC.md` in the arena repository.

To say why you chose an action, send a `note` (a string, at most 256 bytes) with it: the match
record keeps it beside the decision, `arena play` prints it beside the move and the replay shows
it. `{lang.code}` shows how in a comment where it answers.

## {game.title}: the observation and the actions

{rules}

{section}
"""


def write_kit(folder: str | Path, game: Game, lang: str, name: str | None = None) -> Path:
    """Write a new bot folder for ``game`` in ``lang``; returns it. The folder must not exist
    (or be empty)."""
    if lang not in LANGUAGES:
        raise ArenaError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    target = Path(folder)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ArenaError(f"{str(target)!r} already exists and is not an empty folder")
    name = name or target.resolve().name
    problem = name_problem(name)
    if problem:
        raise ArenaError(f"{problem}; give one with --name")
    check_output_folder(target, "bot folder")
    source = KITS / lang
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.rglob("*")):
        if "__pycache__" in path.parts:
            continue
        dest = target / path.relative_to(source)
        if path.is_dir():
            dest.mkdir(exist_ok=True)
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_text(encoding="utf-8")
        text = text.replace("{{name}}", name).replace("{{game}}", game.name)
        dest.write_text(text.replace("{{field}}", game.example_field), encoding="utf-8")
    (target / "README.md").write_text(readme(game, LANGUAGES[lang], name, str(folder)),
                                      encoding="utf-8")
    return target
