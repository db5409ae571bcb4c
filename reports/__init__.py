"""HTML reports: a tournament's store rendered as a static site (docs/reports.md).

``render_site(output_dir)`` reads the store in ``output_dir`` and writes the site beside it.
"""
from __future__ import annotations

from pathlib import Path

__all__ = ["render_site"]


def render_site(output_dir: Path | str, site_dir: Path | str | None = None, *,
                live: bool = False, records: str = "bytes") -> Path:
    """Render the tournament stored in ``output_dir`` into ``site_dir`` (default: the same folder).

    Returns the path of ``index.html``. Rendering the same store again gives the same files, and
    rewrites none of them. ``live``: a tournament still running: only the index and the
    head-to-head page, which reload themselves every 30 s (``reports.live``). ``records``: how
    the match records are written, ``"bytes"`` (the smallest) or ``"base64"`` (for web servers
    that declare scripts UTF-8, such as GitHub Pages; ``reports.render``).
    """
    from reports.render import write_site
    from reports.source import load

    output_dir = Path(output_dir)
    data, store = load(output_dir)
    try:
        return write_site(data, Path(site_dir) if site_dir is not None else output_dir, live=live,
                          records=records)
    finally:
        store.close()
