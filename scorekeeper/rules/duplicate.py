"""A duplicate pairs session as a club keeps it: who sat where on each board, what each table
made of the board, and the session scored from that (RULES.md §2).

:class:`TableResult` is one table's result on one board, as a traveller or a results file
holds it: the board, the table, the round, the two pairs, and the contract, declarer and
tricks (or a pass, or artificial scores). :func:`score_session` matchpoints every board (or
scores it in IMPs: against the datum, Butler, or against every other result, cross-IMPs) and
ranks the pairs: one ranking for the whole
field, or one per direction when pairs are numbered within their direction (a Mitchell).

>>> results = [
...     TableResult(1, 1, 1, ns=1, ew=1, contract=Contract(4, "S"), declarer=Seat.NORTH, tricks=10),
...     TableResult(1, 2, 1, ns=2, ew=2, contract=Contract(2, "S"), declarer=Seat.NORTH, tricks=9),
... ]
>>> [result.score_ns for result in results]
[420, 140]
>>> session = score_session(results, ranking=Ranking.BY_DIRECTION)
>>> [(s.pair.label, s.total, s.percentage) for s in session.standings(Side.NS)]
[('NS1', Fraction(2, 1), Fraction(100, 1)), ('NS2', Fraction(0, 1), Fraction(0, 1))]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from scorekeeper.rules.bridge import (
    Artificial,
    BoardError,
    BoardResult,
    BridgeRule,
    Contract,
    ContractError,
    ExactMatchpoints,
    board_matchpoints,
    board_vulnerability,
    butler_datum,
    contract_score,
    imps,
)
from scorekeeper.rules.common import Seat, Side

__all__ = [
    "ARTIFICIAL_IMPS",
    "BUTLER_ARTIFICIAL_IMPS",
    "Pair",
    "Ranking",
    "ScoredResult",
    "Scoring",
    "SessionRecord",
    "SessionScore",
    "Standing",
    "TableResult",
    "Totals",
    "cross_imps",
    "expected_results",
    "most_results",
    "score_board",
    "score_session",
]


class Ranking(StrEnum):
    """How a session's pairs are numbered and ranked."""

    ONE_FIELD = "field"
    """Pairs numbered 1, 2, 3 ... across the room, one ranking (a Howell)."""
    BY_DIRECTION = "direction"
    """North-South and East-West pairs each numbered from 1, one ranking per direction (a
    Mitchell)."""
    ARROW_SWITCHED = "switched"
    """Pairs numbered within their direction as in a Mitchell, ranked in one field: an
    arrow-switched Mitchell, whose pairs sat the other way in some rounds, so that each has
    played some boards both ways."""

    @property
    def numbered_by_direction(self) -> bool:
        """Whether a pair is named by its number and its direction ("NS3", "EW3")."""
        return self is not Ranking.ONE_FIELD

    @property
    def fields(self) -> tuple[Side | None, ...]:
        """The rankings of a session: one per direction, or one (``None``) for everyone."""
        return (Side.NS, Side.EW) if self is Ranking.BY_DIRECTION else (None,)


class Scoring(StrEnum):
    """How each board is scored in a pairs session."""

    MATCHPOINTS = "matchpoints"
    """2 per lower score and 1 per equal one in the same direction; Neuberg for a board with
    fewer results; the session as a percentage of the top."""
    BUTLER = "butler"
    """IMPs against the board's datum (:func:`~scorekeeper.rules.bridge.butler_datum`); the
    session as the sum of the IMPs."""
    CROSS_IMPS = "cross-imps"
    """Each result IMPed against every other result of the board, averaged over them
    (:func:`cross_imps`); the session as the sum of the IMPs."""

    @property
    def in_imps(self) -> bool:
        """Whether boards are scored in IMPs (Butler or cross-IMPs): no top, no percentage,
        the pairs ranked by their total."""
        return self is not Scoring.MATCHPOINTS


class Totals(StrEnum):
    """How a pair's per-board matchpoints add up to its total."""

    EXACT = "exact"
    """The exact figures added up (a Neuberg-scaled figure is a fraction); only what is shown
    is rounded, so pairs level on exact figures share their place (RULES.md §4)."""
    BOARD_TENTHS = "board-tenths"
    """The figures as the travellers show them (to 0.1) added up, as some club programs total
    a session (Magic Contest): kept for a session read from a file scored that way."""


ARTIFICIAL_IMPS = {
    Artificial.AVERAGE_PLUS: 3,
    Artificial.AVERAGE: 0,
    Artificial.AVERAGE_MINUS: -3,
}
"""What an artificial score is worth in IMPs, in Butler scoring and in cross-IMPs alike (Law
12C2: average-plus is 3 IMPs, average-minus −3)."""
BUTLER_ARTIFICIAL_IMPS = ARTIFICIAL_IMPS


@dataclass(frozen=True, order=True, slots=True)
class Pair:
    """A pair of the session: its number, and its direction when pairs are numbered within
    their direction (``None`` in a one-field session).

    >>> Pair(3, Side.EW).label, Pair(7).label
    ('EW3', '7')
    """

    number: int
    direction: Side | None = None

    @property
    def label(self) -> str:
        """The pair as travellers write it: "NS3", "EW3", or "7" in a one-field session."""
        return f"{self.direction.value if self.direction else ''}{self.number}"


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table's result on one board.

    Played: ``contract``, ``declarer`` and ``tricks`` (the tricks the declarer took).
    Passed out: none of them. Not played: an artificial score for each side
    (``artificial_ns`` and ``artificial_ew``). ``lead`` is the opening lead as results files
    write it ("S9"), from a file or tapped at the table; it does not count in the score
    (:func:`scorekeeper.rules.hands.check_lead` checks it against the board's hands).

    ``ns`` and ``ew`` are the pairs that sat North-South and East-West on the board.
    ``switched`` says that where pairs are numbered within their direction, they sat the
    other way round: ``ns`` is an East-West pair's number and ``ew`` a North-South pair's
    (an arrow switch, or pairs that sat the wrong way). Each earns the score of the seats it
    held.

    >>> TableResult(3, 1, 2, 5, 6, Contract(3, "NT", 1), Seat.EAST, 7).score_ns
    500
    >>> TableResult(3, 1, 2, 5, 6).passed_out, TableResult(3, 1, 2, 5, 6).score_ns
    (True, 0)
    """

    board: int
    table: int
    round: int
    ns: int
    """The North-South pair's number."""
    ew: int
    """The East-West pair's number."""
    contract: Contract | None = None
    declarer: Seat | None = None
    tricks: int | None = None
    artificial_ns: Artificial | None = None
    artificial_ew: Artificial | None = None
    lead: str = ""
    switched: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.board, int) or isinstance(self.board, bool) or self.board < 1:
            raise BoardError(BridgeRule.BOARD_NUMBER, value=self.board)
        for number in (self.table, self.round, self.ns, self.ew):
            if not isinstance(number, int) or isinstance(number, bool) or number < 1:
                raise BoardError(BridgeRule.SEATING_NUMBER, value=number)
        played = (self.contract, self.declarer, self.tricks)
        if None in played and played != (None, None, None):
            raise BoardError(BridgeRule.PASSED_OUT)
        if self.contract is not None:
            if not isinstance(self.contract, Contract):
                raise ContractError(BridgeRule.CONTRACT_TYPE, value=self.contract)
            if not isinstance(self.declarer, Seat):
                if self.declarer not in {seat.value for seat in Seat}:
                    raise BoardError(BridgeRule.DECLARER, value=self.declarer)
                object.__setattr__(self, "declarer", Seat(str(self.declarer)))
        if (self.artificial_ns, self.artificial_ew) != (None, None):
            adjusted = BoardResult.adjusted(self.artificial_ns, self.artificial_ew)  # type: ignore[arg-type]
            if self.contract is not None:
                raise BoardError(BridgeRule.REAL_AND_ARTIFICIAL)
            object.__setattr__(self, "artificial_ns", adjusted.artificial_ns)
            object.__setattr__(self, "artificial_ew", adjusted.artificial_ew)
        # Checks the tricks against the contract's rules (0 to 13).
        _ = self.score_ns

    @property
    def passed_out(self) -> bool:
        """Whether the four players passed: a score of 0, matchpointed like any other."""
        return self.contract is None and self.artificial_ns is None

    @property
    def is_artificial(self) -> bool:
        """Whether the board was not played at this table (artificial scores)."""
        return self.artificial_ns is not None

    @property
    def pairs(self) -> tuple[int, int]:
        return (self.ns, self.ew)

    @property
    def score_ns(self) -> int | None:
        """North-South's score by Law 77, the vulnerability from the board number; ``None``
        for artificial scores."""
        if self.is_artificial:
            return None
        if self.contract is None or self.declarer is None or self.tricks is None:
            return 0
        side = self.declarer.side
        vulnerable = board_vulnerability(self.board).is_vulnerable(side)
        contract = self.contract
        score = contract_score(
            contract.level, contract.strain, contract.doubled, vulnerable, self.tricks
        )
        return score if side is Side.NS else -score

    @property
    def board_result(self) -> BoardResult:
        """The result as the matchpointing of a board takes it."""
        if self.artificial_ns is not None and self.artificial_ew is not None:
            return BoardResult.adjusted(self.artificial_ns, self.artificial_ew)
        return BoardResult(self.score_ns)


@dataclass(frozen=True, slots=True)
class ScoredResult:
    """A table's result with what each direction earned on it: matchpoints, exactly (a
    Neuberg-scaled figure is a fraction), or IMPs (whole in Butler scoring, a fraction in
    cross-IMPs)."""

    result: TableResult
    ns: Fraction
    ew: Fraction
    top: int
    """The board's top in matchpoints; 0 in IMPs."""
    datum: int | None = None
    """The board's datum, in Butler scoring."""

    @property
    def shown_ns(self) -> Fraction:
        """North-South's figure as the traveller shows it (:attr:`ExactMatchpoints.published`)."""
        return self._shown()[0]

    @property
    def shown_ew(self) -> Fraction:
        """East-West's figure as the traveller shows it: the top less North-South's on a real
        result, so that the two add up to the top."""
        return self._shown()[1]

    def _shown(self) -> tuple[Fraction, Fraction]:
        if not self.top:  # IMPs: rounded only where they are shown
            return self.ns, self.ew
        return ExactMatchpoints(self.ns, self.ew, self.top, self.result.is_artificial).published

    @property
    def ns_percentage(self) -> Fraction:
        return 100 * self.ns / self.top if self.top else Fraction(50)

    @property
    def ew_percentage(self) -> Fraction:
        return 100 * self.ew / self.top if self.top else Fraction(50)


@dataclass(frozen=True, slots=True)
class Standing:
    """A pair's place in its ranking."""

    pair: Pair
    rank: int
    tied: bool
    """Whether another pair has the same place."""
    total: Fraction
    """Matchpoints, exactly (or, as :attr:`Totals.BOARD_TENTHS`, the per-board figures as
    shown, added up), or IMPs."""
    top: int
    """The tops of the boards the pair has a result on, added up; 0 in IMPs."""
    boards: int

    @property
    def percentage(self) -> Fraction | None:
        """The total as a percentage of the top, exactly; ``None`` in IMPs."""
        return self.total * 100 / self.top if self.top else None


@dataclass(frozen=True, slots=True)
class SessionScore:
    """A session scored: every result with its figures (in the order given), and the
    rankings (one, or North-South then East-West)."""

    scoring: Scoring
    ranking: Ranking
    results: tuple[ScoredResult, ...]
    rankings: tuple[tuple[Side | None, tuple[Standing, ...]], ...]

    def standings(self, direction: Side | None = None) -> tuple[Standing, ...]:
        """The ranking of ``direction`` (``None``: the one ranking of a one-field session)."""
        for side, standings in self.rankings:
            if side == direction:
                return standings
        return ()

    def standing_of(self, pair: Pair) -> Standing | None:
        for _field, standings in self.rankings:
            for standing in standings:
                if standing.pair == pair:
                    return standing
        return None

    def board(self, number: int) -> tuple[ScoredResult, ...]:
        """The results of one board, North-South's best first: its traveller."""
        found = [scored for scored in self.results if scored.result.board == number]
        return tuple(sorted(found, key=lambda s: (-s.ns, s.result.table)))

    def of_pair(self, pair: Pair) -> tuple[ScoredResult, ...]:
        """The results a pair played, by round and board: its personal score card."""
        found = [scored for scored in self.results if pair in pairs_of(scored.result, self.ranking)]
        return tuple(sorted(found, key=lambda s: (s.result.round, s.result.board)))


def pairs_of(result: TableResult, ranking: Ranking) -> tuple[Pair, Pair]:
    """The two pairs at the table, the one that sat North-South first.

    >>> pairs_of(TableResult(1, 1, 4, 2, 5, switched=True), Ranking.ARROW_SWITCHED)
    (Pair(number=2, direction=<Side.EW: 'EW'>), Pair(number=5, direction=<Side.NS: 'NS'>))
    """
    if not ranking.numbered_by_direction:
        return Pair(result.ns), Pair(result.ew)
    if result.switched:
        return Pair(result.ns, Side.EW), Pair(result.ew, Side.NS)
    return Pair(result.ns, Side.NS), Pair(result.ew, Side.EW)


def expected_results(results: Iterable[TableResult]) -> dict[int, int]:
    """How many results each board has, artificial ones included: the N of Neuberg's formula
    when every scheduled result is in."""
    counts: dict[int, int] = {}
    for result in results:
        counts[result.board] = counts.get(result.board, 0) + 1
    return counts


def most_results(results: Iterable[TableResult]) -> int:
    """The N of Neuberg's formula for a board when nothing says how many results it should
    have had (no movement, a file that does not say): the most results any board of the
    session has, artificial ones included (RULES.md §4, Neuberg everywhere).

    >>> most_results([TableResult(1, 1, 1, 1, 2), TableResult(1, 2, 1, 3, 4),
    ...               TableResult(2, 1, 2, 1, 4)])
    2
    """
    return max(expected_results(results).values(), default=0)


def _score_butler(results: Sequence[TableResult]) -> list[ScoredResult]:
    real = [result.score_ns for result in results if result.score_ns is not None]
    datum = butler_datum(real) if real else None
    scored = []
    for result in results:
        if result.artificial_ns is not None and result.artificial_ew is not None:
            ns = ARTIFICIAL_IMPS[result.artificial_ns]
            ew = ARTIFICIAL_IMPS[result.artificial_ew]
        else:
            assert result.score_ns is not None and datum is not None
            ns = imps(result.score_ns - datum)
            ew = -ns
        scored.append(ScoredResult(result, Fraction(ns), Fraction(ew), 0, datum))
    return scored


def cross_imps(scores: Sequence[int]) -> list[Fraction]:
    """Each North-South score of a board IMPed against every other score of the board and
    averaged over them: (Σ over the other scores s′ of IMPs(s − s′)) / (n − 1), n the board's
    real results, in the order given; East-West score the opposite. A board played once has
    nothing to compare with: 0.

    This is ACBLscore's "Average IMPs" (ACBLscore manual, IMP scoring methods: "each result
    is IMPed with every other result on a board; the sum of the IMP comparisons is then
    divided by the number of comparisons"), as the EBU (White Book §4.2), BBO and the club
    programs score cross-IMP pairs. A board played fewer times is not scaled: its figures are
    already an average per comparison.

    >>> [str(figure) for figure in cross_imps([420, 170, 300])]
    ['9/2', '-5', '1/2']
    >>> cross_imps([620])
    [Fraction(0, 1)]
    """
    if len(scores) < 2:
        return [Fraction(0) for _ in scores]
    comparisons = len(scores) - 1
    return [
        Fraction(sum(imps(score - other) for other in scores), comparisons) for score in scores
    ]  # a score against itself is worth 0 IMPs


def _score_cross_imps(results: Sequence[TableResult]) -> list[ScoredResult]:
    """Each real result's cross-IMPs (:func:`cross_imps`) among the board's real results; an
    artificial score ±3 IMPs, as in Butler (:data:`ARTIFICIAL_IMPS`)."""
    real = [result.score_ns for result in results if result.score_ns is not None]
    figures = iter(cross_imps(real))
    scored = []
    for result in results:
        if result.artificial_ns is not None and result.artificial_ew is not None:
            ns = Fraction(ARTIFICIAL_IMPS[result.artificial_ns])
            ew = Fraction(ARTIFICIAL_IMPS[result.artificial_ew])
        else:
            ns = next(figures)
            ew = -ns
        scored.append(ScoredResult(result, ns, ew, 0))
    return scored


@dataclass
class _Tally:
    total: Fraction = field(default_factory=Fraction)
    top: int = 0
    boards: int = 0

    @property
    def key(self) -> Fraction:
        """What places the pair: its share of its own top (its total in IMPs)."""
        return self.total / self.top if self.top else self.total


def score_board(
    rows: tuple[TableResult, ...], scoring: Scoring, expected: int
) -> tuple[ScoredResult, ...]:
    """One board's results scored (``expected``: its Neuberg N in matchpoints, at least the
    board's results; 0 in IMPs), in the order given (RULES.md §4). A board's figures depend
    on its own results alone."""
    if scoring is Scoring.BUTLER:
        return tuple(_score_butler(rows))
    if scoring is Scoring.CROSS_IMPS:
        return tuple(_score_cross_imps(rows))
    points = board_matchpoints([row.board_result for row in rows], expected=expected)
    return tuple(
        ScoredResult(row, mp.ns, mp.ew, mp.top) for row, mp in zip(rows, points, strict=True)
    )


_scored_board = lru_cache(maxsize=4096)(score_board)
"""A session's boards, each scored once per state of its results: a result entered
re-scores its board, and the session's other boards are found as they were scored."""


def score_session(
    results: Sequence[TableResult],
    *,
    ranking: Ranking = Ranking.ONE_FIELD,
    scoring: Scoring = Scoring.MATCHPOINTS,
    expected: Mapping[int, int] | None = None,
    tiebreaks: Mapping[Pair, int] | None = None,
    totals: Totals = Totals.EXACT,
) -> SessionScore:
    """Score a pairs session from its results (RULES.md §2, §4).

    Each board is matchpointed by :func:`~scorekeeper.rules.bridge.board_matchpoints`, a
    board with fewer results than its N Neuberg-scaled: ``expected`` gives a board's N (a
    movement's schedule, or what a file says); a board it does not name expects the most
    results any board has (:func:`most_results`). In Butler scoring each North-South score
    earns the IMPs of its difference from the board's datum; in cross-IMPs the average of its
    IMPs against every other score of the board (:func:`cross_imps`); in both an artificial
    score is ±3 IMPs.

    A pair's total adds its exact per-board figures (``totals``: or the figures as shown, to
    0.1, for a file scored that way); matchpoint rankings go by the exact share of the pair's
    own top, so a pair that sat out a round is not behind for it; IMP rankings by total
    IMPs. Nothing is rounded here: only what is shown is.

    Pairs level on exact figures share the place (the next place is skipped), unless
    ``tiebreaks`` (as a results file publishes them) puts one ahead: the higher figure first.

    A pair cannot play a board twice (:class:`BoardError`).

    Three results of a board scheduled four times: Neuberg's figures are thirds.

    >>> played = [TableResult(1, table, 1, 2 * table - 1, 2 * table, Contract(1, "NT"),
    ...                       Seat.NORTH, tricks) for table, tricks in ((1, 7), (2, 8), (3, 9))]
    >>> [(str(s.ns), str(s.shown_ns)) for s in score_session(played, expected={1: 4}).board(1)]
    [('17/3', '57/10'), ('3', '3'), ('1/3', '3/10')]
    """
    by_board: dict[int, list[int]] = {}
    seen: set[tuple[int, Pair]] = set()
    for index, result in enumerate(results):
        for pair in pairs_of(result, ranking):
            if (result.board, pair) in seen:
                raise BoardError(BridgeRule.PAIR_TWICE, pair=pair.label, board=result.board)
            seen.add((result.board, pair))
        by_board.setdefault(result.board, []).append(index)
    most = most_results(results)
    scored: dict[int, ScoredResult] = {}
    for board, indexes in by_board.items():
        rows = tuple(results[index] for index in indexes)
        if scoring.in_imps:
            figures = _scored_board(rows, scoring, 0)
        else:
            wanted = (expected or {}).get(board, most)
            figures = _scored_board(rows, scoring, max(wanted, len(rows)))
        scored.update(zip(indexes, figures, strict=True))
    ordered = tuple(scored[index] for index in range(len(results)))

    tallies: dict[Pair, _Tally] = {}
    for item in ordered:
        ns_pair, ew_pair = pairs_of(item.result, ranking)
        if totals is Totals.BOARD_TENTHS:
            figures_added = (item.shown_ns, item.shown_ew)
        else:
            figures_added = (item.ns, item.ew)
        for pair, figure in zip((ns_pair, ew_pair), figures_added, strict=True):
            tally = tallies.setdefault(pair, _Tally())
            tally.total += figure
            tally.top += item.top
            tally.boards += 1

    breaks = tiebreaks or {}
    rankings = []
    for direction in ranking.fields:
        places = {
            pair: (tallies[pair].key, breaks.get(pair, 0))
            for pair in tallies
            if direction is None or pair.direction == direction
        }
        pairs = sorted(places, key=lambda p: (-places[p][0], -places[p][1], p.number))
        sharing = Counter(places.values())
        standings = []
        ahead = 0
        for index, pair in enumerate(pairs):
            if index and places[pair] != places[pairs[index - 1]]:
                ahead = index  # every pair before this one is ahead of it
            tally, tied = tallies[pair], sharing[places[pair]] > 1
            standings.append(Standing(pair, ahead + 1, tied, tally.total, tally.top, tally.boards))
        rankings.append((direction, tuple(standings)))
    return SessionScore(scoring, ranking, ordered, tuple(rankings))


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A whole session as a results file carries it: what it was, how it is scored, every
    table's result, the pairs' names, and the deals when the file has them."""

    results: tuple[TableResult, ...]
    ranking: Ranking = Ranking.ONE_FIELD
    scoring: Scoring = Scoring.MATCHPOINTS
    event: str = ""
    date: date | None = None
    club: str = ""
    """The club that ran the session, when known."""
    names: Mapping[Pair, str] = field(default_factory=dict)
    """Each pair's players as one line ("Anne Martin - Bruno Petit"); pairs without are absent."""
    deals: Mapping[int, str] = field(default_factory=dict)
    """Board number to its deal in PBN notation ("N:KQT6.AJT.T984.65 ..."), when known."""
    tiebreaks: Mapping[Pair, int] = field(default_factory=dict)
    """Tiebreak figures a file published for equal totals (the higher first)."""
    numbers: Mapping[Pair, tuple[str, str]] = field(default_factory=dict)
    """Each pair's two players' federation numbers, in the order its names give the players
    ("" for a player without one); pairs with none are absent."""
    expected: Mapping[int, int] | None = None
    """Results each board should have (Neuberg's N): the movement's schedule, or what a file
    says; a board it does not name expects the most results any board has."""
    totals: Totals = Totals.EXACT
    """How per-board matchpoints add up: exactly, unless a file was scored otherwise."""

    def as_one_field(self) -> SessionRecord:
        """An arrow-switched session with its pairs numbered across the room, as one-winner
        Mitchells are published and as results files number a one-field session: the
        North-South pairs keep their numbers and the East-West pairs follow them (East-West
        pair 3 of a 7-table Mitchell is pair 10). Any other session is as it is.

        >>> record = SessionRecord((TableResult(1, 1, 1, 1, 1),
        ...     TableResult(2, 1, 2, 2, 1, switched=True)), ranking=Ranking.ARROW_SWITCHED)
        >>> [r.pairs for r in record.as_one_field().results]
        [(1, 2), (3, 1)]
        """
        if self.ranking is not Ranking.ARROW_SWITCHED:
            return self
        pairs = {pair for result in self.results for pair in pairs_of(result, self.ranking)}
        pairs |= set(self.names) | set(self.tiebreaks)
        after = max((pair.number for pair in pairs if pair.direction is Side.NS), default=0)

        def across(pair: Pair) -> Pair:
            return Pair(pair.number + (after if pair.direction is Side.EW else 0))

        results = []
        for result in self.results:
            ns, ew = (across(pair).number for pair in pairs_of(result, self.ranking))
            results.append(replace(result, ns=ns, ew=ew, switched=False))
        return replace(
            self,
            results=tuple(results),
            ranking=Ranking.ONE_FIELD,
            names={across(pair): names for pair, names in self.names.items()},
            tiebreaks={across(pair): figure for pair, figure in self.tiebreaks.items()},
            numbers={across(pair): numbers for pair, numbers in self.numbers.items()},
        )

    def score(self) -> SessionScore:
        """The session scored (:func:`score_session`)."""
        return score_session(
            self.results,
            ranking=self.ranking,
            scoring=self.scoring,
            expected=self.expected,
            tiebreaks=self.tiebreaks,
            totals=self.totals,
        )
