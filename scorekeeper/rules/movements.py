"""Movements for a duplicate pairs session: where each pair sits, whom it meets and which
boards it plays, round by round (RULES.md §2).

Rounds, tables and pairs are numbered from 1. Each table plays one board set a round: with
``b`` boards per round, set ``s`` is boards ``(s − 1) × b + 1`` to ``s × b``.

- A **Mitchell** (:func:`mitchell`, 3 tables or more) numbers the pairs within their
  direction and ranks each direction apart. North-South pair ``t`` stays at table ``t``;
  East-West pair ``t`` starts there and moves up one table each round (the last table's to
  table 1); the boards move down one table (table 1's to the last). With an odd number of
  tables every pair plays every round. With an even number the East-West pairs skip a table
  after half the rounds, and the round that would take each back to its first opponents is
  not played: ``tables − 1`` rounds. Either way no pair meets another, or plays a board, twice.
- A **Howell** (:func:`howell`, 3 to 8 tables, ``n`` of them) numbers the pairs 1 to ``2n``
  across the room and ranks them in one field. In ``2n − 1`` rounds every pair meets every
  other pair once and plays each of the ``2n − 1`` board sets once. Pair ``2n`` stays at
  table 1, North-South in odd rounds and East-West in even ones, so that every pair sits
  North-South ``n − 1`` or ``n`` times. From 4 tables a board set is at one table at a time.
  With 3 tables that cannot be: in round 1 the three tables share board set 1, passing its
  boards from table to table (with fewer than 3 boards a round, a table waits or the set is
  made up twice).

With an odd number of pairs the missing pair is a phantom: East-West pair ``tables`` of a
Mitchell, pair ``2n`` of a Howell. The seatings keep its place, so that a table card shows it,
and the pair it meets sits out that round (:meth:`Movement.sits_out`).

The 3-table Mitchell with 2 boards a round:

>>> movement = mitchell(3, 2)
>>> movement.rounds, movement.boards, movement.ranking
(3, 6, <Ranking.BY_DIRECTION: 'direction'>)
>>> for s in movement.seatings:
...     print(f"round {s.round}  table {s.table}  NS{s.ns} v EW{s.ew}  boards {s.boards}")
round 1  table 1  NS1 v EW1  boards (1, 2)
round 1  table 2  NS2 v EW2  boards (3, 4)
round 1  table 3  NS3 v EW3  boards (5, 6)
round 2  table 1  NS1 v EW3  boards (3, 4)
round 2  table 2  NS2 v EW1  boards (5, 6)
round 2  table 3  NS3 v EW2  boards (1, 2)
round 3  table 1  NS1 v EW2  boards (5, 6)
round 3  table 2  NS2 v EW3  boards (1, 2)
round 3  table 3  NS3 v EW1  boards (3, 4)
>>> movement.next_move(1, 1, Side.EW)
(2, <Side.EW: 'EW'>)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeGuard

from scorekeeper.rules.common import Rule, RuleError, Side
from scorekeeper.rules.duplicate import Ranking, TableResult, expected_results

__all__ = [
    "HOWELL_TABLES",
    "MAX_BOARDS_PER_ROUND",
    "MAX_MITCHELL_TABLES",
    "MIN_TABLES",
    "Movement",
    "MovementError",
    "MovementKind",
    "MovementRule",
    "Seating",
    "howell",
    "mitchell",
]

MIN_TABLES = 3
"""The fewest tables of a movement: with two, the pairs would meet again and again."""
MAX_MITCHELL_TABLES = 30
"""The most tables of one Mitchell; a bigger field is split into sections."""
HOWELL_TABLES = range(3, 9)
"""The table counts a Howell is given for: with more, its 17 rounds or more would not fit in
a session."""
MAX_BOARDS_PER_ROUND = 6
"""The most boards in one round (clubs play 2 to 4; a short room up to 6)."""


class MovementRule(Rule):
    """The rules of a movement a request can break (see :class:`RuleError`)."""

    MITCHELL_TABLES = "mitchell-tables"
    HOWELL_TABLES = "howell-tables"
    BOARDS_PER_ROUND = "boards-per-round"
    PAIRS = "pairs"
    ROUND = "round"
    TABLE = "table"
    PAIR = "pair"
    DIRECTION = "direction"
    NO_SIT_OUT = "no-sit-out"
    ARROW_SWITCH = "arrow-switch"
    ADDED_TABLE = "added-table"
    ADDED_PAIRS = "added-pairs"
    NO_ADDED_TABLE = "no-added-table"
    LEFT = "left"

    @property
    def english(self) -> str:
        return _ENGLISH[self]


_ENGLISH = {
    MovementRule.MITCHELL_TABLES: (
        f"A Mitchell is for {MIN_TABLES} to {MAX_MITCHELL_TABLES} tables, not {{value!r}}."
    ),
    MovementRule.HOWELL_TABLES: (
        f"A Howell is for {HOWELL_TABLES.start} to {HOWELL_TABLES.stop - 1} tables, "
        "not {value!r}."
    ),
    MovementRule.BOARDS_PER_ROUND: (
        f"A round is 1 to {MAX_BOARDS_PER_ROUND} boards, not {{value!r}}."
    ),
    MovementRule.PAIRS: (
        "{tables} tables seat {full} pairs, or {short} with a sit-out, not {value!r}."
    ),
    MovementRule.ROUND: "The rounds are numbered 1 to {rounds}, not {value!r}.",
    MovementRule.TABLE: "The tables are numbered 1 to {tables}, not {value!r}.",
    MovementRule.PAIR: "The pairs are numbered 1 to {pairs}, not {value!r}.",
    MovementRule.DIRECTION: (
        "A Mitchell pair is NS or EW, and a Howell pair has no direction, not {value!r}."
    ),
    MovementRule.NO_SIT_OUT: "Every table is full: a late pair has no sit-out to take.",
    MovementRule.ARROW_SWITCH: "An arrow switch is for a Mitchell: a Howell is one field.",
    MovementRule.ADDED_TABLE: (
        "A table is added to a Mitchell whose tables are full, once, before anything else "
        "changes it."
    ),
    MovementRule.ADDED_PAIRS: "An added table is for 1 or 2 late pairs, not {value!r}.",
    MovementRule.LEFT: "One pair of the movement, still playing, may leave.",
    MovementRule.NO_ADDED_TABLE: (
        "This movement cannot take one more table from round {round}: try a later round."
    ),
}


class MovementError(RuleError):
    """A movement asked for that cannot be, or a round, table or pair it does not have."""


class MovementKind(StrEnum):
    """The two families of movement."""

    MITCHELL = "mitchell"
    """North-South stationary, East-West and the boards moving: two fields."""
    HOWELL = "howell"
    """Everyone meets everyone: one field."""


@dataclass(frozen=True, slots=True)
class Seating:
    """One table in one round: the two pairs and the boards they play.

    >>> Seating(2, 3, ns=5, ew=1, boards=(7, 8, 9)).board_set
    3
    """

    round: int
    table: int
    ns: int
    """The North-South pair's number."""
    ew: int
    """The East-West pair's number."""
    boards: tuple[int, ...]
    switched: bool = False
    """An arrow switch: this round the North-South pair sits East-West and the East-West
    pair North-South (see :meth:`Movement.with_arrow_switch`)."""

    @property
    def board_set(self) -> int:
        """The number of the board set: the boards are set ``s`` of ``len(boards)`` each."""
        return (self.boards[0] - 1) // len(self.boards) + 1

    def pair(self, side: Side) -> int:
        """The number of the movement's ``side`` pair at this table."""
        return self.ns if side is Side.NS else self.ew

    def at(self, side: Side) -> tuple[int, Side]:
        """The pair in ``side``'s seats, with its side in the movement (its numbering in a
        Mitchell): the other side's pair in an arrow-switched round.

        >>> Seating(4, 1, ns=1, ew=5, boards=(7,), switched=True).at(Side.NS)
        (5, <Side.EW: 'EW'>)
        """
        home = side.opponents if self.switched else side
        return self.pair(home), home


Place = tuple[int, int, int]
"""A result's place in a session: its round, its table and its board."""


@dataclass(frozen=True, slots=True)
class TableRound:
    """One table in one round, as a director's grid shows it."""

    seating: Seating
    entered: int
    expected: int
    sits_out: bool
    shared: tuple[int, ...]
    """The other tables passing the same boards (see :meth:`Movement.shared_with`)."""
    missing: tuple[int, ...]
    """The boards this table has still to enter in this round."""

    @property
    def done(self) -> bool:
        return self.entered >= self.expected


def still_missing(grid: Sequence[Sequence[TableRound]], under_way: int) -> tuple[TableRound, ...]:
    """The tables' rounds still short of a result, up to round ``under_way`` (the latest with
    a result): a round no table has begun is not missing anything yet.

    >>> grid = mitchell(3, 2).progress({(1, 1, 1)})
    >>> [cell.seating.table for cell in still_missing(grid, 1)]
    [1, 2, 3]
    """
    return tuple(
        cell for row in grid[:under_way] for cell in row if not cell.sits_out and not cell.done
    )


@dataclass(frozen=True, slots=True)
class Movement:
    """A whole movement: every table's :class:`Seating` in every round, by round then table.

    Built by :func:`mitchell` or :func:`howell`. A pair is named by its number and, in a
    Mitchell, its direction (``Side.NS`` or ``Side.EW``); in a Howell by its number alone.
    """

    kind: MovementKind
    tables: int
    boards_per_round: int
    seatings: tuple[Seating, ...]
    phantom: int | None = None
    """The phantom's pair number (East-West in a Mitchell) when the pairs are odd."""
    late_from: int | None = None
    """The round from which a late pair takes the phantom's place and number (see
    :meth:`with_late_pair`): before it the phantom's opponents sit out, from it everyone
    plays."""
    switched_rounds: frozenset[int] = frozenset()
    """The rounds of an arrow switch (see :meth:`with_arrow_switch`)."""
    added_from: int | None = None
    """The round from which the last table plays, added for late pairs (see
    :meth:`with_added_table`): before it the table was not there."""
    left: tuple[int, Side | None] | None = None
    """A pair that left before the end, with its direction in a Mitchell (see
    :meth:`with_pair_leaving`)."""
    left_from: int | None = None
    """The first round the pair that left does not play."""
    _places: dict[tuple[int, Side, int], Seating] = field(init=False, repr=False, compare=False)
    _layout: tuple[tuple[tuple[Seating, bool, tuple[int, ...]], ...], ...] | None = field(
        init=False, repr=False, compare=False, default=None
    )
    """Round by round, each table's seating, whether it sits out and the tables it shares its
    boards with: what :meth:`progress` needs besides the results, worked out once."""

    def __post_init__(self) -> None:
        places = {}
        for seating in self.seatings:
            for side in Side:
                places[seating.round, side, seating.pair(side)] = seating
        object.__setattr__(self, "_places", places)

    @property
    def ranking(self) -> Ranking:
        """One ranking per direction for a Mitchell, one for the whole field for a Howell or
        an arrow-switched Mitchell."""
        if self.kind is MovementKind.HOWELL:
            return Ranking.ONE_FIELD
        return Ranking.ARROW_SWITCHED if self.switched_rounds else Ranking.BY_DIRECTION

    @property
    def rounds(self) -> int:
        return len(self.seatings) // self.tables

    @property
    def board_sets(self) -> int:
        """One per table in a Mitchell (but a table added late), one per round in a Howell."""
        if self.kind is MovementKind.HOWELL:
            return self.rounds
        return self.tables - (self.added_from is not None)

    @property
    def boards(self) -> int:
        return self.board_sets * self.boards_per_round

    @property
    def pairs(self) -> int:
        """The real pairs: two per table, less the phantom (a late pair is one)."""
        return 2 * self.tables - (self.phantom is not None and self.late_from is None)

    def with_late_pair(self, from_round: int) -> Movement:
        """The movement with a late pair in the sit-out's place from ``from_round`` on: it
        plays the phantom's boards against the phantom's opponents, who no longer sit out.
        Earlier rounds are as they were; the boards played fewer times are scored with
        Neuberg's formula.

        >>> movement = mitchell(3, 2, pairs=5).with_late_pair(2)
        >>> [movement.sits_out(s) for s in movement.table_seatings(3)]
        [True, False, False]
        >>> movement.pairs, movement.pairs_listed()[-1], movement.next_move(3, 1, Side.EW)
        (6, (3, <Side.EW: 'EW'>), (1, <Side.EW: 'EW'>))
        """
        if self.phantom is None:
            raise MovementError(MovementRule.NO_SIT_OUT)
        self._check_round(from_round)
        return dataclasses.replace(self, late_from=from_round)

    def with_arrow_switch(self, rounds: Collection[int]) -> Movement:
        """The Mitchell with an arrow switch in ``rounds``: in those rounds each table's
        East-West pair sits North-South and its North-South pair East-West, and plays the
        other seats' cards. The pairs keep their numbers and their moves; each then has played
        boards both ways, and the two directions are ranked as one field
        (``Ranking.ARROW_SWITCHED``). With a quarter of the rounds or so switched (the last
        round of a short session), the field is fairly mixed. No rounds: no switch.

        >>> movement = mitchell(3, 2).with_arrow_switch({3})
        >>> movement.ranking, movement.round_seatings(3)[0].at(Side.NS)
        (<Ranking.ARROW_SWITCHED: 'switched'>, (2, <Side.EW: 'EW'>))
        >>> movement.next_move(1, 2, Side.EW)
        (3, <Side.NS: 'NS'>)
        """
        if self.kind is not MovementKind.MITCHELL:
            raise MovementError(MovementRule.ARROW_SWITCH)
        for round in rounds:
            self._check_round(round)
        switched = frozenset(rounds)
        seatings = tuple(
            dataclasses.replace(seating, switched=seating.round in switched)
            for seating in self.seatings
        )
        return dataclasses.replace(self, seatings=seatings, switched_rounds=switched)

    def with_added_table(self, from_round: int, pairs: int = 2) -> Movement:
        """The full Mitchell with one more table from ``from_round`` on, for one or two late
        pairs; the rounds before it are as they were, and nobody else's moves change but for
        one East-West pair a round.

        The late pair sits North-South at the new table, number ``tables + 1``. Each round one
        East-West pair goes there instead of to its usual table, and plays there the boards
        it would have played: the usual table's. The second late pair (East-West, number
        ``tables + 1``) takes that pair's place at its usual table, the two tables sharing the
        boards; with one late pair nobody does, and that table's North-South pair sits out
        the round. The usual tables are chosen so that, over the rounds left, no North-South
        pair sits out twice, the new table plays each board once and meets each East-West
        pair once: three conditions of a queens' problem on a torus, which some rooms cannot
        meet from an early round (:class:`MovementError` then).

        >>> movement = mitchell(5, 1).with_added_table(2, pairs=1)
        >>> movement.tables, movement.pairs, movement.boards
        (6, 11, 5)
        >>> [(s.ns, s.ew, s.boards) for s in movement.table_seatings(6)][1:]
        [(6, 3, (5,)), (6, 4, (3,)), (6, 5, (1,)), (6, 1, (4,))]
        """
        if self.kind is not MovementKind.MITCHELL or self.phantom is not None:
            raise MovementError(MovementRule.ADDED_TABLE)
        if self.added_from is not None or self.late_from is not None or self.switched_rounds:
            raise MovementError(MovementRule.ADDED_TABLE)
        self._check_round(from_round)
        if pairs not in (1, 2):
            raise MovementError(MovementRule.ADDED_PAIRS, value=pairs)
        usual = _usual_tables(self, from_round)
        if usual is None:
            raise MovementError(MovementRule.NO_ADDED_TABLE, round=from_round)
        added = self.tables + 1
        seatings = []
        for round in range(1, self.rounds + 1):
            row = list(self.round_seatings(round))
            if round < from_round:  # the table's place, where nobody plays yet
                row.append(Seating(round, added, added, added, row[0].boards))
            else:
                chosen = row[usual[round] - 1]
                row[chosen.table - 1] = dataclasses.replace(chosen, ew=added)
                row.append(Seating(round, added, added, chosen.ew, chosen.boards))
            seatings.extend(row)
        return Movement(
            self.kind,
            added,
            self.boards_per_round,
            tuple(seatings),
            phantom=added if pairs == 1 else None,
            added_from=from_round,
        )

    def with_pair_leaving(self, pair: int, direction: Side | None, from_round: int) -> Movement:
        """The movement with ``pair`` gone from ``from_round`` on: nobody else moves
        differently, the pairs it would have met sit out, and the boards played fewer times
        are scored with Neuberg's formula against the whole field. Its results so far stay,
        and it is ranked on the boards it played.

        >>> movement = mitchell(3, 2).with_pair_leaving(2, Side.EW, 3)
        >>> [movement.sitting_out(s) for s in movement.round_seatings(3)]
        [(1, <Side.NS: 'NS'>), None, None]
        >>> movement.next_move(2, 2, Side.EW), movement.expected_results()[1]
        (None, 3)
        """
        sides = self._sides(pair, direction)
        self._check_round(from_round)
        phantom = (self.kind is MovementKind.HOWELL or Side.EW in sides) and (
            not self.is_real(pair) or self.is_phantom(pair, from_round)
        )
        if self.left is not None or phantom:
            raise MovementError(MovementRule.LEFT)
        direction = None if self.kind is MovementKind.HOWELL else sides[0]
        return dataclasses.replace(self, left=(pair, direction), left_from=from_round)

    def has_left(self, pair: int, direction: Side | None, round: int) -> bool:
        """Whether ``pair`` has left by ``round``."""
        return (
            self.left is not None
            and self.left_from is not None
            and self.left == (pair, direction if self.kind is MovementKind.MITCHELL else None)
            and round >= self.left_from
        )

    def is_phantom(self, pair: int, round: int) -> bool:
        """Whether ``pair`` is the phantom in ``round`` (a late pair is not, once arrived)."""
        arrived = self.late_from is not None and round >= self.late_from
        return pair == self.phantom and not arrived

    def round_seatings(self, round: int) -> tuple[Seating, ...]:
        """Every table in ``round``, by table: the room at a glance."""
        self._check_round(round)
        start = (round - 1) * self.tables
        return self.seatings[start : start + self.tables]

    def table_seatings(self, table: int) -> tuple[Seating, ...]:
        """Every round at ``table``, by round: the table card."""
        if not _is_whole(table) or not 1 <= table <= self.tables:
            raise MovementError(MovementRule.TABLE, value=table, tables=self.tables)
        return self.seatings[table - 1 :: self.tables]

    def place_of(self, pair: int, round: int, direction: Side | None = None) -> Seating:
        """The seating that holds ``pair``'s place in ``round``, whether it plays there or
        sits out there; the phantom has a place too.

        >>> howell(4, 2).place_of(8, 3)
        Seating(round=3, table=1, ns=8, ew=3, boards=(5, 6), switched=False)
        """
        self._check_round(round)
        for side in self._sides(pair, direction):
            seating = self._places.get((round, side, pair))
            if seating is not None:
                return seating
        raise AssertionError(f"pair {pair} has no place in round {round}")

    def seating_of(self, pair: int, round: int, direction: Side | None = None) -> Seating | None:
        """Where ``pair`` plays in ``round``; ``None`` when it sits out (and always for the
        phantom).

        >>> movement = mitchell(3, 2, pairs=5)
        >>> movement.seating_of(1, 2, Side.EW)
        Seating(round=2, table=2, ns=2, ew=1, boards=(5, 6), switched=False)
        >>> movement.seating_of(1, 2, Side.NS) is None
        True
        """
        seating = self.place_of(pair, round, direction)
        return None if self.sits_out(seating) else seating

    def sits_out(self, seating: Seating) -> bool:
        """Whether the phantom or a pair that left has this place, or the table was not there
        yet: nobody plays at that table this round."""
        return self.not_yet_there(seating) or bool(self._absent(seating))

    def _absent(self, seating: Seating) -> set[Side]:
        """The sides of ``seating`` whose pair is not there: the phantom's (before a late pair
        came), and a pair's that left."""
        absent = set()
        for side in Side:
            pair = seating.pair(side)
            phantom = self.phantom is not None and self.is_phantom(pair, seating.round)
            if phantom and (self.kind is MovementKind.HOWELL or side is Side.EW):
                absent.add(side)
            if self.has_left(pair, side, seating.round):
                absent.add(side)
        return absent

    def sitting_out(self, seating: Seating) -> tuple[int, Side] | None:
        """The real pair that sits out at this place, and the side it would have sat: the one
        the phantom meets; ``None`` where both pairs play.

        >>> movement = mitchell(3, 2, pairs=5)
        >>> movement.sitting_out(movement.seatings[2])
        (3, <Side.NS: 'NS'>)
        >>> movement = howell(4, 2, pairs=7)
        >>> movement.sitting_out(movement.place_of(8, 3))
        (3, <Side.EW: 'EW'>)
        """
        if self.not_yet_there(seating):
            return None
        absent = self._absent(seating)
        if len(absent) != 1:  # both pairs there, or neither
            return None
        (side,) = set(Side) - absent
        return seating.pair(side), side

    def not_yet_there(self, seating: Seating) -> bool:
        """Whether ``seating`` is the added table in a round before it was added."""
        return (
            self.added_from is not None
            and seating.table == self.tables
            and seating.round < self.added_from
        )

    def shared_with(self, seating: Seating) -> tuple[int, ...]:
        """The other tables playing the same board set in the same round, which pass its
        boards between them: the 3-table Howell's first round, and a table added for two late
        pairs with the table whose boards it plays. A table sitting out plays nothing and
        shares nothing.

        >>> movement = howell(3, 3)
        >>> movement.shared_with(movement.seatings[0]), movement.shared_with(movement.seatings[3])
        ((2, 3), ())
        """
        if self.sits_out(seating):
            return ()
        return tuple(
            other.table
            for other in self.round_seatings(seating.round)
            if other.table != seating.table
            and other.boards == seating.boards
            and not self.sits_out(other)
        )

    def board_order(self, seating: Seating) -> tuple[int, ...]:
        """The boards of ``seating`` in the order its table plays them. Tables sharing a
        board set (:meth:`shared_with`) start on different boards of it and pass each one
        on: the second of them by table number starts on the set's second board, and so on
        (round the set again when there are more tables than boards). Any other table plays
        its boards in order.

        >>> movement = mitchell(7, 3).with_added_table(2)
        >>> [(s.table, movement.board_order(s)) for s in movement.round_seatings(2)
        ...  if movement.shared_with(s)]
        [(4, (13, 14, 15)), (8, (14, 15, 13))]
        """
        shared = self.shared_with(seating)
        if not shared:
            return seating.boards
        start = sorted((seating.table, *shared)).index(seating.table) % len(seating.boards)
        return seating.boards[start:] + seating.boards[:start]

    def boards_go_to(self, seating: Seating) -> tuple[int, ...] | None:
        """The tables the boards of ``seating`` go to for the next round: in a Mitchell the
        table below (the last table's to table 1), or the tables that play them there (not
        a table whose pairs sit out while an added table plays its boards); none when no
        table plays them next round (they wait on the relay stand); ``None`` when no table
        plays them again.

        >>> movement = mitchell(3, 2)
        >>> [movement.boards_go_to(s) for s in movement.round_seatings(1)]
        [(3,), (1,), (2,)]
        >>> movement.boards_go_to(movement.round_seatings(3)[0]) is None
        True
        """
        if self.not_yet_there(seating):
            return None  # the table's place holds no boards before it is there
        later = [
            s
            for s in self.seatings
            if s.round > seating.round and s.boards == seating.boards and not self.not_yet_there(s)
        ]
        if not later:
            return None
        following = [s for s in later if s.round == seating.round + 1]
        # Boards a table added for one late pair plays go there, not to the table it took its
        # East-West pair from, which sits out; a sit-out table's own boards rest there.
        playing = [s for s in following if not self.sits_out(s)]
        return tuple(sorted(s.table for s in playing or following))

    def next_move(
        self, pair: int, round: int, direction: Side | None = None
    ) -> tuple[int, Side] | None:
        """Where ``pair`` goes after ``round``: the table and the side of it. A pair that sits
        out next round still goes to its place there. ``None`` after the last round, and for
        the phantom, which goes nowhere.

        >>> howell(4, 2).next_move(1, 1)
        (2, <Side.EW: 'EW'>)
        """
        self._check_round(round)
        sides = self._sides(pair, direction)
        if round == self.rounds or (self.is_phantom(pair, round + 1) and Side.EW in sides):
            return None
        if self.has_left(pair, direction, round + 1):
            return None
        seating = self.place_of(pair, round + 1, direction)
        side = Side.NS if Side.NS in sides and seating.ns == pair else Side.EW
        return seating.table, side.opponents if seating.switched else side

    def pairs_listed(self) -> tuple[tuple[int, Side | None], ...]:
        """The real pairs (the phantom left out), as a ranking lists them: by direction in a
        Mitchell, North-South first; by number in a Howell.

        >>> mitchell(3, 1, pairs=5).pairs_listed()[-2:]
        ((1, <Side.EW: 'EW'>), (2, <Side.EW: 'EW'>))
        """
        if self.kind is MovementKind.MITCHELL:
            north_south = [(n, Side.NS) for n in range(1, self.tables + 1)]
            east_west = [(n, Side.EW) for n in range(1, self.tables + 1) if self.is_real(n)]
            return (*north_south, *east_west)
        return tuple((n, None) for n in range(1, 2 * self.tables + 1) if self.is_real(n))

    def is_real(self, pair: int) -> bool:
        """Whether ``pair`` plays at all: every pair but a phantom no late pair took over."""
        return pair != self.phantom or self.late_from is not None

    def progress(self, entered: Collection[Place]) -> tuple[tuple[TableRound, ...], ...]:
        """Round by round, each table: which of its boards are in (``entered``: the round, the
        table and the board of each result).

        >>> grid = mitchell(3, 2).progress({(1, 1, 1)})
        >>> [(cell.entered, cell.missing) for cell in grid[0]]
        [(1, (2,)), (0, (3, 4)), (0, (5, 6))]
        """
        grid = []
        for number, places in enumerate(self._rounds_laid_out(), start=1):
            row = []
            for seating, sits_out, shared in places:
                boards_in = [b for b in seating.boards if (number, seating.table, b) in entered]
                missing = () if sits_out else tuple(b for b in seating.boards if b not in boards_in)
                expected = 0 if sits_out else len(seating.boards)
                row.append(TableRound(seating, len(boards_in), expected, sits_out, shared, missing))
            grid.append(tuple(row))
        return tuple(grid)

    def rounds_finished(self, entered: Collection[Place]) -> int:
        """The last round every table has finished (0 before the first is), ``entered`` the
        round, the table and the board of each result in.

        >>> movement = mitchell(3, 2)
        >>> first = {(1, s.table, b) for s in movement.round_seatings(1) for b in s.boards}
        >>> movement.rounds_finished(first), movement.rounds_finished(first - {(1, 2, 3)})
        (1, 0)
        """
        # As :meth:`progress` counts a round done, without drawing the grid: the field's page
        # asks it of seventy sections.
        for number, places in enumerate(self._rounds_laid_out(), start=1):
            for seating, sits_out, _shared in places:
                if not sits_out and any(
                    (number, seating.table, b) not in entered for b in seating.boards
                ):
                    return number - 1
        return self.rounds

    def _rounds_laid_out(self) -> tuple[tuple[tuple[Seating, bool, tuple[int, ...]], ...], ...]:
        # Worked out on first use: every page of a session draws its progress grid, and the
        # movement is built once per process.
        if self._layout is None:
            layout = tuple(
                tuple(
                    (seating, self.sits_out(seating), self.shared_with(seating))
                    for seating in sorted(self.round_seatings(number), key=lambda s: s.table)
                )
                for number in range(1, self.rounds + 1)
            )
            object.__setattr__(self, "_layout", layout)
            return layout
        return self._layout

    def current_round(self, table: int, entered: Collection[Place]) -> int | None:
        """The round ``table`` is at: the first in which it still has a board to enter. A round
        it sits out lasts as long as another table still plays that round; ``None`` once every
        board of the table is in.

        >>> mitchell(3, 2).current_round(1, {(1, 1, 1), (1, 1, 2)})
        2
        """

        def unfinished(seating: Seating) -> bool:
            return any((seating.round, seating.table, b) not in entered for b in seating.boards)

        for seating in self.table_seatings(table):
            if not self.sits_out(seating):
                if unfinished(seating):
                    return seating.round
            elif any(
                unfinished(other)
                for other in self.round_seatings(seating.round)
                if not self.sits_out(other)
            ):
                return seating.round
        return None

    def moves_after(self, seating: Seating) -> dict[str, tuple[int, Side] | None] | None:
        """Where the two pairs of ``seating`` go after its round: ``"ns"`` the pair in the
        North-South seats, ``"ew"`` the one in East-West's (the other way round in an
        arrow-switched round); ``None`` after the last round, and at a table added later in a
        round before it was there.

        >>> mitchell(3, 1).moves_after(mitchell(3, 1).seatings[0])
        {'ns': (1, <Side.NS: 'NS'>), 'ew': (2, <Side.EW: 'EW'>)}
        """
        if seating.round >= self.rounds or self.not_yet_there(seating):
            return None  # nobody sits at a table not there yet
        moves = {}
        for key, side in (("ns", Side.NS), ("ew", Side.EW)):
            pair, direction = seating.at(side)
            by_direction = self.kind is MovementKind.MITCHELL
            moves[key] = self.next_move(pair, seating.round, direction if by_direction else None)
        return moves

    def expected_results(self, results: Iterable[TableResult] = ()) -> dict[int, int]:
        """Board number to its Neuberg N (RULES.md §4): the most results any board of the
        field has or is scheduled to have (at the tables where two real pairs play it), the
        same for every board. A board with fewer results is scaled to it, whatever made it
        shorter: a late pair, an added table, a pair leaving, a result taken away or entered
        under another board, an artificial score (no result for the others' matchpoints).

        >>> mitchell(3, 1, pairs=5).expected_results()
        {1: 2, 2: 2, 3: 2}

        With a late pair the field is the larger one: each board is scored against it.

        >>> mitchell(3, 1, pairs=5).with_late_pair(2).expected_results()
        {1: 3, 2: 3, 3: 3}

        A table added to 7 from round 2 for two late pairs: boards 4 to 6, played in round 1
        before it came, have 7 results and the others 8; every board is scored against 8.

        >>> movement = mitchell(7, 3).with_added_table(2)
        >>> set(movement.expected_results().values())
        {8}
        """
        counts = dict.fromkeys(range(1, self.boards + 1), 0)
        for seating in self.seatings:
            if not self.sits_out(seating):
                for board in seating.boards:
                    counts[board] += 1
        field = max(counts.values(), default=0)
        for board, obtained in expected_results(results).items():
            counts.setdefault(board, 0)
            field = max(field, obtained)
        return dict.fromkeys(counts, field)

    def _check_round(self, round: int) -> None:
        if not _is_whole(round) or not 1 <= round <= self.rounds:
            raise MovementError(MovementRule.ROUND, value=round, rounds=self.rounds)

    def _sides(self, pair: int, direction: Side | str | None) -> tuple[Side, ...]:
        """The sides ``pair`` can sit, after checking that the movement has it."""
        if self.kind is MovementKind.MITCHELL:
            if direction not in tuple(Side):
                raise MovementError(MovementRule.DIRECTION, value=direction)
            sides: tuple[Side, ...] = (Side(direction),)
            numbered = self.tables
        else:
            if direction is not None:
                raise MovementError(MovementRule.DIRECTION, value=direction)
            sides = (Side.NS, Side.EW)
            numbered = 2 * self.tables
        if not _is_whole(pair) or not 1 <= pair <= numbered:
            raise MovementError(MovementRule.PAIR, value=pair, pairs=numbered)
        return sides


def mitchell(tables: int, boards_per_round: int, *, pairs: int | None = None) -> Movement:
    """A Mitchell for ``tables`` tables: North-South stay, East-West move up one table and the
    boards down one each round; with an even number of tables East-West skip a table after
    half the rounds, and there are ``tables − 1`` rounds (see the module's rules).

    ``pairs`` is ``2 × tables`` (the default) or one fewer: then East-West pair ``tables`` is
    the phantom.

    >>> movement = mitchell(4, 3)
    >>> movement.rounds, movement.boards
    (3, 12)
    >>> [movement.place_of(1, r, Side.EW).table for r in (1, 2, 3)]
    [1, 2, 4]
    """
    _check_boards_per_round(boards_per_round)
    if not _is_whole(tables) or not MIN_TABLES <= tables <= MAX_MITCHELL_TABLES:
        raise MovementError(MovementRule.MITCHELL_TABLES, value=tables)
    phantom = tables if _has_phantom(tables, pairs) else None
    rounds = tables if tables % 2 else tables - 1
    seatings = []
    for round in range(1, rounds + 1):
        # The skip: past half the rounds an even room would bring East-West to the boards
        # they played already; one table further on they are all new.
        skip = 1 if tables % 2 == 0 and round > tables // 2 else 0
        moved = round - 1 + skip
        for table in range(1, tables + 1):
            ew = (table - 1 - moved) % tables + 1
            board_set = (table - 1 + round - 1) % tables + 1
            boards = _board_set(board_set, boards_per_round)
            seatings.append(Seating(round, table, table, ew, boards))
    return Movement(MovementKind.MITCHELL, tables, boards_per_round, tuple(seatings), phantom)


# A Howell for n tables works modulo m = 2n − 1, rounds and pairs 1 to m taken as 0 to m − 1.
# In round r (ρ = r − 1) pair 2n, at table 1, meets pair ρ + 1 on board set ρ + 1; at table
# t + 1 the t-th entry (x, y) below puts pair ρ + x North-South against pair ρ + y on board
# set ρ + a, a the t-th adder. The differences ±(x − y) of the entries are every nonzero
# residue once, so every pair meets every other once (a starter); the adders are distinct
# and not 0, so one table a set; and 0 with every a − x and a − y is every residue once, so
# every pair plays every set once (a cyclic Room square of side m). Each round a pair moves
# to the place whose x or y is one less: with entries (t, −t), down the North-South seats,
# through table 1 and up the East-West seats.
_HOWELL_STARTERS = {
    3: ((1, 4), (2, 3)),
    4: ((1, 6), (2, 5), (3, 4)),
    # No (t, −t) starter of side 9 has an adder; this one moves the pairs almost as simply.
    5: ((2, 1), (3, 7), (4, 6), (5, 8)),
    6: ((1, 10), (2, 9), (3, 8), (4, 7), (5, 6)),
    7: ((1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7)),
    8: ((1, 14), (2, 13), (3, 12), (4, 11), (5, 10), (6, 9), (7, 8)),
}
_HOWELL_ADDERS = {
    4: (2, 4, 1),
    5: (5, 4, 2, 7),
    6: (3, 5, 9, 1, 4),
    7: (3, 5, 9, 1, 6, 2),
    8: (2, 7, 11, 6, 1, 13, 5),
}
# There is no Room square of side 5: if each pair plays each set once, the tables playing a
# set pair off all six pairs, as a round does, and two ways of pairing off six pairs five
# times always share one whole pairing. So one round has a single set at all three tables;
# these are the sets of tables 1 to 3, round by round, with that round first.
_THREE_TABLE_SETS = ((1, 1, 1), (2, 5, 3), (3, 5, 4), (4, 2, 3), (5, 2, 4))


def howell(tables: int, boards_per_round: int, *, pairs: int | None = None) -> Movement:
    """A Howell for 3 to 8 tables: every pair meets every other once and plays every board
    set once, in ``2 × tables − 1`` rounds (see the module's rules).

    ``pairs`` is ``2 × tables`` (the default) or one fewer: then pair ``2 × tables`` is the
    phantom, and the pair at table 1 sits out.

    >>> movement = howell(4, 2)
    >>> movement.rounds, movement.boards, movement.ranking
    (7, 14, <Ranking.ONE_FIELD: 'field'>)
    >>> [(s.table, s.ns, s.ew, s.boards) for s in movement.round_seatings(1)]
    [(1, 8, 1, (1, 2)), (2, 2, 7, (5, 6)), (3, 3, 6, (9, 10)), (4, 4, 5, (3, 4))]
    """
    _check_boards_per_round(boards_per_round)
    if not _is_whole(tables) or tables not in HOWELL_TABLES:
        raise MovementError(MovementRule.HOWELL_TABLES, value=tables)
    phantom = 2 * tables if _has_phantom(tables, pairs) else None
    rounds = 2 * tables - 1
    starter = _HOWELL_STARTERS[tables]
    seatings = []
    for round in range(1, rounds + 1):
        rho = round - 1
        sets: tuple[int, ...]
        if tables == 3:
            sets = _THREE_TABLE_SETS[rho]
        else:
            sets = (round, *((rho + a) % rounds + 1 for a in _HOWELL_ADDERS[tables]))
        stationary, visitor = 2 * tables, round
        ns, ew = (stationary, visitor) if round % 2 else (visitor, stationary)
        seatings.append(Seating(round, 1, ns, ew, _board_set(sets[0], boards_per_round)))
        for table, (x, y) in enumerate(starter, start=2):
            boards = _board_set(sets[table - 1], boards_per_round)
            seatings.append(
                Seating(round, table, (rho + x) % rounds + 1, (rho + y) % rounds + 1, boards)
            )
    return Movement(MovementKind.HOWELL, tables, boards_per_round, tuple(seatings), phantom)


_SEARCH_LIMIT = 200_000
"""The most choices tried for an added table's usual tables before it is called impossible:
enough for every room that can (found at once), a bound for those that cannot."""


def _usual_tables(movement: Movement, from_round: int) -> dict[int, int] | None:
    """For each round from ``from_round``, the table whose East-West pair goes to the added
    table (see :meth:`Movement.with_added_table`): all different, as are their board sets
    that round and the East-West pairs seated there. Tried first: the table two on each
    round, which many rooms' rounds allow at once. ``None`` when none is found."""
    rounds = range(from_round, movement.rounds + 1)
    rows = {round: movement.round_seatings(round) for round in rounds}
    chosen: dict[int, int] = {}
    tables: set[int] = set()
    sets: set[tuple[int, ...]] = set()
    pairs: set[int] = set()
    tried = 0

    def place(round: int) -> bool:
        nonlocal tried
        if round > movement.rounds:
            return True
        order = sorted(rows[round], key=lambda s: (s.table - 2 * round) % movement.tables)
        for seating in order:
            tried += 1
            if tried > _SEARCH_LIMIT:
                return False
            if seating.table in tables or seating.boards in sets or seating.ew in pairs:
                continue
            tables.add(seating.table)
            sets.add(seating.boards)
            pairs.add(seating.ew)
            chosen[round] = seating.table
            if place(round + 1):
                return True
            tables.discard(seating.table)
            sets.discard(seating.boards)
            pairs.discard(seating.ew)
        return False

    return chosen if place(from_round) else None


def _board_set(number: int, boards_per_round: int) -> tuple[int, ...]:
    first = (number - 1) * boards_per_round + 1
    return tuple(range(first, first + boards_per_round))


def _check_boards_per_round(boards_per_round: object) -> None:
    if not _is_whole(boards_per_round) or not 1 <= boards_per_round <= MAX_BOARDS_PER_ROUND:
        raise MovementError(MovementRule.BOARDS_PER_ROUND, value=boards_per_round)


def _has_phantom(tables: int, pairs: int | None) -> bool:
    """Whether ``pairs`` pairs at ``tables`` tables leave a place to a phantom."""
    full = 2 * tables
    if pairs is None or (_is_whole(pairs) and pairs == full):
        return False
    if _is_whole(pairs) and pairs == full - 1:
        return True
    raise MovementError(MovementRule.PAIRS, value=pairs, tables=tables, full=full, short=full - 1)


def _is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is an ``int`` that is not a ``bool`` (``True`` is not a table)."""
    return isinstance(value, int) and not isinstance(value, bool)
