"""One scoring rule for every board of a session played here, whatever happened to the evening
(RULES.md §2 and §4): a board with fewer results than the most any board of the field has or is
to have is scaled by Neuberg's formula, whether a late pair, an added table, a pair leaving, a
result taken away or an artificial score made it shorter. Every figure the engine gives is held
to a count written here, from the results alone."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.bridge import Artificial, Contract
from scorekeeper.rules.common import Seat, Side
from scorekeeper.rules.duplicate import Pair, Ranking, SessionRecord, TableResult
from scorekeeper.rules.movements import (
    HOWELL_TABLES,
    Movement,
    MovementError,
    howell,
    mitchell,
)

SHARE = {"A+": Fraction(3, 5), "A=": Fraction(1, 2), "A-": Fraction(2, 5)}
# A few contracts, so that equal scores (shared matchpoints) are common.
CONTRACTS = [(Contract(1, "NT"), 7), (Contract(2, "S"), 8), (Contract(4, "H"), 10),
             (Contract(3, "NT"), 8), (Contract(4, "H", 1), 5)]  # fmt: skip


@st.composite
def evenings(draw: st.DrawFn) -> Movement:
    """A movement as a director may have run it: a Mitchell or a Howell, full or with a
    sit-out, then a late pair, a table added, a pair leaving or an arrow switch."""
    boards_per_round = draw(st.integers(1, 3))
    if draw(st.booleans()):
        tables = draw(st.integers(3, 8))
        odd = draw(st.booleans())
        movement = mitchell(tables, boards_per_round, pairs=2 * tables - odd)
    else:
        tables = draw(st.sampled_from(list(HOWELL_TABLES)[:4]))
        odd = draw(st.booleans())
        movement = howell(tables, boards_per_round, pairs=2 * tables - odd)
    changes = st.sampled_from(["late", "added", "leaves", "switch"])
    for change in draw(st.lists(changes, max_size=3)):
        from_round = draw(st.integers(1, movement.rounds))
        try:
            if change == "late":
                movement = movement.with_late_pair(from_round)
            elif change == "added":
                movement = movement.with_added_table(from_round, pairs=draw(st.integers(1, 2)))
            elif change == "leaves":
                pair, direction = draw(st.sampled_from(movement.pairs_listed()))
                movement = movement.with_pair_leaving(pair, direction, from_round)
            else:
                movement = movement.with_arrow_switch({from_round})
        except MovementError:
            pass  # a change this evening cannot take: the director is told so
    return movement


@st.composite
def played(draw: st.DrawFn, movement: Movement) -> list[TableResult]:
    """Each board at each table of the movement: played, passed out, given artificial scores,
    or not (yet) entered."""
    results = []
    for seating in movement.seatings:
        if movement.sits_out(seating):
            continue
        (ns, _), (ew, _) = seating.at(Side.NS), seating.at(Side.EW)
        for board in seating.boards:
            kind = draw(st.sampled_from(["played"] * 6 + ["passed", "artificial", "missing"]))
            place = (board, seating.table, seating.round, ns, ew)
            if kind == "missing":
                continue
            if kind == "passed":
                results.append(TableResult(*place, switched=seating.switched))
            elif kind == "artificial":
                shares = st.sampled_from(list(Artificial))
                ns_share, ew_share = draw(shares), draw(shares)
                artificial = {"artificial_ns": ns_share, "artificial_ew": ew_share}
                results.append(TableResult(*place, **artificial, switched=seating.switched))
            else:
                contract, tricks = draw(st.sampled_from(CONTRACTS))
                declarer = draw(st.sampled_from(list(Seat)))
                results.append(
                    TableResult(*place, contract, declarer, tricks, switched=seating.switched)
                )
    return results


def seated(result: TableResult, ranking: Ranking) -> tuple[Pair, Pair]:
    """The pairs in North-South's and East-West's seats, named as the ranking names them: in a
    Mitchell by their number and home direction (the other way round in a switched round)."""
    if ranking is Ranking.ONE_FIELD:
        return Pair(result.ns), Pair(result.ew)
    home_ns, home_ew = (Side.EW, Side.NS) if result.switched else (Side.NS, Side.EW)
    return Pair(result.ns, home_ns), Pair(result.ew, home_ew)


def scheduled_most(movement: Movement) -> int:
    """The most results the movement gives any board: its tables where both pairs play it."""
    counts: dict[int, int] = defaultdict(int)
    for seating in movement.seatings:
        if not movement.sits_out(seating):
            for board in seating.boards:
                counts[board] += 1
    return max(counts.values())


def counted_by_hand(
    movement: Movement, results: list[TableResult]
) -> tuple[list[tuple[Fraction, Fraction]], dict[Pair, tuple[Fraction, int, int]]]:
    """Each result's matchpoints for both sides, and each pair's total, top and boards,
    counted from the scores alone: 2 per lower real score and 1 per equal one; on a board with
    n real results of the N the field has, (M + 1) × N / n − 1; an artificial score its share
    of the full top, 2 × (N − 1)."""
    by_board: dict[int, list[int]] = defaultdict(list)
    for index, result in enumerate(results):
        by_board[result.board].append(index)
    field = max([scheduled_most(movement), *(len(found) for found in by_board.values())])
    top = 2 * (field - 1)
    figures: list[tuple[Fraction, Fraction]] = [(Fraction(0), Fraction(0))] * len(results)
    for indexes in by_board.values():
        real = [results[i].score_ns for i in indexes if results[i].artificial_ns is None]
        for i in indexes:
            result = results[i]
            if result.artificial_ns is not None and result.artificial_ew is not None:
                figures[i] = (
                    SHARE[result.artificial_ns.value] * top,
                    SHARE[result.artificial_ew.value] * top,
                )
                continue
            mine = result.score_ns
            assert mine is not None
            points = Fraction(sum(2 if s < mine else 1 if s == mine else 0 for s in real) - 1)
            if len(real) < field:
                points = (points + 1) * field / len(real) - 1
            figures[i] = (points, top - points)
    tallies: dict[Pair, tuple[Fraction, int, int]] = {}
    for result, (ns, ew) in zip(results, figures, strict=True):
        for pair, figure in zip(seated(result, movement.ranking), (ns, ew), strict=True):
            total, tops, boards = tallies.get(pair, (Fraction(0), 0, 0))
            tallies[pair] = (total + figure, tops + top, boards + 1)
    return figures, tallies


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_board_is_scaled_to_the_field_whatever_made_it_short(data: st.DataObject) -> None:
    movement = data.draw(evenings())
    results = data.draw(played(movement))
    # The session as the club scores it: its results and its movement.
    record = SessionRecord(
        tuple(results), ranking=movement.ranking, expected=movement.expected_results(results)
    )
    score = record.score()
    figures, tallies = counted_by_hand(movement, results)

    assert [(s.ns, s.ew) for s in score.results] == figures
    for scored, result in zip(score.results, results, strict=True):
        assert scored.result == result
        assert scored.top == 2 * (max(movement.expected_results(results).values()) - 1)

    fields = (Side.NS, Side.EW) if movement.ranking is Ranking.BY_DIRECTION else (None,)
    assert [direction for direction, _ in score.rankings] == list(fields)
    for direction, standings in score.rankings:
        mine = {p: t for p, t in tallies.items() if direction is None or p.direction == direction}
        assert {standing.pair for standing in standings} == set(mine)
        # A field where no board has two results has no top: the totals (all 0) rank.
        shares = {pair: total / top if top else total for pair, (total, top, _) in mine.items()}
        for standing in standings:
            total, top, boards = mine[standing.pair]
            assert (standing.total, standing.top, standing.boards) == (total, top, boards)
            assert standing.percentage == (total * 100 / top if top else None)
            share = shares[standing.pair]
            assert standing.rank == 1 + sum(other > share for other in shares.values())
            assert standing.tied == (list(shares.values()).count(share) > 1)
