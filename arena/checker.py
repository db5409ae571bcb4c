"""``arena check``: what a student runs before submitting a bot."""
from __future__ import annotations

from collections.abc import Callable

from arena.bots import BotSpec, load_bot
from arena.game import Game
from arena.record import OK
from arena.referee import TimeControl, play_match
from arena.sandbox import Limits
from arena.text import visible, visible_line

RANDOM_BOT = "random"


def check_bot(bot: BotSpec, game: Game, matches: int, time_control: TimeControl,
              limits: Limits, echo: Callable[[str], None]) -> list[str]:
    """Play ``matches`` whole matches against the random bot, in every seat; list the problems."""
    from arena.cli import BUNDLED_BOTS

    opponent = load_bot(BUNDLED_BOTS / RANDOM_BOT)
    if bot.games and game.name not in bot.games:
        return [f"its manifest lists the games {list(bot.games)}, not {game.name!r}"]
    problems: list[str] = []
    player_counts = sorted({game.min_players, game.max_players})
    for i in range(matches):
        n = player_counts[i % len(player_counts)]
        seat = i % n
        bots = [opponent] * n
        bots[seat] = bot
        record = play_match(game, bots, seed=1000 + i, time_control=time_control, limits=limits)
        st = record.statuses[seat]
        label = f"match {i + 1}/{matches} ({n} players, seat {seat}, seed {1000 + i})"
        if st.status == OK:
            echo(f"{label}: ok, {len(record.decisions)} decisions, rank {record.ranks[seat]} of {n}, "
                 f"{st.time_ms:.0f} ms thinking")
            continue
        echo(f"{label}: {st.status}")
        problem = f"{label}: {st.status.replace('_', ' ')}: {visible_line(st.reason)}"
        tail = visible(st.stderr_tail).strip().splitlines()[-3:]
        if tail:
            problem += "\n      last lines of its stderr: " + " | ".join(tail)
        problems.append(problem)
        if st.status in ("handshake_failed", "crash") and not record.decisions:
            break  # it never got going; more matches would say the same
    return problems
