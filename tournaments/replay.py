"""``arena tournament replay``: one stored match played again, alone, with its seed and seats,
and compared with what the store holds."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.bots import load_bot
from arena.errors import ArenaError
from arena.games import get_game
from arena.record import MatchRecord
from tournaments.backends import MatchJob, play_job
from tournaments.entrants import check_entrant_count
from tournaments.schedule import make_schedule
from tournaments.store import Store


@dataclass
class Replay:
    match_id: int
    stored: MatchRecord | None   # None if the match has not been played yet
    replayed: MatchRecord
    warnings: list[str]

    def comparison(self) -> str:
        """How the replay compares with the stored match, in one or two lines."""
        new = self.replayed
        if self.stored is None:
            return "the store has no result for this match yet; nothing to compare"
        old = self.stored
        old_actions = [d["action"] for d in old.decisions]
        new_actions = [d["action"] for d in new.decisions]
        same_deal = (_chance_until_divergence(old, new_actions)
                     == _chance_until_divergence(new, old_actions))
        deal = "same luck" if same_deal else "DIFFERENT luck (the game or its options changed?)"
        if old_actions == new_actions and old.scores == new.scores and old.ranks == new.ranks:
            return f"identical to the stored match: {deal}, same {len(new_actions)} decisions, " \
                   f"same result"
        k = next((i for i, (a, b) in enumerate(zip(old_actions, new_actions)) if a != b),
                 min(len(old_actions), len(new_actions)))
        at = (f"decision {k}: stored {old_actions[k]!r}, replayed {new_actions[k]!r}"
              if k < min(len(old_actions), len(new_actions)) else f"after decision {k}")
        return (f"differs from the stored match at {at} ({deal}; bots that choose at random "
                f"play differently on the same deal)")


def _chance_until_divergence(record: MatchRecord, other_actions: list[str]) -> list[dict[str, Any]]:
    """The chance events (deals, rolls) of ``record`` while its decisions agree with
    ``other_actions``: as long as two matches chose alike, the seed alone decides them, wherever
    they fall among the decisions."""
    kinds = get_game(record.game).chance_events
    out: list[dict[str, Any]] = []
    decision = 0
    for event in record.events:
        if event.get("type") == "action":
            if decision >= len(other_actions) or other_actions[decision] != event["action"]:
                break
            decision += 1
        elif event.get("type") in kinds:
            out.append(event)
    return out


def replay_match(output: str | Path, match_id: int) -> Replay:
    """Play match ``match_id`` of a stored tournament again, alone, with its seed and seats."""
    with Store.open(output) as store:
        config = store.config()
        entrants = store.entrants()
        planned = store.planned
        if not 1 <= match_id <= planned:
            raise ArenaError(f"{output}: there is no match {match_id}; match ids run from 1 to "
                             f"{planned}")
        stored = store.record(match_id) if match_id in store.done_ids() else None
    warnings = []
    bots = []
    folder_mb = config.sandbox_limits().folder_mb
    for e in entrants:
        bot = load_bot(e.path, folder_mb)
        if bot.name != e.name:
            bot = dataclasses.replace(bot, name=e.name)
        if bot.content_hash() != e.content_hash:
            warnings.append(f"entrant {e.name!r} ({e.path}) has changed since the match was played")
        bots.append(bot)
    names = [e.name for e in entrants]
    candidates = check_entrant_count(config, names) if config.format.type == "gauntlet" else ()
    assert config.seed is not None  # a stored tournament keeps the seed it was played with
    schedule = make_schedule(len(entrants), config.format, config.seed, candidates)
    match = schedule.matches[match_id - 1]
    job = MatchJob(match_id=match.id, game=config.game, options=dict(config.options),
                   bots=tuple(bots[e] for e in match.seats), seed=match.seed,
                   time_control=config.time_control, limits=dict(config.limits))
    return Replay(match_id, stored, play_job(job).record, warnings)
