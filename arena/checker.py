"""``arena check``: what a student runs before submitting a bot.

The bot plays a match against the random bot in every seat of every player count the game allows
(or of the one count a tournament config sets), under the options, time control and limits it
will meet, and every problem is reported with the seat, the player count and the options where it
happened. By default each match is capped at a few deals or rounds (``QUICK_LENGTH``
of the game's ``length_unit``), so that a bot that uses its clock is checked in about a minute;
``full`` plays every match to its end.

Every match asks the bot in the seat it checks at least one decision where the game lets that
seat decide: a capped match that ended before the seat had a choice (in Dice 1000 a seat not yet
opened rolls by force, and may bust through both of its turns) is played again from the same seed
with twice the cap, until the seat has been asked or the match ends on its own.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.bots import BotSpec, bundled_bot
from arena.game import Game
from arena.record import CRASH, HANDSHAKE_FAILED, OK, PROTOCOL_ERROR
from arena.referee import TimeControl, play_match
from arena.sandbox import Limits
from arena.text import visible, visible_line

RANDOM_BOT = "random"
FIRST_SEED = 1000
QUICK_LENGTH = 2  # deals (or rounds) a match of the quick check lasts at most
DEFAULT_TIME_CONTROL = TimeControl()  # the clock of a check without --time-control or --config


@dataclass(frozen=True)
class CheckPlan:
    """What to check: the game, its option values, the player counts, the clock and the limits."""

    game: Game
    option_values: dict[str, Any]
    player_counts: Sequence[int]
    time_control: TimeControl
    limits: Limits
    matches_per_seat: int = 1
    full: bool = False  # whole matches; else each is capped at QUICK_LENGTH deals (or rounds)

    def match_options(self, num_players: int, length: int = QUICK_LENGTH) -> Any:
        """The options of a match with this many players: capped at ``length`` (deals or
        rounds), unless the check is full."""
        if self.full:
            return self.game.make_options(num_players, self.option_values)
        return self.game.capped_options(num_players, self.option_values, length)

    def options_text(self) -> str:
        """The options a person set, as ``key=value`` text (the rest are the game's defaults)."""
        if not self.option_values:
            return "default options"
        return ", ".join(f"{k}={v}" for k, v in self.option_values.items())


def check_bot(bot: BotSpec, plan: CheckPlan, echo: Callable[[str], None]) -> list[str]:
    """Play the plan's matches against the random bot; list the problems found."""
    game = plan.game
    if bot.ignored_keys:
        echo(f"warning: {visible_line(bot.ignored_text())}")
    if not bot.plays(game.name):
        return [f"its manifest lists the games {list(bot.games)}, not {game.name!r}"]
    if bot.build:
        failure = build_first(bot, echo)
        if failure:
            return [failure]
    opponent = bundled_bot(RANDOM_BOT)
    problems: list[str] = []
    seed = FIRST_SEED
    for n in plan.player_counts:
        for seat in range(n):
            for _ in range(plan.matches_per_seat):
                seed += 1
                bots = [opponent] * n
                bots[seat] = bot
                record = play_asking(plan, bots, seat, seed)
                st = record.statuses[seat]
                own = sum(1 for d in record.decisions if d["seat"] == seat)
                label = (f"{n} players, seat {seat}, {plan.options_text()}, seed {seed}")
                if st.status == OK:
                    capped = [f" when capped after {e[game.length_unit]} {game.length_unit}"
                              for e in record.events if e["type"] == "capped"]
                    echo(f"{label}: ok, {own} decisions of its own, rank {record.ranks[seat]} "
                         f"of {n}{''.join(capped)}, {st.time_ms:.0f} ms thinking")
                    continue
                echo(f"{label}: {st.status} after {own} decisions of its own")
                problem = f"{label}: {st.status.replace('_', ' ')}: {visible_line(st.reason)}"
                tail = visible(st.stderr_tail).strip().splitlines()[-5:]
                if tail:
                    problem += "\n      last lines of its stderr:\n" + "\n".join(
                        f"        {line}" for line in tail)
                problems.append(problem)
                if _never_started(st):
                    return problems  # it never got going; more matches would say the same
    return problems


def play_asking(plan: CheckPlan, bots: list[BotSpec], seat: int, seed: int) -> Any:
    """One check match of ``bots`` from ``seed``, played until the bot in ``seat`` has been asked
    at least one decision: a capped match that never asked it is played again with twice the cap
    (the same deal, the same dice: a longer match from the same seed begins as the shorter one),
    until it asks, or the match ends on its own (then the game never let that seat decide)."""
    length = QUICK_LENGTH
    while True:
        options = plan.match_options(len(bots), length)
        record = play_match(plan.game, bots, options=options, seed=seed,
                            time_control=plan.time_control, limits=plan.limits)
        asked = any(d["seat"] == seat for d in record.decisions)
        capped = any(e["type"] == "capped" for e in record.events)
        if asked or not capped or record.statuses[seat].status != OK:
            return record
        length *= 2


def build_first(bot: BotSpec, echo: Callable[[str], None]) -> str | None:
    """Build a bot that has a build step (or find its cached build); the problem, if it fails."""
    from arena.build import BuildFailed, ensure_built, output_lines

    try:
        ensure_built(bot, on_start=lambda b: echo(f"building {b.name}: {' '.join(b.build)} "
                                                 "(in the sandbox, no network)"))
    except BuildFailed as exc:
        problem = f"build failed: {exc.reason}"
        lines = output_lines(exc.output)
        if lines:
            problem += "\n      last lines of its output:\n" + "\n".join(f"        {line}"
                                                                          for line in lines)
        return problem
    return None


def describe_plan(plan: CheckPlan) -> str:
    """One line saying what will be checked."""
    counts = ", ".join(map(str, plan.player_counts))
    seats = sum(plan.player_counts) * plan.matches_per_seat
    game = plan.game
    if plan.full:
        length = "whole matches"
    else:
        length = (f"each match capped at {QUICK_LENGTH} {game.length_unit} ({game.length_option}"
                  f"={QUICK_LENGTH}, or longer until the seat checked has been asked; --full plays "
                  "whole matches)")
    return (f"checking against the random bot: {game.name}, {counts} players, every seat "
            f"({seats} matches); {plan.options_text()}; {length}; time control "
            f"{plan.time_control.move_ms} ms a move + {plan.time_control.bank_ms} ms bank")


def _never_started(status) -> bool:
    """Whether a bot failed before the match could begin (it would fail every match alike)."""
    return status.status == HANDSHAKE_FAILED or (
        status.status in (CRASH, PROTOCOL_ERROR)
        and ("during the handshake" in status.reason or "could not be started" in status.reason))
