"""Each link a game gives gives what its name says, in every server mode (``scorekeeper serve``,
where every phone in the house scores, and ``--public``): "To follow the game" lets a phone
follow it and change nothing, "To keep the score too" lets it do all its scorer does. Each link
is tried against the pages of the other: every page of the scorer's, every form on them."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.games.rights import RECENT
from tests.web.crawler import PageForm, forms_of
from tests.web.table import TOKEN, Table, text
from tests.web.test_bridge import Evening
from tests.web.test_club import SMALL, Club
from tests.web.test_echelons import Log
from tests.web.test_fuzz import database_content
from tests.web.test_teams import Match

SHARED = re.compile(r'<input type="text" readonly value="https?://[^/"]+(/[^"]+)" aria-label')
"""The links a game's page gives to share, as its scorer sees them: to follow, to score."""


def ascenseur(client: FlaskClient) -> str:
    table = Table(client)
    table.start("ascenseur", ("Anne", "Bruno", "Chloé"))
    table.play(1, (0, 0, 0), (0, 1, 0))
    return table.game_url


def bridge(client: FlaskClient) -> str:
    evening = Evening(client)
    evening.start()
    evening.played(1, "4S", "N", 0)
    return evening.url


def teams(client: FlaskClient) -> str:
    match = Match(client)
    match.start(boards="2")
    match.enter(1, 1, ("3NT", "N", 0))
    return match.url


def echelons(client: FlaskClient) -> str:
    log = Log(client)
    log.start("Zoé")
    assert log.post(result="cards", cards_home=20, played_on="2026-11-20").status_code == 302
    return log.url


def club(client: FlaskClient) -> str:
    session = Club(client)
    session.start(**SMALL)
    session.enter(1, {"level": "3", "strain": "NT", "declarer": "S", "doubled": "0", "result": "0"})
    return session.url


GAMES: dict[str, Callable[[FlaskClient], str]] = {
    "ascenseur": ascenseur,
    "bridge": bridge,
    "teams": teams,
    "echelons": echelons,
    "club": club,
}


@pytest.fixture(params=["private", "public"])
def mode(request: pytest.FixtureRequest, app: Flask) -> str:
    """``scorekeeper serve`` (every phone in the house scores) and ``--public``."""
    app.config["PRIVATE_SERVER"] = request.param == "private"
    return str(request.param)


def shared_links(page: str) -> tuple[str, str]:
    """The game's follow link and its scorer link, from its scorer's page (a club session's
    gives its tables' links too)."""
    shared = SHARED.findall(html.unescape(page))
    (follow,) = [link for link in shared if link.endswith("/follow")]
    (scorer,) = [link for link in shared if "/score/" in link]
    return follow, scorer


def scorers_pages(client: FlaskClient, game_url: str) -> dict[str, list[PageForm]]:
    """Every page of the game its scorer reaches from its page (but the club's tables, whose
    own links give their own rights: tests/web/test_club_rights.py), with the forms on each."""
    pages: dict[str, list[PageForm]] = {}
    waiting = [game_url]
    while waiting:
        url = waiting.pop()
        if url in pages:
            continue
        response = client.get(url)
        assert response.status_code == 200, url
        page = html.unescape(text(response))
        pages[url] = forms_of(page)
        for href in re.findall(r'href="([^"#?]+)"', page):
            inside = href.startswith(game_url + "/") and not href.endswith((".svg", ".csv"))
            if inside and "/table/" not in href and "/score/" not in href:
                waiting.append(href)
    return pages


def own_token(phone: FlaskClient) -> str:
    """The phone's own form token, from a page every phone has a form on."""
    found = TOKEN.search(text(phone.get("/echelons/new")))
    assert found
    return found.group(1)


def actions(forms: list[PageForm]) -> list[str]:
    return sorted(form.action for form in forms)


@pytest.mark.parametrize("family", GAMES)
def test_each_link_gives_what_its_name_says_in_every_server_mode(
    app: Flask, client: FlaskClient, mode: str, family: str
) -> None:
    game_url = GAMES[family](client)
    follow, scorer = shared_links(text(client.get(game_url)))
    assert follow == f"{game_url}/follow" and scorer.startswith(f"{game_url}/score/")
    pages = scorers_pages(client, game_url)
    assert len(pages) >= 2 and any(pages.values()), pages.keys()
    follower = app.test_client()
    opened = follower.get(follow, follow_redirects=True)
    assert "This phone follows the game" in text(opened)
    assert forms_of(text(opened)) == []
    before = database_content(app)
    token = own_token(follower)
    for url, forms in pages.items():
        answer = follower.get(url)
        assert answer.status_code in (200, 403), url
        if answer.status_code == 200:
            assert forms_of(text(answer)) == [], url  # nothing to change on what it sees
        for form in forms:
            sent = {name: values[0] for name, values in form.fields.items() if values}
            refused = follower.post(form.action, data={**sent, "csrf_token": token})
            assert refused.status_code == 403, (url, form.action)
    assert follower.get(f"{game_url}/qr/scorer.svg").status_code == 403
    assert database_content(app) == before  # it changed nothing

    phone = app.test_client()
    assert phone.get(scorer, follow_redirects=True).status_code == 200
    for url, forms in pages.items():
        answer = phone.get(url)
        assert answer.status_code == 200, url
        assert actions(forms_of(text(answer))) == actions(forms), url  # its scorer's rights
    assert phone.get(f"{game_url}/qr/scorer.svg").status_code == 200

    # The scorer link given to the follower since makes it score; the follow link opened by a
    # phone that scores keeps its rights.
    follower.get(scorer)
    assert actions(forms_of(text(follower.get(game_url)))) == actions(pages[game_url])
    client.get(follow)
    assert actions(forms_of(text(client.get(game_url)))) == actions(pages[game_url])


def test_at_home_a_phone_opening_a_game_from_the_home_page_scores_it_but_a_follower(
    app: Flask, client: FlaskClient
) -> None:
    """``scorekeeper serve`` serves the house: a phone that opens a game from the home page
    scores it, and one given its follow link follows it only, after the server restarts too
    (its follow link noted in the database, not in its cookie alone)."""
    app.config["PRIVATE_SERVER"] = True
    game_url = ascenseur(client)
    follow, _scorer = shared_links(text(client.get(game_url)))
    housemate, follower = app.test_client(), app.test_client()
    assert game_url in text(housemate.get("/"))
    assert forms_of(text(housemate.get(game_url)))
    follower.get(follow)
    assert forms_of(text(follower.get(game_url))) == []
    with follower.session_transaction() as cookie:
        # Sixty games followed since: the cookie's list no longer holds this one.
        cookie["follows"] = [f"other{number}" for number in range(RECENT)]
    assert forms_of(text(follower.get(game_url))) == []
    token = own_token(follower)
    sent = {"csrf_token": token, **{f"bid_{seat}": "0" for seat in range(3)}, "trump": ""}
    assert follower.post(f"{game_url}/rounds/2/bids", data=sent).status_code == 403
