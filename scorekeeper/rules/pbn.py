"""A duplicate pairs session in PBN 2.0 (Portable Bridge Notation), as club programs export
it: read with the figures it publishes, and written back.

A PBN file is a sequence of games, one per board, separated by blank lines. Each game has
tags, ``[Name "value"]`` (``Board``, ``Deal``, ``Scoring`` ...), and tables: a tag whose value
names the columns (``"Table\\2R;Round\\2R;PairId_NS\\2R;..."``, each name with an optional
minimum width and alignment) followed by rows of values separated by spaces, a quoted string
where a value has spaces, ``-`` where there is none. A game's ``ScoreTable`` holds every
table's result on its board; a ``TotalScoreTable`` (on the first board, in Magic Contest's
exports) the ranking. Lines that start with ``%`` are not read, nor comments (``;`` to the
end of the line, ``{`` to ``}``).

>>> from scorekeeper.rules.bridge import Contract
>>> session = SessionRecord(
...     (TableResult(1, 1, 1, ns=1, ew=2, contract=Contract(4, "S"), declarer=Seat.NORTH,
...                  tricks=10),
...      TableResult(1, 2, 1, ns=3, ew=4, contract=Contract(3, "NT"), declarer=Seat.SOUTH,
...                  tricks=9)),
...     event="Monday pairs")
>>> text = write_pbn(session)
>>> print(text[text.index("[ScoreTable"):].splitlines()[1].split())
['1', '1', '1', '2', '4S', 'N', '10', '-', '420', '-', '2.0', '0.0', '100', '0']
>>> pbn = read_pbn(text)
>>> pbn.session == session, differences(pbn)
(True, [])
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from fractions import Fraction

from scorekeeper.rules.bridge import Artificial, Contract, board_dealer, board_vulnerability
from scorekeeper.rules.common import RuleError, Seat, Side
from scorekeeper.rules.duplicate import (
    Pair,
    Ranking,
    ScoredResult,
    Scoring,
    SessionRecord,
    SessionScore,
    TableResult,
)
from scorekeeper.rules.field import FieldScore, Section
from scorekeeper.rules.files import (
    MAX_BOARD,
    MAX_BYTES,
    MAX_PAIR,
    MAX_RESULTS,
    MAX_ROUND,
    MAX_SCORE,
    MAX_TABLE,
    MAX_TEXT,
    FileError,
    FileRule,
    check_date,
    clean_text,
    contract_text,
    deal_hands,
    decode_text,
    detect_ranking,
    figure_text,
    is_deal,
    pair_key,
    parse_artificial,
    parse_contract,
    parse_figure,
    parse_seat,
    parse_whole,
)
from scorekeeper.rules.hands import Deal, HandError
from scorekeeper.rules.published import (
    Difference,
    Published,
    PublishedResult,
    PublishedStanding,
    imp_scoring,
    shown_places,
)
from scorekeeper.rules.published import differences as _differences

__all__ = ["PbnError", "PbnFile", "differences", "read_hand_records", "read_pbn", "write_pbn"]

MAX_LINE = 10_000
"""The longest line read; PBN itself asks for at most 255 characters."""
MAX_VALUES = 1_000_000
MAX_COLUMNS = 64


class PbnError(FileError):
    """A PBN file that cannot be read: the rule it breaks, the line, and the value at fault."""


@dataclass(frozen=True, slots=True)
class PbnFile:
    """A PBN results file read: the session, and the figures the file published."""

    session: SessionRecord
    published: Published


def differences(pbn: PbnFile) -> list[Difference]:
    """Every figure the file published that its results do not bear out
    (:func:`scorekeeper.rules.published.differences`)."""
    return _differences(pbn.session, pbn.published)


def _fail(rule: FileRule, line: int, **values: object) -> PbnError:
    return PbnError(rule, where=f"Line {line}", line=line, **values)


# --- Text, tokens, games ------------------------------------------------------------------------


def _decode(data: bytes | str) -> str:
    """The file's text (:func:`scorekeeper.rules.text.decode_text`)."""
    if isinstance(data, str):
        text = data.removeprefix("\ufeff")
    else:
        if len(data) > MAX_BYTES:
            raise PbnError(FileRule.TOO_LARGE, size=len(data), most=MAX_BYTES)
        text = decode_text(data)
    if len(text) > MAX_BYTES:
        raise PbnError(FileRule.TOO_LARGE, size=len(text), most=MAX_BYTES)
    return text


Token = tuple[str, str, int]
"""A token: its kind ("[", "]", "string" or "word"), its text, and its line."""

# A stray "}" (no comment open) is kept in its word: only "{" opens a comment.
_WORD_END = re.compile(r'[\s\[\]{;"]')
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _string(line: str, start: int, number: int) -> tuple[str, int]:
    """The string token opening at ``start`` (a quote) and the position after it: a quote
    inside is written \\", a backslash \\\\; any other backslash is itself."""
    chars: list[str] = []
    position = start + 1
    while position < len(line):
        char = line[position]
        if char == "\\" and line[position + 1 : position + 2] in ('"', "\\"):
            chars.append(line[position + 1])
            position += 2
        elif char == '"':
            return "".join(chars), position + 1
        else:
            chars.append(char)
            position += 1
    raise _fail(FileRule.STRING, number, value=line[start:])


def _games(text: str) -> Iterator[list[Token]]:
    """The tokens of each game: a line holding only spaces ends a game (PBN 2.0 §3)."""
    game: list[Token] = []
    count = 0
    comment_from = 0
    for number, line in enumerate(_LINE_BREAK.split(text), 1):
        if len(line) > MAX_LINE:
            raise _fail(FileRule.LINE_TOO_LONG, number, most=MAX_LINE)
        position = 0
        if comment_from:
            close = line.find("}")
            if close < 0:
                continue
            comment_from, position = 0, close + 1
        elif line.startswith("%"):
            continue
        elif not line.strip(" \t"):
            if game:
                yield game
                game = []
            continue
        while position < len(line):
            char = line[position]
            if char.isspace():
                position += 1
            elif char == ";":
                break
            elif char == "{":
                close = line.find("}", position + 1)
                if close < 0:
                    comment_from = number
                    break
                position = close + 1
            elif char in "[]":
                game.append((char, char, number))
                position += 1
            elif char == '"':
                value, position = _string(line, position, number)
                game.append(("string", value, number))
            else:
                end = _WORD_END.search(line, position)
                stop = max(end.start() if end else len(line), position + 1)
                game.append(("word", line[position:stop], number))
                position = stop
            count += 1
            if count > MAX_VALUES:
                raise PbnError(FileRule.TOO_MANY_VALUES, most=MAX_VALUES)
    if comment_from:
        raise _fail(FileRule.COMMENT, comment_from)
    if game:
        yield game


@dataclass(slots=True)
class _Table:
    """A table section: its column names (lower case, widths removed) and its values."""

    name: str
    columns: list[str]
    line: int
    values: list[Token] = field(default_factory=list)

    def rows(self) -> Iterator[tuple[int, dict[str, str]]]:
        """Each row's line and values by column name; "-" (irrelevant) and "?" (unknown)
        are empty, unless quoted. A row may run over several lines: values are taken by the
        column count."""
        width = len(self.columns)
        for start in range(0, len(self.values), width):
            chunk = self.values[start : start + width]
            if len(chunk) < width:
                raise _fail(
                    FileRule.ROW,
                    chunk[0][2],
                    table=self.name,
                    columns=width,
                    value=" ".join(text for _, text, _ in chunk),
                )
            yield (
                chunk[0][2],
                {
                    column: "" if kind == "word" and text in ("-", "?") else text
                    for column, (kind, text, _) in zip(self.columns, chunk, strict=True)
                },
            )


@dataclass(slots=True)
class _Game:
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)
    tables: list[_Table] = field(default_factory=list)


_TAG_NAME = re.compile(r"[A-Za-z0-9_]{1,64}")
_TABLES = ("ScoreTable", "TotalScoreTable")


def _columns(value: str, line: int) -> list[str]:
    """The column names of a table tag: "+"/"-" (the order) and "\\width" + alignment
    removed, in lower case."""
    names = [
        part.strip().lstrip("+-").partition("\\")[0].strip().lower() for part in value.split(";")
    ]
    if len(names) > MAX_COLUMNS:
        raise _fail(FileRule.TOO_MANY_COLUMNS, line, most=MAX_COLUMNS)
    return names


def _game(tokens: list[Token], previous: Mapping[str, tuple[str, int]]) -> _Game:
    """A game's tags (the first of a name counts) and its score tables; a tag valued "#"
    takes the previous game's value (PBN 2.0 §4.8)."""
    game = _Game()
    table: _Table | None = None
    index = 0
    while index < len(tokens):
        kind, text, line = tokens[index]
        if kind == "[":
            parts = tokens[index + 1 : index + 4]
            if [part[0] for part in parts] != ["word", "string", "]"] or not (
                _TAG_NAME.fullmatch(parts[0][1])
            ):
                shown = " ".join(part[1] for part in tokens[index : index + 4])
                raise _fail(FileRule.TAG, line, value=shown)
            name, value = parts[0][1], parts[1][1]
            if value == "#" and name in previous:
                value = previous[name][0]
            game.tags.setdefault(name, (value, line))
            table = None
            if name in _TABLES:
                table = _Table(name, _columns(value, line), line)
                game.tables.append(table)
            index += 4
        elif kind == "]":
            raise _fail(FileRule.TAG, line, value=text)
        else:
            if not game.tags:
                raise _fail(FileRule.STRAY, line, value=text)
            if table is not None:
                table.values.append(tokens[index])
            index += 1
    return game


# --- Reading values ------------------------------------------------------------------------------


def _whole(text: str, line: int, name: str, least: int, most: int) -> int:
    value = parse_whole(text)
    if value is None or not least <= value <= most:
        raise _fail(FileRule.NUMBER, line, field=name, value=text, least=least, most=most)
    return value


def _figure(text: str, line: int, name: str) -> Decimal | None:
    if not text:
        return None
    value = parse_figure(text)
    if value is None:
        raise _fail(FileRule.FIGURE, line, field=name, value=text)
    return value


def _text(text: str, line: int, name: str) -> str:
    """A name, the event or a lead, cleaned (:func:`scorekeeper.rules.text.clean_text`)."""
    if len(text) > MAX_TEXT:
        raise _fail(FileRule.TEXT_TOO_LONG, line, field=name, most=MAX_TEXT)
    return clean_text(text)


_DATE = re.compile(r"(\d{4}|\?{4})\.(\d\d|\?\?)\.(\d\d|\?\?)")


def _date(value: str, line: int) -> date | None:
    """A Date tag, "YYYY.MM.DD"; ``None`` when a part is "?" (unknown)."""
    value = value.strip()
    found = _DATE.fullmatch(value) if value.isascii() else None
    if value in ("", "?"):
        return None
    if found is None:
        raise _fail(FileRule.DATE, line, value=value, form="YYYY.MM.DD")
    if "?" in value:
        return None
    day = check_date(int(found[1]), int(found[2]), int(found[3]))
    if day is None:
        raise _fail(FileRule.DATE, line, value=value, form="YYYY.MM.DD")
    return day


_MATCHPOINT_WORDS = frozenset({"mp", "mp1", "mp2", "matchpoints", "matchpoint", "emp"})
_IMP_WORDS = frozenset({"imp", "imps", "butler", "butler-2", "imp_1948", "imp_1961"})
_CROSS_WORDS = frozenset(
    {"cross", "cross1", "cross2", "crossimps", "cross-imps", "cross_imps", "ximp", "ximps"}
)
_SAID_IMPS = _CROSS_WORDS | {"butler", "butler-2"}
"""The Scoring tag's words that say which IMPs: "IMP" alone leaves it to the figures."""


def _scoring(value: str, line: int) -> Scoring | None:
    """The Scoring tag: MatchPoints (with its modifiers), IMPs against a datum (Butler), or
    cross-IMPs ("IMP;Cross"); ``None`` when empty. Other methods (rubber, BAM) are not a
    pairs session's the engine scores."""
    words = {word.strip().lower() for word in value.split(";")} - {""}
    if not words or words == {"?"}:
        return None
    if words & _MATCHPOINT_WORDS:
        return Scoring.MATCHPOINTS
    if words & _CROSS_WORDS and words <= _IMP_WORDS | _CROSS_WORDS:
        return Scoring.CROSS_IMPS
    if words <= _IMP_WORDS:
        return Scoring.BUTLER
    raise _fail(FileRule.SCORING, line, value=value)


def _deal(value: str, line: int) -> str | None:
    """A Deal tag kept as written; ``None`` when no hand is given."""
    value = value.strip()
    if value in ("", "?"):
        return None
    if not is_deal(value):
        raise _fail(FileRule.DEAL, line, value=value[:80])
    return value if deal_hands(value) else None


_DIRECTIONS = {
    "N-S": Side.NS,
    "NS": Side.NS,
    "N": Side.NS,
    "E-W": Side.EW,
    "EW": Side.EW,
    "E": Side.EW,
}


def _direction(text: str, line: int) -> Side | None:
    if not text:
        return None
    side = _DIRECTIONS.get(text.strip().upper())
    if side is None:
        raise _fail(FileRule.DIRECTION, line, value=text)
    return side


@dataclass(frozen=True, slots=True)
class _Row:
    line: int
    result: TableResult
    published: PublishedResult
    names_ns: str
    names_ew: str


def _score(row: Mapping[str, str], column: str, line: int) -> tuple[int | None, Artificial | None]:
    text = row.get(column, "")
    if not text:
        return None, None
    artificial = parse_artificial(text)
    if artificial is not None:
        return None, artificial
    value = parse_whole(text)
    if value is None or abs(value) > MAX_SCORE:
        raise _fail(FileRule.SCORE, line, field=column, value=text)
    return value, None


def _row(board: int, ordinal: int, line: int, row: Mapping[str, str]) -> _Row:
    """One ScoreTable row: the result, and what the row publishes."""
    for needed, name in (
        ("pairid_ns", "PairId_NS"),
        ("pairid_ew", "PairId_EW"),
        ("contract", "Contract"),
    ):
        if needed not in row:
            raise _fail(FileRule.MISSING, line, field=f"the ScoreTable's {name} column")
    ns = _whole(row["pairid_ns"], line, "PairId_NS", 1, MAX_PAIR)
    ew = _whole(row["pairid_ew"], line, "PairId_EW", 1, MAX_PAIR)
    table = _whole(row["table"], line, "Table", 1, MAX_TABLE) if "table" in row else ordinal
    if not 1 <= table <= MAX_TABLE:
        raise _fail(FileRule.NUMBER, line, field="Table", value=table, least=1, most=MAX_TABLE)
    round_ = _whole(row["round"], line, "Round", 1, MAX_ROUND) if "round" in row else 1
    score_ns, artificial_ns = _score(row, "score_ns", line)
    score_ew, artificial_ew = _score(row, "score_ew", line)
    published = PublishedResult(
        score_ns=score_ns,
        score_ew=score_ew,
        mp_ns=_figure(row.get("mp_ns", ""), line, "MP_NS"),
        mp_ew=_figure(row.get("mp_ew", ""), line, "MP_EW"),
        imp_ns=_figure(row.get("imp_ns", ""), line, "IMP_NS"),
        imp_ew=_figure(row.get("imp_ew", ""), line, "IMP_EW"),
    )
    written = row["contract"]
    contract: Contract | None = None
    declarer: Seat | None = None
    tricks: int | None = None
    if (artificial_ns is None) != (artificial_ew is None):
        raise _fail(FileRule.ARTIFICIAL_ONE_SIDE, line)
    if written:
        try:
            contract = parse_contract(_text(written, line, "Contract"))
        except ValueError:
            raise _fail(FileRule.CONTRACT, line, value=written) from None
        if contract is not None:
            declarer = parse_seat(row.get("declarer", ""))
            if declarer is None:
                raise _fail(FileRule.DECLARER, line, value=row.get("declarer", ""))
            tricks = _whole(row.get("result", ""), line, "Result", 0, 13)
    elif artificial_ns is None and 0 not in (score_ns, score_ew):
        raise _fail(FileRule.NOT_PLAYED, line)
    try:
        result = TableResult(
            board,
            table,
            round_,
            ns,
            ew,
            contract,
            declarer,
            tricks,
            artificial_ns,
            artificial_ew,
            _text(row.get("lead", ""), line, "Lead"),
        )
    except RuleError as error:
        raise _fail(FileRule.RESULT, line, reason=str(error), broken=error.rule.value) from None
    return _Row(
        line,
        result,
        published,
        _text(row.get("names_ns", ""), line, "Names_NS"),
        _text(row.get("names_ew", ""), line, "Names_EW"),
    )


@dataclass(frozen=True, slots=True)
class _TotalRow:
    line: int
    number: int
    direction: Side | None
    rank: int | None
    tied: bool
    total: Decimal | None
    percentage: Decimal | None
    tiebreak: int | None
    names: str
    boards: int | None


_TOTALS = ("totalscoremp", "totalmp", "totalscoreimp", "totalimp")


def _total_row(line: int, row: Mapping[str, str]) -> _TotalRow:
    if "pairid" not in row:
        raise _fail(FileRule.MISSING, line, field="the TotalScoreTable's PairId column")
    rank_text = row.get("rank", "").rstrip("=")
    tied = row.get("rank", "").endswith("=")
    tiebreak = row.get("tiebreak", "")
    boards = row.get("nrboards", "")
    total = next((row[name] for name in _TOTALS if row.get(name)), "")
    name = "TotalScoreIMP" if "totalscoreimp" in row or "totalimp" in row else "TotalScoreMP"
    return _TotalRow(
        line,
        _whole(row["pairid"], line, "PairId", 1, MAX_PAIR),
        _direction(row.get("direction", ""), line),
        _whole(rank_text, line, "Rank", 1, 2 * MAX_PAIR) if rank_text else None,
        tied,
        _figure(total, line, name),
        _figure(row.get("totalpercentage", ""), line, "TotalPercentage"),
        _whole(tiebreak, line, "Tiebreak", -MAX_RESULTS, MAX_RESULTS) if tiebreak else None,
        _text(row.get("names", ""), line, "Names"),
        _whole(boards, line, "NrBoards", 0, MAX_RESULTS) if boards else None,
    )


def read_pbn(data: bytes | str) -> PbnFile:
    """Read a PBN results file: the session (results, pairs' names, deals, ranking, scoring,
    event and date) and the figures it publishes.

    - Text: UTF-8 or UTF-16 with or without a byte order mark, else Windows-1252/Latin-1 as
      PBN 2.0 files are; CR LF or LF line ends. In names, the event and leads, a tab or a
      line break is a space and other control characters are dropped.
    - The session's event and date are the first game's Event and Date tags ("YYYY.MM.DD",
      ``None`` when a part is "?"); its scoring the Scoring tag (MatchPoints, or IMP/Butler),
      else the columns (MP_NS or IMP_NS).
    - Each game's ScoreTable gives its board's results, columns found by name: PairId_NS,
      PairId_EW and Contract ("4S", "3NX", "Pass", "-" for a board not played) are needed;
      Declarer and Result (the tricks declarer took) for a played contract; Table (else the
      row's place in the table), Round (else 1), Lead, Score_NS, Score_EW, MP_NS, MP_EW,
      IMP_NS and IMP_EW when present. An artificial score is written "A+", "A=" or "A-" in
      both Score_NS and Score_EW.
    - The TotalScoreTable gives the ranking published: Rank, PairId, Direction,
      TotalScoreMP (or TotalMP, TotalScoreIMP, TotalIMP), TotalPercentage, Tiebreak, Names.
    - Pairs are numbered within their direction (``Ranking.BY_DIRECTION``) when a number sits
      both ways on a board, or when the published ranks start again in each direction.

    Anything else raises :class:`PbnError` with the line at fault.
    """
    previous: Mapping[str, tuple[str, int]] = {}
    which_imps_said = False
    rows: list[_Row] = []
    totals: list[_TotalRow] = []
    deals: dict[int, str] = {}
    event: str | None = None
    club = ""
    day: date | None = None
    scoring: Scoring | None = None
    columns: set[str] = set()
    boards = 0
    for tokens in _games(_decode(data)):
        game = _game(tokens, previous)
        previous = game.tags
        board: int | None = None
        if "Board" in game.tags:
            value, line = game.tags["Board"]
            board = _whole(value, line, "Board", 1, MAX_BOARD)
            boards += 1
            if event is None:
                event = _text(game.tags.get("Event", ("", line))[0], line, "Event")
                event = "" if event.strip() == "?" else event
                club = _text(game.tags.get("Site", ("", line))[0], line, "Site")
                club = "" if club.strip() == "?" else club
                day = _date(*game.tags.get("Date", ("", line)))
            if "Deal" in game.tags:
                deal = _deal(*game.tags["Deal"])
                if deal is not None:
                    deals.setdefault(board, deal)
        if scoring is None and "Scoring" in game.tags:
            scoring = _scoring(*game.tags["Scoring"])
            which_imps_said = bool(_SAID_IMPS & set(game.tags["Scoring"][0].lower().split(";")))
        ordinal = 0
        for table in game.tables:
            if table.name == "TotalScoreTable":
                totals.extend(_total_row(line, row) for line, row in table.rows())
                continue
            if board is None:
                raise _fail(FileRule.MISSING, table.line, field="the Board tag of the ScoreTable")
            columns.update(table.columns)
            for line, row in table.rows():
                ordinal += 1
                rows.append(_row(board, ordinal, line, row))
                if len(rows) > MAX_RESULTS:
                    raise PbnError(FileRule.TOO_MANY_RESULTS, most=MAX_RESULTS)
    if not boards:
        raise PbnError(FileRule.EMPTY)
    if scoring is None:
        butler = "imp_ns" in columns and "mp_ns" not in columns
        scoring = Scoring.BUTLER if butler else Scoring.MATCHPOINTS
    ranking = detect_ranking(
        ((found.result.board, found.result.ns, found.result.ew) for found in rows),
        ((total.direction, total.rank) for total in totals if total.direction and total.rank),
    )
    _check_pairs(rows, ranking)
    standings = tuple(_standing(total, ranking) for total in totals)
    names = {line.pair: line.names for line in standings if line.names}
    for found in rows:
        for number, direction, given in (
            (found.result.ns, Side.NS, found.names_ns),
            (found.result.ew, Side.EW, found.names_ew),
        ):
            if given:
                names.setdefault(pair_key(number, direction, ranking), given)
    session = SessionRecord(
        tuple(found.result for found in rows),
        ranking=ranking,
        scoring=scoring,
        event=event or "",
        date=day,
        club=club,
        names=names,
        deals=deals,
        tiebreaks={line.pair: line.tiebreak for line in standings if line.tiebreak is not None},
    )
    published = Published(tuple(found.published for found in rows), standings)
    if scoring is Scoring.BUTLER and not which_imps_said:
        session = replace(session, scoring=imp_scoring(session, published))
    return PbnFile(session, published)


def read_hand_records(data: bytes | str) -> dict[int, Deal]:
    """The deals of a PBN file, by board: a dealing program's hand records, or a results
    file's ``Deal`` tags (the first of a board counts). A deal with a hand not given ("-", as a
    results file writes a board whose cards it does not know) is left out; one that is not 52
    different cards, 13 a hand, raises :class:`PbnError` with its line, as does a file that
    gives no board's four hands.
    """
    previous: Mapping[str, tuple[str, int]] = {}
    deals: dict[int, Deal] = {}
    for tokens in _games(_decode(data)):
        game = _game(tokens, previous)
        previous = game.tags
        if "Board" not in game.tags or "Deal" not in game.tags:
            continue
        board = _whole(*game.tags["Board"], "Board", 1, MAX_BOARD)
        value, line = game.tags["Deal"]
        if board in deals or (is_deal(value) and "-" in value.split(":", 1)[-1].split()):
            continue  # a board given twice: the first counts; a hand not known: no record
        try:
            deals[board] = Deal.from_pbn(value)
        except HandError:
            raise _fail(FileRule.HANDS, line, board=board) from None
    if not deals:
        raise PbnError(FileRule.NO_DEALS)
    return deals


def _check_pairs(rows: Sequence[_Row], ranking: Ranking) -> None:
    """A pair plays a board once (the engine could not score it otherwise)."""
    seen: set[tuple[int, Pair]] = set()
    for row in rows:
        result = row.result
        for number, direction in ((result.ns, Side.NS), (result.ew, Side.EW)):
            pair = pair_key(number, direction, ranking)
            if (result.board, pair) in seen:
                raise _fail(FileRule.PAIR_TWICE, row.line, pair=pair.label, board=result.board)
            seen.add((result.board, pair))


def _standing(total: _TotalRow, ranking: Ranking) -> PublishedStanding:
    if ranking is Ranking.BY_DIRECTION and total.direction is None:
        raise _fail(FileRule.DIRECTION, total.line, value="")
    return PublishedStanding(
        pair_key(total.number, total.direction, ranking),
        rank=total.rank,
        tied=total.tied,
        total=total.total,
        percentage=total.percentage,
        tiebreak=total.tiebreak,
        names=total.names,
        boards=total.boards,
    )


# --- Writing -------------------------------------------------------------------------------------

_TOKEN_CHARS = frozenset(chr(code) for code in range(33, 127)) - frozenset('[]{};"%')


def _quoted(text: str) -> str:
    """A PBN string: quotes and backslashes escaped, control characters made spaces."""
    return '"' + clean_text(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _cell(text: str) -> str:
    """A table value: "-" for none, as is when it is a section token, else a string."""
    if not text:
        return "-"
    if text in ("-", "?") or not set(text) <= _TOKEN_CHARS:
        return _quoted(text)
    return text


def _table(
    name: str, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[str]]
) -> list[str]:
    """A table section in export format: each column's minimum width and alignment given,
    one row a line."""
    widths = [max((len(row[index]) for row in rows), default=1) for index in range(len(columns))]
    header = ";".join(
        f"{column}\\{width}{align}" for (column, align), width in zip(columns, widths, strict=True)
    )
    lines = [f'[{name} "{header}"]']
    for row in rows:
        cells = [
            cell.rjust(width) if align == "R" else cell.ljust(width)
            for cell, width, (_, align) in zip(row, widths, columns, strict=True)
        ]
        lines.append(" ".join(cells).rstrip())
    return lines


def _percent(value: Fraction) -> str:
    return figure_text(value, 0)


def _score_cells(item: ScoredResult) -> tuple[str, str]:
    """Score_NS and Score_EW as Magic Contest writes them: the side that scores points gets
    them, the other "-"; an artificial score in both."""
    result = item.result
    if result.artificial_ns is not None and result.artificial_ew is not None:
        return result.artificial_ns.value, result.artificial_ew.value
    score = result.score_ns or 0
    return (str(score), "-") if score >= 0 else ("-", str(-score))


def _score_table(
    items: Sequence[tuple[ScoredResult, PublishedResult | None]], scoring: Scoring
) -> list[str]:
    in_imps = scoring.in_imps
    columns = [
        ("Table", "R"),
        ("Round", "R"),
        ("PairId_NS", "R"),
        ("PairId_EW", "R"),
        ("Contract", "L"),
        ("Declarer", "R"),
        ("Result", "R"),
        ("Lead", "L"),
        ("Score_NS", "R"),
        ("Score_EW", "R"),
    ]
    if in_imps:
        columns += [("IMP_NS", "R"), ("IMP_EW", "R")]
    else:
        columns += [("MP_NS", "R"), ("MP_EW", "R"), ("Percentage_NS", "R"), ("Percentage_EW", "R")]
    places = shown_places(scoring)
    rows = []
    for item, given in items:
        result = item.result
        if result.contract is not None and result.declarer is not None:
            play = [contract_text(result.contract), result.declarer.value, str(result.tricks)]
        else:
            play = ["Pass" if result.passed_out else "-", "-", "-"]
        row = [str(result.table), str(result.round), str(result.ns), str(result.ew), *play]
        row += [_cell(result.lead), *_score_cells(item)]
        published = given.figures(scoring) if given is not None else (None, None)
        for figure, shown in zip(published, (item.shown_ns, item.shown_ew), strict=True):
            row.append(str(figure) if figure is not None else figure_text(shown, places))
        if not in_imps:
            row += [_percent(item.ns_percentage), _percent(item.ew_percentage)]
        rows.append(row)
    return _table("ScoreTable", columns, rows)


def _total_score_table(
    session: SessionRecord, scored: SessionScore, published: Published
) -> list[str]:
    """The ranking the file published, as it published it, then any pair it did not rank
    as Scorekeeper counts it."""
    in_imps = session.scoring.in_imps
    by_direction = session.ranking is Ranking.BY_DIRECTION
    columns = [("Rank", "R"), ("PairId", "R")]
    if by_direction:
        columns.append(("Direction", "R"))
    columns.append(("TotalScoreIMP" if in_imps else "TotalScoreMP", "R"))
    if not in_imps:
        columns.append(("TotalPercentage", "R"))
    columns += [("Tiebreak", "R"), ("NrBoards", "R"), ("Names", "L")]
    places = shown_places(session.scoring)
    by_pair = {s.pair: s for _direction, standings in scored.rankings for s in standings}
    lines: list[tuple[Pair, str, str, str | None, int]] = []
    for line in published.standings:
        standing = by_pair.get(line.pair)
        if standing is None or line.rank is None or line.total is None:
            continue
        boards = line.boards if line.boards is not None else standing.boards
        percentage = None if line.percentage is None else str(line.percentage)
        place = f"{line.rank}{'=' if line.tied else ''}"
        lines.append((line.pair, place, str(line.total), percentage, boards))
    written = {pair for pair, *_rest in lines}
    for _direction, standings in scored.rankings:
        for standing in standings:
            if standing.pair in written:
                continue
            shown = standing.percentage
            percentage = None if shown is None else figure_text(shown, 2)
            place = f"{standing.rank}{'=' if standing.tied else ''}"
            total = figure_text(standing.total, places)
            lines.append((standing.pair, place, total, percentage, standing.boards))
    rows = []
    for pair, place, total, percentage, boards in lines:
        row = [place, str(pair.number)]
        if by_direction:
            row.append("N-S" if pair.direction is Side.NS else "E-W")
        row.append(total)
        if not in_imps:
            row.append("-" if percentage is None else percentage)
        tiebreak = session.tiebreaks.get(pair)
        row += ["-" if tiebreak is None else str(tiebreak), str(boards)]
        row.append(_quoted(session.names.get(pair, "")))
        rows.append(row)
    return _table("TotalScoreTable", columns, rows) if rows else []


_WRITTEN_SCORING = {
    Scoring.MATCHPOINTS: "MatchPoints;MP1",
    Scoring.BUTLER: "IMP;Butler",
    Scoring.CROSS_IMPS: "IMP;Cross",
}


def write_field_pbn(sections: Sequence[Section], score: FieldScore) -> str:
    """A field of sections (:mod:`scorekeeper.rules.field`) as one PBN 2.0 export: each
    section's boards as :func:`write_pbn` writes a session, every game tagged with its section
    (PBN's ``Section`` tag), the figures those of ``score`` (across the field, or each section
    on its own), each section's TotalScoreTable its pairs' places among themselves."""
    lines = ["% PBN 2.0", "% EXPORT"]
    for section in sections:
        text = write_pbn(
            section.record, score=score.section_score(section.name), section=section.name
        )
        games = text.split("\n", 2)[2]  # the file's own header lines are written once
        if len(lines) > 2:
            lines.append("")
        lines.append(games.rstrip("\n"))
    return "\n".join(lines) + "\n"


def write_pbn(
    session: SessionRecord,
    *,
    score: SessionScore | None = None,
    published: Published | None = None,
    section: str = "",
) -> str:
    """The session as a PBN 2.0 export: one game per board (every board with results or a
    deal), each with the 15 mandatory tags and a ScoreTable of its results with their scores
    and matchpoints (IMPs in IMP scoring). The first game also holds the TotalScoreTable,
    before its ScoreTable as Magic Contest writes it: the ranking (per direction, with a
    Direction column, when pairs are numbered within their direction), the tiebreaks given,
    the pairs' names. The figures are those ``published`` gives (a session read from a
    results file keeps the figures its club published, as written), else those of ``score``
    (by default ``session.score()``).

    The site is the club's name. Tags PBN asks for that a session does not have are written as
    it says: "?" for unknown (the site, the event and the date when not known), "" where they
    do not apply (the players, declarer, contract and result of a board played at many
    tables). A deal not known gives no hand: "N:- - - -", the dealer first. Control characters
    in names become spaces. The text ends lines with LF; the caller encodes it (UTF-8).

    :func:`read_pbn` reads it back to the same session, its results board by board, and the
    same published figures.

    PBN cannot say that the pairs at a table of a two-winner Mitchell sat the other way round
    (``TableResult.switched``): such a result is written with the numbers of the pairs as
    they sat, which a reader takes for the pairs of those numbers in those seats' directions
    (USEBIO and the session's own file keep it).

    An arrow-switched Mitchell is written as one field, its pairs numbered across the room
    (:meth:`~scorekeeper.rules.duplicate.SessionRecord.as_one_field`).
    """
    if session.ranking is Ranking.ARROW_SWITCHED:
        session, score, published = session.as_one_field(), None, None
    published = published or Published()
    scored = score if score is not None else session.score()
    by_board: dict[int, list[tuple[ScoredResult, PublishedResult | None]]] = {}
    for index, item in enumerate(scored.results):
        given = published.results[index] if published.results else None
        by_board.setdefault(item.result.board, []).append((item, given))
    day = session.date
    date_text = f"{day.year:04d}.{day.month:02d}.{day.day:02d}" if day else "????.??.??"
    scoring_text = _WRITTEN_SCORING[session.scoring]
    event = _quoted(session.event) if session.event else '"?"'
    site = _quoted(session.club) if session.club else '"?"'
    lines = ["% PBN 2.0", "% EXPORT"]
    for index, board in enumerate(sorted(set(by_board) | set(session.deals))):
        dealer = board_dealer(board)
        deal = session.deals.get(board) or f"{dealer.value}:- - - -"
        if index:
            lines.append("")
        lines += [
            f"[Event {event}]",
            *([f"[Section {_quoted(section)}]"] if section else []),
            f"[Site {site}]",
            f'[Date "{date_text}"]',
            f'[Board "{board}"]',
            '[West ""]',
            '[North ""]',
            '[East ""]',
            '[South ""]',
            f'[Dealer "{dealer.value}"]',
            f'[Vulnerable "{board_vulnerability(board).value}"]',
            f"[Deal {_quoted(deal)}]",
            f'[Scoring "{scoring_text}"]',
            '[Declarer ""]',
            '[Contract ""]',
            '[Result ""]',
        ]
        if index == 0:
            lines += _total_score_table(session, scored, published)
        if board in by_board:
            lines += _score_table(by_board[board], session.scoring)
    return "\n".join(lines) + "\n"
