"""A duplicate pairs session in USEBIO 1.2, the XML results format of the English Bridge
Union that club scoring programs export: read with the figures it publishes (safely: the
file comes from elsewhere), and written back.

What is read and written::

    <!DOCTYPE USEBIO SYSTEM "http://www.usebio.org/files/usebio_v1_2.dtd">
    <USEBIO Version="1.2">
      <CLUB><CLUB_NAME>Little Snoring BC</CLUB_NAME></CLUB>     (when known)
      <EVENT EVENT_TYPE="MP_PAIRS">      (BUTLER_PAIRS, CROSS_IMPS; "PAIRS" is read too)
        <EVENT_DESCRIPTION>Monday pairs</EVENT_DESCRIPTION>
        <DATE>06/02/2022</DATE>                            (DD/MM/YYYY)
        <BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>  (BUTLER_IMPS, CROSS_IMPS)
        <WINNER_TYPE>1</WINNER_TYPE>           (2: one ranking per direction, a Mitchell)
        <PARTICIPANTS>
          <PAIR>
            <PAIR_NUMBER>7 NS</PAIR_NUMBER> <DIRECTION>NS</DIRECTION>   ("7" in one field)
            <PLAYER><PLAYER_NAME>Anne Martin</PLAYER_NAME></PLAYER>
            <PLAYER><PLAYER_NAME>Bruno Petit</PLAYER_NAME></PLAYER>
            <PLACE>1</PLACE>                   ("3=" when tied)
            <TOTAL_SCORE>771.2</TOTAL_SCORE> <PERCENTAGE>61.21</PERCENTAGE>
          </PAIR> ...
        </PARTICIPANTS>
        <BOARD>
          <BOARD_NUMBER>1</BOARD_NUMBER>
          <TRAVELLER_LINE>
            <NS_PAIR_NUMBER>3 NS</NS_PAIR_NUMBER> <EW_PAIR_NUMBER>4 EW</EW_PAIR_NUMBER>
            <CONTRACT>4S</CONTRACT>            ("3NTx", "PASS")
            <PLAYED_BY>S</PLAYED_BY> <LEAD>S9</LEAD> <TRICKS>10</TRICKS>
            <SCORE>420</SCORE>                 (North-South's; "A6040" for artificial scores)
            <NS_MATCH_POINTS>28.3</NS_MATCH_POINTS> <EW_MATCH_POINTS>13.7</EW_MATCH_POINTS>
          </TRAVELLER_LINE> ...
        </BOARD> ...
      </EVENT>
      <HANDSET>
        <BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
          <HAND><DIRECTION>North</DIRECTION><CLUBS>65</CLUBS><DIAMONDS>T984</DIAMONDS>
                <HEARTS>AJT</HEARTS><SPADES>KQT6</SPADES></HAND> ...
        </BOARD> ...
      </HANDSET>
    </USEBIO>

Where USEBIO has no element for what a session holds, this module chose one, which other
readers ignore: a traveller line's ``ROUND_NUMBER`` and ``TABLE_NUMBER``, a pair's
``TIEBREAK`` (the figure that splits equal totals, the higher first), and ``NS_IMPS`` /
``EW_IMPS`` for a line's IMPs (read from ``NS_MATCH_POINTS`` too in an IMP event, as BBO
writes them). An artificial score is written in SCORE as "A" then North-South's and
East-West's percentages ("A6040"); "A60" (the other side the rest), "A+" and
``NS_SCORE``/``EW_SCORE`` holding them are read too.

A pair's two players are two PLAYER elements, as club programs write them, each with its
NATIONAL_ID_NUMBER (the player's federation number) where known; a file with one PLAYER
holding both names is read too.

>>> from scorekeeper.rules.bridge import Artificial, Contract
>>> session = SessionRecord(
...     (TableResult(1, 1, 1, ns=1, ew=2, contract=Contract(3, "NT", 1), declarer=Seat.EAST,
...                  tricks=8),
...      TableResult(1, 2, 1, ns=3, ew=4, artificial_ns=Artificial.AVERAGE_PLUS,
...                  artificial_ew=Artificial.AVERAGE_MINUS)),
...     names={Pair(1): "Anne Martin - Bruno Petit"}, numbers={Pair(1): ("490714", "")})
>>> data = write_usebio(session)
>>> b"<CONTRACT>3NTx</CONTRACT>" in data, b"<SCORE>A6040</SCORE>" in data
(True, True)
>>> b"<NATIONAL_ID_NUMBER>490714</NATIONAL_ID_NUMBER>" in data
True
>>> usebio = read_usebio(data)
>>> usebio.session == session, differences(usebio)
(True, [])
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET

from scorekeeper.rules.bridge import Artificial, Contract
from scorekeeper.rules.common import RuleError, Seat, Side
from scorekeeper.rules.duplicate import (
    Pair,
    Ranking,
    ScoredResult,
    Scoring,
    SessionRecord,
    SessionScore,
    TableResult,
    pairs_of,
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
    SuitHolding,
    check_date,
    clean_text,
    deal_from_hands,
    deal_hands,
    detect_ranking,
    figure_text,
    pair_key,
    parse_artificial,
    parse_contract,
    parse_figure,
    parse_seat,
    parse_whole,
)
from scorekeeper.rules.published import (
    Difference,
    Published,
    PublishedResult,
    PublishedStanding,
    imp_scoring,
    shown_places,
)
from scorekeeper.rules.published import differences as _differences

__all__ = ["UsebioError", "UsebioFile", "differences", "read_usebio", "write_usebio"]


class UsebioError(FileError):
    """A USEBIO file that cannot be read: the rule it breaks, where, and the value at fault."""


@dataclass(frozen=True, slots=True)
class UsebioFile:
    """A USEBIO results file read: the session, and the figures the file published."""

    session: SessionRecord
    published: Published


def differences(usebio: UsebioFile) -> list[Difference]:
    """Every figure the file published that its results do not bear out
    (:func:`scorekeeper.rules.published.differences`)."""
    return _differences(usebio.session, usebio.published)


# --- Reading -------------------------------------------------------------------------------------


def _parse(data: bytes) -> ET.Element:
    """The document, parsed without expanding an entity or fetching anything: an XML bomb
    or an external entity is refused, not expanded. A DOCTYPE naming the USEBIO DTD, as
    real files have, is allowed."""
    if len(data) > MAX_BYTES:
        raise UsebioError(FileRule.TOO_LARGE, size=len(data), most=MAX_BYTES)
    try:
        return SafeET.fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise UsebioError(FileRule.XML_FORBIDDEN) from None
    except ET.ParseError as error:
        line, column = error.position
        raise UsebioError(FileRule.XML, line=line, column=column) from None
    except (LookupError, ValueError) as error:
        # An encoding the declaration names that Python does not know, or text it cannot
        # decode in it.
        raise UsebioError(FileRule.ENCODING, reason=str(error)[:200]) from None


def _text(element: ET.Element, name: str) -> str | None:
    """The text of ``element``'s child ``name``, stripped; ``None`` when there is none."""
    child = element.find(name)
    return None if child is None else (child.text or "").strip()


def _whole(where: str, name: str, text: str | None, least: int, most: int) -> int:
    value = parse_whole(text or "")
    if value is None or not least <= value <= most:
        raise UsebioError(
            FileRule.NUMBER, where=where, field=name, value=text, least=least, most=most
        )
    return value


def _figure(where: str, element: ET.Element, name: str) -> Decimal | None:
    text = _text(element, name)
    if not text:
        return None
    value = parse_figure(text)
    if value is None:
        raise UsebioError(FileRule.FIGURE, where=where, field=name, value=text)
    return value


def _long(where: str, name: str, text: str) -> str:
    """A text of the file, cleaned (:func:`scorekeeper.rules.text.clean_text`), when it is
    not too long."""
    if len(text) > MAX_TEXT:
        raise UsebioError(FileRule.TEXT_TOO_LONG, where=where, field=name, most=MAX_TEXT)
    return clean_text(text)


_PAIR_NUMBER = re.compile(r"(?:(NS|EW)\s*)?(\d{1,4})\s*(NS|EW|N|E)?", re.IGNORECASE)
_SIDES = {"NS": Side.NS, "N": Side.NS, "EW": Side.EW, "E": Side.EW}


def _pair_number(where: str, name: str, text: str | None) -> tuple[int, Side | None]:
    """A pair number, with the direction some programs write beside it ("7", "7 NS")."""
    if text is None:
        raise UsebioError(FileRule.MISSING, where=where, field=name)
    found = _PAIR_NUMBER.fullmatch(text) if text.isascii() else None
    if found is None or not 1 <= int(found[2]) <= MAX_PAIR:
        raise UsebioError(FileRule.PAIR_NUMBER, where=where, value=text, most=MAX_PAIR)
    written = found[1] or found[3]
    return int(found[2]), _SIDES[written.upper()] if written else None


def _date(text: str | None) -> date | None:
    """DATE, DD/MM/YYYY (YYYY-MM-DD is read too)."""
    if not text:
        return None
    found = re.fullmatch(r"(\d\d?)/(\d\d?)/(\d{4})", text) if text.isascii() else None
    if found is not None:
        day = check_date(int(found[3]), int(found[2]), int(found[1]))
    else:
        other = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)", text) if text.isascii() else None
        day = check_date(int(other[1]), int(other[2]), int(other[3])) if other else None
    if day is None:
        raise UsebioError(FileRule.DATE, where="EVENT", value=text, form="DD/MM/YYYY")
    return day


_EVENT_TYPES = {
    "PAIRS": None,
    "MP_PAIRS": Scoring.MATCHPOINTS,
    "BUTLER_PAIRS": Scoring.BUTLER,
    "CROSS_IMPS": Scoring.CROSS_IMPS,
}
_IMPS = "IMPS"
"""IMPs, without saying which: Butler or cross-IMPs, as the file's figures show."""
_SCORINGS = {
    "MATCH_POINTS": Scoring.MATCHPOINTS,
    "MATCHPOINTS": Scoring.MATCHPOINTS,
    "MP": Scoring.MATCHPOINTS,
    "BUTLER_IMPS": Scoring.BUTLER,
    "BUTLER": Scoring.BUTLER,
    "CROSS_IMPS": Scoring.CROSS_IMPS,
    "CROSS_IMP": Scoring.CROSS_IMPS,
    "XIMPS": Scoring.CROSS_IMPS,
    "XIMP": Scoring.CROSS_IMPS,
    "IMPS": _IMPS,
    "IMP": _IMPS,
}


def _scoring(event: ET.Element) -> Scoring | None:
    """BOARD_SCORING_METHOD (with PAIRWISE_SCORING_METHOD, as BBO writes cross-IMPs: IMPS and
    CROSS_IMPS), else what the event type says (MP_PAIRS, BUTLER_PAIRS, CROSS_IMPS), else
    matchpoints; ``None`` for IMPs that say no more (the figures will tell). A teams or
    individual event is not a pairs session."""
    kind = (event.get("EVENT_TYPE") or "PAIRS").strip().upper()
    if kind not in _EVENT_TYPES:
        raise UsebioError(FileRule.EVENT_TYPE, value=event.get("EVENT_TYPE"))
    method = _text(event, "BOARD_SCORING_METHOD")
    if not method:
        return _EVENT_TYPES[kind] or Scoring.MATCHPOINTS
    scoring = _SCORINGS.get(method.upper())
    if scoring is None:
        raise UsebioError(FileRule.SCORING, where="EVENT", value=method)
    if scoring != _IMPS:
        return Scoring(scoring)
    pairwise = (_text(event, "PAIRWISE_SCORING_METHOD") or "").upper()
    if _SCORINGS.get(pairwise) is Scoring.CROSS_IMPS:
        return Scoring.CROSS_IMPS
    said = _EVENT_TYPES[kind]
    return said if said is not None and said.in_imps else None


_SHARES = {"60": Artificial.AVERAGE_PLUS, "50": Artificial.AVERAGE, "40": Artificial.AVERAGE_MINUS}
_OTHER_SIDE = {
    Artificial.AVERAGE_PLUS: Artificial.AVERAGE_MINUS,
    Artificial.AVERAGE: Artificial.AVERAGE,
    Artificial.AVERAGE_MINUS: Artificial.AVERAGE_PLUS,
}


def _artificial(where: str, line: ET.Element) -> tuple[Artificial, Artificial] | None:
    """The artificial scores of a traveller line: SCORE "A6040" (each side's percentage),
    "A60" or "A+" (North-South's; East-West the other side of it), or NS_SCORE and EW_SCORE
    each holding one."""
    ns = parse_artificial(_text(line, "NS_SCORE") or "")
    ew = parse_artificial(_text(line, "EW_SCORE") or "")
    if ns is not None and ew is not None:
        return ns, ew
    score = (_text(line, "SCORE") or "").upper()
    both = re.fullmatch(r"A(\d\d)(\d\d)", score)
    if both is not None:
        if both[1] not in _SHARES or both[2] not in _SHARES:
            raise UsebioError(FileRule.SCORE, where=where, field="SCORE", value=score)
        return _SHARES[both[1]], _SHARES[both[2]]
    one = parse_artificial(score)
    return None if one is None else (one, _OTHER_SIDE[one])


@dataclass(frozen=True, slots=True)
class _Line:
    where: str
    result: TableResult
    published: PublishedResult
    hints: tuple[Side | None, Side | None]


def _traveller_line(where: str, board: int, ordinal: int, line: ET.Element, in_imps: bool) -> _Line:
    ns, ns_hint = _pair_number(where, "NS_PAIR_NUMBER", _text(line, "NS_PAIR_NUMBER"))
    ew, ew_hint = _pair_number(where, "EW_PAIR_NUMBER", _text(line, "EW_PAIR_NUMBER"))
    table_text, round_text = _text(line, "TABLE_NUMBER"), _text(line, "ROUND_NUMBER")
    # Without a table number, the line's place on the traveller stands for it.
    table = _whole(where, "TABLE_NUMBER", table_text or str(ordinal), 1, MAX_TABLE)
    round_ = 1 if round_text is None else _whole(where, "ROUND_NUMBER", round_text, 1, MAX_ROUND)
    artificial = _artificial(where, line)
    score_text = _text(line, "SCORE") or ""
    score: int | None = None
    if artificial is None and score_text:
        score = parse_whole(score_text)
        if score is None or abs(score) > MAX_SCORE:
            raise UsebioError(FileRule.SCORE, where=where, field="SCORE", value=score_text)
    contract: Contract | None = None
    declarer: Seat | None = None
    tricks: int | None = None
    written = _text(line, "CONTRACT") or ""
    if written:
        try:
            contract = parse_contract(_long(where, "CONTRACT", written))
        except ValueError:
            raise UsebioError(FileRule.CONTRACT, where=where, value=written) from None
        if contract is not None:
            declarer = parse_seat(_text(line, "PLAYED_BY") or "")
            if declarer is None:
                raise UsebioError(FileRule.DECLARER, where=where, value=_text(line, "PLAYED_BY"))
            tricks = _whole(where, "TRICKS", _text(line, "TRICKS"), 0, 13)
    elif artificial is None and score != 0:
        raise UsebioError(FileRule.NOT_PLAYED, where=where)
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
            artificial[0] if artificial else None,
            artificial[1] if artificial else None,
            _long(where, "LEAD", _text(line, "LEAD") or ""),
            # An East-West pair in North-South's seats ("3 EW" as NS_PAIR_NUMBER): the pairs
            # sat the other way round.
            switched=(ns_hint, ew_hint) == (Side.EW, Side.NS),
        )
    except RuleError as error:
        raise UsebioError(
            FileRule.RESULT, where=where, reason=str(error), broken=error.rule.value
        ) from None
    mp_ns, mp_ew = _figure(where, line, "NS_MATCH_POINTS"), _figure(where, line, "EW_MATCH_POINTS")
    imp_ns, imp_ew = _figure(where, line, "NS_IMPS"), _figure(where, line, "EW_IMPS")
    if in_imps and (imp_ns, imp_ew) == (None, None):
        (imp_ns, imp_ew), (mp_ns, mp_ew) = (mp_ns, mp_ew), (None, None)  # BBO's way
    published = PublishedResult(score, None, mp_ns, mp_ew, imp_ns, imp_ew)
    return _Line(where, result, published, (ns_hint, ew_hint))


def _lines(event: ET.Element, in_imps: bool) -> Iterator[_Line]:
    """Every traveller line of the event's boards (in a SESSION or SECTION too), in order."""
    count = 0
    for board_element in event.iter("BOARD"):
        board_text = _text(board_element, "BOARD_NUMBER") or board_element.get("BOARD_NUMBER")
        board = _whole("BOARD", "BOARD_NUMBER", board_text, 1, MAX_BOARD)
        for ordinal, line in enumerate(board_element.findall("TRAVELLER_LINE"), 1):
            count += 1
            if count > MAX_RESULTS:
                raise UsebioError(FileRule.TOO_MANY_RESULTS, most=MAX_RESULTS)
            where = f"Board {board}, traveller line {ordinal}"
            yield _traveller_line(where, board, ordinal, line, in_imps)


@dataclass(frozen=True, slots=True)
class _PairLine:
    where: str
    number: int
    direction: Side | None
    rank: int | None
    tied: bool
    total: Decimal | None
    percentage: Decimal | None
    tiebreak: int | None
    names: str
    boards: int | None
    numbers: tuple[str, str] | None


def _pairs(event: ET.Element) -> Iterator[_PairLine]:
    count = 0
    for participants in event.iter("PARTICIPANTS"):
        for pair in participants.findall("PAIR"):
            count += 1
            if count > 2 * MAX_PAIR:
                raise UsebioError(FileRule.TOO_MANY_PAIRS, most=2 * MAX_PAIR)
            where = f"Pair {count} of PARTICIPANTS"
            number, hint = _pair_number(where, "PAIR_NUMBER", _text(pair, "PAIR_NUMBER"))
            direction_text = _text(pair, "DIRECTION")
            direction = hint
            if direction_text:
                direction = _SIDES.get(direction_text.upper())
                if direction is None:
                    raise UsebioError(FileRule.DIRECTION, where=where, value=direction_text)
            written = (_text(pair, "PLACE") or "").strip()
            place = written.rstrip("=").strip()
            tiebreak = _text(pair, "TIEBREAK")
            boards = _text(pair, "BOARDS_PLAYED")
            players = [(player.text or "") for player in pair.findall("PLAYER/PLAYER_NAME")]
            numbers = tuple(
                _long(
                    where,
                    "NATIONAL_ID_NUMBER",
                    "".join((_raw(player, "NATIONAL_ID_NUMBER")).split()),
                )
                for player in pair.findall("PLAYER")
            )
            yield _PairLine(
                where,
                number,
                direction,
                _whole(where, "PLACE", place, 1, 2 * MAX_PAIR) if place else None,
                written.endswith("="),
                _figure(where, pair, "TOTAL_SCORE"),
                _figure(where, pair, "PERCENTAGE"),
                _whole(where, "TIEBREAK", tiebreak, -MAX_RESULTS, MAX_RESULTS)
                if tiebreak
                else None,
                _long(where, "PLAYER_NAME", " - ".join(players)),
                _whole(where, "BOARDS_PLAYED", boards, 0, MAX_RESULTS) if boards else None,
                (numbers[0], numbers[1]) if len(numbers) == 2 and any(numbers) else None,
            )


_SUITS = ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")


def _deals(root: ET.Element) -> dict[int, str]:
    """The hands of the HANDSET, as PBN deals with the dealer first."""
    deals: dict[int, str] = {}
    for handset in root.iter("HANDSET"):
        for board_element in handset.findall("BOARD"):
            where = "HANDSET"
            board_text = _text(board_element, "BOARD_NUMBER") or board_element.get("BOARD_NUMBER")
            board = _whole(where, "BOARD_NUMBER", board_text, 1, MAX_BOARD)
            hands: dict[Seat, SuitHolding] = {}
            for hand in board_element.findall("HAND"):
                seat = parse_seat(_text(hand, "DIRECTION") or "")
                if seat is None:
                    raise UsebioError(FileRule.DEAL, where=where, value=_text(hand, "DIRECTION"))
                spades, hearts, diamonds, clubs = (
                    _long(where, name, (_text(hand, name) or "").upper()) for name in _SUITS
                )
                hands[seat] = (spades, hearts, diamonds, clubs)
            deal = deal_from_hands(board, hands)
            if deal is None and hands:
                shown = " ".join(".".join(hand) for hand in hands.values())
                raise UsebioError(FileRule.DEAL, where=f"HANDSET, board {board}", value=shown)
            if deal is not None:
                deals.setdefault(board, deal)
    return deals


def _ranking(event: ET.Element, lines: Sequence[_Line], pairs: Sequence[_PairLine]) -> Ranking:
    """WINNER_TYPE: 2 winners (one per direction) or 1; without it, what the numbers say."""
    winners = _text(event, "WINNER_TYPE")
    if winners:
        count = _whole("EVENT", "WINNER_TYPE", winners, 1, 2)
        return Ranking.BY_DIRECTION if count == 2 else Ranking.ONE_FIELD
    if any(hint for line in lines for hint in line.hints):
        return Ranking.BY_DIRECTION
    return detect_ranking(
        ((line.result.board, line.result.ns, line.result.ew) for line in lines),
        ((pair.direction, pair.rank) for pair in pairs if pair.direction and pair.rank),
    )


def read_usebio(data: bytes) -> UsebioFile:
    """Read a USEBIO results file (1.2, or 1.1 whose pairs events say MP_PAIRS or
    BUTLER_PAIRS): the session of its first EVENT (results, pairs' names, deals, ranking,
    scoring, event and date) and the figures it publishes.

    The text is in the encoding the file declares (UTF-8 when it declares none; UTF-16 with or
    without a byte order mark). Boards and participants are read wherever the event holds
    them (in a SESSION or a SECTION too). A traveller line without TABLE_NUMBER takes its
    place on the board's traveller; without ROUND_NUMBER, round 1. Pairs' names are their
    players' names joined with " - "; in names, the event and leads, a tab or a line break is
    a space and other control characters (C1: XML allows no other) are dropped.

    Anything else raises :class:`UsebioError`, saying where; an entity declaration (an XML
    bomb) or an external reference is refused before anything is expanded or fetched.
    """
    root = _parse(data)
    if root.tag != "USEBIO":
        raise UsebioError(FileRule.ROOT, value=str(root.tag)[:80])
    event = root.find("EVENT")
    if event is None:
        raise UsebioError(FileRule.MISSING, where="USEBIO", field="EVENT")
    said = _scoring(event)
    lines = list(_lines(event, said is None or said.in_imps))
    pairs = list(_pairs(event))
    ranking = _ranking(event, lines, pairs)
    seen: set[tuple[int, Pair]] = set()
    for line in lines:
        result = line.result
        for pair in pairs_of(result, ranking):
            if (result.board, pair) in seen:
                raise UsebioError(
                    FileRule.PAIR_TWICE, where=line.where, pair=pair.label, board=result.board
                )
            seen.add((result.board, pair))
    standings = []
    for pair_line in pairs:
        if ranking is Ranking.BY_DIRECTION and pair_line.direction is None:
            raise UsebioError(FileRule.DIRECTION, where=pair_line.where, value="")
        standings.append(
            PublishedStanding(
                pair_key(pair_line.number, pair_line.direction, ranking),
                rank=pair_line.rank,
                tied=pair_line.tied,
                total=pair_line.total,
                percentage=pair_line.percentage,
                tiebreak=pair_line.tiebreak,
                names=pair_line.names,
                boards=pair_line.boards,
            )
        )
    session = SessionRecord(
        tuple(line.result for line in lines),
        ranking=ranking,
        scoring=said or Scoring.BUTLER,
        event=_long("EVENT", "EVENT_DESCRIPTION", _raw(event, "EVENT_DESCRIPTION")),
        date=_date(_text(event, "DATE")),
        club=_club(root),
        names={standing.pair: standing.names for standing in standings if standing.names},
        deals=_deals(root),
        tiebreaks={s.pair: s.tiebreak for s in standings if s.tiebreak is not None},
        numbers={
            standing.pair: line.numbers
            for standing, line in zip(standings, pairs, strict=True)
            if line.numbers is not None
        },
    )
    published = Published(tuple(line.published for line in lines), tuple(standings))
    if said is None:
        session = replace(session, scoring=imp_scoring(session, published))
    return UsebioFile(session, published)


def _club(root: ET.Element) -> str:
    """The club's name, when the file gives it."""
    club = root.find("CLUB")
    return "" if club is None else _long("CLUB", "CLUB_NAME", _raw(club, "CLUB_NAME"))


def _raw(element: ET.Element, name: str) -> str:
    """A child's text as written: a name keeps its spaces."""
    child = element.find(name)
    return "" if child is None else child.text or ""


# --- Writing -------------------------------------------------------------------------------------


def _add(parent: ET.Element, name: str, text: str) -> ET.Element:
    child = ET.SubElement(parent, name)
    child.text = text
    return child


_PERCENT = {Artificial.AVERAGE_PLUS: "60", Artificial.AVERAGE: "50", Artificial.AVERAGE_MINUS: "40"}


def _pair_text(number: int, direction: Side | None) -> str:
    """A pair's number as club programs write it: "3 NS" where pairs are numbered within
    their direction, "3" in one field."""
    return str(number) if direction is None else f"{number} {direction.value}"


def _write_line(
    board: ET.Element,
    item: ScoredResult,
    scoring: Scoring,
    ranking: Ranking,
    given: PublishedResult | None,
) -> None:
    result = item.result
    line = ET.SubElement(board, "TRAVELLER_LINE")
    _add(line, "ROUND_NUMBER", str(result.round))
    _add(line, "TABLE_NUMBER", str(result.table))
    north, east = pairs_of(result, ranking)
    _add(line, "NS_PAIR_NUMBER", _pair_text(north.number, north.direction))
    _add(line, "EW_PAIR_NUMBER", _pair_text(east.number, east.direction))
    contract = result.contract
    if contract is not None and result.declarer is not None:
        written = f"{contract.level}{contract.strain.value}{'x' * contract.doubled}"
        _add(line, "CONTRACT", written)
        _add(line, "PLAYED_BY", result.declarer.value)
    elif result.passed_out:
        _add(line, "CONTRACT", "PASS")
    if result.lead:
        _add(line, "LEAD", clean_text(result.lead))
    if result.tricks is not None:
        _add(line, "TRICKS", str(result.tricks))
    if result.artificial_ns is not None and result.artificial_ew is not None:
        percents = _PERCENT[result.artificial_ns] + _PERCENT[result.artificial_ew]
        _add(line, "SCORE", f"A{percents}")
    else:
        _add(line, "SCORE", str(result.score_ns))
    prefix = "IMPS" if scoring.in_imps else "MATCH_POINTS"
    published = given.figures(scoring) if given is not None else (None, None)
    places = shown_places(scoring)
    for side, figure, shown in zip(
        ("NS", "EW"), published, (item.shown_ns, item.shown_ew), strict=True
    ):
        _add(
            line,
            f"{side}_{prefix}",
            str(figure) if figure is not None else figure_text(shown, places),
        )


PLAYER_SEPARATORS = (" – ", " — ", " - ", " & ", " / ")
"""How a pair's names join its two players ("Anne Martin – Bruno Petit")."""


def players_of(names: str) -> list[str]:
    """A pair's players, one PLAYER each: its names split where they join two players,
    else the names as they are (one player, or names that do not read as two).

    >>> players_of("Anne Martin – Bruno Petit"), players_of("Les Martin")
    (['Anne Martin', 'Bruno Petit'], ['Les Martin'])
    """
    cleaned = clean_text(names)
    for separator in PLAYER_SEPARATORS:
        parts = [part.strip() for part in cleaned.split(separator)]
        if len(parts) == 2 and all(parts):
            return parts
    return [cleaned]


def _write_pair(
    participants: ET.Element,
    session: SessionRecord,
    pair_key_: Pair,
    direction: Side | None,
    boards: int,
    place: str,
    figures: tuple[str, str | None],
    overall_place: str | None = None,
) -> None:
    pair = ET.SubElement(participants, "PAIR")
    _add(pair, "PAIR_NUMBER", _pair_text(pair_key_.number, direction))
    if direction is not None:
        _add(pair, "DIRECTION", direction.value)
    _add(pair, "BOARDS_PLAYED", str(boards))
    names = session.names.get(pair_key_)
    if names:
        players = players_of(names)
        numbers = session.numbers.get(pair_key_, ("", "")) if len(players) == 2 else ("",)
        for name, number in zip(players, numbers, strict=False):
            player = ET.SubElement(pair, "PLAYER")
            _add(player, "PLAYER_NAME", name)
            if number:
                _add(player, "NATIONAL_ID_NUMBER", number)
    _add(pair, "PLACE", place)
    if overall_place is not None:
        _add(pair, "OVERALL_PLACE", overall_place)
    total, percentage = figures
    _add(pair, "TOTAL_SCORE", total)
    if percentage is not None:
        _add(pair, "PERCENTAGE", percentage)
    tiebreak = session.tiebreaks.get(pair_key_)
    if tiebreak is not None:
        _add(pair, "TIEBREAK", str(tiebreak))


def _write_pairs(
    event: ET.Element,
    session: SessionRecord,
    scored: SessionScore,
    published: Published,
    overall: Mapping[Pair, str],
) -> None:
    """The ranking the file published, as it published it, then any pair it did not rank
    as Scorekeeper counts it."""
    participants = ET.SubElement(event, "PARTICIPANTS")
    places = shown_places(session.scoring)
    written: set[Pair] = set()
    by_pair = {s.pair: s for _direction, standings in scored.rankings for s in standings}
    for line in published.standings:
        standing = by_pair.get(line.pair)
        if standing is None or line.rank is None or line.total is None:
            continue
        written.add(line.pair)
        boards = line.boards if line.boards is not None else standing.boards
        place = f"{line.rank}{'=' if line.tied else ''}"
        percentage = None if line.percentage is None else str(line.percentage)
        direction = line.pair.direction
        _write_pair(
            participants,
            session,
            line.pair,
            direction,
            boards,
            place,
            (str(line.total), percentage),
        )
    for _ranked, standings in scored.rankings:
        for standing in standings:
            if standing.pair in written:
                continue
            place = f"{standing.rank}{'=' if standing.tied else ''}"
            percentage = (
                None if standing.percentage is None else figure_text(standing.percentage, 2)
            )
            total = figure_text(standing.total, places)
            _write_pair(
                participants,
                session,
                standing.pair,
                standing.pair.direction,  # an arrow-switched section's too, in a field
                standing.boards,
                place,
                (total, percentage),
                overall.get(standing.pair),
            )


DOCTYPE = '<!DOCTYPE USEBIO SYSTEM "http://www.usebio.org/files/usebio_v1_2.dtd">'
"""The document type club programs' USEBIO 1.2 files declare: no DTD is fetched on reading."""


def _write_hands(root: ET.Element, deals: Mapping[int, str]) -> None:
    known = {board: deal_hands(deal) for board, deal in sorted(deals.items())}
    written = {board: hands for board, hands in known.items() if hands}
    if not written:
        return
    handset = ET.SubElement(root, "HANDSET")
    for board, hands in written.items():
        element = ET.SubElement(handset, "BOARD")
        _add(element, "BOARD_NUMBER", str(board))
        for seat in (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST):
            if seat in hands:
                hand = ET.SubElement(element, "HAND")
                _add(hand, "DIRECTION", _SEAT_NAMES[seat])
                for name, suit in reversed(list(zip(_SUITS, hands[seat], strict=True))):
                    _add(hand, name, suit)


_SEAT_NAMES = {Seat.NORTH: "North", Seat.EAST: "East", Seat.SOUTH: "South", Seat.WEST: "West"}


def write_usebio(
    session: SessionRecord,
    *,
    score: SessionScore | None = None,
    published: Published | None = None,
) -> bytes:
    """The session as a USEBIO 1.2 file, UTF-8 with its XML declaration: the event, the
    ranking with each pair's players (two PLAYERs where its names join two, see
    :func:`players_of`), place, total, percentage and tiebreak, each board's traveller with
    the scores and matchpoints (IMPs in IMP scoring), and the known deals as a HANDSET.

    The figures are those ``published`` gives (a session read from a results file keeps the
    figures its club published: each line's and each ranked pair's, as written), else
    those of ``score`` (by default ``session.score()``). Control characters in names become
    spaces.

    It looks as club programs' USEBIO 1.2 files do: the DOCTYPE naming the USEBIO DTD, the
    CLUB (when known), the event type MP_PAIRS, BUTLER_PAIRS or CROSS_IMPS, pair numbers with
    their direction in a Mitchell ("3 NS"). The few elements this module adds (see above) are
    ignored by readers that do not know them.

    :func:`read_usebio` reads it back to the same session (its results board by board, and
    each deal with the dealer's hand first) and the same published figures.

    An arrow-switched Mitchell is written as one field, its pairs numbered across the room
    (:meth:`~scorekeeper.rules.duplicate.SessionRecord.as_one_field`).
    """
    if session.ranking is Ranking.ARROW_SWITCHED:
        session, score, published = session.as_one_field(), None, None
    scored = score if score is not None else session.score()
    root, event = _event(session, session.ranking, len({r.result.board for r in scored.results}))
    _write_section(event, session, scored, published or Published())
    _write_hands(root, session.deals)
    return _document(root)


def write_field_usebio(sections: Sequence[Section], score: FieldScore) -> bytes:
    """A field of sections (:mod:`scorekeeper.rules.field`) as one USEBIO 1.2 file, as club
    programs write a session of several sections: the EVENT of the first section, one
    SESSION, and a SECTION for each (its SECTION_ID its name) with its pairs and its boards'
    travellers, their figures those of ``score`` (across the field, or each section on its
    own). Each pair's PLACE is its place in its section; OVERALL_PLACE, in the field's
    ranking. The deals, where every section plays the same boards, are those of the first
    section that has them. A section's pairs keep
    its own numbers (with their direction in a Mitchell, arrow-switched or not)."""
    first = sections[0].record
    sets = {section.name: section.boards for section in sections}
    boards = len({(sets[r.section], r.scored.result.board) for r in score.results})
    root, event = _event(first, score.ranking, boards)
    session = ET.SubElement(event, "SESSION", {"SESSION_ID": "1"})
    for section in sections:
        record, scored = section.record, score.section_score(section.name)
        overall = {}
        for standing in (s for _side, found in score.overall for s in found):
            if standing.pair.section == section.name:
                overall[standing.pair.pair] = f"{standing.rank}{'=' if standing.tied else ''}"
        element = ET.SubElement(session, "SECTION", {"SECTION_ID": clean_text(section.name)})
        _write_section(element, record, scored, Published(), overall)
    if len(set(sets.values())) == 1:  # one set of boards: its deals, as any section has them
        _write_hands(root, next((s.record.deals for s in sections if s.record.deals), {}))
    return _document(root)


def _event(session: SessionRecord, ranking: Ranking, boards: int) -> tuple[ET.Element, ET.Element]:
    root = ET.Element("USEBIO", {"Version": "1.2"})
    if session.club:
        _add(ET.SubElement(root, "CLUB"), "CLUB_NAME", clean_text(session.club))
    kind, method = _WRITTEN_SCORING[session.scoring]
    event = ET.SubElement(root, "EVENT", {"EVENT_TYPE": kind})
    _add(event, "PROGRAM_NAME", "Scorekeeper")
    _add(event, "EVENT_DESCRIPTION", clean_text(session.event))
    if session.date is not None:
        day = session.date
        _add(event, "DATE", f"{day.day:02d}/{day.month:02d}/{day.year:04d}")
    _add(event, "BOARD_SCORING_METHOD", method)
    _add(event, "WINNER_TYPE", "2" if ranking is Ranking.BY_DIRECTION else "1")
    _add(event, "BOARDS_PLAYED", str(boards))
    return root, event


def _write_section(
    parent: ET.Element,
    session: SessionRecord,
    scored: SessionScore,
    published: Published,
    overall: Mapping[Pair, str] | None = None,
) -> None:
    """A session's pairs and its boards' travellers."""
    by_board: dict[int, list[tuple[ScoredResult, PublishedResult | None]]] = {}
    for index, item in enumerate(scored.results):
        given = published.results[index] if published.results else None
        by_board.setdefault(item.result.board, []).append((item, given))
    _write_pairs(parent, session, scored, published, overall or {})
    for number in sorted(by_board):
        board = ET.SubElement(parent, "BOARD")
        _add(board, "BOARD_NUMBER", str(number))
        for item, given in by_board[number]:
            _write_line(board, item, session.scoring, session.ranking, given)


def _document(root: ET.Element) -> bytes:
    ET.indent(root, "  ")
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{DOCTYPE}\n{body}\n'.encode()


_WRITTEN_SCORING = {
    Scoring.MATCHPOINTS: ("MP_PAIRS", "MATCH_POINTS"),
    Scoring.BUTLER: ("BUTLER_PAIRS", "BUTLER_IMPS"),
    Scoring.CROSS_IMPS: ("CROSS_IMPS", "CROSS_IMPS"),
}
"""Each scoring's event type and board scoring method."""
