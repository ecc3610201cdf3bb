"""A simultaneous pairs across clubs through Flask's test client: the organiser sets the event
up, clubs join it by its link (each its own director, movement and phones), a club scoring
on its own computer uploads its file, and the field is ranked across every club's results;
nothing of a board is seen at a club before it is played there."""

from __future__ import annotations

import html
import io
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from scorekeeper.club.models import ClubField, ClubSession
from scorekeeper.extensions import db
from scorekeeper.rules.movements import mitchell
from tests.web.crawler import forms_of
from tests.web.table import NONCE, TOKEN, text
from tests.web.test_club import SMALL, TABLE_LINK, Club, ranking_rows
from tests.web.test_club_field import counted_by_hand, play, two_places
from tests.web.test_club_fuzz import sent_as_a_crawler

FIELD_PAGE = re.compile(r"/club/field/([A-Za-z0-9_-]+)$")
CLUBS_LINK = re.compile(r'value="https?://[^/"]+(/club/event/[^/"]+/join/[^/"]+)"')
ORGANISER_LINK = re.compile(r'value="https?://[^/"]+(/club/event/[^/"]+/organise/[^/"]+)"')
EVENT_ROW = re.compile(
    r'<td class="num">(\d+=?)</td>\s*<th scope="row">([A-Z]+) ([NSEW]{2} \d+|\d+)'
    r' <span class="club">([^<]+)</span>(?: <span class="names">.*?</span>)?</th>'
    r'\s*<td class="num">(\d+=?)</td>\s*<td class="num">[^<]*</td>'
    r'\s*<td class="num total">([^<]*)</td>'
)


@dataclass
class EventRow:
    place: int
    club_place: int
    club: str
    pct: str


def event_rows(page: str) -> dict[tuple[str, str, int], EventRow]:
    """The event's ranking as a page shows it, by (section, direction, number)."""
    found = {}
    for place, section, pair, club, club_place, pct in EVENT_ROW.findall(page):
        direction, number = pair.split(" ")
        found[(section, direction, int(number))] = EventRow(
            int(place.rstrip("=")), int(club_place.rstrip("=")), html.unescape(club), pct
        )
    return found


def ranked_as_counted(
    page: str, expected: dict[tuple[str, str, int], Fraction]
) -> dict[tuple[str, str, int], EventRow]:
    """The event's ranking on the page, checked pair by pair against the count by hand: each
    percentage, each place in the field and in its club (1 + the pairs of its direction with
    more)."""
    shown = event_rows(page)
    assert set(shown) == set(expected)
    for pair, row in shown.items():
        assert row.pct == two_places(expected[pair]), pair
    for direction in ("NS", "EW"):
        mine = {pair: pct for pair, pct in expected.items() if pair[1] == direction}
        for pair, pct in mine.items():
            assert shown[pair].place == 1 + sum(other > pct for other in mine.values())
            in_club = [p for key, p in mine.items() if key[0] == pair[0]]
            assert shown[pair].club_place == 1 + sum(other > pct for other in in_club)
    return shown


def form_fields(client: FlaskClient, url: str) -> dict[str, str]:
    page = text(client.get(url))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce, page
    return {"csrf_token": token.group(1), "nonce": nonce.group(1)}


def new_event(client: FlaskClient, **choices: str) -> tuple[str, str, str]:
    """The event set up on the organiser's phone: its page, the clubs' link, the organiser's."""
    data = form_fields(client, "/club/event/new")
    data.update({"name": "Charity simultaneous", "played_on": "2026-12-02"})
    data.update({"scoring": "matchpoints", "deals_from": "dealt", "boards": "24", **choices})
    response = client.post("/club/event/new", data=data)
    assert response.status_code == 302, text(response)
    url = response.headers["Location"]
    assert FIELD_PAGE.search(url), url
    page = text(client.get(url))
    clubs, organiser = CLUBS_LINK.search(page), ORGANISER_LINK.search(page)
    assert clubs and organiser, page
    return url, clubs.group(1), organiser.group(1)


def join(client: FlaskClient, link: str, club: str, **choices: str) -> Club:
    """A club's director opens the clubs' link and sets up the club's section."""
    response = client.get(link)
    assert response.status_code == 302
    joining = response.headers["Location"]
    field_id = joining.split("/")[3]
    assert "Set up your club" in text(client.get(joining))
    data = form_fields(client, f"/club/new?field={field_id}")
    data.update({**SMALL, "field": field_id, "club": club, **choices})
    response = client.post("/club/new", data=data)
    assert response.status_code == 302, text(response)
    section = Club(client)
    section.url = response.headers["Location"]
    page = text(client.get(section.url))
    section.tables = {int(number): link for link, number in TABLE_LINK.findall(page)}
    return section


def close(section: Club) -> None:
    page = text(section.client.get(section.url))
    form = re.search(
        r'action="(/club/[^"]+/close)".*?name="drawn_from" type="hidden" '
        r'value="(\d+)"',
        page,
        re.S,
    )
    token = TOKEN.search(page)
    assert form and token
    response = section.client.post(
        form.group(1), data={"csrf_token": token.group(1), "drawn_from": form.group(2)}
    )
    assert response.status_code == 302


def end_event(client: FlaskClient, field_url: str) -> None:
    """The organiser closes the event: no more clubs."""
    page = text(client.get(field_url))
    token = TOKEN.search(page)
    assert token and "/end" in page
    response = client.post(
        field_url.replace("/club/field/", "/club/event/") + "/end",
        data={"csrf_token": token.group(1)},
    )
    assert response.status_code == 302
    assert "The event is closed" in text(client.get(field_url))


def played_elsewhere(
    client: FlaskClient, seed: int
) -> tuple[bytes, list[tuple[int, int, int, int]]]:
    """A club's section scored on its own computer: played and closed there, its game file."""
    section = Club(client)
    section.start(**SMALL)
    played = play(section, 3, seed)
    close(section)
    response = client.get(section.url + "/game.json")
    assert response.status_code == 200
    return response.data, played


def upload(
    client: FlaskClient, link: str, data: bytes, name: str = "section.json", club: str = "Rennes"
) -> TestResponse:
    response = client.get(link)
    joining = response.headers["Location"]
    field_id = joining.split("/")[3]
    fields: dict[str, object] = {**form_fields(client, joining), "club": club}
    fields["file"] = (io.BytesIO(data), name)
    return client.post(
        f"/club/event/{field_id}/upload", data=fields, content_type="multipart/form-data"
    )


@pytest.fixture
def phones(app: Flask) -> Iterator[dict[str, FlaskClient]]:
    yield {name: app.test_client() for name in ("organiser", "a", "b", "c", "stranger")}


def test_three_clubs_two_here_one_uploaded_rank_as_a_count_by_hand(
    app: Flask, phones: dict[str, FlaskClient]
) -> None:
    field_url, clubs_link, _organiser = new_event(phones["organiser"])
    a = join(phones["a"], clubs_link, "Bridge club of Lyon")
    b = join(phones["b"], clubs_link, "Cercle de Nantes", tables="4")
    played = {"A": play(a, 3, 1), "B": play(b, 4, 2)}
    data, played["C"] = played_elsewhere(phones["c"], 3)
    response = upload(phones["c"], clubs_link, data)
    assert response.status_code == 302, text(response)
    expected = counted_by_hand(played, {"A": 3, "B": 4, "C": 3})

    page = text(phones["organiser"].get(field_url))
    assert "Bridge club of Lyon · section A" in page
    assert "Cercle de Nantes · section B" in page
    assert "uploaded from its file" in page
    shown = ranked_as_counted(page, expected)
    assert shown[("A", "NS", 1)].club == "Bridge club of Lyon"

    # Each club's page ranks its own pairs by the field's figures.
    for name, section in (("A", a), ("B", b)):
        for place, pair, pct in ranking_rows(text(section.client.get(section.url))):
            direction, number = pair.split(" ")
            assert pct == two_places(expected[(name, direction, int(number))])
            del place

    # The combined files: every club's section.
    field_id = FIELD_PAGE.search(field_url).group(1)  # type: ignore[union-attr]
    usebio = text(phones["organiser"].get(f"/club/field/{field_id}/field.xml"))
    assert usebio.count("<SECTION ") == 3
    pbn = text(phones["organiser"].get(f"/club/field/{field_id}/field.pbn"))
    for name in "ABC":
        assert f'[Section "{name}"]' in pbn
    assert pbn.count("[Board ") == 6 + 8 + 6
    # The field's travellers: each board with every club's results on it, counted by hand.
    travellers = text(phones["organiser"].get(f"/club/field/{field_id}/travellers"))
    captions = re.findall(r"<caption>Board (\d+) ·", travellers)
    per_board = Counter(board for results in played.values() for board, *_rest in results)
    assert [int(board) for board in captions] == sorted(per_board)
    tables_shown = travellers.split("<caption>")[1:]
    for board, table in zip(sorted(per_board), tables_shown, strict=True):
        assert table.count("<tr>") - 1 == per_board[board], board  # its head's row aside
    assert "Cercle de Nantes" in travellers


def test_each_link_gives_its_rights_alone(
    app: Flask, phones: dict[str, FlaskClient], mode: str
) -> None:
    """In every server mode: the organiser's link, the clubs' link, a club director's and a
    table's each give their own rights and no other's."""
    field_url, clubs_link, organiser_link = new_event(phones["organiser"])
    field_id = FIELD_PAGE.search(field_url).group(1)  # type: ignore[union-attr]
    a = join(phones["a"], clubs_link, "Lyon")
    b = join(phones["b"], clubs_link, "Nantes")
    stranger = phones["stranger"]
    # The organiser's page and files: the organiser's alone.
    for url in (
        field_url,
        f"/club/field/{field_id}/ranking",
        f"/club/field/{field_id}/field.xml",
        f"/club/field/{field_id}/field.pbn",
        f"/club/field/{field_id}/travellers",
        f"/club/event/{field_id}/qr/clubs.svg",
    ):
        for phone in (a.client, b.client, stranger):
            assert phone.get(url).status_code == 404, url
        assert phones["organiser"].get(url).status_code == 200, url
    # Without the clubs' link no one joins; with a wrong secret neither.
    assert stranger.get(f"/club/event/{field_id}/join").status_code == 404
    assert stranger.get(f"/club/event/{field_id}/join/wrong").status_code == 404
    assert stranger.get(f"/club/event/{field_id}/organise/wrong").status_code == 404
    data = form_fields(stranger, "/club/new")
    data.update({**SMALL, "field": field_id, "club": "Intruders"})
    refused = stranger.post("/club/new", data=data)
    assert refused.status_code == 422
    assert "not one you direct" in text(refused)
    # A club's director directs their own section, not another club's.
    assert "Close the session" in text(a.client.get(a.url))
    assert "Close the session" not in text(a.client.get(b.url))
    assert a.client.get(b.url + "/hands").status_code == 403
    assert a.client.get(b.tables[1].rsplit("/", 1)[0] + "/0").status_code == 403
    # The organiser's link on another phone makes it the organiser's; it scores no club.
    second = app.test_client()
    assert second.get(organiser_link).status_code == 302
    assert second.get(field_url).status_code == 200
    assert "Close the session" not in text(second.get(a.url))


def test_nothing_of_a_board_is_seen_at_a_club_before_it_is_played_there(
    app: Flask, phones: dict[str, FlaskClient]
) -> None:
    field_url, clubs_link, _organiser = new_event(phones["organiser"])
    a = join(phones["a"], clubs_link, "Early club")
    b = join(phones["b"], clubs_link, "Late club")
    play(a, 3, 5)  # the early club has played every board
    close(a)
    # The late club has not begun: its event ranking holds nothing of the early club's.
    late = app.test_client()  # a player of the late club, with the session's address
    page = text(late.get(b.url + "/field"))
    assert "No result yet." in page
    assert "Early club" not in page
    # Its table phone shows no traveller; the hands are no one's but the directors'.
    table = text(late.get(b.tables[1] + "/travellers"))
    assert "Board 1" not in table
    for section in (a, b):  # the early club is closed, but the late one plays on
        assert late.get(section.url + "/hands/print").status_code == 403
    assert phones["a"].get(a.url + "/hands/print").status_code == 200  # its director's
    # Table 1 of the late club plays its first round: those two boards are seen there, with
    # the early club's results on them, and no other board.
    seating = next(s for s in mitchell(3, 2).round_seatings(1) if s.table == 1)
    for _board in seating.boards:
        b.enter(1, {"level": "3", "strain": "NT", "declarer": "N", "doubled": "0", "result": "0"})
    ranking = text(late.get(b.url + "/field"))
    rows = event_rows(ranking)
    assert {key[0] for key in rows} == {"A", "B"}, ranking
    with app.app_context():
        field = db.session.scalars(db.select(ClubField)).one()
        late_section = next(s for s in field.sections if s.section == "B")
        seen = field.score(late_section)
        assert {r.scored.result.board for r in seen.results} == set(seating.boards)
        assert len({r.board for r in field.sections[0].results}) == 6
    traveller = text(late.get(b.tables[1] + "/travellers?round=1"))  # the round just played
    assert all(f"Board {board}" in traveller for board in seating.boards), traveller
    traveller = text(late.get(b.tables[2] + "/travellers"))  # table 2 has played nothing
    assert "Board " not in traveller
    for page in ("travellers", "ranking", "field.pbn"):
        assert late.get(f"/club/field/{field.id}/{page}").status_code == 404
    # Every club so far closed: still nothing public, as long as another club may join.
    play(b, 3, 6)
    close(b)
    for section in (a, b):
        assert late.get(section.url + "/hands/print").status_code == 403
        assert late.get(section.url + "/travellers").status_code == 403
    assert late.get(f"/club/field/{field.id}/travellers").status_code == 404
    # The organiser closes the event: the hands and the results are everyone's.
    end_event(phones["organiser"], field_url)
    assert "no club joins it any more" in text(phones["b"].get(clubs_link, follow_redirects=True))
    for section in (a, b):
        assert late.get(section.url + "/hands/print").status_code == 200
    assert late.get(b.url + "/field").status_code == 200
    for page in ("travellers", "ranking", "field.pbn"):
        assert late.get(f"/club/field/{field.id}/{page}").status_code == 200
    # The early club's own pairs are ranked there on those boards alone.
    assert "Early club" in ranking


def test_an_uploaded_file_off_the_event_s_boards_is_refused_and_sent_twice_is_one_section(
    app: Flask, phones: dict[str, FlaskClient]
) -> None:
    field_url, clubs_link, _organiser = new_event(phones["organiser"], boards="4")
    data, _played = played_elsewhere(phones["c"], 7)  # boards 1 to 6
    refused = upload(phones["c"], clubs_link, data)
    assert refused.status_code == 422
    assert "The event has no boards 5, 6: is this the file of this event?" in text(refused)
    garbage = upload(phones["c"], clubs_link, b"\x00\xffnot a file", "x.pbn")
    assert garbage.status_code == 422
    with app.app_context():
        assert (
            db.session.scalars(
                db.select(ClubSession).where(ClubSession.field_id.is_not(None))
            ).all()
            == []
        )

    field_url, clubs_link, _organiser = new_event(phones["organiser"])
    response = phones["c"].get(clubs_link)
    joining = response.headers["Location"]
    fields = form_fields(phones["c"], joining)
    field_id = joining.split("/")[3]
    for _tap in range(2):
        sent = phones["c"].post(
            f"/club/event/{field_id}/upload",
            data={**fields, "club": "Rennes", "file": (io.BytesIO(data), "section.json")},
            content_type="multipart/form-data",
        )
        assert sent.status_code == 302
    page = text(phones["organiser"].get(field_url))
    assert page.count("uploaded from its file") == 1


def test_the_event_form_says_what_is_wrong_and_a_double_tap_is_one_event(
    app: Flask, phones: dict[str, FlaskClient]
) -> None:
    client = phones["organiser"]
    data = form_fields(client, "/club/event/new")
    for wrong, message in (
        ({"name": ""}, "Give the event a name."),
        ({"played_on": "31/02/2026"}, "Not a valid date value."),
        ({"boards": "0"}, "From 1 to 64 boards."),
        ({"boards": "x"}, "Type a whole number"),
        ({"deals_from": "file"}, "Choose a PBN file of hand records."),
    ):
        sent = {
            "name": "Sim",
            "played_on": "2026-12-02",
            "scoring": "matchpoints",
            "deals_from": "dealt",
            "boards": "24",
            **data,
            **wrong,
        }
        response = client.post("/club/event/new", data=sent)
        assert response.status_code == 422, wrong
        assert message in text(response), wrong
    good = {
        "name": "Sim",
        "played_on": "2026-12-02",
        "scoring": "matchpoints",
        "deals_from": "dealt",
        "boards": "24",
        **data,
    }
    first = client.post("/club/event/new", data=good)
    again = client.post("/club/event/new", data=good)
    assert first.status_code == again.status_code == 302
    assert first.headers["Location"] == again.headers["Location"]
    with app.app_context():
        events = db.session.scalars(db.select(ClubField)).all()
        assert len(events) == 1 and len(events[0].event_deals) == 24


def test_a_club_whose_movement_needs_more_boards_than_the_event_has_is_told(
    phones: dict[str, FlaskClient],
) -> None:
    _field_url, clubs_link, _organiser = new_event(phones["organiser"], boards="6")
    client = phones["a"]
    joining = client.get(clubs_link).headers["Location"]
    field_id = joining.split("/")[3]
    data = form_fields(client, f"/club/new?field={field_id}")
    data.update({**SMALL, "field": field_id, "club": "Big club", "tables": "5"})
    response = client.post("/club/new", data=data)
    assert response.status_code == 422
    assert "This movement plays boards 1 to 10; the event has no deal for boards 7 to 10." in (
        text(response)
    )
    del data["club"]
    response = client.post("/club/new", data={**data, "tables": "3"})
    assert response.status_code == 422
    assert "Give your club&#39;s name" in text(response)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    phases=[Phase.generate],  # the event goes on from example to example, as under a crawler
    database=None,
)
@given(
    page=st.sampled_from(["/club/event/new", "JOIN", "SETUP", "FIELD"]), seed=st.integers(0, 2**32)
)
def test_no_event_form_breaks_the_server_or_changes_what_it_refuses(
    app: Flask, crawled_event: tuple[FlaskClient, str, str], page: str, seed: int
) -> None:
    client, field_url, _clubs_link = crawled_event
    rng = random.Random(seed)
    field_id = field_url.rsplit("/", 1)[1]
    url = {
        "JOIN": f"/club/event/{field_id}/join",
        "SETUP": f"/club/new?field={field_id}",
        "FIELD": field_url,
    }.get(page, page)
    response = client.get(url)
    assert response.status_code == 200, url
    forms = [form for form in forms_of(text(response)) if form.method == "post"]
    if not forms:
        return
    sent_as_a_crawler(app, client, rng.choice(forms), rng)


@pytest.fixture
def crawled_event(app: Flask) -> tuple[FlaskClient, str, str]:
    client = app.test_client()
    field_url, clubs_link, _organiser = new_event(client)
    assert client.get(clubs_link).status_code == 302
    return client, field_url, clubs_link


def test_an_uploaded_section_is_its_uploader_s_and_shows_nothing_before_the_event_ends(
    app: Flask, phones: dict[str, FlaskClient], mode: str
) -> None:
    field_url, clubs_link, _organiser = new_event(phones["organiser"])
    a = join(phones["a"], clubs_link, "Lyon", shown="end")
    data, _played = played_elsewhere(phones["c"], 4)
    response = upload(phones["c"], clubs_link, data)
    assert response.status_code == 302
    uploaded = response.headers["Location"]
    assert "Open the session again" in text(phones["c"].get(uploaded))  # its uploader directs it
    for other in (phones["a"], phones["stranger"], phones["organiser"]):
        page = text(other.get(uploaded))
        assert "Open the session again" not in page and "Close the session" not in page
        for url in ("/travellers", "/hands/print", "/cards"):
            assert other.get(uploaded + url).status_code == 403, url
        for url in ("/session.pbn", "/session.xml"):
            assert other.get(uploaded + url).status_code in (403, 404), url
    # A club showing its ranking at the end: its players see the event's at its end too.
    player = app.test_client()
    assert player.get(a.url + "/field").status_code == 404
    assert "The event&#39;s ranking" not in text(player.get(a.url))
    assert phones["a"].get(a.url + "/field").status_code == 200  # its director sees it
    play(a, 3, 8)
    close(a)
    assert player.get(a.url + "/field").status_code == 200
    assert player.get(uploaded + "/travellers").status_code == 403  # the event is not over
    end_event(phones["organiser"], field_url)
    assert player.get(uploaded + "/travellers").status_code == 200
    assert player.get(uploaded + "/session.pbn").status_code == 200


@pytest.mark.parametrize("asked", ["\x00", "a\x00b", "x" * 40, "é", "../1"])
def test_a_field_named_by_no_fields_id_is_none_on_every_database(
    client: FlaskClient, asked: str
) -> None:
    """A new session's ``field`` is looked up only when it can be an id: PostgreSQL refuses a
    NUL outright, and that must be the page's refusal, not a server error."""
    from tests.web.test_club import SMALL

    page = client.get("/club/new", query_string={"field": asked})
    assert page.status_code == 200
    token, nonce = TOKEN.search(text(page)), NONCE.search(text(page))
    assert token and nonce
    data = {"csrf_token": token.group(1), "nonce": nonce.group(1), **SMALL, "field": asked}
    response = client.post("/club/new", data=data)
    assert response.status_code in (200, 422), text(response)
    assert "This field is not one you direct" in html.unescape(text(response))
