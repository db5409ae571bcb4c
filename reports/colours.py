"""Colours of the report: one per bot, and the diverging scale of the head-to-head heatmap."""
from __future__ import annotations

import colorsys
from collections.abc import Iterable

# Twelve colours for the first twelve entrants: every two at least 27 apart in CIEDE2000 (the
# closest pair: brown and wine), each at least 3:1 in contrast
# against the page's white (WCAG's floor for graphics: a line or a swatch stays visible on a
# washed-out projector). Chosen by a farthest-point search over the sRGB colours that pass the
# contrast floor, ordered so that the first few are the familiar blue, red, green, orange.
PALETTE = (
    "#2288ff", "#ff0066", "#00aa33", "#dd5500", "#cc66ff", "#008888",
    "#664411", "#770022", "#aa8800", "#0022aa", "#776677", "#005500",
)

# ColorBrewer RdBu (7 classes), from "lost everything" to "won everything". Blue, not green, for
# good: the scale stays readable for the most common colour blindness.
_SCALE = ("#b2182b", "#ef8a62", "#fddbc7", "#f7f7f7", "#d1e5f0", "#67a9cf", "#2166ac")


CHART_COLOURED = 8  # the rating chart draws the top 8 bots in their colours and the rest in grey
GOLDEN_ANGLE = 137.508  # degrees: consecutive hues past the palette stay far apart


def bot_colour(place: int) -> str:
    """The colour of the entrant in colour place ``place`` (:func:`colour_places`): the first 12
    places take the palette; later ones a hue of their own, a golden angle apart (beyond 12 the
    legend and the labels carry who is who)."""
    if 0 <= place < len(PALETTE):
        return PALETTE[place]
    hue = (335 + place * GOLDEN_ANGLE) % 360
    lightness = (0.35, 0.45)[place % 2]
    return _hex(*colorsys.hls_to_rgb(hue / 360, lightness, 0.6))


def colour_places(ids: Iterable[int]) -> dict[int, int]:
    """Each entrant's colour place: its rank among the entrant ids (which count up as entrants
    arrive), so that the first 12 entrants take the 12 colours of the palette and a later entrant
    never moves anyone's colour."""
    return {e: place for place, e in enumerate(sorted(set(ids)))}


def _hex(r: float, g: float, b: float) -> str:
    return "#" + "".join(f"{round(255 * x):02x}" for x in (r, g, b))


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


def heat(value: float) -> tuple[str, str]:
    """Background and text colour for ``value`` in [0, 1] (0.5 is even)."""
    v = min(1.0, max(0.0, value)) * (len(_SCALE) - 1)
    i = min(int(v), len(_SCALE) - 2)
    t = v - i
    a, b = _rgb(_SCALE[i]), _rgb(_SCALE[i + 1])
    r, g, bl = (round(x + (y - x) * t) for x, y in zip(a, b))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * bl
    return f"#{r:02x}{g:02x}{bl:02x}", ("#ffffff" if luminance < 140 else "#1a1a1a")
