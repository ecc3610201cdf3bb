"""Who sits where in a club session: its movement from what the director chose (built once
per process), and a table's seating in a round."""

from __future__ import annotations

from functools import lru_cache

from scorekeeper.rules.bridge import Side
from scorekeeper.rules.movements import Movement, Seating, howell, mitchell


def seating_at(movement: Movement, round_: int, table: int) -> Seating | None:
    """Who sits at ``table`` in ``round_``, and which boards they play; ``None`` for a round
    or table the movement does not have."""
    if not 1 <= round_ <= movement.rounds:
        return None
    for seating in movement.round_seatings(round_):
        if seating.table == table:
            return seating
    return None


@lru_cache(maxsize=256)
def movement_of(
    build: object,
    tables: int,
    per_round: int,
    pairs: int,
    late_from: int | None = None,
    switched: frozenset[int] = frozenset(),
    added: tuple[int, int] | None = None,
    left: tuple[int, str, int] | None = None,
) -> Movement:
    """Movements are pure and few: each is built once per process (with a table added for
    late pairs from a round, the round and how many; with a late pair from a round, where the
    session has one and a sit-out for it; with its arrow switch)."""
    assert build is mitchell or build is howell
    movement = build(tables, per_round, pairs=pairs or None)
    if added is not None:
        movement = movement.with_added_table(*added)
    if late_from is not None and movement.phantom is not None:
        movement = movement.with_late_pair(late_from)
    if switched:
        movement = movement.with_arrow_switch(switched)
    if left is not None:
        number, direction, from_round = left
        side = Side(direction) if direction in tuple(Side) else None
        movement = movement.with_pair_leaving(number, side, from_round)
    return movement
