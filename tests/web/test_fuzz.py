"""Every POST route, driven with random, missing, oversized and wrong-typed fields and random
tokens: never a server error, and a refused request leaves the database exactly as it was."""

from __future__ import annotations

import os
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.extensions import db
from scorekeeper.rules import ascenseur as rules
from tests.games import play_out
from tests.web.table import TOKEN, Table, text

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "400"))
"""Examples per run; FUZZ_EXAMPLES=5000 for a longer hunt."""
FIELDS = [
    "csrf_token",
    "nonce",
    "action",
    "first_dealer",
    "top_rounds",
    "deck_cards",
    "decks",
    "bidding",
    "hook",
    "hook_from",
    "first_lead",
    "play",
    "blind_one_card_rounds",
    "made_base",
    "made_per_trick",
    "made_zero",
    "missed_flat",
    "missed_per_trick",
    "shape",
    "hands",
    "chosen_top",
    "trump",
    "drawn_from",
    *(f"players-{i}" for i in range(-1, 30)),
    *(f"bid_{i}" for i in range(-1, 6)),
    *(f"tricks_{i}" for i in range(-1, 6)),
]
VALUES = st.one_of(
    st.text(max_size=30),
    st.integers(-(10**12), 10**12).map(str),
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "2",
            "-1",
            "y",
            "start",
            "add",
            "up-1",
            "remove-0",
            "up-99",
            "remove-x",
            "in-turn",
            "free",
            "H",
            "X",
            "52",
            "32",
            "1e9",
            "NaN",
            "∞",
        ]
    ),
    st.text(min_size=1_000, max_size=5_000),
)


def database_content(app: Flask) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Every row of every table, in a fixed order."""
    with app.app_context():
        return [
            (
                table.name,
                [
                    tuple(row)
                    for row in db.session.execute(
                        table.select().order_by(*table.primary_key.columns)
                    )
                ],
            )
            for table in db.metadata.sorted_tables
        ]


@pytest.fixture
def table(client: FlaskClient, app: Flask) -> Table:
    table = Table(client)
    table.start("ascenseur", ("Ana", "Bob", "Cy"))
    for number, entry in enumerate(play_out(rules.PRESETS["ascenseur"], 3, 0, 5, 3), start=1):
        table.play(number, entry.bids, entry.tricks or ())
    return table


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    route=st.sampled_from(
        [
            "new/ascenseur",
            "new/escalier",
            "new/nothing",
            "GAME/rounds/4/bids",
            "GAME/rounds/4/tricks",
            "GAME/rounds/2/bids",
            "GAME/rounds/99/tricks",
            "GAME/rounds/1/edit",
            "GAME/rounds/3/edit",
            "GAME/rounds/0/edit",
            "GAME/undo",
            "OTHER/undo",
            "import",
        ]
    ),
    fields=st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=12),
    token=st.sampled_from(["valid", "random", "missing"]),
    repeat=st.booleans(),
)
def test_no_post_breaks_the_server_or_changes_what_it_refuses(
    app: Flask,
    table: Table,
    route: str,
    fields: dict[str, Any],
    token: str,
    repeat: bool,
) -> None:
    game_id = table.game_url.rsplit("/", 1)[1]
    url = "/ascenseur/" + route.replace("GAME", game_id).replace("OTHER", "no-such-game")
    form = dict(fields)
    if token == "valid":
        match = TOKEN.search(text(table.client.get(table.game_url)))
        assert match
        form["csrf_token"] = match.group(1)
    elif token == "random":
        form.setdefault("csrf_token", "forged")
    else:
        form.pop("csrf_token", None)
    for _send in range(2 if repeat else 1):
        before = database_content(app)
        response = table.client.post(url, data=form)
        assert response.status_code < 500, text(response)
        if response.status_code >= 400:
            assert database_content(app) == before, (url, form, response.status_code)
