"""A game started from a circle's link on a phone that does not keep the circle: its setup page
says, before it starts, that it is played outside the circle; a keeper of the circle adds it
afterwards with the game's scorer link (pasted, or opened on the keeper's phone), choosing the
person each of its names is, logged and undone like any change; nobody adds a game without its
scorer's rights, nor one already in a circle."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.circles.models import Circle, CircleChange, Person
from scorekeeper.extensions import db
from scorekeeper.games.models import Game, Player
from tests.games import play_out
from tests.web.crawler import as_drawn, forms_of
from tests.web.table import Table, text
from tests.web.test_circles import KEEP_LINK, Keeper, league_names, setup_defaults


def person_name(player: Player) -> str | None:
    """The name of the circle's person a seat names, if any."""
    if player.person_id is None:
        return None
    person = db.session.get(Person, player.person_id)
    return person.name if person is not None else None


SCORER_LINK = re.compile(r'value="https?://[^/"]+(/[a-z]+/[A-Za-z0-9_-]+/score/[A-Za-z0-9_-]+)"')
STARTS = [
    "/ascenseur/new/ascenseur",
    "/bridge/new",
    "/teams/new",
    "/echelons/new",
    "/club/new",
]


def circle_and_a_phone(client: FlaskClient, app: Flask) -> tuple[Keeper, FlaskClient, str]:
    """A circle kept by ``client``; another phone, which has its address but does not keep it;
    the circle's id."""
    keeper = Keeper(client)
    keeper.start(people="Anne\nBruno\nChloé")
    return keeper, app.test_client(), keeper.url.rsplit("/", 1)[1]


@pytest.mark.parametrize("start", STARTS)
def test_a_game_from_the_circle_s_link_on_a_phone_not_keeping_it_says_so_before_it_starts(
    client: FlaskClient, app: Flask, start: str
) -> None:
    _keeper, phone, circle_id = circle_and_a_phone(client, app)
    setup = html.unescape(text(phone.get(f"{start}?circle={circle_id}")))
    assert "This phone does not keep Les Martin: this game will be played outside it" in setup
    assert "a keeper of the circle can add it afterwards with the game's scorer link" in setup
    assert "This game joins the history of Les Martin" not in setup
    # On the phone that keeps it, the game joins the circle, and nothing says otherwise.
    kept = html.unescape(text(client.get(f"{start}?circle={circle_id}")))
    assert "This game joins the history of Les Martin" in kept and "does not keep" not in kept


def test_the_note_stays_through_the_setup_s_steps_and_the_game_is_played_outside(
    client: FlaskClient, app: Flask
) -> None:
    _keeper, phone, circle_id = circle_and_a_phone(client, app)
    table = Table(phone)
    page = html.unescape(text(phone.get(f"/ascenseur/new/ascenseur?circle={circle_id}")))
    (form,) = forms_of(page)
    more = phone.post("/ascenseur/new/ascenseur", data={**as_drawn(form), "action": "add"})
    assert more.status_code == 200
    page = html.unescape(text(more))
    assert "This phone does not keep Les Martin" in page
    (form,) = forms_of(page)
    rows = [name for name in form.fields if name.startswith("players-")]
    names = {row: f"Player {number}" for number, row in enumerate(rows)}
    data = {**setup_defaults(), **as_drawn(form), **names, "action": "start"}
    started = phone.post("/ascenseur/new/ascenseur", data=data)
    assert started.status_code == 302, text(started)
    table.game_url = started.headers["Location"]
    with app.app_context():
        game = db.session.get(Game, table.game_url.rsplit("/", 1)[1])
        assert game is not None and game.circle_id is None


def outside_game(app: Flask, phone: FlaskClient, names: tuple[str, ...]) -> tuple[str, str]:
    """A whole Ascenseur game started and played on ``phone``, in no circle: its address and
    its scorer link."""
    table = Table(phone)
    table.start("ascenseur", names)
    from scorekeeper.rules.ascenseur import PRESETS

    for number, entry in enumerate(play_out(PRESETS["ascenseur"], len(names), 0, 7), 1):
        assert table.bids(number, entry.bids).status_code == 302
        assert table.tricks(number, entry.tricks).status_code == 302
    link = SCORER_LINK.search(text(phone.get(table.game_url)))
    assert link
    return table.game_url, link.group(1)


SELECTED = re.compile(
    r'<select id="([^"]+)" name="[^"]+">.*?<option selected value="([^"]*)"', re.DOTALL
)


def as_chosen(page: str, action: str) -> tuple[str, dict[str, str]]:
    """The one form of ``page`` sent to an address ending in ``action``: where it is sent, and
    its fields as drawn, each list at the choice it was drawn with."""
    (form,) = [form for form in forms_of(page) if form.action.endswith(action)]
    return form.action, {**as_drawn(form), **dict(SELECTED.findall(page))}


def paste(keeper: Keeper, link: str) -> tuple[int, str]:
    """The keeper pastes ``link`` in the circle's page: the answer's status, and the page it
    leads to."""
    response = keeper.post("/add", link=link)
    status = response.status_code
    while response.status_code == 302:
        response = keeper.client.get(response.headers["Location"])
    return status, html.unescape(text(response))


def test_a_keeper_adds_a_game_played_outside_with_its_scorer_link_and_undo_takes_it_out(
    client: FlaskClient, app: Flask
) -> None:
    keeper, phone, circle_id = circle_and_a_phone(client, app)
    game_url, scorer_link = outside_game(app, phone, ("anne", "Bruno", "Zoé"))
    game_id = game_url.rsplit("/", 1)[1]
    # The keeper's phone does not score the game: it is not offered, and cannot be added.
    page = keeper.page()
    assert "Add a game played outside the circle" in page and game_id not in page
    assert client.get(f"{keeper.url}/add/{game_id}").status_code == 403
    # The game's address is not its scorer link, nor is a mistyped one.
    status, shown = paste(keeper, "http://192.168.1.20:8000" + game_url)
    assert status == 422 and "This is not a game's scorer link" in shown
    assert f'value="http://192.168.1.20:8000{game_url}"' in shown  # what was pasted stays
    status, shown = paste(keeper, scorer_link[:-2] + "zz")
    assert status == 422 and "This scorer link is not the game's" in shown
    # Its scorer link, from whatever address, gives the seats to choose.
    status, shown = paste(keeper, "https://scores.example.org" + scorer_link)
    assert status == 302 and "Add a game to Les Martin" in shown
    chosen = dict(re.findall(r'<option selected value="([^"]+)">([^<]+)</option>', shown))
    assert set(chosen.values()) == {"Anne", "Bruno", "A new person: Zoé"}
    assert "anne" in shown and "Zoé" in shown
    add, chosen = as_chosen(shown, f"/add/{game_id}")
    response = client.post(add, data=chosen)
    assert response.status_code == 302
    page = keeper.page()
    assert "is in the circle's history. Joining the circle with it: Zoé." in page
    assert sorted(league_names(page)) == ["Anne", "Bruno", "Zoé"]
    assert "played outside the circle, added to it" in page
    assert "Zoé joined the circle with the game of" in page
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and game.circle_id == circle_id
        seated = [(p.name, person_name(p)) for p in game.players]
        assert seated == [("anne", "Anne"), ("Bruno", "Bruno"), ("Zoé", "Zoé")]
    # Sent again (another phone, or a second tap), it is in already.
    again = client.post(add, data=chosen, follow_redirects=True)
    assert "is in the circle's history." in html.unescape(text(again))
    with app.app_context():
        assert db.session.query(CircleChange).filter_by(kind="added").count() == 1
    # Undo takes it out again, and Zoé, who came with it alone.
    assert keeper.post("/undo").status_code == 302
    page = keeper.page()
    assert "is no longer in the circle." in page
    assert "No finished game is in the circle's history yet" in page
    with app.app_context():
        game = db.session.get(Game, game_id)
        circle = db.session.get(Circle, circle_id)
        assert game is not None and circle is not None and game.circle_id is None
        assert all(player.person_id is None for player in game.players)
        assert [person.name for person in circle.current_people] == ["Anne", "Bruno", "Chloé"]
    assert page.count("(undone)") == 2  # the game's addition, and Zoé's joining


def test_the_keeper_chooses_who_each_name_is(client: FlaskClient, app: Flask) -> None:
    keeper, phone, _circle_id = circle_and_a_phone(client, app)
    game_url, scorer_link = outside_game(app, phone, ("Annie", "Bruno", "Zoé"))
    game_id = game_url.rsplit("/", 1)[1]
    # Opened on the keeper's phone, the scorer link offers the game with one tap.
    assert client.get(scorer_link).status_code == 302
    page = keeper.page()
    add = f"{keeper.url}/add/{game_id}"
    assert f'href="{add}"' in page
    head = client.head(add)  # a link preview's or a prefetch's: answered as the page, no form
    assert (head.status_code, head.data) == (200, b"")
    shown = html.unescape(text(client.get(add)))
    assert "This form has expired" not in shown
    (form,) = [f for f in forms_of(shown) if f.action == add]
    assert form.fields["seats-0"][-1] == "new"  # Annie may be a new person, or anyone
    chosen = as_chosen(shown, add)[1]
    options = re.findall(r'<option (?:selected )?value="(\d+)">([^<]+)</option>', shown)
    people = {name: value for value, name in options}
    anne, bruno = people["Anne"], people["Bruno"]
    # Two names for one person are refused, every choice kept.
    refused = client.post(add, data={**chosen, "seats-0": bruno})
    assert refused.status_code == 422
    said = html.unescape(text(refused))
    assert "Annie and Bruno are one person of the circle (Bruno): seat each person once." in said
    assert f'<option selected value="{bruno}">Bruno</option>' in said
    # Annie is Anne.
    assert client.post(add, data={**chosen, "seats-0": anne}).status_code == 302
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        assert [person_name(p) for p in game.players] == [
            "Anne",
            "Bruno",
            "Zoé",
        ]


def test_nobody_adds_a_game_without_its_scorer_rights_nor_one_in_a_circle(
    client: FlaskClient, app: Flask
) -> None:
    keeper, phone, circle_id = circle_and_a_phone(client, app)
    game_url, scorer_link = outside_game(app, phone, ("Anne", "Bruno"))
    game_id = game_url.rsplit("/", 1)[1]
    # The game's scorer, who does not keep the circle, cannot add it.
    page = text(phone.get(game_url))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token
    for path in ("/add", f"/add/{game_id}"):
        sent = {"csrf_token": token.group(1), "link": scorer_link, "seats-0": "new"}
        assert phone.post(keeper.url + path, data=sent).status_code == 403, path
    # A keeper who opened the scorer link adds it; a second circle's keeper then cannot.
    assert paste(keeper, scorer_link)[0] == 302
    shown = html.unescape(text(client.get(f"{keeper.url}/add/{game_id}")))
    add, chosen = as_chosen(shown, f"/add/{game_id}")
    assert client.post(add, data=chosen).status_code == 302
    other = Keeper(app.test_client())
    other.start(name="Le pub", people="Anne")
    status, said = paste(other, scorer_link)
    assert status == 422
    assert "This game is in another circle's history: a game is in one circle at most." in said
    assert other.client.get(f"{other.url}/add/{game_id}").status_code == 403
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and game.circle_id == circle_id


def test_a_club_session_played_outside_is_added_with_each_pair_s_players(
    client: FlaskClient, app: Flask
) -> None:
    from tests.web.test_club import SMALL, Club, director_post

    keeper, director, circle_id = circle_and_a_phone(client, app)
    club = Club(director)
    club.start(**SMALL)
    names = {"names-0": "Anne – Bruno", "names-1": "Chloé & Denis", "names-2": "Les Martin"}
    assert director_post(director, f"{club.url}/pairs", **names).status_code == 302
    link = SCORER_LINK.search(text(director.get(club.url)))
    assert link
    status, shown = paste(keeper, link.group(1))
    assert status == 302
    assert shown.count("<select") == 4  # two pairs of two players; "Les Martin" names nobody
    add, chosen = as_chosen(shown, "")
    assert client.post(add, data=chosen).status_code == 302
    session = club.session(app)
    with app.app_context():
        circle = db.session.get(Circle, circle_id)
        assert circle is not None
        assert [person.name for person in circle.current_people] == [
            "Anne",
            "Bruno",
            "Chloé",
            "Denis",
        ]
        pairs = {p.names: (p.first_person_id, p.second_person_id) for p in session.pairs}
        denis = circle.person_named("Denis")
        chloe = circle.person_named("Chloé")
        assert denis is not None and chloe is not None
        assert pairs["Chloé & Denis"] == (chloe.id, denis.id)
        assert pairs["Les Martin"] == (None, None)


def test_a_circle_s_file_keeps_a_game_added_to_it(client: FlaskClient, app: Flask) -> None:
    import io
    import json

    keeper, phone, _circle_id = circle_and_a_phone(client, app)
    game_url, scorer_link = outside_game(app, phone, ("Anne", "Zoé"))
    paste(keeper, scorer_link)
    shown = html.unescape(text(client.get(f"{keeper.url}/add/{game_url.rsplit('/', 1)[1]}")))
    add, chosen = as_chosen(shown, "")
    assert client.post(add, data=chosen).status_code == 302
    document = json.loads(client.get(f"{keeper.url}/circle.json").data)
    assert [change["kind"] for change in document["log"]] == ["added", "joined"]
    other = app.test_client()
    page = text(other.get("/circle/import"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    nonce = re.search(r'name="nonce" type="hidden" value="([^"]*)"', page)
    assert token and nonce
    response = other.post(
        "/circle/import",
        data={
            "csrf_token": token.group(1),
            "nonce": nonce.group(1),
            "file": (io.BytesIO(json.dumps(document).encode()), "circle.json"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, text(response)
    imported = html.unescape(text(other.get(response.headers["Location"])))
    assert "Zoé joined the circle with the game of" in imported
    assert sorted(league_names(imported)) == ["Anne", "Zoé"]
    assert KEEP_LINK.search(imported)
