"""Fixtures shared by the web and browser tests: an app on a database at the newest migration,
on SQLite and again on PostgreSQL (a throwaway server the tests start themselves). Each kind is
migrated once a run and copied for each test."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from hypothesis import HealthCheck, settings

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.postgres import PostgresServer, server_binaries

# Properties are checked for what they find, not for how fast: the suite shares a small host's
# cores between its workers, whose speed drifts (speed is the benchmarks' to measure).
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

DATABASES = ["sqlite", "postgresql"]
TESTS = Path(__file__).parent
FAST = [TESTS / "rules", TESTS.parent / "scorekeeper" / "rules", TESTS / "web"]
"""Where the ``fast`` tests are: the rules, their doctests, and the pages (on SQLite alone)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``fast`` the tests an edit loop runs (``pytest -m fast``): those of the rules and
    of the pages, but none on PostgreSQL, in a browser or against a server process."""
    for item in items:
        where = any(item.path.is_relative_to(folder) for folder in FAST)
        if where and not on_postgresql(item):
            item.add_marker(pytest.mark.fast)


def on_postgresql(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    parameters = callspec.params.values() if callspec else []
    return "postgres" in getattr(item, "fixturenames", []) or "postgresql" in parameters


def migrate(url: str) -> None:
    """Apply every migration to the database at ``url``."""
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
        db.engine.dispose()


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
    migrate(postgres.url(name))
    return name


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database with every migration applied, copied for each test."""
    path = tmp_path_factory.mktemp("migrated") / "migrated.sqlite"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture
def sqlite_url(migrated_sqlite: Path, tmp_path: Path) -> str:
    """A copy of the migrated SQLite database for this test alone. SQLite's backup copies what
    the database holds, its write-ahead log included."""
    copy = tmp_path / "test.sqlite"
    with (
        closing(sqlite3.connect(migrated_sqlite)) as source,
        closing(sqlite3.connect(copy)) as target,
    ):
        source.backup(target)
    return f"sqlite:///{copy}"


def database_url(request: pytest.FixtureRequest) -> str:
    """A database at the newest migration for this test alone, of the kind the test is
    parametrised with (``DATABASES``)."""
    if request.param == "sqlite":
        url: str = request.getfixturevalue("sqlite_url")
        return url
    server: PostgresServer = request.getfixturevalue("postgres")
    template = request.getfixturevalue("migrated_template")
    return server.url(server.create_database(template))


def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database for this test alone, of the kind the test is parametrised with: for
    the tests of the migrations themselves."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.sqlite'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.url(server.create_database())


def app_on(url: str, **config: object) -> Iterator[Flask]:
    """An app on the database at ``url``; its connections closed afterwards."""
    app = create_app({"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url, **config})
    yield app
    app.extensions["hand_solver"].wait()  # no solve left writing to a database going away
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(params=DATABASES)
def app(request: pytest.FixtureRequest) -> Iterator[Flask]:
    # The hand records' solver stays idle unless a test asks for it (tests/web/test_hands.py).
    yield from app_on(database_url(request), TESTING=True, SOLVE_HANDS=False)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
