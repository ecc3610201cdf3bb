"""Cross-IMPs: each result of a board IMPed against every other result of the board and
averaged over them (ACBLscore's "Average IMPs"), an artificial score ±3 IMPs as in Butler;
the pairs ranked by their total. Checked on the published examples and, as a rule, against a
count written here with its own IMP scale."""

from collections import defaultdict
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.bridge import Artificial, Contract, Strain
from scorekeeper.rules.common import Seat, Side
from scorekeeper.rules.duplicate import (
    Ranking,
    Scoring,
    TableResult,
    cross_imps,
    score_session,
)

# The IMP scale of Law 78B, as the Laws print it: the lower end of each band's score
# difference, from 1 IMP to 24.
LAW_78B = [
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
]  # fmt: skip


def imp_of(difference: int) -> int:
    """IMPs for a score difference, read off the scale from the top down."""
    size = abs(difference)
    for imp in range(24, 0, -1):
        if size >= LAW_78B[imp - 1]:
            return imp if difference > 0 else -imp
    return 0


def average_cross_imps(scores: list[int]) -> list[Fraction]:
    """Each score against each other one, the IMPs added and divided by the comparisons."""
    figures = []
    for mine, score in enumerate(scores):
        others = [other for place, other in enumerate(scores) if place != mine]
        total = sum(imp_of(score - other) for other in others)
        figures.append(Fraction(total, len(others)) if others else Fraction(0))
    return figures


def test_the_three_table_example() -> None:
    # Table 1 makes 4H (+420), table 2 makes 3H (+170), table 3 sacrifices 4S doubled, two
    # down (+300): North-South 1 win 6 IMPs against table 2 and 3 against table 3, 4.5 on
    # average; North-South 2 lose 6 and 4, −5 on average.
    assert cross_imps([420, 170, 300]) == [Fraction(9, 2), Fraction(-5), Fraction(1, 2)]


def test_one_overtrick_against_the_field() -> None:
    # Five tables in 3NT, one with an overtrick (+630 against +600): 1 IMP against each of the
    # four others, an average of 1; each of the four loses 1 IMP to it, a quarter on average.
    assert (
        cross_imps([600, 600, 630, 600, 600])
        == [Fraction(-1, 4)] * 2 + [Fraction(1)] + [Fraction(-1, 4)] * 2
    )


def test_a_board_played_once_has_nothing_to_compare_with() -> None:
    assert cross_imps([620]) == [0]
    assert cross_imps([]) == []


def test_artificial_scores_are_three_imps_and_no_result_for_the_others() -> None:
    results = [
        TableResult(1, 1, 1, 1, 2, Contract(4, "S"), Seat.NORTH, 10),
        TableResult(1, 2, 1, 3, 4, Contract(4, "S"), Seat.NORTH, 9),
        TableResult(
            1, 3, 1, 5, 6, artificial_ns=Artificial.AVERAGE_PLUS, artificial_ew=Artificial.AVERAGE
        ),
    ]
    session = score_session(results, scoring=Scoring.CROSS_IMPS)
    # 420 against −50: 10 IMPs, one comparison each; the artificial score is not compared.
    assert [(s.ns, s.ew) for s in session.results] == [(10, -10), (-10, 10), (3, 0)]
    assert all(s.top == 0 and s.datum is None for s in session.results)
    assert [(s.pair.number, s.total, s.percentage) for s in session.standings()] == [
        (1, 10, None),
        (4, 10, None),
        (5, 3, None),
        (6, 0, None),
        (2, -10, None),
        (3, -10, None),
    ]


scores = st.sampled_from(
    [-1400, -800, -620, -500, -420, -200, -110, -100, -50, 0, 50, 90, 100, 110, 120, 130,
     140, 150, 170, 200, 300, 400, 420, 430, 450, 460, 490, 500, 600, 620, 630, 650, 660,
     680, 800, 920, 980, 990, 1430, 1440, 1460, 2210]
)  # fmt: skip


@st.composite
def howells(draw: st.DrawFn) -> list[TableResult]:
    """A one-field session: each board played at several tables by pairs drawn afresh, a
    few results artificial."""
    results = []
    for board in range(1, draw(st.integers(1, 5)) + 1):
        tables = draw(st.integers(1, 6))
        seats = draw(st.permutations(range(1, 13)))
        for table in range(1, tables + 1):
            ns, ew = seats[2 * table - 2], seats[2 * table - 1]
            if draw(st.integers(0, 9)) == 0:
                sides = st.sampled_from(list(Artificial))
                results.append(
                    TableResult(
                        board,
                        table,
                        1,
                        ns,
                        ew,
                        artificial_ns=draw(sides),
                        artificial_ew=draw(sides),
                    )
                )
                continue
            tricks = draw(st.integers(0, 13))
            contract = Contract(draw(st.integers(1, 7)), draw(st.sampled_from(list(Strain))))
            results.append(TableResult(board, table, 1, ns, ew, contract, Seat.NORTH, tricks))
    return results


ARTIFICIAL = {Artificial.AVERAGE_PLUS: 3, Artificial.AVERAGE: 0, Artificial.AVERAGE_MINUS: -3}


@settings(max_examples=200, deadline=None)
@given(st.lists(scores, max_size=12))
def test_each_score_is_its_average_imps_against_the_others(board: list[int]) -> None:
    assert cross_imps(board) == average_cross_imps(board)


@settings(max_examples=150, deadline=None)
@given(howells())
def test_a_session_in_cross_imps_adds_each_pairs_averages_and_ranks_by_them(
    results: list[TableResult],
) -> None:
    session = score_session(results, scoring=Scoring.CROSS_IMPS)
    expected: dict[int, Fraction] = defaultdict(Fraction)
    by_board: dict[int, list[TableResult]] = defaultdict(list)
    for result in results:
        by_board[result.board].append(result)
    for rows in by_board.values():
        real = [row for row in rows if row.score_ns is not None]
        for row, figure in zip(
            real, average_cross_imps([r.score_ns or 0 for r in real]), strict=True
        ):
            expected[row.ns] += figure
            expected[row.ew] -= figure
        for row in rows:
            if row.artificial_ns is not None and row.artificial_ew is not None:
                expected[row.ns] += ARTIFICIAL[row.artificial_ns]
                expected[row.ew] += ARTIFICIAL[row.artificial_ew]
    standings = session.standings()
    assert {s.pair.number: s.total for s in standings} == dict(expected)
    for standing in standings:
        ahead = sum(total > standing.total for total in expected.values())
        assert standing.rank == ahead + 1
        assert standing.percentage is None


def test_a_mitchell_in_cross_imps_ranks_each_direction() -> None:
    # 3NT by South made (+400), with an overtrick (+430), one down (−50).
    results = [
        TableResult(1, table, 1, table, table, Contract(3, "NT"), Seat.SOUTH, tricks)
        for table, tricks in ((1, 9), (2, 10), (3, 8))
    ]
    session = score_session(results, ranking=Ranking.BY_DIRECTION, scoring=Scoring.CROSS_IMPS)
    north_south = [(s.pair.number, s.total) for s in session.standings(Side.NS)]
    east_west = [(s.pair.number, s.total) for s in session.standings(Side.EW)]
    assert north_south == [(2, Fraction(11, 2)), (1, Fraction(9, 2)), (3, -10)]
    assert east_west == [(3, 10), (1, Fraction(-9, 2)), (2, Fraction(-11, 2))]
