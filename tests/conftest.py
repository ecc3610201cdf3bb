"""Fixtures shared by the web and browser tests: an app on a fresh, migrated database, on
SQLite and again on PostgreSQL (a throwaway server the tests start themselves)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.postgres import PostgresServer, server_binaries

DATABASES = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    binaries = server_binaries()
    if binaries is None:
        reason = "no PostgreSQL server binaries (apt-get install postgresql)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}: .ci/run installs them")
        pytest.skip(reason)
    server = PostgresServer(binaries).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def migrated_template(postgres: PostgresServer) -> str:
    """A PostgreSQL database with every migration applied, copied for each test."""
    name = postgres.create_database()
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": postgres.url(name)}
    )
    with app.app_context():
        upgrade()
        db.engine.dispose()
    return name


def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    template = request.getfixturevalue("migrated_template")
    return server.url(server.create_database(template))


def migrated_app(url: str, **config: object) -> Iterator[Flask]:
    """An app on the database at ``url``, migrated; its connections closed afterwards."""
    app = create_app({"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url, **config})
    with app.app_context():
        upgrade()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(params=DATABASES)
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    yield from migrated_app(database_url(request, tmp_path), TESTING=True)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
