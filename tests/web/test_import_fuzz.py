"""Crafted game files: whatever a file holds, importing it never fails the server, and every game
that does import opens on every page and exports again."""

from __future__ import annotations

import codecs
import copy
import io
import json
import os
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.rules import ascenseur as rules
from tests.games import play_out, store_game
from tests.web.table import TOKEN, text

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))

CRAFTED = [
    None,
    True,
    0,
    -1,
    1,
    3,
    52,
    1000,
    1001,
    2**31,
    2**63,
    10**400,
    1.5,
    1e308,
    "",
    "x",
    "Ana",
    "a\x00b",
    "\t=cmd",
    "é" * 200,
    "0001-01-01T00:00:00",
    "9999-12-31T23:59:59",
    "2026-11-23T20:30:00+14:00",
    "0001-01-01T00:00:00+01:00",
    "9999-12-31T23:59:59-01:00",
    "2026-11-23",
    "not a date",
    "C",
    "bid",
    "undo-bids",
    "in-turn",
    [],
    ["x"],
    [1, 2, 3],
    [[2, 5]],
    {},
    {"x": 1},
    {"made_base": 10**400},
    {"made_base": 10},
]
PLAUSIBLE: dict[type, list[Any]] = {
    int: [0, 1, 2, 3],
    str: ["Zoé", "Ana ", "2026-01-02T03:04:05", "2026-11-23T20:30:00Z", "H", "S", "1", "2/0/1"],
    type(None): [None],
    bool: [True, False],
    list: [[0, 1, 0]],
    dict: [{}],
}
"""Values of the kind already there: a file edited by hand, rather than by an attacker."""
ISSUE_CASES = [
    ("preset", ["x"]),
    ("preset", {}),
    ("house_rules", {"scoring": {"made_base": 10**400}}),
    ("house_rules", {"scoring": {"made_base": 10**4000}}),
    ("created_at", "0001-01-01T00:00:00"),
    ("created_at", "9999-12-31T23:59:59"),
    ("created_at", "0001-01-01T00:00:00+01:00"),
    ("created_at", "9999-12-31T23:59:59-01:00"),
    ("players", ["Ana", "\x00", "Cy"]),
]


def a_game_file(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """A 3-player game half played, with a correction, as exported."""
    entries = play_out(rules.PRESETS["ascenseur"], 3, 1, seed=7, rounds=5)
    game_id = store_game(app, "ascenseur", ("Ana", "Bob", "Cy"), entries, first_dealer=1)
    document = json.loads(text(client.get(f"/ascenseur/{game_id}/game.json")))
    document["corrections"] = [
        {"round": 2, "at": "2026-11-23T20:30:00", "field": "bid", "seat": 1, "old": "1", "new": "0"}
    ]
    return document


def import_raw(client: FlaskClient, content: bytes):  # type: ignore[no-untyped-def]
    token = TOKEN.search(text(client.get("/ascenseur/import")))
    assert token
    return client.post(
        "/ascenseur/import",
        data={"csrf_token": token.group(1), "file": (io.BytesIO(content), "game.json")},
        content_type="multipart/form-data",
    )


def paths(document: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a document a value sits at."""
    found = [prefix] if prefix else []
    if isinstance(document, dict):
        for key, value in document.items():
            found += paths(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += paths(value, (*prefix, index))
    return found


def put(document: Any, path: tuple[Any, ...], value: Any) -> None:
    for step in path[:-1]:
        document = document[step]
    if value is DELETE and isinstance(document, dict):
        del document[path[-1]]
    elif value is not DELETE:
        document[path[-1]] = value


DELETE = object()


def opens_everywhere(client: FlaskClient, location: str) -> None:
    """Every page and export of an imported game answers, and its file imports again."""
    game_url = location
    urls = [
        game_url,
        f"{game_url}/sheet",
        f"{game_url}/sheet.csv",
        f"{game_url}/game.json",
        f"{game_url}/version",
        f"{game_url}/qr/viewer.svg",
        f"{game_url}/qr/scorer.svg",
        "/",
    ]
    page = text(client.get(game_url))
    urls += sorted(set(re.findall(r'href="(/ascenseur/[^"/]+/rounds/\d+/edit)"', page)))
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
    again = import_raw(client, client.get(f"{game_url}/game.json").get_data())
    assert again.status_code == 302, text(again)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_crafted_file_is_refused_or_imports_a_game_that_opens_everywhere(
    app: Flask, client: FlaskClient, data: st.DataObject
) -> None:
    app.config["NEW_GAMES_LIMIT"] = "100000 per minute"
    document = copy.deepcopy(a_game_file(app, client))
    for _change in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths(document)))
        here = document
        for step in path:
            here = here[step]
        if data.draw(st.booleans()):
            value = data.draw(st.sampled_from([*PLAUSIBLE.get(type(here), [None]), DELETE]))
        else:
            value = data.draw(st.sampled_from([*CRAFTED, DELETE]))
        put(document, path, value if value is DELETE else copy.deepcopy(value))  # no shared lists
    before = db_games(app)
    response = import_raw(client, json.dumps(document, ensure_ascii=False).encode())
    assert response.status_code in (302, 422), text(response)
    event("imported" if response.status_code == 302 else "refused")
    if response.status_code == 302:
        opens_everywhere(client, response.headers["Location"])
    else:
        assert 'class="error"' in text(response) or "error" in text(response)
        assert db_games(app) == before


@pytest.mark.parametrize(("field", "value"), ISSUE_CASES)
def test_the_files_that_broke_the_server_are_refused_with_the_field_named(
    app: Flask, client: FlaskClient, field: str, value: Any
) -> None:
    document = a_game_file(app, client)
    document[field] = value
    before = db_games(app)
    response = import_raw(client, json.dumps(document).encode())
    assert response.status_code == 422
    assert field in text(response) or "does not know" in text(response)
    assert db_games(app) == before


def test_control_characters_in_a_game_file_are_cleaned_as_in_every_file_read(
    app: Flask, client: FlaskClient
) -> None:
    """A NUL (which PostgreSQL cannot store), an escape, a C1 control: dropped; a tab or a
    line break: a space. What was imported exports and imports again."""
    document = a_game_file(app, client)
    document["players"] = ["An\x00a", "Bo\tb\r\n", "\x1b[1mCy\x9b"]
    document["corrections"][0]["new"] = "0\x00"
    response = import_raw(client, json.dumps(document).encode())
    assert response.status_code == 302, text(response)
    with app.app_context():
        game = db.session.get(Game, response.headers["Location"].rsplit("/", 1)[1])
        assert game is not None
        assert [player.name for player in game.players] == ["Ana", "Bo b", "[1mCy"]
        assert game.corrections[0].new == "0"
    opens_everywhere(client, response.headers["Location"])


@pytest.mark.parametrize(
    "encode",
    [
        lambda raw: codecs.BOM_UTF8 + raw,
        lambda raw: raw.decode().encode("utf-16"),
        lambda raw: raw.decode().encode("utf-16-le"),
    ],
    ids=["utf-8 with a byte order mark", "utf-16", "utf-16 without a byte order mark"],
)
def test_a_game_file_an_editor_saved_with_a_byte_order_mark_or_in_utf16_imports(
    app: Flask, client: FlaskClient, encode: Callable[[bytes], bytes]
) -> None:
    document = a_game_file(app, client)
    response = import_raw(client, encode(json.dumps(document, ensure_ascii=False).encode()))
    assert response.status_code == 302, text(response)
    opens_everywhere(client, response.headers["Location"])


def test_a_nul_byte_in_a_forms_nonce_is_harmless(app: Flask, client: FlaskClient) -> None:
    token = TOKEN.search(text(client.get("/ascenseur/import")))
    assert token
    response = client.post(
        "/ascenseur/import",
        data={
            "csrf_token": token.group(1),
            "nonce": "\x00" * 8,
            "file": (io.BytesIO(b"{}"), "game.json"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 422 and "not a Scorekeeper game" in text(response)


def db_games(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Game.id))) or 0


def test_a_game_with_a_long_log_of_corrections_exports_and_imports_again(
    app: Flask, client: FlaskClient
) -> None:
    document = a_game_file(app, client)
    document["corrections"] = [
        {
            "round": 1 + n % 5,
            "at": "2026-11-23T20:30:00",
            "field": "bid",
            "seat": n % 3,
            "old": str(n % 2),
            "new": str(1 - n % 2),
        }
        for n in range(2_000)
    ]
    first = import_raw(client, json.dumps(document, indent=2).encode())
    assert first.status_code == 302, text(first)
    exported = client.get(f"{first.headers['Location']}/game.json").get_data()
    assert len(exported) > 200_000
    assert import_raw(client, exported).status_code == 302
