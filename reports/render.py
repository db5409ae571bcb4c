"""Write the site: one jinja2 environment, the view models, the static assets, nothing else.

Layout of the output folder (all links relative, so it works from ``file://``)::

    index.html                      what was played, leaderboard, head to head, rating history
    head-to-head.html               the whole head-to-head matrix (the index shows the top 24)
    matches/list-N.html             every match in schedule order, 500 a page
    matches/<id>.html               one match with its replay viewer
    bots/<id>-<name>.html           one bot: by opponent, failures, its first 500 matches
    bots/<id>-<name>-matches-N.html the rest of its matches
    static/                         report.css, replay.js, games/<game>.js
"""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from reports.charts import Series, rating_history_svg
from reports.data import TournamentData
from reports.model import SiteModel

STATIC_SUFFIXES = (".css", ".js")


def script_json(text: str) -> Markup:
    """JSON text made safe inside ``<script type="application/json">``: no ``</script>``, no
    ``<!--``. The same escapes as jinja's ``tojson`` (``<``, ``>``, ``&``, ``'`` as ``\\u`` escapes,
    which JSON reads back as the same characters)."""
    return Markup(text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
                  .replace("'", "\\u0027"))


def environment() -> Environment:
    return Environment(
        loader=PackageLoader("reports", "templates"),
        autoescape=True,  # bot names, reasons and logs are untrusted
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


class SiteWriter:
    """Renders every page of one tournament into ``out``."""

    def __init__(self, data: TournamentData, out: Path) -> None:
        self.data = data
        self.out = out
        self.model = SiteModel(data)
        self.env = environment()
        self.common = {"site_name": data.name, "game": data.game}
        self._templates: dict[str, Any] = {}

    def _page(self, template: str, path: str, **context: Any) -> Path:
        """Render ``template`` to ``out/path``; links inside go up to the root by ``path``'s depth."""
        t = self._templates.get(template)
        if t is None:
            t = self._templates[template] = self.env.get_template(template)
        root = "../" * path.count("/")
        html = t.render(root=root, **self.common, **context)
        target = self.out / path
        target.write_text(html, encoding="utf-8")
        return target

    def write(self) -> Path:
        for folder in ("matches", "bots", "static/games"):
            (self.out / folder).mkdir(parents=True, exist_ok=True)
        self.copy_static()
        index = self.write_index()
        self.write_match_lists()
        self.write_bots()
        self.write_matches()
        return index

    def copy_static(self) -> None:
        src = resources.files("reports") / "static"
        self._copy_tree(src, self.out / "static")

    def _copy_tree(self, src: Any, dst: Path) -> None:
        dst.mkdir(parents=True, exist_ok=True)
        for item in sorted(src.iterdir(), key=lambda p: p.name):
            if item.is_dir():
                if not item.name.startswith(("_", ".")):
                    self._copy_tree(item, dst / item.name)
            elif item.name.endswith(STATIC_SUFFIXES):
                data = item.read_bytes()
                target = dst / item.name
                if not target.exists() or target.read_bytes() != data:
                    target.write_bytes(data)

    def drawer_for(self, game: str) -> str | None:
        """The game's replay drawer, ``static/games/<game>.js`` with its styles in the ``.css``
        beside it; ``None`` for a game without one (the viewer then lists the events)."""
        asset = resources.files("reports") / "static" / "games" / f"{game}.js"
        return f"games/{game}" if asset.is_file() else None

    def write_index(self) -> Path:
        """The index, and the whole head-to-head matrix beside it."""
        m, d = self.model, self.data
        series = [Series(m.bot(s.entrant).name, m.bot(s.entrant).colour, d.history.get(s.entrant, []))
                  for s in d.standings]
        last = max((x.number for x in d.matches), default=1)
        chart = rating_history_svg(series, last, d.initial_mu, d.initial_sigma)
        self._page("head_to_head.html.j2", "head-to-head.html", page_kind="head-to-head",
                   v=m.head_to_head())
        return self._page("index.html.j2", "index.html", page_kind="index", v=m.index(chart))

    def write_match_lists(self) -> None:
        for page in range(1, self.model.list_pages() + 1):
            self._page("matches.html.j2", self.model.list_href(page), page_kind="matches",
                       v=self.model.match_list(page))

    def write_bots(self) -> None:
        m = self.model
        by_bot: dict[int, list] = {e: [] for e in m.ranked}
        for match in self.data.matches:
            for e in dict.fromkeys(match.seats):  # once per match, even against itself
                by_bot.setdefault(e, []).append(match)
        for entrant in sorted(by_bot, key=lambda e: m.order.get(e, len(m.order))):
            matches = by_bot[entrant]
            self._page("bot.html.j2", m.bot(entrant).href, page_kind="bot", v=m.bot_view(entrant, matches))
            for page in range(2, m.pages_for(len(matches)) + 1):
                self._page("bot_matches.html.j2", m.bot_list_href(entrant, page), page_kind="bot",
                           v=m.bot_matches_page(entrant, matches, page))

    def write_matches(self) -> None:
        from arena.games import GAMES

        game = GAMES.get(self.data.game)
        drawer = self.drawer_for(self.data.game)
        for i, match in enumerate(self.data.matches):
            text = self.data.record(match.id) if match.played else None
            record = json.loads(text) if text is not None else None
            log: list[str] = []  # the game's own words for each event, for reading without script
            if record is not None and game is not None:
                names = [s.get("name", f"seat {i}") for i, s in enumerate(record.get("seats", []))]
                for event in record.get("events", []):
                    try:
                        line = game.describe(event, names)
                    except Exception:  # an event this version of the game does not know
                        line = json.dumps(event, sort_keys=True)
                    if line is not None:
                        log.append(line)
            self._page("match.html.j2", self.model.match_href(match.id), page_kind="match",
                       v=self.model.match_view(i, record, drawer, "\n".join(log)),
                       record_json=script_json(text) if text is not None else None)


def write_site(data: TournamentData, out: Path) -> Path:
    """Render ``data`` into ``out``; returns the index page."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    return SiteWriter(data, out).write()

