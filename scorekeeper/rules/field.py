"""A field of several sections: one evening's sections A, B ... or a simultaneous pairs played
by many clubs on the same deals (RULES.md §2 and §4).

Each section is a session of its own (its movement, tables and pairs, :class:`SessionRecord`).
Sections that play the same set of boards can be scored **across the field**: every result of
a board is matchpointed against every other result of that board in the whole field (or IMPed,
in Butler or cross-IMPs), a board with fewer results than the field expects scaled with
Neuberg's formula, N being the results each section expects of it added up. Or each section is
scored **on its own**, as if the others did not exist. Either way the field is ranked overall
and per section, a section's places counted among its own pairs.

Two sections of two tables, on the same board: across the field, section B's 420 beats every
other result, and A's 170 beats both 140s.

>>> from scorekeeper.rules.bridge import Contract
>>> from scorekeeper.rules.common import Seat
>>> from scorekeeper.rules.duplicate import TableResult
>>> def played(table, level, tricks):
...     return TableResult(1, table, 1, table, table, Contract(level, "S"), Seat.NORTH, tricks)
>>> a = Section("A", SessionRecord((played(1, 3, 9), played(2, 2, 8)), Ranking.BY_DIRECTION))
>>> b = Section("B", SessionRecord((played(1, 4, 10), played(2, 2, 8)), Ranking.BY_DIRECTION))
>>> field = score_field([a, b])
>>> [(s.pair.label, s.rank, str(s.total)) for s in field.standings(Side.NS)]
[('B NS1', 1, '6'), ('A NS1', 2, '4'), ('A NS2', 3, '1'), ('B NS2', 3, '1')]
>>> [(s.pair.label, s.rank) for s in field.section_standings("B", Side.NS)]
[('B NS1', 1), ('B NS2', 2)]

Each section on its own, both winners top their board:

>>> [(s.pair.label, s.rank) for s in score_field([a, b], across=False).standings(Side.NS)]
[('A NS1', 1), ('B NS1', 1), ('A NS2', 3), ('B NS2', 3)]
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from scorekeeper.rules.bridge import BoardError, BridgeRule
from scorekeeper.rules.common import Rule, RuleError, Side
from scorekeeper.rules.duplicate import (
    Pair,
    Ranking,
    ScoredResult,
    Scoring,
    SessionRecord,
    SessionScore,
    Standing,
    TableResult,
    most_results,
    pairs_of,
    score_board,
)

__all__ = [
    "FieldError",
    "FieldPair",
    "FieldResult",
    "FieldRule",
    "FieldScore",
    "FieldStanding",
    "Section",
    "clear_memo",
    "free_section_name",
    "score_field",
    "section_name",
]


class FieldRule(Rule):
    """What makes a field unscorable."""

    SECTION_TWICE = "section-twice"

    @property
    def english(self) -> str:
        return "Two sections of the field are named {section}."


class FieldError(RuleError):
    """A field the engine cannot score."""


CYCLE = 16
"""Boards repeat their dealer and vulnerability every 16 (RULES.md §2): a board moved by whole
cycles is scored as itself."""


@dataclass(frozen=True, slots=True)
class Section:
    """One section of the field: its name ("A", or a club's), its session, and the set of
    boards it plays (sections on the same set are scored across the field together)."""

    name: str
    record: SessionRecord
    boards: str = ""


@dataclass(frozen=True, order=True, slots=True)
class FieldPair:
    """A pair of the field: its section and its number there.

    >>> FieldPair("B", Pair(3, Side.EW)).label
    'B EW3'
    """

    section: str
    pair: Pair

    @property
    def label(self) -> str:
        return f"{self.section} {self.pair.label}"


@dataclass(frozen=True, slots=True)
class FieldStanding:
    """A pair's place in a ranking of the field (overall, or among its section's pairs), with
    its figures (:class:`Standing`, whose pair is numbered as its section numbers it, placed
    in the same ranking)."""

    pair: FieldPair
    rank: int
    tied: bool
    standing: Standing

    @property
    def total(self) -> Fraction:
        return self.standing.total

    @property
    def percentage(self) -> Fraction | None:
        return self.standing.percentage


@dataclass(frozen=True, slots=True)
class FieldResult:
    """A table's result in its section (numbered as there), with its figures in the field."""

    section: str
    scored: ScoredResult
    """The figures, the result's pairs and board as its section numbers them."""


class FieldScore:
    """The field scored: its rankings overall and per section, and each board's results.

    Each list is drawn from the boards' figures the first time it is asked for, and kept: a
    section's page asks for its own pairs and results alone, a board's traveller for that
    board's results, and neither costs more with the size of the field than its own part of
    it (a national simultaneous's field ranks two thousand pairs)."""

    __slots__ = ("_by_section", "_figures", "_overall", "_results", "across", "ranking", "sections")

    def __init__(
        self, across: bool, ranking: Ranking, sections: tuple[Section, ...], figures: _Figures
    ) -> None:
        self.across = across
        self.ranking = ranking
        """How the field's pairs are ranked: one list per direction when every section's is,
        one list for all otherwise."""
        self.sections = sections
        self._figures = figures
        self._overall: tuple[tuple[Side | None, tuple[FieldStanding, ...]], ...] | None = None
        self._results: tuple[FieldResult, ...] | None = None
        self._by_section: dict[Side | None, dict[str, tuple[FieldStanding, ...]]] = {}

    def __repr__(self) -> str:
        return f"FieldScore(across={self.across}, sections={[s.name for s in self.sections]})"

    def __eq__(self, other: object) -> bool:
        """Two scores are equal when every figure, ranking and result is."""
        if not isinstance(other, FieldScore):
            return NotImplemented
        return (self.across, self.ranking, self.sections, self.results, self.overall) == (
            other.across,
            other.ranking,
            other.sections,
            other.results,
            other.overall,
        )

    __hash__ = None  # type: ignore[assignment]  # equal by figures that it draws when asked

    @property
    def overall(self) -> tuple[tuple[Side | None, tuple[FieldStanding, ...]], ...]:
        """The field's rankings, one per direction where it ranks so (else one)."""
        if self._overall is None:
            self._overall = tuple(
                (direction, self._figures.standings(direction)) for direction in self.ranking.fields
            )
        return self._overall

    @property
    def results(self) -> tuple[FieldResult, ...]:
        """Every result of the field, section after section, each in its section's order."""
        if self._results is None:
            self._results = tuple(
                found
                for index in range(len(self.sections))
                for found in self._figures.section_results(index)
            )
        return self._results

    def standings(self, direction: Side | None = None) -> tuple[FieldStanding, ...]:
        """The whole field's ranking of ``direction`` (``None``: the one ranking)."""
        return next((found for side, found in self.overall if side == direction), ())

    def section_standings(
        self, section: str, direction: Side | None = None
    ) -> tuple[FieldStanding, ...]:
        """One section's pairs in the field's order, placed among themselves."""
        if direction not in self.ranking.fields:
            return ()
        index = self._index(section)
        return _placed(self._figures.standings(direction, index)) if index is not None else ()

    def standings_by_section(
        self, direction: Side | None = None
    ) -> dict[str, tuple[FieldStanding, ...]]:
        """Every section's ``section_standings``, in one pass over the field's ranking (a page
        listing the whole field with each pair's place in its section)."""
        found = self._by_section.get(direction)
        if found is None:
            grouped: dict[str, list[FieldStanding]] = {s.name: [] for s in self.sections}
            for standing in self.standings(direction):
                grouped[standing.pair.section].append(standing)
            found = self._by_section[direction] = {
                name: _placed(standings) for name, standings in grouped.items()
            }
        return dict(found)

    def section_score(self, name: str) -> SessionScore:
        """One section as its own pages show it: its results with their figures in the field,
        in its own order, and its pairs placed among themselves, one ranking per direction
        where the section ranks so (``KeyError`` for a section the field does not have)."""
        index = self._index(name)
        if index is None:
            raise KeyError(name)
        section = self.sections[index]
        ranking = section.record.ranking
        own = [s for side in self.ranking.fields for s in self._figures.standings(side, index)]
        rankings = []
        for side in ranking.fields:
            found = [s for s in own if side is None or s.pair.pair.direction == side]
            rankings.append((side, tuple(s.standing for s in _placed(found))))
        return SessionScore(
            section.record.scoring,
            ranking,
            tuple(result.scored for result in self._figures.section_results(index)),
            tuple(rankings),
        )

    def standing_of(self, pair: FieldPair) -> FieldStanding | None:
        for _side, standings in self.overall:
            for standing in standings:
                if standing.pair == pair:
                    return standing
        return None

    def board(self, number: int, boards: str = "") -> tuple[FieldResult, ...]:
        """The field's traveller of a board of a set of boards: North-South's best first
        (scored on its own, a section's results are still its own section's figures)."""
        found = self._figures.board_results(number, boards)
        return tuple(sorted(found, key=lambda r: (-r.scored.ns, r.section, r.scored.result.table)))

    def _index(self, name: str) -> int | None:
        return next((i for i, section in enumerate(self.sections) if section.name == name), None)


def section_name(count: int) -> str:
    """The name of the section after ``count`` others: A, B, ... Z, then AA, AB ...

    >>> [section_name(count) for count in (0, 1, 25, 26, 27, 52)]
    ['A', 'B', 'Z', 'AA', 'AB', 'BA']
    """
    letters = ""
    while True:
        count, letter = divmod(count, 26)
        letters = chr(ord("A") + letter) + letters
        if count == 0:
            return letters
        count -= 1


def free_section_name(taken: set[str]) -> str:
    """The first section's name not ``taken``: A, B, ... Z, AA ...

    >>> free_section_name({"A", "C"})
    'B'
    """
    count = 0
    while section_name(count) in taken:
        count += 1
    return section_name(count)


def score_field(sections: Sequence[Section], *, across: bool = True) -> FieldScore:
    """Score a field of sections (see the module's docstring). ``across``: sections on the
    same set of boards are matchpointed (or IMPed) together, each board's N the sum of its
    sections' N (their movements' schedules, or the most results any of their boards has);
    otherwise each section alone, as :meth:`SessionRecord.score` scores it. Every section is
    scored as the first one is (matchpoints, Butler or cross-IMPs); the overall ranking places
    pairs by the same figures as a session does (their share of their own top, or their
    IMPs), pairs level on them sharing the place.

    The field is scored as one session whose pairs are numbered one section after another and
    whose boards are told apart by the group that matchpoints them together (a board moved by
    whole 16-board cycles keeps its dealer and vulnerability). Sections' names must differ
    (:class:`FieldError`).

    A board's figures depend on that board's results alone (RULES.md §4), and a pair's total
    is its figures on each board added up (RULES.md §2): each board is scored through a memo
    kept by its inputs (its results across every section, its N, the scoring;
    :data:`BOARDS_KEPT` of them), and a field scored again after a change adds up anew only
    the boards whose inputs changed, from the totals of the last time it was scored. The
    figures are exact, so the totals are those counted from scratch (:func:`clear_memo`)."""
    names = [section.name for section in sections]
    if len(set(names)) != len(names):
        shared = next(name for name in names if names.count(name) > 1)
        raise FieldError(FieldRule.SECTION_TWICE, section=shared)
    scoring = sections[0].record.scoring if sections else Scoring.MATCHPOINTS
    by_direction = bool(sections) and all(
        section.record.ranking is Ranking.BY_DIRECTION for section in sections
    )
    ranking = Ranking.BY_DIRECTION if by_direction else Ranking.ONE_FIELD
    if across:
        sets = list(dict.fromkeys(section.boards for section in sections))
        group = [sets.index(section.boards) for section in sections]
    else:
        group = list(range(len(sections)))

    parts = [_parts_of(section.record, by_direction) for section in sections]
    for index, part in enumerate(parts):
        if part.twice is not None:
            _pair_twice(sections, parts, group, index)

    # Each board of the field: its N, and the sections' results on it, section by section.
    expected: dict[tuple[int, int], int] = {}
    chunks: dict[tuple[int, int], list[tuple[int, tuple[TableResult, ...], _Seats]]] = {}
    for index, (section, part) in enumerate(zip(sections, parts, strict=True)):
        schedule = section.record.expected or {}
        for board in part.boards.keys() | schedule.keys():
            key = (group[index], board)
            expected[key] = expected.get(key, 0) + schedule.get(board, part.most)
        for board, rows in part.boards.items():
            chunks.setdefault((group[index], board), []).append((index, rows, part.seats[board]))

    shape = (tuple(names), tuple(group), by_direction, scoring)
    last = _last_scored.get(shape)
    boards: dict[tuple[int, int], _Board] = {}
    tallies = dict(last.tallies) if last is not None else {}
    for key, found in chunks.items():
        results = sum(len(rows) for _index, rows, _seats in found)
        wanted = 0 if scoring.in_imps else max(expected[key], results)
        signature = (wanted, tuple(found))
        before = last.boards.get(key) if last is not None else None
        if before is not None and before.signature == signature:
            boards[key] = before
            continue
        now = _board_of(signature, scoring)
        if before is not None:
            _add(tallies, before, -1)
        _add(tallies, now, 1)
        boards[key] = now
    if last is not None:
        for key, gone in last.boards.items():
            if key not in boards:
                _add(tallies, gone, -1)
    state = _Scored(boards, tallies)
    with _last_lock:
        _last_scored[shape] = state
        _last_scored.move_to_end(shape)
        while len(_last_scored) > FIELDS_KEPT:
            _last_scored.popitem(last=False)

    figures = _Figures(tuple(sections), tuple(parts), tuple(group), boards, tallies)
    return FieldScore(across, ranking, tuple(sections), figures)


BOARDS_KEPT = 1024
"""The boards' figures kept by their inputs. A field of seventy sections plays some forty
boards, each scored anew at each of its results; the field scored last keeps its own boards
(``_last_scored``, by the field's shape), and these are found again where views of one field
take turns there: a simultaneous's club's view of the rounds it has finished takes each board
it shows whole, with the very inputs the whole field's has, so a few states of each board
serve every view. Bounded closely: a board of a hundred results is some seven hundred objects
that the garbage collector's full passes go over, and those passes stop every thread of the
server (at 600 boards kept, 60 to 200 ms each)."""

FIELDS_KEPT = 64
"""The fields whose totals are kept as last scored, to add up anew only the boards changed."""


_Seats = tuple[tuple[Pair, Pair, Pair, Pair], ...]
"""Each result of a section on a board: its pairs as the field numbers them within the
section (North-South's first), then as the section numbers them."""


@dataclass(frozen=True, slots=True)
class _Parts:
    """A section's results as the field takes them, board by board."""

    boards: dict[int, tuple[TableResult, ...]]
    seats: dict[int, _Seats]
    positions: tuple[tuple[int, int], ...]
    """Each result, in the section's order: its board, and its place among the section's
    results of that board."""
    most: int
    owners: dict[Pair, Pair]
    """Each pair as the section numbers it, by its number in the field there."""
    numbered: dict[Side | None, int]
    """The highest number of each direction's pairs, as the field numbers them."""
    twice: tuple[int, Pair] | None
    """The first board a pair has two results on, and the pair, if any."""


def _parts_of(record: SessionRecord, by_direction: bool) -> _Parts:
    after = 0
    if not by_direction and record.ranking.numbered_by_direction:
        named = (*record.names, *record.tiebreaks)
        after = max((pair.number for pair in named if pair.direction is Side.NS), default=0)
    results = record.results
    found = _parts_by_identity.get(id(results))
    if (
        found is not None
        and found[0] is results
        and found[1] == (record.ranking, by_direction, after)
    ):
        return found[2]
    parts = _section_parts(results, record.ranking, by_direction, after)
    if len(_parts_by_identity) >= 1024:
        _parts_by_identity.clear()
    _parts_by_identity[id(results)] = (results, (record.ranking, by_direction, after), parts)
    return parts


_parts_by_identity: dict[
    int, tuple[tuple[TableResult, ...], tuple[Ranking, bool, int], _Parts]
] = {}
"""Sections' results found again as the same tuple (a server keeps a section's results
as one while they stay the same): found without hashing every result."""


@lru_cache(maxsize=1024)
def _section_parts(
    results: tuple[TableResult, ...], own: Ranking, by_direction: bool, after: int
) -> _Parts:
    """A section's results grouped by board (``after``: where the field is ranked as one, the
    highest North-South pair its names or tiebreaks know, after which East-West pairs are
    numbered). Kept by the section's results: a result entered elsewhere changes nothing
    here."""
    ranking = Ranking.BY_DIRECTION if by_direction else Ranking.ONE_FIELD
    numbered_results = results
    if not by_direction:
        named = {Pair(after, Side.NS): ""} if after else {}
        record = SessionRecord(results, own, names=named)
        numbered_results = _numbered_across(record).results
    boards: dict[int, list[TableResult]] = {}
    seats: dict[int, list[tuple[Pair, Pair, Pair, Pair]]] = {}
    positions = []
    numbered: Counter[Side | None] = Counter()
    seen: set[tuple[int, Pair]] = set()
    twice = None
    for original, result in zip(results, numbered_results, strict=True):
        here = pairs_of(result, ranking)
        for pair in here:
            numbered[pair.direction] = max(numbered[pair.direction], pair.number)
            if twice is None and (original.board, pair) in seen:
                twice = (original.board, pair)
            seen.add((original.board, pair))
        rows = boards.setdefault(original.board, [])
        positions.append((original.board, len(rows)))
        rows.append(original)
        seats.setdefault(original.board, []).append((*here, *pairs_of(original, own)))
    return _Parts(
        {board: tuple(rows) for board, rows in boards.items()},
        {board: tuple(found) for board, found in seats.items()},
        tuple(positions),
        most_results(results),
        {ns: own for seated in seats.values() for ns, _ew, own, _own_ew in seated}
        | {ew: own for seated in seats.values() for _ns, ew, _own_ns, own in seated},
        dict(numbered),
        twice,
    )


def _pair_twice(
    sections: Sequence[Section], parts: Sequence[_Parts], group: Sequence[int], index: int
) -> None:
    """A pair with two results on a board: refused as a session refuses it, the board and the
    pair named as the field numbers them (:class:`BoardError`)."""
    twice = parts[index].twice
    assert twice is not None
    board, pair = twice
    highest = max(
        (
            number
            for section in sections
            for number in (
                *(result.board for result in section.record.results),
                *(section.record.expected or {}),
            )
        ),
        default=1,
    )
    cycles = -(-highest // CYCLE)
    before = sum((Counter(part.numbered) for part in parts[:index]), Counter[Side | None]())
    moved = Pair(pair.number + before[pair.direction], pair.direction)
    raise BoardError(
        BridgeRule.PAIR_TWICE, pair=moved.label, board=board + CYCLE * cycles * group[index]
    )


_Signature = tuple[int, tuple[tuple[int, tuple[TableResult, ...], _Seats], ...]]
"""A board's inputs: its N (0 in IMPs), and each section's results on it with their pairs."""


@dataclass(frozen=True, slots=True)
class _Board:
    """A board of the field scored: its inputs, its results' figures (section after section),
    where each section's results start among them, and what it adds to each pair's total."""

    signature: _Signature
    scored: tuple[ScoredResult, ...]
    starts: dict[int, int]
    adds: tuple[tuple[tuple[int, Pair], Fraction, int], ...]


def _board_of(signature: _Signature, scoring: Scoring) -> _Board:
    wanted, found = signature
    rows = tuple(row for _index, section_rows, _seats in found for row in section_rows)
    scored = scored_board(rows, scoring, wanted)
    starts, adds = {}, []
    at = 0
    for index, section_rows, seats in found:
        starts[index] = at
        for item, (ns, ew, _own_ns, _own_ew) in zip(
            scored[at : at + len(section_rows)], seats, strict=True
        ):
            adds += [((index, ns), item.ns, item.top), ((index, ew), item.ew, item.top)]
        at += len(section_rows)
    return _Board(signature, scored, starts, tuple(adds))


@lru_cache(maxsize=BOARDS_KEPT)
def scored_board(
    rows: tuple[TableResult, ...], scoring: Scoring, expected: int
) -> tuple[ScoredResult, ...]:
    """One board of the field scored, its results across every section (``expected``: its
    N in matchpoints, 0 in IMPs): kept by these inputs, so that a result entered re-scores
    its own board alone (RULES.md §4)."""
    return score_board(rows, scoring, expected)


_Tally = tuple[Fraction, int, int, Fraction, float]
_Tallies = dict[tuple[int, Pair], _Tally]
"""Each pair's total, top and boards, by its section and its number in the field there, with
what places it (its share of its top, or its total), exactly and as a float to sort by."""


def _add(tallies: _Tallies, board: _Board, sign: int) -> None:
    """Add a board's figures to the pairs' totals (``sign`` -1: take them away)."""
    for pair, figure, top in board.adds:
        total, tops, count, _key, _float = tallies.get(pair, _NONE)
        count += sign
        if count:
            total, tops = total + sign * figure, tops + sign * top
            key = total / tops if tops else total
            tallies[pair] = (total, tops, count, key, float(key))
        else:
            del tallies[pair]


_NONE = (Fraction(0), 0, 0, Fraction(0), 0.0)


@dataclass(frozen=True, slots=True)
class _Scored:
    boards: dict[tuple[int, int], _Board]
    tallies: _Tallies


_last_scored: OrderedDict[Hashable, _Scored] = OrderedDict()
_last_lock = threading.Lock()


def clear_memo() -> None:
    """Forget every board and every field scored: the next field is scored from scratch."""
    with _last_lock:
        _last_scored.clear()
    _parts_by_identity.clear()
    scored_board.cache_clear()
    _section_parts.cache_clear()


class _Figures:
    """What a field's score is drawn from (the boards' figures and the pairs' totals), with
    the lists drawn from it so far, each drawn once."""

    __slots__ = ("_by_section", "_standings", "boards", "group", "parts", "sections", "tallies")

    def __init__(
        self,
        sections: tuple[Section, ...],
        parts: tuple[_Parts, ...],
        group: tuple[int, ...],
        boards: dict[tuple[int, int], _Board],
        tallies: _Tallies,
    ) -> None:
        self.sections, self.parts, self.group = sections, parts, group
        self.boards, self.tallies = boards, tallies
        self._by_section: dict[int, list[tuple[tuple[int, Pair], _Tally]]] | None = None
        self._standings: dict[tuple[Side | None, int | None], tuple[FieldStanding, ...]] = {}

    def standings(
        self, direction: Side | None, section: int | None = None
    ) -> tuple[FieldStanding, ...]:
        """The field's ranking of ``direction``, or its ``section``'s pairs alone in the
        field's order (placed as in the whole field's ranking only where it is the whole)."""
        found = self._standings.get((direction, section))
        if found is None:
            if section is None:
                tallied: Sequence[tuple[tuple[int, Pair], _Tally]] = list(self.tallies.items())
            else:
                if self._by_section is None:
                    by_section: dict[int, list[tuple[tuple[int, Pair], _Tally]]] = {}
                    for item in self.tallies.items():
                        by_section.setdefault(item[0][0], []).append(item)
                    self._by_section = by_section
                tallied = self._by_section.get(section, [])
            found = _standings(tallied, direction, self.sections, self.parts)
            self._standings[(direction, section)] = found
        return found

    def section_results(self, index: int) -> tuple[FieldResult, ...]:
        """A section's results with their figures in the field, in the section's order."""
        name, group = self.sections[index].name, self.group[index]
        found = []
        for board, at in self.parts[index].positions:
            scored = self.boards[(group, board)]
            found.append(FieldResult(name, scored.scored[scored.starts[index] + at]))
        return tuple(found)

    def board_results(self, number: int, boards: str) -> list[FieldResult]:
        """A board's results across the sections playing that set of boards, section after
        section (each group of sections scored together holds its results on the board)."""
        groups = dict.fromkeys(
            self.group[index]
            for index, section in enumerate(self.sections)
            if section.boards == boards
        )
        found = []
        for group in groups:
            scored = self.boards.get((group, number))
            if scored is None:
                continue
            for index, rows, _seats in scored.signature[1]:
                start, name = scored.starts[index], self.sections[index].name
                found += [
                    FieldResult(name, item) for item in scored.scored[start : start + len(rows)]
                ]
        return found


def _standings(
    tallied: Sequence[tuple[tuple[int, Pair], _Tally]],
    direction: Side | None,
    sections: Sequence[Section],
    parts: Sequence[_Parts],
) -> tuple[FieldStanding, ...]:
    """One ranking of the field, as a session places its pairs (:func:`score_session`): by
    the share of their own top (or their IMPs), then one section after another, by number."""
    keyed = [
        (-approximately, index, pair.number, key, (index, pair), tally)
        for (index, pair), tally in tallied
        if direction is None or pair.direction == direction
        for _total, _top, _boards, key, approximately in (tally,)
    ]
    keyed.sort()
    # Figures a float cannot tell apart are put in their exact order.
    start = 0
    while start < len(keyed):
        end = start + 1
        while end < len(keyed) and keyed[end][0] == keyed[start][0]:
            end += 1
        if end - start > 1:
            keyed[start:end] = sorted(keyed[start:end], key=lambda k: (-k[3], k[1], k[2]))
        start = end
    level = [
        place > 0 and entry[0] == keyed[place - 1][0] and entry[3] == keyed[place - 1][3]
        for place, entry in enumerate(keyed)
    ]  # level with the pair before it
    level.append(False)
    standings = []
    ahead = 0
    for place, (_float, index, _number, _key, pair_key, tally) in enumerate(keyed):
        if not level[place]:
            ahead = place
        total, top, count, _exact, _approximately = tally
        own = parts[index].owners[pair_key[1]]
        tied = level[place] or level[place + 1]
        standings.append(
            FieldStanding(
                FieldPair(sections[index].name, own),
                ahead + 1,
                tied,
                Standing(own, ahead + 1, tied, total, top, count),
            )
        )
    return tuple(standings)


def _numbered_across(record: SessionRecord) -> SessionRecord:
    """A section numbered within its directions, put in a field ranked as one: its East-West
    pairs numbered after its North-South ones, as an arrow-switched session's are."""
    if record.ranking is Ranking.BY_DIRECTION:
        record = replace(record, ranking=Ranking.ARROW_SWITCHED)
    return record.as_one_field()


def _placed(standings: Sequence[FieldStanding]) -> tuple[FieldStanding, ...]:
    """Standings in order, placed anew among themselves: level figures share the place.

    In order, pairs level on their share are next to one another: each is compared with its
    neighbours alone, first by the share as a float (two equal fractions are one float, a
    division being rounded correctly), exactly where the floats are equal."""
    shares = [_share(found.standing) for found in standings]

    def level(before: int) -> bool:
        """Whether the standing at ``before`` and the one after it are level."""
        if shares[before] != shares[before + 1]:
            return False
        one, other = standings[before].standing, standings[before + 1].standing
        return _exact_share(one) == _exact_share(other)

    with_next = [level(index) for index in range(len(standings) - 1)] + [False]
    placed = []
    ahead = 0
    for index, found in enumerate(standings):
        with_before = index > 0 and with_next[index - 1]
        if not with_before:
            ahead = index
        rank, tied = ahead + 1, with_before or with_next[index]
        figures = found.standing
        # Built anew rather than replaced: a field's page places two thousand pairs.
        standing = Standing(figures.pair, rank, tied, figures.total, figures.top, figures.boards)
        placed.append(FieldStanding(found.pair, rank, tied, standing))
    return tuple(placed)


def _share(figures: Standing) -> float:
    total, top = figures.total, figures.top
    return total.numerator / (total.denominator * top) if top else float(total)


def _exact_share(figures: Standing) -> Fraction:
    return figures.total / figures.top if figures.top else figures.total
