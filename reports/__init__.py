"""HTML reports: a tournament's store rendered as a static site (docs/reports.md).

``render_site(output_dir)`` reads the store in ``output_dir`` and writes the site into
``output_dir/site/``: a folder without the store, to publish as it is (the store holds the secret
tournament seed).
"""
from __future__ import annotations

from pathlib import Path

__all__ = ["SITE_FOLDER", "default_site_dir", "old_site_note", "render_site"]

SITE_FOLDER = "site"  # the site's folder inside a tournament's output folder


def default_site_dir(output_dir: Path | str) -> Path:
    """Where ``arena report`` writes the site of the tournament stored in ``output_dir``."""
    return Path(output_dir) / SITE_FOLDER


def old_site_note(output_dir: Path | str) -> str | None:
    """What to say when an older arena wrote the site beside the store (that one shows the
    seed); ``None`` when it did not."""
    output_dir = Path(output_dir)
    if not (output_dir / "index.html").is_file():
        return None
    return (f"{output_dir / 'index.html'} and the pages beside it are a report that an older "
            f"arena wrote next to the store; the report is now in {default_site_dir(output_dir)}: "
            "delete the old one rather than publish it (it shows the seed)")


def render_site(output_dir: Path | str, site_dir: Path | str | None = None, *,
                live: bool = False, records: str = "bytes", reveal_seed: bool = False,
                logs: bool = True) -> Path:
    """Render the tournament stored in ``output_dir`` into ``site_dir`` (default:
    ``output_dir/site``), a folder that must not hold the store.

    The store is read once, read-only, and closed before any page is written
    (``reports.source.load``). Returns the path of ``index.html``. Rendering the same store again
    gives the same files, and rewrites none of them; the records the site holds already are not
    read again. ``live``: a tournament still running: only the index and the
    head-to-head page, which reload themselves every 30 s (``reports.live``). ``records``: how
    the match records are written, ``"bytes"`` (the smallest) or ``"base64"`` (for web servers
    that declare scripts UTF-8, such as GitHub Pages; ``reports.render``). ``reveal_seed``: show
    the tournament seed on the index, once every match is played (otherwise it stays secret).
    ``logs=False``: leave out every stderr tail and check output (the contest server's public
    pages: each author reads their own on their page), as an anonymous report does.
    A tournament whose config says ``[report] anonymous = true`` is published under aliases
    (``reports.anonymous``), and their mapping is written to ``output_dir/aliases.csv``. A full
    render also writes each author's private page to ``output_dir/authors/`` (``reports.authors``).
    """
    from arena.errors import ArenaError
    from reports.render import published_records, write_site
    from reports.source import load
    from tournaments.store import store_path

    output_dir = Path(output_dir)
    site = Path(site_dir) if site_dir is not None else default_site_dir(output_dir)
    store = store_path(output_dir).resolve()
    if store.is_relative_to(site.resolve()):
        raise ArenaError(f"site folder {str(site)!r} holds the tournament store {str(store)!r}, "
                         "which must not be published (it keeps the secret seed); write the site "
                         "to another folder")
    # the reading stage: the store read once, read-only, and closed before any page is rendered
    reading = load(output_dir, reveal_seed=reveal_seed, records=None if live else (
        lambda anonymous: published_records(site, records, anonymous)))
    data = full = reading.data
    public = {e.id: e.name for e in data.entrants}
    if data.anonymous:  # aliases from here on; the mapping beside the store, not in the site
        from reports.anonymous import anonymise, write_aliases
        data, aliases = anonymise(data, reading.alias_key)
        write_aliases(output_dir, aliases)
        public.update((row.entrant.id, row.alias) for row in aliases)
    elif not logs:
        from reports.anonymous import without_logs
        data = without_logs(data)
    over = data.summary is not None and data.summary.finished  # no deal to come
    if reveal_seed and data.planned is not None and len(data.matches) < data.planned and not over:
        raise ArenaError(f"{output_dir}: {len(data.matches)} of {data.planned} matches played; "
                         "the seed stays secret until every match is played (anyone who knew "
                         "it could work out the deals still to come)")
    if not live:  # each author's own page, beside the site (reports.authors)
        from reports.authors import write_author_pages
        write_author_pages(output_dir, full, reading.submissions, public)
    return write_site(data, site, live=live, records=records)
