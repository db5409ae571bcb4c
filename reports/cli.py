"""``arena report TOURNAMENT_DIR``: render a tournament's store as a static HTML site."""
from __future__ import annotations

import time
from pathlib import Path

import click

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


COMMANDS = [report]
