"""The rating-history chart as inline SVG, drawn here so that the browser needs no library.

μ of every bot as a line and μ ± σ as a shaded band, over the matches in schedule order. The top
``CHART_COLOURED`` bots (the series come in leaderboard order) are drawn in their colours, above
the rest, which are thin grey lines without a band (class ``is-rest``): a class of 12 to 40 bots
stays readable, and pointing at a bot in the legend (static/index.js) draws its line in its
colour. Long tournaments are thinned to a fixed number of points per bot (the last rating in each
slice of the schedule), which keeps the index page small at 10,000 matches and more. Output is deterministic:
fixed decimals, no ids or timestamps.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from markupsafe import Markup, escape

from reports.colours import CHART_COLOURED
from reports.data import RatingPoint
from reports.text import nice_step

WIDTH, HEIGHT = 960, 400
LEFT, RIGHT, TOP, BOTTOM = 52, 30, 14, 40
POINT_BUDGET = 6000  # points over all bots; each bot gets its share, between 60 and 400


@dataclass(frozen=True)
class Series:
    name: str
    colour: str
    points: list[RatingPoint]  # in schedule order
    entrant: int = -1  # the legend picks the line out by it (static/index.js)


def thin(points: list[RatingPoint], x_max: int, buckets: int) -> list[RatingPoint]:
    """The last point in each of ``buckets`` equal slices of [0, x_max]; all points if fewer."""
    if len(points) <= buckets:
        return list(points)

    def bucket(p: RatingPoint) -> int:
        return min(buckets - 1, p.number * buckets // (x_max + 1))

    return [p for i, p in enumerate(points)
            if i + 1 == len(points) or bucket(points[i + 1]) != bucket(p)]


def _f(x: float) -> str:
    return f"{x:.1f}"


def rating_history_svg(series: list[Series], x_max: int, initial_mu: float, initial_sigma: float) -> Markup:
    """The chart; each series starts at the initial rating at match 0."""
    x_max = max(1, x_max)
    budget = max(60, min(400, POINT_BUDGET // max(1, len(series))))
    starts = RatingPoint(0, initial_mu, initial_sigma)
    data = [(s, [starts] + thin(s.points, x_max, budget), "" if i < CHART_COLOURED else " is-rest")
            for i, s in enumerate(series)]
    lows = [p.mu - p.sigma for _, pts, _ in data for p in pts] or [0.0]
    highs = [p.mu + p.sigma for _, pts, _ in data for p in pts] or [50.0]
    step = nice_step(max(highs) - min(lows), 6)
    y_lo = math.floor(min(lows) / step) * step
    y_hi = math.ceil(max(highs) / step) * step
    if y_hi <= y_lo:
        y_hi = y_lo + step
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def X(n: float) -> float:
        return LEFT + pw * n / x_max

    def Y(v: float) -> float:
        return TOP + ph * (1 - (v - y_lo) / (y_hi - y_lo))

    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="chart-title" preserveAspectRatio="xMidYMid meet">',
        '<title id="chart-title">Rating history: μ ± σ of every bot over the matches</title>',
    ]
    # grid and axes
    out.append('<g class="chart-grid">')
    y = y_lo
    while y <= y_hi + 1e-9:
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_f(Y(y))}" y2="{_f(Y(y))}"/>')
        out.append(f'<text class="chart-label" x="{LEFT - 6}" y="{_f(Y(y) + 4)}" text-anchor="end">{y:g}</text>')
        y += step
    xstep = max(1, int(nice_step(x_max, 8)))
    x = 0
    while x <= x_max:
        out.append(f'<line class="chart-tick" x1="{_f(X(x))}" x2="{_f(X(x))}" y1="{TOP + ph}" y2="{TOP + ph + 5}"/>')
        out.append(f'<text class="chart-label" x="{_f(X(x))}" y="{TOP + ph + 18}" text-anchor="middle">{x:,}</text>')
        x += xstep
    out.append(f'<text class="chart-axis" x="{LEFT + pw / 2:.1f}" y="{HEIGHT - 4}" text-anchor="middle">'
               'match (schedule order)</text>')
    out.append(f'<text class="chart-axis" transform="translate(12 {TOP + ph / 2:.1f}) rotate(-90)" '
               'text-anchor="middle">rating μ</text>')
    out.append('</g>')
    # bands first so that every line stays visible above all bands; the grey rest below the
    # coloured top, and the leader drawn last, on top
    data = data[CHART_COLOURED:] + data[:CHART_COLOURED][::-1]
    for s, pts, rest in data:
        upper = " ".join(f"{_f(X(p.number))},{_f(Y(p.mu + p.sigma))}" for p in pts)
        lower = " ".join(f"{_f(X(p.number))},{_f(Y(p.mu - p.sigma))}" for p in reversed(pts))
        out.append(f'<polygon class="chart-band{rest}" data-entrant="{s.entrant}" fill="{s.colour}" '
                   f'points="{upper} {lower}">'
                   f'<title>{escape(s.name)}: μ ± σ</title></polygon>')
    for s, pts, rest in data:
        line = " ".join(f"{_f(X(p.number))},{_f(Y(p.mu))}" for p in pts)
        last = pts[-1]
        out.append(f'<polyline class="chart-line{rest}" data-entrant="{s.entrant}" stroke="{s.colour}" '
                   f'points="{line}">'
                   f'<title>{escape(s.name)}: μ {last.mu:.2f}, σ {last.sigma:.2f}</title></polyline>')
        out.append(f'<circle class="chart-end{rest}" data-entrant="{s.entrant}" fill="{s.colour}" '
                   f'cx="{_f(X(last.number))}" cy="{_f(Y(last.mu))}" r="3.5"/>')
    out.append(f'<rect class="chart-frame" x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}"/>')
    out.append("</svg>")
    return Markup("\n".join(out))
