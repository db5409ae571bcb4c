"""``arena report TOURNAMENT_DIR``: render a tournament's store as a static HTML site."""
from __future__ import annotations

import time
from pathlib import Path

import click

from arena.errors import ArenaError
from arena.outputs import check_output_folder


@click.command()
@click.argument("output", metavar="TOURNAMENT_DIR", type=click.Path(file_okay=False, path_type=Path))
@click.option("--site", "site", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write the site to this folder (default: TOURNAMENT_DIR/site, a folder without "
                   "the store, to publish as it is).")
@click.option("--records", type=click.Choice(["bytes", "base64"]), default="bytes", show_default=True,
              help="How match replays are stored: 'bytes' is the smallest and works from disk and "
                   "on web servers that send .js files without a charset (nginx, Apache); 'base64' "
                   "is a third larger and works on any web server, GitHub Pages included.")
@click.option("--reveal-seed", is_flag=True,
              help="Show the tournament seed on the index, so anyone can check every deal; only "
                   "once every match is played. Without it the seed stays secret.")
def report(output: Path, site: Path | None, records: str, reveal_seed: bool) -> None:
    """Render the tournament stored in TOURNAMENT_DIR as a static HTML site (open its index.html)."""
    from reports import old_site_note, render_site

    started = time.monotonic()
    from tournaments.store import Store, store_path

    Store.check_intact(store_path(output))  # a damaged store: one line, not a traceback
    if site is not None:
        check_output_folder(site, "--site")  # one line before any page is written
    index = render_site(output, site, records=records, reveal_seed=reveal_seed)
    click.echo(f"report: {index} ({time.monotonic() - started:.1f} s)")
    note = old_site_note(output)
    if note:
        click.echo(f"note: {note}", err=True)


@click.command()
@click.argument("record_path", metavar="RECORD.json", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--output", "output", metavar="PAGE.html", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the page here (default: RECORD.html beside the record).")
@click.option("--open", "open_page", is_flag=True, help="Open the page in the web browser.")
def view(record_path: Path, output: Path | None, open_page: bool) -> None:
    """Write one match's replay as a single HTML file, to open from disk or send on its own.

    RECORD.json is a match record, as `arena play --replay` writes it; the page holds the record,
    the replay viewer and the game's drawings, and needs nothing beside it."""
    from arena.outputs import check_output_file
    from reports.view import read_record, write_view

    record = read_record(record_path)
    page = output or record_path.with_suffix(".html")
    if page.resolve() == record_path.resolve():
        raise ArenaError(f"{page}: the page would overwrite the record; give --output PAGE.html")
    check_output_file(str(page), "--output" if output else "the page")
    write_view(record, page)
    click.echo(f"replay page: {page}")
    if open_page:
        import webbrowser
        webbrowser.open(page.resolve().as_uri())


COMMANDS = [report, view]
