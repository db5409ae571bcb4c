"""The rendered site without a browser: layout, escaping, embedded records, determinism, sizes."""
from __future__ import annotations

import base64
import filecmp
import json
import re
import shutil
import sqlite3
import zlib
from html.parser import HTMLParser
from pathlib import Path

import markupsafe
import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.games import GAMES, PIECES
from arena.record import for_pages
from reports import render_site
from reports.charts import thin
from reports.data import EntrantInfo, MatchInfo, RatingPoint, Standing, TournamentData
from reports.render import SiteWriter, script_json
from tests.reports.conftest import EVIL_TEXT, ROOT, Site
from tournaments.ratings import compute_ratings, pair_table
from tournaments.store import Store

RECORD_RE = re.compile(rb'Arena\.loadRecord\((\d+),"(.*)","(bytes|base64)"\);\n', re.S)


def read_record_script(path: Path) -> tuple[int, dict]:
    """The match id and the full record in ``records/<id>.js`` (as the browser reads it)."""
    from arena.record import expand

    (match_id, body, encoding), = RECORD_RE.findall(path.read_bytes())
    if encoding == b"base64":
        raw = base64.b64decode(body, validate=True)
    else:
        raw = re.sub(rb"\\(x00|.)", lambda m: {b"n": b"\n", b"r": b"\r", b"x00": b"\0"}.get(m.group(1), m.group(1)),
                     body)
    return int(match_id), expand(json.loads(zlib.decompress(raw)))


def pages(site: Site) -> list[Path]:
    return sorted(site.site_dir.rglob("*.html"))


def stored(site: Site):
    store = Store.open(site.store_dir)
    return store


class Rows(HTMLParser):
    """Collects ``data-entrant`` of the leaderboard's rows and the text of heatmap cells."""

    def __init__(self) -> None:
        super().__init__()
        self.entrants: list[int] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "tr" and a.get("data-entrant") is not None:
            self.entrants.append(int(a["data-entrant"] or 0))


def test_every_page_is_written(two_player: Site) -> None:
    with stored(two_player) as store:
        ids = [m.id for m in store.matches.all()]
        entrants = store.field.entrants()
    out = two_player.site_dir
    assert two_player.index == out / "index.html"
    assert (out / "matches" / "list-1.html").is_file()
    assert (out / "head-to-head.html").is_file()
    for match_id in ids:
        assert (out / "records" / f"{match_id}.js").is_file()
    assert (out / "replay.html").is_file() and (out / "site.js").is_file()
    assert not list((out / "matches").glob("[0-9]*.html"))  # one replay page, not one per match
    bot_pages = sorted(p.name for p in (out / "bots").glob("*.html"))
    assert len(bot_pages) == len(entrants)
    assert all(re.fullmatch(r"\d+-[a-z0-9-]+\.html", name) for name in bot_pages), bot_pages
    for asset in ("report.css", "replay.js", "match.js", "pieces.js", "pieces.css",
                  "games/block.js", "games/block.css"):
        assert (out / "static" / asset).is_file()


def test_untrusted_text_is_escaped_everywhere(two_player: Site) -> None:
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    for page in pages(two_player):
        html = page.read_text(encoding="utf-8")
        assert EVIL_TEXT not in html, page
        assert "<script>alert(2)" not in html, page  # from the flaky bot's stderr
        assert "<b>cup</b>" not in html and "<b>on purpose</b>" not in html, page
        # the only script elements are the site's own
        for tag in re.findall(r"<script[^>]*>", html):
            assert tag in ('<script src="site.js">', '<script src="static/replay.js">',
                           '<script src="static/pieces.js">', '<script src="static/match.js">',
                           '<script src="static/games/block.js">',
                           '<script src="static/index.js">'), (page, tag)
    bot_page = next((two_player.site_dir / "bots").glob("*-flaky.html"))
    html = bot_page.read_text(encoding="utf-8")
    assert escaped in html
    assert "&lt;/pre&gt;&lt;script&gt;alert(2)" in html  # its stderr tail, as text


def test_record_scripts_hold_the_stored_record(two_player: Site) -> None:
    with stored(two_player) as store:
        for row in store.matches.all():
            match_id, record = read_record_script(two_player.site_dir / "records" / f"{row.id}.js")
            assert match_id == row.id
            full = json.loads(store.matches.record(row.id).to_json())
            for seat in full["seats"]:
                seat.pop("path", None)
            for d in full["decisions"]:
                d["ms"] = round(d["ms"], 1)
            assert record == for_pages(full)  # seeds past 2^53 as text, for the page
            assert record["seed"] == (str(row.seed) if row.seed > 2 ** 53 else row.seed)


def test_no_organiser_folder_is_published(two_player: Site) -> None:
    """Bot folders can hold students' names: no page, record or data file carries them."""
    with stored(two_player) as store:
        paths = [e.path for e in store.field.entrants()]
        described = [e for e in store.field.entrants() if e.description]
    assert described, "the bundled bots have descriptions"
    for f in two_player.site_dir.rglob("*"):
        if f.is_file() and f.suffix in (".html", ".js"):
            data = f.read_bytes()
            if f.parent.name == "records":
                data = json.dumps(read_record_script(f)[1]).encode()
            for path in paths:
                assert path.encode() not in data, (f, path)
    for e in described:
        page = next((two_player.site_dir / "bots").glob(f"{e.id}-*.html")).read_text(encoding="utf-8")
        assert str(markupsafe.escape(e.description)) in page


def test_match_lists_spend_no_column_on_the_seed(two_player: Site) -> None:
    with stored(two_player) as store:
        seeds = [str(m.seed) for m in store.matches.all()]
    html = (two_player.site_dir / "matches" / "list-1.html").read_text(encoding="utf-8")
    assert ">Seed<" not in html
    assert not any(seed in html for seed in seeds)


def test_embedded_json_cannot_close_its_element() -> None:
    text = script_json(json.dumps({"name": "</script><!-- & 'x'"}, ensure_ascii=False))
    assert "<" not in text and ">" not in text and "&" not in text and "'" not in text
    assert json.loads(text) == {"name": "</script><!-- & 'x'"}


def test_leaderboard_is_in_rating_order(two_player: Site) -> None:
    with stored(two_player) as store:
        expected = [s.entrant.id for s in compute_ratings(store).standings]
    parser = Rows()
    parser.feed(two_player.index.read_text(encoding="utf-8"))
    assert parser.entrants == expected


def test_head_to_head_cells_match_the_ratings(two_player: Site) -> None:
    with stored(two_player) as store:
        ratings = compute_ratings(store)
    html = two_player.index.read_text(encoding="utf-8")
    order = [s.entrant for s in ratings.standings]
    for a in order:
        for b in order:
            if a.id == b.id:
                continue
            won, drawn, lost = ratings.head_to_head[(a.id, b.id)]
            assert f'<span class="cell-main">{won}-{drawn}-{lost}</span>' in html


def test_three_player_head_to_head_is_the_average_place(three_player: Site) -> None:
    with stored(three_player) as store:
        matches = store.matches.all()
        entrants = store.field.entrants()
    a, b = entrants[0].id, entrants[1].id
    places = [m.ranks[m.seats.index(a)] for m in matches if a in m.seats and b in m.seats]
    html = three_player.index.read_text(encoding="utf-8")
    assert "average finishing place" in html
    assert f"average place {sum(places) / len(places):.2f} in {len(places)} matches" in html


def test_rendering_again_gives_the_same_files(two_player: Site, tmp_path: Path) -> None:
    again = tmp_path / "again"
    render_site(two_player.store_dir, again)
    ours = sorted(p.relative_to(two_player.site_dir) for p in two_player.site_dir.rglob("*") if p.is_file())
    theirs = sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    assert ours == theirs
    _, mismatch, errors = filecmp.cmpfiles(two_player.site_dir, again, [str(p) for p in ours], shallow=False)
    assert mismatch == [] and errors == []
    # and rendering over it rewrites nothing
    before = {p: p.stat().st_mtime_ns for p in again.rglob("*") if p.is_file()}
    render_site(two_player.store_dir, again)
    assert [p for p, m in before.items() if p.stat().st_mtime_ns != m] == []


def test_rendering_after_a_resume_rewrites_only_what_changed(two_player: Site, tmp_path: Path) -> None:
    """A site rendered when the store held some matches, rendered again when it holds all: the
    records already there are not written again; the new ones are; unchanged pages stay."""
    part = tmp_path / "part"
    part.mkdir()
    src = sqlite3.connect(two_player.store_dir / "tournament.sqlite")
    dst = sqlite3.connect(part / "tournament.sqlite")
    src.backup(dst)
    src.close()
    with stored(two_player) as store:
        ids = [m.id for m in store.matches.all()]
    late = ids[len(ids) // 2:]
    dst.execute(f"DELETE FROM matches WHERE id IN ({','.join(map(str, late))})")
    dst.commit()
    dst.close()
    site = tmp_path / "site"
    render_site(part, site)
    assert not any((site / "records" / f"{i}.js").exists() for i in late)
    before = {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()}
    render_site(two_player.store_dir, site)
    changed = {str(p.relative_to(site)) for p, m in before.items() if p.stat().st_mtime_ns != m}
    assert not any(c.startswith("records/") for c in changed), changed
    assert not any(c.startswith("static/") for c in changed), changed
    assert "index.html" in changed and "site.js" in changed
    assert all((site / "records" / f"{i}.js").exists() for i in late)
    # the result is the site a fresh render makes
    fresh = tmp_path / "fresh"
    render_site(two_player.store_dir, fresh)
    names = sorted(str(p.relative_to(fresh)) for p in fresh.rglob("*") if p.is_file())
    assert names == sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file())
    _, mismatch, errors = filecmp.cmpfiles(fresh, site, names, shallow=False)
    assert mismatch == [] and errors == []


def test_a_live_report_reloads_itself_until_the_end(two_player: Site, tmp_path: Path) -> None:
    site = tmp_path / "live"
    index = render_site(two_player.store_dir, site, live=True)
    html = index.read_text(encoding="utf-8")
    assert '<meta http-equiv="refresh" content="30">' in html
    assert "The tournament is running" in html
    assert not (site / "records").exists()  # cheap: the index and head to head only
    render_site(two_player.store_dir, site)
    html = index.read_text(encoding="utf-8")
    assert "http-equiv" not in html and "The tournament is running" not in html


def test_match_lists_are_split_into_pages(two_player: Site, tmp_path: Path, monkeypatch) -> None:
    import reports.site

    monkeypatch.setattr(reports.site, "MATCHES_PER_PAGE", 2)
    out = tmp_path / "paged"
    render_site(two_player.store_dir, out)
    with stored(two_player) as store:
        total = len(store.matches.all())
    lists = sorted((out / "matches").glob("list-*.html"))
    assert len(lists) == (total + 1) // 2
    first = lists[0].read_text(encoding="utf-8")
    assert 'href="../matches/list-2.html"' in first and 'rel="next"' in first
    # a bot with four matches: its page holds two, a second page the rest
    extra = sorted((out / "bots").glob("*-matches-2.html"))
    assert len(extra) == 3


def test_the_report_command(two_player: Site, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["report", str(two_player.store_dir), "--site", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "s" / "index.html").is_file()
    assert f"report: {tmp_path / 's' / 'index.html'} (" in result.output


def test_the_report_command_writes_the_site_folder_beside_the_store(two_player: Site,
                                                                    tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(two_player.store_dir, out)
    result = CliRunner().invoke(cli, ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert f"report: {out / 'site' / 'index.html'} (" in result.output
    assert (out / "site" / "replay.html").is_file() and not (out / "index.html").exists()
    assert sorted(p.name for p in (out / "site").iterdir()) == [
        "bots", "head-to-head.html", "index.html", "matches", "records", "replay.html", "site.js",
        "static"]


def test_the_report_command_checks_its_site_folder_first(two_player: Site, tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("x")
    result = CliRunner().invoke(cli, ["report", str(two_player.store_dir), "--site",
                                      str(tmp_path / "a-file" / "site")])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("arena: error: --site ") and "is a file, not a folder" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_the_report_command_names_a_missing_store(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["report", str(tmp_path)])
    assert result.exit_code == 2, result.output  # a user's mistake, not a crash
    assert result.stderr == (f"arena: error: {tmp_path}: no tournament store here "
                             f"(expected {tmp_path / 'tournament.sqlite'})\n")
    assert result.stdout == ""


def test_thinning_keeps_the_last_point_of_each_slice() -> None:
    points = [RatingPoint(n, float(n), 1.0) for n in range(1, 1001)]
    thinned = thin(points, 1000, 100)
    assert len(thinned) == 100
    assert thinned[-1] == points[-1]
    assert [p.number for p in thinned] == sorted(p.number for p in thinned)
    assert thin(points[:50], 1000, 100) == points[:50]


def test_the_rating_chart_colours_the_top_8_and_greys_the_rest() -> None:
    """12 to 40 lines in 12 to 40 colours are a tangle: the top 8 keep their colours (and bands),
    drawn above the rest, the leader last; the others are grey lines without a band."""
    from reports.charts import Series, rating_history_svg
    series = [Series(f"bot-{i}", f"#0000{i:02x}", [RatingPoint(1, 25.0 - i, 2.0)], entrant=i) for i in range(12)]
    svg = str(rating_history_svg(series, 1, 25.0, 8.3))
    lines = re.findall(r'<polyline class="([^"]*)" data-entrant="(\d+)"', svg)
    assert [int(e) for _, e in lines] == [8, 9, 10, 11, 7, 6, 5, 4, 3, 2, 1, 0]
    assert {int(e) for c, e in lines if c == "chart-line is-rest"} == {8, 9, 10, 11}
    bands = re.findall(r'<polygon class="([^"]*)" data-entrant="(\d+)"', svg)
    assert {int(e) for c, e in bands if c == "chart-band"} == set(range(8))


@pytest.mark.parametrize("entrants,matches", [(16, 12_000), (60, 12_000)])
def test_the_index_stays_small_for_long_tournaments(tmp_path: Path, entrants: int, matches: int) -> None:
    """Every match on the index would be megabytes; the chart is thinned and the list split."""
    people = [EntrantInfo(i, f"bot number {i}", f"/bots/{i}") for i in range(entrants)]
    rows, history = [], {i: [] for i in range(entrants)}
    for n in range(1, matches + 1):
        a, b = n % entrants, (n * 7 + 3) % entrants
        if a == b:
            b = (b + 1) % entrants
        rows.append(MatchInfo(id=n, number=n, seats=(a, b), seed=n, scores=(100, n % 90),
                              ranks=(1, 2), statuses=("ok", "ok"), reasons=("", ""),
                              stderr_tails=("", ""), time_ms=(1.0, 1.0), duration_ms=50.0))
        for e in (a, b):
            history[e].append(RatingPoint(n, 25 + (e - 8) * (1 - 1 / (1 + n / 500)), 8.3 / (1 + n / 300)))
    standings = sorted(
        (Standing(e.id, history[e.id][-1].mu, history[e.id][-1].sigma, 1500, 700, 0, 80.0, 0) for e in people),
        key=lambda s: -s.exposed)
    data = TournamentData(name="big", game="block", options={"num_players": 2}, seed=1, entrants=people,
                          matches=rows, standings=standings, history=history,
                          pairs=pair_table(rows), planned=matches)
    tmp_path.mkdir(exist_ok=True)
    index = SiteWriter(data, tmp_path).write_index()
    size = index.stat().st_size
    assert size < 1_000_000, size
    html = index.read_text(encoding="utf-8")
    assert 'href="matches/list-24.html"' in html
    assert html.count('class="row-head"') == min(entrants, 24)
    full = (tmp_path / "head-to-head.html").read_text(encoding="utf-8")
    assert full.count('class="row-head"') == entrants
    if entrants > 24:
        assert 'href="head-to-head.html"' in html


def test_a_tournament_without_results_yet(tmp_path: Path) -> None:
    from tournaments.config import parse_config
    from tournaments.run import open_store, prepare

    config = parse_config({"game": "block", "entrants": [str(ROOT / "bots" / "random"),
                                                         str(ROOT / "bots" / "heavy")],
                           "ratings": {"draw_probability": 0.01}}, base_dir=tmp_path)
    store, _ = open_store(prepare(config, tmp_path / "out"))
    store.close()
    index = render_site(tmp_path / "out")
    assert index == tmp_path / "out" / "site" / "index.html"
    html = index.read_text(encoding="utf-8")
    assert "0 played of 2" in html
    assert (tmp_path / "out" / "site" / "matches" / "list-1.html").is_file()


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_the_site_gets_the_pieces_and_its_games_drawer_from_the_games_folders(
        game_name: str, tmp_path: Path) -> None:
    """The site needs nothing outside its folder: its static/ gets the shared pieces and the
    drawer of its game, copied from the game's folder, and the replay page loads them."""
    game = GAMES[game_name]
    people = [EntrantInfo(i, f"bot {i}", f"/bots/{i}") for i in range(game.default_players)]
    data = TournamentData(name="t", game=game_name, options={"num_players": game.default_players},
                          seed=1, entrants=people, matches=[], standings=[], history={},
                          planned=0)
    SiteWriter(data, tmp_path).write()
    static = tmp_path / "static"
    for site_name, source in ((f"games/{game_name}.js", game.folder / "drawer.js"),
                              (f"games/{game_name}.css", game.folder / "drawer.css"),
                              ("pieces.js", PIECES / "pieces.js"),
                              ("pieces.css", PIECES / "pieces.css")):
        assert (static / site_name).read_bytes() == source.read_bytes(), site_name
    drawers = sorted(p.name for p in (static / "games").iterdir())
    assert drawers == [f"{game_name}.css", f"{game_name}.js"]  # only its own game's
    replay = (tmp_path / "replay.html").read_text(encoding="utf-8")
    for tag in ('<script src="static/pieces.js">', f'<script src="static/games/{game_name}.js">',
                '<link rel="stylesheet" href="static/pieces.css">',
                f'<link rel="stylesheet" href="static/games/{game_name}.css">'):
        assert tag in replay


def test_a_store_of_format_2_still_renders(two_player: Site, tmp_path: Path) -> None:
    """A store written before records were packed compactly and descriptions kept: its records
    are packed again for the site (without the bot folders inside them), its bots have no
    description, and opening it to resume marks it with the current format."""
    from arena.record import MatchRecord, is_compact
    from tournaments.store import STORE_FORMAT

    old = tmp_path / "old"
    old.mkdir()
    src = sqlite3.connect(two_player.store_dir / "tournament.sqlite")
    dst = sqlite3.connect(old / "tournament.sqlite")
    src.backup(dst)
    src.close()
    with stored(two_player) as store:
        paths = {e.name: e.path for e in store.field.entrants()}
    for mid, blob in dst.execute("SELECT id, record FROM matches").fetchall():
        data = MatchRecord.unpack(blob).to_dict()
        for seat in data["seats"]:
            seat["path"] = paths[seat["name"]]
        full = zlib.compress(json.dumps(data).encode(), 6)
        assert not is_compact(full)
        dst.execute("UPDATE matches SET record = ? WHERE id = ?", (full, mid))
    dst.execute("ALTER TABLE entrants DROP COLUMN description")
    dst.execute("UPDATE meta SET value = ? WHERE key = 'format'", (json.dumps("arena-tournament-store/2"),))
    dst.commit()
    dst.close()
    site = tmp_path / "site"
    (site / "matches").mkdir(parents=True)
    (site / "matches" / "1.html").write_text(f"a page per match, as an older arena wrote: {paths}")
    render_site(old, site)
    assert not (site / "matches" / "1.html").exists()
    with stored(two_player) as store:
        for row in store.matches.all():
            _, record = read_record_script(site / "records" / f"{row.id}.js")
            assert record["scores"] == list(row.scores)
            assert all("path" not in seat for seat in record["seats"])
    for path in paths.values():
        assert path not in (site / "index.html").read_text(encoding="utf-8")
    with Store.open(old) as store:
        assert all(e.description == "" for e in store.field.entrants())
    with Store.open(old, write=True) as store:
        store.upgrade()
    with Store.open(old) as store:
        assert store.meta.get("format") == STORE_FORMAT


def test_records_in_base64_for_web_servers_that_declare_utf8(two_player: Site, tmp_path) -> None:
    """`arena report --records base64` writes every record as ASCII (what GitHub Pages' UTF-8
    leaves intact) holding the same record; rendering again in bytes turns them all back."""
    site = tmp_path / "site"
    shutil.copytree(two_player.site_dir, site)
    for encoding, ascii_only in (("base64", True), ("bytes", False)):
        result = CliRunner().invoke(cli, ["report", str(two_player.store_dir), "--site", str(site),
                                          "--records", encoding])
        assert result.exit_code == 0, result.output
        assert (site / "records" / "ENCODING").read_text().strip() == encoding
        scripts = sorted((site / "records").glob("*.js"))
        assert scripts and len(scripts) == len(list((two_player.site_dir / "records").glob("*.js")))
        for f in scripts:
            raw = f.read_bytes()
            assert raw.endswith(f'"{encoding}");\n'.encode())
            assert raw.isascii() or not ascii_only
            assert read_record_script(f) == read_record_script(two_player.site_dir / "records" / f.name)
    assert any(not f.read_bytes().isascii() for f in scripts)  # bytes again, as they were
