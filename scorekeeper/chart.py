"""A line chart drawn on the server as SVG, one line per player told apart by colour, by dash
and by marker so that it also reads in black and white: a game's running totals (Ascenseur's
sheet), a circle's wins so far (its league). Templates draw it with ``_chart.html``."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scorekeeper.games.helpers import signed

# Okabe–Ito colours, distinct for colour-blind readers; dashes and markers for paper.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "12 4", "4 4")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "plus", "star", "bar")

WIDTH, HEIGHT = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 76, 14, 14, 44


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    dash: str
    marker: str
    points: str
    """The polyline's points, "x,y x,y ..."."""
    marks: tuple[tuple[float, float], ...]
    """Where the markers go: a few along the line, not one per round."""


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    zero: float | None
    """The height of the 0 line, when it is inside the chart."""
    plot: tuple[float, float, float, float]
    """Left, top, right, bottom of the plotting area."""


def _step(span: int, most_ticks: int) -> int:
    """A round step (1, 2, 5, 10, 20, 50 ...) giving at most ``most_ticks`` ticks."""
    raw = max(1.0, span / most_ticks)
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return int(factor * magnitude)
    return int(10 * magnitude)


def line_chart(
    names: Sequence[str],
    series: Sequence[Sequence[int]],
    label: Callable[[int], str] = signed,
    size: tuple[int, int, int] = (WIDTH, HEIGHT, LEFT),
) -> Chart:
    """A line for each name, of its figure from the start (0) and after each step (a round, a
    game of a league), the figures' ticks written by ``label``; ``size`` is the chart's width,
    its height and the room left of it for the ticks."""
    width, height, room = size
    rounds = max(1, len(series[0]) - 1) if series else 1
    values = [value for line in series for value in line] or [0]
    low, high = min(values), max(values)
    step = _step(max(1, high - low), 6)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if low == high:
        high = low + step
    left, top, right, bottom = room, TOP, width - RIGHT, height - BOTTOM

    def x(round_number: int) -> float:
        return round(left + (right - left) * round_number / rounds, 1)

    def y(value: int) -> float:
        return round(bottom - (bottom - top) * (value - low) / (high - low), 1)

    every = max(1, math.ceil(rounds / 10))
    lines = []
    for seat, (name, totals) in enumerate(zip(names, series, strict=True)):
        points = [(x(number), y(total)) for number, total in enumerate(totals)]
        offset = seat % every  # markers of different players fall on different rounds
        lines.append(
            Line(
                name=name,
                colour=COLOURS[seat % len(COLOURS)],
                dash=DASHES[seat % len(DASHES)],
                marker=MARKERS[seat % len(MARKERS)],
                points=" ".join(f"{px},{py}" for px, py in points),
                marks=tuple(p for n, p in enumerate(points) if n and (n - offset) % every == 0),
            )
        )
    round_step = _step(rounds, 10)
    x_ticks = tuple(Tick(x(n), str(n)) for n in range(0, rounds + 1, round_step))
    y_ticks = tuple(Tick(y(v), label(v)) for v in range(low, high + 1, step))
    return Chart(
        width=width,
        height=height,
        lines=tuple(lines),
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        zero=y(0) if low < 0 < high else None,
        plot=(left, top, right, bottom),
    )
