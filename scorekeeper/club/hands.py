"""Hand records of a club session: the boards' deals (from a PBN file, or dealt here for a
dealing machine), solved double dummy in the background once they arrive, and what a page
shows of a board: its four hands, the tricks each declarer makes, and par.

The solve never runs on a request's path: a page shows the hands at once and the analysis
when it is kept. Each server process solves what it is given one session at a time; two
processes given the same session write the same figures.
"""

from __future__ import annotations

import functools
import logging
import random
import threading
from collections.abc import Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

from flask import Flask, current_app
from sqlalchemy import select

from scorekeeper.club.models import ClubSession
from scorekeeper.club.rows import ClubDeal
from scorekeeper.extensions import db
from scorekeeper.games.writes import write_apart
from scorekeeper.rules.bridge import (
    Seat,
    Vulnerability,
    board_dealer,
    board_vulnerability,
)
from scorekeeper.rules.duplicate import TableResult
from scorekeeper.rules.hands import (
    Deal,
    DoubleDummyTable,
    HandError,
    Par,
    double_dummy_tables,
    par,
    solver_available,
)

log = logging.getLogger(__name__)

SOLVES_IN_A_ROW = 3
"""How often a session is looked at again after a solve: hands given meanwhile are solved in
turn."""
IMPROBABLE = 3
"""Tricks taken this many or more away from what the cards make double dummy: worth a look."""


@dataclass(frozen=True)
class HandRecord:
    """A board's hand record: its deal, dealer and vulnerability, and, once solved, its
    double-dummy table and par."""

    board: int
    deal: Deal
    table: DoubleDummyTable | None

    @property
    def par(self) -> Par | None:
        return None if self.table is None else board_par(self.table.to_text(), self.board)

    @property
    def dealer(self) -> Seat:
        return board_dealer(self.board)

    @property
    def vulnerability(self) -> Vulnerability:
        return board_vulnerability(self.board)

    def improbable(self, result: TableResult) -> int | None:
        """The tricks the declarer makes double dummy, when the tricks entered are
        IMPROBABLE or more away from them (a slip of the finger, or the wrong board)."""
        contract, declarer, tricks = result.contract, result.declarer, result.tricks
        if self.table is None or contract is None or declarer is None or tricks is None:
            return None
        makes = self.table.tricks(declarer, contract.strain)
        return makes if abs(tricks - makes) >= IMPROBABLE else None


@functools.lru_cache(maxsize=4096)
def board_par(tricks: str, board: int) -> Par:
    """Par of a board's double-dummy table (kept: every table page asks again)."""
    table = DoubleDummyTable.from_text(tricks)
    return par(table, board_vulnerability(board), dealer=board_dealer(board))


@functools.lru_cache(maxsize=4096)
def hand_record(board: int, deal: str, tricks: str | None) -> HandRecord | None:
    """A board's hand record from what is kept (``None`` for a deal short of a hand)."""
    try:
        full = Deal.from_pbn(deal)
    except HandError:
        return None
    try:
        table = DoubleDummyTable.from_text(tricks) if tricks else None
    except HandError:  # not as the solver writes it: shown unsolved
        table = None
    return HandRecord(board, full, table)


def hand_records(game: ClubSession) -> dict[int, HandRecord]:
    """The session's hand records, by board; those not solved yet are given to the solver."""
    records = {}
    for row in game.deals:
        record = hand_record(row.board, row.deal, row.tricks)
        if record is not None:
            records[row.board] = record
    if any(record.table is None for record in records.values()):
        solver().solve_later(game.id)
    return records


def deals_at_random(boards: Iterable[int], chance: random.Random | None = None) -> dict[int, str]:
    """A deal for each board, shuffled by the operating system's randomness (or ``chance``),
    each written from its dealer as a dealing machine's file has it."""
    chance = chance or random.SystemRandom()
    return {board: Deal.at_random(chance, board_dealer(board)).to_pbn() for board in boards}


def put_deals(game: ClubSession, deals: Mapping[int, str]) -> None:
    """The session's deals replaced by these (their analysis to be solved again)."""
    kept = {row.board: row for row in game.deals}
    for board, deal in deals.items():
        row = kept.get(board)
        if row is None:
            game.deals.append(ClubDeal(board=board, deal=deal))
        elif row.deal != deal:
            row.deal, row.tricks = deal, None


class Solver:
    """Solves sessions' deals in a thread of its own, one session at a time."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hand-records")
        self.lock = threading.Lock()
        self.pending: dict[str, Future[None]] = {}

    def solve_later(self, game_id: str) -> None:
        """Solve the session's deals not solved yet, unless that is under way already."""
        if not self.app.config["SOLVE_HANDS"] or not solver_available():
            return
        with self.lock:
            if game_id not in self.pending:
                self.pending[game_id] = self.executor.submit(self.solve, game_id)

    def solve(self, game_id: str) -> None:
        try:
            with self.app.app_context():
                for _look in range(SOLVES_IN_A_ROW):
                    if not self.solve_once(game_id):
                        break
        except Exception:  # a thread of its own: say it, the page shows the hands unsolved
            log.exception("The hand records of session %s could not be solved", game_id)
        finally:
            with self.lock:
                self.pending.pop(game_id, None)

    def solve_once(self, game_id: str) -> bool:
        """Solve what is not solved yet and keep it; ``False`` when nothing was left."""
        unsolved = select(ClubDeal.id, ClubDeal.deal).where(
            ClubDeal.game_id == game_id, ClubDeal.tricks.is_(None)
        )
        found: dict[tuple[int, str], Deal] = {}
        for row_id, text in db.session.execute(unsolved):
            try:
                found[row_id, text] = Deal.from_pbn(text)
            except HandError:
                continue  # a results file's deal short of a hand: shown as it is
        db.session.rollback()  # no transaction held open while the solver works
        if not found:
            return False
        tables = dict(zip(found, double_dummy_tables(found.values()), strict=True))

        def keep(game: ClubSession) -> bool:
            """The tables onto the deals solved (the director may have given other hands
            meanwhile); the session's version moves, its pages showing them, only if any."""
            written = False
            for row in game.deals:
                table = tables.get((row.id, row.deal))
                if table is not None and row.tricks is None:
                    row.tricks, written = table.to_text(), True
            return written

        write_apart(lambda: db.session.get(ClubSession, game_id), keep)
        return True  # looked at again: hands given meanwhile are solved in turn

    def wait(self, timeout: float = 60) -> None:
        """Until every solve asked for is done (for the tests)."""
        with self.lock:
            futures = list(self.pending.values())
        wait(futures, timeout)


def solver() -> Solver:
    return current_app.extensions["hand_solver"]  # type: ignore[no-any-return]


def init_app(app: Flask) -> None:
    app.config.setdefault("SOLVE_HANDS", True)
    app.extensions["hand_solver"] = Solver(app)
