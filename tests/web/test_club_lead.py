"""The opening lead at a club table through the test client: asked where the director wants it
(off by default), refused before East-West confirm when it is not in the hand of declarer's
left-hand opponent (with hand records; without them it is kept as tapped), shown on the
table's phone and in the travellers, corrected by the director, and written to and read back
from the PBN, USEBIO and game files."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.pbn import read_pbn
from scorekeeper.rules.usebio import read_usebio
from tests.web.crawler import as_drawn, forms_of
from tests.web.table import text
from tests.web.test_club import ENTRY, TOKEN, VERSION, Club, import_results, stored_session, upload
from tests.web.test_hands import FFB_FILE, FIVE_TABLES, send_hands

FOUR_SPADES_SOUTH = {"level": "4", "strain": "S", "declarer": "S", "doubled": "0", "result": "0"}
"""Board 1 of the FFB hands (the README's deal): West holds ♠987, South ♠J543."""


def cards_offered(page: str) -> list[str]:
    return re.findall(r'name="lead" type="radio" value="([^"]*)"', page)


def checked(page: str, name: str) -> list[str]:
    return re.findall(
        rf'<input checked id="[^"]+" name="{name}" type="radio" value="([^"]*)"', page
    )


def asking_session(client: FlaskClient, hands: bool = True) -> Club:
    club = Club(client)
    url = club.start(**FIVE_TABLES, lead="asked")
    if hands:
        assert send_hands(client, url, FFB_FILE).status_code == 302
    return club


def stored_leads(app: Flask, club: Club) -> dict[tuple[int, int], str]:
    return {(r.board, r.table): r.lead for r in club.session(app).results}


def test_the_lead_is_not_asked_unless_the_director_wants_it(client: FlaskClient) -> None:
    club = Club(client)
    club.start(**FIVE_TABLES)
    assert cards_offered(text(client.get(club.tables[1]))) == []
    # The director asks for it from the session's page: every table's phone shows 52 cards.
    (form,) = [f for f in forms_of(text(client.get(club.url))) if f.action.endswith("/lead")]
    response = client.post(form.action, data={**as_drawn(form), "lead": "asked"})
    assert response.status_code == 302
    assert "The tables&#39; phones ask for the opening lead." in text(client.get(club.url))
    offered = cards_offered(text(client.get(club.tables[2])))
    assert len(offered) == 52 and len(set(offered)) == 52
    assert offered[:3] == ["SA", "SK", "SQ"] and "HT" in offered and offered[-1] == "C2"
    (form,) = [f for f in forms_of(text(client.get(club.url))) if f.action.endswith("/lead")]
    client.post(form.action, data={**as_drawn(form), "lead": "no"})
    assert cards_offered(text(client.get(club.tables[2]))) == []


def test_a_lead_from_the_wrong_hand_is_refused_keeping_what_was_entered(
    client: FlaskClient, app: Flask
) -> None:
    club = asking_session(client)
    url, fields = entry_of(club, 1, {**FOUR_SPADES_SOUTH, "lead": "S3"})
    assert url.endswith("/1/1")  # round 1, board 1
    response = client.post(url, data=fields)
    assert response.status_code == 422
    page = html.unescape(text(response))
    said = "The 3♠ lead is not in West's hand: check the declarer."
    assert said in page
    assert 'class="buttons leads invalid" id="row-lead"' in page
    # Everything tapped is still there, to put right with one tap.
    assert checked(page, "level") == ["4"] and checked(page, "strain") == ["S"]
    assert checked(page, "declarer") == ["S"] and checked(page, "lead") == ["S3"]
    assert 'data-result="0" aria-pressed="true"' in page
    assert "East-West: confirm" not in page
    french = client.post(url, data=fields, headers={"Accept-Language": "fr-FR"})
    assert french.status_code == 422
    assert (
        "Entame 3♠\u00a0: Ouest n'a pas cette carte\u00a0; vérifiez le déclarant."
        in html.unescape(text(french))
    )
    assert stored_leads(app, club) == {}
    # The declarer was North: East leads, and holds the ♠A.
    _round, _board, status = club.enter(1, {**FOUR_SPADES_SOUTH, "declarer": "N", "lead": "SA"})
    assert status == 302
    assert stored_leads(app, club) == {(1, 1): "SA"}
    page = text(client.get(club.tables[1]))
    assert "A♠ led" in page and "East-West: confirm" in page


def entry_of(club: Club, table: int, fields: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The table's next board's form as sent with these fields."""
    page = text(club.client.get(club.tables[table]))
    entry, token, version = ENTRY.search(page), TOKEN.search(page), VERSION.search(page)
    assert entry and token and version
    return entry.group(1), {"csrf_token": token.group(1), "drawn_from": version.group(1), **fields}


def test_the_lead_is_asked_for_a_played_board_and_not_for_a_pass(
    client: FlaskClient, app: Flask
) -> None:
    club = asking_session(client)
    url, fields = entry_of(club, 1, FOUR_SPADES_SOUTH)
    response = client.post(url, data=fields)
    assert response.status_code == 422
    page = text(response)
    assert "Tap the opening lead." in page
    assert 'data-need-lead="Tap the opening lead."' in page  # the script says so at once
    _round, _board, status = club.enter(1, {**FOUR_SPADES_SOUTH, "lead": "ZZ"})
    assert status == 422
    _round, _board, status = club.enter(1, {"result": "passed", "lead": "S3"})
    assert status == 302
    assert stored_leads(app, club) == {(1, 1): ""}


def test_without_hand_records_the_lead_is_just_recorded(client: FlaskClient, app: Flask) -> None:
    club = asking_session(client, hands=False)
    _round, _board, status = club.enter(1, {**FOUR_SPADES_SOUTH, "lead": "S3"})
    assert status == 302
    assert stored_leads(app, club) == {(1, 1): "S3"}


def test_the_double_dummy_flag_stays_beside_the_lead(client: FlaskClient, app: Flask) -> None:
    app.config["SOLVE_HANDS"] = True
    club = asking_session(client)
    app.extensions["hand_solver"].wait()
    # North takes 8 tricks in no trump double dummy; 7NT made, East's ♥9 led.
    seven_nt = {"level": "7", "strain": "NT", "declarer": "N", "doubled": "0", "result": "0"}
    assert club.enter(1, {**seven_nt, "lead": "H9"})[2] == 302
    page = text(client.get(club.tables[1]))
    assert "Double dummy, North takes 8 tricks in NT, and 13 are entered" in page
    assert "9♥ led" in page


def play_with_leads(club: Club) -> None:
    """Table 1's first round: boards 1 to 3, the leads from the hands as dealt (board 2's
    West holds ♠A9652)."""
    three_nt = {"level": "3", "strain": "NT", "declarer": "S", "doubled": "0", "result": "-1"}
    for fields in (
        {**FOUR_SPADES_SOUTH, "declarer": "N", "lead": "H9"},  # East's ♥K9876
        {**three_nt, "lead": "S5"},
        {"result": "passed"},
    ):
        assert club.enter(1, fields)[2] == 302


def test_an_accepted_lead_shows_in_every_traveller(client: FlaskClient, app: Flask) -> None:
    club = asking_session(client)
    play_with_leads(club)
    for page in (
        text(client.get(f"{club.url}/travellers")),  # the director's, printed too
        text(client.get(club.tables[1] + "/travellers?round=1")),  # the table's phone
    ):
        boards = re.split(r"<caption>", page)[1:]
        assert '<th scope="col">Lead</th>' in boards[0]
        assert '<td class="lead">9♥</td>' in boards[0]
        assert '<td class="lead">5♠</td>' in boards[1]
        assert "Lead" not in boards[2]  # a board passed out everywhere has no lead column
    looking_on = app.test_client()  # a board's traveller to everyone, once shown
    (close,) = [f for f in forms_of(text(client.get(club.url))) if f.action.endswith("/close")]
    client.post(close.action, data=as_drawn(close))
    assert '<td class="lead">9♥</td>' in text(looking_on.get(f"{club.url}/travellers"))


def test_the_director_corrects_a_lead_and_the_log_says_so(client: FlaskClient, app: Flask) -> None:
    club = asking_session(client)
    play_with_leads(club)
    edit = f"{club.url}/results/1/1/1"
    page = text(client.get(edit))
    assert checked(page, "lead") == ["H9"]
    assert cards_offered(page)[-1] == ""  # "not noted": the director may leave it out
    (form,) = [f for f in forms_of(page) if f.action == edit and "level" in as_drawn(f)]
    fields = {**as_drawn(form), **FOUR_SPADES_SOUTH, "declarer": "N", "action": "result"}
    # The director's word stands, even against the hand record (a fouled board).
    response = client.post(edit, data={**fields, "lead": "S3"})
    assert response.status_code == 302
    assert stored_leads(app, club)[1, 1] == "S3"
    log = html.unescape(text(client.get(club.url)))
    assert "4♠ N made, 9♥ led → 4♠ N made, 3♠ led" in log


def test_the_lead_goes_out_in_the_files_and_comes_back(client: FlaskClient, app: Flask) -> None:
    club = asking_session(client)
    play_with_leads(club)
    pbn = client.get(f"{club.url}/session.pbn").get_data(as_text=True)
    assert "Lead\\" in pbn and re.search(r" 4S +N +10 +H9 ", pbn)
    usebio = client.get(f"{club.url}/session.xml").data
    assert b"<LEAD>H9</LEAD>" in usebio and b"<LEAD>S5</LEAD>" in usebio
    for read in (read_pbn(pbn).session, read_usebio(usebio).session):
        leads = {(r.board, r.table): r.lead for r in read.results}
        assert leads == {(1, 1): "H9", (2, 1): "S5", (3, 1): ""}
    for data, name in ((pbn.encode(), "s.pbn"), (usebio, "s.xml")):
        copy = stored_session(app, import_results(client, data, name))
        assert {(r.board, r.table): r.lead for r in copy.results} == stored_leads(app, club)
    exported = client.get(f"{club.url}/game.json").data
    again = upload(client, "/import", exported, "s.json")
    assert again.status_code == 302, text(again)
    copy = stored_session(app, again.headers["Location"])
    assert copy.asks_lead
    assert {(r.board, r.table): r.lead for r in copy.results} == stored_leads(app, club)
