"""What the club's pages say about results files: the reader's refusals and the figures a file
publishes that the engine does not reproduce, in the reader's language."""

from __future__ import annotations

from flask_babel import format_decimal
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorekeeper.contract.labels import rule_message
from scorekeeper.games.helpers import as_reader_writes
from scorekeeper.rules.common import RuleError
from scorekeeper.rules.files import Difference, Figure, FileRule

FILE_MESSAGES = {
    FileRule.TOO_LARGE: _l(
        "The file is %(size)s bytes long; a results file is read up to %(most)s."
    ),
    FileRule.TOO_MANY_RESULTS: _l("The file has more than %(most)s results."),
    FileRule.TOO_MANY_VALUES: _l("The file has more than %(most)s tags and values."),
    FileRule.TOO_MANY_PAIRS: _l("The file has more than %(most)s pairs."),
    FileRule.TOO_MANY_COLUMNS: _l("%(where)s: a table has more than %(most)s columns."),
    FileRule.LINE_TOO_LONG: _l("%(where)s is longer than %(most)s characters."),
    FileRule.TEXT_TOO_LONG: _l("%(where)s: %(field)s is longer than %(most)s characters."),
    FileRule.EMPTY: _l("The file has no boards."),
    FileRule.TAG: _l('%(where)s: a tag is written [Name "value"], not %(value)s.'),
    FileRule.STRING: _l("%(where)s: the string %(value)s has no closing quote."),
    FileRule.COMMENT: _l("%(where)s: a comment opened with { is never closed."),
    FileRule.STRAY: _l("%(where)s: %(value)s stands before any tag."),
    FileRule.ROW: _l(
        "%(where)s: the %(table)s row %(value)s does not have its %(columns)s values."
    ),
    FileRule.MISSING: _l("%(where)s: %(field)s is missing."),
    FileRule.NUMBER: _l(
        "%(where)s: %(field)s must be a whole number from %(least)s to %(most)s, not %(value)s."
    ),
    FileRule.FIGURE: _l("%(where)s: %(field)s must be a number, not %(value)s."),
    FileRule.CONTRACT: _l("%(where)s: %(value)s is not a contract (4S, 3NTX, Pass)."),
    FileRule.DECLARER: _l("%(where)s: the declarer must be N, E, S or W, not %(value)s."),
    FileRule.SCORE: _l(
        "%(where)s: %(field)s must be a score or an artificial score (A+, A=, A-), not %(value)s."
    ),
    FileRule.ARTIFICIAL_ONE_SIDE: _l("%(where)s: an artificial score is given to one side only."),
    FileRule.NOT_PLAYED: _l(
        "%(where)s: the result has neither a contract nor an artificial score."
    ),
    FileRule.RESULT: _l("%(where)s: this result cannot be scored."),
    FileRule.PAIR_TWICE: _l("%(where)s: pair %(pair)s plays board %(board)s twice."),
    FileRule.DATE: _l("%(where)s: %(value)s is not a date written %(form)s."),
    FileRule.DEAL: _l("%(where)s: %(value)s is not a deal in PBN notation."),
    FileRule.HANDS: _l(
        "%(where)s: board %(board)s's deal is not four hands of 13 different cards."
    ),
    FileRule.NO_DEALS: _l("The file gives no board's four hands."),
    FileRule.SCORING: _l(
        "%(where)s: the scoring %(value)s is neither matchpoints nor Butler IMPs."
    ),
    FileRule.DIRECTION: _l(
        "%(where)s: the direction must be North-South or East-West, not %(value)s."
    ),
    FileRule.PAIR_NUMBER: _l("%(where)s: %(value)s is not a pair number from 1 to %(most)s."),
    FileRule.EVENT_TYPE: _l("The event type %(value)s is not a pairs event."),
    FileRule.XML: _l("The file is not well-formed XML (line %(line)s, column %(column)s)."),
    FileRule.ENCODING: _l("The file's text cannot be decoded."),
    FileRule.XML_FORBIDDEN: _l(
        "The file declares entities or refers to other files; a results file needs neither, "
        "and they are refused."
    ),
    FileRule.ROOT: _l("The file is not USEBIO: its root element is %(value)s."),
    FileRule.BBO_LIN: _l(
        "This is a BBO LIN file: deals as they were bid and played, not a session's results. "
        "Scorekeeper reads the results file a scoring program exports, PBN or USEBIO (.xml); "
        "a BBO tournament's host can download its results as USEBIO."
    ),
    FileRule.DOCUMENT: _l(
        "This file is a spreadsheet, another office document or a compressed archive, not a "
        "results file. Scorekeeper reads the results file a scoring program exports, PBN or "
        "USEBIO (.xml)."
    ),
    FileRule.PDF: _l(
        "This file is a PDF, a printout, not a results file. Scorekeeper reads the results "
        "file a scoring program exports, PBN or USEBIO (.xml)."
    ),
    FileRule.WEB_PAGE: _l(
        "This file is a web page, not a results file. Scorekeeper reads the results file a "
        "scoring program exports, PBN or USEBIO (.xml)."
    ),
    FileRule.JSON: _l(
        "This file is JSON, as a Scorekeeper game file is, not a results file: a game file is "
        "imported with “Import a game” on the home page. Here Scorekeeper reads the "
        "results file a scoring program exports, PBN or USEBIO (.xml)."
    ),
}


def file_message(error: RuleError) -> str:
    """A results file's refusal in the reader's language."""
    template = FILE_MESSAGES.get(error.rule)  # type: ignore[call-overload]
    if template is None:
        return rule_message(error)
    values = {name: quoted(value) for name, value in error.values.items()}
    if isinstance(error.values.get("line"), int) and error.rule is not FileRule.XML:
        values["where"] = _("Line %(number)d", number=error.values["line"])
    try:
        return str(template) % values
    except (KeyError, TypeError, ValueError):
        return str(error)


def quoted(value: object) -> str:
    """A value read from a file, for a message: text in quotes, cut short."""
    text = repr(value) if isinstance(value, str) else as_reader_writes(value)
    return text[:80]


FIGURES = {
    Figure.SCORE: _l("score"),
    Figure.MATCHPOINTS: _l("matchpoints"),
    Figure.IMPS: _l("IMPs"),
    Figure.TOTAL: _l("total"),
    Figure.PERCENTAGE: _l("percentage"),
    Figure.RANK: _l("place"),
}


def difference_text(difference: Difference) -> str:
    """A published figure the engine does not reproduce, and where."""
    where = []
    if difference.board is not None:
        where.append(_("board %(number)d", number=difference.board))
    if difference.table is not None:
        where.append(_("table %(number)d", number=difference.table))
    if difference.pair is not None:
        where.append(_("pair %(pair)s", pair=difference.pair.label))
    computed = "–" if difference.computed is None else format_decimal(difference.computed)
    return _(
        "%(where)s: the file's %(figure)s is %(published)s, Scorekeeper's %(computed)s",
        where=", ".join(where),
        figure=FIGURES[difference.figure],
        published=format_decimal(difference.published),
        computed=computed,
    )
