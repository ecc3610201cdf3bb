"""Movements (RULES.md §2): every Mitchell and Howell the engine gives, with and without a
phantom, checked against the rules a movement keeps, counted here independently of the
module; worked examples; and the requests it refuses."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.common import Side
from scorekeeper.rules.duplicate import Ranking
from scorekeeper.rules.movements import (
    HOWELL_TABLES,
    MAX_BOARDS_PER_ROUND,
    MAX_MITCHELL_TABLES,
    Movement,
    MovementError,
    MovementKind,
    MovementRule,
    Seating,
    howell,
    mitchell,
)

MITCHELL_TABLES = range(3, MAX_MITCHELL_TABLES + 1)
BOARDS_PER_ROUND = (1, 3)

# A pair as the checks name it: its direction in a Mitchell (``None`` in a Howell) and number.
Label = tuple[Side | None, int]


def build(kind: MovementKind, tables: int, boards_per_round: int, phantom: bool) -> Movement:
    make = mitchell if kind is MovementKind.MITCHELL else howell
    return make(tables, boards_per_round, pairs=2 * tables - phantom)


def labels(movement: Movement, seating: Seating) -> tuple[Label, Label]:
    if movement.kind is MovementKind.MITCHELL:
        return (Side.NS, seating.ns), (Side.EW, seating.ew)
    return (None, seating.ns), (None, seating.ew)


def phantom_label(movement: Movement) -> Label | None:
    if movement.phantom is None:
        return None
    if movement.kind is MovementKind.MITCHELL:
        return Side.EW, movement.phantom
    return None, movement.phantom


def all_labels(movement: Movement) -> list[Label]:
    if movement.kind is MovementKind.MITCHELL:
        return [(side, n) for side in Side for n in range(1, movement.tables + 1)]
    return [(None, n) for n in range(1, 2 * movement.tables + 1)]


def board_set(seating: Seating, boards_per_round: int) -> int:
    return (seating.boards[0] - 1) // boards_per_round + 1


def places(movement: Movement) -> dict[tuple[int, Label], tuple[Seating, Side]]:
    """Each pair's seating and side in each round, found by reading the seatings."""
    found: dict[tuple[int, Label], tuple[Seating, Side]] = {}
    for seating in movement.seatings:
        for label, side in zip(labels(movement, seating), Side, strict=True):
            assert (seating.round, label) not in found, f"{label} twice in round {seating.round}"
            found[seating.round, label] = (seating, side)
    return found


def check_movement(movement: Movement, tables: int, boards_per_round: int, phantom: bool) -> None:
    """Every rule a movement keeps, whatever its kind."""
    mitchell_kind = movement.kind is MovementKind.MITCHELL
    if mitchell_kind:
        rounds = tables if tables % 2 else tables - 1
        sets = tables
    else:
        rounds = sets = 2 * tables - 1
    assert (movement.tables, movement.boards_per_round) == (tables, boards_per_round)
    assert movement.rounds == rounds
    assert movement.boards == sets * boards_per_round
    assert movement.pairs == 2 * tables - phantom
    expected_ranking = Ranking.BY_DIRECTION if mitchell_kind else Ranking.ONE_FIELD
    assert movement.ranking is expected_ranking
    if phantom:
        assert movement.phantom == (tables if mitchell_kind else 2 * tables)
    else:
        assert movement.phantom is None
    sitting_out = phantom_label(movement)

    # One seating per table per round, by round then table; the boards are one whole set.
    assert [(s.round, s.table) for s in movement.seatings] == [
        (r, t) for r in range(1, rounds + 1) for t in range(1, tables + 1)
    ]
    for seating in movement.seatings:
        number = board_set(seating, boards_per_round)
        # Every table plays one of the session's sets, numbered from 1: none beyond the last.
        assert 1 <= number <= sets
        first = (number - 1) * boards_per_round + 1
        assert seating.boards == tuple(range(first, first + boards_per_round))
        assert seating.board_set == number
    for table in range(1, tables + 1):
        card = movement.table_seatings(table)
        assert card == tuple(s for s in movement.seatings if s.table == table)
        assert [s.round for s in card] == list(range(1, rounds + 1))
    for r in range(1, rounds + 1):
        assert movement.round_seatings(r) == tuple(s for s in movement.seatings if s.round == r)

    # Each round every pair (the phantom's place too) sits exactly once.
    seen = places(movement)
    assert len(seen) == rounds * len(all_labels(movement))
    assert {label for _, label in seen} == set(all_labels(movement))

    # The phantom's opponents, and only they, sit out: one table a round.
    for seating in movement.seatings:
        assert movement.sits_out(seating) == (sitting_out in labels(movement, seating))
    for r in range(1, rounds + 1):
        out = sum(movement.sits_out(s) for s in movement.round_seatings(r))
        assert out == (1 if phantom else 0)

    # No pair meets another twice, nor plays a board twice.
    meetings = Counter(frozenset(labels(movement, s)) for s in movement.seatings)
    assert max(meetings.values()) == 1
    played: dict[Label, list[int]] = {}
    for seating in movement.seatings:
        for label in labels(movement, seating):
            played.setdefault(label, []).extend(seating.boards)
    for label, boards in played.items():
        assert len(boards) == len(set(boards)), f"{label} plays a board twice"

    # seating_of, place_of and next_move agree with the seatings.
    for (r, label), (seating, side) in seen.items():
        direction, number = label
        assert seating.pair(side) == number
        out = movement.sits_out(seating)
        assert movement.place_of(number, r, direction) == seating
        assert movement.seating_of(number, r, direction) == (None if out else seating)
        move = movement.next_move(number, r, direction)
        if r == rounds or label == sitting_out:
            assert move is None
        else:
            following, following_side = seen[r + 1, label]
            assert move == (following.table, following_side)
            now = movement.seating_of(number, r + 1, direction)
            if now is not None:
                assert (now.table, now.pair(following_side)) == (move[0], number)

    # Neuberg's N: the most tables where two real pairs play a board, for every board (an
    # even Mitchell with a sit-out plays one board set once more than the others).
    counted = dict.fromkeys(range(1, movement.boards + 1), 0)
    for seating in movement.seatings:
        if sitting_out not in labels(movement, seating):
            for board in seating.boards:
                counted[board] += 1
    assert movement.expected_results() == dict.fromkeys(counted, max(counted.values()))
    assert sum(counted.values()) == (tables - phantom) * rounds * boards_per_round

    # Sharing boards: counted here, and said by shared_with.
    for seating in movement.seatings:
        sharing = tuple(
            other.table
            for other in movement.round_seatings(seating.round)
            if other is not seating
            and other.boards == seating.boards
            and sitting_out not in labels(movement, other)
            and sitting_out not in labels(movement, seating)
        )
        assert movement.shared_with(seating) == sharing
    check_board_order(movement)


def check_board_order(movement: Movement) -> None:
    """Each table plays its round's boards once each, in their order round the set, and
    tables sharing a set start on different boards of it as long as it has enough."""
    for seating in movement.seatings:
        order = movement.board_order(seating)
        boards = seating.boards
        start = boards.index(order[0])
        assert order == boards[start:] + boards[:start]
        sharing = (seating.table, *movement.shared_with(seating))
        firsts = {movement.board_order(movement.round_seatings(seating.round)[t - 1])[0]
                  for t in sharing}  # fmt: skip
        assert len(firsts) == min(len(sharing), len(boards))


def check_mitchell(movement: Movement, tables: int, boards_per_round: int) -> None:
    rounds = movement.rounds
    assert movement.kind is MovementKind.MITCHELL
    first = movement.round_seatings(1)
    assert [(s.ns, s.ew, board_set(s, boards_per_round)) for s in first] == [
        (t, t, t) for t in range(1, tables + 1)
    ]
    for seating in movement.seatings:
        assert seating.ns == seating.table, "North-South stay at their table"
        assert movement.shared_with(seating) == ()
    for r in range(1, rounds):
        now, then = movement.round_seatings(r), movement.round_seatings(r + 1)
        skip = tables % 2 == 0 and r == tables // 2
        for seating in now:
            moved = next(s for s in then if s.ew == seating.ew)
            assert moved.table == (seating.table - 1 + (2 if skip else 1)) % tables + 1
            # The boards move down one table: what table t + 1 played, table t plays next.
            down = then[seating.table - 2]
            assert down.boards == seating.boards
    for number in range(1, tables + 1):
        opponents = {s.ns for s in movement.seatings if s.ew == number}
        assert len(opponents) == rounds == (tables if tables % 2 else tables - 1)
        sets_played = {board_set(s, boards_per_round) for s in movement.seatings if s.ew == number}
        assert len(sets_played) == rounds
    for r in range(1, rounds + 1):
        sets = [board_set(s, boards_per_round) for s in movement.round_seatings(r)]
        assert sorted(sets) == list(range(1, tables + 1))


def check_howell(movement: Movement, tables: int, boards_per_round: int) -> None:
    rounds = 2 * tables - 1
    pairs = range(1, 2 * tables + 1)
    assert movement.kind is MovementKind.HOWELL
    meetings = Counter(frozenset((s.ns, s.ew)) for s in movement.seatings)
    assert meetings == Counter(frozenset(two) for two in combinations(pairs, 2))
    for pair in pairs:
        mine = [s for s in movement.seatings if pair in (s.ns, s.ew)]
        sets = sorted(board_set(s, boards_per_round) for s in mine)
        assert sets == list(range(1, rounds + 1)), f"pair {pair} plays each set once"
        north_south = sum(s.ns == pair for s in mine)
        assert north_south in (tables - 1, tables), f"pair {pair} sits NS {north_south} times"
    for seating in movement.table_seatings(1):
        assert 2 * tables in (seating.ns, seating.ew), "the last pair stays at table 1"
    shared = [s for s in movement.seatings if movement.shared_with(s)]
    if tables >= 4:
        assert shared == []
        for r in range(1, rounds + 1):
            sets = [board_set(s, boards_per_round) for s in movement.round_seatings(r)]
            assert len(set(sets)) == tables
    else:
        assert shared, "a 3-table Howell cannot give each table its own set"
        for seating in shared:
            for table in movement.shared_with(seating):
                other = movement.round_seatings(seating.round)[table - 1]
                assert other.boards == seating.boards
                assert seating.table in movement.shared_with(other)


MOVEMENTS = [
    (MovementKind.MITCHELL, tables, boards_per_round, phantom)
    for tables in MITCHELL_TABLES
    for boards_per_round in BOARDS_PER_ROUND
    for phantom in (False, True)
] + [
    (MovementKind.HOWELL, tables, boards_per_round, phantom)
    for tables in HOWELL_TABLES
    for boards_per_round in (*BOARDS_PER_ROUND, 4)
    for phantom in (False, True)
]


@pytest.mark.parametrize(
    ("kind", "tables", "boards_per_round", "phantom"),
    MOVEMENTS,
    ids=[f"{k}-{t}t-{b}b{'-phantom' if p else ''}" for k, t, b, p in MOVEMENTS],
)
def test_every_movement_keeps_the_rules(
    kind: MovementKind, tables: int, boards_per_round: int, phantom: bool
) -> None:
    movement = build(kind, tables, boards_per_round, phantom)
    check_movement(movement, tables, boards_per_round, phantom)
    if kind is MovementKind.MITCHELL:
        check_mitchell(movement, tables, boards_per_round)
    else:
        check_howell(movement, tables, boards_per_round)


@given(
    st.sampled_from(MovementKind),
    st.integers(3, 15),
    st.integers(1, MAX_BOARDS_PER_ROUND),
    st.booleans(),
)
def test_any_boards_per_round_keeps_the_rules(
    kind: MovementKind, tables: int, boards_per_round: int, phantom: bool
) -> None:
    if kind is MovementKind.HOWELL:
        tables = HOWELL_TABLES[tables % len(HOWELL_TABLES)]
    movement = build(kind, tables, boards_per_round, phantom)
    check_movement(movement, tables, boards_per_round, phantom)


def test_the_three_table_mitchell_written_out() -> None:
    movement = mitchell(3, 2)
    assert movement.seatings == (
        Seating(1, 1, 1, 1, (1, 2)),
        Seating(1, 2, 2, 2, (3, 4)),
        Seating(1, 3, 3, 3, (5, 6)),
        Seating(2, 1, 1, 3, (3, 4)),
        Seating(2, 2, 2, 1, (5, 6)),
        Seating(2, 3, 3, 2, (1, 2)),
        Seating(3, 1, 1, 2, (5, 6)),
        Seating(3, 2, 2, 3, (1, 2)),
        Seating(3, 3, 3, 1, (3, 4)),
    )
    assert movement.expected_results() == dict.fromkeys(range(1, 7), 3)
    assert movement.next_move(3, 1, Side.EW) == (1, Side.EW)
    assert movement.next_move(2, 1, Side.NS) == (2, Side.NS)
    assert movement.next_move(2, 3, Side.NS) is None


def test_the_four_table_mitchell_skips_after_two_rounds() -> None:
    movement = mitchell(4, 2)
    assert movement.rounds == 3
    assert [movement.place_of(1, r, Side.EW).table for r in (1, 2, 3)] == [1, 2, 4]
    assert [s.boards for s in movement.table_seatings(1)] == [(1, 2), (3, 4), (5, 6)]
    assert movement.expected_results() == dict.fromkeys(range(1, 9), 3)


def test_a_mitchell_sit_out_is_east_west_last_pair() -> None:
    movement = mitchell(5, 2, pairs=9)
    assert movement.phantom == 5
    assert [s.table for s in movement.seatings if movement.sits_out(s)] == [5, 1, 2, 3, 4]
    assert movement.seating_of(1, 2, Side.NS) is None
    assert movement.seating_of(1, 2, Side.EW) == Seating(2, 2, 2, 1, (5, 6))
    assert movement.seating_of(5, 1, Side.EW) is None
    assert movement.seating_of(5, 1, Side.NS) is None
    assert movement.next_move(5, 1, Side.EW) is None
    assert movement.next_move(1, 1, Side.NS) == (1, Side.NS)
    assert movement.expected_results() == dict.fromkeys(range(1, 11), 4)


def test_the_three_table_howell_written_out() -> None:
    movement = howell(3, 2)
    assert [(s.round, s.table, s.ns, s.ew, s.board_set) for s in movement.seatings] == [
        (1, 1, 6, 1, 1),
        (1, 2, 2, 5, 1),
        (1, 3, 3, 4, 1),
        (2, 1, 2, 6, 2),
        (2, 2, 3, 1, 5),
        (2, 3, 4, 5, 3),
        (3, 1, 6, 3, 3),
        (3, 2, 4, 2, 5),
        (3, 3, 5, 1, 4),
        (4, 1, 4, 6, 4),
        (4, 2, 5, 3, 2),
        (4, 3, 1, 2, 3),
        (5, 1, 6, 5, 5),
        (5, 2, 1, 4, 2),
        (5, 3, 2, 3, 4),
    ]
    first = movement.round_seatings(1)
    assert [movement.shared_with(s) for s in first] == [(2, 3), (1, 3), (1, 2)]
    assert movement.expected_results() == dict.fromkeys(range(1, 11), 3)


def test_a_three_table_howell_sit_out_leaves_two_tables_sharing() -> None:
    movement = howell(3, 3, pairs=5)
    first = movement.round_seatings(1)
    assert [movement.sits_out(s) for s in first] == [True, False, False]
    assert [movement.shared_with(s) for s in first] == [(), (3,), (2,)]
    assert movement.seating_of(1, 1) is None
    assert movement.next_move(1, 1) == (2, Side.EW)
    assert movement.expected_results() == dict.fromkeys(range(1, 16), 2)


def test_a_howell_round_and_its_moves() -> None:
    movement = howell(4, 2, pairs=7)
    assert [(s.table, s.ns, s.ew, s.boards) for s in movement.round_seatings(1)] == [
        (1, 8, 1, (1, 2)),
        (2, 2, 7, (5, 6)),
        (3, 3, 6, (9, 10)),
        (4, 4, 5, (3, 4)),
    ]
    assert movement.phantom == 8
    assert movement.seating_of(1, 1) is None
    assert movement.seating_of(2, 1) == Seating(1, 2, 2, 7, (5, 6))
    # North-South go down a table, East-West up, through table 1 where the last pair sits
    # North-South in odd rounds and East-West in even ones.
    assert [movement.next_move(p, 1) for p in (1, 2, 3, 7)] == [
        (2, Side.EW),
        (1, Side.NS),
        (2, Side.NS),
        (3, Side.EW),
    ]
    assert movement.next_move(8, 1) is None
    assert movement.expected_results() == dict.fromkeys(range(1, 15), 3)


Make = Callable[..., Movement]


@pytest.mark.parametrize(
    ("make", "arguments", "pairs", "rule"),
    [
        (mitchell, (2, 2), None, MovementRule.MITCHELL_TABLES),
        (mitchell, (0, 2), None, MovementRule.MITCHELL_TABLES),
        (mitchell, (MAX_MITCHELL_TABLES + 1, 2), None, MovementRule.MITCHELL_TABLES),
        (mitchell, (True, 2), None, MovementRule.MITCHELL_TABLES),
        (mitchell, ("5", 2), None, MovementRule.MITCHELL_TABLES),
        (howell, (2, 2), None, MovementRule.HOWELL_TABLES),
        (howell, (9, 2), None, MovementRule.HOWELL_TABLES),
        (howell, (16, 2), None, MovementRule.HOWELL_TABLES),
        (howell, (4.0, 2), None, MovementRule.HOWELL_TABLES),
        (mitchell, (5, 0), None, MovementRule.BOARDS_PER_ROUND),
        (howell, (5, 0), None, MovementRule.BOARDS_PER_ROUND),
        (howell, (5, MAX_BOARDS_PER_ROUND + 1), None, MovementRule.BOARDS_PER_ROUND),
        (mitchell, (5, -2), None, MovementRule.BOARDS_PER_ROUND),
        (mitchell, (5, False), None, MovementRule.BOARDS_PER_ROUND),
        (mitchell, (5, 2), 8, MovementRule.PAIRS),
        (mitchell, (5, 2), 11, MovementRule.PAIRS),
        (mitchell, (5, 2), 0, MovementRule.PAIRS),
        (howell, (4, 2), 7.0, MovementRule.PAIRS),
        (howell, (4, 2), "8", MovementRule.PAIRS),
        (howell, (4, 2), 6, MovementRule.PAIRS),
    ],
)
def test_a_movement_outside_the_rules_is_refused(
    make: Make, arguments: tuple[object, ...], pairs: object, rule: MovementRule
) -> None:
    with pytest.raises(MovementError) as raised:
        make(*arguments, pairs=pairs)
    assert raised.value.rule is rule


def test_a_refusal_says_what_was_asked() -> None:
    with pytest.raises(MovementError) as raised:
        howell(16, 2)
    assert str(raised.value) == "A Howell is for 3 to 8 tables, not 16."
    assert dict(raised.value.values) == {"value": 16}
    with pytest.raises(MovementError) as raised:
        mitchell(2, 2)
    assert str(raised.value) == f"A Mitchell is for 3 to {MAX_MITCHELL_TABLES} tables, not 2."
    with pytest.raises(MovementError) as raised:
        mitchell(4, 2, pairs=9)
    assert str(raised.value) == "4 tables seat 8 pairs, or 7 with a sit-out, not 9."


MITCHELL = mitchell(5, 2)
HOWELL = howell(4, 2)


@pytest.mark.parametrize(
    ("ask", "rule"),
    [
        (lambda: MITCHELL.round_seatings(0), MovementRule.ROUND),
        (lambda: MITCHELL.round_seatings(6), MovementRule.ROUND),
        (lambda: HOWELL.round_seatings(8), MovementRule.ROUND),
        (lambda: MITCHELL.table_seatings(6), MovementRule.TABLE),
        (lambda: HOWELL.table_seatings(0), MovementRule.TABLE),
        (lambda: MITCHELL.seating_of(1, 1), MovementRule.DIRECTION),
        (lambda: MITCHELL.seating_of(1, 1, "North"), MovementRule.DIRECTION),  # type: ignore[arg-type]
        (lambda: HOWELL.seating_of(1, 1, Side.NS), MovementRule.DIRECTION),
        (lambda: MITCHELL.seating_of(6, 1, Side.NS), MovementRule.PAIR),
        (lambda: MITCHELL.seating_of(0, 1, Side.EW), MovementRule.PAIR),
        (lambda: HOWELL.seating_of(9, 1), MovementRule.PAIR),
        (lambda: HOWELL.seating_of(1, 0), MovementRule.ROUND),
        (lambda: HOWELL.next_move(1, 8), MovementRule.ROUND),
        (lambda: HOWELL.next_move(9, 7), MovementRule.PAIR),
        (lambda: MITCHELL.next_move(1, 5), MovementRule.DIRECTION),
        (lambda: HOWELL.place_of(True, 1), MovementRule.PAIR),
    ],
)
def test_a_round_table_or_pair_the_movement_lacks_is_refused(
    ask: Callable[[], object], rule: MovementRule
) -> None:
    with pytest.raises(MovementError) as raised:
        ask()
    assert raised.value.rule is rule


def test_a_direction_may_be_given_as_its_letters() -> None:
    assert MITCHELL.seating_of(2, 1, "EW") == MITCHELL.seating_of(2, 1, Side.EW)  # type: ignore[arg-type]


@given(
    kind=st.sampled_from([mitchell, howell]),
    tables=st.integers(3, 8),
    odd=st.booleans(),
    data=st.data(),
)
def test_progress_and_the_round_a_table_is_at_follow_the_results_in(
    kind: Callable[..., Movement], tables: int, odd: bool, data: st.DataObject
) -> None:
    """Counted here from the seatings: a table is at the first round where it has a board
    to enter (one it sits out, while another table still plays that round); the rounds
    finished are those before the first where any table has a board to enter."""
    movement = kind(tables, 2, pairs=2 * tables - odd)
    places = [
        (s.round, s.table, board)
        for s in movement.seatings
        if not movement.sits_out(s)
        for board in s.boards
    ]
    entered = set(data.draw(st.lists(st.sampled_from(places), unique=True)))
    whole = data.draw(st.integers(0, movement.rounds))  # rounds played out at every table
    entered |= {place for place in places if place[0] <= whole}
    grid = movement.progress(entered)
    finished = 0
    while finished < movement.rounds and all(
        (s.round, s.table, board) in entered
        for s in movement.round_seatings(finished + 1)
        if not movement.sits_out(s)
        for board in s.boards
    ):
        finished += 1
    assert movement.rounds_finished(entered) == finished >= whole
    assert sum(cell.entered for row in grid for cell in row) == len(entered)
    for row in grid:
        for cell in row:
            owed = [
                b
                for b in cell.seating.boards
                if (cell.seating.round, cell.seating.table, b) not in entered
            ]
            assert cell.missing == (() if cell.sits_out else tuple(owed))
    for table in range(1, tables + 1):
        at = movement.current_round(table, entered)
        for seating in sorted(movement.table_seatings(table), key=lambda s: s.round):
            round_cells = grid[seating.round - 1]
            open_here = any(c.missing for c in round_cells if c.seating.table == table)
            open_elsewhere = any(c.missing for c in round_cells)
            if open_here or (movement.sits_out(seating) and open_elsewhere):
                assert at == seating.round
                break
        else:
            assert at is None


@pytest.mark.parametrize(
    ("kind", "tables", "boards_per_round", "phantom"),
    MOVEMENTS,
    ids=[f"{k}-{t}t-{b}b{'-phantom' if p else ''}" for k, t, b, p in MOVEMENTS],
)
def test_the_boards_go_where_they_are_played_next(
    kind: MovementKind, tables: int, boards_per_round: int, phantom: bool
) -> None:
    """Every table of the next round finds its boards among those the tables pass it; the
    boards a table passes are the ones that table plays; a Mitchell's go one table down."""
    movement = build(kind, tables, boards_per_round, phantom)
    for round_ in range(1, movement.rounds):
        received: dict[int, set[tuple[int, ...]]] = {}
        for seating in movement.round_seatings(round_):
            going = movement.boards_go_to(seating)
            again = any(s.round > round_ and s.boards == seating.boards for s in movement.seatings)
            assert (going is not None) == again  # a set no table plays again goes nowhere
            for table in going or ():
                received.setdefault(table, set()).add(seating.boards)
            if kind is MovementKind.MITCHELL and movement.board_sets == tables:
                assert going == ((seating.table - 2) % tables + 1,)
        for seating in movement.round_seatings(round_ + 1):
            in_play_now = {s.boards for s in movement.round_seatings(round_)}
            if seating.boards in in_play_now:
                assert received[seating.table] == {seating.boards}
            else:
                assert seating.table not in received  # from the relay stand
    assert all(movement.boards_go_to(s) is None for s in movement.round_seatings(movement.rounds))


def test_a_skip_mitchell_s_boards_still_go_one_table_down() -> None:
    movement = mitchell(4, 2)  # East-West skip a table after round 2; the boards do not
    assert [movement.boards_go_to(s) for s in movement.round_seatings(2)] == [
        (4,),
        (1,),
        (2,),
        (3,),
    ]


LATE = [(kind, tables, per_round) for kind, tables, per_round, phantom in MOVEMENTS if phantom]


@pytest.mark.parametrize(("kind", "tables", "boards_per_round"), LATE)
def test_a_late_pair_takes_the_sit_out_from_any_round(
    kind: MovementKind, tables: int, boards_per_round: int
) -> None:
    movement = build(kind, tables, boards_per_round, True)
    phantom = movement.phantom
    assert phantom is not None
    direction = Side.EW if kind is MovementKind.MITCHELL else None
    for arrival in range(1, movement.rounds + 1):
        late = movement.with_late_pair(arrival)
        assert late.seatings == movement.seatings  # nobody else moves differently
        assert late.pairs == 2 * tables
        assert (phantom, direction) in late.pairs_listed()
        for seating in late.seatings:
            before = seating.round < arrival
            assert late.sits_out(seating) == (before and movement.sits_out(seating))
        # The late pair plays from its arrival on, each board once, and is told where to go.
        played = [
            board
            for seating in late.seatings
            if seating.round >= arrival
            and (seating.ew == phantom or (direction is None and seating.ns == phantom))
            for board in seating.boards
        ]
        assert len(played) == len(set(played)) == (late.rounds - arrival + 1) * boards_per_round
        for round_ in range(1, late.rounds):
            going = late.next_move(phantom, round_, direction)
            assert (going is None) == (round_ + 1 < arrival)
        # Every board is scored against the most results any board has (Neuberg).
        played_at = Counter(
            board
            for seating in late.seatings
            if not late.sits_out(seating)
            for board in seating.boards
        )
        assert set(late.expected_results().values()) == {max(played_at.values())}
        assert set(late.expected_results()) == set(range(1, late.boards + 1))


def test_a_full_movement_has_no_sit_out_for_a_late_pair() -> None:
    with pytest.raises(MovementError) as raised:
        mitchell(3, 2).with_late_pair(2)
    assert raised.value.rule is MovementRule.NO_SIT_OUT
    with pytest.raises(MovementError):
        mitchell(3, 2, pairs=5).with_late_pair(9)


@given(
    tables=st.sampled_from(MITCHELL_TABLES),
    phantom=st.booleans(),
    data=st.data(),
)
def test_an_arrow_switch_seats_the_pairs_the_other_way_in_its_rounds(
    tables: int, phantom: bool, data: st.DataObject
) -> None:
    plain = build(MovementKind.MITCHELL, tables, 2, phantom)
    chosen = data.draw(st.sets(st.integers(1, plain.rounds), min_size=1))
    movement = plain.with_arrow_switch(chosen)
    assert movement.ranking is Ranking.ARROW_SWITCHED
    assert movement.pairs_listed() == plain.pairs_listed()
    for seating, before in zip(movement.seatings, plain.seatings, strict=True):
        # Nobody moves differently, nor plays other boards: only the seats change.
        assert (seating.round, seating.table, seating.ns, seating.ew, seating.boards) == (
            before.round, before.table, before.ns, before.ew, before.boards
        )  # fmt: skip
        assert seating.switched == (seating.round in chosen)
        north, east = seating.at(Side.NS), seating.at(Side.EW)
        expected = ((seating.ew, Side.EW), (seating.ns, Side.NS))
        assert (north, east) == (expected if seating.switched else expected[::-1])
        assert movement.sits_out(seating) == plain.sits_out(seating)
    # Each pair is told the seats it takes next round: the other side's after a switch.
    for pair, direction in movement.pairs_listed():
        assert direction is not None
        for round_ in range(1, movement.rounds):
            going = movement.next_move(pair, round_, direction)
            if going is None:
                continue
            table, side = going
            seating = movement.round_seatings(round_ + 1)[table - 1]
            assert seating.at(side) == (pair, direction)


def test_an_arrow_switch_is_for_a_mitchell_and_its_rounds() -> None:
    assert mitchell(4, 2).with_arrow_switch(()).ranking is Ranking.BY_DIRECTION
    with pytest.raises(MovementError) as raised:
        howell(4, 2).with_arrow_switch({1})
    assert raised.value.rule is MovementRule.ARROW_SWITCH
    with pytest.raises(MovementError) as raised:
        mitchell(4, 2).with_arrow_switch({4})
    assert raised.value.rule is MovementRule.ROUND


def test_a_late_pair_and_an_arrow_switch_go_together() -> None:
    movement = mitchell(5, 2, pairs=9).with_late_pair(2).with_arrow_switch({5})
    late = movement.round_seatings(5)[movement.place_of(5, 5, Side.EW).table - 1]
    assert late.at(Side.NS) == (5, Side.EW)
    assert not movement.sits_out(late)
    assert movement.pairs == 10


ADDED = [(tables, late) for tables in MITCHELL_TABLES for late in (1, 2)]


@pytest.mark.parametrize(("tables", "late"), ADDED)
def test_a_table_added_for_late_pairs_keeps_the_rules_from_any_round_it_can(
    tables: int, late: int
) -> None:
    base = mitchell(tables, 2)
    added = tables + 1
    refused = []
    for arrival in range(1, base.rounds + 1):
        try:
            movement = base.with_added_table(arrival, pairs=late)
        except MovementError as error:
            assert error.rule is MovementRule.NO_ADDED_TABLE
            refused.append(arrival)
            continue
        assert (movement.tables, movement.rounds, movement.boards) == (
            added, base.rounds, base.boards
        )  # fmt: skip
        assert movement.pairs == 2 * tables + late
        met: set[tuple[int, int]] = set()
        played: Counter[tuple[Side, int, int]] = Counter()
        sat_out: Counter[int] = Counter()
        for round_ in range(1, movement.rounds + 1):
            row, before = movement.round_seatings(round_), base.round_seatings(round_)
            changed = [s for s in row[:tables] if s not in before]
            if round_ < arrival:  # as it was, the new table not there yet
                assert row[:tables] == before and not changed
                assert movement.sits_out(row[-1]) and movement.sitting_out(row[-1]) is None
            else:
                # One East-West pair goes to the new table with its usual boards.
                (usual,) = changed
                new = row[-1]
                old = before[usual.table - 1]
                assert (new.ns, new.ew, new.boards) == (added, old.ew, old.boards)
                assert usual.ew == added
                assert movement.sits_out(usual) == (late == 1)
                if late == 2:
                    assert movement.shared_with(new) == (usual.table,)
                    # The two tables do not wait for the same board.
                    assert movement.board_order(new)[0] != movement.board_order(usual)[0]
                else:
                    sat_out[usual.ns] += 1
            seen = set()
            for seating in row:
                if movement.sits_out(seating):
                    continue
                pairs = ((Side.NS, seating.ns), (Side.EW, seating.ew))
                for pair in pairs:
                    assert pair not in seen  # one place a round
                    seen.add(pair)
                    for board in seating.boards:
                        played[(*pair, board)] += 1
                assert (seating.ns, seating.ew) not in met  # nobody meets twice
                met.add((seating.ns, seating.ew))
        assert max(played.values()) == 1  # nobody plays a board twice
        for seating in movement.seatings:  # no board goes to the table before it is there
            going = movement.boards_go_to(seating) or ()
            assert added not in going or seating.round + 1 >= arrival
            if movement.not_yet_there(seating):  # nobody there, nothing moves from there
                assert movement.moves_after(seating) is None
                assert movement.boards_go_to(seating) is None
            elif seating.round < movement.rounds:
                # The boards go where they are played next round (a set resting at a sit-out
                # table of the full Mitchell stays on its way), not to a table sitting out.
                following = movement.round_seatings(seating.round + 1)
                players = [s.table for s in following if s.boards == seating.boards]
                playing = [t for t in players if not movement.sits_out(following[t - 1])]
                assert going == tuple(sorted(playing or players))
        assert all(count == 1 for count in sat_out.values())  # nobody sits out twice
        # Each pair is told where it goes, the late ones from the new table's first round.
        for pair, direction in movement.pairs_listed():
            assert direction is not None
            for round_ in range(max(arrival, 1), movement.rounds):
                going = movement.next_move(pair, round_, direction)
                if going is not None:
                    table, side = going
                    assert movement.round_seatings(round_ + 1)[table - 1].at(side) == (
                        pair, direction
                    )  # fmt: skip
    # Some rooms cannot from the first rounds (a third of them at most); all can after.
    assert all(arrival <= max(1, base.rounds // 3) + 1 for arrival in refused), refused


def test_some_rooms_cannot_take_a_table_from_the_start() -> None:
    with pytest.raises(MovementError) as raised:
        mitchell(9, 2).with_added_table(1)
    assert raised.value.rule is MovementRule.NO_ADDED_TABLE
    assert str(raised.value) == (
        "This movement cannot take one more table from round 1: try a later round."
    )
    assert mitchell(9, 2).with_added_table(3).tables == 10


def test_a_table_is_added_to_a_full_mitchell_only_once() -> None:
    for movement in (
        howell(4, 2),
        mitchell(5, 2, pairs=9),
        mitchell(5, 2).with_added_table(2),
        mitchell(5, 2).with_arrow_switch({5}),
    ):
        with pytest.raises(MovementError) as raised:
            movement.with_added_table(3)
        assert raised.value.rule is MovementRule.ADDED_TABLE
    with pytest.raises(MovementError) as raised:
        mitchell(5, 2).with_added_table(2, pairs=3)
    assert raised.value.rule is MovementRule.ADDED_PAIRS


def test_the_seven_table_mitchell_takes_an_eighth_table_in_round_2() -> None:
    movement = mitchell(7, 3).with_added_table(2, pairs=1)
    assert (movement.tables, movement.pairs, movement.rounds) == (8, 15, 7)
    # With a single late pair, its arrival fills no table: the sit-out moves round by round.
    sitting = [movement.sitting_out(s) for s in movement.seatings if movement.sits_out(s)]
    assert sitting[0] is None  # round 1: table 8 was not there
    assert len({pair for pair in sitting[1:]}) == 6
    # A second late pair later fills the sit-out as any late pair does.
    full = movement.with_late_pair(4)
    assert full.pairs == 16
    assert not any(full.sits_out(s) for s in full.seatings if s.round >= 4)


@given(data=st.data())
def test_a_pair_leaving_leaves_its_opponents_sitting_out_and_nobody_else_changes(
    data: st.DataObject,
) -> None:
    kind, tables, boards_per_round, phantom = data.draw(st.sampled_from(MOVEMENTS))
    movement = build(kind, tables, boards_per_round, phantom)
    pair, direction = data.draw(st.sampled_from(movement.pairs_listed()))
    leaving = data.draw(st.integers(1, movement.rounds))
    left = movement.with_pair_leaving(pair, direction, leaving)
    assert left.seatings == movement.seatings and left.pairs_listed() == movement.pairs_listed()
    gone = (direction, pair) if kind is MovementKind.MITCHELL else (None, pair)
    for seating in left.seatings:
        seated = labels(movement, seating)
        if seating.round < leaving or gone not in seated:
            assert left.sits_out(seating) == movement.sits_out(seating)
            assert left.sitting_out(seating) == movement.sitting_out(seating)
            continue
        assert left.sits_out(seating)
        others = [label for label in seated if label != gone and label != phantom_label(movement)]
        if movement.sits_out(seating) or not others:
            assert left.sitting_out(seating) is None  # the phantom's place: nobody is there
        else:
            ((_side, number),) = others
            sitting = left.sitting_out(seating)
            assert sitting is not None and sitting[0] == number
    for round_ in range(max(1, leaving - 1), left.rounds):
        assert left.next_move(pair, round_, direction) is None
    assert len(set(left.expected_results().values())) == 1  # Neuberg to the whole field
    with pytest.raises(MovementError):
        left.with_pair_leaving(pair, direction, leaving)
