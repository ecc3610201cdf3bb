"""The director's forms and the tables' forms of a club session, driven as a crawler would:
every action, on boards with a result and without, with random and missing fields, valid and
stale versions, sent once or twice. Never a server error, and a refused request changes
nothing."""

from __future__ import annotations

import os
import random

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from scorekeeper.club.models import ClubSession
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from tests.web.crawler import PageForm, forms_of
from tests.web.table import text
from tests.web.test_club import SMALL, Club, director_post
from tests.web.test_fuzz import database_content

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
JUNK = ["", "0", "-1", "99", "A+/A+", "x/y", "/", "passed", "NT", "Z", "\x00", "é" * 300]
PAGES = [
    "",
    "/pairs",
    "/results/1/1/1",
    "/results/1/1/2",
    "/results/2/1/3",
    "/results/2/2/3",
    "/results/3/3/6",
    "TABLE1",
    "TABLE1?round=2",
    "TABLE2",
    "TABLE3?round=3",
]
"""The director's page and forms, on boards with a result and without, and the tables'."""


@pytest.fixture
def club(client: FlaskClient) -> Club:
    club = Club(client)
    club.start(**SMALL)
    club.enter(1, {"level": "4", "strain": "S", "declarer": "N", "doubled": "0", "result": "0"})
    return club


def live_version(app: Flask, club: Club) -> int:
    with app.app_context():
        game = db.session.get(Game, club.url.rsplit("/", 1)[1])
        assert isinstance(game, ClubSession)
        return game.live_version


def filled_in(rng: random.Random, form: PageForm) -> dict[str, str]:
    """The form as a crawler sends it: each field as offered, left out, or something else."""
    sent = {}
    for name, offered in form.fields.items():
        how = rng.choice(["offered"] * 6 + ["missing", "junk"])
        if how == "offered" and offered:
            sent[name] = rng.choice(offered)
        elif how == "junk":
            sent[name] = rng.choice([*JUNK, str(rng.randint(-(10**12), 10**12))])
    named = [button for button in form.buttons if button[0]]
    if named and rng.random() < 0.8:
        name, value = rng.choice(named)
        sent[name] = value
    return sent


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    # The session goes on from example to example, as under a crawler: an example cannot be
    # replayed or shrunk, so the first failure is the one reported. What the crawler picks
    # depends on the page it reads, so it is drawn from a seed of hypothesis's.
    phases=[Phase.generate],
    database=None,
)
@given(page=st.sampled_from(PAGES), seed=st.integers(0, 2**32))
def test_no_club_form_breaks_the_server_or_changes_what_it_refuses(
    app: Flask, club: Club, page: str, seed: int
) -> None:
    rng = random.Random(seed)
    for number, link in club.tables.items():
        page = page.replace(f"TABLE{number}", link.removeprefix(club.url))
    response = club.client.get(club.url + page)
    assert response.status_code < 500, text(response)
    forms = forms_of(text(response))
    if not forms:
        return
    sent_as_a_crawler(app, club.client, rng.choice(forms), rng)


def sent_as_a_crawler(app: Flask, client: FlaskClient, form: PageForm, rng: random.Random) -> None:
    """The form filled in as a crawler fills it, sent once or twice: never a server error,
    and a refusal changes nothing."""
    sent = filled_in(rng, form)
    for _send in range(rng.choice([1, 1, 2])):
        before = database_content(app)
        response = client.post(form.action, data=sent)
        assert response.status_code < 500, (form.action, sent, text(response))
        if response.status_code >= 400:
            assert database_content(app) == before, (form.action, sent, response.status_code)


@pytest.mark.parametrize("scores", ["A+/A+", "A=/A=", "A-/A+"])
def test_artificial_scores_over_a_board_with_a_result(
    client: FlaskClient, app: Flask, club: Club, scores: str
) -> None:
    response = director_post(client, f"{club.url}/results/1/1/1", "artificial", scores=scores)
    assert response.status_code == 302, text(response)
    result = club.session(app).results[0]
    assert (result.artificial_ns, result.artificial_ew) == tuple(scores.split("/"))
    assert (result.level, result.doubled, result.tricks) == (None, 0, None)
    assert scores.replace("/", " / ") in text(client.get(f"{club.url}/travellers"))
