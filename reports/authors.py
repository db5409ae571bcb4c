"""Each author's own page: what a student reads about their own bot and no one else's.

The public report leaves out what only a bot's author should read (an anonymous report leaves out
every stderr tail and check output). ``OUTPUT/authors/<folder>.html`` is one page per submission
folder (and per entrant the organiser named), beside the site and never inside it, readable by the
organiser's account only: the teacher hands each student their own file (docs/classroom.md). It
shows every version with its state, every refused submission with its whole check output (the
build errors, the traceback), and every match of the author's bot with its result, its failure
reason and its own stderr. Opponents appear as the public report shows them (under their aliases
in an anonymous report), so a page tells its author nothing about anyone else.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reports.data import TournamentData

AUTHORS_FOLDER = "authors"


@dataclass(frozen=True)
class AuthorMatch:
    id: int
    seat: int
    opponents: str
    result: str
    status: str
    reason: str
    stderr_tail: str


@dataclass(frozen=True)
class AuthorSubmission:
    seen_at: str
    reason: str
    details: str


@dataclass(frozen=True)
class VersionRow:
    number: int
    arrived_at: str
    state: str
    rating: str       # μ − 3σ of the version as a player of its own
    record: str       # "12 matches: 7 won, 1 drawn, 4 lost"


@dataclass
class AuthorPage:
    folder: str                  # the submission folder's name
    name: str                    # the entrant's name ("" for a folder never admitted)
    alias: str = ""              # its name in an anonymous report
    state: str = ""
    versions: list[VersionRow] = field(default_factory=list)
    refused: list[AuthorSubmission] = field(default_factory=list)
    matches: list[AuthorMatch] = field(default_factory=list)


def file_name(folder: str) -> str:
    """The page's file name: the folder's name with anything but letters, digits, '.', '-' and
    '_' made '-' (a submission's folder name is the author's choice)."""
    return (re.sub(r"[^A-Za-z0-9._-]+", "-", folder).lstrip(".") or "bot") + ".html"


def author_pages(data: TournamentData, submissions: list[Any],
                 public_names: dict[int, str]) -> list[AuthorPage]:
    """A page per folder: every entrant's, and every refused submission's. ``submissions`` are the
    store's rows; ``public_names`` names each entrant as the public report does."""
    pages: dict[str, AuthorPage] = {}
    by_path: dict[str, AuthorPage] = {}
    standing = {s.entrant: s for s in data.standings}  # a bot's only version: its standing
    for e in data.entrants:
        rows = []
        for v in e.versions:
            s = standing.get(e.id) if len(e.versions) == 1 else None
            mu, sigma, matches, wins, draws = ((s.mu, s.sigma, s.matches, s.wins, s.draws) if s
                                               else (v.mu, v.sigma, v.matches, v.wins, v.draws))
            losses = matches - wins - draws if s else v.losses
            rows.append(VersionRow(v.number, v.arrived_at[:19].replace("T", " "), v.state,
                                   f"{mu - 3 * sigma:.2f}" if matches else "—",
                                   f"{matches} matches: {wins} won, {draws} drawn, {losses} lost"))
        page = AuthorPage(Path(e.path).name or e.name, e.name,
                          public_names.get(e.id, e.name) if data.anonymous else "",
                          e.state if e.state == "current" else f"{e.state}: {e.reason}",
                          rows)
        pages[page.folder] = by_path[os.path.realpath(e.path)] = page
        for m in data.matches:
            for seat, eid in enumerate(m.seats):
                if eid != e.id or not m.played:
                    continue
                others = ", ".join(public_names.get(o, f"entrant {o}") for s, o in enumerate(m.seats)
                                   if s != seat)
                place = m.ranks[seat] if seat < len(m.ranks) else 0
                page.matches.append(AuthorMatch(
                    m.id, seat, others,
                    f"place {place} of {len(m.seats)}, score {m.scores[seat]}"
                    + (f" (version {m.versions[seat]})" if seat < len(m.versions) else ""),
                    m.statuses[seat], m.reasons[seat] if seat < len(m.reasons) else "",
                    m.stderr_tails[seat] if seat < len(m.stderr_tails) else ""))
    for s in submissions:
        if s.outcome != "rejected":
            continue
        name = Path(s.folder).name
        owner = by_path.get(os.path.realpath(s.folder)) or pages.setdefault(
            name, AuthorPage(name, "", state="not admitted"))
        owner.refused.append(AuthorSubmission(s.seen_at[:19].replace("T", " "), s.reason,
                                             s.stderr_tail))
    return sorted(pages.values(), key=lambda p: p.folder)


def write_author_pages(output_dir: Path, data: TournamentData, submissions: list[Any],
                       public_names: dict[int, str]) -> Path:
    """Write ``OUTPUT/authors/`` (owner-only); returns the folder."""
    from reports.render import environment

    folder = Path(output_dir) / AUTHORS_FOLDER
    folder.mkdir(mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    template = environment().get_template("author.html.j2")
    for page in author_pages(data, submissions, public_names):
        text = template.render(page=page, tournament=data.name, server=None)
        target = folder / file_name(page.folder)
        if target.is_file() and target.read_text(encoding="utf-8") == text:
            continue
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
    return folder


def load_author_pages(output_dir: Path) -> dict[str, AuthorPage]:
    """Every author's page, by folder name, from the store in ``output_dir`` (the contest
    server's, which renders them itself with its own forms)."""
    from reports.source import load

    reading = load(Path(output_dir))  # no records: the pages do without them
    data = reading.data
    public = {e.id: e.name for e in data.entrants}
    if data.anonymous:
        from reports.anonymous import anonymise
        _, aliases = anonymise(data, reading.alias_key)
        public.update((row.entrant.id, row.alias) for row in aliases)
    return {page.folder: page for page in author_pages(data, reading.submissions, public)}
