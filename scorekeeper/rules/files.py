"""What the results files of a duplicate pairs session share, whatever their format (PBN,
USEBIO): the rules a file can break, and the values files write.

A results file carries two things: the session (who sat where on each board and what they
made of it) and the figures its program published (each result's score and matchpoints, each
pair's total, percentage and place). The session is read into a
:class:`~scorekeeper.rules.duplicate.SessionRecord`; the figures into a
:class:`~scorekeeper.rules.published.Published`, checked there against Scorekeeper's count.

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

import json
import re
from collections.abc import Iterable, Mapping
from datetime import date
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from scorekeeper.rules.bridge import Artificial, Contract, Strain, board_dealer, rounded
from scorekeeper.rules.common import Rule, RuleError, Seat, Side
from scorekeeper.rules.duplicate import Pair, Ranking
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
    "FileError",
    "FileRule",
    "ResultsFormat",
    "SuitHolding",
    "check_date",
    "clean_text",
    "contract_text",
    "deal_from_hands",
    "deal_hands",
    "decode_text",
    "detect_ranking",
    "figure_text",
    "is_deal",
    "pair_key",
    "parse_artificial",
    "parse_contract",
    "parse_figure",
    "parse_seat",
    "parse_whole",
    "results_format",
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
    FileRule.SCORING: (
        "{where}: the scoring {value!r} is neither matchpoints nor IMPs (Butler or cross-IMPs)."
    ),
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


def parse_figure(text: str) -> Decimal | None:
    """A decimal figure as the file writes it (a point or a comma before the decimals, which
    it keeps), or ``None``.

    >>> parse_figure("28.30"), parse_figure("16,8"), parse_figure("-3"), parse_figure("1e5")
    (Decimal('28.30'), Decimal('16.8'), Decimal('-3'), None)
    """
    text = text.strip()
    found = _FIGURE.fullmatch(text) if text.isascii() else None
    if found is None:
        return None
    value = Decimal(f"{found[1]}.{found[2]}" if found[2] else found[1])
    return value if abs(value) <= MAX_FIGURE else None


def figure_text(value: Fraction | Decimal | float, places: int) -> str:
    """A figure as files write it: ``places`` decimals (half up), never "-0".

    >>> figure_text(28.3, 1), figure_text(-0.0, 1), figure_text(Fraction(217, 3), 2)
    ('28.3', '0.0', '72.33')
    """
    return str(rounded(Fraction(value) if isinstance(value, Decimal) else value, places))


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
