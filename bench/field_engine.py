"""What a result costs the engine in a simultaneous's field: score_field and the result's
section's share of it, after each of 40 results entered one at a time.

    .venv/bin/python bench/field_engine.py

The field is the sim workload's (seventy sections of 10 to 15 tables, Mitchells on the same
boards, each section one to three rounds in), played with two boards a round and again with
four (twice the boards, the same results a round at each table). A result re-scores its own
board: its cost should not grow with the number of boards. Printed: the milliseconds a result,
the fastest of five passes, for each field, and their ratio.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.rules.bridge import Contract, Strain
from scorekeeper.rules.common import Seat, Side
from scorekeeper.rules.duplicate import SessionRecord, TableResult
from scorekeeper.rules.field import Section, clear_memo, score_field, section_name
from scorekeeper.rules.movements import Movement, Seating, mitchell

SECTIONS = (15,) * 55 + (13, 12, 10) * 5
RESULTS, PASSES = 40, 5


def played(rng: random.Random, seating: Seating, board: int) -> TableResult:
    (ns, _), (ew, _) = seating.at(Side.NS), seating.at(Side.EW)
    contract = Contract(rng.randint(1, 4), rng.choice(list(Strain)))
    return TableResult(
        board, seating.table, seating.round, ns, ew, contract, rng.choice(list(Seat)),
        rng.randint(5, 11), switched=seating.switched,
    )  # fmt: skip


def field(boards_per_round: int) -> list[tuple[str, Movement, SessionRecord]]:
    rng = random.Random(1)
    sections = []
    for number, tables in enumerate(SECTIONS):
        movement = mitchell(tables, boards_per_round)
        rounds = number % 3 + 1
        # The same results a table in either field: the first two boards of each round.
        results = tuple(
            played(rng, seating, board)
            for seating in movement.seatings
            if seating.round <= rounds and not movement.sits_out(seating)
            for board in seating.boards[:2]
        )
        record = SessionRecord(
            results, movement.ranking, expected=movement.expected_results(results)
        )
        sections.append((section_name(number), movement, record))
    return sections


def per_result_ms(boards_per_round: int) -> tuple[float, int, int]:
    fastest = float("inf")
    for _pass in range(PASSES):
        sections = field(boards_per_round)
        rng = random.Random(2)
        clear_memo()
        score_field([Section(name, record) for name, _m, record in sections])
        started = time.perf_counter()
        for step in range(RESULTS):
            at = step * 7 % len(sections)
            name, movement, record = sections[at]
            done = {(r.round, r.table, r.board) for r in record.results}
            seating, board = next(
                (s, b)
                for s in movement.seatings
                if not movement.sits_out(s)
                for b in s.boards[:2]
                if (s.round, s.table, b) not in done
            )
            results = (*record.results, played(rng, seating, board))
            expected = movement.expected_results(results)
            sections[at] = (name, movement, replace(record, results=results, expected=expected))
            score = score_field([Section(n, r) for n, _m, r in sections])
            score.section_score(name)
        fastest = min(fastest, (time.perf_counter() - started) / RESULTS * 1000)
    played_out = field(boards_per_round)
    count = sum(len(record.results) for _n, _m, record in played_out)
    boards = max(b for _n, movement, _r in played_out for s in movement.seatings for b in s.boards)
    return fastest, count, boards


def main() -> None:
    figures = {}
    for boards_per_round in (2, 4):
        ms, results, boards = per_result_ms(boards_per_round)
        figures[boards_per_round] = ms
        print(f"{len(SECTIONS)} sections, {boards} boards, {results} results: {ms:.1f} ms a result")
    print(f"twice the boards: {figures[4] / figures[2]:.2f} × the cost of a result")


if __name__ == "__main__":
    main()
