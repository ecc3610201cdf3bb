"""A game of French Tarot on the table core: its players, who dealt first, and each deal as the
table told it (or "all passed"). The engine (scorekeeper.rules.tarot) derives the rest."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import Model
from scorekeeper.games.models import Game, Setting
from scorekeeper.rules import tarot

BONUSES = ("petit_au_bout", "poignee_taker", "poignee_defence", "chelem")
FIELDS = ("taker", "contract", "partner", "bouts", "half_points", *BONUSES)
"""What the table says of a deal, in the order of its code (:attr:`TarotDealRecord.code`)."""
NUMBERS = ("taker", "partner", "bouts", "half_points")


class TarotGame(Game):
    """A game of 3, 4 or 5 players, for as many deals as the table plays."""

    __mapper_args__ = {"polymorphic_identity": "tarot"}  # noqa: RUF012

    deals: Mapped[list[TarotDealRecord]] = relationship(
        back_populates="game", order_by="TarotDealRecord.number", cascade="all, delete-orphan"
    )
    first_dealer = Setting(int, 0)

    def sheet(self) -> tarot.TarotSheet:
        """The game as the engine scores it (a TarotError if a deal cannot have happened)."""
        deals = tuple(record.deal(len(self.players)) for record in self.deals)
        return tarot.TarotSheet(len(self.players), self.first_dealer, deals)


class TarotDealRecord(Model):
    """One deal as the table entered it; a deal all passed has no taker and nothing else."""

    __tablename__ = "tarot_deal"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    """Orders the deals; kept when an earlier one is deleted (its place is its position)."""
    taker: Mapped[int | None]
    contract: Mapped[str | None] = mapped_column(String(12))
    partner: Mapped[int | None]
    """At 5 players, who held the called king; none when the taker played alone."""
    bouts: Mapped[int | None]
    half_points: Mapped[int | None]
    """The taker's side's card points, in half points (81 for 40.5)."""
    petit_au_bout: Mapped[str | None] = mapped_column(String(8))
    """The side whose last trick held the Petit."""
    poignee_taker: Mapped[str | None] = mapped_column(String(8))
    poignee_defence: Mapped[str | None] = mapped_column(String(8))
    chelem: Mapped[str | None] = mapped_column(String(20))

    game: Mapped[TarotGame] = relationship(back_populates="deals")

    def deal(self, players: int) -> tarot.TarotDeal | None:
        """The deal as the engine takes it, which checks every value (``None``: all passed)."""
        if self.taker is None:
            return None
        shown = zip(tarot.Camp, (self.poignee_taker, self.poignee_defence), strict=True)
        said: dict[str, Any] = {name: getattr(self, name) for name in FIELDS[:4] + BONUSES[:1]}
        said.update(points=Fraction(self.half_points or 0, 2), chelem=self.chelem)
        said["poignees"] = tuple((camp, kind) for camp, kind in shown if kind)
        return tarot.TarotDeal(players, **said)

    @property
    def code(self) -> str:
        """The deal in a few characters, for the log: "0/garde/2/2/98/taker///", or "pass"."""
        if self.taker is None:
            return "pass"
        return "/".join("" if getattr(self, f) is None else str(getattr(self, f)) for f in FIELDS)

    @classmethod
    def from_code(cls, code: str | None) -> TarotDealRecord | None:
        """The deal a log line names (:attr:`code`), to say it in the reader's language."""
        if code == "pass":
            return cls()
        parts = (code or "").split("/")
        found = dict(zip(FIELDS, parts, strict=False))
        numbers = [found[f] for f in NUMBERS if f in found and (found[f] or f == "taker")]
        if len(parts) != len(FIELDS) or not all(value.isdecimal() for value in numbers):
            return None
        return cls(**{f: (int(v) if f in NUMBERS else v) if v else None for f, v in found.items()})
