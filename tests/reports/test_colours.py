"""The bots' colours: the first 12 entrants clearly distinct (CIEDE2000) and readable on a white
page (WCAG contrast), in a plain and in an anonymous report, and stable for an entrant from one
render to the next and when others join. Pure functions: no browser."""
from __future__ import annotations

import math
from itertools import combinations

import pytest

from reports.anonymous import anonymise
from reports.data import EntrantInfo, TournamentData
from reports.model import SiteModel

MIN_DISTANCE = 20.0  # CIEDE2000 between any two of the first 12 (the old palette: 14.3)
MIN_CONTRAST = 3.0   # against white, WCAG 2.1's floor for graphics (1.4.11)
FIRST = 12


def _linear(hex_colour: str) -> list[float]:
    rgb = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]


def luminance(hex_colour: str) -> float:
    r, g, b = _linear(hex_colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def lab(hex_colour: str) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = _linear(hex_colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(c1: tuple[float, float, float], c2: tuple[float, float, float]) -> float:
    """Sharma, Wu, Dalal, "The CIEDE2000 color-difference formula" (2005), kL = kC = kH = 1."""
    (l1, a1, b1), (l2, a2, b2) = c1, c2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0 if c1p * c2p == 0 else (h2p - h1p + 180) % 360 - 180
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    else:
        hbar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbar - 30)) + 0.24 * math.cos(math.radians(2 * hbar))
         + 0.32 * math.cos(math.radians(3 * hbar + 6)) - 0.20 * math.cos(math.radians(4 * hbar - 63)))
    rc = 2 * math.sqrt(cbarp ** 7 / (cbarp ** 7 + 25 ** 7))
    rt = -math.sin(math.radians(60 * math.exp(-(((hbar - 275) / 25) ** 2)))) * rc
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc, sh = 1 + 0.045 * cbarp, 1 + 0.015 * cbarp * t
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))


def test_ciede2000_meets_the_published_test_data() -> None:
    # Sharma et al.'s table 1, pairs 1, 7 and 17
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)


def field(ids: list[int]) -> TournamentData:
    return TournamentData(name="colours", game="block", options={"num_players": 2}, seed=None,
                          entrants=[EntrantInfo(i, f"bot{i}", f"/bots/bot{i}") for i in ids],
                          matches=[], standings=[], history={})


def colours(data: TournamentData, key: str | None) -> dict[str, str]:
    """Entrant name (its alias when anonymous) -> its colour on the report's pages."""
    shown = anonymise(data, key)[0] if key is not None else data
    model = SiteModel(shown)
    return {e.name: model.bot(e.id).colour for e in shown.entrants}


@pytest.mark.parametrize("key", [None, "key", "another key", "k3"])
def test_the_first_12_entrants_have_distinct_readable_colours(key: str | None) -> None:
    ids = [0, 1, 2, 3, 5, 8, 9, 10, 14, 15, 20, 31]  # ids as a store can leave them
    got = colours(field(ids), key)
    assert len(got) == FIRST
    closest = min((ciede2000(lab(a), lab(b)), a, b) for a, b in combinations(got.values(), 2))
    assert closest[0] >= MIN_DISTANCE, closest
    for c in got.values():
        assert 1.05 / (luminance(c) + 0.05) >= MIN_CONTRAST, c


@pytest.mark.parametrize("key", [None, "key"])
def test_an_entrant_keeps_its_colour_across_renders_and_when_others_join(key: str | None) -> None:
    first = colours(field(list(range(FIRST))), key)
    assert colours(field(list(range(FIRST))), key) == first
    later = colours(field(list(range(FIRST + 5))), key)  # five join later (higher ids)
    assert {name: later[name] for name in first} == first
    assert len(set(later.values())) == FIRST + 5  # past 12 still distinct, if less far apart
