"""The rows of a club session beside its game row: its pairs and their players, its tables
(each with a version of its own), each table's result on each board as North entered it, and
the boards' deals. The session itself is :class:`scorekeeper.club.models.ClubSession`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from functools import lru_cache

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import Model
from scorekeeper.games.models import Game, utcnow
from scorekeeper.rules.bridge import Artificial, Contract, Seat, Side, Strain
from scorekeeper.rules.duplicate import Pair, TableResult
from scorekeeper.rules.published import PublishedStanding


class ClubPair(Model):
    """A pair of the session: its number (within its direction in a Mitchell) and its players."""

    __tablename__ = "club_pair"
    __table_args__ = (UniqueConstraint("game_id", "direction", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    direction: Mapped[str] = mapped_column(String(2), default="")
    """"NS" or "EW" where pairs are numbered within their direction; "" otherwise."""
    names: Mapped[str] = mapped_column(String(80), default="")
    tiebreak: Mapped[int | None]
    """A tiebreak figure a results file published (the higher ranks first)."""
    first_person_id: Mapped[int | None] = mapped_column(
        ForeignKey("person.id", ondelete="SET NULL")
    )
    second_person_id: Mapped[int | None] = mapped_column(
        ForeignKey("person.id", ondelete="SET NULL")
    )
    """In a session played in a circle, the circle's people its names name (the names stay
    as the director wrote them)."""
    published_place: Mapped[str | None] = mapped_column(String(8))
    """A results file's place for the pair, as written ("3="); the total, percentage and
    boards played it published beside it."""
    published_total: Mapped[str | None] = mapped_column(String(16))
    published_percentage: Mapped[str | None] = mapped_column(String(16))
    published_boards: Mapped[int | None]
    first_number: Mapped[str | None] = mapped_column(String(20))
    second_number: Mapped[str | None] = mapped_column(String(20))
    """The two players' federation numbers as a results file read gave them; a player who is
    one of the circle's people is written with the number the circle gives them."""

    game: Mapped[Game] = relationship("ClubSession", back_populates="pairs")

    @property
    def person_ids(self) -> tuple[int | None, int | None]:
        """The circle's people the pair's two players are, by id (a session of a circle)."""
        return self.first_person_id, self.second_person_id

    def seater(self, partner: int) -> Callable[[int | None], None]:
        """Name the person of an id as the pair's first (0) or second (1) player."""

        def seat(person_id: int | None) -> None:
            if partner == 0:
                self.first_person_id = person_id
            else:
                self.second_person_id = person_id

        return seat

    @property
    def key(self) -> Pair:
        return Pair(self.number, Side(self.direction) if self.direction else None)

    @property
    def published(self) -> PublishedStanding | None:
        """The pair's line of the ranking its results file published, or ``None``."""
        figures = (self.published_place, self.published_total, self.published_percentage)
        if figures == (None, None, None):
            return None
        place = (self.published_place or "").rstrip("=")
        return PublishedStanding(
            self.key,
            rank=int(place) if place.isdigit() else None,
            total=_decimal(self.published_total),
            percentage=_decimal(self.published_percentage),
            tiebreak=self.tiebreak,
            names=self.names,
            boards=self.published_boards,
            tied=(self.published_place or "").endswith("="),
        )


class ClubTable(Model):
    """A table of the session, with the version of its own entries."""

    __tablename__ = "club_table"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    version: Mapped[int] = mapped_column(default=1)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012

    game: Mapped[Game] = relationship("ClubSession", back_populates="tables")

    def changed(self) -> None:
        """Note a change to this table's results: its version is counted."""
        self.updated_at = utcnow()


class ClubResult(Model):
    """One table's result on one board: a contract played, a pass, or artificial scores."""

    __tablename__ = "club_result"
    __table_args__ = (UniqueConstraint("game_id", "board", "table", "round"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    board: Mapped[int]
    table: Mapped[int]
    round: Mapped[int]
    ns: Mapped[int]
    ew: Mapped[int]
    level: Mapped[int | None]
    strain: Mapped[str | None] = mapped_column(String(2))
    doubled: Mapped[int] = mapped_column(default=0)
    declarer: Mapped[str | None] = mapped_column(String(1))
    tricks: Mapped[int | None]
    artificial_ns: Mapped[str | None] = mapped_column(String(2))
    artificial_ew: Mapped[str | None] = mapped_column(String(2))
    lead: Mapped[str] = mapped_column(String(3), default="")
    """The opening lead as results files write it ("S3", "HT"): tapped at the table where the
    director asks for it, or as a results file gave it; "" when not known."""
    switched: Mapped[bool] = mapped_column(default=False)
    """The pairs sat the other way round (see TableResult.switched): ``ns`` is then an
    East-West pair's number, in a Mitchell."""
    confirmed: Mapped[bool] = mapped_column(default=False)
    """East-West saw the score and agreed to it."""
    entered_at: Mapped[datetime] = mapped_column(default=utcnow)
    published_ns: Mapped[str | None] = mapped_column(String(16))
    """A results file's matchpoints (or IMPs) for North-South on this line, as written
    ("28.30"); East-West's beside it."""
    published_ew: Mapped[str | None] = mapped_column(String(16))

    game: Mapped[Game] = relationship("ClubSession", back_populates="results")

    def table_result(self) -> TableResult:
        return _table_result(
            self.board,
            self.table,
            self.round,
            self.ns,
            self.ew,
            self.level,
            self.strain,
            self.doubled,
            self.declarer,
            self.tricks,
            self.artificial_ns,
            self.artificial_ew,
            self.lead,
            self.switched,
        )

    @property
    def code(self) -> str:
        """The result in a few letters, for the corrections log: "4SX S 9", "pass", "A+/A-";
        the lead after it, where one was entered ("4SX S 9 H3")."""
        if self.artificial_ns:
            return f"{self.artificial_ns}/{self.artificial_ew}"
        if self.level is None:
            return "pass"
        played = f"{self.level}{self.strain}{'X' * self.doubled} {self.declarer} {self.tricks}"
        return f"{played} {self.lead}" if self.lead else played

    def clear(self) -> None:
        self.level = self.strain = self.declarer = self.tricks = None
        self.artificial_ns = self.artificial_ew = None
        self.doubled = 0


class ClubDeal(Model):
    """A board's cards, from a results file, hand records or dealt here; and, once solved in
    the background, what each declarer makes double dummy (see scorekeeper.club.hands)."""

    __tablename__ = "club_deal"
    __table_args__ = (UniqueConstraint("game_id", "board"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    board: Mapped[int]
    deal: Mapped[str] = mapped_column(String(80))
    tricks: Mapped[str | None] = mapped_column(String(20))
    """The double-dummy table (DoubleDummyTable.to_text), or ``None`` until it is solved (or
    for a deal that gives fewer than four hands)."""

    game: Mapped[Game] = relationship("ClubSession", back_populates="deals")


@lru_cache(maxsize=32768)
def _table_result(
    board: int,
    table: int,
    round_: int,
    ns: int,
    ew: int,
    level: int | None,
    strain: str | None,
    doubled: int,
    declarer: str | None,
    tricks: int | None,
    artificial_ns: str | None,
    artificial_ew: str | None,
    lead: str | None,
    switched: bool | None,
) -> TableResult:
    """A stored result as the engine takes it. Every page of a session reads each of its
    results anew, and most of them are as they were on the last page: converted once (as
    many as seventy sessions of fifteen tables hold at once)."""
    contract, declarer_seat, tricks_taken = None, None, None
    if level is not None and strain and declarer:
        contract = Contract(level, Strain(strain), doubled)
        declarer_seat, tricks_taken = Seat(declarer), tricks
    return TableResult(
        board,
        table,
        round_,
        ns,
        ew,
        contract=contract,
        declarer=declarer_seat,
        tricks=tricks_taken,
        artificial_ns=Artificial(artificial_ns) if artificial_ns else None,
        artificial_ew=Artificial(artificial_ew) if artificial_ew else None,
        lead=lead or "",
        switched=bool(switched),
    )


def _decimal(text: str | None) -> Decimal | None:
    """A published figure as stored (the file's own text, checked when it was read)."""
    return None if text is None else Decimal(text)
