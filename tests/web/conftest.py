"""A game the web tests share: four players, round 1 played, round 2 to bid."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.table import Table

FOUR = ("Anne", "Bruno", "Chloé", "Denis")


@pytest.fixture
def game(client: FlaskClient) -> Table:
    table = Table(client)
    table.start("ascenseur", FOUR)
    table.play(1, (1, 1, 0, 0), (0, 1, 0, 0))
    return table


@pytest.fixture(params=["private", "public"])
def mode(request: pytest.FixtureRequest, app: Flask) -> str:
    """``scorekeeper serve`` (every phone in the house scores) and ``--public``."""
    app.config["PRIVATE_SERVER"] = request.param == "private"
    return str(request.param)
