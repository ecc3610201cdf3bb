"""An Ascenseur game on the table core: its settings (preset, house rules, first dealer) and its
rounds (the bids, then the tricks, and the trump suit if noted). The engine scores the rest."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import Model
from scorekeeper.games.models import Game, Setting
from scorekeeper.rules import ascenseur
from scorekeeper.rules.cards import Suit


class AscenseurGame(Game):
    """A game of the Ascenseur family."""

    __mapper_args__ = {"polymorphic_identity": "ascenseur"}  # noqa: RUF012

    rounds: Mapped[list[RoundRecord]] = relationship(
        back_populates="game", order_by="RoundRecord.number", cascade="all, delete-orphan"
    )

    preset = Setting(str)
    house_rules = Setting(dict, {})
    first_dealer = Setting(int)

    @property
    def variant(self) -> ascenseur.Variant:
        return ascenseur.with_house_rules(ascenseur.find_preset(self.preset), self.house_rules)

    @property
    def entries(self) -> list[ascenseur.RoundEntry]:
        return [record.entry for record in self.rounds]

    def sheet(self) -> ascenseur.GameSheet:
        """The whole game as the engine scores it from the stored entries."""
        return ascenseur.score_game(self.variant, self.names, self.first_dealer, self.entries)


class RoundRecord(Model):
    """One round's entries by seat: the bids, then the tricks, and the trump suit if noted."""

    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    bids: Mapped[list[int]] = mapped_column(JSON)
    tricks: Mapped[list[int] | None] = mapped_column(JSON)
    trump: Mapped[str | None] = mapped_column(String(1))

    game: Mapped[AscenseurGame] = relationship(back_populates="rounds")

    @classmethod
    def from_entries(cls, entries: Sequence[ascenseur.RoundEntry]) -> list[RoundRecord]:
        """Rows for the rounds of a game, numbered from 1."""
        return [
            cls(
                number=number,
                bids=list(entry.bids),
                tricks=None if entry.tricks is None else list(entry.tricks),
                trump=None if entry.trump is None else entry.trump.value,
            )
            for number, entry in enumerate(entries, start=1)
        ]

    @property
    def signature(self) -> str:
        """The round's entries in one line, to tell whether another phone changed them."""
        return f"{self.bids}|{self.tricks}|{self.trump}"

    @property
    def entry(self) -> ascenseur.RoundEntry:
        return ascenseur.RoundEntry(
            bids=tuple(self.bids),
            tricks=None if self.tricks is None else tuple(self.tricks),
            trump=None if self.trump is None else Suit(self.trump),
        )


class CorrectionKind(StrEnum):
    """What a line of an Ascenseur game's corrections log records."""

    BID = "bid"
    """A player's bid changed."""
    TRICKS = "tricks"
    """A player's tricks changed."""
    TRUMP = "trump"
    """The trump suit noted for the round changed, or was taken back with the bids."""
    UNDO_TRICKS = "undo-tricks"
    """The round's tricks taken back."""
    UNDO_BIDS = "undo-bids"
    """The round's bids taken back (the round is to be bid again)."""
