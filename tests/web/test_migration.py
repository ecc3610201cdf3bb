"""A database from before the table core, with games, rounds and corrections in it, upgrades
with nothing lost: every address still opens its game, with the same pages and exports
(tests/data/migration, see its README)."""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import DateTime, Integer, MetaData, text

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.conftest import DATABASES, empty_database_url

DATA = Path(__file__).resolve().parents[1] / "data" / "migration"


def page_text(page: str) -> str:
    """What a page says, as tests/data/migration/pages.json keeps it."""
    page = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", page)
    page = re.sub(r"(?s)<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(page)).strip()


def load_rows(app: Flask, tables: dict[str, list[dict[str, Any]]]) -> None:
    """The rows, written as the app of that time wrote them, table by table."""
    with app.app_context():
        metadata = MetaData()
        metadata.reflect(db.engine)
        with db.engine.begin() as connection:
            for table in metadata.sorted_tables:
                rows = tables.get(table.name, [])
                for row in rows:
                    for column in table.columns:
                        if isinstance(column.type, DateTime) and row.get(column.name):
                            row[column.name] = datetime.fromisoformat(row[column.name])
                if rows:
                    connection.execute(table.insert(), rows)
                    serial = "id" in table.columns and isinstance(table.c.id.type, Integer)
                    if connection.dialect.name == "postgresql" and serial:
                        connection.execute(
                            text(
                                f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                f"(SELECT max(id) FROM {table.name}))"
                            )
                        )


@pytest.fixture(params=DATABASES)
def upgraded(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    url = empty_database_url(request, tmp_path)
    saved = json.loads((DATA / "rows.json").read_text(encoding="utf-8"))
    app = create_app(
        {
            "SECRET_KEY": "migration",
            "SQLALCHEMY_DATABASE_URI": url,
            "TESTING": True,
            "PRIVATE_SERVER": True,
            "BABEL_DEFAULT_TIMEZONE": "UTC",
        }
    )
    with app.app_context():
        upgrade(revision=saved["revision"])
    load_rows(app, saved["tables"])
    with app.app_context():
        upgrade()
    yield app
    with app.app_context():
        db.engine.dispose()


def test_every_game_opens_with_the_same_pages_and_exports_after_the_upgrade(
    upgraded: Flask,
) -> None:
    client = upgraded.test_client()
    before = json.loads((DATA / "pages.json").read_text(encoding="utf-8"))
    assert len(before) == 5
    for url, pages in before.items():
        assert page_text(client.get(url).get_data(as_text=True)) == pages["play"], url
        sheet = client.get(f"{url}/sheet").get_data(as_text=True)
        assert page_text(sheet) == pages["sheet"], url
        assert client.get(f"{url}/sheet.csv").get_data(as_text=True) == pages["csv"], url
        assert json.loads(client.get(f"{url}/game.json").get_data(as_text=True)) == pages["json"]
        for name, shown in pages.items():
            if name.startswith("edit-"):
                number = name.removeprefix("edit-")
                edit = client.get(f"{url}/rounds/{number}/edit").get_data(as_text=True)
                assert page_text(edit) == shown, (url, number)


def test_an_upgraded_game_plays_on_and_its_file_imports_again(upgraded: Flask) -> None:
    before = json.loads((DATA / "pages.json").read_text(encoding="utf-8"))
    client = upgraded.test_client()
    url = next(url for url, pages in before.items() if "edit-1" not in pages)  # just started
    page = client.get(url).get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token
    bids = {"bid_0": "1", "bid_1": "0", "bid_2": "0"}
    response = client.post(f"{url}/rounds/1/bids", data={"csrf_token": token.group(1), **bids})
    assert response.status_code == 422  # one card, 0 and 0 before: the dealer may not bid 1
    bids["bid_0"] = "0"
    response = client.post(f"{url}/rounds/1/bids", data={"csrf_token": token.group(1), **bids})
    assert response.status_code == 302
    for url, pages in before.items():
        exported = json.dumps(pages["json"]).encode()
        page = client.get("/ascenseur/import").get_data(as_text=True)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
        assert token
        imported = client.post(
            "/ascenseur/import",
            data={"csrf_token": token.group(1), "file": (io.BytesIO(exported), "g.json")},
            content_type="multipart/form-data",
        )
        assert imported.status_code == 302, url
