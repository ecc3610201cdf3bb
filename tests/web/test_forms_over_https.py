"""Forms behind a TLS proxy, as a phone sends them: with an Origin and no Referer (or a Referer
of this site alone), accepted; from another site's page, refused with a message; and what a
browser may keep of the pages and files."""

from __future__ import annotations

import html
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from tests.conftest import app_on
from tests.web.table import Table, text
from tests.web.test_club import SMALL, Club

HTTPS = {"X-Forwarded-Proto": "https"}
SITE = "localhost"  # the test client's, whose cookie it keeps


@pytest.fixture
def proxied(monkeypatch: pytest.MonkeyPatch, sqlite_url: str) -> Iterator[Flask]:
    """The app as the club deployment of docs/deployment.md runs it, behind its TLS proxy."""
    monkeypatch.setenv("SCOREKEEPER_BEHIND_PROXY", "1")
    yield from app_on(sqlite_url, SECRET_KEY="proxy")


def games(app: Flask) -> int:
    with app.app_context():
        return len(db.session.execute(db.select(Game.id)).all())


def start_game(client: FlaskClient, headers: dict[str, str]) -> int:
    """Start an Ascenseur game as a phone over HTTPS does; the answer's status."""
    table = Table(client)
    data = table.setup_data("ascenseur", ("Anne", "Bruno", "Chloé"))
    return client.post("/ascenseur/new/ascenseur", data=data, headers=headers).status_code


@pytest.mark.parametrize(
    "sent_from",
    [
        {"Origin": f"https://{SITE}"},
        {"Origin": f"https://{SITE}:443"},
        {"Referer": f"https://{SITE}/ascenseur/new/ascenseur"},
        {},  # neither: an older browser; the form's token alone decides
    ],
)
def test_a_form_sent_over_https_is_accepted(proxied: Flask, sent_from: dict[str, str]) -> None:
    client = proxied.test_client()
    assert start_game(client, {**HTTPS, **sent_from}) == 302
    assert games(proxied) == 1


@pytest.mark.parametrize(
    "sent_from",
    [
        {"Origin": "https://evil.example"},
        {"Origin": f"https://{SITE}:8443"},
        {"Origin": f"http://{SITE}"},  # a page over plain HTTP sending to the HTTPS site
        {"Origin": "null"},
        {"Referer": "https://evil.example/page"},
        {"Origin": "https://evil.example", "Referer": f"https://{SITE}/"},
    ],
)
def test_a_form_sent_from_another_site_is_refused_with_a_message(
    proxied: Flask, sent_from: dict[str, str]
) -> None:
    client = proxied.test_client()
    table = Table(client)
    data = table.setup_data("ascenseur", ("Anne", "Bruno", "Chloé"))
    response = client.post("/ascenseur/new/ascenseur", data=data, headers={**HTTPS, **sent_from})
    assert response.status_code == 400
    assert "sent from another site's page" in html.unescape(text(response))
    assert games(proxied) == 0


def test_a_tls_proxy_that_does_not_say_so_still_takes_the_site_s_forms(
    client: FlaskClient, app: Flask
) -> None:
    """Without SCOREKEEPER_BEHIND_PROXY the request looks plain, the page was over HTTPS."""
    table = Table(client)
    data = table.setup_data("ascenseur", ("Anne", "Bruno", "Chloé"))
    headers = {"Origin": f"https://{SITE}"}
    response = client.post("/ascenseur/new/ascenseur", data=data, headers=headers)
    assert response.status_code == 302
    foreign = {"Origin": "https://evil.example"}
    response = client.post("/ascenseur/new/ascenseur", data=data, headers=foreign)
    assert response.status_code == 400


def test_the_whole_club_flow_over_https_without_a_referer(proxied: Flask) -> None:
    """The director sets up a session and a table enters a board: every form as a phone
    sends it behind the proxy, with its Origin alone (Chromium does it all through nginx in
    tests/browser/test_club_over_https.py)."""
    client = proxied.test_client()
    client.environ_base.update(
        {"HTTP_X_FORWARDED_PROTO": "https", "HTTP_ORIGIN": f"https://{SITE}"}
    )
    club = Club(client)
    club.start(**SMALL)
    assert club.url.startswith("/club/")
    assert all(link.startswith("/club/") for link in club.tables.values())
    *_, status = club.enter(
        1, {"level": "2", "strain": "H", "declarer": "E", "doubled": "0", "result": "0"}
    )
    assert status == 302
    assert len(club.session(proxied).results) == 1


@pytest.mark.parametrize(
    "file", ["game.json", "session.pbn", "session.xml", "travellers", "ranking"]
)
def test_pages_and_files_are_kept_by_no_browser(client: FlaskClient, file: str) -> None:
    club = Club(client)
    club.start(**SMALL)
    response = client.get(f"{club.url}/{file}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"


def test_a_sheet_s_csv_is_kept_by_no_browser(game: Table) -> None:
    for file in ("sheet.csv", "game.json"):
        response = game.client.get(f"{game.game_url}/{file}")
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "no-store"
