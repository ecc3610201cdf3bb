"""What happened at the table: players, chosen rules, bids, tricks. Nothing derived is stored."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint, delete, exists, func, select
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import db
from scorekeeper.rules import ascenseur
from scorekeeper.rules.cards import Suit


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def new_game_id() -> str:
    """An id nobody can guess from another game's."""
    return secrets.token_urlsafe(9)


def new_scorer_token() -> str:
    return secrets.token_urlsafe(16)


class Game(db.Model):
    """One game at one table: its rules, its players in their seats, its rounds."""

    id: Mapped[str] = mapped_column(String(16), primary_key=True, default=new_game_id)
    preset: Mapped[str] = mapped_column(String(40))
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    first_dealer: Mapped[int]
    scorer_token: Mapped[str] = mapped_column(String(32), default=new_scorer_token)
    """The secret of the scorer link; the viewer link is the game's address alone."""
    version: Mapped[int] = mapped_column(default=1)
    """Counts the changes, so a form drawn from an older state of the game is recognised; an
    update based on a version another phone has since changed fails (optimistic locking)."""
    setup_nonce: Mapped[str | None] = mapped_column(String(32), unique=True)
    """The new-game form's one-time value: submitting it twice starts one game."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 -- SQLAlchemy's own attribute

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[RoundRecord]] = relationship(
        back_populates="game", order_by="RoundRecord.number", cascade="all, delete-orphan"
    )
    corrections: Mapped[list[Correction]] = relationship(
        back_populates="game", order_by="Correction.id", cascade="all, delete-orphan"
    )

    @property
    def variant(self) -> ascenseur.Variant:
        return ascenseur.with_house_rules(ascenseur.find_preset(self.preset), self.house_rules)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.players)

    @property
    def entries(self) -> list[ascenseur.RoundEntry]:
        return [record.entry for record in self.rounds]

    def sheet(self) -> ascenseur.GameSheet:
        """The whole game as the engine scores it from the stored entries."""
        return ascenseur.score_game(self.variant, self.names, self.first_dealer, self.entries)

    def changed(self) -> None:
        """Note a change to the game's entries: the row is rewritten, and its version counted."""
        self.updated_at = utcnow()


class Player(db.Model):
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(40))

    game: Mapped[Game] = relationship(back_populates="players")


class RoundRecord(db.Model):
    """One round's entries by seat: the bids, then the tricks, and the trump suit if noted."""

    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    bids: Mapped[list[int]] = mapped_column(JSON)
    tricks: Mapped[list[int] | None] = mapped_column(JSON)
    trump: Mapped[str | None] = mapped_column(String(1))

    game: Mapped[Game] = relationship(back_populates="rounds")

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


class BrowserGame(db.Model):
    """A game a browser scores (see :mod:`scorekeeper.access`)."""

    __tablename__ = "browser_game"

    browser: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)


VALUES_LENGTH = 120
"""Room for a whole round's numbers taken back: 26 players, two digits each, and slashes."""


class CorrectionKind(StrEnum):
    """What a line of the corrections log records."""

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


class Correction(db.Model):
    """A change made to a round already entered, kept so nobody can quietly change the past."""

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    round_number: Mapped[int]
    made_at: Mapped[datetime] = mapped_column(default=utcnow)
    field: Mapped[str] = mapped_column(String(20))
    """One of :class:`CorrectionKind`."""
    seat: Mapped[int | None]
    old: Mapped[str | None] = mapped_column(String(VALUES_LENGTH))
    new: Mapped[str | None] = mapped_column(String(VALUES_LENGTH))

    game: Mapped[Game] = relationship(back_populates="corrections")


def remove_unplayed_games(before: datetime, *, dry_run: bool = False) -> int:
    """Delete the games started before ``before`` in which nothing was ever entered (no round,
    no correction); their players and the browsers' notes of them go with them. Returns how
    many there were."""
    unplayed = (
        (Game.created_at < before)
        & ~exists().where(RoundRecord.game_id == Game.id)
        & ~(exists().where(Correction.game_id == Game.id))
    )
    count = db.session.execute(select(func.count()).select_from(Game).where(unplayed)).scalar_one()
    if not dry_run and count:
        db.session.execute(
            delete(Game).where(unplayed), execution_options={"synchronize_session": False}
        )
    return int(count)
