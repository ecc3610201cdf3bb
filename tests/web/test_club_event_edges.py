"""A simultaneous pairs where it bends: a club joining after the others have closed, an event
read from a dealing program's file, a club's director trying to deal other boards, a file
played on other deals, a round-by-round club, an uploaded PBN ranked by the field's figures."""

from __future__ import annotations

import io
import re

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.club.hands import deals_at_random
from scorekeeper.club.models import ClubField
from scorekeeper.extensions import db
from scorekeeper.rules.movements import mitchell
from tests.web.table import text
from tests.web.test_club import ranking_rows
from tests.web.test_club_event import (
    FIELD_PAGE,
    close,
    event_rows,
    form_fields,
    join,
    new_event,
)
from tests.web.test_club_field import play

ENTER = {"level": "3", "strain": "NT", "declarer": "N", "doubled": "0", "result": "0"}


def test_a_club_joining_after_the_others_closed_finds_nothing_public(app: Flask) -> None:
    """The issue: the hands are public only once every club has closed; a club that starts
    later sees nothing of what is played earlier."""
    organiser, early, late_director = (app.test_client() for _ in range(3))
    field_url, clubs_link, _ = new_event(organiser)
    field_id = FIELD_PAGE.search(field_url).group(1)  # type: ignore[union-attr]
    a = join(early, clubs_link, "Early club")
    play(a, 3, 5)
    close(a)
    # The late club's director has the clubs' link (the field's id in it) and plays tonight.
    late_director.get(clubs_link)
    anyone = app.test_client()
    leaks = {
        url: anyone.get(url).status_code
        for url in (
            f"{a.url}/hands/print",
            f"{a.url}/travellers",
            f"{a.url}/session.pbn",
            f"/club/field/{field_id}/travellers",
            f"/club/field/{field_id}/ranking",
            f"/club/field/{field_id}/field.pbn",
        )
    }
    assert all(status == 404 or status == 403 for status in leaks.values()), leaks


def test_the_organiser_s_ranking_before_any_club_joins_is_no_500(app: Flask) -> None:
    organiser = app.test_client()
    field_url, _clubs, _ = new_event(organiser)
    field_id = FIELD_PAGE.search(field_url).group(1)  # type: ignore[union-attr]
    assert organiser.get(f"/club/field/{field_id}/ranking").status_code == 200


def test_round_by_round_a_club_s_two_rankings_agree(app: Flask) -> None:
    """Shown round by round: the club's own page and its event ranking rank its pairs by the
    same figures."""
    organiser, pa, pb = (app.test_client() for _ in range(3))
    _field, clubs_link, _ = new_event(organiser)
    a = join(pa, clubs_link, "Early club")
    play(a, 3, 5)  # every round played, not closed
    b = join(pb, clubs_link, "Late club", shown="rounds")
    for seating in mitchell(3, 2).round_seatings(1):  # round 1 at every table
        for _board in seating.boards:
            b.enter(seating.table, ENTER)
    player = app.test_client()
    own = {pair: pct for _place, pair, pct in ranking_rows(text(player.get(b.url)))}
    event = {
        f"{direction} {number}": row.pct
        for (section, direction, number), row in event_rows(
            text(player.get(b.url + "/field"))
        ).items()
        if section == "B"
    }
    assert own and event
    assert own == event


def event_from_file(organiser: FlaskClient, boards: range) -> TestResponse:
    deals = deals_at_random(boards)
    games = [
        f'[Board "{board}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal}"]\n'
        for board, deal in deals.items()
    ]
    pbn = ("% PBN 2.0\n\n" + "\n".join(games)).encode()
    data: dict[str, object] = {**form_fields(organiser, "/club/event/new")}
    data.update(
        {
            "name": "Sim",
            "played_on": "2026-12-02",
            "scoring": "matchpoints",
            "deals_from": "file",
            "boards": "",
            "file": (io.BytesIO(pbn), "deals.pbn"),
        }
    )
    return organiser.post("/club/event/new", data=data, content_type="multipart/form-data")


def test_an_event_s_deals_from_a_program_are_the_clubs_boards_from_board_1(app: Flask) -> None:
    organiser, pa = app.test_client(), app.test_client()
    refused = event_from_file(organiser, range(25, 49))
    assert refused.status_code == 422
    assert "The file&#39;s deals begin at board 25" in text(refused)
    with app.app_context():
        assert db.session.scalars(db.select(ClubField)).all() == []
    response = event_from_file(organiser, range(1, 25))
    assert response.status_code == 302, text(response)
    page = text(organiser.get(response.headers["Location"]))
    clubs = re.search(r'value="https?://[^/"]+(/club/event/[^/"]+/join/[^/"]+)"', page)
    assert clubs
    a = join(pa, clubs.group(1), "Lyon")  # a 3-table Mitchell: boards 1 to 6
    section = a.session(app)
    with app.app_context():
        event = db.session.scalars(db.select(ClubField)).one().event_deals
    assert {deal.board: deal.deal for deal in section.deals} == {b: event[b] for b in range(1, 7)}
    # The clubs' directors take the event's deals for their dealing machines.
    deals = pa.get(f"/club/event/{section.field_id}/deals.pbn")
    assert deals.status_code == 200 and text(deals).count("[Board ") == 24
    assert app.test_client().get(f"/club/event/{section.field_id}/deals.pbn").status_code == 404


def hands_form(client: FlaskClient, url: str) -> dict[str, str]:
    page = text(client.get(url + "/hands"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    drawn = re.search(r'name="drawn_from" type="hidden" value="(\d+)"', page)
    assert token and drawn, page
    return {"csrf_token": token.group(1), "drawn_from": drawn.group(1)}


def test_a_club_s_director_cannot_deal_its_section_other_boards_than_the_event_s(
    app: Flask,
) -> None:
    organiser, pa = app.test_client(), app.test_client()
    _field, clubs_link, _ = new_event(organiser)
    a = join(pa, clubs_link, "Lyon")
    before = {d.board: d.deal for d in a.session(app).deals}
    assert len(before) == 6
    page = text(pa.get(a.url + "/hands"))
    assert "Deal every board at random" not in page and "the same at every club" in page
    # The form an ordinary session's page has, sent all the same (the director's page's token).
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', text(pa.get(a.url)))
    assert token
    sent = {"csrf_token": token.group(1), "drawn_from": str(a.session(app).version)}
    response = pa.post(a.url + "/hands", data={**sent, "action": "deal"})
    assert response.status_code == 409
    assert "Every club plays the event&#39;s deals" in text(response)
    assert {d.board: d.deal for d in a.session(app).deals} == before


def test_a_file_played_on_other_deals_is_not_taken_in_silently(app: Flask) -> None:
    from tests.web.test_club import Club
    from tests.web.test_club_event import SMALL, upload

    organiser, pc = app.test_client(), app.test_client()
    _field, clubs_link, _ = new_event(organiser)
    elsewhere = Club(pc)
    elsewhere.start(**SMALL)
    assert (
        pc.post(
            elsewhere.url + "/hands", data={**hands_form(pc, elsewhere.url), "action": "deal"}
        ).status_code
        == 302
    )
    play(elsewhere, 3, 9)
    close(elsewhere)
    data = pc.get(elsewhere.url + "/game.json").data
    response = upload(pc, clubs_link, data)
    assert response.status_code == 422, "a file on other deals than the event's is taken in"
    assert "are not the event&#39;s deals" in text(response)


def test_an_uploaded_pbn_is_ranked_by_the_field_s_figures_without_false_alarms(app: Flask) -> None:
    from tests.web.test_club import Club
    from tests.web.test_club_event import SMALL, upload

    organiser, pa, pc = app.test_client(), app.test_client(), app.test_client()
    _field, clubs_link, _ = new_event(organiser)
    a = join(pa, clubs_link, "Lyon")
    play(a, 3, 1)
    elsewhere = Club(pc)
    elsewhere.start(**SMALL, club="Rennes")
    play(elsewhere, 3, 2)
    close(elsewhere)
    data = pc.get(elsewhere.url + "/session.pbn").data
    response = upload(pc, clubs_link, data, "section.pbn")
    assert response.status_code == 302, text(response)
    page = text(pc.get(response.headers["Location"]))
    assert ranking_rows(page)
    assert 'class="check' not in page
