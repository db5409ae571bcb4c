"""One match on its own: ``arena view RECORD.json`` writes its replay as a single HTML file.

The page holds everything it needs, inline: the report's styles and scripts (report.css,
replay.js, match.js), the pieces and the game's replay drawer (found as the site finds them,
:func:`reports.render.game_assets`), and the record in its compact form (docs/match-record.md).
It works from ``file://`` with nothing beside it, and its Content-Security-Policy lets it fetch
nothing. ``arena play --view`` writes one for the match just played, through the
``arena.viewers`` entry point (arena does not import reports), which offers the page of a seat
at the table of ``arena play ... --browser`` too (:func:`table_html`).
"""
from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

from markupsafe import Markup

from arena.errors import ArenaError
from arena.record import COMPACT_KEY, MatchRecord, compact, expand, for_pages
from reports.render import environment, game_assets, script_json

# What would end an inline <script> or <style> early, or start an HTML comment in a script.
_CLOSERS = re.compile(r"</(script|style)|<!--", re.IGNORECASE)


def _inline(name: str, text: str) -> Markup:
    if _CLOSERS.search(text):
        raise ValueError(f"{name} cannot be inlined: it holds '</script', '</style' or '<!--'")
    return Markup(text)


def _assets(game: str, *page_scripts: str) -> tuple[list[Markup], list[Markup]]:
    """The styles and the scripts of a page of one match of ``game``, inline: the report's, the
    pieces, the game's replay drawer, then ``page_scripts`` from ``static/``."""
    static = resources.files("reports") / "static"
    assets = game_assets(game)
    styles = [static / "report.css", assets["pieces.css"],
              *[assets[name] for name in (f"games/{game}.css",) if name in assets]]
    scripts = [static / "replay.js", assets["pieces.js"],
               *[assets[name] for name in (f"games/{game}.js",) if name in assets],
               *[static / name for name in page_scripts]]
    return ([_inline(p.name, p.read_text(encoding="utf-8")) for p in styles],
            [_inline(p.name, p.read_text(encoding="utf-8")) for p in scripts])


def view_html(record: MatchRecord, title: str) -> str:
    """The page: ``record``'s replay, every asset inline."""
    styles, scripts = _assets(record.game, "match.js")
    data = json.dumps(for_pages(compact(record.to_dict())), ensure_ascii=False, separators=(",", ":"))
    return environment().get_template("view.html.j2").render(
        title=title, game=record.game, record=script_json(data), styles=styles, scripts=scripts)


def table_html(game: str, title: str) -> str:
    """The page of a seat at the table (``arena play GAME human BOT... --browser``; the
    ``arena.viewers`` entry point ``table``): the replay viewer and the game's drawer, which
    ``table.js`` feeds with the seat's view from the server that serves the page."""
    styles, scripts = _assets(game, "table.js")
    return environment().get_template("table.html.j2").render(
        title=title, game=game, styles=styles, scripts=scripts)


def match_title(record: MatchRecord) -> str:
    """The page title: ``<game title>, seed 7: greedy v random``."""
    try:
        from arena.games import get_game
        game = get_game(record.game).title
    except ArenaError:
        game = record.game
    names = " v ".join(str(s.get("name", "?")) for s in record.seats)
    return f"{game}, seed {record.seed}: {names}"


def write_view(record: MatchRecord, page: Path | str) -> Path:
    """Write ``record``'s one-match page to ``page`` (the ``arena.viewers`` entry point)."""
    page = Path(page)
    page.write_text(view_html(record, match_title(record)), encoding="utf-8")
    return page


def read_record(path: Path) -> MatchRecord:
    """A match record written by ``arena play --replay``; a file that is not one is one line."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ArenaError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise ArenaError(f"{path}: not a match record (not JSON: {exc})") from None
    if not isinstance(data, dict) or not str(data.get("format", "")).startswith("arena-match/"):
        raise ArenaError(f"{path}: not a match record (no \"format\": \"arena-match/...\"; "
                         "`arena play ... --replay FILE` writes one)")
    try:
        return MatchRecord.from_dict(expand(data) if data.get(COMPACT_KEY) else data)
    except (TypeError, KeyError) as exc:
        raise ArenaError(f"{path}: not a match record ({exc})") from None
