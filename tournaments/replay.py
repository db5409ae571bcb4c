"""``arena tournament replay``: one stored match played again, alone, with its seed and seats,
and compared with what the store holds."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.bots import BotSpec, load_bot
from arena.errors import ArenaError
from arena.games import get_game
from arena.record import MatchRecord
from tournaments.backends import MatchJob, play_job
from tournaments.entrants import check_entrant_count, resolve_field
from tournaments.field import snapshot_bot, snapshot_dir
from tournaments.formats import make_schedule
from tournaments.store import Entrant, FirstSchedule, Store


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
    """Play match ``match_id`` of a stored tournament again, alone, with its seed and seats, by
    the versions that played it (from their snapshots, ``tournaments.field``)."""
    with Store.open(output) as store:
        config = store.meta.config()
        entrants = store.field.entrants()
        versions = {(v.entrant, v.version): v for v in store.field.versions()}
        last = max(store.meta.schedule_size, store.matches.last_id())
        if not 1 <= match_id <= last:
            raise ArenaError(f"{output}: there is no match {match_id}; match ids run from 1 to "
                             f"{last}")
        done = match_id in store.matches.ids()
        stored = store.matches.record(match_id) if done else None
        row = store.matches.get(match_id) if done else None
        folder = store.path.parent
        first = store.meta.first_schedule() or FirstSchedule(len(entrants))
    warnings: list[str] = []
    folder_mb = config.sandbox_limits().folder_mb
    try:  # each folder's arguments, as the config gives them
        args = resolve_field(config).args
    except ArenaError:
        args = {}
    if row is not None:
        seats, seed = row.seats, row.seed
        bots = []
        for eid, number in zip(row.seats, row.versions):
            entrant = entrants[eid]
            version = versions.get((eid, number))
            if version is not None and snapshot_dir(folder, eid, number).is_dir():
                bots.append(snapshot_bot(folder, entrant, version, folder_mb,
                                         args.get(entrant.path, ())))
            else:
                bots.append(_folder_bot(entrant, folder_mb, warnings))
    else:
        names = [e.name for e in entrants[:first.entrants]]
        candidates = first.candidates
        if candidates is None:
            candidates = check_entrant_count(config, names)  # a gauntlet's; () for the others
        assert config.seed is not None  # a stored tournament keeps the seed it was played with
        schedule = make_schedule(len(names), config.format, config.seed, candidates)
        if match_id > len(schedule):
            raise ArenaError(f"{output}: match {match_id} has not been played yet")
        match = schedule.matches[match_id - 1]
        seats, seed = match.seats, match.seed
        bots = [_folder_bot(entrants[e], folder_mb, warnings) for e in seats]
    job = MatchJob(match_id=match_id, game=config.game, options=dict(config.options),
                   bots=tuple(bots), seed=seed,
                   time_control=config.time_control, limits=dict(config.limits))
    replayed = play_job(job).record
    for seat, eid in zip(replayed.seats, seats):  # the entrant's folder, as the store shows it
        seat["path"] = entrants[eid].path
    return Replay(match_id, stored, replayed, warnings)


def _folder_bot(entrant: Entrant, folder_mb: int, warnings: list[str]) -> BotSpec:
    """An entrant's bot from its folder as it is now (a match with no snapshot to play from)."""
    bot = load_bot(entrant.path, folder_mb)
    if bot.name != entrant.name:
        bot = dataclasses.replace(bot, name=entrant.name)
    if bot.content_hash() != entrant.content_hash:
        warnings.append(f"entrant {entrant.name!r} ({entrant.path}) has changed since the match "
                        "was played")
    return bot
