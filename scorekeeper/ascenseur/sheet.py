"""The score sheet: on screen, on paper, as a chart, as CSV."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from flask import render_template
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.ascenseur import bp
from scorekeeper.ascenseur.labels import PRESET_NAMES, house_rule_texts
from scorekeeper.ascenseur.models import AscenseurGame
from scorekeeper.ascenseur.views import ascenseur_game
from scorekeeper.chart import Chart, line_chart
from scorekeeper.games.spreadsheet import csv_download
from scorekeeper.rules import ascenseur as rules

PORTRAIT_PLAYERS = 6
"""Up to this many players, the printed sheet is an A4 page in portrait."""
PRINTED_PLAYERS = 10
"""At most this many players' columns side by side on paper; more go on the next pages."""


@bp.get("/<game_id>/sheet")
def sheet(game_id: str) -> str:
    """The score sheet: one row per round, one column group per player, totals and places."""
    game = ascenseur_game(game_id)
    scored = game.sheet()
    rows = len(scored.plans)
    return render_template(
        "ascenseur/sheet.html",
        game=game,
        live_game=game,
        sheet=scored,
        chart=chart(scored),
        preset_name=PRESET_NAMES[game.preset],
        house_rules=house_rule_texts(scored.variant, rules.PRESETS[game.preset]),
        wide=len(game.players) > PORTRAIT_PLAYERS,
        density=print_density(
            rows, len(game.players), penalties=scored.variant.scoring.penalties_only
        ),
        chunks=print_chunks(len(game.players)),
        names_sideways=names_sideways(game.names),
        one_page=len(game.players) <= ONE_PAGE_PLAYERS,
    )


PHONE_COLUMNS_REM = 16.8
"""The width a phone 360 px wide gives the players' columns of its sheet: its 21 rem of text
but the round's column."""
CHARACTER_REM = 0.56
"""The width of a character of a name in the sheet's headings, at most (0.65 of its type,
0.85 rem bold), on average over a word."""


def names_sideways(names: Sequence[str]) -> bool:
    """Whether the phone's sheet writes its players' names up their columns rather than across:
    where the longest word of a name (a name breaks at a space or after a hyphen, never inside
    a word) would not fit across its column. Up the column, every name shows whole."""
    room = PHONE_COLUMNS_REM / len(names) - 0.2
    words = (word for name in names for word in re.split(r"\s+|(?<=-)", name))
    return max(len(word) for word in words) * CHARACTER_REM > room


PAGE_MM = {False: 279, True: 192}
"""The height of an A4 page inside its margins, in portrait and (``True``) in landscape."""
HEADER_MM = 26
"""The title, the players, the rules, the winner; the line under the table; the legend."""
CHART_MM = (50, 130)
"""The chart's height on paper: at least, and at most for a short game's rows to grow."""
ROW_MM = {11: 5.5, 10: 5.1, 9: 4.7, 8: 4.25, 7: 3.85, 6: 3.0, 5: 2.6}
"""How tall a printed row is at each type size (points), as the stylesheet sets it."""
LARGEST_PT = {2: 11, 3: 10, 4: 8, 5: 7, 6: 6, 7: 7}
"""The largest type at which a table of so many players fits the width of the page."""
EXTRA_MM = (1, 2, 3)
"""Space that may be added to each row, so that a short game's table fills its page too."""
ONE_PAGE_PLAYERS = max(LARGEST_PT)
"""Up to this many players, the sheet and its chart are printed on one page."""


def print_density(rounds: int, players: int, *, penalties: bool) -> str:
    """Classes that size the printed sheet to fill one page: the largest type at which the
    table fits the page's width and its rounds fit above the smallest chart, then more room
    between the rows of a short game; the chart takes the height left (the stylesheet's
    ``one-page``). Sheets of more players keep fixed sizes and run on to further pages."""
    if players > ONE_PAGE_PLAYERS:
        return "very-dense" if rounds > 60 else ("dense" if rounds > 30 else "")
    rows = rounds + (4 if penalties else 5)  # two heading rows, the totals and the places
    room = PAGE_MM[players > PORTRAIT_PLAYERS] - HEADER_MM
    largest = LARGEST_PT[max(players, 2)]
    fitting = [
        pt for pt, row in ROW_MM.items() if pt <= largest and rows * row <= room - CHART_MM[0]
    ]
    if not fitting:  # two players' longest games: the smallest type, the chart what is left
        return "one-page very-dense"
    points = fitting[0]
    row = ROW_MM[points]
    extra = max((mm for mm in EXTRA_MM if rows * (row + mm) <= room - CHART_MM[1]), default=0)
    return f"one-page fit-{points} roomy-{extra}"


def print_chunks(players: int) -> list[list[int]]:
    """The players' seats split into even groups of at most PRINTED_PLAYERS, one per page."""
    pages = -(-players // PRINTED_PLAYERS)
    size = -(-players // pages)
    return [list(range(start, min(start + size, players))) for start in range(0, players, size)]


def sheet_rows(game: AscenseurGame, scored: rules.GameSheet) -> list[list[Any]]:
    """The sheet as rows of cells, for CSV: a header, one row per round entered, the totals."""
    lost = scored.variant.scoring.penalties_only
    header: list[Any] = [_("Round"), _("Cards"), _("Dealer"), _("Trump")]
    for name in game.names:
        columns = (
            (_("bid"), _("tricks"), _("lost"), _("total lost"))
            if lost
            else (_("bid"), _("tricks"), "+", "−", _("total"))
        )
        header += [f"{name} {column}" for column in columns]
    rows = [header]
    for row in scored.rounds:
        trump = row.trump.value if row.trump else ("" if row.plan.trump_turned else "-")
        cells: list[Any] = [row.plan.number, row.plan.cards, game.names[row.plan.dealer], trump]
        for result in row.results:
            cells += [result.bid, "" if result.tricks is None else result.tricks]
            if lost:
                cells += ["" if result.points is None else -result.points, -result.total]
            else:
                cells += [
                    "" if result.plus is None else result.plus,
                    "" if result.minus is None else result.minus,
                    result.total,
                ]
        rows.append(cells)
    totals: list[Any] = [_("Total"), "", "", ""]
    for seat in range(len(game.names)):
        if lost:
            totals += ["", "", scored.minus_totals[seat], scored.minus_totals[seat]]
        else:
            totals += ["", "", scored.plus_totals[seat], scored.minus_totals[seat]]
            totals.append(scored.totals[seat])
    places: list[Any] = [_("Place"), "", "", ""]
    for place in scored.places:
        places += [""] * (3 if lost else 4) + [place]
    return [*rows, totals, places]


@bp.get("/<game_id>/sheet.csv")
def sheet_csv(game_id: str) -> Response:
    """The score sheet as a CSV file, for a spreadsheet."""
    game = ascenseur_game(game_id)
    return csv_download(game, sheet_rows(game, game.sheet()))


def running_totals(sheet: rules.GameSheet) -> list[list[int]]:
    """Each player's total after each played round, starting from 0 before the first."""
    series = [[0] for _ in sheet.players]
    for row in sheet.rounds:
        if row.is_played:
            for seat, result in enumerate(row.results):
                series[seat].append(result.total)
    return series


def chart(sheet: rules.GameSheet) -> Chart:
    """The chart of the running totals of a game, as its sheet writes them: where only losses
    count (Escalier), the points lost, rising from 0."""
    if sheet.variant.scoring.penalties_only:
        lost = [[-total for total in totals] for totals in running_totals(sheet)]
        return line_chart(sheet.players, lost, label=str)
    return line_chart(sheet.players, running_totals(sheet))
