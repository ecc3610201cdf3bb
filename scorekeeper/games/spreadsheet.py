"""A game's sheet as a CSV file, for a spreadsheet. Every family's CSV file is written here, so
that no name a player typed runs there as a formula (OWASP: CSV injection)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from werkzeug.wrappers import Response

from scorekeeper.games.models import Game
from scorekeeper.games.registry import file_stem

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters a spreadsheet reads a cell's text as a formula from."""


def spreadsheet_cell(value: object) -> object:
    """A cell as the CSV file holds it: a number as a number (a negative score stays one a
    spreadsheet adds up), text that would start a formula ("=HYPERLINK(...)", "+1+2",
    "-Anne") behind an apostrophe, which spreadsheets take for text. A lone "-", the sheets'
    mark for nothing, is no formula and stays as it is.

    >>> [spreadsheet_cell(cell) for cell in ("=1+1", "+1+2", "Anne", -50, "-")]
    ["'=1+1", "'+1+2", 'Anne', -50, '-']
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and value != "-":
        return "'" + value
    return value


def csv_download(game: Game, rows: Iterable[Sequence[object]]) -> Response:
    """The sheet's rows as a CSV file to download, named after the game."""
    out = io.StringIO()
    csv.writer(out).writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{file_stem(game)}.csv"'},
    )
