"""Who may do what in a club session, in every server mode: the director's link gives the
director's rights, a table's link that table's and nothing more, and those looking on see what
the director chose to show before the session closes."""

from __future__ import annotations

import html

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from tests.web.crawler import forms_of
from tests.web.table import TOKEN, text
from tests.web.test_club import SMALL, Club

MADE = {"level": "3", "strain": "NT", "declarer": "S", "doubled": "0", "result": "0"}
RESULTS_PAGES = ("travellers", "cards", "game.json", "session.pbn", "session.xml")


def send(client: FlaskClient, page_url: str, action_part: str, **fields: str) -> int:
    """Send the form of ``page_url`` whose address contains ``action_part`` (and whose
    hidden ``action`` is the one given, if one is), as drawn."""
    (form,) = [
        f
        for f in forms_of(text(client.get(page_url)))
        if action_part in f.action and fields.get("action") in (None, *f.fields.get("action", []))
    ]
    data = {name: values[0] for name, values in form.fields.items()} | fields
    return client.post(form.action, data=data).status_code


def test_a_table_s_link_gives_that_table_s_rights_and_nothing_more(
    app: Flask, client: FlaskClient, mode: str
) -> None:
    director = Club(client)
    director.start(**SMALL)
    phone = Club(app.test_client())
    phone.url, phone.tables = director.url, {1: director.tables[1]}
    assert phone.client.get(director.tables[1]).status_code == 200
    assert phone.enter(1, MADE)[2] == 302
    # The session's own address, from the table's link: the page for those looking on.
    page = html.unescape(text(phone.client.get(director.url)))
    assert "/table/2/" not in page and "/table/1/" not in page
    assert "Close the session" not in page and "Director" not in page
    assert forms_of(page) == []
    session = director.session(app)
    for url in (
        f"{director.url}/results/1/2/3",
        f"{director.url}/pairs",
        f"{director.url}/qr/scorer.svg",
        f"{director.url}/table/2/qr.svg",
    ):
        assert phone.client.get(url).status_code == 403, url
    # The phone's own form token, and the session's version: only the rights are missing.
    token = TOKEN.search(text(phone.client.get(director.tables[1])))
    assert token
    sent = {"csrf_token": token.group(1), "drawn_from": str(session.live_version)}
    changes = {
        "action": "delete",
        "shown": "all",
        "from_round": "2",
        "rounds": "3",
        "pairs": "2",
        "pair": "EW1",
    }
    for url in (
        "close",
        "undo",
        "shown",
        "pairs",
        "results/1/1/1",
        "results/1/2/3",
        "late-pair",
        "added-table",
        "arrow-switch",
        "pair-leaves",
    ):
        response = phone.client.post(f"{director.url}/{url}", data={**sent, **changes})
        assert response.status_code == 403, url
    assert director.session(app).settings == session.settings
    assert len(director.session(app).results) == 1
    # The director's phone keeps every right.
    assert client.get(f"{director.url}/table/2/qr.svg").status_code == 200
    assert send(client, f"{director.url}/results/1/1/1", "/delete") == 302
    assert send(client, director.url, "/close") == 302
    assert director.session(app).closed


def play_first_round(director: Club) -> None:
    for table in (1, 1, 2, 2):  # tables 1 and 2 play their two boards; table 3 has not played
        assert director.enter(table, MADE)[2] == 302


def shown_at(phone: FlaskClient, link: str, round_: int | None = None) -> set[int]:
    """The boards whose travellers a table's phone shows (from a round's page)."""
    page = html.unescape(
        text(phone.get(link + "/travellers" + (f"?round={round_}" if round_ else "")))
    )
    return {board for board in range(1, 7) if f"Board {board} ·" in page}


def test_before_the_session_closes_a_table_shows_what_both_its_pairs_have_played(
    app: Flask, client: FlaskClient, mode: str
) -> None:
    director = Club(client)
    director.start(**SMALL)  # shown: the boards both pairs at a table played (the default)
    for table in (2, 2, 1):  # table 2 plays its round, table 1 one board of two
        assert director.enter(table, MADE)[2] == 302
    phone = app.test_client()
    page = html.unescape(text(phone.get(director.tables[1])))
    assert "Travellers of the boards both pairs here have played" in page
    assert shown_at(phone, director.tables[1]) == {1}
    # At table 2 round 1 is over: from round 1's page its pairs see the boards they just
    # played there, until the next round begins with its first result. The phone opened anew
    # is at round 2, whose East-West pair has not played boards 3 and 4, which NS 2 just
    # played there: none of them from there.
    page = html.unescape(text(phone.get(director.tables[2])))
    assert "Round 2 of 3" in page and "just played" not in page
    assert shown_at(phone, director.tables[2]) == set() == shown_at(phone, director.tables[2], 2)
    page = html.unescape(text(phone.get(director.tables[2] + "?round=1")))
    assert "Travellers of round 1, just played" in page
    assert shown_at(phone, director.tables[2], 1) == {3, 4}
    finished = text(phone.get(director.tables[2] + "/travellers?round=1"))
    assert "Round 1, just finished at this table" in finished
    assert director.enter(2, MADE)[2] == 302  # round 2 begins: board 5, which both now played
    assert shown_at(phone, director.tables[2], 1) == {5} == shown_at(phone, director.tables[2])
    page = html.unescape(text(phone.get(director.tables[3] + "/travellers")))
    assert "once both pairs at this table have played it" in page
    assert shown_at(phone, director.tables[3]) == set()
    assert director.enter(1, MADE)[2] == 302  # table 1 ends its round: a new pair arrives
    assert shown_at(phone, director.tables[1]) == set()
    assert shown_at(phone, director.tables[1], 1) == {1, 2}  # until round 2's first result
    for name in RESULTS_PAGES:
        response = phone.get(f"{director.url}/{name}")
        assert response.status_code == 403, name
        assert b"3NT" not in response.data
    assert "shown when the session closes" in html.unescape(
        text(phone.get(f"{director.url}/travellers"))
    )
    ranking = text(phone.get(f"{director.url}/ranking"))
    assert "NS 1" in ranking
    for name in (*RESULTS_PAGES, "ranking"):  # the director sees all along
        assert client.get(f"{director.url}/{name}").status_code == 200, name
    assert send(client, director.url, "/close") == 302
    for name in (*RESULTS_PAGES, "ranking"):  # and everyone once the session is closed
        assert phone.get(f"{director.url}/{name}").status_code == 200, name
    assert shown_at(phone, director.tables[3]) == {1, 2, 3, 4, 5}


def test_the_director_may_show_nothing_before_the_end_or_everything_as_it_comes(
    app: Flask, client: FlaskClient, mode: str
) -> None:
    director = Club(client)
    director.start(**SMALL, shown="end")
    play_first_round(director)
    phone = app.test_client()
    page = html.unescape(text(phone.get(director.url)))
    assert "The director shows the ranking when the session closes." in page
    assert "NS 1" not in page and "%" not in page.split("Ranking", 1)[1].split("</section>")[0]
    for name in (*RESULTS_PAGES, "ranking"):
        assert phone.get(f"{director.url}/{name}").status_code == 403, name
    page = html.unescape(text(phone.get(director.tables[1])))
    assert "Travellers" not in page
    assert "Board 1 ·" not in text(phone.get(director.tables[1] + "/travellers"))
    assert "NS 1" in text(client.get(director.url))  # the director's own page ranks
    assert send(client, director.url, "/shown", shown="all") == 302
    for name in (*RESULTS_PAGES, "ranking"):
        assert phone.get(f"{director.url}/{name}").status_code == 200, name
    assert shown_at(phone, director.tables[3]) == {1, 2, 3, 4}


def test_links_in_a_kept_page_are_the_requester_s_own(app: Flask, client: FlaskClient) -> None:
    director = Club(client)
    director.start(**SMALL)
    cookie = client.get_cookie("session")
    assert cookie is not None
    for host in ("evil.example", "club.example"):  # the director's cookie, to other hosts
        client.set_cookie("session", cookie.value, domain=host)
    forged = text(client.get(director.url, base_url="http://evil.example:8139"))
    assert f"http://evil.example:8139{director.tables[1]}" in forged  # its own address
    page = text(client.get(director.url, base_url="http://club.example"))
    assert "evil.example" not in page
    assert f"http://club.example{director.tables[1]}" in page


def test_behind_the_proxy_a_client_s_forwarded_host_is_not_believed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv("SCOREKEEPER_BEHIND_PROXY", "1")
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    seen = []

    @app.get("/where")
    def where() -> str:
        from flask import request

        seen.append((request.host, request.scheme))
        return "here"

    headers = {"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"}
    app.test_client().get("/where", base_url="http://club.example", headers=headers)
    assert seen == [("club.example", "https")]


def test_what_the_players_see_is_changed_while_the_tables_enter(
    app: Flask, client: FlaskClient
) -> None:
    director = Club(client)
    director.start(**SMALL)
    (form,) = [f for f in forms_of(text(client.get(director.url))) if "/shown" in f.action]
    assert director.enter(1, MADE)[2] == 302  # a table enters while the page lies open
    data = {name: values[0] for name, values in form.fields.items()} | {"shown": "end"}
    assert client.post(form.action, data=data).status_code == 302
    assert director.session(app).shown == "end"
    response = client.post(form.action, data={**data, "shown": "everything"})
    assert response.status_code == 302
    page = text(client.get(response.headers["Location"]))
    assert "Choose what the players see." in page
    assert director.session(app).shown == "end"
