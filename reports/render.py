"""Write the site: one jinja2 environment, the view models, the static assets, nothing else.

Layout of the site folder (``OUTPUT/site/`` by default; all links relative, so it works from
``file://``)::

    index.html                      what was played, leaderboard, head to head, rating history
    head-to-head.html               the whole head-to-head matrix (the index shows the top 24)
    matches/list-N.html             every match in schedule order, 500 a page
    replay.html?match=<id>#step=N   the one replay page: loads records/<id>.js on demand
    records/<id>.js                 one match record in its packed form, as a script
    site.js                         what the replay page needs to know about the site (bots, ids)
    bots/<id>-<name>.html           one bot: by opponent, failures, its first 500 matches
    bots/<id>-<name>-matches-N.html the rest of its matches
    static/                         the report's own report.css, replay.js, match.js, index.js;
                                    pieces.js, pieces.css (arena/games/pieces/: tiles, cards, dice);
                                    games/<game>.js, .css (the game's drawer.js, drawer.css)

The report knows no game: the shared drawings of pieces and each game's replay drawer live with the
games (``arena/games/pieces/``, ``arena/games/<game>/drawer.js`` and ``drawer.css``, found from the
game: :attr:`arena.game.Game.folder`) and are copied into ``static/``, so that the site needs
nothing outside its folder.

A record script is ``Arena.loadRecord(<id>, "<bytes>", "<encoding>")``: the packed record as
stored (``arena.record``: zlib of the compact JSON), either as its bytes in a string literal read
as ``x-user-defined`` (a byte per character: the smallest; the default) or in base64 (a third
larger; plain ASCII, which reads the same whatever encoding a web server declares for scripts:
GitHub Pages declares UTF-8, which garbles bytes). ``replay.js`` inflates it with the browser's
``DecompressionStream``. ``records/ENCODING`` says which a site's records are; rendering with the
other one writes them all again. A browser refuses ``fetch`` from ``file://`` but runs scripts, so records
load as scripts. Records are written once: a record file that exists is never written again, and
a page whose text has not changed is not rewritten, so rendering after a resumed tournament writes
only what changed.
"""
from __future__ import annotations

import base64
import functools
import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from arena.record import for_pages
from reports.charts import Series, rating_history_svg
from reports.data import MatchInfo, TournamentData
from reports.model import SiteModel

STATIC_SUFFIXES = (".css", ".js")
LIVE_REFRESH_S = 30  # how often a live report's pages reload themselves


RECORD_ENCODINGS = ("bytes", "base64")


def record_script(match_id: int, blob: bytes, encoding: str = "bytes") -> bytes:
    """``records/<id>.js``: the packed record as a string literal, of bytes (read as
    x-user-defined, where every byte is one character) or in base64."""
    if encoding == "base64":
        body = base64.b64encode(blob)
    else:
        body = (blob.replace(b"\\", b"\\\\").replace(b'"', b'\\"').replace(b"\n", b"\\n")
                .replace(b"\r", b"\\r").replace(b"\0", b"\\x00"))
    return b'Arena.loadRecord(%d,"%s","%s");\n' % (match_id, body, encoding.encode())


def script_json(text: str) -> Markup:
    """JSON text made safe inside ``<script type="application/json">``: no ``</script>``, no
    ``<!--``. The same escapes as jinja's ``tojson`` (``<``, ``>``, ``&``, ``'`` as ``\\u`` escapes,
    which JSON reads back as the same characters)."""
    return Markup(text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
                  .replace("'", "\\u0027"))


@functools.cache
def environment() -> Environment:
    """The one environment of the report's templates: each template is compiled once per process
    (the contest server renders an author's page on every request; compiling it took most of
    the request's time)."""
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

    def __init__(self, data: TournamentData, out: Path, *, live: bool = False,
                 records: str = "bytes") -> None:
        if records not in RECORD_ENCODINGS:
            raise ValueError(f"records: {records!r} is not one of {', '.join(RECORD_ENCODINGS)}")
        self.data = data
        self.out = out
        self.records = records
        self.model = SiteModel(data)
        self.env = environment()
        self.live = live
        # every bot's colour as a class (.bN), for the compact rows of the match lists
        classes = "".join(f".b{e.id}{{--c:{self.model.bot(e.id).colour}}}" for e in data.entrants)
        self.common = {"site_name": data.name, "game": data.game, "bot_classes": Markup(classes),
                       "refresh": LIVE_REFRESH_S if live else None, "anonymous": data.anonymous}
        self._templates: dict[str, Any] = {}
        self.written: list[str] = []  # pages and records this render wrote (unchanged ones are not)

    def _write(self, path: str, data: bytes) -> Path:
        """Write ``out/path`` unless it holds these bytes already."""
        target = self.out / path
        try:
            if target.stat().st_size == len(data) and target.read_bytes() == data:
                return target
        except FileNotFoundError:
            pass
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)  # a browser reloading a live page never sees half of it
        self.written.append(path)
        return target

    def _page(self, template: str, path: str, **context: Any) -> Path:
        """Render ``template`` to ``out/path``; links inside go up to the root by ``path``'s depth."""
        t = self._templates.get(template)
        if t is None:
            t = self._templates[template] = self.env.get_template(template)
        root = "../" * path.count("/")
        html = t.render(root=root, **self.common, **context)
        return self._write(path, html.encode("utf-8"))

    @property
    def records_form(self) -> str:
        """What ``records/ENCODING`` holds: the encoding, then ``aliases`` in an anonymous site."""
        return records_form(self.records, self.data.anonymous)

    def forget_other_form(self) -> None:
        """A site rendered with the entrants' names and now anonymously (or the other way round)
        first loses every page and record that names them (the bots' pages, the match lists,
        ``site.js``, the records), so that no real name stays behind in a published folder."""
        marker = self.out / "records" / "ENCODING"
        words = marker.read_text().split() if marker.is_file() else []
        if ("aliases" in words[1:]) == self.data.anonymous:
            return
        for pattern in ("records/*.js", "matches/*.html", "bots/*.html", "site.js"):
            for path in self.out.glob(pattern):
                path.unlink()
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(self.records_form + "\n")

    def write(self) -> Path:
        for folder in ("matches", "bots", "records", "static"):
            (self.out / folder).mkdir(parents=True, exist_ok=True)
        self.forget_other_form()
        self.copy_static()
        self.remove_old_match_pages()
        index = self.write_index()
        self.write_match_lists()
        self.write_bots()
        self.write_replay()
        self.write_records()
        return index

    def remove_old_match_pages(self) -> None:
        """A site rendered by an older arena had a page per match (``matches/<id>.html``) with the
        whole record inside, bot folders included: the replay page replaces them."""
        for page in (self.out / "matches").glob("*.html"):
            if page.stem.isdigit():
                page.unlink()

    def write_live(self) -> Path:
        """While a tournament runs: the index and the head-to-head page only, reloading
        themselves (``refresh``); the rest is written when it ends."""
        (self.out / "static").mkdir(parents=True, exist_ok=True)
        self.forget_other_form()
        self.copy_static()
        return self.write_index()

    def copy_static(self) -> None:
        """The report's own scripts and styles, the pieces, and the drawer of the site's game."""
        self._copy_tree(resources.files("reports") / "static", self.out / "static")
        for name, source in game_assets(self.data.game).items():
            self._copy(source, self.out / "static" / name)

    def _copy_tree(self, src: Any, dst: Path) -> None:
        dst.mkdir(parents=True, exist_ok=True)
        for item in sorted(src.iterdir(), key=lambda p: p.name):
            if item.is_dir():
                if not item.name.startswith(("_", ".")):
                    self._copy_tree(item, dst / item.name)
            elif item.name.endswith(STATIC_SUFFIXES):
                self._copy(item, dst / item.name)

    @staticmethod
    def _copy(item: Any, target: Path) -> None:
        data = item.read_bytes()
        if not target.exists() or target.read_bytes() != data:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)

    def drawer_for(self, game: str) -> str | None:
        """The game's replay drawer as the site holds it, ``static/games/<game>.js`` with its
        styles in the ``.css`` beside it; ``None`` for a game without one (the viewer then lists
        the events)."""
        return f"games/{game}" if f"games/{game}.js" in game_assets(game) else None

    def write_index(self) -> Path:
        """The index, and the whole head-to-head matrix beside it."""
        m, d = self.model, self.data
        series = [Series(m.bot(s.entrant).name, m.bot(s.entrant).colour, d.history.get(s.entrant, []),
                         s.entrant) for s in d.standings]
        last = max((x.number for x in d.matches), default=1)
        chart = rating_history_svg(series, last, d.initial_mu, d.initial_sigma)
        self._page("head_to_head.html.j2", "head-to-head.html", page_kind="head-to-head",
                   v=m.head_to_head())
        return self._page("index.html.j2", "index.html", page_kind="index",
                          v=m.index(chart, live=self.live))

    def write_match_lists(self) -> None:
        for page in range(1, self.model.list_pages() + 1):
            self._page("matches.html.j2", self.model.list_href(page), page_kind="matches",
                       v=self.model.match_list(page))

    def write_bots(self) -> None:
        m = self.model
        by_bot: dict[int, list[MatchInfo]] = {e: [] for e in m.ranked}
        for match in self.data.matches:
            for e in dict.fromkeys(match.seats):  # once per match, even against itself
                by_bot.setdefault(e, []).append(match)
        for entrant in sorted(by_bot, key=lambda e: m.order.get(e, len(m.order))):
            matches = by_bot[entrant]
            self._page("bot.html.j2", m.bot(entrant).href, page_kind="bot", v=m.bot_view(entrant, matches))
            for page in range(2, m.pages_for(len(matches)) + 1):
                self._page("bot_matches.html.j2", m.bot_list_href(entrant, page), page_kind="bot",
                           v=m.bot_matches_page(entrant, matches, page))

    def site_info(self) -> dict[str, Any]:
        """``site.js``: what the replay page needs besides the record."""
        m = self.model
        ids = [x.id for x in self.data.matches if x.played]
        runs: list[list[int]] = []
        for i in ids:
            if runs and runs[-1][1] == i - 1:
                runs[-1][1] = i
            else:
                runs.append([i, i])
        return {
            "name": self.data.name, "game": self.data.game,
            "last": max((x.id for x in self.data.matches), default=0),
            "perPage": m.per_page, "listed": [x.id for x in self.data.matches] == ids,
            "played": runs,
            "bots": {b.name: {"id": b.id, "href": b.href, "colour": b.colour}
                     for b in (m.bot(e.id) for e in self.data.entrants)},
        }

    def write_replay(self) -> None:
        info = json.dumps(for_pages(self.site_info()), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        self._write("site.js", f"(window.Arena = window.Arena || {{}}).site = {info};\n".encode())
        self._page("replay.html.j2", "replay.html", page_kind="match",
                   drawer=self.drawer_for(self.data.game), game_title=self.model.game_title())

    def write_records(self) -> None:
        """``records/<id>.js`` for every played match that has none yet (records never change),
        from the packed records the data holds."""
        from arena.record import is_compact, pack_dict, page_blob

        folder = self.out / "records"
        marker = folder / "ENCODING"
        have = published_records(self.out, self.records, self.data.anonymous)
        if not have and not (marker.is_file() and marker.read_text().strip() == self.records_form):
            marker.write_text(self.records_form + "\n")  # a new site, or its records in the other form
        played = {m.id for m in self.data.matches if m.played}
        for mid, blob in sorted(self.data.records.items()):
            if mid not in played or mid in have:
                continue
            if not is_compact(blob):  # a store written before the compact form: pack it again
                from arena.record import MatchRecord
                blob = pack_dict(json.loads(MatchRecord.unpack_json(blob)))
            target = folder / f"{mid}.js"
            target.write_bytes(record_script(mid, page_blob(blob), self.records))
            self.written.append(f"records/{mid}.js")


def records_form(encoding: str, anonymous: bool) -> str:
    """What ``records/ENCODING`` holds: the encoding, then ``aliases`` in an anonymous site."""
    return encoding + (" aliases" if anonymous else "")


def published_records(site: Path, encoding: str, anonymous: bool) -> set[int]:
    """The ids of the matches whose ``records/<id>.js`` the site holds already in this form (none
    when it holds them in another: they are all written again)."""
    folder = Path(site) / "records"
    marker = folder / "ENCODING"
    if not marker.is_file() or marker.read_text().strip() != records_form(encoding, anonymous):
        return set()
    return {int(n[:-3]) for n in os.listdir(folder) if n.endswith(".js") and n[:-3].isdigit()}


def game_assets(game: str) -> dict[str, Path]:
    """What the site's ``static/`` gets from the games for ``game``: the shared pieces
    (``pieces.js``, ``pieces.css``) and the game's replay drawer from its folder
    (``drawer.js`` as ``games/<game>.js``, ``drawer.css`` as ``games/<game>.css``), by path in
    ``static/``. A game that is not registered (a store of a game this arena does not know) or
    has no drawer gets the pieces only."""
    from arena.errors import UnknownGameError
    from arena.games import PIECES, get_game

    assets = {name: PIECES / name for name in ("pieces.js", "pieces.css")}
    try:
        folder = get_game(game).folder
    except UnknownGameError:
        return assets
    for suffix in STATIC_SUFFIXES:
        drawer = folder / f"drawer{suffix}"
        if drawer.is_file():
            assets[f"games/{game}{suffix}"] = drawer
    return assets


def write_site(data: TournamentData, out: Path, *, live: bool = False, records: str = "bytes") -> Path:
    """Render ``data`` into ``out``; returns the index page. ``live``: only the pages a running
    tournament refreshes (:meth:`SiteWriter.write_live`); ``records``: their encoding
    (``RECORD_ENCODINGS``, module docstring)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    writer = SiteWriter(data, out, live=live, records=records)
    return writer.write_live() if live else writer.write()
