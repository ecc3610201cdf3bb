"""What the club's pages say about results files: the reader's refusals, how a file's program
scored its session, and the figures its results do not bear out, in the reader's language."""

from __future__ import annotations

from decimal import Decimal

from flask_babel import format_decimal, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorekeeper.contract.labels import rule_message
from scorekeeper.games.helpers import as_reader_writes
from scorekeeper.rules.common import RuleError
from scorekeeper.rules.files import FileRule
from scorekeeper.rules.published import (
    Difference,
    Divisor,
    Figure,
    FigureCheck,
    LargerEvent,
    Note,
    Reason,
    Verdict,
)

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
        "%(where)s: the scoring %(value)s is neither matchpoints nor IMPs (Butler or cross-IMPs)."
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
    computed = "–" if difference.computed is None else decimal_text(difference.computed)
    return _(
        "%(where)s: the file's %(figure)s is %(published)s, Scorekeeper's %(computed)s",
        where=", ".join(where),
        figure=FIGURES[difference.figure],
        published=decimal_text(difference.published),
        computed=computed,
    )


def decimal_text(value: Decimal, *, signed: bool = False) -> str:
    """A figure with the decimals it is written with, in the reader's language, a negative
    one with the typographic minus (IMPs ``signed``: +3, −3)."""
    exponent = value.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    digits = "0." + "0" * places if places else "0"
    return str(format_decimal(value, format=f"{'+' if signed else ''}{digits};−{digits}"))


def boards_text(boards: tuple[int, ...]) -> str:
    """Board numbers as a sentence lists them: "5", "5, 9 and 14"."""
    numbers = [str(board) for board in boards]
    if len(numbers) < 2:
        return "".join(numbers)
    return _("%(first)s and %(last)s", first=", ".join(numbers[:-1]), last=numbers[-1])


def note_text(note: Note) -> str:
    """Why a file's figures are not Scorekeeper's, in a sentence a director reads."""
    values = note.values
    reason = note.reason
    if reason is Reason.NOT_SCALED:
        return ngettext(
            "Board %(boards)s was not scaled: its %(results)s results are matchpointed out "
            "of %(top)s, where Scorekeeper scales them with Neuberg's formula to the "
            "field's %(field_top)s.",
            "Boards %(boards)s were not scaled: their %(results)s results are matchpointed "
            "out of %(top)s, where Scorekeeper scales them with Neuberg's formula to the "
            "field's %(field_top)s.",
            len(values["boards"]),
            boards=boards_text(values["boards"]),
            results=values["results"],
            top=values["top"],
            field_top=values["field_top"],
        )
    if reason is Reason.SCALED_TO:
        return ngettext(
            "Board %(boards)s: its %(results)s results are scaled to %(expected)s, out of "
            "%(top)s, where Scorekeeper scales to the most results a board has.",
            "Boards %(boards)s: their %(results)s results are scaled to %(expected)s, out "
            "of %(top)s, where Scorekeeper scales to the most results a board has.",
            len(values["boards"]),
            boards=boards_text(values["boards"]),
            results=values["results"],
            expected=values["expected"],
            top=values["top"],
        )
    if reason is Reason.UNSCALED_TOTALS:
        return _("The totals add those boards as their travellers count them, not scaled.")
    if reason is Reason.SCALED_TOTALS:
        return _(
            "The totals count those boards Neuberg-scaled to %(field_top)s, as Scorekeeper does.",
            field_top=values["field_top"],
        )
    if reason is Reason.ROUNDED:
        step = format_decimal(Decimal(1).scaleb(-int(values["places"])))
        return _(
            "Each board's figure is rounded to %(step)s before it is added; Scorekeeper adds "
            "the exact figures.",
            step=step,
        )
    if reason is Reason.FACTORED:
        return _(
            "The file factored the total of pair %(pair)s, which played %(played)s of "
            "%(boards)s boards, by %(boards)s/%(played)s.",
            pair=values["pair"],
            played=values["played"],
            boards=values["boards"],
        )
    if reason is Reason.SESSION_TOP:
        return _(
            "Percentages are out of %(top)s on each of the session's %(boards)s boards, "
            "whatever a pair played.",
            top=values["top"],
            boards=values["boards"],
        )
    if reason is Reason.ARTIFICIAL:
        return _(
            "Board %(board)s, table %(table)s: artificial score published as %(ns)s/%(ew)s.",
            board=values["board"],
            table=values["table"],
            ns=decimal_text(values["ns"]),
            ew=decimal_text(values["ew"]),
        )
    if reason is Reason.DATUM:
        return _(
            "Board %(board)s: the file's datum is %(datum)s, Scorekeeper's %(own)s.",
            board=values["board"],
            datum=signed_text(int(values["datum"])),
            own=signed_text(int(values["own"])),
        )
    if reason is Reason.DIVISOR:
        if values["divisor"] == Divisor.NONE:
            return _("The file adds each result's cross-IMPs up without averaging them.")
        return _(
            "The file divides each result's cross-IMPs by the board's results, not by the "
            "other results it is compared with."
        )
    if reason is Reason.PLACES:
        return _("The place follows the file's own totals.")
    return _(
        "Scorekeeper counts this pair level with another for place %(rank)s: the file split "
        "the tie.",
        rank=values["rank"],
    )


def signed_text(score: int) -> str:
    """A score or a datum as a traveller writes it: +420, −50, 0."""
    return f"{score:+d}".replace("-", "−") if score else "0"


def check_text(checked: FigureCheck, *, in_imps: bool = False) -> str:
    """What Scorekeeper counts where a published figure is not its own: its figure, and why
    the file's differs (an explained figure), or the figure the file should have had."""
    if checked.verdict is Verdict.EXPLAINED:
        signed = in_imps and checked.figure in (Figure.IMPS, Figure.TOTAL)
        own = "–" if checked.own is None else decimal_text(checked.own, signed=signed)
        return _("Scorekeeper's %(figure)s: %(own)s", figure=FIGURES[checked.figure], own=own)
    return difference_text(checked.difference)


def own_figures_text(ns: Decimal, ew: Decimal, *, in_imps: bool = False) -> str:
    """Scorekeeper's own figures for a line, North-South's and East-West's."""
    return _(
        "Scorekeeper counts %(ns)s/%(ew)s.",
        ns=decimal_text(ns, signed=in_imps),
        ew=decimal_text(ew, signed=in_imps),
    )


def boards_counted_text(boards: tuple[int, ...], every: bool) -> str:
    """A pair's boards the file scored its own way (``every`` one it played), told once
    beside its total."""
    if every:
        return _("Each of its boards is scored the file's way (see the travellers).")
    return ngettext(
        "Its board %(boards)s is scored the file's way (see its traveller).",
        "Its boards %(boards)s are scored the file's way (see their travellers).",
        len(boards),
        boards=boards_text(boards),
    )


def larger_event_text(event: LargerEvent) -> str:
    """Why a file's ranking is left out of the check: it is the whole event's."""
    if event.boards is None:
        return _(
            "The file's ranking is that of the whole event, not of this session alone: its "
            "places, totals and percentages count more boards than this session, so they are "
            "left out of the check."
        )
    return _(
        "The file's ranking is that of the whole event, not of this session alone: its "
        "places, totals and percentages count about %(event)d boards a pair, this session "
        "%(session)d, so they are left out of the check.",
        event=event.boards,
        session=event.session_boards,
    )
