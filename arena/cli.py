"""The ``arena`` command: thin click commands that parse, call and print.

This module builds the whole CLI: its own commands, and those that the packages above it declare
in ``pyproject.toml`` (the ``arena.commands`` entry point), added at the end.
"""
from __future__ import annotations

import dataclasses
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import click

from arena.bots import BotSpec, bundled_bots, find_bot
from arena.browser import Table, serving, table_page
from arena.clihelp import CONTEXT, SentenceGroup
from arena.errors import ArenaError
from arena.game import Game
from arena.games import GAMES, get_game, openspiel
from arena.human import HUMAN, Asked, Person
from arena.options import field_choices, field_doc, option_fields, options_to_dict, parse_assignments
from arena.outputs import check_output_file
from arena.record import OK, MatchRecord, outcome
from arena.referee import MatchStopped, TimeControl, play_match
from arena.sandbox import Limits
from arena.text import visible, visible_line


class ArenaGroup(SentenceGroup):
    """Turns a user's mistake (:class:`ArenaError`) into one clear line and exit code 2."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except ArenaError as exc:
            click.echo(f"arena: error: {visible(exc)}", err=True)
            ctx.exit(2)


@click.group(cls=ArenaGroup, context_settings=CONTEXT)
@click.version_option(package_name="arena")
def cli() -> None:
    """Run bots that play table games against each other, fairly and safely."""


@cli.command()
@click.argument("game_name", metavar="[GAME]", required=False)
def games(game_name: str | None) -> None:
    """List the games: player counts, what kind of game each is, and every rule option."""
    for game in ([get_game(game_name)] if game_name else [*GAMES.values(), *openspiel.listing()]):
        click.echo("\n".join(describe_game(game)))
    if not game_name:
        click.echo(openspiel.summary())


@cli.command()
@click.argument("game_name", metavar="[GAME]", required=False)
def bots(game_name: str | None) -> None:
    """List the bundled bots (those that play GAME, when given): the name that enters each (in
    `arena play`, `arena check` and a tournament's entrants, where no folder of that name is
    there), its games and its folder."""
    game = get_game(game_name).name if game_name else None
    found = bundled_bots(game)
    rows = [(bot.path.name, ", ".join(bot.games) if bot.games else "any game", str(bot.path))
            for bot in found]
    widths = [max((len(row[i]) for row in rows), default=0) for i in (0, 1)]
    for name, games, folder in rows:
        click.echo(visible_line(f"{name:<{widths[0]}}  {games:<{widths[1]}}  {folder}"))


def describe_game(game: Game) -> list[str]:
    """What ``arena games`` prints for one game."""
    default = game.make_options(game.default_players)
    kind = [("hidden information" if game.hidden_information else "no hidden information"),
            ("chance" if game.chance else "no chance"),
            ("can be drawn" if game.can_draw else "cannot be drawn")]
    lines = [f"{game.name}: {game.title} (rules: {game.rules_doc})",
             f"  players: {game.players_text()} (default {game.default_players}); "
             + "; ".join(kind)
             + f"; a match lasts at most {game.length_cap(default)} {game.length_unit}"]
    preset_field = getattr(game.Options, "PRESET_FIELD", None)
    for f in option_fields(game.Options):
        if f.name == "num_players":
            continue
        choices = field_choices(f)
        extra = f"; one of {', '.join(_show(f, c) for c in choices)}" if choices else ""
        syntax = f.metadata.get("syntax")
        if syntax:
            extra += f"; written like {syntax}"
        lines.append(f"  {f.name} (default {_defaults(game, f)}{extra})")
        lines.append(f"      {field_doc(f)}")
        if f.name == preset_field:
            for name, values in getattr(game.Options, "PRESETS", {}).items():
                shown = ", ".join(f"{k}={_show_value(v)}" for k, v in values.items()) or "the defaults"
                lines.append(f"      {name}: {shown}")
    return lines


def _defaults(game: Game, f: dataclasses.Field) -> str:
    """The default of an option, per player count when it depends on it."""
    by_count: dict[str, list[int]] = {}
    for n in sorted(game.player_counts):
        by_count.setdefault(_show(f, getattr(game.make_options(n), f.name)), []).append(n)
    if len(by_count) == 1:
        text = next(iter(by_count))
    else:
        text = ", ".join(f"{v} with {_counts(ns)} players" for v, ns in by_count.items())
    rule = f.metadata.get("default_doc")
    return f"{text}: {rule}" if rule else text


def _counts(ns: list[int]) -> str:
    if len(ns) > 2 and ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]}-{ns[-1]}"
    return " or ".join(map(str, ns))


def _show(f: dataclasses.Field, value: Any) -> str:
    show = f.metadata.get("show")
    return show(value) if show is not None else _show_value(value)


def _show_value(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _time_control(text: str | None) -> TimeControl:
    return TimeControl.parse(text) if text else TimeControl()


@cli.command()
@click.argument("game_name", metavar="GAME")
@click.argument("bot_paths", metavar="BOT...", nargs=-1, required=True)
@click.option("--seed", type=int, default=0, show_default=True,
              help="The seed of every shuffle: the same seed gives the same deals.")
@click.option("--option", "-o", "option_items", multiple=True, metavar="KEY=VALUE",
              help="Set a rule option (repeatable); `arena games` lists them.")
@click.option("--time-control", "-t", metavar="MOVE+BANK",
              help="Give each move MOVE seconds for free and each bot a bank of BANK seconds for "
                   "the match, e.g. 1+10 (the default); both are required (1+0: no bank).")
@click.option("--limits", "limits_text", metavar="KEY=VALUE,...",
              help="Set sandbox limits, e.g. memory_mb=512,cpu_seconds=10 (docs/sandbox.md lists "
                   "them).")
@click.option("--replay", "replay_path", metavar="FILE",
              help="Write the match record as JSON to this file.")
@click.option("--view", "view", is_flag=True,
              help="Write the match's replay as one HTML page to open from disk: beside the "
                   "--replay record (FILE.json gives FILE.html), or GAME-seedN.html in the current "
                   "folder without --replay.")
@click.option("--browser", is_flag=True,
              help="Play the human seats in a web browser: prints one address per human seat "
                   "(served on 127.0.0.1 while the match lasts); its page draws what that seat may "
                   "know and offers its legal actions as buttons.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, metavar="PORT",
              help="With --browser: serve on this port (default: a free one).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result.")
def play(game_name: str, bot_paths: tuple[str, ...], seed: int, option_items: tuple[str, ...],
         time_control: str | None, limits_text: str | None, replay_path: str | None,
         view: bool, browser: bool, port: int, quiet: bool) -> None:
    """Play one match of GAME between the bots in the given folders (or bundled bots by name,
    `arena bots`); print it move by move.

    A seat given as `human` is played by you: at each of its turns you see what it may know and
    the legal actions, numbered, and type a number or an action's text (the end of the input
    resigns; a bot folder called human is `./human`). With --browser each human seat is played
    on a page of its own instead, at the address printed: closing the page does not end the
    match (open it again), its Resign button resigns, Ctrl-C here stops the match; without
    --time-control a person has no clock."""
    if replay_path:
        check_output_file(replay_path, "--replay")
    game = get_game(game_name)
    if view:  # checked before the match, as --replay is
        write_view = _viewer()
        view_page = _view_page(replay_path, game.name, seed)
        check_output_file(view_page, "--view")
    if browser:
        if HUMAN not in bot_paths:
            raise ArenaError("--browser is for a person at the table: give `human` as one of the seats")
        page_of = table_page()
    if len(bot_paths) not in game.player_counts:
        raise ArenaError(f"{game.name} is played by {game.players_text()} players; "
                         f"got {len(bot_paths)} bots")
    limits = Limits.parse(limits_text) if limits_text else Limits()
    bots = [BotSpec(HUMAN, Path(HUMAN), ()) if p == HUMAN else find_bot(p, limits.folder_mb)
            for p in bot_paths]
    for path, bot in zip(bot_paths, bots):
        if path != HUMAN and not bot.plays(game.name):
            raise ArenaError(f"bot {bot.name!r} ({path}) plays {', '.join(bot.games)}, not "
                             f"{game.name}; its manifest says so in 'games'")
    options = game.make_options(len(bots), parse_assignments(option_items))
    _build_first([b for p, b in zip(bot_paths, bots) if p != HUMAN])
    tc = _time_control(time_control)
    names = _seat_names(bots)
    people: dict[int, Asked] = {}
    humans = [i for i, p in enumerate(bot_paths) if p == HUMAN]
    table = None
    if browser:  # a page per seat; the terminal keeps the public log (every hand face down)
        table = Table(game, names, humans, page_of(game.name, f"{game.title}, seed {seed}"),
                      timed=time_control is not None, options=options_to_dict(options),
                      time_control=dataclasses.asdict(tc))
        people = {i: table.person(i) for i in humans}
    elif humans:  # one input: one reader for every seat a person plays
        person = Person(sys.stdin.fileno(), sys.stdout, timed=time_control is not None,
                        describe=game.describe_observation, names=names)
        people = {i: person for i in humans}
    seen_by = set() if browser else set(people)
    click.echo(f"{game.title}, seed {seed}: " + ", ".join(f"seat {i} {n}" for i, n in enumerate(names)))

    notes: list[str] = []  # the note of the decision whose action event comes next

    def noted(decision: dict) -> None:
        if table is not None:
            table.decided(decision)
        if "note" in decision:
            notes.append(f"note: {visible_line(decision['note'])}")
        elif "note_dropped" in decision:
            notes.append(f"note dropped: {decision['note_dropped']}")

    def show(event: dict) -> None:
        if table is not None:
            table.event(event)
        if people:  # a person at the table sees only what their seats may know
            event = game.seen_by(event, seen_by)
        line = game.describe(event, names)
        if event.get("type") == "action" and notes:
            line = f"{line}   [{notes.pop()}]" if line else f"  [{notes.pop()}]"
        if line and not quiet:
            click.echo(line)

    def match() -> MatchRecord:
        try:
            return play_match(game, bots, options=options, seed=seed, time_control=tc,
                              limits=limits, on_event=show, on_decision=noted, people=people)
        except MatchStopped as stop:
            click.echo(f"\nmatch stopped: {stop.record.stopped}", err=True)
            return stop.record

    if table is None:
        record = match()
    else:
        with serving(table, port) as addresses:
            for seat, address in sorted(addresses.items()):
                click.echo(f"seat {seat} ({names[seat]}): open {address} in a web browser")
            record = match()
            table.finish(record)
            try:  # the pages are told the end, which their seats may not have seen yet
                table.linger()
            except KeyboardInterrupt:
                pass
    _print_result(record, names)
    if replay_path:
        Path(replay_path).write_text(record.to_json(indent=1), encoding="utf-8")
        click.echo(f"match record written to {replay_path}")
    if view:
        write_view(record, view_page)
        click.echo(f"replay page written to {view_page} (open it in a web browser)")
    if record.stopped:
        sys.exit(130)  # as a program stopped by Ctrl-C


def _view_page(replay_path: str | None, game: str, seed: int) -> Path:
    """Where ``--view`` writes: the record's name with ``.html``, or ``GAME-seedN.html`` here."""
    if not replay_path:
        return Path(f"{game}-seed{seed}.html")
    page = Path(replay_path).with_suffix(".html")
    return page if page != Path(replay_path) else Path(f"{replay_path}.html")


def _viewer():
    """The one-match page writer, ``write_view(record, page)``: arena imports no layer above it,
    so the reports package offers it through the ``arena.viewers`` entry point
    (``pyproject.toml``), as it offers its commands."""
    for entry in entry_points(group="arena.viewers", name="html"):
        return entry.load()
    raise ArenaError("--view needs arena's reports package, which writes the page (the "
                     "'arena.viewers' entry point 'html'); reinstall arena with it")


def _build_first(bots) -> None:
    """Build the bots that have a build step (cached); a failed build is one clear line, exit 1."""
    from arena.checker import build_first

    for bot in {b.path: b for b in bots}.values():
        if bot.build:
            problem = build_first(bot, click.echo)
            if problem:
                click.echo(f"{bot.name}: {problem}", err=True)
                sys.exit(1)


def _seat_names(bots) -> list[str]:
    """Bot names, made unique by seat when the same bot plays itself."""
    names = [visible_line(b.name) for b in bots]  # bot text: no terminal escapes
    return [f"{n}#{i}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def _print_result(record, names: list[str]) -> None:
    click.echo(f"result: {outcome(record.ranks, names, [s.status for s in record.statuses])}")
    for i, name in enumerate(names):
        st = record.statuses[i]
        status = st.status if st.status == OK else f"{st.status.upper()}: {visible_line(st.reason)}"
        click.echo(f"  rank {record.ranks[i]}  {name}  score {record.scores[i]}  [{status}]")
        if st.status != OK and st.stderr_tail.strip():
            tail = visible(st.stderr_tail).strip().splitlines()[-5:]
            click.echo("    its stderr ended with:\n" + "\n".join(f"      {line}" for line in tail))


_LANGUAGE_NAMES = {"python": "python", "py": "python", "python3": "python", "c": "c",
                   "javascript": "javascript", "js": "javascript", "node": "javascript",
                   "nodejs": "javascript", "rust": "rust", "rs": "rust"}


def _language(text: str) -> str:
    try:
        return _LANGUAGE_NAMES[text.lower()]
    except KeyError:
        raise click.BadParameter(f"{text!r} is not a kit language; choose python, c, javascript "
                                 "or rust") from None


@cli.command("new-bot")
@click.argument("folder", metavar="FOLDER")
@click.option("--game", "game_name", metavar="GAME", required=True,
              help="Write a bot for this game (`arena games` lists them).")
@click.option("--lang", "lang", default="python", show_default=True, metavar="LANG",
              callback=lambda _c, _p, v: _language(v),
              help="Write the bot in this language: python, c, javascript (or js, node) or rust.")
@click.option("--name", metavar="NAME", help="Give the bot this name (default: the folder's name).")
def new_bot(folder: str, game_name: str, lang: str, name: str | None) -> None:
    """Write a working starter bot into a new FOLDER: manifest, code and a README that explains the
    game's observation and actions."""
    from arena.kits import LANGUAGES, missing_tools, write_kit

    game = get_game(game_name)
    write_kit(folder, game, lang, name)
    language = LANGUAGES[lang]
    click.echo(f"a {language.title} bot for {game.title} is in {folder}; the rule to replace is "
               f"choose() in {folder}/{language.code} (README.md explains the observation)")
    missing = missing_tools(lang)
    if missing:
        click.echo(f"note: {', '.join(missing)} not found under /usr; install the Debian packages "
                   f"{' '.join(language.packages)}")
    click.echo(f"try it: arena check {folder} --game {game.name}")


def _add_commands_of_other_layers() -> None:
    """The commands of the packages above this one (tournaments, reports) join the main group
    through the ``arena.commands`` entry point (``pyproject.toml``): arena imports none of them."""
    for entry in entry_points(group="arena.commands"):
        cli.add_command(entry.load(), entry.name)


_add_commands_of_other_layers()


def main() -> None:
    cli(prog_name="arena")
