"""The ``arena`` command: thin click commands that parse, call and print."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click

from arena.bots import load_bot
from arena.errors import ArenaError
from arena.games import GAMES, get_game
from arena.options import field_choices, field_doc, option_fields, parse_assignments
from arena.record import OK
from arena.referee import TimeControl, play_match
from arena.sandbox import Limits
from arena.text import visible, visible_line

BUNDLED_BOTS = Path(__file__).resolve().parent.parent / "bots"


class ArenaGroup(click.Group):
    """Turns a user's mistake (:class:`ArenaError`) into one clear line and exit code 2."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except ArenaError as exc:
            click.echo(f"arena: error: {visible(exc)}", err=True)
            ctx.exit(2)


@click.group(cls=ArenaGroup)
@click.version_option(package_name="arena")
def cli() -> None:
    """Run bots that play table games against each other, fairly and safely."""


@cli.command()
def games() -> None:
    """List the games, their player counts and their rule options."""
    for game in GAMES.values():
        click.echo(f"{game.name}: {game.title}, {game.min_players}-{game.max_players} players "
                   f"(rules: {game.rules_doc})")
        for f in option_fields(game.Options):
            if f.name == "num_players":
                continue
            default = f.default if f.default is not dataclasses.MISSING else None
            shown = "depends on players" if default is None else repr(default)
            choices = field_choices(f)
            extra = f"; one of {', '.join(map(repr, choices))}" if choices else ""
            click.echo(f"  {f.name} (default {shown}{extra})")
            click.echo(f"      {field_doc(f)}")


def _time_control(text: str | None) -> TimeControl:
    return TimeControl.parse(text) if text else TimeControl()


@cli.command()
@click.argument("game_name", metavar="GAME")
@click.argument("bot_paths", metavar="BOT...", nargs=-1, required=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of every shuffle.")
@click.option("--option", "-o", "option_items", multiple=True, metavar="KEY=VALUE",
              help="A rule option (repeatable); see `arena games`.")
@click.option("--time-control", "-t", metavar="MOVE+BANK",
              help="Seconds per move + seconds of bank per match, e.g. 1+10 (default 1+10).")
@click.option("--limits", "limits_text", metavar="KEY=VALUE,...",
              help="Sandbox limits, e.g. memory_mb=512,cpu_seconds=10 (docs/sandbox.md).")
@click.option("--replay", "replay_path", type=click.Path(dir_okay=False, writable=True),
              help="Write the match record as JSON to this file.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result.")
def play(game_name: str, bot_paths: tuple[str, ...], seed: int, option_items: tuple[str, ...],
         time_control: str | None, limits_text: str | None, replay_path: str | None,
         quiet: bool) -> None:
    """Play one match of GAME between the bots in the given folders; print it move by move."""
    game = get_game(game_name)
    if not game.min_players <= len(bot_paths) <= game.max_players:
        raise ArenaError(f"{game.name} needs {game.min_players} to {game.max_players} bots; "
                         f"got {len(bot_paths)}")
    limits = Limits.parse(limits_text) if limits_text else Limits()
    bots = [load_bot(p, limits.folder_mb) for p in bot_paths]
    options = game.make_options(len(bots), parse_assignments(option_items))
    tc = _time_control(time_control)
    names = _seat_names(bots)
    click.echo(f"{game.title}, seed {seed}: " + ", ".join(f"seat {i} {n}" for i, n in enumerate(names)))

    def show(event: dict) -> None:
        line = game.describe(event, names)
        if line and not quiet:
            click.echo(line)

    record = play_match(game, bots, options=options, seed=seed,
                        time_control=tc, limits=limits, on_event=show)
    _print_result(record, names)
    if replay_path:
        Path(replay_path).write_text(record.to_json(indent=1), encoding="utf-8")
        click.echo(f"match record written to {replay_path}")


def _seat_names(bots) -> list[str]:
    """Bot names, made unique by seat when the same bot plays itself."""
    names = [visible_line(b.name) for b in bots]  # bot text: no terminal escapes
    return [f"{n}#{i}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def _print_result(record, names: list[str]) -> None:
    click.echo("result:")
    for i, name in enumerate(names):
        st = record.statuses[i]
        status = st.status if st.status == OK else f"{st.status.upper()}: {visible_line(st.reason)}"
        click.echo(f"  rank {record.ranks[i]}  {name}  score {record.scores[i]}  [{status}]")
        if st.status != OK and st.stderr_tail.strip():
            tail = visible(st.stderr_tail).strip().splitlines()[-5:]
            click.echo("    its stderr ended with:\n" + "\n".join(f"      {line}" for line in tail))


@cli.command()
@click.argument("bot_path", metavar="BOT")
@click.option("--game", "game_name", required=True, help="The game the bot plays.")
@click.option("--matches", default=4, show_default=True, help="Whole matches to play against the random bot.")
@click.option("--time-control", "-t", metavar="MOVE+BANK", help="As for `arena play`.")
@click.option("--limits", "limits_text", metavar="KEY=VALUE,...", help="As for `arena play`.")
def check(bot_path: str, game_name: str, matches: int, time_control: str | None,
          limits_text: str | None) -> None:
    """Check a bot before submitting it: the handshake and whole matches against the random bot."""
    from arena.checker import check_bot

    game = get_game(game_name)
    limits = Limits.parse(limits_text) if limits_text else Limits()
    bot = load_bot(bot_path, limits.folder_mb)
    problems = check_bot(bot, game, matches=matches, time_control=_time_control(time_control),
                         limits=limits, echo=click.echo)
    if problems:
        click.echo(f"\n{visible_line(bot.name)}: {len(problems)} problem(s) found:")
        for p in problems:
            click.echo(f"  - {visible(p)}")
        sys.exit(1)
    click.echo(f"\n{visible_line(bot.name)}: all checks passed; it is ready to submit.")


def _register_extensions() -> None:
    """Commands of the tournaments and reports packages."""
    for module in ("tournaments.cli", "reports.cli"):
        try:
            mod = __import__(module, fromlist=["COMMANDS"])
        except ImportError:
            continue
        for command in getattr(mod, "COMMANDS", []):
            cli.add_command(command)


_register_extensions()


def main() -> None:
    cli(prog_name="arena")
