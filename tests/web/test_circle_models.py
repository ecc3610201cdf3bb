"""A circle's people as the database keeps them, on SQLite and PostgreSQL: one person to a name,
a merged person found as who they now are, a seat that keeps its name, and the migration that
brings circles, taken back and made again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy.exc import IntegrityError

from scorekeeper.circles.models import Circle, CircleChange, CircleChangeKind, Person
from scorekeeper.extensions import db
from scorekeeper.games.models import Game, Player
from tests.conftest import DATABASES, app_on, empty_database_url


def test_a_circle_has_one_person_to_a_name(app: Flask) -> None:
    with app.app_context():
        circle = Circle(name="Les Martin", people=[Person(name="Anne"), Person(name="Bruno")])
        db.session.add(circle)
        db.session.commit()
        assert circle.person_named("  ANNE ") is circle.people[0]
        assert circle.person_named("Chloé") is None
        db.session.add(Person(circle=circle, name="anne "))
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()
        other = Circle(name="Le pub", people=[Person(name="Anne")])  # another circle's Anne
        db.session.add(other)
        db.session.commit()
        assert other.people[0].token != circle.people[0].token


def test_a_merged_person_is_found_as_who_they_now_are(app: Flask) -> None:
    with app.app_context():
        anne, annie = Person(name="Anne"), Person(name="Annie")
        circle = Circle(name="Les Martin", people=[anne, annie])
        db.session.add(circle)
        db.session.flush()
        annie.merged_into = anne
        circle.log.append(
            CircleChange(kind=CircleChangeKind.MERGED, person_id=annie.id, old="Annie", new="Anne")
        )
        db.session.commit()
        assert circle.person_named("annie") is anne
        assert annie.now is anne and anne.now is anne
        anne.name = "Anne Martin"
        db.session.commit()
        assert circle.person_named("anne martin") is anne and circle.person_named("Anne") is None
        assert [(c.kind, c.old, c.new) for c in circle.log] == [("merged", "Annie", "Anne")]


def test_a_seat_keeps_the_name_it_had_at_the_table(app: Flask) -> None:
    with app.app_context():
        anne = Person(name="Anne")
        circle = Circle(name="Les Martin", people=[anne])
        game = Game(family="ascenseur", settings={})
        db.session.add_all([circle, game])
        db.session.flush()
        game.circle_id = circle.id
        game.players = [Player(seat=0, name="Anne", person_id=anne.id)]
        db.session.commit()
        anne.name = "Anne Martin"
        db.session.commit()
        assert (game.players[0].name, game.players[0].person_id) == ("Anne", anne.id)
        assert game.out_of_history is False
        db.session.delete(circle)
        db.session.commit()
        db.session.expire_all()
        assert game.circle_id is None and game.players[0].person_id is None
        assert game.players[0].name == "Anne"


@pytest.fixture(params=DATABASES)
def empty_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    yield from app_on(empty_database_url(request, tmp_path))


def test_the_circles_migration_goes_back_and_comes_again(empty_app: Flask) -> None:
    with empty_app.app_context():
        upgrade()
        downgrade(revision="e8b4d2f6a1c3")
        upgrade()
        circle = Circle(name="Les Martin", people=[Person(name="Anne")])
        db.session.add(circle)
        db.session.commit()
        assert db.session.get(Circle, circle.id) is circle
