"""Click commands of tournaments: ``tournament run|replay``, ``ratings``, ``demo`` and ``check``
(which can read a tournament file, so it lives here).

``COMMANDS`` lists them; the main ``arena`` group finds them through the ``arena.commands`` entry
point (pyproject.toml). They stay thin: parse, call, print.
User errors are :class:`arena.errors.ArenaError`, which the main CLI prints as one line.
"""
from __future__ import annotations

import contextlib
import dataclasses
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import click

from arena.bots import bundled_bots, find_bot
from arena.checker import DEFAULT_TIME_CONTROL, CheckPlan, check_bot, describe_plan
from arena.clihelp import SentenceGroup
from arena.errors import ArenaError
from arena.games import DEFAULT_GAME, GAMES, get_game
from arena.options import parse_assignments
from arena.outputs import check_output_file, check_output_folder
from arena.referee import TimeControl
from arena.sandbox import Limits
from arena.text import visible, visible_line
from tournaments.aliases import draw_aliases
from tournaments.config import TournamentConfig, load_config, parse_config
from tournaments.entrants import resolve_field
from tournaments.formats import DEFAULT, format_of
from tournaments.lock import output_lock
from tournaments.ratings import compute_ratings, format_head_to_head, format_leaderboard, in_order
from tournaments.replay import replay_match
from tournaments.run import Prepared, ResultsListener, RunResult, planned_matches, prepare, run_tournament
from tournaments.store import Entrant, Store, Version, store_path
from tournaments.watch import DEFAULT_INTERVAL, DEFAULT_SETTLE, Intake, Watched, watch

DEMO_OUTPUT = "arena-demo"
DEMO_ROUNDS = 4


@click.group("tournament", cls=SentenceGroup)
def tournament() -> None:
    """Run a tournament from a TOML file, or replay one of its matches."""


@tournament.command("run")
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
              help="Play this many matches at once (default: the config's `workers`, else one "
                   "per core, or one per cores_per_match cores).")
@click.option("--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Store the results in this folder (default: the config's `output`).")
@click.option("--quiet", "-q", is_flag=True, help="Show no progress bar.")
@click.option("--cluster", metavar="ADDRESS", default=None,
              help="Play the matches on the Dask cluster whose scheduler is at ADDRESS "
                   "(tcp://HOST:8786) instead of local workers (default: the config's 'cluster'). "
                   "Needs arena[cluster]; see docs/cluster.md.")
@click.option("--watch", "watching", is_flag=True,
              help="Keep running: look at the entrants' folders every --watch-interval seconds, "
                   "check and admit each new or changed bot, play its matches, update the "
                   "report (docs/classroom.md). Ctrl-C stops; running again resumes.")
@click.option("--watch-interval", type=click.FloatRange(min=0.1), default=DEFAULT_INTERVAL,
              show_default=True, help="With --watch: seconds between two looks at the folders.")
@click.option("--settle", type=click.FloatRange(min=0), default=DEFAULT_SETTLE, show_default=True,
              help="With --watch: take a folder only once nothing in it has changed for this "
                   "many seconds (a submission still being copied is not a version).")
def run_command(config: Path, workers: int | None, output: Path | None, quiet: bool,
                cluster: str | None, watching: bool, watch_interval: float, settle: float) -> None:
    """Play every match of CONFIG; run it again to resume after a stop or a crash, or to play
    what new versions and late entrants need."""
    if watching:
        _watch(config, workers, output, quiet, cluster, watch_interval, settle)
        return
    _run(load_config(config), workers, output, quiet, cluster=cluster)


@click.command("ratings")
@click.argument("output", metavar="TOURNAMENT_DIR", type=click.Path(path_type=Path))
@click.option("--anonymous", is_flag=True,
              help="Show the aliases of an anonymous report instead of the entrants' names "
                   "(references keep theirs), e.g. on a screen the class sees.")
def ratings_command(output: Path, anonymous: bool) -> None:
    """Print the leaderboard of the tournament in TOURNAMENT_DIR (its results folder), and the
    head-to-head table for a two-player game."""
    _print_ratings(output, anonymous=anonymous)


@tournament.command("replay")
@click.argument("output", metavar="TOURNAMENT_DIR", type=click.Path(path_type=Path))
@click.argument("match_id", type=int)
@click.option("--replay", "replay_file", metavar="FILE", type=click.Path(path_type=Path),
              default=None, help="Write the replayed match record as JSON to this file.")
def replay_command(output: Path, match_id: int, replay_file: Path | None) -> None:
    """Play match MATCH_ID of the tournament in TOURNAMENT_DIR again, alone: same bots, seats and
    seed."""
    if replay_file is not None:
        check_output_file(replay_file, "--replay")
    replay = replay_match(output, match_id)
    for warning in replay.warnings:
        click.echo(f"warning: {warning}", err=True)
    record = replay.replayed
    names = ", ".join(f"seat {i}: {visible_line(s['name'])}" for i, s in enumerate(record.seats))
    click.echo(f"match {match_id}: {record.game}, seed {record.seed}; {names}")
    if replay.stored is not None:
        click.echo(f"stored:   {_result_line(replay.stored)}")
    click.echo(f"replayed: {_result_line(record)}")
    click.echo(replay.comparison())
    if replay_file is not None:
        replay_file.write_text(record.to_json(indent=1), encoding="utf-8")
        click.echo(f"record written to {replay_file}")


@click.command("demo")
@click.option("--game", "game_name", default=DEFAULT_GAME, show_default=True,
              metavar="GAME", help=f"Play this game ({', '.join(sorted(GAMES))}; or "
                                   "openspiel:NAME, with the extra).")
@click.option("--output", "output", type=click.Path(file_okay=False, path_type=Path),
              default=None, help=f"Store the results in this folder (default: {DEMO_OUTPUT}, "
                                 f"or {DEMO_OUTPUT}-GAME for another game, a colon written -).")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
              help="Play this many matches at once (default: one per core).")
def demo_command(game_name: str, output: Path | None, workers: int | None) -> None:
    """Play a small round-robin of the bundled bots of a game and say where the results are."""
    game_name = get_game(game_name).name
    if output is None:
        output = demo_output(game_name)
    _run(demo_config(game_name), workers, output, quiet=False)
    click.echo(f"see the leaderboard again with: arena ratings {output}")


def demo_output(game_name: str) -> Path:
    """The demo's folder: arena-demo, or arena-demo-GAME for another game (a colon, as in
    ``openspiel:hex``, written ``-``: no file system or shell has to cope with it)."""
    if game_name == DEFAULT_GAME:
        return Path(DEMO_OUTPUT)
    return Path(f"{DEMO_OUTPUT}-{game_name.replace(':', '-')}")


def demo_config(game_name: str = DEFAULT_GAME) -> TournamentConfig:
    """The demo's embedded config: every bundled bot that plays the game, at the game's demo
    player count (``demo_players``, else its default), duplicate deals, the game's demo clock and
    length, a fixed seed (the demo's deals are no secret)."""
    game = get_game(game_name)
    bots = bundled_bots(game.name)
    players = game.demo_players or game.default_players
    move_ms, bank_ms = game.demo_time_control
    entrants: list[Any] = [str(b.path) for b in bots]
    for i in range(len(bots), max(2, players)):  # too few bots: copies of the first fill the table
        entrants.append({"path": str(bots[0].path), "name": f"{bots[0].name}-{i + 1}"})
    if not bots:
        raise ArenaError(f"no bundled bot plays {game.name}")
    data = {"name": f"Demo: the bundled bots play {game.title}", "game": game.name, "seed": 1,
            "format": {"type": DEFAULT, "players": players, "rounds": DEMO_ROUNDS,
                       "duplicate": True},
            # the game's quick clock: the search bot thinks about a third of a move's time
            "time_control": {"move_ms": move_ms, "bank_ms": bank_ms},
            # and its length: about a minute in all
            "options": {} if game.demo_length is None else {game.length_option: game.demo_length}}
    return parse_config({**data, "entrants": entrants}, base_dir=Path.cwd(),
                        source="the demo's embedded config", stem=DEMO_OUTPUT)


@click.command("check")
@click.argument("bot_path", metavar="BOT")
@click.option("--game", "game_name", metavar="GAME", help="Check the bot in this game (or in the game of --config).")
@click.option("--option", "-o", "option_items", multiple=True, metavar="KEY=VALUE",
              help="Set a rule option (repeatable), as for `arena play`.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False),
              help="Check under exactly the game, options, player count, time control and limits "
                   "of this tournament TOML file.")
@click.option("--matches-per-seat", default=1, show_default=True, type=click.IntRange(min=1),
              help="Play this many matches against the random bot in each seat of each "
                   "player count.")
@click.option("--full", is_flag=True,
              help="Play every match to its end (by default each is capped at a few deals, or "
                   "rounds, as the check's first line says).")
@click.option("--time-control", "-t", metavar="MOVE+BANK",
              help="Set the time control, as for `arena play`.")
@click.option("--limits", "limits_text", metavar="KEY=VALUE,...",
              help="Set sandbox limits, as for `arena play`.")
def check_command(bot_path: str, game_name: str | None, option_items: tuple[str, ...],
                  config_path: str | None, matches_per_seat: int, full: bool,
                  time_control: str | None, limits_text: str | None) -> None:
    """Check a bot before submitting it: matches against the random bot in every seat of every
    player count, each capped at a few deals (--full: whole matches)."""
    values = parse_assignments(option_items)
    if config_path is not None:
        config = load_config(config_path)
        if game_name is not None and get_game(game_name).name != config.game:
            raise ArenaError(f"--game {game_name} but {config_path} is a {config.game} tournament")
        game = get_game(config.game)
        plan = CheckPlan(game, {**config.options, **values}, [config.format.players],
                         config.time_control,
                         Limits.from_mapping(config.limits) if config.limits else Limits(),
                         matches_per_seat, full)
    elif game_name is None:
        raise ArenaError("say which game the bot plays: --game GAME (or --config TOURNAMENT.toml)")
    else:
        game = get_game(game_name)
        plan = CheckPlan(game, values, sorted(game.player_counts),
                         TimeControl.parse(time_control) if time_control else DEFAULT_TIME_CONTROL,
                         Limits.parse(limits_text) if limits_text else Limits(), matches_per_seat,
                         full)
    if config_path is not None and (time_control or limits_text):
        plan = dataclasses.replace(
            plan, time_control=TimeControl.parse(time_control) if time_control else plan.time_control,
            limits=Limits.parse(limits_text, plan.limits) if limits_text else plan.limits)
    for n in plan.player_counts:
        plan.match_options(n)  # a bad option is one line, before any match
    bot = find_bot(bot_path, plan.limits.folder_mb)
    click.echo(describe_plan(plan))
    problems = check_bot(bot, plan, echo=click.echo)
    if problems:
        click.echo(f"\n{visible_line(bot.name)}: {len(problems)} problem(s) found:")
        for p in problems:
            click.echo(f"  - {visible(p)}")
        sys.exit(1)
    click.echo(f"\n{visible_line(bot.name)}: all checks passed; it is ready to submit.")


# ----- shared ---------------------------------------------------------------------------------

def _run(config: TournamentConfig, workers: int | None, output: Path | None,
         quiet: bool, cluster: str | None = None) -> RunResult:
    if cluster is not None:
        from tournaments.cluster import check_address  # (Dask itself is imported only when used)
        check_address(cluster)  # one line and exit 2, before anything is written
    if output is not None:
        check_output_folder(output, "--output")
    else:
        check_output_folder(config.output_dir, "the config's 'output'")
    folder = Path(output).resolve() if output is not None else config.output_dir
    # a folder in use (a watch's) is refused before anything is checked; a new one is not made
    # before the run itself begins (a run refused at its start writes nothing)
    with output_lock(folder, hold=True) if folder.is_dir() else contextlib.nullcontext():
        intake = Intake(_say)
        try:
            leave_out = intake.sort(config, folder, resolve_field(config))
        except KeyboardInterrupt:
            click.echo("stopped while checking the submissions; run the same command to resume",
                       err=True)
            sys.exit(130)
        return _play_run(prepare(config, output, leave_out=leave_out, checked=intake.checked),
                         workers, quiet, cluster)


def _say(line: str) -> None:
    click.echo(visible_line(line), err=True)


def _play_run(prepared: Prepared, workers: int | None, quiet: bool,
              cluster: str | None) -> RunResult:
    config = prepared.config
    click.echo(config.describe())
    most = "" if format_of(config.format.type).fixed else "at most "
    if Store.is_initialised(store_path(prepared.output)):  # a resume: the field may have moved
        click.echo(f"{len(prepared.entrants)} bots in the entrants' folders; results in "
                   f"{prepared.output}")
    else:
        click.echo(f"{len(prepared.entrants)} entrants, {most}{planned_matches(prepared)} matches; "
                   f"results in {prepared.output}")
    address = cluster if cluster is not None else config.cluster
    if address is not None:
        click.echo(f"playing on the Dask cluster at {address}")
    try:
        result = run_tournament(prepared, workers=workers, progress=not quiet, cluster=cluster,
                                on_results=results_listener(prepared.output))
    except KeyboardInterrupt:
        done = _stored_count(prepared.output)
        click.echo(f"stopped at once: {done} matches stored; "
                   "run the same command to resume", err=True)
        sys.exit(130)
    if result.outcome != "complete":
        click.echo(f"stopped: {result.done} of {result.total} matches played; "
                   "run the same command to resume", err=True)
        if result.summary is not None:
            click.echo(result.summary.line())
        sys.exit(130)
    click.echo(f"played {result.played} matches ({result.done} of {most}{result.total} done, "
               f"{result.failures} failed seats)")
    _print_ratings(prepared.output, verdict=False)  # the run ends with the format's summary instead
    click.echo(f"\nresults: {result.store}")
    if result.report is not None:  # the live report renders the whole site at the end
        click.echo(f"report: {Path(result.report).resolve()}  (open it in a browser)")
    if result.summary is not None:  # the format's verdict, its standing: its last line
        click.echo("")
        click.echo(result.summary.text())
    return result


def _watch(config_path: Path, workers: int | None, output: Path | None, quiet: bool,
           cluster: str | None, interval: float, settle: float) -> None:
    """``run --watch``: ordinary runs, one per look that finds something to play, on one backend
    (a Dask cluster's connection is kept), each with a live report of its own."""
    config = load_config(config_path)
    if output is not None:
        check_output_folder(output, "--output")
    else:
        check_output_folder(config.output_dir, "the config's 'output'")
    address = cluster if cluster is not None else config.cluster

    def looking(backend: Any) -> Watched:
        def play(prepared: Prepared) -> RunResult:
            return run_tournament(prepared, workers=workers, backend=backend,
                                  progress=not quiet, say=None if not quiet else _say,
                                  on_results=results_listener(prepared.output))
        return watch(config_path, output, play, _say, interval=interval, settle=settle)

    if address is None:
        watched = looking(None)
    else:
        from tournaments.cluster import DaskBackend, check_address
        check_address(address)
        _say(f"playing on the Dask cluster at {address}")
        with DaskBackend(address, max_in_flight=workers,
                         cores_per_match=config.cores_per_match) as backend:
            watched = looking(backend)
    if watched.interrupted:
        sys.exit(130)


def results_listener(output: Path) -> ResultsListener | None:
    """What keeps a report of the results while they come in: the ``arena.results`` entry point
    (the reports package's live report), if one is installed."""
    for entry in entry_points(group="arena.results"):
        listener: ResultsListener = entry.load()(output)
        return listener
    return None


def _stored_count(output: Path) -> int:
    try:
        with Store.open(output) as store:
            return store.matches.count()[0]
    except ArenaError:
        return 0


def _print_ratings(output: Path, verdict: bool = True, anonymous: bool = False) -> None:
    """The leaderboard, the head-to-head table and (``verdict``) the format's summary;
    ``anonymous``: under the entrants' aliases (``tournaments.aliases``)."""
    Store.check_intact(store_path(output))  # a damaged store: one line, not a traceback
    with Store.open(output) as store:
        config = store.meta.config()
        ratings = compute_ratings(store)
        note = store.meta.schedule_note
        summary = format_of(config.format.type).read(
            store, [s.entrant.id for s in ratings.standings])
        settings = store.meta.report_settings()
        entrants = store.field.entrants()
        versions = store.field.versions()
    rename: dict[str, str] = {}
    if anonymous:
        if not settings.alias_key:
            raise ArenaError(f"{output}: this store has no aliases yet (a store from an older "
                             "arena): run the tournament once more to give it some")
        aliases = draw_aliases(settings.alias_key, (e.id for e in entrants), settings.references)
        rename = {e.name: aliases[e.id].name for e in entrants if e.id in aliases}
        ratings = dataclasses.replace(ratings, standings=[
            dataclasses.replace(s, entrant=dataclasses.replace(
                s.entrant, name=rename.get(s.entrant.name, s.entrant.name), path=""))
            for s in ratings.standings])
        if summary is not None:
            summary = summary.renamed(lambda n: rename.get(n, n), lambda e: e)
    field = _field_lines(entrants, versions, rename)
    # one order, the report's: a format that ranks the field itself orders the leaderboard
    ratings, heading = in_order(ratings, summary.ranking_ids() if summary else (),
                                summary.ranked_by()[0] if summary else "")
    click.echo("")
    click.echo(f"{config.name}: {ratings.rated} of {ratings.planned} matches rated "
               f"(TrueSkill, draw probability {ratings.draw_probability:g}; {heading})")
    if note:
        click.echo(f"note: {note}")
    click.echo(format_leaderboard(ratings))
    for line in field:
        click.echo(line)
    if ratings.head_to_head is not None:
        click.echo("")
        click.echo("head-to-head: wins-draws-losses of the row against the column")
        click.echo(format_head_to_head(ratings))
    if verdict and summary is not None:
        click.echo("")
        click.echo(summary.text())


def _field_lines(entrants: list[Entrant], versions: list[Version],
                 rename: dict[str, str]) -> list[str]:
    """Which versions are ranked (once a bot has more than one), and who is out of the
    standings and why; under the names in ``rename`` (an anonymous listing, which leaves out the
    reasons: they may name a folder)."""
    latest = {v.entrant: v for v in versions}
    names = {e.id: visible_line(rename.get(e.name, e.name)) for e in entrants}
    ranked = [f"{names[e]} v{v.version}" for e, v in latest.items()
              if v.version > 1 and v.state == "current"]
    lines = [f"versions ranked: {', '.join(ranked)}"] if ranked else []
    lines += [f"out of the standings: {names[e]} ({v.state}"
              + (")" if rename else f": {visible_line(v.reason)})")
              for e, v in latest.items() if v.state != "current"]
    return lines


def _result_line(record: Any) -> str:
    parts = []
    for i, status in enumerate(record.statuses):
        text = f"{visible_line(record.seats[i]['name'])} {record.scores[i]} (rank {record.ranks[i]})"
        if status.status != "ok":
            text += f" {status.status}: {visible_line(status.reason)}"
        parts.append(text)
    return "; ".join(parts) + f"; {len(record.decisions)} decisions"


COMMANDS: list[click.Command] = [tournament, ratings_command, demo_command, check_command]
