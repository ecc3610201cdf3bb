"""One person across circles: a place offered by a circle's keeper (its own link), taken with
the person's own link from another circle, given back; a circle left, shown as the person
chose on every public page there, and come back to."""

from __future__ import annotations

import html
import io
import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.circles import person_pages
from scorekeeper.circles.models import CircleChange, Person
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from tests.web.table import NONCE, TOKEN, text
from tests.web.test_circles import Keeper, finished_game, person_page
from tests.web.test_club import (
    SMALL,
    TABLE_LINK,
    Club,
    director_post,
    play_whole_session,
    session_form,
)


def own_link(keeper: Keeper, client: FlaskClient, name: str) -> str:
    """The own link the circle's keeper gives ``name``."""
    return next(
        link for link in keeper.person_links() if f"<h1>{name}</h1>" in person_page(client, link)
    )


def club_session(client: FlaskClient, app: Flask, circle_id: str, pairs: dict[str, str]) -> Club:
    """A whole club session of the circle, its pairs so named, closed."""
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
    assert director_post(client, f"{club.url}/pairs", **pairs).status_code == 302
    play_whole_session(club, 3, seed=7)
    client.post(f"{club.url}/close", data=session_form(client, club.url, "close"))
    return club


def posted(phone: FlaskClient, page: str, action: str, **fields: str) -> str:
    """A form of the person's page sent by their phone: the page it leads to, as shown."""
    return html.unescape(text(phone.get(sent_to(phone, page, action, **fields))))


def sent_to(phone: FlaskClient, page: str, action: str, **fields: str) -> str:
    """A form of the person's page sent by their phone: where it leads."""
    token = TOKEN.search(text(phone.get(page)))
    assert token
    response = phone.post(f"{page}/{action}", data={"csrf_token": token.group(1), **fields})
    assert response.status_code == 302, text(response)
    return str(response.headers["Location"])


def place_id(app: Flask, circle_id: str, name: str) -> int:
    with app.app_context():
        found = db.session.scalar(
            db.select(Person).where(Person.circle_id == circle_id, Person.name == name)
        )
        assert found is not None
        return found.id


@pytest.fixture
def two_circles(client: FlaskClient, app: Flask) -> tuple[Keeper, Keeper, Club, str]:
    """A family circle with an Ascenseur game of Anne's, and a club whose session she played
    with Bruno: the family keeper, the club's, the session, and the game's id."""
    family = Keeper(app.test_client())
    family_id = family.start(name="Les Martin", people="Anne\nPaul\nLéa").rsplit("/", 1)[1]
    game = finished_game(app, family_id, ["Anne", "Paul", "Léa"], seed=3)
    club_keeper = Keeper(client)
    club_id = club_keeper.start(name="Bridge Club", people="Anne Martin\nBruno\nChloé\nDenis")
    pairs = {"names-0": "Anne Martin – Bruno", "names-1": "Chloé & Denis", "names-2": "Zoé – Yann"}
    club = club_session(client, app, club_id.rsplit("/", 1)[1], pairs)
    return family, club_keeper, club, game


def test_a_place_taken_with_ones_own_link_puts_both_circles_on_one_page(
    client: FlaskClient, app: Flask, two_circles: tuple[Keeper, Keeper, Club, str]
) -> None:
    family, club_keeper, club, game = two_circles
    anne = app.test_client()  # Anne's own phone
    home = own_link(family, family.client, "Anne")
    offer = own_link(club_keeper, client, "Anne Martin")
    before = html.unescape(text(anne.get(home)))
    assert "Bridge Club" not in before and club.session(app).id not in before

    # A link that is nobody's, or the circle's own, is told in the page, what was typed kept.
    token = TOKEN.search(text(anne.get(offer)))
    assert token
    for pasted, said in [
        ("https://example.org/circle/person/nobodysownlink", "This is no person's own link"),
        (offer, "This is a link of this circle"),
    ]:
        refused = anne.post(
            f"{offer}/take-place", data={"csrf_token": token.group(1), "link": pasted}
        )
        assert refused.status_code == 422
        page = html.unescape(text(refused))
        assert said in page and f'value="{pasted}"' in page

    old_home = home
    drawn = text(anne.get(offer))
    nonce = NONCE.search(drawn)
    assert nonce
    take = {"csrf_token": token.group(1), "nonce": nonce.group(1), "link": home}
    taken = anne.post(f"{offer}/take-place", data=take)
    assert taken.status_code == 302
    home = str(taken.headers["Location"])
    page = html.unescape(text(anne.get(home)))
    assert "Your page now shows Bridge Club too. Its link is new" in page
    # Sent twice (a double tap, the page's script off), when both links are new already: the
    # second goes where the first went, and takes nothing more.
    again = anne.post(f"{offer}/take-place", data=take)
    assert (again.status_code, again.headers["Location"]) == (303, home)
    said = html.unescape(text(anne.get(home)))
    assert "This had arrived already" in said and "Its link is new: keep this one" in said
    # Sent from another browser (the keeper's, with the same form), or from a page drawn
    # before: the page says what becomes of such links, and not where the new one is.
    keepers = TOKEN.search(club_keeper.page())
    assert keepers
    for phone, fields in (
        (client, {**take, "csrf_token": keepers.group(1)}),
        (anne, {**take, "nonce": "0" * 32}),
    ):
        refused = phone.post(f"{offer}/take-place", data=fields)
        said = html.unescape(text(refused))
        assert refused.status_code == 404, said
        assert "A person's link is new once their page holds another circle" in said
        assert home not in said
    # Her page's link was the family keeper's to see: it is new, and hers alone.
    assert home != old_home and anne.get(old_home).status_code == 404
    assert home not in family.page() and old_home not in family.page()
    assert "Anne's place is on their own page from another circle" in family.page()
    assert "Les Martin" in page and "Bridge Club" in page
    assert game in page and club.session(app).id in page  # her Ascenseur game and her session
    assert "At the club" in page and "Known there as Anne Martin." in page
    # The offer's link opens nothing now; the club's keeper sees no link of hers.
    assert anne.get(offer).status_code == 404
    keeper_page = club_keeper.page()
    assert offer not in keeper_page
    assert "Anne Martin's place is on their own page from another circle" in keeper_page
    assert "Anne Martin's place taken with their own page from another circle" in keeper_page
    # Each circle still sees only its own.
    assert "Bridge Club" not in family.page() and club.session(app).id not in family.page()
    assert "Les Martin" not in keeper_page and game not in keeper_page
    # Her history holds both circles.
    document = json.loads(anne.get(f"{home}/history.json").data)
    assert document["circle"] == "Les Martin"
    assert [other["circle"] for other in document["elsewhere"]] == ["Bridge Club"]
    club_history = document["elsewhere"][0]
    assert len(club_history["games"]) == 1 and "club" in club_history["figures"]
    assert len(document["games"]) == 1 and "ascenseur" in document["figures"]

    # Taking the club off her page gives the place back, with a new link for the keeper.
    club_place = place_id(app, club.session(app).circle_id or "", "Anne Martin")
    page = posted(anne, home, "give-back", place=str(club_place))
    assert "Your place in Bridge Club is given back." in page
    assert "Bridge Club" not in page.split("<main", 1)[-1].split("Your place in", 1)[0]
    assert club.session(app).id not in page
    new_offer = own_link(club_keeper, client, "Anne Martin")
    assert new_offer != offer
    assert "Anne Martin's place given back" in club_keeper.page()
    # Her own place cannot be given back: it is her page.
    family_place = place_id(app, family.url.rsplit("/", 1)[1], "Anne")
    page = posted(anne, home, "give-back", place=str(family_place))
    assert "This place is your own: leave its circle instead." in page


def test_a_double_tap_on_taking_a_place_leads_to_the_new_link_though_both_ran_at_once(
    client: FlaskClient,
    app: Flask,
    two_circles: tuple[Keeper, Keeper, Club, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    family, club_keeper, _club, _game = two_circles
    anne = app.test_client()
    home = own_link(family, family.client, "Anne")
    offer = own_link(club_keeper, client, "Anne Martin")
    drawn = text(anne.get(offer))
    token, nonce = TOKEN.search(drawn), NONCE.search(drawn)
    assert token and nonce
    take = {"csrf_token": token.group(1), "nonce": nonce.group(1), "link": home}
    # The second tap's request reaches the circles' lock while the first is being saved: the
    # first is saved, and the second reads both links renewed.
    first: list[str] = []
    holding = person_pages.hold

    def first_tap_saved_meanwhile(circle):  # type: ignore[no-untyped-def]
        if not first:
            first.append("")  # the first tap's own request holds the circles as it comes
            answer = anne.post(f"{offer}/take-place", data=take)
            first[0] = f"{answer.status_code} {answer.headers.get('Location')}"
        return holding(circle)

    monkeypatch.setattr(person_pages, "hold", first_tap_saved_meanwhile)
    second = anne.post(f"{offer}/take-place", data=take)
    status, new_home = first[0].split(" ")
    assert status == "302" and new_home != home
    assert (second.status_code, second.headers.get("Location")) == (303, new_home)
    page = html.unescape(text(anne.get(new_home)))
    assert "Its link is new: keep this one" in page and "Bridge Club" in page


def test_another_persons_place_is_not_reached_by_ones_own_link(
    client: FlaskClient, app: Flask, two_circles: tuple[Keeper, Keeper, Club, str]
) -> None:
    family, _club_keeper, club, _game = two_circles
    anne = app.test_client()
    home = own_link(family, family.client, "Anne")
    bruno = place_id(app, club.session(app).circle_id or "", "Bruno")
    token = TOKEN.search(text(anne.get(home)))
    assert token
    for action in ("leave", "give-back", "come-back", "name-shown"):
        data = {
            "csrf_token": token.group(1),
            "place": str(bruno),
            "left_as": "former",
            "shows": "no",
        }
        assert anne.post(f"{home}/{action}", data=data).status_code == 404, action
    for bad in ("x", "-1", "99999999", "²", "9" * 5000, "1\x00"):
        data = {"csrf_token": token.group(1), "place": bad, "left_as": "former"}
        assert anne.post(f"{home}/leave", data=data).status_code == 404, bad
    with app.app_context():
        assert all(p.left_as is None for p in db.session.scalars(db.select(Person)))
    refused = anne.post(f"{home}/leave", data={"csrf_token": token.group(1), "left_as": "gone"})
    assert refused.status_code == 302
    assert "Choose how the circle's pages show you" in html.unescape(text(anne.get(home)))


@pytest.mark.parametrize(("way", "shown"), [("former", "A former member"), ("initials", "A. M.")])
def test_a_person_who_leaves_is_shown_as_they_chose_on_every_public_page(
    client: FlaskClient,
    app: Flask,
    two_circles: tuple[Keeper, Keeper, Club, str],
    way: str,
    shown: str,
) -> None:
    _family, club_keeper, club, _game = two_circles
    anne = app.test_client()
    offer = own_link(club_keeper, client, "Anne Martin")
    page = posted(anne, offer, "leave", left_as=way)
    assert f"You left this circle. Its pages show you as: {shown}" in page
    viewer = app.test_client()
    circle_url = club_keeper.url
    public = [
        circle_url,
        f"{circle_url}?league=club&since=2000-01-01",
        club.url,
        f"{club.url}/ranking",
        f"{club.url}/travellers",
        f"{club.url}/session.xml",
        f"{club.url}/session.pbn",
        *club.tables.values(),
    ]
    for address in public:
        answer = viewer.get(address)
        assert answer.status_code == 200, address
        body = html.unescape(answer.get_data(as_text=True))
        assert "Anne Martin" not in body, address
    assert shown in html.unescape(text(viewer.get(circle_url)))
    assert shown in html.unescape(text(viewer.get(f"{club.url}/ranking")))
    # The keeper sees who left, and the log says so.
    keeper_page = club_keeper.page()
    assert f"left the circle, shown as {shown}" in keeper_page
    with app.app_context():
        kinds = [c.kind for c in db.session.scalars(db.select(CircleChange))]
        assert "left" in kinds
    # She comes back: her name again.
    page = posted(anne, offer, "come-back", place="")
    assert "You are back in Bridge Club." in page
    assert "Anne Martin" in html.unescape(text(viewer.get(f"{club.url}/ranking")))
    assert re.search("came back to the circle", club_keeper.page())


def test_a_person_who_left_or_two_places_from_elsewhere_are_not_merged(
    client: FlaskClient, app: Flask, two_circles: tuple[Keeper, Keeper, Club, str]
) -> None:
    family, club_keeper, club, _game = two_circles
    circle_id = club.session(app).circle_id or ""
    anne = app.test_client()
    posted(anne, own_link(club_keeper, client, "Anne Martin"), "leave", left_as="initials")
    chloe = place_id(app, circle_id, "Chloé")
    anne_martin = place_id(app, circle_id, "Anne Martin")
    refused = club_keeper.post("/merge", kept=chloe, merged=anne_martin)
    assert refused.status_code == 422
    assert "Anne Martin left the circle: they cannot be merged." in html.unescape(text(refused))
    # Two people of the family each take a place in the club: never merged into one.
    posted(anne, own_link(club_keeper, client, "Anne Martin"), "come-back", place="")
    paul = app.test_client()
    page = posted(anne, own_link(club_keeper, client, "Anne Martin"), "take-place",
                  link=own_link(family, family.client, "Anne"))  # fmt: skip
    assert "Your page now shows Bridge Club too." in page
    # The keeper cannot merge a member into her place, to reach her page by their link.
    eve = place_id(app, circle_id, "Chloé")
    refused = club_keeper.post("/merge", kept=anne_martin, merged=eve)
    assert refused.status_code == 422
    posted(paul, own_link(club_keeper, client, "Denis"), "take-place",
           link=own_link(family, family.client, "Paul"))  # fmt: skip
    denis = place_id(app, circle_id, "Denis")
    refused = club_keeper.post("/merge", kept=denis, merged=anne_martin)
    assert refused.status_code == 422
    assert "one of them has their own page across circles" in html.unescape(text(refused))


def test_a_circle_read_back_elsewhere_shows_who_left_as_they_chose(
    client: FlaskClient, app: Flask, two_circles: tuple[Keeper, Keeper, Club, str]
) -> None:
    _family, club_keeper, _club, _game = two_circles
    anne = app.test_client()
    posted(anne, own_link(club_keeper, client, "Anne Martin"), "leave", left_as="former")
    document = client.get(club_keeper.url + "/circle.json").data
    assert json.loads(document)["people"][0]["left_as"] == "former"
    other = app.test_client()
    page = text(other.get("/circle/import"))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data = {
        "csrf_token": token.group(1),
        "nonce": nonce.group(1),
        "file": (io.BytesIO(document), "circle.json"),
    }
    # A file whose places do not fit its game's players is refused, with why.
    tampered = json.loads(document)
    club_games = [entry for entry in tampered["games"] if entry["places"]]
    assert club_games
    club_games[0]["places"].append(None)
    bad = {**data, "file": (io.BytesIO(json.dumps(tampered).encode()), "circle.json")}
    refused = other.post("/circle/import", data=bad, content_type="multipart/form-data")
    assert refused.status_code == 422
    assert "its places and players differ" in html.unescape(text(refused))
    club_games[0]["places"][:] = [99999] * (len(club_games[0]["places"]) - 1)
    bad = {**data, "file": (io.BytesIO(json.dumps(tampered).encode()), "circle.json")}
    refused = other.post("/circle/import", data=bad, content_type="multipart/form-data")
    assert refused.status_code == 422
    assert "names nobody of the circle" in html.unescape(text(refused))

    response = other.post("/circle/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 302, text(response)
    copy = response.headers["Location"]
    viewer = app.test_client()
    public = html.unescape(text(viewer.get(copy)))
    assert "Anne Martin" not in public and "A former member" in public
    assert "left the circle, shown as A former member" in html.unescape(text(other.get(copy)))
    with app.app_context():
        games = [
            f"/club/{game.id}"
            for game in db.session.scalars(
                db.select(Game).where(Game.circle_id == copy.rsplit("/", 1)[1])
            )
        ]
    assert games
    for game in games:
        assert "Anne Martin" not in html.unescape(text(viewer.get(f"{game}/ranking")))
