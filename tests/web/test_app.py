"""The application around the pages: configuration, the secret key, ``scorekeeper serve``."""

from __future__ import annotations

import gc
import json
import os
import re
import sqlite3
import subprocess
import sys
import weakref
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import cli, create_app, instance_secret_key
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from tests.web.families import every_familys_pages
from tests.web.table import Table


def test_the_secret_key_is_made_once_and_kept_out_of_the_repo(tmp_path: Path) -> None:
    first = instance_secret_key(tmp_path)
    assert len(first) == 64
    assert instance_secret_key(tmp_path) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    ignored = (Path(__file__).resolve().parents[2] / ".gitignore").read_text()
    assert "instance/" in ignored


def test_database_url_and_secret_key_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'elsewhere.sqlite'}")
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("elsewhere.sqlite")
    assert app.config["SECRET_KEY"] == "from-the-environment"


def test_serve_migrates_then_serves_on_every_interface(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    database = tmp_path / "served.sqlite"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    monkeypatch.setenv("SECRET_KEY", "serve")
    monkeypatch.setattr(cli, "network_addresses", lambda: ["192.168.1.20"])
    served: dict[str, Any] = {}
    served_app: dict[str, Any] = {}

    class FakeServer:
        def safe_start(self) -> None:
            served["started"] = True

    def fake_server(app: Any, host: str, port: int, threads: int, kept: int) -> FakeServer:
        served_app["app"] = app
        served.update(host=host, port=port, threads=threads, kept=kept)
        return FakeServer()

    monkeypatch.setattr(cli, "http_server", fake_server)
    monkeypatch.setattr(cli, "allow_open_files", lambda wanted: wanted)  # this process's own
    set_aside: list[bool] = []
    monkeypatch.setattr(cli, "set_start_up_aside", lambda: set_aside.append(True))
    result = CliRunner().invoke(cli.main, ["serve", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert "http://192.168.1.20:8123/" in result.output
    assert "█" in result.output or "▀" in result.output  # the QR code for a phone's camera
    assert served["host"] == "0.0.0.0" and served["port"] == 8123 and served["started"]
    assert served_app["app"].config["PRIVATE_SERVER"]  # at home, every phone sees every game
    assert set_aside == [True]  # once migrated, before the first request
    tables = {row[0] for row in sqlite3.connect(database).execute("select name from sqlite_master")}
    assert {"game", "player", "round", "correction", "alembic_version"} <= tables


FREEZE_CHECK = """
import gc, json
from scorekeeper import create_app_to_serve
before = gc.get_freeze_count()
app = create_app_to_serve()
frozen = gc.get_freeze_count()
garbage = []
garbage.append(garbage)
del garbage
collected = gc.collect()
print(json.dumps({"before": before, "frozen": frozen, "collected": collected,
                  "after": gc.get_freeze_count(), "routes": len(app.view_functions)}))
"""


def test_a_server_process_leaves_its_start_up_out_of_full_collections(tmp_path: Path) -> None:
    # A fresh interpreter, as a server process is: in the test process, threads other tests left
    # behind may free frozen objects while it counts.
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'served.sqlite'}",
        "SECRET_KEY": "serve",
    }
    finished = subprocess.run(
        [sys.executable, "-c", FREEZE_CHECK],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
        timeout=120,
    )
    counts = json.loads(finished.stdout.strip().splitlines()[-1])
    assert counts["frozen"] - counts["before"] > 10_000  # the modules, the app and its routes
    assert counts["routes"]  # the app itself is ready to serve
    assert counts["collected"] >= 1  # a cycle made after start-up is still collected
    assert counts["after"] == counts["frozen"]  # and the full pass left start-up alone


def test_network_addresses_leave_out_loopback() -> None:
    assert all(not address.startswith("127.") for address in cli.network_addresses())


def test_behind_a_reverse_proxy_https_is_recognised(
    monkeypatch: pytest.MonkeyPatch, sqlite_url: str
) -> None:
    monkeypatch.setenv("SCOREKEEPER_BEHIND_PROXY", "1")
    monkeypatch.setenv("SECRET_KEY", "proxy")
    monkeypatch.setenv("DATABASE_URL", sqlite_url)
    app = create_app()
    response = app.test_client().get(
        "/ascenseur/new/ascenseur",
        headers={"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example.org"},
    )
    assert "Secure" in response.headers["Set-Cookie"]
    table = Table(app.test_client())
    table.start("ascenseur", ("Anne", "Bruno", "Chloé", "Denis"))
    poll = f"{table.game_url}/version"
    for scheme, hsts in (("https", True), ("http", False)):
        answer = table.client.get(poll, headers={"X-Forwarded-Proto": scheme})
        assert answer.status_code == 200
        assert ("Strict-Transport-Security" in answer.headers) is hsts


def test_a_session_keeps_its_objects_until_it_is_done_with(app: Flask, game: Table) -> None:
    """An object the code let go of, even one in a reference cycle that only the cycle
    collector frees, lives while its session is open; it is freed once the session is removed.
    (How long objects live, not the crash between threads it prevents.)"""
    with app.app_context():
        loaded = db.session.get(Game, game.game_url.rsplit("/", 1)[1])
        assert loaded is not None
        assert loaded.players[0].game is loaded  # a cycle: game, its players, back to the game
        watched = weakref.ref(loaded)
        del loaded
        gc.collect()
        assert watched() is not None
        db.session.remove()  # as at the end of a request
    gc.collect()
    assert watched() is None


def test_every_page_answers_head_as_it_answers_get(client: FlaskClient) -> None:
    """A HEAD request (a link checker, a proxy's health check) is answered as the page's GET
    is, without its body: never a form's refusal."""
    for url in every_familys_pages(client):
        got = client.get(url)
        head = client.head(url)
        assert head.status_code == got.status_code, url
        assert head.data == b"", url


def test_no_number_in_an_address_is_a_server_error(app: Flask, client: FlaskClient) -> None:
    """Every route's whole numbers given far beyond what a database holds (a table, a round,
    a board, a part of 400 digits): the page says there is no such thing, never a 500."""
    every_familys_pages(client)
    with app.app_context():
        from scorekeeper.extensions import db
        from scorekeeper.games.models import Game

        games = {game.family: game.id for game in db.session.scalars(db.select(Game))}
    huge = "9" * 400
    tried = 0
    for rule in app.url_map.iter_rules():
        numbers = re.findall(r"<int:(\w+)>", rule.rule)
        if not numbers:
            continue
        family = rule.endpoint.split(".")[0]
        values = {name: huge for name in numbers}
        for name in rule.arguments - set(numbers):
            values[name] = games.get(family, "x") if name == "game_id" else "x"
        path = rule.rule
        for name, value in values.items():
            path = re.sub(rf"<(?:[^:>]+:)?{name}>", value, path)
        for method in sorted((rule.methods or set()) & {"GET", "POST"}):
            answer = client.open(path, method=method)
            assert answer.status_code < 500, (method, rule.rule)
            tried += 1
    assert tried > 20
