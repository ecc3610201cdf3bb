"""What a results file publishes beside the session it carries, how the program that wrote it
scored the session, and each published figure checked against Scorekeeper's own count
(RULES.md §2, §4).

A results file is the record of what its club published: each traveller line's matchpoints
(or IMPs), each pair's total, percentage and place (:class:`Published`). Scorekeeper's own
count of the same results (RULES.md: Neuberg's formula wherever a board has fewer results
than the most any board of the field has, exact figures) is a check beside them, never a
replacement.

Club programs score the same results in different ways, each of them consistent; the file's
own figures show which (:func:`convention_of`, a :class:`Convention`):

- a traveller's figures are either Neuberg-scaled to the field's top, 2 × (N − 1), or written
  against the board's own top, 2 × (n − 1) for its n real results (Compscore and EBUScore
  write travellers so): :func:`traveller_tops`;
- a pair's total adds either the figures as its travellers count them, or each board scaled
  with Neuberg's formula to the field's top whatever its traveller shows (Compscore,
  EBUScore); exactly, or each board's figure rounded first as the traveller shows it (Magic
  Contest adds tenths); a pair that played fewer boards than the session's may have its total
  factored up, × boards of the session / boards it played (Compscore); the percentage is out
  of the tops of the boards the pair played, or out of the field's top on every board of the
  session: :func:`totals_way`;
- an artificial score keeps the matchpoints the file gives it, a director's award;
- in Butler scoring each board's datum is the one its figures show (:func:`butler_data`); in
  cross-IMPs the sum of a result's IMPs is divided by the comparisons, by the results, or not
  at all (:func:`cross_divisor`).

:func:`count` counts the session the file's way, and :func:`check` says of every published
figure whether Scorekeeper's own count gives it (:attr:`Verdict.CONFIRMED`), the file's way
does and why it differs from Scorekeeper's (:attr:`Verdict.EXPLAINED`, with :class:`Note`
naming the reason), or neither (:attr:`Verdict.DIFFERS`: a :class:`Difference`).

Compscore's way, on a board of three results in a field of four: its traveller shows the top
result's 4 of 4, its pair's total counts it (4 + 1) × 4 / 3 − 1 = 5.67 of 6 (pair 5: 4 of 6 on
board 1 besides, 29/3 in all).

>>> from scorekeeper.rules.bridge import Contract
>>> from scorekeeper.rules.common import Seat
>>> from scorekeeper.rules.duplicate import TableResult
>>> played = [TableResult(board, table, 1, 2 * table - 1, 2 * table, Contract(1, "NT"),
...                       Seat.NORTH, 6 + table) for board in (1, 2) for table in (1, 2, 3, 4)
...           if (board, table) != (2, 4)]
>>> session = SessionRecord(tuple(played))
>>> convention = Convention(tops={2: 3}, added=Added.NEUBERG)
>>> counted = count(session, Published(), convention)
>>> counted.lines[-1], str(counted.pairs[Pair(5)].total)
(CountedLine(ns=Fraction(4, 1), ew=Fraction(0, 1), top=4), '29/3')
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from scorekeeper.rules.bridge import butler_datum, imps, matchpoints, rounded
from scorekeeper.rules.common import Side
from scorekeeper.rules.duplicate import (
    ARTIFICIAL_IMPS,
    Pair,
    Ranking,
    Scoring,
    SessionRecord,
    SessionScore,
    TableResult,
    most_results,
    pairs_of,
)

__all__ = [
    "Added",
    "Convention",
    "Count",
    "CountedLine",
    "CountedPair",
    "Difference",
    "Divisor",
    "Figure",
    "FigureCheck",
    "FileCheck",
    "LargerEvent",
    "Note",
    "OutOf",
    "Published",
    "PublishedResult",
    "PublishedStanding",
    "Reason",
    "Verdict",
    "butler_data",
    "check",
    "convention_of",
    "count",
    "cross_divisor",
    "differences",
    "event_ranking",
    "imp_scoring",
    "session_boards",
    "shown_places",
    "totals_way",
    "traveller_tops",
]


# --- What a file publishes ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PublishedResult:
    """The figures a file published for one result, as it writes them (``Decimal("28.30")``
    keeps its two decimals); ``None`` where it gave none (an artificial score has no score in
    points)."""

    score_ns: int | None = None
    """North-South's score in points, when the file gives it from their side."""
    score_ew: int | None = None
    """East-West's score in points, when the file gives it from theirs."""
    mp_ns: Decimal | None = None
    mp_ew: Decimal | None = None
    imp_ns: Decimal | None = None
    imp_ew: Decimal | None = None

    def figures(self, scoring: Scoring) -> tuple[Decimal | None, Decimal | None]:
        """North-South's and East-West's figure in the session's scoring: matchpoints or
        IMPs."""
        return (self.imp_ns, self.imp_ew) if scoring.in_imps else (self.mp_ns, self.mp_ew)


@dataclass(frozen=True, slots=True)
class PublishedStanding:
    """One line of the ranking a file published, its figures as the file writes them."""

    pair: Pair
    rank: int | None = None
    total: Decimal | None = None
    """Matchpoints, or IMPs in a session scored in IMPs."""
    percentage: Decimal | None = None
    tiebreak: int | None = None
    names: str = ""
    boards: int | None = None
    """The boards the file says the pair's figures count."""
    tied: bool = False
    """Whether the file writes the place as shared ("3=")."""


@dataclass(frozen=True, slots=True)
class Published:
    """What a file claims: one entry per result (in the order of the session's results, or
    none at all) and its ranking, in its own order."""

    results: tuple[PublishedResult, ...] = ()
    standings: tuple[PublishedStanding, ...] = ()

    def of_result(self, index: int) -> PublishedResult:
        """The figures published for the session's result ``index`` (none when the file gave
        no results' figures)."""
        return self.results[index] if self.results else _NOTHING

    def standing_of(self, pair: Pair) -> PublishedStanding | None:
        for line in self.standings:
            if line.pair == pair:
                return line
        return None


_NOTHING = PublishedResult()


class Figure(StrEnum):
    """A kind of published figure."""

    SCORE = "score"
    MATCHPOINTS = "matchpoints"
    IMPS = "imps"
    TOTAL = "total"
    PERCENTAGE = "percentage"
    RANK = "rank"


def shown_places(scoring: Scoring) -> int:
    """The decimals a sheet shows a board's figure and a total with: matchpoints to 0.1,
    Butler IMPs whole, cross-IMPs (averages) to 0.01, as club programs print them."""
    return {Scoring.MATCHPOINTS: 1, Scoring.BUTLER: 0, Scoring.CROSS_IMPS: 2}[scoring]


# --- How the file scored its session --------------------------------------------------------------


class Added(StrEnum):
    """Which figure of each board a pair's total adds."""

    TRAVELLERS = "travellers"
    """The figure as the board's traveller counts it (out of the top its traveller shows)."""
    NEUBERG = "neuberg"
    """The board scaled with Neuberg's formula to the field's top, whatever its traveller
    shows (Compscore, EBUScore)."""


class OutOf(StrEnum):
    """What a pair's percentage is a share of."""

    PLAYED = "played"
    """The tops of the boards the pair played (factored up with its total, where it is)."""
    SESSION = "session"
    """The field's top on every board of the session, whatever the pair played."""


class Divisor(StrEnum):
    """What the sum of a result's cross-IMPs is divided by."""

    COMPARISONS = "comparisons"
    """The other results of the board, n − 1: an average per comparison (RULES.md, ACBLscore's
    "Average IMPs")."""
    RESULTS = "results"
    """The board's results, n (BBO's forum's proposal)."""
    NONE = "none"
    """Nothing: the sum itself (ACBLscore's "Total IMPs")."""

    def of(self, results: int) -> int:
        """The divisor for a board of ``results`` real results (at least 1)."""
        wanted = {Divisor.COMPARISONS: results - 1, Divisor.RESULTS: results, Divisor.NONE: 1}
        return max(wanted[self], 1)


@dataclass(frozen=True, slots=True)
class Convention:
    """How a results file's program scored the session: the way of :func:`count`. The
    default is Scorekeeper's own (RULES.md §4): every traveller Neuberg-scaled to the field's
    top, totals the exact sum, percentages of the tops the pair played."""

    tops: Mapping[int, int] = field(default_factory=dict)
    """The boards whose traveller figures are out of the top of another number of results
    than the field's most: board → that number (a board played fewer times and not scaled:
    its own real results)."""
    added: Added = Added.TRAVELLERS
    rounding: int | None = None
    """The decimals each board's figure is rounded to (half up) before it is added; ``None``:
    exactly."""
    factored: bool = False
    """Whether the total of a pair that played fewer boards than the session's is factored
    up: × the session's boards / the boards it played."""
    out_of: OutOf = OutOf.PLAYED
    data: Mapping[int, int] = field(default_factory=dict)
    """Butler scoring: the boards whose datum is not Scorekeeper's
    (:func:`~scorekeeper.rules.bridge.butler_datum`): board → the datum."""
    divisor: Divisor = Divisor.COMPARISONS

    def as_settings(self) -> dict[str, Any]:
        """The convention as JSON keeps it: what differs from the default.

        >>> Convention(tops={5: 18}, added=Added.NEUBERG, factored=True).as_settings()
        {'tops': [[5, 18]], 'added': 'neuberg', 'factored': True}
        """
        kept: dict[str, Any] = {}
        if self.tops:
            kept["tops"] = [[board, wanted] for board, wanted in sorted(self.tops.items())]
        if self.added is not Added.TRAVELLERS:
            kept["added"] = self.added.value
        if self.rounding is not None:
            kept["rounding"] = self.rounding
        if self.factored:
            kept["factored"] = True
        if self.out_of is not OutOf.PLAYED:
            kept["out_of"] = self.out_of.value
        if self.data:
            kept["data"] = [[board, datum] for board, datum in sorted(self.data.items())]
        if self.divisor is not Divisor.COMPARISONS:
            kept["divisor"] = self.divisor.value
        return kept

    @classmethod
    def from_settings(cls, kept: Mapping[str, Any]) -> Convention:
        """The convention :meth:`as_settings` kept.

        >>> Convention.from_settings({"tops": [[5, 18]], "rounding": 1})
        Convention(tops={5: 18}, added=<Added.TRAVELLERS: 'travellers'>, rounding=1, factored=False, out_of=<OutOf.PLAYED: 'played'>, data={}, divisor=<Divisor.COMPARISONS: 'comparisons'>)
        """  # noqa: E501
        rounding = kept.get("rounding")
        return cls(
            tops={int(board): int(wanted) for board, wanted in kept.get("tops") or ()},
            added=Added(kept.get("added", Added.TRAVELLERS)),
            rounding=None if rounding is None else int(rounding),
            factored=bool(kept.get("factored", False)),
            out_of=OutOf(kept.get("out_of", OutOf.PLAYED)),
            data={int(board): int(datum) for board, datum in kept.get("data") or ()},
            divisor=Divisor(kept.get("divisor", Divisor.COMPARISONS)),
        )


# --- The session counted the file's way -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CountedLine:
    """A traveller line's figures as the file's traveller counts them, exactly."""

    ns: Fraction
    ew: Fraction
    top: int
    """The top the traveller's figures are out of; 0 in IMPs."""


@dataclass(frozen=True, slots=True)
class CountedPair:
    """A pair's place, total and percentage counted the file's way, exactly."""

    pair: Pair
    rank: int
    tied: bool
    total: Fraction
    percentage: Fraction | None
    """``None`` in IMPs."""
    boards: int


@dataclass(frozen=True, slots=True)
class Count:
    """A session counted the file's way: each result's traveller figures (in the session's
    order) and each pair's place, total and percentage, ranking by ranking."""

    lines: tuple[CountedLine, ...]
    rankings: tuple[tuple[Side | None, tuple[CountedPair, ...]], ...]

    @property
    def pairs(self) -> dict[Pair, CountedPair]:
        return {line.pair: line for _side, lines in self.rankings for line in lines}


def session_boards(results: Iterable[TableResult], ranking: Ranking) -> int:
    """The boards a pair plays in the session: the most any pair played."""
    played: Counter[Pair] = Counter()
    for result in results:
        played.update(pairs_of(result, ranking))
    return max(played.values(), default=0)


def _neuberg(points: Fraction, expected: int, obtained: int) -> Fraction:
    """(M + 1) × N / n − 1 (RULES.md §2); unchanged where N = n."""
    return (points + 1) * expected / obtained - 1


def _artificial_shares(
    result: TableResult, published: PublishedResult, top: int, field_top: int
) -> tuple[Fraction, Fraction]:
    """The shares of the top an artificial line scores: its 60, 50 or 40 % (RULES.md §2)
    where the file's figures are those shares of the traveller's top or of the field's, at
    the precision the file writes them (60 % of 32, 19.2, written 19); else the shares of the
    traveller's top the file published (a director's award: an "A5050" line published 23
    and 11 of 34)."""
    assert result.artificial_ns is not None and result.artificial_ew is not None
    standard = (result.artificial_ns.share, result.artificial_ew.share)
    ns, ew = published.mp_ns, published.mp_ew
    if ns is None or ew is None or not top:
        return standard
    for base in (top, field_top):
        if base and _agrees(ns, standard[0] * base)[0] and _agrees(ew, standard[1] * base)[0]:
            return standard
    return Fraction(ns) / top, Fraction(ew) / top


def _board_lines(
    session: SessionRecord,
    published: Published,
    convention: Convention,
    field_most: int,
    indexes: Sequence[int],
) -> Iterator[tuple[int, CountedLine, CountedLine]]:
    """Each line of one board: its index, its figures as its traveller counts them, and the
    figures its pairs' totals add (before any rounding)."""
    results = session.results
    board = results[indexes[0]].board
    if session.scoring.in_imps:
        for index, line in _imp_lines(session, published, convention, indexes):
            yield index, line, line
        return
    real = [index for index in indexes if not results[index].is_artificial]
    scores = [results[index].score_ns for index in real]
    raw = matchpoints([score for score in scores if score is not None])
    obtained = len(real)
    expected = max(convention.tops.get(board, field_most), obtained, 1)
    top, field_top = 2 * (expected - 1), 2 * (field_most - 1)
    for index, points in zip(real, raw, strict=True):
        ns = _neuberg(Fraction(int(points)), expected, obtained)
        shown = CountedLine(ns, top - ns, top)
        if convention.added is Added.NEUBERG:
            scaled = _neuberg(Fraction(int(points)), field_most, obtained)
            yield index, shown, CountedLine(scaled, field_top - scaled, field_top)
        else:
            yield index, shown, shown
    for index in indexes:
        result = results[index]
        if not result.is_artificial:
            continue
        given = published.of_result(index)
        ns_share, ew_share = _artificial_shares(result, given, top, field_top)
        counted = CountedLine(ns_share * top, ew_share * top, top)
        # The traveller shows the director's figures as the file writes them.
        if given.mp_ns is not None and given.mp_ew is not None:
            shown = CountedLine(Fraction(given.mp_ns), Fraction(given.mp_ew), top)
        else:
            shown = counted
        if convention.added is Added.NEUBERG:
            yield index, shown, CountedLine(ns_share * field_top, ew_share * field_top, field_top)
        else:
            yield index, shown, counted


def _imp_lines(
    session: SessionRecord, published: Published, convention: Convention, indexes: Sequence[int]
) -> Iterator[tuple[int, CountedLine]]:
    """One board's lines in IMPs: Butler against the file's datum, or cross-IMPs divided the
    file's way; an artificial score as the file published it, else ±3 IMPs."""
    results = session.results
    real = [index for index in indexes if results[index].score_ns is not None]
    scores = [results[index].score_ns or 0 for index in real]
    board = results[indexes[0]].board
    if session.scoring is Scoring.BUTLER and scores:
        datum = convention.data.get(board, butler_datum(scores))
        figures = [Fraction(imps(score - datum)) for score in scores]
    else:
        divisor = convention.divisor.of(len(scores))
        figures = [
            Fraction(sum(imps(score - other) for other in scores), divisor) for score in scores
        ]
    for index, figure in zip(real, figures, strict=True):
        yield index, CountedLine(figure, -figure, 0)
    for index in indexes:
        result = results[index]
        if result.artificial_ns is None or result.artificial_ew is None:
            continue
        given = published.of_result(index)
        if given.imp_ns is not None and given.imp_ew is not None:
            yield index, CountedLine(Fraction(given.imp_ns), Fraction(given.imp_ew), 0)
        else:
            yield (
                index,
                CountedLine(
                    Fraction(ARTIFICIAL_IMPS[result.artificial_ns]),
                    Fraction(ARTIFICIAL_IMPS[result.artificial_ew]),
                    0,
                ),
            )


def _round(value: Fraction, places: int | None) -> Fraction:
    return value if places is None else Fraction(rounded(value, places))


def _rounded_line(line: CountedLine, places: int | None, artificial: bool) -> CountedLine:
    """A board's figures as they are added: rounded as the file shows them, East-West the top
    less North-South's on a real result (so that the two add up to the top)."""
    if places is None:
        return line
    ns = _round(line.ns, places)
    if line.top and not artificial:
        return CountedLine(ns, line.top - ns, line.top)
    return CountedLine(ns, _round(line.ew, places), line.top)


@dataclass(frozen=True, slots=True)
class _Lines:
    """A session's lines counted one way, before they are added up."""

    shown: tuple[CountedLine, ...]
    added: tuple[CountedLine, ...]


def _lines(session: SessionRecord, published: Published, convention: Convention) -> _Lines:
    by_board: dict[int, list[int]] = defaultdict(list)
    for index, result in enumerate(session.results):
        by_board[result.board].append(index)
    most = most_results(session.results)
    shown: dict[int, CountedLine] = {}
    added: dict[int, CountedLine] = {}
    for indexes in by_board.values():
        for index, traveller, total in _board_lines(session, published, convention, most, indexes):
            shown[index], added[index] = traveller, total
    order = range(len(session.results))
    return _Lines(tuple(shown[i] for i in order), tuple(added[i] for i in order))


def _tally(session: SessionRecord, lines: _Lines, convention: Convention) -> Count:
    totals: dict[Pair, Fraction] = defaultdict(Fraction)
    tops: dict[Pair, Fraction] = defaultdict(Fraction)
    boards: Counter[Pair] = Counter()
    for result, line in zip(session.results, lines.added, strict=True):
        added = _rounded_line(line, convention.rounding, result.is_artificial)
        north, east = pairs_of(result, session.ranking)
        for pair, figure in ((north, added.ns), (east, added.ew)):
            totals[pair] += figure
            tops[pair] += added.top
            boards[pair] += 1
    most_boards = max(boards.values(), default=0)
    field_top = 2 * (most_results(session.results) - 1)
    counted: dict[Pair, tuple[Fraction, Fraction | None]] = {}
    for pair, total in totals.items():
        top = tops[pair]
        if convention.factored and boards[pair] < most_boards:
            total, top = total * most_boards / boards[pair], top * most_boards / boards[pair]
        if session.scoring.in_imps:
            percentage = None
        elif convention.out_of is OutOf.SESSION:
            session_top = field_top * most_boards
            percentage = total * 100 / session_top if session_top else Fraction(50)
        else:  # nothing to compare with (boards played once): an average
            percentage = total * 100 / top if top else Fraction(50)
        counted[pair] = (total, percentage)
    rankings = []
    for direction in session.ranking.fields:
        keys = {
            pair: (
                figures[1] if figures[1] is not None else figures[0],
                session.tiebreaks.get(pair, 0),
            )
            for pair, figures in counted.items()
            if direction is None or pair.direction == direction
        }
        order = sorted(keys, key=lambda pair: (-keys[pair][0], -keys[pair][1], pair.number))
        sharing = Counter(keys.values())
        placed = []
        ahead = 0
        for place, pair in enumerate(order):
            if place and keys[pair] != keys[order[place - 1]]:
                ahead = place
            total, percentage = counted[pair]
            tied = sharing[keys[pair]] > 1
            placed.append(CountedPair(pair, ahead + 1, tied, total, percentage, boards[pair]))
        rankings.append((direction, tuple(placed)))
    return Count(lines.shown, tuple(rankings))


def count(
    session: SessionRecord, published: Published, convention: Convention | None = None
) -> Count:
    """The session counted the file's way (by default Scorekeeper's own, RULES.md §4).

    On a board of n real results in a field whose busiest board has N (artificial scores
    included, RULES.md §4), each real North-South result's M (2 per lower real score, 1 per
    equal one) is shown on its traveller as (M + 1) × N_b / n − 1 out of 2 × (N_b − 1),
    N_b the number its traveller counts (``convention.tops``, else N); East-West get the top
    less North-South's figure. An artificial line shows the shares of that top the file
    published for it (a director's award), else 60, 50 or 40 %. In IMPs a line shows its
    Butler IMPs against the file's datum or its cross-IMPs divided the file's way, an
    artificial one what the file published, else ±3.

    A pair's total adds, board by board, the traveller's figure, or with
    :attr:`Added.NEUBERG` the board scaled to N, (M + 1) × N / n − 1 out of 2 × (N − 1) (an
    artificial line its share of that top); each rounded first where the file rounds
    (``convention.rounding``, East-West the top less North-South's), and the total factored
    up by the session's boards / the boards the pair played where the file factors. Its
    percentage is the total over the tops it added (factored alike), or over 2 × (N − 1) ×
    the session's boards. Pairs are placed by percentage (by total in IMPs), level ones
    sharing the place unless a published tiebreak splits them.
    """
    convention = convention or Convention()
    return _tally(session, _lines(session, published, convention), convention)


# --- Recognising the file's way from its figures --------------------------------------------------


def traveller_tops(session: SessionRecord, published: Published) -> dict[int, int]:
    """The boards whose traveller figures are out of another top than the field's, as the
    file's own figures show (:attr:`Convention.tops`): each board's N_b where it is not the
    most results any board has (RULES.md §4).

    A real result's two published figures add up to its board's top, 2 × (N_b − 1) (each may
    be rounded on its own: within 0.1). A board played fewer times whose figures add up to
    the top of its own n real results was not scaled (N_b = n, as Compscore's travellers
    are); figures that say nothing (none published, or on no top a board can have) leave the
    board at the field's N.

    >>> from scorekeeper.rules.duplicate import TableResult
    >>> short = SessionRecord((TableResult(1, 1, 1, 1, 2), TableResult(1, 2, 1, 3, 4),
    ...                        TableResult(2, 1, 2, 1, 4)))
    >>> zero, one = Decimal(0), Decimal(1)
    >>> traveller_tops(short, Published((PublishedResult(mp_ns=one, mp_ew=one),
    ...     PublishedResult(mp_ns=one, mp_ew=one), PublishedResult(mp_ns=zero, mp_ew=zero))))
    {2: 1}
    """
    if session.scoring.in_imps or not published.results:
        return {}
    most = most_results(session.results)
    real: Counter[int] = Counter()
    tops: dict[int, Counter[int]] = defaultdict(Counter)
    for index, result in enumerate(session.results):
        if result.is_artificial:
            continue
        real[result.board] += 1
        figures = published.of_result(index)
        if figures.mp_ns is None or figures.mp_ew is None:
            continue
        added = Fraction(figures.mp_ns) + Fraction(figures.mp_ew)
        top = round(added)
        if top % 2 == 0 and top >= 0 and abs(added - top) <= Fraction(1, 10):
            tops[result.board][top] += 1
    said = {}
    for board, found in sorted(tops.items()):
        wanted = found.most_common(1)[0][0] // 2 + 1
        if wanted >= max(real[board], 1) and wanted != most:
            said[board] = wanted
    return said


def butler_data(session: SessionRecord, published: Published) -> dict[int, int]:
    """Butler scoring: the boards whose published IMPs were counted against another datum than
    Scorekeeper's (:func:`~scorekeeper.rules.bridge.butler_datum`), and that datum: the
    multiple of 10 between the board's lowest and highest score, nearest Scorekeeper's,
    against which every real result earns the IMPs the file gives it (several may: the IMP
    scale's bands are wide).

    >>> from scorekeeper.rules.bridge import Contract
    >>> from scorekeeper.rules.common import Seat
    >>> from scorekeeper.rules.duplicate import TableResult
    >>> lines = [TableResult(1, table, 1, 2 * table - 1, 2 * table, Contract(4, "S"),
    ...                      Seat.NORTH, tricks) for table, tricks in ((1, 10), (2, 10), (3, 9))]
    >>> session = SessionRecord(tuple(lines), scoring=Scoring.BUTLER)
    >>> [item.datum for item in session.score().results]  # 420, 420 and -50: 263.3
    [260, 260, 260]
    >>> butler_data(session, Published(tuple(PublishedResult(imp_ns=Decimal(ns))
    ...                                      for ns in (0, 0, -10))))
    {1: 410}
    """
    if session.scoring is not Scoring.BUTLER or not published.results:
        return {}
    boards: dict[int, list[tuple[int, Decimal]]] = defaultdict(list)
    for index, result in enumerate(session.results):
        given = published.of_result(index).imp_ns
        if result.score_ns is not None and given is not None:
            boards[result.board].append((result.score_ns, given))
    scores_of: dict[int, list[int]] = defaultdict(list)
    for result in session.results:
        if result.score_ns is not None:
            scores_of[result.board].append(result.score_ns)
    said = {}
    for board, lines in sorted(boards.items()):
        own = butler_datum(scores_of[board])

        def fits(datum: int, lines: list[tuple[int, Decimal]] = lines) -> bool:
            return all(Decimal(imps(score - datum)) == given for score, given in lines)

        if fits(own):
            continue
        low, high = min(scores_of[board]), max(scores_of[board])
        candidates = [datum for datum in range(low - low % 10, high + 10, 10) if fits(datum)]
        if candidates:
            said[board] = min(candidates, key=lambda datum: (abs(datum - own), datum))
    return said


def cross_divisor(session: SessionRecord, published: Published) -> Divisor:
    """Cross-IMPs: what the file divided each result's sum of IMPs by, as its published
    figures show: the divisor whose figures agree with the most published ones (the
    comparisons, n − 1, where several do)."""
    if session.scoring is not Scoring.CROSS_IMPS or not published.results:
        return Divisor.COMPARISONS
    agreeing: Counter[Divisor] = Counter()
    for divisor in Divisor:
        lines = _lines(session, published, Convention(divisor=divisor)).shown
        for index, line in enumerate(lines):
            if session.results[index].is_artificial:
                continue
            given = published.of_result(index).imp_ns
            if given is not None and _agrees(given, line.ns)[0]:
                agreeing[divisor] += 1
    return max(Divisor, key=lambda divisor: agreeing[divisor])  # the first of the best


def imp_scoring(session: SessionRecord, published: Published) -> Scoring:
    """For a file that says IMPs without saying which: Butler or cross-IMPs, whichever
    Scorekeeper's count gives more of the published line figures (Butler where neither, or
    both alike, does).
    """
    agreeing = {}
    for scoring in (Scoring.BUTLER, Scoring.CROSS_IMPS):
        scored = replace(session, scoring=scoring).score()
        agreeing[scoring] = sum(
            _agrees(given, item.ns)[0]
            for index, item in enumerate(scored.results)
            if (given := published.of_result(index).imp_ns) is not None
        )
    return max((Scoring.BUTLER, Scoring.CROSS_IMPS), key=lambda scoring: agreeing[scoring])


def totals_way(
    session: SessionRecord, published: Published, convention: Convention | None = None
) -> Convention:
    """``convention`` (its travellers' tops, datums and divisor) with the way the file added
    its totals and made its percentages: of the ways listed in :class:`Convention` (the
    travellers' figures or Neuberg's, exact or rounded to 0.1 or 0.01 a board, factored or
    not, percentages of the tops played or of the session's), the one whose count
    reproduces the most published totals, percentages and places, the simplest first where
    several do as well (Scorekeeper's own way first)."""
    base = convention or Convention()
    if not any(
        line.total is not None or line.percentage is not None for line in published.standings
    ):
        return base
    addeds = [Added.TRAVELLERS, *([Added.NEUBERG] if base.tops else [])]
    fewer = _some_pair_played_fewer(session)
    outs = [OutOf.PLAYED] if session.scoring.in_imps else [OutOf.PLAYED, OutOf.SESSION]
    best, best_agreeing = base, -1
    for added in addeds:
        lines = _lines(session, published, replace(base, added=added))
        for rounding in (None, 1, 2):
            for factored in (False, True) if fewer else (False,):
                for out_of in outs:
                    candidate = replace(
                        base, added=added, rounding=rounding, factored=factored, out_of=out_of
                    )
                    agreeing = _standings_agreeing(published, _tally(session, lines, candidate))
                    if agreeing > best_agreeing:
                        best, best_agreeing = candidate, agreeing
    return best


def _some_pair_played_fewer(session: SessionRecord) -> bool:
    played: Counter[Pair] = Counter()
    for result in session.results:
        played.update(pairs_of(result, session.ranking))
    return len(set(played.values())) > 1


def _standings_agreeing(published: Published, counted: Count) -> int:
    pairs = counted.pairs
    agreeing = 0
    for line in published.standings:
        pair = pairs.get(line.pair)
        if pair is None:
            continue
        least = 0 if pair.percentage is None else 1
        if line.total is not None:
            agreeing += _agrees(line.total, pair.total, least)[0]
        if line.percentage is not None and pair.percentage is not None:
            agreeing += _agrees(line.percentage, pair.percentage, 2)[0]
        if line.rank is not None:
            agreeing += line.rank == pair.rank
    return agreeing


def convention_of(session: SessionRecord, published: Published) -> Convention:
    """How the file's program scored its session, from the file's own figures: its
    travellers' tops (:func:`traveller_tops`), Butler datums (:func:`butler_data`), cross-IMP
    divisor (:func:`cross_divisor`), then its totals and percentages (:func:`totals_way`;
    not looked for in a ranking of a larger event, whose totals are not the session's)."""
    found = Convention(
        tops=traveller_tops(session, published),
        data=butler_data(session, published),
        divisor=cross_divisor(session, published),
    )
    if event_ranking(session, published) is not None:
        return found
    return totals_way(session, published, found)


# --- The ranking of a larger event ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LargerEvent:
    """The ranking a file publishes is that of a larger event than the session it carries
    (several sessions added up): its places, totals and percentages are not the session's."""

    boards: int | None
    """About how many boards a pair's published figures count, when the file shows it."""
    session_boards: int
    """The boards a pair plays in the session (the most any pair plays)."""


def _half_last(figure: Decimal) -> Fraction:
    """Half the last decimal a figure is written with (28.3: 0.05)."""
    return Fraction(1, 2) * Fraction(10) ** -_decimals(figure)


def _event_boards(
    line: PublishedStanding, boards: int, field_top: int, in_imps: bool
) -> tuple[bool, int | None] | None:
    """What one published line says of its size against the session's (``boards`` a pair,
    the field's top a board): ``(True, about)`` when its figures count more boards than a
    pair plays in the session (``about`` how many, when it shows), ``(False, None)`` when
    they fit the session, ``None`` when it cannot tell."""
    verdicts: list[tuple[bool, int | None]] = []
    if line.boards is not None:
        verdicts.append((line.boards > boards, line.boards))
    if not in_imps and field_top and line.total is not None:
        total = Fraction(line.total)
        most = field_top * boards
        if line.percentage is not None and line.percentage > 0:
            percentage = Fraction(line.percentage)
            least_top = (
                (total - _half_last(line.total)) * 100 / (percentage + _half_last(line.percentage))
            )
            about = round(total * 100 / percentage / field_top)
            verdicts.append((least_top > most, about))
        else:
            verdicts.append((total - _half_last(line.total) > most, None))
    if not verdicts:
        return None
    larger = [about for is_larger, about in verdicts if is_larger]
    if larger:
        return True, max((about for about in larger if about is not None), default=None)
    return False, None


def event_ranking(session: SessionRecord, published: Published) -> LargerEvent | None:
    """Whether the ranking a file publishes is that of a larger event than its session.

    A program that scores an event of several sessions may publish, with one session's
    results, the ranking of the whole event so far: every per-board figure is the session's,
    but each pair's place, total and percentage count every session. A line shows it when it
    says its pair played more boards than any pair plays in the session, or when its total
    (with its percentage, the top it is out of) is beyond the field's top on every board of
    the session, whatever way the file counts. The ranking is the event's when at least one
    line shows it and none fits the session.
    """
    boards = session_boards(session.results, session.ranking)
    field_top = 2 * (most_results(session.results) - 1)
    larger: list[int | None] = []
    for line in published.standings:
        verdict = _event_boards(line, boards, field_top, session.scoring.in_imps)
        if verdict is None:
            continue
        is_larger, about = verdict
        if not is_larger:
            return None
        larger.append(about)
    if not larger:
        return None
    known = Counter(about for about in larger if about is not None)
    return LargerEvent(known.most_common(1)[0][0] if known else None, boards)


# --- The check ------------------------------------------------------------------------------------


class Verdict(StrEnum):
    """What the check says of a published figure."""

    CONFIRMED = "confirmed"
    """Scorekeeper's own count gives it."""
    EXPLAINED = "explained"
    """Scorekeeper's own count does not, the file's way of scoring does (the notes say why
    the two differ)."""
    DIFFERS = "differs"
    """Neither does: a figure the results do not bear out."""


class Reason(StrEnum):
    """Why a file's figure is not Scorekeeper's own, where the file's way of scoring gives
    it (a :class:`Note`'s values in brackets)."""

    NOT_SCALED = "not-scaled"
    """A board played fewer times was not scaled: its figures are out of its own top
    (boards, results, top, field, field_top)."""
    SCALED_TO = "scaled-to"
    """A board was scaled to another number of results than the field's (boards, results,
    expected, top)."""
    UNSCALED_TOTALS = "unscaled-totals"
    """The totals add the boards not scaled as their travellers count them (boards)."""
    SCALED_TOTALS = "scaled-totals"
    """The totals add the boards whose travellers are not scaled Neuberg-scaled to the
    field's top, as Scorekeeper does (field_top)."""
    ROUNDED = "rounded"
    """Each board's figure is rounded as shown before it is added (places)."""
    FACTORED = "factored"
    """A pair that played fewer boards has its total factored up (pair, played, boards)."""
    SESSION_TOP = "session-top"
    """Percentages are out of the field's top on every board of the session (top, boards)."""
    ARTIFICIAL = "artificial"
    """An artificial score published with the director's matchpoints or IMPs (board, table,
    ns, ew: as published)."""
    DATUM = "datum"
    """A Butler board counted against another datum (board, datum, own)."""
    DIVISOR = "divisor"
    """Cross-IMPs divided otherwise than by the comparisons (divisor)."""
    PLACES = "places"
    """Places follow the file's own totals."""
    TIE_SPLIT = "tie-split"
    """The file splits a tie that Scorekeeper counts as shared (rank, tied)."""


@dataclass(frozen=True, slots=True)
class Note:
    """One reason, with its values (see :class:`Reason`)."""

    reason: Reason
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Difference:
    """A published figure that neither Scorekeeper's count nor the file's way of scoring
    gives: what the file says, what the file's way makes of the same results (``None``:
    nothing to compare with), and where."""

    figure: Figure
    published: Decimal
    computed: Decimal | None
    board: int | None = None
    table: int | None = None
    side: Side | None = None
    pair: Pair | None = None


@dataclass(frozen=True, slots=True)
class FigureCheck:
    """One published figure checked: Scorekeeper's own figure and the file's way's, each at
    the precision the file writes (``None``: nothing to compare with), the verdict, and the
    notes that say why an explained figure is not Scorekeeper's."""

    figure: Figure
    published: Decimal
    own: Decimal | None
    counted: Decimal | None
    verdict: Verdict
    notes: tuple[Note, ...] = ()
    board: int | None = None
    table: int | None = None
    side: Side | None = None
    pair: Pair | None = None

    @property
    def difference(self) -> Difference:
        computed = self.counted if self.counted is not None else self.own
        return Difference(
            self.figure, self.published, computed, self.board, self.table, self.side, self.pair
        )


@dataclass(frozen=True, slots=True)
class FileCheck:
    """A file's published figures checked: how its program scored the session, whether its
    ranking is a larger event's, and every figure's verdict."""

    convention: Convention
    larger_event: LargerEvent | None
    """Set when the file's ranking is that of a larger event: then its places, totals and
    percentages are not checked."""
    figures: tuple[FigureCheck, ...]
    """Every published figure checked: the results' (score, then each side's matchpoints or
    IMPs), then the ranking's (total, percentage, place)."""
    notes: tuple[Note, ...]
    """How the file scored its session where it is not Scorekeeper's way."""
    count: Count
    lines: Mapping[tuple[int, Side], FigureCheck]
    """A result's (its index in the session) published matchpoints or IMPs for one side."""
    standings: Mapping[tuple[Pair, Figure], FigureCheck]

    @property
    def differences(self) -> tuple[Difference, ...]:
        """Every published figure the results do not bear out."""
        return tuple(
            checked.difference for checked in self.figures if checked.verdict is Verdict.DIFFERS
        )


def _decimals(published: Decimal) -> int:
    """The decimals a published figure is written with (28.30: two)."""
    exponent = published.as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def _agrees(
    published: Decimal, exact: Fraction | None, least: int = 0, shown: Fraction | None = None
) -> tuple[bool, Decimal | None]:
    """Whether a published figure is an exact one as a sheet shows it: rounded half up to the
    decimals the file writes it with, at least ``least`` (a sheet's own: 0.1 for matchpoints,
    0.01 for percentages); ``shown`` is the traveller's own figure, where it has one
    (East-West the top less North-South's). Also the exact figure at that precision, to name
    it."""
    if exact is None:
        return False, None
    places = max(least, _decimals(published))
    computed = rounded(exact, places)
    agrees = published == computed or (
        shown is not None and places == 1 and Fraction(published) == shown
    )
    return agrees, computed


def _verdict(
    published: Decimal,
    least: int,
    own: tuple[Fraction | None, Fraction | None],
    counted: tuple[Fraction | None, Fraction | None],
) -> tuple[Verdict, Decimal | None, Decimal | None]:
    own_agrees, own_figure = _agrees(published, own[0], least, own[1])
    counted_agrees, counted_figure = _agrees(published, counted[0], least, counted[1])
    if own_agrees:
        verdict = Verdict.CONFIRMED
    elif counted_agrees:
        verdict = Verdict.EXPLAINED
    else:
        verdict = Verdict.DIFFERS
    return verdict, own_figure, counted_figure


def _shown_ew(line: CountedLine, artificial: bool) -> Fraction | None:
    """East-West's figure as a traveller shows it: the top less North-South's to 0.1."""
    if not line.top or artificial:
        return None
    return line.top - Fraction(rounded(line.ns, 1))


@dataclass(frozen=True, slots=True)
class _Notes:
    """The convention's notes, by where they apply."""

    session: tuple[Note, ...]
    boards: Mapping[int, tuple[Note, ...]]
    lines: Mapping[int, tuple[Note, ...]]
    pairs: Mapping[Pair, tuple[Note, ...]]
    everyone: tuple[Note, ...]
    """Notes on every pair's totals."""


def _notes(session: SessionRecord, published: Published, convention: Convention) -> _Notes:
    most = most_results(session.results)
    field_top = 2 * (most - 1)
    real: Counter[int] = Counter()
    for result in session.results:
        if not result.is_artificial:
            real[result.board] += 1
    grouped: dict[tuple[int, int], list[int]] = defaultdict(list)
    for board, wanted in sorted(convention.tops.items()):
        grouped[(real[board], wanted)].append(board)
    session_notes: list[Note] = []
    boards: dict[int, list[Note]] = defaultdict(list)
    for (results, wanted), numbers in grouped.items():
        if wanted == results:
            note = Note(
                Reason.NOT_SCALED,
                {
                    "boards": tuple(numbers),
                    "results": results,
                    "top": 2 * (results - 1),
                    "field": most,
                    "field_top": field_top,
                },
            )
        else:
            note = Note(
                Reason.SCALED_TO,
                {
                    "boards": tuple(numbers),
                    "results": results,
                    "expected": wanted,
                    "top": 2 * (wanted - 1),
                },
            )
        session_notes.append(note)
        for board in numbers:
            boards[board].append(note)
    for board, datum in sorted(convention.data.items()):
        scores = [
            r.score_ns for r in session.results if r.board == board and r.score_ns is not None
        ]
        note = Note(Reason.DATUM, {"board": board, "datum": datum, "own": butler_datum(scores)})
        session_notes.append(note)
        boards[board].append(note)
    everyone: list[Note] = []
    if session.scoring is Scoring.CROSS_IMPS and convention.divisor is not Divisor.COMPARISONS:
        everyone.append(Note(Reason.DIVISOR, {"divisor": convention.divisor.value}))
    lines: dict[int, list[Note]] = defaultdict(list)
    pairs: dict[Pair, list[Note]] = defaultdict(list)
    # An artificial line's shares of the field's top: 60, 50 or 40 %, or the director's.
    standard_lines = _lines(session, Published(), replace(convention, added=Added.NEUBERG))
    counted_lines = _lines(session, published, replace(convention, added=Added.NEUBERG))
    for index, result in enumerate(session.results):
        seated = pairs_of(result, session.ranking)
        for note in boards.get(result.board, ()):
            for pair in seated:
                pairs[pair].append(note)
        if not result.is_artificial:
            continue
        standard, given = standard_lines.added[index], counted_lines.added[index]
        if (standard.ns, standard.ew) != (given.ns, given.ew):
            figures = published.of_result(index).figures(session.scoring)
            note = Note(
                Reason.ARTIFICIAL,
                {"board": result.board, "table": result.table, "ns": figures[0], "ew": figures[1]},
            )
            session_notes.append(note)
            lines[index].append(note)
            for pair in seated:
                pairs[pair].append(note)
    if convention.tops:
        if convention.added is Added.TRAVELLERS:
            unscaled = Note(Reason.UNSCALED_TOTALS, {"boards": tuple(sorted(convention.tops))})
            session_notes.append(unscaled)
            for notes in pairs.values():
                if any(note.reason in (Reason.NOT_SCALED, Reason.SCALED_TO) for note in notes):
                    notes.append(unscaled)
        else:
            session_notes.append(Note(Reason.SCALED_TOTALS, {"field_top": field_top}))
    if convention.rounding is not None:
        everyone.append(Note(Reason.ROUNDED, {"places": convention.rounding}))
    most_boards = session_boards(session.results, session.ranking)
    if convention.factored:
        played: Counter[Pair] = Counter()
        for result in session.results:
            played.update(pairs_of(result, session.ranking))
        for pair, boards_played in sorted(played.items()):
            if boards_played < most_boards:
                note = Note(
                    Reason.FACTORED,
                    {"pair": pair.label, "played": boards_played, "boards": most_boards},
                )
                session_notes.append(note)
                pairs[pair].append(note)
    if convention.out_of is OutOf.SESSION and not session.scoring.in_imps:
        everyone.append(Note(Reason.SESSION_TOP, {"top": field_top, "boards": most_boards}))
    return _Notes(
        tuple(session_notes + everyone),
        {board: tuple(notes) for board, notes in boards.items()},
        {index: tuple(notes) for index, notes in lines.items()},
        {pair: tuple(notes) for pair, notes in pairs.items()},
        tuple(everyone),
    )


def check(
    session: SessionRecord,
    published: Published,
    convention: Convention | None = None,
    score: SessionScore | None = None,
) -> FileCheck:
    """Every published figure checked: against Scorekeeper's own count of the results
    (``score``, by default ``session.score()``: RULES.md §4), and where that differs against
    the count the file's way (``convention``, by default the one its figures show,
    :func:`convention_of`): each result's score (from the side the file gives it), each
    side's matchpoints or IMPs, then each pair's total, percentage and place, unless the
    ranking is that of a larger event (:func:`event_ranking`), which is said instead.

    A figure agrees when it is the exact figure rounded (half up) to the decimals the file
    writes it with, at least a sheet's own: 0.1 for matchpoints and totals, 0.01 for
    percentages (IMPs: the file's). A place the file gives to one of pairs the count finds level
    (with no tiebreak published) is explained: the file split the tie.

    ``published.results`` follows ``session.results`` one for one, or is empty.
    """
    scored = score if score is not None else session.score()
    convention = convention if convention is not None else convention_of(session, published)
    counted = count(session, published, convention)
    notes = _notes(session, published, convention)
    in_imps = session.scoring.in_imps
    least = 0 if in_imps else 1
    figures: list[FigureCheck] = []
    lines: dict[tuple[int, Side], FigureCheck] = {}
    for index, item in enumerate(scored.results):
        result = item.result
        given = published.of_result(index)
        computed_ns = result.score_ns
        for side, given_score, computed_score in (
            (Side.NS, given.score_ns, computed_ns),
            (Side.EW, given.score_ew, None if computed_ns is None else -computed_ns),
        ):
            if given_score is None:
                continue
            computed = None if computed_score is None else Decimal(computed_score)
            verdict = Verdict.CONFIRMED if given_score == computed_score else Verdict.DIFFERS
            figures.append(
                FigureCheck(
                    Figure.SCORE,
                    Decimal(given_score),
                    computed,
                    computed,
                    verdict,
                    board=result.board,
                    table=result.table,
                    side=side,
                )
            )
        line = counted.lines[index]
        other = (given.mp_ns, given.mp_ew) if in_imps else (given.imp_ns, given.imp_ew)
        kind = Figure.IMPS if in_imps else Figure.MATCHPOINTS
        for side, figure in zip(Side, other, strict=True):
            if figure is not None:  # a figure of the other scoring: nothing to compare with
                wrong = Figure.MATCHPOINTS if in_imps else Figure.IMPS
                figures.append(
                    FigureCheck(
                        wrong,
                        figure,
                        None,
                        None,
                        Verdict.DIFFERS,
                        board=result.board,
                        table=result.table,
                        side=side,
                    )
                )
        sides = (
            (Side.NS, given.figures(session.scoring)[0], (item.ns, item.shown_ns), line.ns, None),
            (
                Side.EW,
                given.figures(session.scoring)[1],
                (item.ew, item.shown_ew),
                line.ew,
                _shown_ew(line, result.is_artificial),
            ),
        )
        for side, figure, own, exact, shown in sides:
            if figure is None:
                continue
            verdict, own_figure, counted_figure = _verdict(
                figure, least, (own[0], own[1] if not in_imps else None), (exact, shown)
            )
            why = notes.boards.get(result.board, ()) + notes.lines.get(index, ())
            if in_imps:
                why += tuple(n for n in notes.everyone if n.reason is Reason.DIVISOR)
            checked = FigureCheck(
                kind,
                figure,
                own_figure,
                counted_figure,
                verdict,
                why if verdict is Verdict.EXPLAINED else (),
                board=result.board,
                table=result.table,
                side=side,
            )
            figures.append(checked)
            lines[(index, side)] = checked
    larger = event_ranking(session, published)
    standings: dict[tuple[Pair, Figure], FigureCheck] = {}
    if larger is None:
        for checked in _standing_checks(published, scored, counted, notes, in_imps):
            figures.append(checked)
            assert checked.pair is not None
            standings[(checked.pair, checked.figure)] = checked
    return FileCheck(convention, larger, tuple(figures), notes.session, counted, lines, standings)


def _standing_checks(
    published: Published, scored: SessionScore, counted: Count, notes: _Notes, in_imps: bool
) -> Iterator[FigureCheck]:
    pairs = counted.pairs
    for line in published.standings:
        own = scored.standing_of(line.pair)
        mine = pairs.get(line.pair)
        why = notes.pairs.get(line.pair, ()) + notes.everyone
        totals: list[tuple[Figure, Decimal | None, Fraction | None, Fraction | None, int]] = [
            (
                Figure.TOTAL,
                line.total,
                own.total if own else None,
                mine.total if mine else None,
                0 if in_imps else 1,
            )
        ]
        if not in_imps:
            totals.append(
                (
                    Figure.PERCENTAGE,
                    line.percentage,
                    own.percentage if own else None,
                    mine.percentage if mine else None,
                    2,
                )
            )
        for figure, given, own_exact, counted_exact, least in totals:
            if given is None:
                continue
            verdict, own_figure, counted_figure = _verdict(
                given, least, (own_exact, None), (counted_exact, None)
            )
            relevant = tuple(
                note
                for note in why
                if figure is Figure.PERCENTAGE or note.reason is not Reason.SESSION_TOP
            )
            yield FigureCheck(
                figure,
                given,
                own_figure,
                counted_figure,
                verdict,
                relevant if verdict is Verdict.EXPLAINED else (),
                pair=line.pair,
            )
        if line.rank is None:
            continue
        own_rank = own.rank if own else None
        counted_rank = mine.rank if mine else None
        place_notes: tuple[Note, ...] = ()
        if line.rank == own_rank:
            verdict = Verdict.CONFIRMED
        elif line.rank == counted_rank:
            verdict, place_notes = Verdict.EXPLAINED, (Note(Reason.PLACES),)
        elif mine is not None and mine.tied and _within_tie(line.rank, mine, counted):
            verdict = Verdict.EXPLAINED
            place_notes = (Note(Reason.TIE_SPLIT, {"rank": mine.rank}),)
        else:
            verdict = Verdict.DIFFERS
        yield FigureCheck(
            Figure.RANK,
            Decimal(line.rank),
            None if own_rank is None else Decimal(own_rank),
            None if counted_rank is None else Decimal(counted_rank),
            verdict,
            place_notes,
            pair=line.pair,
        )


def _within_tie(rank: int, pair: CountedPair, counted: Count) -> bool:
    """Whether ``rank`` is one of the places the pairs level with ``pair`` share."""
    for _side, placed in counted.rankings:
        if pair in placed:
            level = sum(1 for other in placed if other.rank == pair.rank)
            return pair.rank <= rank < pair.rank + level
    return False


def differences(
    session: SessionRecord, published: Published, convention: Convention | None = None
) -> list[Difference]:
    """Every published figure the results do not bear out (:func:`check`); empty when the
    file agrees with Scorekeeper's count or with its own way of scoring."""
    return list(check(session, published, convention).differences)
