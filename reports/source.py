"""Read one tournament store into ``TournamentData`` through the store's read API.

``tournaments.store`` owns the file (``Store.open``, ``config_dict``, ``entrants``, ``matches``,
``record_json``, ``runs``) and ``tournaments.ratings`` owns the ratings (``compute_ratings``). Nothing
here writes.
"""
from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

from reports.data import EntrantInfo, MatchInfo, RatingPoint, Standing, SubmissionInfo, TournamentData, VersionInfo


def load(output_dir: Path, reveal_seed: bool = False) -> tuple[TournamentData, Any]:
    """The tournament stored in ``output_dir``, and the open store (close it when done). The
    tournament seed is a secret: it is read only when ``reveal_seed``."""
    from tournaments.formats import format_of
    from tournaments.plan import among
    from tournaments.ratings import MU, SIGMA, compute_ratings, version_ratings
    from tournaments.store import Store

    store = Store.open(output_dir)
    try:
        cfg = store.config_dict()
        report = store.report_settings()
        stored = store.entrants()
        current = store.current()
        all_versions = store.versions()
        several = len(all_versions) > len(stored)  # some bot has more than one version
        per_version = version_ratings(store) if several else {}  # (a bot's page shows them then)
        versions: dict[int, list[VersionInfo]] = {}
        latest: dict[int, Any] = {}
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
        rows = store.matches()
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
                       for s in store.submissions()  # not those a later version has replaced
                       if s.outcome == "rejected"
                       and arrived.get(os.path.realpath(s.folder), "") < s.seen_at]
        ratings = compute_ratings(store)
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
        fmt = cfg.get("format", {})
        config = store.config()
        kind = format_of(config.format.type)
        details: dict[str, Any] = {
            "format": kind.name,
            **kind.facts(config.format),
            "time control": _time_control_text(cfg.get("time_control", {})),
            "draw probability": f"{store.draw_probability:.4f}",
        }
        if store.schedule_note:
            details["schedule"] = store.schedule_note
        summary = kind.read(store, [s.entrant for s in standings])
        data = TournamentData(
            name=cfg.get("name") or "Tournament",
            game=cfg.get("game", ""),
            options=_full_options(cfg),
            seed=cfg.get("seed") if reveal_seed else None,
            entrants=entrants,
            matches=matches,
            standings=standings,
            history=history,
            record=store.record_json,
            record_blobs=store.record_blobs,  # published as stored (records/<id>.js)
            details=details,
            duration_s=_duration(store.runs()),
            initial_mu=MU,
            initial_sigma=SIGMA,
            planned=store.planned,
            duplicate=bool(fmt.get("duplicate", True)),
            summary=summary,
            references=frozenset(report.get("references", ())),
            anonymous=bool(report.get("anonymous", False)),
            submissions=submissions,
        )
    except BaseException:
        store.close()
        raise
    return data, store


def _private(text: str, entrants: Any, *folders: str) -> str:
    """``text`` with every entrant's folder (and ``folders``) cut down to its last name: an
    organiser's paths are never published."""
    for folder in sorted({*(e.path for e in entrants), *folders}, key=len, reverse=True):
        if folder:
            text = text.replace(folder, Path(folder).name)
    return text


def _full_options(cfg: dict[str, Any]) -> dict[str, Any]:
    """Every rule option with its value, defaults filled in by the game."""
    from arena.errors import ArenaError

    options = dict(cfg.get("options", {}))
    try:
        from arena.games import get_game
        from arena.options import options_to_dict

        players = cfg.get("format", {}).get("players", 2)
        return options_to_dict(get_game(cfg["game"]).make_options(players, options))
    except ArenaError:  # a game (or an option) this install does not know: what the config says
        return options


def _time_control_text(tc: dict[str, Any]) -> str:
    if not tc:
        return ""
    move, bank = tc.get("move_ms", 0) / 1000, tc.get("bank_ms", 0) / 1000
    return f"{move:g} s a move + {bank:g} s bank"


def _duration(runs: list[dict[str, Any]]) -> float | None:
    """Seconds spent playing, over every run that recorded its end."""
    total = 0.0
    seen = False
    for run in runs:
        if not run.get("started_at") or not run.get("ended_at"):
            continue
        try:
            start = datetime.fromisoformat(run["started_at"])
            end = datetime.fromisoformat(run["ended_at"])
        except ValueError:
            continue
        total += (end - start).total_seconds()
        seen = True
    return total if seen else None
