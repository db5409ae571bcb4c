"""An anonymous report (``[report] anonymous = true``, docs/reports.md): the tournament's data with
every entrant but the references under an alias (``tournaments.aliases``).

:func:`anonymise` is applied to ``TournamentData`` before any page is built, so nothing after it
ever holds a real name. What changes:

- an entrant's name becomes its alias, its folder and description are dropped, and its id becomes
  its alias's number (a reference keeps its name and description; its number is
  ``aliases.SPACE`` + its id): ids follow the order of the config's entries and folders, which
  could tell who is who, and they name the pages; the first 12 entrants take the palette's 12
  colours in an order drawn from the key (:func:`anonymous_colours`);
- in the text a bot can put into a match (its notes, its answer to a failed decision, and the
  failure reasons that quote it) every entrant's name, each dot-separated part of it, its folder
  path and folder name and its description are replaced by its alias, as whole words and
  whatever their case;
- stderr tails are left out: a bot writes anything there (paths, names, tracebacks);
- a submission not admitted is listed under its entrant's alias, or as "a new submission" when
  its folder is no entrant yet, with its reason scrubbed and without its stderr;
- withdrawn and suspended entrants keep their state, with the reason scrubbed;
- the match records are rewritten the same way (seats by alias, no folder, no content hash);
- the standings, rating history and head-to-head tables follow the entrants to their new ids.

:func:`write_aliases` writes the mapping for the organiser beside the store, never in the site.
"""
from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.record import MatchRecord, pack_dict
from reports.colours import PALETTE, colour_places
from reports.data import EntrantInfo, SubmissionInfo, TournamentData
from tournaments.aliases import SPACE, draw_aliases
from tournaments.ratings import Pair

ALIASES_FILE = "aliases.csv"  # beside the store: alias -> entrant, for the organiser only
NEW_SUBMISSION = "a new submission"  # a refused folder that is no entrant yet has no alias
MIN_PART = 3  # shorter parts of a name are not replaced on their own ("a", "v2")


@dataclasses.dataclass(frozen=True)
class AliasRow:
    """One line of the organiser's mapping."""

    alias: str
    entrant: EntrantInfo


class Scrubber:
    """Replaces every entrant's names, folder and description by its alias in free text."""

    def __init__(self, secrets: dict[str, str]) -> None:
        self.secrets = {k.lower(): v for k, v in secrets.items() if k.strip()}
        words = sorted(self.secrets, key=lambda k: (-len(k), k))
        self.pattern = re.compile(
            "(?<![A-Za-z0-9])(?:" + "|".join(re.escape(w) for w in words) + ")(?![A-Za-z0-9])",
            re.IGNORECASE) if words else None

    def __call__(self, text: Any) -> Any:
        if not isinstance(text, str) or self.pattern is None:
            return text
        return self.pattern.sub(lambda m: self.secrets[m.group(0).lower()], text)


def secrets_of(entrant: EntrantInfo) -> list[str]:
    """What tells an entrant: its name and each part of it, its folder, its description."""
    found = [entrant.name, *(p for p in entrant.name.split(".") if len(p) >= MIN_PART)]
    if entrant.path:
        found += [entrant.path, Path(entrant.path).name]
    if entrant.description:
        found.append(entrant.description)
    return found


def anonymise(data: TournamentData, key: str) -> tuple[TournamentData, list[AliasRow]]:
    """``data`` as an anonymous report shows it, and the mapping for the organiser."""
    aliases = draw_aliases(key, (e.id for e in data.entrants), data.references)
    number = {e.id: aliases[e.id].number if e.id in aliases else SPACE + e.id for e in data.entrants}
    name = {e.name: aliases[e.id].name if e.id in aliases else e.name for e in data.entrants}
    secrets: dict[str, str] = {}
    for e in data.entrants:
        if e.id in aliases:
            secrets.update((s, aliases[e.id].name) for s in secrets_of(e))
    for e in data.entrants:  # a reference's name stays, even where it is part of a student's
        if e.id not in aliases:
            secrets = {k: v for k, v in secrets.items() if k.lower() != e.name.lower()}
    scrub = Scrubber(secrets)

    def public(entrant: int) -> int:
        return number.get(entrant, SPACE + entrant)

    colour = anonymous_colours(key, [e.id for e in data.entrants], number)
    entrants = sorted((dataclasses.replace(
        e, id=number[e.id], name=name[e.name], path="", colour=colour[e.id],
        description="" if e.id in aliases else e.description, reason=scrub(e.reason))
        for e in data.entrants), key=lambda e: e.id)
    submissions = [dataclasses.replace(anonymous_submission(x, scrub),
                                       entrant=None if x.entrant is None else public(x.entrant))
                   for x in data.submissions]
    matches = [dataclasses.replace(
        m, seats=tuple(public(s) for s in m.seats), reasons=tuple(scrub(r) for r in m.reasons),
        stderr_tails=tuple("" for _ in m.stderr_tails)) for m in data.matches]
    records = scrubbed_records(data, name, scrub)

    def pairs(table: dict[tuple[int, int], Pair]) -> dict[tuple[int, int], Pair]:
        return {(public(a), public(b)): p for (a, b), p in table.items()}

    summary = data.summary
    if summary is not None:  # the format's own: its names and entrant ids
        summary = summary.renamed(lambda n: name.get(n, n), public)
    published = dataclasses.replace(
        data, entrants=entrants, matches=matches,
        standings=[dataclasses.replace(s, entrant=public(s.entrant)) for s in data.standings],
        history={public(e): points for e, points in data.history.items()},
        records=records, pairs=pairs(data.pairs),
        own_pairs={public(e): pairs(t) for e, t in data.own_pairs.items()},
        summary=summary, submissions=submissions,
        references=frozenset(public(e) for e in data.references))
    rows = sorted((AliasRow(aliases[e.id].name, e) for e in data.entrants if e.id in aliases),
                  key=lambda r: r.entrant.id)
    return published, rows


def anonymous_colours(key: str, ids: list[int], number: dict[int, int]) -> dict[int, int]:
    """Each entrant's colour place (``reports.colours``) in an anonymous report: the first 12
    entrants (by id) take the palette's 12 colours, in an order drawn from the alias key, so that
    they are distinct and stay put when others join, yet a colour tells nothing of the order of
    the entries; later entrants take the place after the palette given by their alias's number."""
    places = colour_places(ids)
    order = list(range(len(PALETTE)))
    random.Random(hashlib.sha256(f"arena-colours/{key}".encode()).digest()).shuffle(order)
    return {e: order[p] if p < len(order) else len(PALETTE) + number[e] for e, p in places.items()}


def without_logs(data: TournamentData) -> TournamentData:
    """``data`` as a public page shows it where only each author may read their bot's output (the
    contest server's): names kept, every stderr tail and check output left out, and the records
    say so (``stderr_withheld``)."""
    def keep(text: Any) -> Any:
        return text

    names = {e.name: e.name for e in data.entrants}
    matches = [dataclasses.replace(m, stderr_tails=tuple("" for _ in m.stderr_tails))
               for m in data.matches]
    submissions = [dataclasses.replace(x, stderr_tail="") for x in data.submissions]
    return dataclasses.replace(data, matches=matches, submissions=submissions,
                               records=scrubbed_records(data, names, keep))


def scrubbed_records(data: TournamentData, names: dict[str, str],
                     scrub: Callable[[Any], Any]) -> dict[int, bytes]:
    """``data``'s packed records, each passed through :func:`scrub_record`."""
    return {mid: pack_dict(scrub_record(json.loads(MatchRecord.unpack_json(blob)), names, scrub))
            for mid, blob in data.records.items()}


def anonymous_submission(submission: SubmissionInfo, scrub: Scrubber) -> SubmissionInfo:
    """A submission not admitted, as an anonymous report lists it: under its entrant's alias (a
    folder no entrant holds yet is "a new submission"), its reason without the folder's name,
    and no stderr."""
    alias = scrub(submission.name)
    shown = alias if alias != submission.name else NEW_SUBMISSION
    reason = Scrubber({submission.name: shown})(scrub(submission.reason))
    return dataclasses.replace(submission, name=shown, reason=reason, stderr_tail="")


def scrub_record(record: dict[str, Any], names: dict[str, str],
                 scrub: Callable[[Any], Any]) -> dict[str, Any]:
    """A full match record (its dict) with its seats under their aliases (no folder, no content
    hash), no stderr, and names replaced in the text the bots wrote (notes, answers, reasons)."""
    out = dict(record)
    out["seats"] = [{"name": names.get(seat.get("name", ""), scrub(seat.get("name", "")))}
                    for seat in record.get("seats", [])]
    statuses = []
    for status in record.get("statuses", []):
        status = {**status, "reason": scrub(status.get("reason", "")), "stderr_tail": "",
                  "stderr_withheld": True}  # said so on the page, never "no output"
        if isinstance(status.get("failure"), dict):
            status["failure"] = {**status["failure"], "answer": scrub(status["failure"].get("answer"))}
        statuses.append(status)
    out["statuses"] = statuses
    out["decisions"] = [
        {**d, **{k: scrub(d[k]) for k in ("note", "note_dropped") if k in d}}
        for d in record.get("decisions", [])]
    if "stopped" in out:
        out["stopped"] = scrub(out["stopped"])
    return out


def write_aliases(output_dir: Path, rows: list[AliasRow]) -> Path:
    """``OUTPUT/aliases.csv``: alias, entrant id, name, folder; rewritten only when it changes."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("alias", "id", "name", "folder"))
    for row in rows:
        writer.writerow((row.alias, row.entrant.id, row.entrant.name, row.entrant.path))
    path = Path(output_dir) / ALIASES_FILE
    text = buffer.getvalue()
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path
