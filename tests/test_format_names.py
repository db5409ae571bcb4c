"""A tournament format is one unit: its name appears, as a quoted string, only in its own module
of ``tournaments/formats/`` (and in its tests and docs, which this does not read). Everything else
knows a format through the registry and the protocol (``tournaments.formats``), so adding one
touches its module and one line of the registry, and nothing branches on a format's name."""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from tournaments.formats import FORMATS

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("protocol", "arena", "tournaments", "reports", "contest", "bots")
SOURCES = ("*.py", "*.j2", "*.js", "*.html")


def sources() -> list[Path]:
    return sorted(path for package in PACKAGES for pattern in SOURCES
                  for path in (ROOT / package).rglob(pattern))


def quoted(name: str) -> re.Pattern[str]:
    return re.compile(rf"""(["']){re.escape(name)}\1""")


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_a_format_is_named_only_in_its_own_module(name: str) -> None:
    home = Path(inspect.getfile(type(FORMATS[name]))).resolve()
    pattern = quoted(name)
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in sources() if path.resolve() != home
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert not found, (f"the format {name!r} is named outside {home.relative_to(ROOT)}; ask "
                       "tournaments.formats instead:\n" + "\n".join(found))


def test_the_search_finds_a_quoted_name() -> None:
    pattern = quoted("sprt")
    assert pattern.search('if kind == "sprt":') and pattern.search("type = 'sprt'")
    assert not pattern.search("tournaments.formats.sprt") and not pattern.search('"sprt-line"')
    assert len(sources()) > 100 and ROOT / "tournaments" / "run.py" in sources()
