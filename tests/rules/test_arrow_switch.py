"""An arrow-switched Mitchell (RULES.md §2): the pairs that sat the other way earn the score
of the seats they held, and the whole room is ranked as one field, checked against a count
made here from the seats alone; its results files number the pairs across the room."""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.bridge import Contract
from scorekeeper.rules.common import Seat, Side
from scorekeeper.rules.duplicate import (
    Pair,
    Ranking,
    SessionRecord,
    TableResult,
    expected_results,
)
from scorekeeper.rules.movements import Movement, mitchell
from scorekeeper.rules.pbn import read_pbn, write_pbn
from scorekeeper.rules.usebio import read_usebio, write_usebio

Label = tuple[Side, int]


def played(
    movement: Movement, seed: int
) -> tuple[list[TableResult], list[tuple[int, Label, Label, int]]]:
    """Every board of the movement played, with a random one-notrump result; and the same
    results as this count keeps them: the board, who held North-South's and East-West's
    seats, and North-South's score."""
    rng = random.Random(seed)
    results, seats = [], []
    for seating in movement.seatings:
        if movement.sits_out(seating):
            continue
        (north, north_side), (east, east_side) = seating.at(Side.NS), seating.at(Side.EW)
        for board in seating.boards:
            tricks = rng.randint(5, 9)
            result = TableResult(
                board, seating.table, seating.round, north, east,
                contract=Contract(1, "NT"), declarer=Seat.NORTH, tricks=tricks,
                switched=seating.switched,
            )  # fmt: skip
            results.append(result)
            assert result.score_ns is not None
            seats.append((board, (north_side, north), (east_side, east), result.score_ns))
    return results, seats


def counted(seats: list[tuple[int, Label, Label, int]]) -> dict[Label, tuple[Fraction, int]]:
    """Each pair's matchpoints and top: on each board, the seats' score against the others'
    in the same seats (2 a lower score, 1 an equal one), whichever pair held them."""
    by_board: dict[int, list[int]] = defaultdict(list)
    for board, _north, _east, score in seats:
        by_board[board].append(score)
    totals: dict[Label, Fraction] = defaultdict(Fraction)
    tops: dict[Label, int] = defaultdict(int)
    for board, north, east, score in seats:
        others = by_board[board]
        top = 2 * (len(others) - 1)
        north_points = sum(2 if o < score else 1 if o == score else 0 for o in others) - 1
        totals[north] += north_points
        totals[east] += top - north_points
        tops[north] += top
        tops[east] += top
    return {pair: (totals[pair], tops[pair]) for pair in totals}


@settings(max_examples=40, deadline=None)
@given(
    tables=st.integers(3, 9),
    phantom=st.booleans(),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_an_arrow_switched_mitchell_is_ranked_as_one_field(
    tables: int, phantom: bool, seed: int, data: st.DataObject
) -> None:
    plain = mitchell(tables, 2, pairs=2 * tables - phantom)
    switched = data.draw(st.sets(st.integers(1, plain.rounds), min_size=1))
    movement = plain.with_arrow_switch(switched)
    results, seats = played(movement, seed)
    # Each board against its own results: Neuberg's scaling is checked elsewhere.
    boards = expected_results(results)
    score = SessionRecord(tuple(results), ranking=Ranking.ARROW_SWITCHED, expected=boards).score()
    expected = counted(seats)

    ((field, standings),) = score.rankings
    assert field is None
    assert {(s.pair.direction, s.pair.number) for s in standings} == set(expected)
    for standing in standings:
        total, top = expected[standing.pair.direction, standing.pair.number]
        assert (standing.total, standing.top) == (total, top)
        share = total / top
        ahead = sum(1 for t, p in expected.values() if t / p > share)
        assert standing.rank == ahead + 1


def arrow_switched_session() -> SessionRecord:
    movement = mitchell(4, 2).with_arrow_switch({3})
    results, _seats = played(movement, 7)
    names = {
        Pair(2, Side.EW): "Anne Martin - Bruno Petit",
        Pair(4, Side.NS): "Chloé Roux - Dan Bec",
    }
    return SessionRecord(tuple(results), ranking=Ranking.ARROW_SWITCHED, names=names)


def test_the_files_number_an_arrow_switched_room_across() -> None:
    session = arrow_switched_session()
    mine = {s.pair: s for s in session.score().standings()}
    across = session.as_one_field()
    assert across.ranking is Ranking.ONE_FIELD
    assert not any(result.switched for result in across.results)
    assert across.names == {Pair(6): "Anne Martin - Bruno Petit", Pair(4): "Chloé Roux - Dan Bec"}
    for read in (read_pbn(write_pbn(session)).session, read_usebio(write_usebio(session)).session):
        assert read.ranking is Ranking.ONE_FIELD
        assert read.names == across.names
        theirs = {s.pair: s for s in read.score().standings()}
        assert len(theirs) == len(mine) == 8
        for pair, standing in mine.items():
            number = pair.number + (4 if pair.direction is Side.EW else 0)
            other = theirs[Pair(number)]
            assert (other.rank, other.total, other.percentage) == (
                standing.rank, standing.total, standing.percentage
            )  # fmt: skip


def test_a_pair_that_sat_the_wrong_way_earns_the_seats_it_held() -> None:
    # Board 1 at two tables of a Mitchell; at table 2 the pairs sat the wrong way round.
    made = TableResult(1, 1, 1, 1, 1, Contract(3, "NT"), Seat.NORTH, 9)
    wrong_way = TableResult(1, 2, 1, 2, 2, Contract(3, "NT"), Seat.NORTH, 8, switched=True)
    score = SessionRecord((made, wrong_way), ranking=Ranking.BY_DIRECTION).score()
    # East-West pair 2 held North-South's seats and went down: North-South pair 2, sitting
    # East-West, earns the top there, and stays in the North-South ranking.
    assert [(s.pair.label, s.total) for s in score.standings(Side.NS)] == [("NS1", 2), ("NS2", 2)]
    assert [(s.pair.label, s.total) for s in score.standings(Side.EW)] == [("EW1", 0), ("EW2", 0)]
