"""An evening of bridge at home on the table core: four players, rubber or Chicago, and what
the pad needs from the table: who sat where for each rubber (or Chicago wheel), and each deal's
contract, declarer and tricks. The engine scores the rest."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import Model
from scorekeeper.games.models import Game, Setting
from scorekeeper.rules import bridge


class BridgeGame(Game):
    """An evening of rubber bridge or of Chicago."""

    __mapper_args__ = {"polymorphic_identity": "bridge"}  # noqa: RUF012

    deals: Mapped[list[DealRecord]] = relationship(
        back_populates="game", order_by="DealRecord.number", cascade="all, delete-orphan"
    )
    seatings: Mapped[list[SeatingRecord]] = relationship(
        back_populates="game", order_by="SeatingRecord.number", cascade="all, delete-orphan"
    )

    chicago = Setting(bool, False)
    """Chicago (four-deal wheels) rather than rubbers."""
    as_duplicate = Setting(bool, False)
    """Chicago with every deal scored alone, as duplicate."""
    rounding = Setting(bridge.Rounding, bridge.Rounding.FIFTY_UP, stored=str)
    """How each player's net settled in hundreds rounds an exact 50, as the table chose."""
    first_dealer = Setting(bridge.Seat, "N", stored=str)


class SeatingRecord(Model):
    """Who sat where for one rubber or Chicago wheel: the table cuts again between them."""

    __tablename__ = "bridge_seating"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    """The rubber or wheel, from 1."""
    seats: Mapped[dict[str, int]] = mapped_column(JSON)
    """Each compass seat ("N", "E", "S", "W") and the player sitting there (their seat in the
    game's list of players)."""

    game: Mapped[BridgeGame] = relationship(back_populates="seatings")

    def player_at(self, seat: bridge.Seat) -> int:
        return int(self.seats[str(seat)])


class DealRecord(Model):
    """One deal as the table entered it; a passed-out deal has no contract."""

    __tablename__ = "bridge_deal"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    """Orders the deals. A deal keeps it when an earlier one is deleted: its place in the
    evening (from 1) is its position among the game's deals."""
    rubber: Mapped[int]
    """The rubber or Chicago wheel it belongs to (see SeatingRecord.number)."""
    level: Mapped[int | None]
    strain: Mapped[str | None] = mapped_column(String(2))
    doubled: Mapped[int] = mapped_column(default=0)
    declarer: Mapped[str | None] = mapped_column(String(1))
    """The declarer's compass seat."""
    tricks: Mapped[int | None]
    honours_side: Mapped[str | None] = mapped_column(String(2))
    honours: Mapped[int | None]

    game: Mapped[BridgeGame] = relationship(back_populates="deals")

    @property
    def is_passed_out(self) -> bool:
        return self.level is None

    @property
    def deal(self) -> bridge.RubberDeal:
        """The deal as the engine takes it (raises a RuleError if it breaks a rule)."""
        if self.level is None or self.strain is None or self.declarer is None:
            return bridge.RubberDeal.passed_out()
        honours = None
        if self.honours_side is not None and self.honours is not None:
            honours = bridge.Honours(bridge.Side(self.honours_side), self.honours)
        return bridge.RubberDeal(
            bridge.Seat(self.declarer).side,
            bridge.Contract(self.level, bridge.Strain(self.strain), self.doubled),
            self.tricks if self.tricks is not None else 0,
            honours,
        )

    @property
    def values(self) -> dict[str, Any]:
        """The entry's fields, to compare with another or to log."""
        return {
            "level": self.level,
            "strain": self.strain,
            "doubled": self.doubled,
            "declarer": self.declarer,
            "tricks": self.tricks,
            "honours_side": self.honours_side,
            "honours": self.honours,
        }
