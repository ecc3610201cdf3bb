"""What the results files of a duplicate pairs session share, whatever their format (PBN,
USEBIO): the rules a file can break, what a file publishes beside the session it carries, and
the published figures the engine does not reproduce.

A results file carries two things: the session (who sat where on each board and what they
made of it) and the figures its program published (each result's score and matchpoints, each
pair's total, percentage and place). The session is read into a
:class:`~scorekeeper.rules.duplicate.SessionRecord`; the figures into :class:`Published`, so
that :func:`differences` can list every one the engine scores otherwise.

:func:`results_format` tells a results file's format from its first bytes, and names a file of
another kind (a BBO LIN file, a spreadsheet, a PDF) rather than reading it as a broken one.

A file that breaks a rule raises a :class:`FileError` naming the :class:`FileRule` and where
(``where``, and ``line`` in a text format), as data:

>>> error = FileError(FileRule.NUMBER, where="Line 12", line=12, field="Table", value="0",
...                   least=1, most=99)
>>> str(error)
"Line 12: Table must be a whole number from 1 to 99, not '0'."
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from scorekeeper.rules.bridge import Artificial, Contract, Strain, board_dealer, rounded
from scorekeeper.rules.common import Rule, RuleError, Seat, Side
from scorekeeper.rules.duplicate import (
    Pair,
    Ranking,
    Scoring,
    SessionRecord,
    SessionScore,
    Standing,
    Totals,
    expected_results,
    most_results,
)
from scorekeeper.rules.text import clean_text, decode_text

__all__ = [
    "MAX_BOARD",
    "MAX_BYTES",
    "MAX_FIGURE",
    "MAX_PAIR",
    "MAX_RESULTS",
    "MAX_ROUND",
    "MAX_SCORE",
    "MAX_TABLE",
    "MAX_TEXT",
    "Difference",
    "Figure",
    "FileCheck",
    "FileError",
    "FileRule",
    "LargerEvent",
    "Published",
    "PublishedResult",
    "PublishedStanding",
    "ResultsFormat",
    "SuitHolding",
    "as_scored",
    "check",
    "check_date",
    "clean_text",
    "contract_text",
    "deal_from_hands",
    "deal_hands",
    "decode_text",
    "detect_ranking",
    "differences",
    "event_ranking",
    "expected_by_file",
    "figure_text",
    "is_deal",
    "pair_key",
    "parse_artificial",
    "parse_contract",
    "parse_figure",
    "parse_seat",
    "parse_whole",
    "results_format",
    "totals_by_file",
]

MAX_BYTES = 8 * 1024 * 1024
"""The largest file read: a congress session of 10,000 results is well under it."""
MAX_RESULTS = 10_000
MAX_BOARD = 999
MAX_TABLE = 99
MAX_ROUND = 99
MAX_PAIR = 999
MAX_SCORE = 7600
"""No contract scores more: 7NT redoubled, vulnerable, thirteen down."""
MAX_FIGURE = 1_000_000
"""Matchpoints, IMPs, totals and percentages beyond it are not a session's."""
MAX_TEXT = 500
"""The longest event name, pair's names or lead kept."""


class FileRule(Rule):
    """The rules a results file can break (see :class:`FileError`)."""

    TOO_LARGE = "too-large"
    TOO_MANY_RESULTS = "too-many-results"
    TOO_MANY_VALUES = "too-many-values"
    TOO_MANY_COLUMNS = "too-many-columns"
    TOO_MANY_PAIRS = "too-many-pairs"
    LINE_TOO_LONG = "line-too-long"
    TEXT_TOO_LONG = "text-too-long"
    EMPTY = "empty"
    TAG = "tag"
    STRING = "string"
    COMMENT = "comment"
    STRAY = "stray"
    ROW = "row"
    MISSING = "missing"
    NUMBER = "number"
    FIGURE = "figure"
    CONTRACT = "contract"
    DECLARER = "declarer"
    SCORE = "score"
    ARTIFICIAL_ONE_SIDE = "artificial-one-side"
    NOT_PLAYED = "not-played"
    RESULT = "result"
    PAIR_TWICE = "pair-twice"
    DATE = "date"
    DEAL = "deal"
    HANDS = "hands"
    NO_DEALS = "no-deals"
    SCORING = "scoring"
    DIRECTION = "direction"
    PAIR_NUMBER = "pair-number"
    EVENT_TYPE = "event-type"
    XML = "xml"
    ENCODING = "encoding"
    XML_FORBIDDEN = "xml-forbidden"
    ROOT = "root"
    BBO_LIN = "bbo-lin"
    DOCUMENT = "document"
    PDF = "pdf"
    WEB_PAGE = "web-page"
    JSON = "json"

    @property
    def english(self) -> str:
        return _ENGLISH[self]


_ENGLISH = {
    FileRule.TOO_LARGE: "The file is {size} bytes long; a results file is read up to {most}.",
    FileRule.TOO_MANY_RESULTS: "The file has more than {most} results.",
    FileRule.TOO_MANY_VALUES: "The file has more than {most} tags and values.",
    FileRule.TOO_MANY_PAIRS: "The file has more than {most} pairs.",
    FileRule.TOO_MANY_COLUMNS: "{where}: a table has more than {most} columns.",
    FileRule.LINE_TOO_LONG: "{where} is longer than {most} characters.",
    FileRule.TEXT_TOO_LONG: "{where}: {field} is longer than {most} characters.",
    FileRule.EMPTY: "The file has no boards.",
    FileRule.TAG: '{where}: a tag is written [Name "value"], not {value!r}.',
    FileRule.STRING: "{where}: the string {value!r} has no closing quote.",
    FileRule.COMMENT: "{where}: a comment opened with {{ is never closed.",
    FileRule.STRAY: "{where}: {value!r} stands before any tag.",
    FileRule.ROW: "{where}: the {table} row {value!r} does not have its {columns} values.",
    FileRule.MISSING: "{where}: {field} is missing.",
    FileRule.NUMBER: (
        "{where}: {field} must be a whole number from {least} to {most}, not {value!r}."
    ),
    FileRule.FIGURE: "{where}: {field} must be a number, not {value!r}.",
    FileRule.CONTRACT: "{where}: {value!r} is not a contract (4S, 3NTX, Pass).",
    FileRule.DECLARER: "{where}: the declarer must be N, E, S or W, not {value!r}.",
    FileRule.SCORE: (
        "{where}: {field} must be a score or an artificial score (A+, A=, A-), not {value!r}."
    ),
    FileRule.ARTIFICIAL_ONE_SIDE: "{where}: an artificial score is given to one side only.",
    FileRule.NOT_PLAYED: "{where}: the result has neither a contract nor an artificial score.",
    FileRule.RESULT: "{where}: {reason}",
    FileRule.PAIR_TWICE: "{where}: pair {pair} plays board {board} twice.",
    FileRule.DATE: "{where}: {value!r} is not a date written {form}.",
    FileRule.DEAL: "{where}: {value!r} is not a deal in PBN notation.",
    FileRule.HANDS: "{where}: board {board}'s deal is not four hands of 13 different cards.",
    FileRule.NO_DEALS: "The file gives no board's four hands.",
    FileRule.SCORING: "{where}: the scoring {value!r} is neither matchpoints nor Butler IMPs.",
    FileRule.DIRECTION: "{where}: the direction must be North-South or East-West, not {value!r}.",
    FileRule.PAIR_NUMBER: "{where}: {value!r} is not a pair number from 1 to {most}.",
    FileRule.EVENT_TYPE: "The event type {value!r} is not a pairs event.",
    FileRule.XML: "The file is not well-formed XML (line {line}, column {column}).",
    FileRule.ENCODING: "The file's text cannot be decoded ({reason}).",
    FileRule.XML_FORBIDDEN: (
        "The file declares entities or refers to other files; a results file needs neither, "
        "and they are refused."
    ),
    FileRule.ROOT: "The file is not USEBIO: its root element is {value!r}.",
    FileRule.BBO_LIN: (
        "This is a BBO LIN file: deals as they were bid and played, not a session's results. "
        "Scorekeeper reads the results file a scoring program exports, PBN or USEBIO (.xml); "
        "a BBO tournament's host can download its results as USEBIO."
    ),
    FileRule.DOCUMENT: (
        "This file is a spreadsheet, another office document or a compressed archive, not a "
        "results file. Scorekeeper reads the results file a scoring program exports, PBN or "
        "USEBIO (.xml)."
    ),
    FileRule.PDF: (
        "This file is a PDF, a printout, not a results file. Scorekeeper reads the results "
        "file a scoring program exports, PBN or USEBIO (.xml)."
    ),
    FileRule.WEB_PAGE: (
        "This file is a web page, not a results file. Scorekeeper reads the results file a "
        "scoring program exports, PBN or USEBIO (.xml)."
    ),
    FileRule.JSON: (
        "This file is JSON, as a Scorekeeper game file is, not a results file: a game file is "
        "imported with “Import a game” on the home page. Here Scorekeeper reads the "
        "results file a scoring program exports, PBN or USEBIO (.xml)."
    ),
}


class FileError(RuleError):
    """A results file that cannot be read: the rule it breaks and where (``where``; ``line``
    too in a text format)."""


# --- What a file is -----------------------------------------------------------------------------


class ResultsFormat(StrEnum):
    """The results formats read."""

    PBN = "pbn"
    USEBIO = "usebio"


_SNIFFED = 4096
"""The bytes a file's kind is told from."""
_ZIP = b"PK\x03\x04"
"""An xlsx, ods or docx document is a zip archive."""
_COMPOUND = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""An older office document (xls, doc)."""
_LIN = re.compile(r"[a-z]{2}\|", re.IGNORECASE)
_HTML = re.compile(r"<(?:!doctype\s+html|html)\b", re.IGNORECASE)


def results_format(data: bytes) -> ResultsFormat:
    """A results file's format: USEBIO when its text opens with "<" (XML, in any encoding),
    else PBN. A file that is plainly something else raises :class:`FileError` saying what
    it is: a BBO LIN file (lines such as ``vg|...|`` and ``pn|...|``: deals and their play),
    a spreadsheet or another office document, a PDF, a web page, or JSON.

    >>> results_format(b'% PBN 2.0\\n[Event "Monday pairs"]')
    <ResultsFormat.PBN: 'pbn'>
    >>> results_format('<?xml version="1.0" encoding="UTF-16"?><USEBIO/>'.encode("utf-16"))
    <ResultsFormat.USEBIO: 'usebio'>
    >>> try:
    ...     results_format(b"vg|Monday pairs|P|1,8|I|0|0|...|\\npn|Anne,Bruno,Chloe,Denis|")
    ... except FileError as error:
    ...     error.rule
    <FileRule.BBO_LIN: 'bbo-lin'>
    """
    if data.startswith(b"%PDF-"):
        raise FileError(FileRule.PDF)
    if data.startswith((_ZIP, _COMPOUND)):
        raise FileError(FileRule.DOCUMENT)
    start = decode_text(data[:_SNIFFED]).lstrip()
    if start.startswith("<"):
        if _HTML.match(start):
            raise FileError(FileRule.WEB_PAGE)
        return ResultsFormat.USEBIO
    if start.startswith("{\\rtf"):
        raise FileError(FileRule.DOCUMENT)
    if _LIN.match(start):
        raise FileError(FileRule.BBO_LIN)
    if start.startswith("{") and _is_json(data):
        raise FileError(FileRule.JSON)
    return ResultsFormat.PBN


def _is_json(data: bytes) -> bool:
    """Whether the file is a JSON object (a PBN file may open with a { comment })."""
    try:
        return isinstance(json.loads(decode_text(data)), dict)
    except (ValueError, RecursionError):
        return False


# --- What a file publishes ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PublishedResult:
    """The figures a file published for one result; ``None`` where it gave none (an
    artificial score has no score in points)."""

    score_ns: int | None = None
    """North-South's score in points, when the file gives it from their side."""
    score_ew: int | None = None
    """East-West's score in points, when the file gives it from theirs."""
    mp_ns: float | None = None
    mp_ew: float | None = None
    imp_ns: float | None = None
    imp_ew: float | None = None


@dataclass(frozen=True, slots=True)
class PublishedStanding:
    """One line of the ranking a file published."""

    pair: Pair
    rank: int | None = None
    total: float | None = None
    """Matchpoints, or IMPs in a Butler session."""
    percentage: float | None = None
    tiebreak: int | None = None
    names: str = ""
    boards: int | None = None
    """The boards the file says the pair's figures count."""


@dataclass(frozen=True, slots=True)
class Published:
    """What a file claims: one entry per result (in the order of the session's results) and
    its ranking, in its own order."""

    results: tuple[PublishedResult, ...] = ()
    standings: tuple[PublishedStanding, ...] = ()


class Figure(StrEnum):
    """A kind of published figure."""

    SCORE = "score"
    MATCHPOINTS = "matchpoints"
    IMPS = "imps"
    TOTAL = "total"
    PERCENTAGE = "percentage"
    RANK = "rank"


@dataclass(frozen=True, slots=True)
class Difference:
    """A published figure the engine does not reproduce: what the file says, what the engine
    makes of the same results (``None``: nothing to compare with), and where."""

    figure: Figure
    published: float
    computed: float | None
    board: int | None = None
    table: int | None = None
    side: Side | None = None
    pair: Pair | None = None


def _decimals(published: float) -> int:
    """The decimals a published figure is written with (28.30 and 28.3: one)."""
    exponent = Decimal(repr(float(published))).normalize().as_tuple().exponent
    return -min(0, exponent) if isinstance(exponent, int) else 0


def _compared(
    published: float, exact: Fraction | None, least: int, shown: Fraction | None = None
) -> tuple[bool, float | None]:
    """Whether a published figure is the engine's exact one as a sheet shows it: rounded half
    up to the decimals the file writes it with, at least ``least`` (0.1 for matchpoints, 0.01
    for percentages); ``shown`` is the traveller's own figure, when it has one (East-West the
    top less North-South's). Also the engine's figure at that precision, to name it."""
    if exact is None:
        return False, None
    places = max(least, _decimals(published))
    computed = rounded(exact, places)
    written = Decimal(repr(float(published)))
    agrees = written == computed or (shown is not None and places == 1 and written == shown)
    return agrees, float(computed)


@dataclass(frozen=True, slots=True)
class LargerEvent:
    """The ranking a file publishes is that of a larger event than the session it carries
    (several sessions added up): its places, totals and percentages are not the session's."""

    boards: int | None
    """About how many boards a pair's published figures count, when the file shows it."""
    session_boards: int
    """The boards a pair plays in the session (the most any pair plays)."""


@dataclass(frozen=True, slots=True)
class FileCheck:
    """A file's published figures checked against the engine's scoring of its session."""

    differences: tuple[Difference, ...]
    """Every published figure of the session the engine does not reproduce."""
    larger_event: LargerEvent | None
    """Set when the file's ranking is that of a larger event: then its places, totals and
    percentages are not compared, and are not differences."""


_PERCENT_SLACK = Fraction(1, 200)
"""Half the last decimal of a percentage published to 0.01."""
_TOTAL_SLACK = Fraction(1, 20)
"""Half the last decimal of a total published to 0.1."""


def _event_boards(
    line: PublishedStanding, standing: Standing, butler: bool
) -> tuple[bool, int | None] | None:
    """What one published line says of its size: ``(True, boards)`` when its figures count
    more than the pair's session (``boards`` about how many, when it shows), ``(False, None)``
    when they fit the session, ``None`` when it cannot tell."""
    verdicts: list[tuple[bool, int | None]] = []
    if line.boards is not None:
        verdicts.append((line.boards > standing.boards, line.boards))
    if not butler and standing.top and line.total is not None:
        total = Fraction(repr(line.total))
        if line.percentage is not None and line.percentage > 0:
            percentage = Fraction(repr(line.percentage))
            least_top = (total - _TOTAL_SLACK) * 100 / (percentage + _PERCENT_SLACK)
            boards = round(total * 100 / percentage * standing.boards / standing.top)
            verdicts.append((least_top > standing.top, boards))
        elif total > standing.top:
            verdicts.append((True, None))
    if not verdicts:
        return None
    larger = [boards for is_larger, boards in verdicts if is_larger]
    if larger:
        return True, max((b for b in larger if b is not None), default=None)
    return False, None


def event_ranking(published: Published, score: SessionScore) -> LargerEvent | None:
    """Whether the ranking a file publishes is that of a larger event than its session.

    A program that scores an event of several sessions may publish, with one session's
    results, the ranking of the whole event so far: every per-board figure is the session's,
    but each pair's place, total and percentage count every session. A line shows it when it
    says its pair played more boards than the session has, when its total is beyond the
    session's top, or when its total and percentage are out of a larger top than the pair's
    in the session. The ranking is the event's when at least one line shows it and none fits
    the session.
    """
    butler = score.scoring is Scoring.BUTLER
    larger: list[int | None] = []
    for line in published.standings:
        standing = score.standing_of(line.pair)
        if standing is None:
            continue
        verdict = _event_boards(line, standing, butler)
        if verdict is None:
            continue
        is_larger, boards = verdict
        if not is_larger:
            return None
        larger.append(boards)
    if not larger:
        return None
    known = Counter(boards for boards in larger if boards is not None)
    session_boards = max(s.boards for _, standings in score.rankings for s in standings)
    return LargerEvent(known.most_common(1)[0][0] if known else None, session_boards)


def check(
    session: SessionRecord, published: Published, score: SessionScore | None = None
) -> FileCheck:
    """The file's published figures checked against the engine's scoring of its session:
    each result's score (from the side the file gives it), matchpoints or IMPs for each
    side, then each pair's total, percentage and rank, unless the ranking is that of a larger
    event (:func:`event_ranking`), which is said instead.

    A figure agrees when it is the engine's exact figure rounded (half up) to the decimals
    the file writes it with, at least a sheet's own: 0.1 for matchpoints and totals, 0.01
    for percentages.

    ``published.results`` must follow ``session.results`` one for one.
    """
    scored = score if score is not None else session.score()
    found: list[Difference] = []
    butler = session.scoring is Scoring.BUTLER
    for item, figures in zip(scored.results, published.results, strict=True):
        result = item.result
        board, table = result.board, result.table
        computed_ns = result.score_ns
        scores: tuple[tuple[Side, int | None, int | None], ...] = (
            (Side.NS, figures.score_ns, computed_ns),
            (Side.EW, figures.score_ew, None if computed_ns is None else -computed_ns),
        )
        for side, given_score, computed_score in scores:
            if given_score is not None and given_score != computed_score:
                found.append(
                    Difference(Figure.SCORE, given_score, computed_score, board, table, side)
                )
        points: tuple[tuple[Side, Figure, float | None, Fraction, Fraction], ...] = (
            (Side.NS, Figure.MATCHPOINTS, figures.mp_ns, item.ns, item.shown_ns),
            (Side.EW, Figure.MATCHPOINTS, figures.mp_ew, item.ew, item.shown_ew),
            (Side.NS, Figure.IMPS, figures.imp_ns, item.ns, item.shown_ns),
            (Side.EW, Figure.IMPS, figures.imp_ew, item.ew, item.shown_ew),
        )
        for side, figure, given, exact, shown in points:
            if given is None:
                continue
            if (figure is Figure.IMPS) is not butler:
                found.append(Difference(figure, given, None, board, table, side))
                continue
            agrees, computed = _compared(given, exact, 0 if butler else 1, shown)
            if not agrees:
                found.append(Difference(figure, given, computed, board, table, side))
    larger = event_ranking(published, scored)
    if larger is None:
        found += _standing_differences(published, scored)
    return FileCheck(tuple(found), larger)


def _standing_differences(published: Published, scored: SessionScore) -> list[Difference]:
    found: list[Difference] = []
    butler = scored.scoring is Scoring.BUTLER
    for line in published.standings:
        standing = scored.standing_of(line.pair)
        totals: tuple[tuple[Figure, float | None, Fraction | None, int], ...] = (
            (Figure.TOTAL, line.total, standing.total if standing else None, 0 if butler else 1),
            (Figure.PERCENTAGE, line.percentage, standing.percentage if standing else None, 2),
        )
        for figure, given, exact, least in totals:
            if given is None:
                continue
            agrees, computed = _compared(given, exact, least)
            if not agrees:
                found.append(Difference(figure, given, computed, pair=line.pair))
        rank = standing.rank if standing else None
        if line.rank is not None and line.rank != rank:
            found.append(Difference(Figure.RANK, line.rank, rank, pair=line.pair))
    return found


def differences(
    session: SessionRecord, published: Published, score: SessionScore | None = None
) -> list[Difference]:
    """Every published figure the engine does not reproduce (:func:`check`); empty when the
    file and the engine agree."""
    return list(check(session, published, score).differences)


# --- How a file scored its session ---------------------------------------------------------------


def expected_by_file(session: SessionRecord, published: Published) -> dict[int, int] | None:
    """Each board's N (the results it should have had, RULES.md §2) as the file's own
    matchpoints show it, for the boards where it is not the engine's default (the most
    results any board has, RULES.md §4); ``None`` when the file says nothing else.

    A real result's two published figures add up to its board's top, 2 × (N − 1): a board
    played fewer times whose figures add up to the top of the results it has was not
    Neuberg-scaled, and is not. A board whose figures say nothing (none published, or not on
    this scale) expects the default.

    >>> from scorekeeper.rules.duplicate import TableResult
    >>> short = SessionRecord((TableResult(1, 1, 1, 1, 2), TableResult(1, 2, 1, 3, 4),
    ...                        TableResult(2, 1, 2, 1, 4)))
    >>> unscaled = Published((PublishedResult(mp_ns=1, mp_ew=1),
    ...                       PublishedResult(mp_ns=1, mp_ew=1), PublishedResult(mp_ns=0, mp_ew=0)))
    >>> expected_by_file(short, unscaled)
    {2: 1}
    """
    if session.scoring is Scoring.BUTLER:
        return None
    counts = expected_results(session.results)
    most = most_results(session.results)
    tops: dict[int, Counter[int]] = {}
    for result, figures in zip(session.results, published.results, strict=True):
        if result.is_artificial or figures.mp_ns is None or figures.mp_ew is None:
            continue
        added = Fraction(repr(figures.mp_ns)) + Fraction(repr(figures.mp_ew))
        top = round(added)
        # Each figure may be rounded on its own: the two add up to the top within 0.1.
        if top % 2 == 0 and abs(added - top) <= Fraction(1, 10):
            tops.setdefault(result.board, Counter())[top] += 1
    said = {}
    for board, found in sorted(tops.items()):
        wanted = found.most_common(1)[0][0] // 2 + 1
        if wanted >= counts[board] and wanted != most:
            said[board] = wanted
    return said or None


def totals_by_file(session: SessionRecord, published: Published) -> Totals:
    """How the file added its per-board matchpoints up: the figures as shown (to 0.1) when
    that reproduces more of its published totals and percentages than the exact figures do
    (some club programs total a session so), else exactly (RULES.md §4)."""
    if session.scoring is Scoring.BUTLER or not published.standings:
        return Totals.EXACT
    exact = dataclasses.replace(session, totals=Totals.EXACT).score()
    if event_ranking(published, exact) is not None:
        return Totals.EXACT
    shown = dataclasses.replace(session, totals=Totals.BOARD_TENTHS).score()
    if _sums_differing(published, shown) < _sums_differing(published, exact):
        return Totals.BOARD_TENTHS
    return Totals.EXACT


def _sums_differing(published: Published, scored: SessionScore) -> int:
    differing = _standing_differences(published, scored)
    return sum(d.figure in (Figure.TOTAL, Figure.PERCENTAGE) for d in differing)


def as_scored(session: SessionRecord, published: Published) -> SessionRecord:
    """The session to be scored as its file says it was (:func:`expected_by_file`,
    :func:`totals_by_file`); where the file does not say, with Neuberg and exact totals."""
    expected = expected_by_file(session, published)
    with_expected = dataclasses.replace(session, expected=expected)
    return dataclasses.replace(with_expected, totals=totals_by_file(with_expected, published))


# --- Reading values -----------------------------------------------------------------------------

_WHOLE = re.compile(r"[+-]?\d{1,9}")
_FIGURE = re.compile(r"([+-]?\d{1,9})(?:[.,](\d{1,6}))?")


def parse_whole(text: str) -> int | None:
    """A whole number as files write it, or ``None``.

    >>> parse_whole("12"), parse_whole(" -3 "), parse_whole("1e3"), parse_whole("٣")
    (12, -3, None, None)
    """
    text = text.strip()
    # ASCII digits only: int() would take other scripts' digits too.
    return int(text) if text.isascii() and _WHOLE.fullmatch(text) else None


def parse_figure(text: str) -> float | None:
    """A decimal figure (a point or a comma before the decimals), or ``None``.

    >>> parse_figure("28.3"), parse_figure("16,8"), parse_figure("nan"), parse_figure("1e5")
    (28.3, 16.8, None, None)
    """
    text = text.strip()
    found = _FIGURE.fullmatch(text) if text.isascii() else None
    if found is None:
        return None
    value = float(f"{found[1]}.{found[2] or '0'}")
    return value if math.isfinite(value) and abs(value) <= MAX_FIGURE else None


def figure_text(value: Fraction | float, places: int) -> str:
    """A figure as files write it: ``places`` decimals (half up), never "-0".

    >>> figure_text(28.3, 1), figure_text(-0.0, 1), figure_text(Fraction(217, 3), 2)
    ('28.3', '0.0', '72.33')
    """
    return str(rounded(value, places))


_ARTIFICIAL_WORDS = {
    "A+": Artificial.AVERAGE_PLUS,
    "A=": Artificial.AVERAGE,
    "A": Artificial.AVERAGE,
    "A-": Artificial.AVERAGE_MINUS,
    "A60": Artificial.AVERAGE_PLUS,
    "A50": Artificial.AVERAGE,
    "A40": Artificial.AVERAGE_MINUS,
    "AVE+": Artificial.AVERAGE_PLUS,
    "AVE": Artificial.AVERAGE,
    "AVE=": Artificial.AVERAGE,
    "AVE-": Artificial.AVERAGE_MINUS,
}


def parse_artificial(text: str) -> Artificial | None:
    """An artificial score as files write it ("A+", "^A+" as PBN marks one, "A60" in
    percent, "AVE-"), or ``None`` when the text is not one.

    >>> parse_artificial("A+"), parse_artificial("^a-"), parse_artificial("A50")
    (<Artificial.AVERAGE_PLUS: 'A+'>, <Artificial.AVERAGE_MINUS: 'A-'>, <Artificial.AVERAGE: 'A='>)
    """
    return _ARTIFICIAL_WORDS.get(text.strip().removeprefix("^").upper())


_CONTRACT = re.compile(r"([1-7])(NT|SA|N|S|H|D|C)(XX|X)?")
_PASS_WORDS = frozenset({"PASS", "PASSED", "P", "AP", "PO", "ALLPASS"})


def parse_contract(text: str) -> Contract | None:
    """A contract as files write it ("4S", "3NX", "3NTXX", "4sx"), or ``None`` for a pass
    ("Pass", "AP"); a :class:`ValueError` for anything else.

    >>> parse_contract("3NX"), parse_contract("Pass")
    (Contract(level=3, strain=<Strain.NOTRUMP: 'NT'>, doubled=1), None)
    """
    compact = "".join(text.split()).upper()
    if compact in _PASS_WORDS:
        return None
    found = _CONTRACT.fullmatch(compact) if compact.isascii() else None
    if found is None:
        raise ValueError(text)
    strain = Strain.NOTRUMP if found[2] in ("N", "SA") else Strain(found[2])
    return Contract(int(found[1]), strain, len(found[3] or ""))


def contract_text(contract: Contract) -> str:
    """A contract as PBN writes it: "4S", "3NTX".

    >>> contract_text(Contract(3, "NT", 2))
    '3NTXX'
    """
    return f"{contract.level}{contract.strain.value}{'X' * contract.doubled}"


_SEATS = {
    "N": Seat.NORTH,
    "E": Seat.EAST,
    "S": Seat.SOUTH,
    "W": Seat.WEST,
    "NORTH": Seat.NORTH,
    "EAST": Seat.EAST,
    "SOUTH": Seat.SOUTH,
    "WEST": Seat.WEST,
}


def parse_seat(text: str) -> Seat | None:
    """A seat ("N", "north", "West"), or ``None``.

    >>> parse_seat("w"), parse_seat("North"), parse_seat("X")
    (<Seat.WEST: 'W'>, <Seat.NORTH: 'N'>, None)
    """
    return _SEATS.get(text.strip().upper())


# --- Deals --------------------------------------------------------------------------------------

_HAND = r"(?:-|[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*)"
_DEAL = re.compile(rf"[NESW]:{_HAND}(?:\s+{_HAND}){{3}}", re.IGNORECASE)
_SUIT_RANKS = re.compile(r"[AKQJT2-9]*", re.IGNORECASE)
_ORDER = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
SuitHolding = tuple[str, str, str, str]
"""A hand's spades, hearts, diamonds and clubs, as rank letters."""


def is_deal(text: str) -> bool:
    """Whether ``text`` is a deal in PBN notation (hands not given written "-").

    >>> is_deal("N:KQT6.AJT.T984.65 - J543.43.AQ5.AKJ3 -"), is_deal("N:AK")
    (True, False)
    """
    return _DEAL.fullmatch(text.strip()) is not None


def deal_hands(deal: str) -> dict[Seat, SuitHolding] | None:
    """The hands a PBN deal gives (those written "-" are absent), or ``None`` when ``deal``
    is not one.

    >>> deal_hands("E:Q3.A92.A863.AQ97 - - -")
    {<Seat.EAST: 'E'>: ('Q3', 'A92', 'A863', 'AQ97')}
    """
    if not is_deal(deal):
        return None
    first, _, hands = deal.strip().partition(":")
    seat = Seat(first.upper())
    found: dict[Seat, SuitHolding] = {}
    for offset, hand in enumerate(hands.split()):
        if hand != "-":
            spades, hearts, diamonds, clubs = hand.split(".")
            found[seat.after(offset)] = (spades, hearts, diamonds, clubs)
    return found


def deal_from_hands(board: int, hands: Mapping[Seat, SuitHolding]) -> str | None:
    """A PBN deal from the hands known, the board's dealer first as PBN exports it; ``None``
    when no hand is known or a suit is not rank letters.

    >>> deal_from_hands(2, {Seat.NORTH: ("AK", "", "QJT", "98765432")})
    'E:- - - AK..QJT.98765432'
    """
    if not hands or not all(
        _SUIT_RANKS.fullmatch(suit) for hand in hands.values() for suit in hand
    ):
        return None
    dealer = board_dealer(board)
    seats = [dealer.after(offset) for offset in range(4)]
    written = [".".join(hands[seat]) if seat in hands else "-" for seat in seats]
    return f"{dealer.value}:{' '.join(written)}"


# --- The ranking a file implies -----------------------------------------------------------------


def detect_ranking(
    seatings: Iterable[tuple[int, int, int]], ranks: Iterable[tuple[Side, int]] = ()
) -> Ranking:
    """Whether a file numbers its pairs within their direction (a Mitchell).

    ``seatings`` gives (board, North-South pair, East-West pair) for each result: a number
    that sits North-South at one table and East-West at another on the same board (or faces
    itself) is two pairs, so pairs are numbered within their direction. ``ranks`` gives each
    published rank with its direction: ranks that start again from 1 in each direction are
    two rankings.

    >>> detect_ranking([(1, 1, 1), (1, 2, 2)])
    <Ranking.BY_DIRECTION: 'direction'>
    >>> detect_ranking([(1, 1, 2), (1, 3, 4), (2, 1, 3), (2, 2, 4)])
    <Ranking.ONE_FIELD: 'field'>
    >>> detect_ranking([(1, 1, 3), (1, 2, 4)], [(Side.NS, 1), (Side.NS, 2), (Side.EW, 1),
    ...                                          (Side.EW, 2)])
    <Ranking.BY_DIRECTION: 'direction'>
    """
    seated: dict[int, tuple[set[int], set[int]]] = {}
    for board, ns, ew in seatings:
        north_south, east_west = seated.setdefault(board, (set(), set()))
        if ns == ew or ns in east_west or ew in north_south:
            return Ranking.BY_DIRECTION
        north_south.add(ns)
        east_west.add(ew)
    by_side: dict[Side, list[int]] = {}
    for side, rank in ranks:
        by_side.setdefault(side, []).append(rank)
    if len(by_side) == 2 and all(
        min(found) == 1 and max(found) <= len(found) for found in by_side.values()
    ):
        return Ranking.BY_DIRECTION
    return Ranking.ONE_FIELD


def check_date(year: int, month: int, day: int) -> date | None:
    """The date, or ``None`` when there is no such day."""
    try:
        return date(year, month, day)
    except ValueError:
        return None


def pair_key(number: int, direction: Side | None, ranking: Ranking) -> Pair:
    """The session's key for a pair of the file."""
    return Pair(number, direction if ranking.numbered_by_direction else None)
