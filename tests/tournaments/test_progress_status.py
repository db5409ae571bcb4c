"""The progress line's status note (a cluster run waiting for workers says so)."""
from __future__ import annotations

import io

from tournaments.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_note_ends_the_bar_until_cleared() -> None:
    out = Terminal()
    bar = Progress(6, stream=out)
    bar.status("waiting for Dask workers")
    assert out.getvalue().endswith("failures 0  -- waiting for Dask workers\x1b[K")
    bar.status(None)
    assert out.getvalue().endswith("failures 0\x1b[K")


def test_in_a_log_the_note_is_a_line_of_its_own_even_without_the_bar() -> None:
    out = io.StringIO()
    bar = Progress(6, stream=out, enabled=False)
    bar.status("waiting for Dask workers")
    bar.status("waiting for Dask workers")    # said once
    bar.status(None)
    assert out.getvalue() == "waiting for Dask workers\n"
