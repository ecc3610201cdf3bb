"""A field of sections on the same boards, scored across the field (RULES.md §2 and §4): every
result of a board against every other result of that board in the whole field, a board short
of the results its sections expect scaled by Neuberg's formula. Every figure is held to a
count written here from the results alone; scored section by section, each section's figures
are its own session's."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.bridge import Contract
from scorekeeper.rules.common import Seat, Side
from scorekeeper.rules.duplicate import Pair, Ranking, ScoredResult, SessionRecord, TableResult
from scorekeeper.rules.field import (
    FieldError,
    FieldPair,
    FieldScore,
    Section,
    clear_memo,
    score_field,
)
from scorekeeper.rules.movements import Movement, Seating
from tests.rules.test_neuberg_everywhere import SHARE, evenings, played, scheduled_most, seated

NAMES = "ABCD"


def counted_across(
    sections: list[tuple[str, Movement, list[TableResult]]],
) -> tuple[list[tuple[Fraction, Fraction]], dict[FieldPair, tuple[Fraction, int]]]:
    """Each result's matchpoints and each pair's total and top, the whole field on each board:
    a section's N is the most results its movement gives a board (or any board has), a board's
    N those of the sections that play it added up; 2 per lower real score of the board in the
    field and 1 per equal one, (M + 1) × N / n − 1 on a board with n real results; an
    artificial score its share of the board's full top."""
    on_board: dict[int, list[int]] = defaultdict(list)
    expected: dict[int, int] = defaultdict(int)
    for _name, movement, results in sections:
        counts: dict[int, int] = defaultdict(int)
        for result in results:
            counts[result.board] += 1
        field = max([scheduled_most(movement), *counts.values()])
        for board in {b for seating in movement.seatings for b in seating.boards} | set(counts):
            expected[board] += field
        for result in results:
            if result.score_ns is not None:  # a real result
                on_board[result.board].append(result.score_ns)
    figures = []
    tallies: dict[FieldPair, tuple[Fraction, int]] = {}
    for name, movement, results in sections:
        for result in results:
            top = 2 * (expected[result.board] - 1)
            if result.artificial_ns is not None and result.artificial_ew is not None:
                ns = SHARE[result.artificial_ns.value] * top
                ew = SHARE[result.artificial_ew.value] * top
            else:
                real, mine = on_board[result.board], result.score_ns
                assert mine is not None
                ns = Fraction(sum(2 if s < mine else 1 if s == mine else 0 for s in real) - 1)
                if len(real) < expected[result.board]:
                    ns = (ns + 1) * expected[result.board] / len(real) - 1
                ew = top - ns
            figures.append((ns, ew))
            for pair, figure in zip(seated(result, movement.ranking), (ns, ew), strict=True):
                total, tops = tallies.get(FieldPair(name, pair), (Fraction(0), 0))
                tallies[FieldPair(name, pair)] = (total + figure, tops + top)
    return figures, tallies


@st.composite
def fields(draw: st.DrawFn) -> list[tuple[str, Movement, list[TableResult]]]:
    """Two to four sections, each an evening as a director may have run it, on boards
    numbered from 1 (the same boards wherever their numbers meet)."""
    count = draw(st.integers(2, 4))
    sections = []
    for name in NAMES[:count]:
        movement = draw(evenings())
        sections.append((name, movement, draw(played(movement))))
    return sections


def records(sections: list[tuple[str, Movement, list[TableResult]]]) -> list[Section]:
    return [
        Section(
            name,
            SessionRecord(
                tuple(results),
                ranking=movement.ranking,
                expected=movement.expected_results(results),
            ),
        )
        for name, movement, results in sections
    ]


def placed(shares: dict[FieldPair, Fraction], pair: FieldPair) -> tuple[int, bool]:
    mine = shares[pair]
    return 1 + sum(other > mine for other in shares.values()), list(shares.values()).count(mine) > 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_every_board_is_scored_against_the_whole_field(
    sections: list[tuple[str, Movement, list[TableResult]]],
) -> None:
    score = score_field(records(sections))
    figures, tallies = counted_across(sections)

    assert [(r.scored.ns, r.scored.ew) for r in score.results] == figures
    assert [(r.section, r.scored.result) for r in score.results] == [
        (name, result) for name, _movement, results in sections for result in results
    ]
    by_direction = all(m.ranking is Ranking.BY_DIRECTION for _n, m, _r in sections)
    directions: tuple[Side | None, ...] = (Side.NS, Side.EW) if by_direction else (None,)
    assert [side for side, _ in score.overall] == list(directions)
    for direction in directions:
        mine = {
            p: t for p, t in tallies.items() if direction is None or p.pair.direction == direction
        }
        shares = {p: total / top if top else total for p, (total, top) in mine.items()}
        standings = score.standings(direction)
        assert {s.pair for s in standings} == set(mine)
        for standing in standings:
            assert (standing.total, standing.standing.top) == mine[standing.pair]
            assert (standing.rank, standing.tied) == placed(shares, standing.pair)
        by_section = score.standings_by_section(direction)
        assert set(by_section) == {name for name, _movement, _results in sections}
        for name, _movement, _results in sections:
            own = {p: share for p, share in shares.items() if p.section == name}
            section_standings = score.section_standings(name, direction)
            assert by_section[name] == section_standings
            assert [s.pair for s in section_standings] == [
                s.pair for s in standings if s.pair.section == name
            ]
            for standing in section_standings:
                assert (standing.rank, standing.tied) == placed(own, standing.pair)

    # Each section's own pages: its results with the field's figures, its pairs among theirs,
    # asked of a score that has drawn nothing of the whole field yet (a section's page).
    every_share = {p: total / top if top else total for p, (total, top) in tallies.items()}
    counted_of = dict(
        zip(((name, r) for name, _m, results in sections for r in results), figures, strict=True)
    )
    fresh = score_field(records(sections))
    for name, movement, results in sections:
        section_score = fresh.section_score(name)
        assert [scored.result for scored in section_score.results] == results
        assert [(s.ns, s.ew) for s in section_score.results] == [
            counted_of[(name, r)] for r in results
        ]
        assert [side for side, _ in section_score.rankings] == list(movement.ranking.fields)
        for side, standings in section_score.rankings:
            own = {
                p: share
                for p, share in every_share.items()
                if p.section == name and (side is None or p.pair.direction == side)
            }
            assert {FieldPair(name, s.pair) for s in standings} == set(own)
            for standing in standings:
                assert (standing.rank, standing.tied) == placed(own, FieldPair(name, standing.pair))

    # A board's traveller: every section's results on it with their figures, North-South's
    # best first (the engine's order, section after section, kept among equals).
    for board in {r.board for _name, _movement, results in sections for r in results}:
        traveller = score_field(records(sections)).board(board)
        on_board = [
            (name, r, *counted_of[(name, r)])
            for name, _movement, results in sections
            for r in results
            if r.board == board
        ]
        on_board.sort(key=lambda found: (-found[2], found[0], found[1].table))
        assert [
            (r.section, r.scored.result, r.scored.ns, r.scored.ew) for r in traveller
        ] == on_board


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_sections_scored_on_their_own_keep_their_session_s_figures(
    sections: list[tuple[str, Movement, list[TableResult]]],
) -> None:
    given_sections = records(sections)
    score = score_field(given_sections, across=False)
    traveller_of: dict[int, list[tuple[str, ScoredResult]]] = defaultdict(list)
    for section in given_sections:
        own = section.record.score()
        found = [r.scored for r in score.results if r.section == section.name]
        assert found == list(own.results)
        for scored in own.results:
            traveller_of[scored.result.board].append((section.name, scored))
        for side, standings in own.rankings:
            if score.ranking is Ranking.BY_DIRECTION:
                assert [s.standing for s in score.section_standings(section.name, side)] == list(
                    standings
                )
    # Each board's traveller: every section's results on it with its own section's figures.
    for board, found in traveller_of.items():
        found.sort(key=lambda entry: (-entry[1].ns, entry[0], entry[1].result.table))
        assert [
            (r.section, r.scored) for r in score_field(given_sections, across=False).board(board)
        ] == found


def test_a_board_played_by_one_section_only_expects_that_section_s_results() -> None:
    """Sections of different lengths on one set: the longer one's last boards are scaled to
    its own N, not to the whole field's (the other never had them)."""
    from scorekeeper.rules.movements import mitchell

    short, long = mitchell(3, 2), mitchell(4, 2)
    sections = [
        (name, movement, [TableResult(board, seating.table, seating.round, seating.ns,
                                      seating.ew) for seating in movement.seatings
                          for board in seating.boards])
        for name, movement in (("A", short), ("B", long))
    ]  # fmt: skip
    each = [max(movement.expected_results(results).values()) for _, movement, results in sections]
    score = score_field(records(sections))
    assert {r.scored.top for r in score.board(1)} == {2 * (each[0] + each[1] - 1)}
    assert {r.section for r in score.board(8)} == {"B"}
    assert {r.scored.top for r in score.board(8)} == {2 * (each[1] - 1)}


def test_two_sections_may_not_share_a_name() -> None:
    record = SessionRecord((TableResult(1, 1, 1, 1, 1),))
    with pytest.raises(FieldError, match="Two sections of the field are named A"):
        score_field([Section("A", record), Section("A", record)])


def test_sections_on_other_boards_are_not_scored_together() -> None:
    """Two sets of boards numbered alike: each set's boards against its own sections only."""
    one = SessionRecord((TableResult(1, 1, 1, 1, 2), TableResult(1, 2, 1, 3, 4)))
    sections = [Section("A", one, "red"), Section("B", one, "red"), Section("C", one, "blue")]
    score = score_field(sections)
    assert [r.section for r in score.board(1, "red")] == ["A", "A", "B", "B"]
    assert {r.scored.top for r in score.board(1, "blue")} == {2}
    assert score.standing_of(FieldPair("C", Pair(1))) is not None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_a_field_s_usebio_file_has_a_section_for_each_with_the_field_s_figures(
    sections: list[tuple[str, Movement, list[TableResult]]],
) -> None:
    import xml.etree.ElementTree as ET

    from scorekeeper.rules.files import figure_text
    from scorekeeper.rules.usebio import write_field_usebio

    given_sections = records(sections)
    score = score_field(given_sections)
    root = ET.fromstring(write_field_usebio(given_sections, score).split(b"\n", 2)[2])
    (session,) = root.iter("SESSION")
    written = session.findall("SECTION")
    assert [element.get("SECTION_ID") for element in written] == [name for name, *_ in sections]
    for element, (name, _movement, results) in zip(written, sections, strict=True):
        own = score.section_score(name)
        lines = [
            line for board in element.findall("BOARD") for line in board.findall("TRAVELLER_LINE")
        ]
        assert len(lines) == len(results)
        by_place = {(r.result.board, r.result.table, r.result.round): r for r in own.results}
        for board in element.findall("BOARD"):
            number = int(board.findtext("BOARD_NUMBER", ""))
            for line in board.findall("TRAVELLER_LINE"):
                place = (
                    number,
                    int(line.findtext("TABLE_NUMBER", "")),
                    int(line.findtext("ROUND_NUMBER", "")),
                )
                assert line.findtext("NS_MATCH_POINTS") == figure_text(by_place[place].shown_ns, 1)
        pairs = element.find("PARTICIPANTS")
        assert pairs is not None
        ranked = {s.pair: s for _side, found in own.rankings for s in found}
        assert len(pairs.findall("PAIR")) == len(ranked)
        for pair in pairs.findall("PAIR"):
            number, *direction = (pair.findtext("PAIR_NUMBER") or "").split(" ")
            key = Pair(int(number), Side(direction[0]) if direction else None)
            standing = ranked[key]
            assert pair.findtext("PLACE") == f"{standing.rank}{'=' if standing.tied else ''}"
            overall = score.standing_of(FieldPair(name, key))
            assert overall is not None
            assert pair.findtext("OVERALL_PLACE") == f"{overall.rank}{'=' if overall.tied else ''}"


def test_pairs_that_sat_the_other_way_round_earn_the_seats_they_held_in_the_field() -> None:
    """A director's correction (the pairs at a table sat the other way round) in a Mitchell
    section: the field scores it as the section alone does, with a section that adds nothing
    to the board."""
    from scorekeeper.rules.bridge import Contract
    from scorekeeper.rules.common import Seat

    def played(table: int, level: int, tricks: int, switched: bool = False) -> TableResult:
        return TableResult(
            1, table, 1, table, table, Contract(level, "S"), Seat.NORTH, tricks, switched=switched
        )

    own = SessionRecord(
        (played(1, 4, 10), played(2, 2, 8, switched=True), played(3, 3, 9)),
        Ranking.BY_DIRECTION,
    )
    empty = SessionRecord((), Ranking.BY_DIRECTION)
    alone = own.score()
    for across in (True, False):
        field = score_field([Section("A", own), Section("B", empty)], across=across)
        assert field.section_score("A") == alone
    standing = score_field([Section("A", own), Section("B", empty)]).standing_of(
        FieldPair("A", Pair(2, Side.EW))
    )
    assert standing is not None and standing.total == alone.standing_of(Pair(2, Side.EW)).total  # type: ignore[union-attr]


def test_sections_on_their_own_keep_their_boards_apart_whatever_is_entered_yet() -> None:
    """Boards of a section's schedule not entered yet are still its own: a board 17 to come in
    one section is never another's board 1."""
    from scorekeeper.rules.bridge import Contract
    from scorekeeper.rules.common import Seat

    def played(table: int, level: int) -> TableResult:
        ns, ew = 2 * table - 1, 2 * table
        return TableResult(1, table, 1, ns, ew, Contract(level, "S"), Seat.NORTH, 8)

    long = SessionRecord((played(1, 1), played(2, 2)), expected={b: 3 for b in range(1, 25)})
    short = SessionRecord((played(1, 1), played(2, 2)), expected={b: 2 for b in range(1, 9)})
    score = score_field([Section("A", long), Section("B", short)], across=False)
    assert {r.scored.top for r in score.results if r.section == "B"} == {2}
    assert {r.scored.top for r in score.results if r.section == "A"} == {4}


def scored_from_scratch(sections: list[Section], across: bool) -> FieldScore:
    clear_memo()
    return score_field(sections, across=across)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields(), st.booleans(), st.randoms(use_true_random=False))
def test_a_field_scored_again_after_its_changes_is_the_field_scored_from_scratch(
    sections: list[tuple[str, Movement, list[TableResult]]], across: bool, rng: random.Random
) -> None:
    """Each result entered, changed or taken away re-scores its board alone, from the totals
    last scored: what it gives is what the field scored from scratch gives, figure by figure."""
    full = records(sections)
    # The evening as it comes in: each section starts with some of its results, by place.
    entered = [
        dict(enumerate(s.record.results[: rng.randrange(len(s.record.results) + 1)])) for s in full
    ]

    def shown() -> list[Section]:
        return [
            replace(s, record=replace(s.record, results=tuple(dict(sorted(e.items())).values())))
            for s, e in zip(full, entered, strict=True)
        ]

    clear_memo()
    for _step in range(8):
        now = shown()
        assert score_field(now, across=across) == scored_from_scratch(now, across)
        score_field(now, across=across)  # the memo warm again, for the next change
        index = rng.randrange(len(full))
        whole, mine = full[index].record.results, entered[index]
        missing = [at for at in range(len(whole)) if at not in mine]
        move = rng.random()
        if move < 0.5 and missing:
            at = rng.choice(missing)  # a result entered
            mine[at] = whole[at]
        elif move < 0.8 and mine:
            at = rng.choice(list(mine))  # a result corrected: another contract
            contract = Contract(1, "NT")
            tricks = rng.randrange(7, 14)
            mine[at] = replace(mine[at], contract=contract, declarer=Seat.NORTH, tricks=tricks,
                               artificial_ns=None, artificial_ew=None)  # fmt: skip
        elif mine:
            del mine[rng.choice(list(mine))]  # a result taken back


def test_a_result_entered_re_scores_its_own_board_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two sections of a 4-table Mitchell, every board played: a result changed in section B
    scores its board again across the field, and no other board."""
    from scorekeeper.rules import field
    from scorekeeper.rules.movements import mitchell

    movement = mitchell(4, 2)

    def played(seating: Seating, board: int, tricks: int) -> TableResult:
        return TableResult(board, seating.table, seating.round, seating.ns, seating.ew,
                           Contract(3, "NT"), Seat.NORTH, tricks)  # fmt: skip

    results = [
        played(seating, board, 7 + (seating.table + board) % 4)
        for seating in movement.seatings
        for board in seating.boards
    ]
    sections = records([("A", movement, results), ("B", movement, results)])
    scored: list[tuple[int, ...]] = []
    real = field.score_board

    def counted(rows: tuple[TableResult, ...], *args: object) -> object:
        scored.append(tuple(sorted({row.board for row in rows})))
        return real(rows, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(field, "score_board", counted)
    clear_memo()
    first = score_field(sections)
    assert sorted(scored) == sorted({(result.board,) for result in results})  # each board once
    scored.clear()
    assert score_field(sections) == first and scored == []  # nothing changed, nothing scored
    changed = list(results)
    changed[5] = replace(changed[5], tricks=13 - (changed[5].tricks or 0) % 3)
    sections[1] = replace(sections[1], record=replace(sections[1].record, results=tuple(changed)))
    again = score_field(sections)
    assert scored == [(changed[5].board,)]
    assert again == scored_from_scratch(sections, True)
