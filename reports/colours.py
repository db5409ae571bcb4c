"""Colours of the report: one per bot, and the diverging scale of the head-to-head heatmap."""
from __future__ import annotations

import colorsys

# Tableau 10, reordered so that bots entered one after the other differ; then darker variants.
BOT_COLOURS = (
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22", "#0b4f8a", "#8a1c1c", "#1b6b1b", "#b35900", "#5e3c85", "#0f7d8a",
)

# ColorBrewer RdBu (7 classes), from "lost everything" to "won everything". Blue, not green, for
# good: the scale stays readable for the most common colour blindness.
_SCALE = ("#b2182b", "#ef8a62", "#fddbc7", "#f7f7f7", "#d1e5f0", "#67a9cf", "#2166ac")


CHART_COLOURED = 8  # the rating chart draws the top 8 bots in their colours and the rest in grey
GOLDEN_ANGLE = 137.508  # degrees: consecutive hues past the palette stay far apart


def bot_colour(entrant: int) -> str:
    """The colour of entrant number ``entrant``: a function of its id alone, so that a bot keeps
    its colour from one render to the next whatever its rank (a live page reloads every 30 s).
    The first 16 ids take the palette; later ones a hue of their own, a golden angle apart."""
    if 0 <= entrant < len(BOT_COLOURS):
        return BOT_COLOURS[entrant]
    hue = (335 + entrant * GOLDEN_ANGLE) % 360  # 335: the start that keeps ids 16-39 farthest
    lightness = (0.35, 0.5)[entrant % 2]        # from the palette and from each other
    return _hex(*colorsys.hls_to_rgb(hue / 360, lightness, 0.5))


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
