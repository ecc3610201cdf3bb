"""A person of a circle who chose to show their initials is named by them wherever the circle's
games are shown to anyone but a game's own scorer: every page and file of a game of every
family, the home page's list, other people's pages and history files. The game's scorer still
sees the names as typed at the table."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.circles.models import Circle
from scorekeeper.extensions import db
from tests.web.table import NONCE, TOKEN, Table, text
from tests.web.test_bridge import Evening
from tests.web.test_circles import Keeper, person_page
from tests.web.test_club import (
    SMALL,
    TABLE_LINK,
    Club,
    director_post,
    play_whole_session,
    session_form,
)
from tests.web.test_club_field import FIELD_LINK, sections_of
from tests.web.test_echelons import Log
from tests.web.test_teams import Match
from tests.web.test_version_watch import soon

PEOPLE = ("Anne Martin", "Bruno Petit", "Chloé Dupont", "Denis Roux")
HIDDEN = ("Chloé", "Dupont", "Chlo\\u00e9")
"""Chloé Dupont's name, in any of its parts, as a page, a CSV or a JSON file could hold it."""
LINKED = re.compile(r'(?:href|src|action)="(/[^"#]*)')
SKIPPED = ("/score/", "/keep/", "/language/", "/static/", "/qr/", "/live", "/new", "/import")
"""What a walk does not open: the links that give rights, change the language, or start
something; what holds no name (the stylesheet, the QR codes, the live version)."""


def played_in_the_circle(client: FlaskClient, circle_id: str) -> list[str]:
    """A game of every family started in the circle by ``client`` (its browser scores them),
    Chloé Dupont in each, a little played (the club session closed); their addresses."""
    table = Table(client)
    data = table.setup_data("ascenseur", PEOPLE[:3])
    response = client.post("/ascenseur/new/ascenseur", data={**data, "circle": circle_id})
    assert response.status_code == 302, text(response)
    table.game_url = response.headers["Location"]
    table.play(1, (1, 1, 0), (0, 1, 0))
    table.play(2, (0, 1, 0), (0, 2, 0))

    evening = Evening(client)
    north, east, south, west = PEOPLE
    evening.start(circle=circle_id, north=north, east=east, south=south, west=west)
    evening.played(1, "4S", "N", 0)
    evening.played(2, "3NT", "E", 1)

    match = Match(client)
    teams = {"a_1_n": "Chloé Dupont", "a_1_s": "Anne Martin", "b_1_e": "Bruno Petit"}
    match.start(boards="1", circle=circle_id, **teams)
    match.board(1, ("1NT", "N", 1), ("1NT", "N", 0))

    page = text(client.get("/echelons/new"))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    race = {"kind": "race", "player_a": "Chloé Dupont", "player_b": "Denis Roux"}
    data = {"csrf_token": token.group(1), "nonce": nonce.group(1), "circle": circle_id, **race}
    response = client.post("/echelons/new", data=data)
    assert response.status_code == 302, text(response)
    patience = response.headers["Location"]
    log = Log(client)
    log.url = patience
    assert log.post(left_a=0, left_b=4, played_on="2026-11-20").status_code == 302

    club = Club(client)
    page = text(client.get(f"/club/new?circle={circle_id}"))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data = {"csrf_token": token.group(1), "nonce": nonce.group(1), "circle": circle_id, **SMALL}
    response = client.post("/club/new", data=data)
    assert response.status_code == 302, text(response)
    club.url = response.headers["Location"]
    club.tables = {
        int(number): link for link, number in TABLE_LINK.findall(text(client.get(club.url)))
    }
    names = {"names-0": "Chloé Dupont – Anne Martin", "names-1": "Bruno Petit & Denis Roux"}
    assert director_post(client, f"{club.url}/pairs", **names).status_code == 302
    play_whole_session(club, 3, seed=5)
    client.post(f"{club.url}/close", data=session_form(client, club.url, "close"))
    return [table.game_url, evening.url, match.url, patience, club.url]


def own_link(keeper: Keeper, name: str) -> str:
    """The link to the own page of the person of the keeper's circle called ``name``."""
    pages = ((link, person_page(keeper.client, link)) for link in keeper.person_links())
    return next(link for link, page in pages if f"<h1>{name}</h1>" in page)


def walked(client: FlaskClient, starts: Iterable[str], within: tuple[str, ...]) -> set[str]:
    """Every address reachable from ``starts`` by the links (and the table links) of the pages
    ``client`` is given, under one of the ``within`` addresses."""
    seen: set[str] = set()
    waiting = list(starts)
    while waiting:
        url = waiting.pop()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.content_type:
            continue
        page = html.unescape(text(response))
        found = LINKED.findall(page) + [link for link, _table in TABLE_LINK.findall(page)]
        for link in found:
            link = urlsplit(link).path
            if link.startswith(within) and not any(part in link for part in SKIPPED):
                waiting.append(link)
    return seen


def shown(client: FlaskClient, url: str) -> tuple[int, str]:
    response = client.get(url)
    body = response.get_data(as_text=True)
    if "html" in response.content_type:
        body = html.unescape(body)
    return response.status_code, body


def test_who_chose_initials_is_named_in_full_on_no_page_nor_file_of_the_circle_s_games(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    keeper.start(people="\n".join(PEOPLE))
    circle_id = keeper.url.rsplit("/", 1)[1]
    games = played_in_the_circle(client, circle_id)
    links = {name: own_link(keeper, name) for name in ("Anne Martin", "Chloé Dupont")}
    within = tuple(urlsplit(game).path for game in games)
    urls = walked(client, ["/", *games], within)
    assert len(urls) > 30, sorted(urls)  # every family's pages, sheets and files

    # A phone following the games: it opened each, and has Anne's own link.
    viewer = app.test_client()
    anne = [links["Anne Martin"], links["Anne Martin"] + "/history.json"]
    for url in [*games, *sorted(urls), "/", *anne]:
        shown(viewer, url)  # as drawn before the choice, and kept
    assert "Chloé Dupont" in shown(viewer, games[0])[1]

    # Chloé chooses to show her initials, on her own phone.
    phone = app.test_client()
    token = TOKEN.search(text(phone.get(links["Chloé Dupont"])))
    assert token
    choice = {"csrf_token": token.group(1), "shows": "no"}
    assert phone.post(links["Chloé Dupont"] + "/name-shown", data=choice).status_code == 302

    # The games are shown anew (on PostgreSQL, once the server process is told).
    soon(lambda: "Chloé Dupont" not in shown(viewer, games[0])[1])
    for url in sorted(urls):  # the scorer's phone first: a page it draws, others may keep
        shown(client, url)
    opened: dict[str, str] = {}
    for url in [*sorted(urls), "/", keeper.url, *anne]:
        status, body = shown(viewer, url)
        if status == 200:
            opened[url] = body
        named = [part for part in HIDDEN if part.casefold() in body.casefold()]
        assert not named, f"{url} names {named}"
    assert len(opened) > 25
    for game in games:  # shown by her initials, as the circle's pages show her
        path = urlsplit(game).path
        assert any("C. D." in body for url, body in opened.items() if url.startswith(path)), game
    history = json.loads(shown(viewer, anne[1])[1])
    assert history["people"] and "Chloé" not in json.dumps(history, ensure_ascii=False)

    # The games' scorer sees the names as typed at the table, on the same pages and files.
    typed = {url for url in urls if "Chloé Dupont" in shown(client, url)[1]}
    for game in games:
        path = urlsplit(game).path
        assert any(url.startswith(path) for url in typed), game
    for url in opened.keys() & urls:
        if "C. D." in opened[url]:
            assert url in typed, url

    # Her own file keeps her name; shown again, it is back on every phone's pages.
    mine = json.dumps(json.loads(shown(phone, links["Chloé Dupont"] + "/history.json")[1]))
    assert "Chlo\\u00e9 Dupont" in mine
    choice["shows"] = "yes"
    assert phone.post(links["Chloé Dupont"] + "/name-shown", data=choice).status_code == 302
    soon(lambda: "Chloé Dupont" in shown(viewer, games[0])[1])
    for url in typed & opened.keys():  # kept pages and all, drawn again
        assert "Chloé Dupont" in shown(viewer, url)[1], url
    with app.app_context():
        circle = db.session.get(Circle, circle_id)
        assert circle is not None and all(person.shows_name for person in circle.people)


def test_a_game_played_in_a_circle_at_home_is_named_in_full_on_every_phone_that_scores_it(
    client: FlaskClient, app: Flask
) -> None:
    """At home every phone scores every game (but a club session's): they see the names as
    typed, as the game's scorer does; the circle's own page still shows the initials."""
    app.config["PRIVATE_SERVER"] = True
    keeper = Keeper(client)
    keeper.start(people="\n".join(PEOPLE))
    circle_id = keeper.url.rsplit("/", 1)[1]
    table = Table(client)
    data = table.setup_data("ascenseur", PEOPLE[:3])
    response = client.post("/ascenseur/new/ascenseur", data={**data, "circle": circle_id})
    game = response.headers["Location"]
    link = own_link(keeper, "Chloé Dupont")
    phone = app.test_client()
    token = TOKEN.search(text(phone.get(link)))
    assert token
    phone.post(link + "/name-shown", data={"csrf_token": token.group(1), "shows": "no"})
    other = app.test_client()
    assert "Chloé Dupont" in shown(other, game)[1]
    assert "Chloé" not in shown(other, keeper.url)[1]


def test_a_rename_shows_the_initials_it_gives_on_the_games_already_drawn(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    keeper.start(people="\n".join(PEOPLE))
    circle_id = keeper.url.rsplit("/", 1)[1]
    table = Table(client)
    data = table.setup_data("ascenseur", PEOPLE[:3])
    game = client.post("/ascenseur/new/ascenseur", data={**data, "circle": circle_id})
    url = table.game_url = game.headers["Location"]
    table.play(1, (1, 1, 0), (0, 1, 0))  # the standings name every player
    link = own_link(keeper, "Chloé Dupont")
    phone = app.test_client()
    token = TOKEN.search(text(phone.get(link)))
    assert token
    phone.post(link + "/name-shown", data={"csrf_token": token.group(1), "shows": "no"})
    viewer = app.test_client()
    assert "C. D." in shown(viewer, url)[1]
    with app.app_context():
        circle = db.session.get(Circle, circle_id)
        assert circle is not None
        chloe = circle.person_named("Chloé Dupont")
        assert chloe is not None
        chloe_id = chloe.id
    assert keeper.post(f"/people/{chloe_id}/name", name="Chloé Morel").status_code == 302
    soon(lambda: "C. M." in shown(viewer, url)[1])  # on PostgreSQL, once the change is told
    page = shown(viewer, url)[1]
    assert "C. D." not in page and "Chloé" not in page
    assert keeper.post("/undo").status_code == 302
    soon(lambda: "C. D." in shown(viewer, url)[1])


def test_who_chose_initials_is_named_by_them_in_the_ranking_of_a_field_played_in_the_circle(
    client: FlaskClient, app: Flask
) -> None:
    """A field's ranking names its pairs from the rows it was scored with; a section played in
    a circle shows its viewers the initials its people chose, there too."""
    keeper = Keeper(client)
    keeper.start(people="\n".join(PEOPLE))
    circle_id = keeper.url.rsplit("/", 1)[1]
    page = text(client.get(f"/club/new?circle={circle_id}"))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data = {"csrf_token": token.group(1), "nonce": nonce.group(1), "circle": circle_id}
    response = client.post("/club/new", data={**data, **SMALL, "sections": "2"})
    assert response.status_code == 302, text(response)
    found = FIELD_LINK.search(text(client.get(response.headers["Location"])))
    assert found
    field = found.group(1)
    sections = sections_of(client, field)
    names = {"names-0": "Chloé Dupont – Anne Martin", "names-1": "Bruno Petit & Denis Roux"}
    assert director_post(client, f"{sections['A'].url}/pairs", **names).status_code == 302
    for section in sections.values():
        play_whole_session(section, 3, seed=5)
    token = TOKEN.search(text(client.get(field)))
    assert token
    shown_to_players = {"csrf_token": token.group(1), "across": "across", "overall": "overall"}
    assert client.post(field, data=shown_to_players).status_code == 302
    viewer = app.test_client()
    assert "Chloé Dupont" in shown(viewer, f"{field}/ranking")[1]

    phone = app.test_client()
    token = TOKEN.search(text(phone.get(own_link(keeper, "Chloé Dupont"))))
    assert token
    choice = {"csrf_token": token.group(1), "shows": "no"}
    assert (
        phone.post(own_link(keeper, "Chloé Dupont") + "/name-shown", data=choice).status_code == 302
    )
    soon(lambda: "C. D." in shown(viewer, f"{field}/ranking")[1])
    body = shown(viewer, f"{field}/ranking")[1]
    assert not [part for part in HIDDEN if part.casefold() in body.casefold()]
    assert "Chloé Dupont" in shown(client, f"{field}/ranking")[1]  # the director's, as typed
