"""A club's members and their federation numbers: given by the circle's keeper (checked for
their federation's form, logged, undone), kept in the circle's file, written beside each
player in the session's USEBIO file, and kept from a results file read."""

from __future__ import annotations

import html
import json
from collections import Counter
from xml.etree import ElementTree

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.circles.models import Circle, CircleChange, Person
from scorekeeper.extensions import db
from scorekeeper.rules.federations import ffb_check_digit
from tests.web.table import NONCE, TOKEN, text
from tests.web.test_circle_keepers import sent, two_keepers
from tests.web.test_circles import Keeper, person_id
from tests.web.test_club import (
    SMALL,
    TABLE_LINK,
    Club,
    director_post,
    import_results,
    play_whole_session,
    upload,
)
from tests.web.test_club_published import HOWELL, page_of, stored


def licence(body: str) -> str:
    """An FFB licence number: ``body`` and its check digit."""
    return body + str(ffb_check_digit(body))


def numbers_of(app: Flask, circle_id: str) -> dict[str, tuple[str | None, str | None]]:
    with app.app_context():
        circle = db.session.get(Circle, circle_id)
        assert circle is not None
        return {p.name: (p.federation, p.federation_number) for p in circle.current_people}


def usebio_numbers(data: bytes) -> Counter[tuple[str, str]]:
    """Each pair's two players' NATIONAL_ID_NUMBERs, counted from the file with ElementTree."""
    found: Counter[tuple[str, str]] = Counter()
    for pair in ElementTree.fromstring(data).iter("PAIR"):
        players = pair.findall("PLAYER")
        numbers = tuple((p.findtext("NATIONAL_ID_NUMBER") or "").strip() for p in players)
        if len(numbers) == 2 and any(numbers):
            found[(numbers[0], numbers[1])] += 1
    return found


def test_a_keeper_gives_a_member_their_number_checked_logged_and_undone(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    circle_id = keeper.start(people="Anne\nBruno").rsplit("/", 1)[1]
    anne = person_id(app, circle_id, "Anne")
    number = licence("049071")  # typed with its leading zero and spaces, as on the card
    typed = " ".join(number)
    response = keeper.post(f"/people/{anne}/federation", federation="FFB", number=typed)
    assert response.status_code == 302
    page = keeper.page()
    assert f"Anne’s federation number is FFB {number.lstrip('0')}." in page.replace("'", "’")
    assert numbers_of(app, circle_id)["Anne"] == ("FFB", number.lstrip("0"))
    assert f"<small>FFB {number.lstrip('0')}</small>" in page
    assert f"Anne's federation number: FFB {number.lstrip('0')}" in page  # the log

    # A mistyped check digit: said in the page, what was typed kept, nothing stored.
    wrong = number[:-1] + str((int(number[-1]) + 1) % 10)
    response = keeper.post(f"/people/{anne}/federation", federation="FFB", number=wrong)
    assert response.status_code == 422
    shown = html.unescape(text(response))
    assert "is not an FFB licence number: its last digit does not check" in shown
    assert f'value="{wrong}"' in shown
    assert numbers_of(app, circle_id)["Anne"] == ("FFB", number.lstrip("0"))
    for federation, typed_number, said in (
        ("ACBL", "12345", "An ACBL player number is 7 characters"),
        ("FFB", "", "Enter their number, or choose no federation."),
        ("", "123", "Choose the federation of this number."),
        ("XYZ", "123", "Choose the federation of this number."),
        ("other", "12 ; 34", "A federation number is up to 20 letters, digits and hyphens."),
    ):
        response = keeper.post(
            f"/people/{anne}/federation", federation=federation, number=typed_number
        )
        assert response.status_code == 422, (federation, typed_number)
        assert said in html.unescape(text(response))
    assert numbers_of(app, circle_id)["Anne"] == ("FFB", number.lstrip("0"))

    # Undone: no number again; the log says so.
    assert keeper.post("/undo").status_code == 302
    assert numbers_of(app, circle_id)["Anne"] == (None, None)
    assert "Anne has no federation number." in keeper.page()


def test_a_number_changed_on_another_phone_is_shown_beside_this_one_and_the_same_is_done(
    client: FlaskClient, app: Flask
) -> None:
    first, second = two_keepers(client, app, "Anne\nBruno")
    circle_id = first.url.rsplit("/", 1)[1]
    bruno = person_id(app, circle_id, "Bruno")
    stale = html.unescape(text(second.client.get(second.url)))
    path = f"/people/{bruno}/federation"
    assert first.post(path, federation="ACBL", number="j123456").status_code == 302
    # The same number from the other phone's older page: done, one change logged.
    status, page = sent(second, stale, path, federation="ACBL", number="J123456")
    assert status == 302 and "Bruno’s federation number is ACBL J123456." in page.replace("'", "’")
    # Another number from the older page: both shown, nothing changed until tapped.
    status, page = sent(second, stale, path, federation="EBU", number="12345")
    assert status == 409
    assert "Bruno's number was changed on another phone" in page
    assert "ACBL J123456" in page and "EBU 12345" in page
    assert numbers_of(app, circle_id)["Bruno"] == ("ACBL", "J123456")
    with app.app_context():
        logged = db.session.scalars(
            db.select(CircleChange).where(CircleChange.circle_id == circle_id)
        ).all()
        assert [(c.kind, c.old, c.new) for c in logged if c.kind == "numbered"] == [
            ("numbered", None, "ACBL J123456")
        ]


def test_a_viewer_cannot_give_a_number(client: FlaskClient, app: Flask) -> None:
    keeper = Keeper(client)
    circle_id = keeper.start(people="Anne").rsplit("/", 1)[1]
    anne = person_id(app, circle_id, "Anne")
    token = TOKEN.search(text(client.get(keeper.url)))
    assert token
    stranger = app.test_client()
    response = stranger.post(
        f"{keeper.url}/people/{anne}/federation",
        data={"csrf_token": token.group(1), "federation": "EBU", "number": "1"},
    )
    assert response.status_code in (400, 403)
    assert numbers_of(app, circle_id)["Anne"] == (None, None)


def test_the_circles_file_keeps_the_numbers_and_refuses_one_of_the_wrong_form(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    circle_id = keeper.start(people="Anne\nBruno").rsplit("/", 1)[1]
    anne = person_id(app, circle_id, "Anne")
    given = keeper.post(f"/people/{anne}/federation", federation="FFB", number=licence("2094"))
    assert given.status_code == 302
    document = json.loads(client.get(f"{keeper.url}/circle.json").data)
    page = text(client.get("/circle/import"))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce

    def imported(document: dict) -> tuple[int, str]:
        response = upload(client, "/circle/import", json.dumps(document).encode(), "c.json")
        return response.status_code, response.headers.get("Location", html.unescape(text(response)))

    status, where = imported(document)
    assert status == 302, where
    assert numbers_of(app, where.rsplit("/", 1)[1]) == numbers_of(app, circle_id)
    for person in document["people"]:
        if person["name"] == "Anne":
            person["federation_number"] = (
                person["federation_number"][:-1]
                + "0" * (person["federation_number"][-1] != "0")
                + "1" * (person["federation_number"][-1] == "0")
            )
    status, page = imported(document)
    assert status != 302
    assert "federation number is not of its federation's form" in page


def test_a_sessions_usebio_writes_each_members_number_and_a_file_read_keeps_them(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    circle_id = keeper.start(people="Anne\nBruno\nChloé\nDenis").rsplit("/", 1)[1]
    given = {"Anne": licence("49071"), "Bruno": licence("209411"), "Chloé": licence("7")}
    for name, number in given.items():
        person = person_id(app, circle_id, name)
        given_now = keeper.post(f"/people/{person}/federation", federation="FFB", number=number)
        assert given_now.status_code == 302
    denis = person_id(app, circle_id, "Denis")
    number_given = keeper.post(f"/people/{denis}/federation", federation="EBU", number="31886")
    assert number_given.status_code == 302
    with app.app_context():  # Denis chose his initials: his number would name him
        hidden = db.session.get(Person, denis)
        assert hidden is not None
        hidden.shows_name = False
        db.session.commit()
    page = text(client.get(f"/club/new?circle={circle_id}"))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data = {"csrf_token": token.group(1), "nonce": nonce.group(1), "circle": circle_id, **SMALL}
    response = client.post("/club/new", data=data)
    assert response.status_code == 302, text(response)
    club = Club(client)
    club.url = response.headers["Location"]
    club.tables = {
        int(number): link for link, number in TABLE_LINK.findall(text(client.get(club.url)))
    }
    names = {"names-0": "Anne – Bruno", "names-1": "Chloé & Denis", "names-2": "Zoé – Yann"}
    assert director_post(client, f"{club.url}/pairs", **names).status_code == 302
    play_whole_session(club, 3, seed=5)
    written = client.get(f"{club.url}/session.xml").data
    assert usebio_numbers(written) == Counter(
        {(given["Anne"], given["Bruno"]): 1, (given["Chloé"], ""): 1}
    )

    assert b"31886" not in written

    # A results file from another program: its numbers kept, and written again.
    url = import_results(client, HOWELL, "tuesday.xml")
    assert usebio_numbers(client.get(f"{url}/session.xml").data) == usebio_numbers(HOWELL)
    assert sum(usebio_numbers(HOWELL).values()) >= 6
    response = upload(client, "/import", client.get(f"{url}/game.json").data, "s.json")
    assert response.status_code == 302, text(response)
    copy = response.headers["Location"]
    assert usebio_numbers(client.get(f"{copy}/session.xml").data) == usebio_numbers(HOWELL)
    assert stored(app, copy).pairs[0].first_number
    assert page_of(client, copy)

    # A pair renamed is other players: the file's numbers were the old names' alone.
    pairs = stored(app, copy).pairs
    renamed = {f"names-{i}": pair.names for i, pair in enumerate(pairs)}
    renamed["names-0"] = "Someone – Else"
    assert director_post(client, f"{copy}/pairs", **renamed).status_code == 302
    after = stored(app, copy).pairs
    assert (after[0].first_number, after[0].second_number) == (None, None)
    kept = [(p.first_number, p.second_number) for p in after[1:]]
    assert kept == [(p.first_number, p.second_number) for p in pairs[1:]]
    assert usebio_numbers(client.get(f"{copy}/session.xml").data) == usebio_numbers(HOWELL) - (
        Counter({(pairs[0].first_number or "", pairs[0].second_number or ""): 1})
    )


def test_a_rename_is_undone_past_a_later_number_and_a_merge_keeps_the_number(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    circle_id = keeper.start(people="Anne\nBruno\nAnnie").rsplit("/", 1)[1]
    anne, annie = person_id(app, circle_id, "Anne"), person_id(app, circle_id, "Annie")
    assert keeper.post(f"/people/{anne}/name", name="Anne Martin").status_code == 302
    assert (
        keeper.post(f"/people/{anne}/federation", federation="EBU", number="31886").status_code
        == 302
    )
    with app.app_context():
        renamed = db.session.scalars(
            db.select(CircleChange).where(CircleChange.kind == "renamed")
        ).one()
        rename_id = renamed.id
    # The number touches no name: the rename is taken back, the number kept.
    assert keeper.post("/undo", drawn_from=str(rename_id)).status_code == 302
    assert numbers_of(app, circle_id)["Anne"] == ("EBU", "31886")
    # Annie was Anne all along: merged into a person with no number, hers goes with her.
    assert (
        keeper.post(f"/people/{annie}/federation", federation="EBU", number="4").status_code == 302
    )
    assert keeper.post(f"/people/{anne}/federation", federation="", number="").status_code == 302
    assert keeper.post("/merge", kept=anne, merged=annie).status_code == 302
    assert numbers_of(app, circle_id)["Anne"] == ("EBU", "4")
    assert "Anne's federation number: EBU 4" in keeper.page()
