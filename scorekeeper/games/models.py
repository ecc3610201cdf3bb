"""What every game at a table has, whatever its family: the game row with its chosen settings,
the players in their seats, the corrections log, and the browsers that score it.

A family's game is a subclass of :class:`Game` (one table, told apart by ``family``); its
entries (rounds, deals, ...) live in tables of its own. Nothing derived is stored.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar, overload

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint, exists, false, inspect, true
from sqlalchemy.orm import Mapped, column_property, mapped_column, relationship

from scorekeeper.extensions import Model


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def new_game_id() -> str:
    """An id nobody can guess from another game's."""
    return secrets.token_urlsafe(9)


def new_scorer_token() -> str:
    return secrets.token_urlsafe(16)


T = TypeVar("T")

VALUES_LENGTH = 120
"""Room for a whole round's numbers taken back: 26 players, two digits each, and slashes."""


class Setting(Generic[T]):
    """One of the settings a table chose when the game started, kept in the game's JSON
    column under the attribute's name (or ``key``): read through ``read`` (``default`` where
    the game has none), stored as ``stored`` gives it."""

    def __init__(
        self,
        read: Callable[[Any], T],
        default: object = None,
        *,
        key: str = "",
        stored: Callable[[T], object] = lambda value: value,
    ) -> None:
        self.read, self.default, self.key, self.stored = read, default, key, stored

    def __set_name__(self, owner: type, name: str) -> None:
        self.key = self.key or name

    @overload
    def __get__(self, game: None, owner: type | None = None) -> Setting[T]: ...
    @overload
    def __get__(self, game: Game, owner: type | None = None) -> T: ...
    def __get__(self, game: Game | None, owner: type | None = None) -> T | Setting[T]:
        if game is None:
            return self
        return self.read(game.settings.get(self.key, self.default))

    def __set__(self, game: Game, value: object) -> None:
        """Set from the value itself or from what it is read from (a seat's letter)."""
        game.setting(self.key, self.stored(self.read(value)))


class Correction(Model):
    """A change made to what was entered, kept so nobody can quietly change the past."""

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    """The round or deal the change is about."""
    made_at: Mapped[datetime] = mapped_column(default=utcnow)
    kind: Mapped[str] = mapped_column(String(20))
    """What changed: one of the family's closed set of kinds (a StrEnum of its own)."""
    seat: Mapped[int | None]
    old: Mapped[str | None] = mapped_column(String(VALUES_LENGTH))
    new: Mapped[str | None] = mapped_column(String(VALUES_LENGTH))

    game: Mapped[Game] = relationship(back_populates="corrections")


class Game(Model):
    """One game at one table: its family, its chosen settings, its players in their seats."""

    id: Mapped[str] = mapped_column(String(16), primary_key=True, default=new_game_id)
    family: Mapped[str] = mapped_column(String(20))
    """The family's key (see :mod:`scorekeeper.games.registry`)."""
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """What the table chose when the game started, as the family keeps it."""
    scorer_token: Mapped[str] = mapped_column(String(32), default=new_scorer_token)
    """The secret of the scorer link; the viewer link is the game's address alone."""
    version: Mapped[int] = mapped_column(default=1)
    """Counts the changes, so a form drawn from an older state of the game is recognised; an
    update based on a version another phone has since changed fails (optimistic locking)."""
    parts_version: Mapped[int] = mapped_column(default=0, server_default="0")
    """Counts the changes written under rows of the game's own parts, each with a version of its
    own (a club session's tables, so that they never wait on one another's forms): the game's
    pages follow one number, read in one row (see :attr:`live_version`)."""
    circle_id: Mapped[str | None] = mapped_column(
        ForeignKey("circle.id", ondelete="SET NULL"), index=True
    )
    """The circle the game was played in (scorekeeper.circles), if any."""
    out_of_history: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Taken out of its circle's history (and logged there): it counts in no figure of it."""
    setup_nonce: Mapped[str | None] = mapped_column(String(32), unique=True)
    """The new-game form's one-time value: submitting it twice starts one game."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    __mapper_args__ = {  # noqa: RUF012 -- SQLAlchemy's own attribute
        "version_id_col": version,
        "polymorphic_on": family,
    }

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan"
    )
    corrections: Mapped[list[Correction]] = relationship(
        back_populates="game", order_by="Correction.id", cascade="all, delete-orphan"
    )
    has_stored_corrections: Mapped[bool] = column_property(
        exists().where(Correction.game_id == id).correlate_except(Correction)
    )
    """Whether the database held a correction of this game when its row was read (``None``
    for a game not stored yet)."""

    @property
    def live_version(self) -> int:
        """The version the live pages follow: the game row's own and its parts' changes."""
        return self.version + self.parts_version

    @property
    def correction_log(self) -> list[Correction]:
        """The corrections, oldest first. Every page of the game shows them and most games
        have none: they are only read where the game's own statement found some, so that
        drawing a page costs one statement fewer (on PostgreSQL, a round trip).

        A correction made in this request is added through ``corrections``, which loads them
        first: once loaded, they are what is shown, whatever the row said. (One made any other
        way, ``Correction(game=...)``, shows once the game's row is written, as every entry
        writes it.)"""
        if self.has_stored_corrections or "corrections" not in inspect(self).unloaded:
            return self.corrections
        return []

    def started_with(self) -> list[str]:
        """The games started with this one by the same form (a field's other sections): the
        browser that started it scores them too."""
        return []

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.players)

    def setting(self, name: str, value: Any) -> None:
        """Change one of the settings (the JSON column is written anew, so the change is seen)."""
        self.settings = {**(self.settings or {}), name: value}

    def changed(self) -> None:
        """Note a change to the game's entries: the row is rewritten, and its version counted."""
        self.updated_at = utcnow()

    def shown_with(self) -> list[str]:
        """The other games whose pages show this one's entries (a field's other sections, whose
        figures this one's results change): each is counted changed whenever this one is."""
        return []


class Player(Model):
    """A player in a seat, by name (seats from 0, clockwise, in the order the table gave)."""

    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(40))
    """The name as it was at the table, whatever the person it names is called since."""
    person_id: Mapped[int | None] = mapped_column(
        ForeignKey("person.id", ondelete="SET NULL"), index=True
    )
    """The circle's person in the seat, in a game played in a circle."""

    game: Mapped[Game] = relationship(back_populates="players")


class BrowserGame(Model):
    """A game a browser scores, or follows only: opened through its follow link, and not
    through its scorer link since (see :mod:`scorekeeper.games.rights`)."""

    __tablename__ = "browser_game"

    browser: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    scores: Mapped[bool] = mapped_column(default=True, server_default=true())
    """Whether the browser scores the game; else it follows it only."""


class SentForm(Model):
    """A form a phone kept while the network or the server was down and sent when it could,
    by the one-time token the phone gave it (see static/scorekeeper.js): written with the
    change it made, so that the same form arriving again changes nothing and goes where the
    first one went."""

    __tablename__ = "sent_form"

    token: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str | None] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), index=True
    )
    """The game it changed (``None``: a circle's own row)."""
    circle_id: Mapped[str | None] = mapped_column(
        ForeignKey("circle.id", ondelete="CASCADE"), index=True
    )
    """The circle whose own row it changed (its people, its history)."""
    location: Mapped[str] = mapped_column(String(500))
    """Where the phone went once it was applied."""
    arrived_at: Mapped[datetime] = mapped_column(default=utcnow)
    kept_for: Mapped[int] = mapped_column(default=0)
    """Seconds the phone kept it before it arrived (0: it arrived when sent)."""
    number: Mapped[int | None]
    """The entry it was for, as the corrections log places one: a round, a deal, a board."""
    seat: Mapped[int | None]
    """And its seat there: a club table."""
