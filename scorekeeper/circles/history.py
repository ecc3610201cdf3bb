"""A circle's history read from its games: each family's games, with the circle's key for each
of their people (the person's id, as they now are after a merge; None for a name that names
nobody of the circle), counted by the family itself as its registration declares
(``Family.in_circles``, values of :mod:`scorekeeper.rules.history`). Games taken out of the
history are left out; nothing read here is stored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorekeeper.circles.models import Circle, Person
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.games.registry import FAMILIES, CircleGame, Family, InCircles
from scorekeeper.rules.history import PlayedGame

Seats = tuple[str | None, ...]


def person_keys(game: Game, people: dict[int, Person]) -> Seats:
    """The circle's key for the person in each seat of ``game``, by seat."""
    return tuple(key_of(people, player.person_id) for player in game.players)


def key_of(people: dict[int, Person], person_id: int | None) -> str | None:
    """The circle's key for its person of this id, as they now are after a merge."""
    person = people.get(person_id) if person_id is not None else None
    return None if person is None else str(person.now.id)


@dataclass(frozen=True)
class CircleHistory:
    """The circle's games in its history, by family, in the order they were started, each
    with the circle's keys for its people: what its pages count, read once."""

    games: dict[str, list[CircleGame]]

    def of(self, family: Family) -> list[CircleGame]:
        return self.games.get(family.key, [])

    def leagues(self) -> dict[str, League]:
        """The circle's leagues, by key (``ascenseur:<preset>``, ``bridge:rubber`` ...): the
        games of each whose points compare, as each family counts them, and its name."""
        found: dict[str, League] = {}
        for family, counts in families_in_circles():
            for key, games in counts.leagues(self.of(family)).items():
                found[key] = League(counts.league_name(key), list(games))
        return found

    def figures(self, person: str) -> list[tuple[Family, Any]]:
        """What each family counts of the person's games, for their page and their file."""
        found = []
        for family, counts in families_in_circles():
            figures = counts.figures(self.of(family), person)
            if figures is not None:
                found.append((family, figures))
        return found


@dataclass(frozen=True)
class League:
    """A league of the circle: its name, in the reader's language, and its games."""

    name: str
    games: list[PlayedGame]


def families_in_circles() -> list[tuple[Family, InCircles]]:
    """The families whose games may be a circle's, with how they count in its history."""
    return [
        (family, family.in_circles) for family in FAMILIES.values() if family.in_circles is not None
    ]


def in_history(circle: Circle, family: Family, counts: InCircles) -> list[Game]:
    """The family's games of the circle's history, in the order they were started."""
    kind = family.game
    loaded = [selectinload(getattr(kind, name)) for name in counts.loaded]
    return list(
        db.session.scalars(
            select(kind)
            .where(kind.circle_id == circle.id, kind.out_of_history.is_(False))
            .order_by(kind.created_at, kind.id)
            .options(selectinload(kind.players), *loaded)
        ).all()
    )


def circle_history(circle: Circle) -> CircleHistory:
    """The circle's history, read from its games (those taken out of it left out)."""
    people = {person.id: person for person in circle.people}

    def person(person_id: int | None) -> str | None:
        return key_of(people, person_id)

    return CircleHistory(
        {
            family.key: [CircleGame(game, person_keys(game, people), person) for game in games]
            for family, counts in families_in_circles()
            if (games := in_history(circle, family, counts))
        }
    )
