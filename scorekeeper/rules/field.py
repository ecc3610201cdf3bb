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

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

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
    score_session,
)

__all__ = [
    "FieldError",
    "FieldPair",
    "FieldResult",
    "FieldRule",
    "FieldScore",
    "FieldStanding",
    "Section",
    "score_field",
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


@dataclass(frozen=True, slots=True)
class FieldScore:
    """The field scored: its rankings overall and per section, and each board's results."""

    across: bool
    ranking: Ranking
    """How the field's pairs are ranked: one list per direction when every section's is, one
    list for all otherwise."""
    sections: tuple[Section, ...]
    results: tuple[FieldResult, ...]
    overall: tuple[tuple[Side | None, tuple[FieldStanding, ...]], ...]

    def standings(self, direction: Side | None = None) -> tuple[FieldStanding, ...]:
        """The whole field's ranking of ``direction`` (``None``: the one ranking)."""
        return next((found for side, found in self.overall if side == direction), ())

    def section_standings(
        self, section: str, direction: Side | None = None
    ) -> tuple[FieldStanding, ...]:
        """One section's pairs in the field's order, placed among themselves."""
        return _placed([s for s in self.standings(direction) if s.pair.section == section])

    def section_score(self, name: str) -> SessionScore:
        """One section as its own pages show it: its results with their figures in the field,
        in its own order, and its pairs placed among themselves, one ranking per direction
        where the section ranks so."""
        section = next(section for section in self.sections if section.name == name)
        ranking = section.record.ranking
        own = [s for _side, standings in self.overall for s in standings if s.pair.section == name]
        rankings = []
        for side in ranking.fields:
            found = [s for s in own if side is None or s.pair.pair.direction == side]
            rankings.append((side, tuple(s.standing for s in _placed(found))))
        return SessionScore(
            section.record.scoring,
            ranking,
            tuple(result.scored for result in self.results if result.section == name),
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
        playing = {section.name for section in self.sections if section.boards == boards}
        found = [
            r for r in self.results if r.section in playing and r.scored.result.board == number
        ]
        return tuple(sorted(found, key=lambda r: (-r.scored.ns, r.section, r.scored.result.table)))


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
    (:class:`FieldError`)."""
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
        group = {section.name: sets.index(section.boards) for section in sections}
    else:
        group = {name: index for index, name in enumerate(names)}
    highest = max(
        (
            board
            for section in sections
            for board in (
                *(result.board for result in section.record.results),
                *(section.record.expected or {}),
            )
        ),
        default=1,
    )
    cycles = -(-highest // CYCLE)  # enough whole cycles to clear every board of a group

    results: list[TableResult] = []
    originals: list[tuple[str, TableResult]] = []
    field_pairs: dict[Pair, FieldPair] = {}
    expected: dict[int, int] = {}
    pairs_before: Counter[Side | None] = Counter()
    tables_before = 0
    for section in sections:
        record = section.record if by_direction else _numbered_across(section.record)
        moved_by = CYCLE * cycles * group[section.name]
        schedule = section.record.expected or {}
        most = most_results(section.record.results)
        for board in {result.board for result in section.record.results} | set(schedule):
            expected[board + moved_by] = expected.get(board + moved_by, 0) + schedule.get(
                board, most
            )
        numbered: Counter[Side | None] = Counter()
        for original, result in zip(section.record.results, record.results, strict=True):
            own = pairs_of(original, section.record.ranking)
            moved = [
                Pair(pair.number + pairs_before[pair.direction], pair.direction)
                for pair in pairs_of(result, ranking)
            ]
            for pair_there, pair_here in zip(own, moved, strict=True):
                field_pairs[pair_here] = FieldPair(section.name, pair_there)
            for pair in pairs_of(result, ranking):
                numbered[pair.direction] = max(numbered[pair.direction], pair.number)
            ns, ew = (pair.number for pair in moved)  # as they sat, switched or not
            results.append(
                replace(
                    result,
                    board=result.board + moved_by,
                    table=result.table + tables_before,
                    ns=ns,
                    ew=ew,
                )
            )
            originals.append((section.name, original))
        tables_before += max((result.table for result in record.results), default=0)
        pairs_before.update(numbered)

    scored = score_session(results, ranking=ranking, scoring=scoring, expected=expected)
    field_results = tuple(
        FieldResult(name, replace(item, result=original))
        for (name, original), item in zip(originals, scored.results, strict=True)
    )
    overall = tuple(
        (side, tuple(_in_field(standing, field_pairs) for standing in standings))
        for side, standings in scored.rankings
    )
    return FieldScore(across, ranking, tuple(sections), field_results, overall)


def _numbered_across(record: SessionRecord) -> SessionRecord:
    """A section numbered within its directions, put in a field ranked as one: its East-West
    pairs numbered after its North-South ones, as an arrow-switched session's are."""
    if record.ranking is Ranking.BY_DIRECTION:
        record = replace(record, ranking=Ranking.ARROW_SWITCHED)
    return record.as_one_field()


def _in_field(standing: Standing, field_pairs: Mapping[Pair, FieldPair]) -> FieldStanding:
    pair = field_pairs[standing.pair]
    return FieldStanding(pair, standing.rank, standing.tied, replace(standing, pair=pair.pair))


def _placed(standings: Sequence[FieldStanding]) -> tuple[FieldStanding, ...]:
    """Standings in order, placed anew among themselves: level figures share the place."""

    def key(found: FieldStanding) -> Fraction:
        figures = found.standing
        return figures.total / figures.top if figures.top else figures.total

    sharing = Counter(key(found) for found in standings)
    placed = []
    ahead = 0
    for index, found in enumerate(standings):
        if index and key(found) != key(standings[index - 1]):
            ahead = index
        rank, tied = ahead + 1, sharing[key(found)] > 1
        standing = replace(found.standing, rank=rank, tied=tied)
        placed.append(replace(found, rank=rank, tied=tied, standing=standing))
    return tuple(placed)
