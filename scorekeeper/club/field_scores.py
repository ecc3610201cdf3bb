"""A field's score kept in the server process: scored once per state of its sections, for
every page that shows it (each section's director's page, its players' and its tables', the
field's own page and its ranking).

A result entered in one section counts a change in every section of the field (see
``ClubSession.shown_with``): the field's state is each of its sections' versions, its own row
and the count of its parts' changes (``Game.version`` and ``Game.parts_version``), and how
the field is scored. A page read from a state keeps the score it drew from under that state;
a page read from a newer state scores the field again, and what it scores is kept, in place of
the older one. A score is only ever served under the versions of the rows it was read with,
so a page never shows a field older than the rows it read.

Only a page being drawn (a GET) takes and keeps a score: a form's request may have changed
rows not yet counted in their versions.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import lru_cache
from typing import Protocol

from flask import g, has_request_context, request
from sqlalchemy import func, select

from scorekeeper.club.rows import ClubDeal, ClubPair, ClubResult, ClubTable, _table_result
from scorekeeper.extensions import db
from scorekeeper.rules.common import Side
from scorekeeper.rules.duplicate import Pair, SessionRecord, SessionScore, TableResult
from scorekeeper.rules.field import FieldScore
from scorekeeper.rules.movements import Movement

FIELDS_KEPT = 32
"""Fields kept, the newest state of each (a federation's simultaneous evening is one field;
a club's evening of sections another)."""


class Versioned(Protocol):
    id: str
    version: int
    parts_version: int


class SectionRows(Protocol):
    """What this module reads of a field's section (a ClubSession), its rows read apart."""

    id: str
    version: int

    @property
    def movement(self) -> Movement | None: ...

    def record_with(
        self,
        results: tuple[TableResult, ...],
        *,
        names: Mapping[Pair, str],
        deals: Mapping[int, str],
        tiebreaks: Mapping[Pair, int],
        expected_of: Callable[[Movement, tuple[TableResult, ...]], Mapping[int, int]],
    ) -> SessionRecord: ...


class _Kept:
    """A field's score at one state, with each section's share of it as its pages show it."""

    __slots__ = ("score", "sections", "state")

    def __init__(self, state: Hashable, score: FieldScore) -> None:
        self.state = state
        self.score = score
        self.sections: dict[str, SessionScore] = {}


kept_fields: OrderedDict[str, _Kept] = OrderedDict()
kept_lock = threading.Lock()


def state_of(across: bool, sections: Sequence[Versioned]) -> Hashable:
    """What a field's score depends on, as its sections' rows count it."""
    return (across, tuple((s.id, s.version, s.parts_version) for s in sections))


def _drawing() -> bool:
    return has_request_context() and request.method in ("GET", "HEAD")


scoring_locks: dict[str, threading.Lock] = {}
"""One field is scored by one thread at a time: the pages asked for at once after a result
(its table's, the player's, the organiser's) wait for the one scoring it, and take its score,
rather than each scoring it again beside the others."""


def _found(field_id: str, state: Hashable) -> _Kept | None:
    with kept_lock:
        kept = kept_fields.get(field_id)
        if kept is not None and kept.state == state:
            kept_fields.move_to_end(field_id)
            return kept
    return None


def _kept(field_id: str, state: Hashable, scored: Callable[[], FieldScore]) -> _Kept:
    if not _drawing():
        return _Kept(state, scored())
    if (kept := _found(field_id, state)) is not None:
        return kept
    with kept_lock:
        if len(scoring_locks) > 4 * FIELDS_KEPT:
            scoring_locks.clear()
        lock = scoring_locks.setdefault(field_id, threading.Lock())
    with lock:
        if (kept := _found(field_id, state)) is not None:  # scored meanwhile
            return kept
        kept = _Kept(state, scored())
        with kept_lock:
            kept_fields[field_id] = kept
            kept_fields.move_to_end(field_id)
            while len(kept_fields) > FIELDS_KEPT:
                kept_fields.popitem(last=False)
    return kept


def field_score(field_id: str, state: Hashable, scored: Callable[[], FieldScore]) -> FieldScore:
    """The field's score at ``state``: kept, or ``scored()`` (and kept, for a page)."""
    return _kept(field_id, state, scored).score


def section_score(
    field_id: str, state: Hashable, scored: Callable[[], FieldScore], section: str
) -> SessionScore:
    """One section's share of the field's score at ``state`` (FieldScore.section_score),
    kept with it."""
    kept = _kept(field_id, state, scored)
    found = kept.sections.get(section)
    if found is None:
        found = kept.sections[section] = kept.score.section_score(section)
    return found


def forget() -> None:
    """Drop every kept score and record (the tests' fresh start)."""
    with kept_lock:
        kept_fields.clear()
    with _records_lock:
        _records.clear()


def records_of(sections: Sequence[SectionRows]) -> list[SessionRecord]:
    """Each section's record, as ``ClubSession.record`` gives it, its rows read for every
    section at once: three statements for the field (results, pairs, deals), not three for
    each of its seventy sections, and each row read as a tuple rather than an object.

    A page being drawn reads again only the sections whose own rows changed since they were
    last read (see ``own_states``): a result in one section leaves the others' as they were."""
    # Read as rows through the session's connection: the ORM's handling of each row is
    # spared (nothing of the session is pending on a page being drawn).
    connection = db.session.connection()
    # Read before the sections' rows: what is read after is at least as new as the states.
    own = own_states(sections) if _drawing() else {}
    reused: dict[str, SessionRecord] = {}
    with _records_lock:
        for section in sections:
            found = _records.get(section.id)
            if found is not None and section.id in own and found[0] == own[section.id]:
                reused[section.id] = found[1]
    ids = [section.id for section in sections if section.id not in reused]
    results: dict[str, list[TableResult]] = {id_: [] for id_ in ids}
    read = connection.execute(
        select(
            ClubResult.game_id,
            ClubResult.board,
            ClubResult.table,
            ClubResult.round,
            ClubResult.ns,
            ClubResult.ew,
            ClubResult.level,
            ClubResult.strain,
            ClubResult.doubled,
            ClubResult.declarer,
            ClubResult.tricks,
            ClubResult.artificial_ns,
            ClubResult.artificial_ew,
            ClubResult.lead,
            ClubResult.switched,
        )
        .where(ClubResult.game_id.in_(ids))
        .order_by(ClubResult.game_id, ClubResult.round, ClubResult.table, ClubResult.board)
    )
    for game_id, *columns in read:
        results[game_id].append(_table_result(*columns))
    names: dict[str, dict[Pair, str]] = {id_: {} for id_ in ids}
    tiebreaks: dict[str, dict[Pair, int]] = {id_: {} for id_ in ids}
    pairs = connection.execute(
        select(ClubPair.game_id, ClubPair.number, ClubPair.direction, ClubPair.names,
               ClubPair.tiebreak)
        .where(ClubPair.game_id.in_(ids))
        .order_by(ClubPair.game_id, ClubPair.direction, ClubPair.number)
    )  # fmt: skip
    for game_id, number, direction, pair_names, tiebreak in pairs:
        if not pair_names and tiebreak is None:
            continue
        key = _pair(number, direction)
        if pair_names:
            names[game_id][key] = pair_names
        if tiebreak is not None:
            tiebreaks[game_id][key] = tiebreak
    deals: dict[str, dict[int, str]] = {id_: {} for id_ in ids}
    for game_id, board, deal in connection.execute(
        select(ClubDeal.game_id, ClubDeal.board, ClubDeal.deal)
        .where(ClubDeal.game_id.in_(ids))
        .order_by(ClubDeal.game_id, ClubDeal.board)
    ):
        deals[game_id][board] = deal
    records = []
    for section in sections:
        if section.id in reused:
            records.append(reused[section.id])
            continue
        played = tuple(results[section.id])
        # The same results as last read: the same tuple, which the engine finds again by it.
        with _results_lock:
            before = _results.get(section.id)
            if before is not None and before == played:
                played = before
            else:
                if len(_results) >= 4096:
                    _results.clear()
                _results[section.id] = played
        record = section.record_with(
            played,
            names=names[section.id],
            deals=deals[section.id],
            tiebreaks=tiebreaks[section.id],
            expected_of=expected_of,
        )
        records.append(record)
        if section.id in own:
            with _records_lock:
                if len(_records) >= 4096:
                    _records.clear()
                _records[section.id] = (own[section.id], record)
    return records


def own_states(sections: Sequence[SectionRows]) -> dict[str, Hashable]:
    """What each section's record depends on among its own rows: its row's version (every
    change its director makes) and its tables' (every result entered at a table), not the
    count of changes elsewhere in the field that its ``parts_version`` holds as well."""
    tables: dict[str, tuple[int, int]] = {}
    for game_id, count, versions in db.session.connection().execute(
        select(ClubTable.game_id, func.count(), func.sum(ClubTable.version))
        .where(ClubTable.game_id.in_([section.id for section in sections]))
        .group_by(ClubTable.game_id)
    ):
        tables[game_id] = (count, versions or 0)
    return {section.id: (section.version, *tables.get(section.id, (0, 0))) for section in sections}


_records: dict[str, tuple[Hashable, SessionRecord]] = {}
"""Each section's record as last read for a page, with the state of its own rows it was read
under (see ``own_states``)."""
_records_lock = threading.Lock()


_results: dict[str, tuple[TableResult, ...]] = {}
"""Each section's results as last read (its results change one at a time)."""
_results_lock = threading.Lock()


@lru_cache(maxsize=4096)
def _pair(number: int, direction: str) -> Pair:
    return Pair(number, Side(direction) if direction else None)


_expected: dict[int, tuple[Movement, tuple[TableResult, ...], dict[int, int]]] = {}
_expected_lock = threading.Lock()


def expected_of(movement: Movement, results: tuple[TableResult, ...]) -> dict[int, int]:
    """``movement.expected_results(results)``, once per state of a section's results (a
    movement is built once per process, see ``_movement``, and a section's results are kept
    as one tuple while they stay the same: each is held with the figures, so their ids name
    no other while they are kept)."""
    with _expected_lock:
        found = _expected.get(id(results))
        if found is not None and found[0] is movement and found[1] is results:
            return dict(found[2])
    expected = movement.expected_results(results)
    with _expected_lock:
        if len(_expected) >= 4096:
            _expected.clear()
        _expected[id(results)] = (movement, results, expected)
    return dict(expected)


def progress(section: SectionRows, field_sections: Sequence[SectionRows]) -> tuple[int, int, int]:
    """A section's results in, those its movement expects, and the last round every table of
    it has finished (``ClubSession.rounds_finished``): the field's page shows them for each
    of its sections, read for all of them in one statement a request (the places of the
    results in, as tuples: not each section's results loaded as objects), and each
    movement's count worked out once."""
    entered: dict[str, set[tuple[int, int, int]]] | None = getattr(g, "field_entered", None)
    if entered is None or section.id not in entered:
        ids = [other.id for other in field_sections]
        entered = {id_: set() for id_ in ids}
        read = db.session.connection().execute(
            select(ClubResult.game_id, ClubResult.round, ClubResult.table, ClubResult.board).where(
                ClubResult.game_id.in_(ids)
            )
        )
        for game_id, *place in read:
            entered[game_id].add(tuple(place))  # type: ignore[arg-type]
        g.field_entered = entered
    places = entered[section.id]
    movement = section.movement
    if movement is None:
        return len(places), len(places), 0
    return len(places), expected_in(movement), movement.rounds_finished(places)


_expected_in: dict[int, tuple[Movement, int]] = {}


def expected_in(movement: Movement) -> int:
    """The results a movement expects: its tables' boards, round by round, but where a pair
    sits out (as ``Movement.progress`` counts them)."""
    found = _expected_in.get(id(movement))
    if found is None or found[0] is not movement:
        grid = movement.progress(set())
        found = _expected_in[id(movement)] = (
            movement,
            sum(cell.expected for row in grid for cell in row),
        )
        if len(_expected_in) > 1024:
            _expected_in.clear()
    return found[1]
