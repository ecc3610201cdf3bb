"""The server tests' servers: see :mod:`tests.server.processes`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import PostgresServer
from tests.server.processes import (
    Server,
    club_database_url,
    start_club_deployment,
    start_server,
    stop,
)


@pytest.fixture(params=["sqlite", "postgresql", "club"])
def servers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[Server]]:
    """On SQLite one server process; on PostgreSQL two `serve` processes on one database; and
    the club deployment of docs/deployment.md, two Granian workers behind one address."""
    database = tmp_path / "served.sqlite"
    if request.param == "sqlite":
        started = [start_server(f"sqlite:///{database}", database)]
    else:
        postgres: PostgresServer = request.getfixturevalue("postgres")
        name = postgres.create_database()
        if request.param == "club":
            started = [start_club_deployment(club_database_url(postgres, name), database)]
        else:
            url = postgres.url(name)
            started = [start_server(url, database)]
            started.append(start_server(url, database))  # the first has migrated the database
    yield started
    ended_badly = []
    for server in started:  # every one stopped, even after one that had died
        try:
            stop(server)
        except AssertionError as error:
            ended_badly.append(str(error))
    assert not ended_badly, "\n".join(ended_badly)
