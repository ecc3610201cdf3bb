"""A teams match on the table core: the two teams' names, the match's boards and who sat
where (the game's settings and players), and each table's result on each board. The engine
scores the rest."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import Model
from scorekeeper.games.models import Game, Setting
from scorekeeper.rules import bridge
from scorekeeper.rules.bridge import Seat, Side

TABLES = (1, 2)
SEATS = tuple(Seat)
MAX_TEAM = 30
MOST_BOARDS = 64
HIGHEST_FIRST_BOARD = 999


def team_at(table: int, side: Side) -> int:
    """The team (0 for A, 1 for B) sitting ``side`` at ``table``: team A sits North-South at
    table 1 and East-West at table 2."""
    return 0 if (table == 1) == (side is Side.NS) else 1


def player_seat(table: int, seat: Seat) -> int:
    """The seat number of the player sitting ``seat`` at ``table``, among the game's players
    (0 to 3 at table 1, 4 to 7 at table 2)."""
    return 4 * (table - 1) + SEATS.index(seat)


class TeamsGame(Game):
    """A match between team A and team B over a run of boards."""

    __mapper_args__ = {"polymorphic_identity": "teams"}  # noqa: RUF012

    results: Mapped[list[TableResult]] = relationship(
        back_populates="game",
        order_by=lambda: [TableResult.board, TableResult.table],
        cascade="all, delete-orphan",
    )

    team_names = Setting(
        lambda names: (str(names[0]), str(names[1])), ("A", "B"), key="teams", stored=list
    )
    boards = Setting(int, 1)
    """How many boards the match has (the victory point scale depends on it)."""
    first_board = Setting(int, 1)
    """The number of the match's first board: dealer and vulnerability follow from it."""

    @property
    def board_numbers(self) -> range:
        return range(self.first_board, self.first_board + self.boards)

    def player_name(self, table: int, seat: Seat) -> str | None:
        """Who sat ``seat`` at ``table``, if the team gave their name."""
        wanted = player_seat(table, seat)
        return next((p.name for p in self.players if p.seat == wanted), None)

    def sitting(self, table: int, seat: Seat) -> str:
        """The player at that seat, or their team when the team gave no name."""
        return self.player_name(table, seat) or self.team_names[team_at(table, seat.side)]

    def result(self, board: int, table: int) -> TableResult | None:
        """The result entered for ``board`` at ``table``, if any."""
        return next((r for r in self.results if (r.board, r.table) == (board, table)), None)


class TableResult(Model):
    """One table's result on one board; a passed-out board has no contract."""

    __tablename__ = "teams_result"
    __table_args__ = (UniqueConstraint("game_id", "board", "table"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    board: Mapped[int]
    """The board's number, as printed on it."""
    table: Mapped[int]
    """1 or 2."""
    level: Mapped[int | None]
    strain: Mapped[str | None] = mapped_column(String(2))
    doubled: Mapped[int] = mapped_column(default=0)
    declarer: Mapped[str | None] = mapped_column(String(1))
    """The declarer's compass seat."""
    tricks: Mapped[int | None]

    game: Mapped[TeamsGame] = relationship(back_populates="results")

    @property
    def is_passed_out(self) -> bool:
        return self.level is None

    @property
    def ns_score(self) -> int:
        """North-South's duplicate score (raises a RuleError if the result breaks a rule)."""
        if self.level is None or self.strain is None or self.declarer is None:
            return 0
        side = Seat(self.declarer).side
        vulnerable = bridge.board_vulnerability(self.board).is_vulnerable(side)
        score = bridge.contract_score(
            self.level, self.strain, self.doubled, vulnerable, self.tricks or 0
        )
        return score if side is Side.NS else -score

    @property
    def values(self) -> dict[str, Any]:
        """The result's fields, to compare with another or to export."""
        return {
            "level": self.level,
            "strain": self.strain,
            "doubled": self.doubled,
            "declarer": self.declarer,
            "tricks": self.tricks,
        }

    @property
    def code(self) -> str:
        """The result in a few letters, for the log: "4SX S 9", or "pass"."""
        if self.level is None:
            return "pass"
        return f"{self.level}{self.strain}{'X' * self.doubled} {self.declarer} {self.tricks}"
