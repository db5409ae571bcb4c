"""The report's reading stage: one tournament store read once, read-only, into plain data.

:func:`load` opens the store read-only (``tournaments.store.Store.open``, SQLite's ``mode=ro``),
reads everything the pages need (the parsed config, the field, the matches, the ratings computed
by ``tournaments.ratings``, the head-to-head pair table, the format's summary and the packed
records the site does not hold yet), closes the store, and only then hands the data over:
rendering never touches the store. Nothing here writes.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from reports.data import EntrantInfo, MatchInfo, RatingPoint, Standing, SubmissionInfo, TournamentData, VersionInfo
from tournaments.config import TournamentConfig
from tournaments.store import Entrant, Run, Submission, Version


@dataclass(frozen=True)
class Reading:
    """What the reading stage hands over: the pages' data, and what only the organiser's side
    uses (each author's submissions, the secret that aliases derive from)."""

    data: TournamentData
    submissions: list[Submission] = field(default_factory=list)  # as stored, every one seen
    alias_key: str = ""


def load(output_dir: Path, reveal_seed: bool = False,
         records: Callable[[bool], Collection[int]] | None = None) -> Reading:
    """The tournament stored in ``output_dir``, read once; the store is closed when this returns.
    The tournament seed is a secret: it is read only when ``reveal_seed``. ``records``: none
    read when None (a live index, the authors' pages); else, told whether the report is
    anonymous, it gives the ids of the matches whose records the site holds already, and the
    packed records of the others are read."""
    from tournaments.formats import format_of
    from tournaments.plan import among
    from tournaments.ratings import MU, SIGMA, compute_ratings, pair_table, version_ratings
    from tournaments.store import Store

    with Store.open(output_dir) as store:  # read-only
        config = store.meta.config()
        settings = store.meta.report_settings()
        stored = store.field.entrants()
        current = store.field.current()
        all_versions = store.field.versions()
        rows = store.matches.all()
        ratings = compute_ratings(store)
        several = len(all_versions) > len(stored)  # some bot has more than one version
        per_version = version_ratings(store) if several else {}  # (a bot's page shows them then)
        submitted = store.field.submissions()
        runs = store.meta.runs()
        draw, note, planned = (store.meta.draw_probability, store.meta.schedule_note,
                               store.meta.planned)
        kind = format_of(config.format.type)
        summary = kind.read(store, [s.entrant.id for s in ratings.standings])
        blobs = ({} if records is None
                 else dict(store.matches.record_blobs(skip=records(settings.anonymous))))
    versions: dict[int, list[VersionInfo]] = {}
    latest: dict[int, Version] = {}
    for v in all_versions:
        s = per_version.get((v.entrant, v.version))
        versions.setdefault(v.entrant, []).append(VersionInfo(
            v.version, v.arrived_at, v.state, *((s.mu, s.sigma, s.matches, s.wins, s.draws,
                                                 s.losses) if s else ())))
        latest[v.entrant] = v
    entrants = [EntrantInfo(e.id, e.name, e.path, e.description,
                            latest[e.id].version if e.id in latest else 1,
                            latest[e.id].state if e.id in latest else "current",
                            _private(latest[e.id].reason, stored) if e.id in latest else "",
                            tuple(versions.get(e.id, ())))
                for e in stored]
    matches = [
        MatchInfo(
            id=r.id, number=r.id, seats=tuple(r.seats), seed=r.seed, status="done",
            scores=tuple(r.scores), ranks=tuple(r.ranks), statuses=tuple(r.statuses),
            reasons=tuple(r.reasons), stderr_tails=tuple(r.stderr_tails),
            time_ms=tuple(r.think_ms), duration_ms=r.duration_ms, versions=r.versions,
            current=among(current, r),
        )
        for r in rows
    ]
    arrived = {e.path: latest[e.id].arrived_at for e in stored if e.id in latest}
    folders = {e.path: e.id for e in stored}
    submissions = [SubmissionInfo(Path(s.folder).name, s.seen_at,
                                  _private(s.reason, stored, s.folder), s.stderr_tail,
                                  folders.get(os.path.realpath(s.folder)))
                   for s in submitted  # not those a later version has replaced
                   if s.outcome == "rejected"
                   and arrived.get(os.path.realpath(s.folder), "") < s.seen_at]
    standings = [
        Standing(entrant=s.entrant.id, mu=s.mu, sigma=s.sigma, matches=s.matches, wins=s.wins,
                 draws=s.draws, avg_score=s.average_score, failures=s.failure_count, tie=s.tie)
        for s in ratings.standings
    ]
    seated = {m.id: set(m.seats) for m in matches}
    history: dict[int, list[RatingPoint]] = {e.id: [] for e in entrants}
    for point in ratings.history:
        for eid in sorted(seated.get(point.match_id, ())):
            if eid < len(point.ratings):
                mu, sigma = point.ratings[eid]
                history.setdefault(eid, []).append(RatingPoint(point.match_id, mu, sigma))
    # an entrant out of play: its results by opponent are those of its own last version
    out = {e.id: latest[e.id].version for e in stored
           if e.id in latest and latest[e.id].state != "current"}
    own_pairs = {e: pair_table([r for r in rows if any(
        s == e and v == version for s, v in zip(r.seats, r.versions))])
        for e, version in out.items()}
    details: dict[str, Any] = {
        "format": kind.name,
        **kind.facts(config.format),
        "time control": _time_control_text(config),
        "draw probability": f"{draw:.4f}",
    }
    if note:
        details["schedule"] = note
    data = TournamentData(
        name=config.name or "Tournament",
        game=config.game,
        options=_full_options(config),
        seed=config.seed if reveal_seed else None,
        entrants=entrants,
        matches=matches,
        standings=standings,
        history=history,
        pairs=ratings.pairs,
        own_pairs=own_pairs,
        records=blobs,  # published as stored (records/<id>.js)
        details=details,
        duration_s=_duration(runs),
        initial_mu=MU,
        initial_sigma=SIGMA,
        planned=planned,
        duplicate=config.format.duplicate,
        summary=summary,
        references=frozenset(settings.references),
        anonymous=settings.anonymous,
        submissions=submissions,
    )
    return Reading(data, submitted, settings.alias_key)


def _private(text: str, entrants: Sequence[Entrant], *folders: str) -> str:
    """``text`` with every entrant's folder (and ``folders``) cut down to its last name: an
    organiser's paths are never published."""
    for folder in sorted({*(e.path for e in entrants), *folders}, key=len, reverse=True):
        if folder:
            text = text.replace(folder, Path(folder).name)
    return text


def _full_options(config: TournamentConfig) -> dict[str, Any]:
    """Every rule option with its value, defaults filled in by the game."""
    from arena.errors import ArenaError

    try:
        from arena.games import get_game
        from arena.options import options_to_dict

        return options_to_dict(get_game(config.game).make_options(config.format.players,
                                                                  dict(config.options)))
    except ArenaError:  # a game (or an option) this install does not know: what the config says
        return dict(config.options)


def _time_control_text(config: TournamentConfig) -> str:
    tc = config.time_control
    return f"{tc.move_ms / 1000:g} s a move + {tc.bank_ms / 1000:g} s bank"


def _duration(runs: Sequence[Run]) -> float | None:
    """Seconds spent playing, over every run that recorded its end."""
    total = 0.0
    seen = False
    for run in runs:
        if not run.started_at or not run.ended_at:
            continue
        try:
            start = datetime.fromisoformat(run.started_at)
            end = datetime.fromisoformat(run.ended_at)
        except ValueError:
            continue
        total += (end - start).total_seconds()
        seen = True
    return total if seen else None
