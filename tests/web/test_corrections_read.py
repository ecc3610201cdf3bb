"""Every family's game page reads the game's corrections only where the game's own statement
found some: most games have none, and on PostgreSQL a statement is a round trip. (Each family's
own tests show the corrections listed once there are some.)"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper.extensions import db
from tests.web.conftest import FOUR
from tests.web.table import Table
from tests.web.test_bridge import Evening
from tests.web.test_club import SMALL, Club
from tests.web.test_echelons import Log
from tests.web.test_tarot import Tarot
from tests.web.test_teams import Match


def ascenseur(client: FlaskClient) -> str:
    return Table(client).start("ascenseur", FOUR)


def bridge(client: FlaskClient) -> str:
    return Evening(client).start()


def echelons(client: FlaskClient) -> str:
    return Log(client).start("Zoé", "Yves")


def teams(client: FlaskClient) -> str:
    return Match(client).start()


def club(client: FlaskClient) -> str:
    return Club(client).start(**SMALL)


def tarot(client: FlaskClient) -> str:
    return Tarot(client).start()


@pytest.mark.parametrize("start", [ascenseur, bridge, echelons, teams, club, tarot])
def test_a_game_never_corrected_is_drawn_without_reading_corrections(
    app: Flask, client: FlaskClient, start: Callable[[FlaskClient], str]
) -> None:
    url = start(client)
    app.extensions["page_cache"].pages.clear()
    statements: list[str] = []

    def note(*arguments: object) -> None:
        statements.append(str(arguments[2]))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        page = client.get(url)
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert page.status_code == 200
    assert any("FROM correction" in s for s in statements), statements  # the EXISTS
    assert not any(s.startswith("SELECT correction.") for s in statements), statements
