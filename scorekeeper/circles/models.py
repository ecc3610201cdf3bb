"""A circle, its people and the log of what was changed in them.

A game started in a circle names the circle; a seat names a person, and keeps the name it had
at the table. A person merged into another keeps their row, so that their private link still
finds the person they now are; nothing of the history is lost to a rename, a merge or a game
taken out of it, and each of those is logged.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates
from sqlalchemy.orm.attributes import flag_modified

from scorekeeper.extensions import Model
from scorekeeper.games.models import Game, Player, new_game_id, new_scorer_token, utcnow
from scorekeeper.rules.federations import MAX_NUMBER
from scorekeeper.rules.history import name_key

NAME_LENGTH = 40
"""As long as a seat's name."""
SEASON_RULES_LENGTH = 400


class Circle(Model):
    """A group that plays together: a family, a pub league, a bridge four, a club."""

    id: Mapped[str] = mapped_column(String(16), primary_key=True, default=new_game_id)
    name: Mapped[str] = mapped_column(String(60))
    scorer_token: Mapped[str] = mapped_column(String(32), default=new_scorer_token)
    """The secret of the circle's scorer link; the viewer link is the circle's address alone."""
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    """Counts the changes to the circle's people and history: a form drawn before another
    phone's change is caught."""
    setup_nonce: Mapped[str | None] = mapped_column(String(32), unique=True)
    """The new-circle form's one-time value: the same form sent twice is one circle."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    season_rules: Mapped[str | None] = mapped_column(String(SEASON_RULES_LENGTH))
    """The club's season rules as its keeper kept them: the season page's address's query
    (its period, handicaps and ladder), shown when the page is opened without one."""

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 -- SQLAlchemy's own attribute

    people: Mapped[list[Person]] = relationship(
        back_populates="circle", order_by="Person.id", cascade="all, delete-orphan"
    )
    log: Mapped[list[CircleChange]] = relationship(
        back_populates="circle", order_by="CircleChange.id", cascade="all, delete-orphan"
    )
    games: Mapped[list[Game]] = relationship(foreign_keys=[Game.circle_id], passive_deletes=True)
    """Its games (the core's game row knows its circle by id alone)."""

    def changed(self) -> None:
        """Count a change to the circle (its version), whatever of it changed: its people, its
        log, its games' place in the history (see scorekeeper.games.writes.save)."""
        flag_modified(self, "name")

    @property
    def current_people(self) -> list[Person]:
        """Its people as they now are (not those merged into another), in the order they
        joined."""
        return [person for person in self.people if person.merged_into_id is None]

    def person_named(self, name: str) -> Person | None:
        """The person of this circle who goes by ``name`` (see
        :func:`~scorekeeper.rules.history.name_key`), as they now are if they were merged."""
        key = name_key(name)
        for person in self.people:
            if person.name_key == key:
                return person.now
        return None

    def person_called(self, name: str) -> Person | None:
        """The person of this circle who goes, or went before a rename, by ``name``, as they
        now are: a name written in a game before the rename still names them."""
        person = self.person_named(name)
        if person is not None:
            return person
        key = name_key(name)
        for change in reversed(self.log):
            renamed = change.kind == CircleChangeKind.RENAMED.value and not change.undone
            was = change.old is not None and name_key(change.old) == key
            if renamed and was and change.person is not None:
                return change.person.now
        return None


class Person(Model):
    """Someone of a circle, under the name the circle knows them by."""

    __table_args__ = (UniqueConstraint("circle_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    circle_id: Mapped[str] = mapped_column(ForeignKey("circle.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    name_key: Mapped[str] = mapped_column(String(NAME_LENGTH))
    """The name as two names of one person compare (:func:`~scorekeeper.rules.history.name_key`):
    one circle has no "Anne" and "anne " twice."""
    token: Mapped[str] = mapped_column(String(32), default=new_scorer_token, unique=True)
    """The secret of the person's own page."""
    shows_name: Mapped[bool] = mapped_column(default=True)
    """Whether the circle's public pages show the name; else its initials."""
    merged_into_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"))
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)
    federation: Mapped[str | None] = mapped_column(String(8))
    """The bridge federation they play under (:class:`~scorekeeper.rules.federations.Federation`),
    with their ``federation_number`` there, as the federation writes it."""
    federation_number: Mapped[str | None] = mapped_column(String(MAX_NUMBER))
    home_id: Mapped[int | None] = mapped_column(
        ForeignKey("person.id", ondelete="SET NULL"), index=True
    )
    """The person of another circle whose own link took this place: their page shows this
    circle's games beside their own, and this row's own link (:attr:`token`) opens nothing
    the circle's keepers were given."""
    left_as: Mapped[str | None] = mapped_column(String(10))
    """How the circle's pages show a person who left it (:class:`Left`); ``None``: a member."""

    circle: Mapped[Circle] = relationship(back_populates="people")
    merged_into: Mapped[Person | None] = relationship(
        remote_side=[id], foreign_keys=[merged_into_id]
    )
    home: Mapped[Person | None] = relationship(remote_side=[id], foreign_keys=[home_id])
    seats: Mapped[list[Player]] = relationship(
        foreign_keys=[Player.person_id], passive_deletes=True
    )
    """The seats that name them (the core's seat knows its person by id alone)."""

    @validates("name")
    def _keyed(self, _attribute: str, name: str) -> str:
        """Every name comes with its key, however it is set."""
        self.name_key = name_key(name)
        return name

    @property
    def shown_by_name(self) -> bool:
        """Whether the circle's public pages show their name: they chose to, and are a member."""
        return self.shows_name and self.left_as is None

    @property
    def federation_line(self) -> str | None:
        """Their federation and number as one line ("FFB 490714"), as the circle's log keeps
        it; ``None`` without one."""
        if self.federation and self.federation_number:
            return f"{self.federation} {self.federation_number}"
        return None

    def number_with(self, line: str | None) -> None:
        """Give them the federation and number of a :attr:`federation_line` (``None``: none)."""
        federation, _, number = (line or "").partition(" ")
        self.federation, self.federation_number = (federation, number) if number else (None, None)

    @property
    def now(self) -> Person:
        """The person this one is: themselves, or the one they were merged into."""
        person = self
        while person.merged_into is not None:
            person = person.merged_into
        return person


class Left(StrEnum):
    """What the circle's pages show in place of the name of a person who left it, as they
    chose."""

    INITIALS = "initials"
    FORMER = "former"
    """"A former member"."""


class CircleChangeKind(StrEnum):
    """What was changed in a circle, for its log."""

    RENAMED = "renamed"
    MERGED = "merged"
    TAKEN_OUT = "taken-out"
    """A game taken out of the history."""
    PUT_BACK = "put-back"
    """A game taken out, put back."""
    NAME_SHOWN = "name-shown"
    INITIALS = "initials"
    ADDED = "added"
    """A game played outside the circle, added to it."""
    JOINED = "joined"
    """A person who joined the circle with a game added to it (undone with it)."""
    NUMBERED = "numbered"
    """A person's federation number given, changed or taken away (old and new as written)."""
    PLACE_TAKEN = "place-taken"
    """A person's place taken by the own link of someone of another circle (the person's)."""
    PLACE_GIVEN_BACK = "place-given-back"
    """That place given back by them: its own link is the circle's to give again."""
    LEFT = "left"
    """A person left the circle, shown since as they chose (``new``: a :class:`Left`)."""
    CAME_BACK = "came-back"
    """A person who left, back under their name."""


class CircleChange(Model):
    """One change made to a circle's people or history, kept so that it can be seen and
    undone."""

    __tablename__ = "circle_change"

    id: Mapped[int] = mapped_column(primary_key=True)
    circle_id: Mapped[str] = mapped_column(ForeignKey("circle.id", ondelete="CASCADE"), index=True)
    made_at: Mapped[datetime] = mapped_column(default=utcnow)
    kind: Mapped[str] = mapped_column(String(20))
    person_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"))
    game_id: Mapped[str | None] = mapped_column(ForeignKey("game.id", ondelete="SET NULL"))
    old: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    new: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    undone: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Taken back by undo: the log keeps it, struck through."""

    circle: Mapped[Circle] = relationship(back_populates="log")
    person: Mapped[Person | None] = relationship(foreign_keys=[person_id])
    game: Mapped[Game | None] = relationship(foreign_keys=[game_id])
