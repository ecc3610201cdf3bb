"""Échelons on the table core: a player's patience log, or a race match between two players;
each game of patience one entry. The engine gives the statistics and the winners."""

from __future__ import annotations

import re
from datetime import date

from sqlalchemy import ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import Model
from scorekeeper.games.models import Game, Setting
from scorekeeper.rules import echelons

CODE = re.compile(
    r"(?:(?P<cards>\d+)|(?P<left_a>\d+)/(?P<left_b>\d+)) (?P<day>\d{4}-\d\d-\d\d)"
    r"(?: (?P<minutes>\d+)')?"
)
"""An entry's :attr:`PatienceRecord.code`, as the corrections log keeps it."""


class EchelonsGame(Game):
    """A patience log (one player) or a race match (two players)."""

    __mapper_args__ = {"polymorphic_identity": "echelons"}  # noqa: RUF012

    entries: Mapped[list[PatienceRecord]] = relationship(
        back_populates="game", order_by="PatienceRecord.number", cascade="all, delete-orphan"
    )

    race = Setting(bool, False)
    """A race match rather than a log."""

    @property
    def patience_games(self) -> list[echelons.PatienceGame]:
        """The log's games, as the engine takes them."""
        return [record.patience_game for record in self.entries if record.cards_home is not None]

    @property
    def winners(self) -> list[int | None]:
        """The race's games' winners."""
        return [
            echelons.race_winner(record.left_a, record.left_b)
            for record in self.entries
            if record.left_a is not None and record.left_b is not None
        ]


class PatienceRecord(Model):
    """One game of patience: the cards home (a log) or each player's cards left (a race)."""

    __tablename__ = "patience_game"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    """Orders the games; kept when an earlier one is deleted."""
    played_on: Mapped[date]
    cards_home: Mapped[int | None]
    minutes: Mapped[int | None]
    left_a: Mapped[int | None]
    left_b: Mapped[int | None]

    game: Mapped[EchelonsGame] = relationship(back_populates="entries")

    @property
    def patience_game(self) -> echelons.PatienceGame:
        return echelons.PatienceGame(self.cards_home or 0, self.played_on, self.minutes)

    @property
    def code(self) -> str:
        """The entry in a few characters, for the log: "52 2026-11-23 14'", "7/0 2026-11-23"."""
        if self.cards_home is not None:
            minutes = f" {self.minutes}'" if self.minutes else ""
            return f"{self.cards_home} {self.played_on.isoformat()}{minutes}"
        return f"{self.left_a}/{self.left_b} {self.played_on.isoformat()}"

    @classmethod
    def from_code(cls, code: str | None) -> PatienceRecord | None:
        """The entry a log line names (:attr:`code`), to say it in the reader's language."""
        match = CODE.fullmatch(code or "")
        if match is None:
            return None
        record = cls()
        try:  # a log read from a file may name what no entry can be
            record.played_on = date.fromisoformat(match["day"])
            if match["cards"] is not None:
                record.cards_home = int(match["cards"])
                record.minutes = int(match["minutes"]) if match["minutes"] else None
                echelons.PatienceGame(record.cards_home, record.played_on, record.minutes)
            else:
                record.left_a, record.left_b = int(match["left_a"]), int(match["left_b"])
                echelons.race_winner(record.left_a, record.left_b)
        except ValueError:
            return None
        return record
