"""Circles through their pages: a circle started, its links and their rights, a game started
in it seating its people, names or initials on its public pages, renames, merges, games taken
out of the history and undo, all logged; the circle's file read back on another server."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.circles.models import Circle, Person
from scorekeeper.extensions import db
from scorekeeper.games import writes
from scorekeeper.games.models import Game, Player
from scorekeeper.rules import ascenseur as rules
from tests.games import play_out, store_game
from tests.web.crawler import as_drawn, forms_of
from tests.web.table import NONCE, TOKEN, text


def person_name(player: Player) -> str | None:
    """The name of the circle's person a seat names, if any."""
    if player.person_id is None:
        return None
    person = db.session.get(Person, player.person_id)
    return person.name if person is not None else None


KEEP_LINK = re.compile(r'value="[^"]*(/circle/[A-Za-z0-9_-]+/keep/[A-Za-z0-9_-]+)"')
PERSON_LINK = re.compile(r'value="[^"]*(/circle/person/[A-Za-z0-9_-]+)"')


class Keeper:
    """A phone that keeps a circle, through the circle's forms as drawn."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.url = ""

    def start(self, name: str = "Les Martin", people: str = "Anne\nBruno\nChloé") -> str:
        page = text(self.client.get("/circle/new"))
        token, nonce = TOKEN.search(page), NONCE.search(page)
        assert token and nonce
        data = {"csrf_token": token.group(1), "nonce": nonce.group(1)}
        response = self.client.post("/circle/new", data={**data, "name": name, "people": people})
        assert response.status_code == 302, text(response)
        self.url = response.headers["Location"]
        return self.url

    def form(self, path: str = "/people") -> dict[str, str]:
        """The fields of the page's form sent to ``path`` (under the circle's address), as
        drawn; for a path no form of the page is sent to, the token alone."""
        page = text(self.client.get(self.url))
        token = TOKEN.search(page)
        assert token, page
        action = self.url + path
        drawn = [form for form in forms_of(page) if form.action.split("#")[0] == action]
        return {"csrf_token": token.group(1), **(as_drawn(drawn[0]) if drawn else {})}

    def post(self, path: str, **fields: Any) -> Any:
        return self.client.post(self.url + path, data={**self.form(path), **fields})

    def page(self) -> str:
        return html.unescape(text(self.client.get(self.url)))

    def circle(self, app: Flask) -> Circle:
        circle = db.session.get(Circle, self.url.rsplit("/", 1)[1])
        assert circle is not None
        return circle

    def person_links(self) -> list[str]:
        return PERSON_LINK.findall(text(self.client.get(self.url)))


def person_id(app: Flask, circle_id: str, name: str) -> int:
    with app.app_context():
        circle = db.session.get(Circle, circle_id)
        assert circle is not None
        person = circle.person_named(name)
        assert person is not None
        return person.id


def test_a_new_circle_with_one_person_twice_is_refused_and_keeps_what_was_typed(
    client: FlaskClient,
) -> None:
    page = text(client.get("/circle/new"))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data = {"csrf_token": token.group(1), "nonce": nonce.group(1), "name": "Le pub"}
    response = client.post("/circle/new", data={**data, "people": "Anne\n anne \nBruno"})
    assert response.status_code == 422
    shown = html.unescape(text(response))
    assert "Anne and anne are one person." in shown
    assert "Anne\n anne \nBruno" in shown and 'value="Le pub"' in shown
    response = client.post("/circle/new", data={**data, "name": "", "people": "Anne"})
    assert response.status_code == 422 and "Name the circle." in text(response)


def test_a_circle_sent_twice_is_one_circle(client: FlaskClient, app: Flask) -> None:
    page = text(client.get("/circle/new"))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data = {"csrf_token": token.group(1), "nonce": nonce.group(1), "name": "Le pub"}
    first = client.post("/circle/new", data={**data, "people": "Anne"})
    second = client.post("/circle/new", data={**data, "people": "Anne"})
    assert first.headers["Location"] == second.headers["Location"]
    with app.app_context():
        assert db.session.query(Circle).count() == 1


def test_each_link_gives_its_rights_and_no_more(client: FlaskClient, app: Flask) -> None:
    keeper = Keeper(client)
    url = keeper.start()
    keeper_page = text(client.get(url))
    keep_link = KEEP_LINK.search(keeper_page)
    assert keep_link and "Start a game in the circle" in keeper_page
    person_link = keeper.person_links()[0]

    viewer = app.test_client()
    page = text(viewer.get(url))
    assert "Start a game in the circle" not in page and "/keep/" not in page
    assert "/circle/person/" not in page
    circle_id = url.rsplit("/", 1)[1]
    anne = person_id(app, circle_id, "Anne")
    # The viewer's own form token (from a page it has a form on), the circle as drawn.
    viewer_token = TOKEN.search(text(viewer.get("/circle/new")))
    assert viewer_token
    form = {**keeper.form(), "csrf_token": viewer_token.group(1)}
    for path, fields in [
        ("/people", {"name": "Zoé"}),
        (f"/people/{anne}/name", {"name": "Annie"}),
        ("/merge", {"kept": anne, "merged": anne + 1}),
        ("/undo", {}),
    ]:
        assert viewer.post(url + path, data={**form, **fields}).status_code == 403, path
    assert viewer.get(url + "/qr/keeper.svg").status_code == 403
    assert viewer.get(url + "/qr/viewer.svg").status_code == 200
    assert viewer.get(url + "/circle.json").status_code == 403
    assert viewer.get(f"/ascenseur/new/ascenseur?circle={circle_id}").status_code == 200
    setup = html.unescape(text(viewer.get(f"/ascenseur/new/ascenseur?circle={circle_id}")))
    assert 'name="circle" type="hidden" value=""' in setup
    assert "This phone does not keep Les Martin: this game will be played outside it" in setup
    # A person's link opens their page alone; a wrong one opens nothing.
    assert viewer.get(person_link).status_code == 200
    assert viewer.get(person_link[:-3] + "xyz").status_code == 404
    assert "Start a game in the circle" not in text(viewer.get(url))
    # The keeper link makes a phone a keeper.
    assert viewer.get(keep_link.group(1)).status_code == 302
    assert "Start a game in the circle" in text(viewer.get(url))
    assert viewer.get(keep_link.group(1)[:-2] + "zz").status_code == 403
    assert client.get("/circle/nothing-here").status_code == 404
    assert client.get("/circle/bad%20id").status_code == 404


def test_a_game_started_in_the_circle_seats_its_people(client: FlaskClient, app: Flask) -> None:
    keeper = Keeper(client)
    url = keeper.start()
    circle_id = url.rsplit("/", 1)[1]
    start = f"/ascenseur/new/ascenseur?circle={circle_id}"
    assert start in keeper.page().replace("&amp;", "&")
    page = html.unescape(text(client.get(start)))
    assert '<option value="Chloé">' in page and 'list="circle-people"' in page
    assert "This game joins the history of Les Martin" in page
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data = {
        "csrf_token": token.group(1),
        "nonce": nonce.group(1),
        "circle": circle_id,
        "players-0": "anne ",
        "players-1": "Bruno",
        "players-2": "Zoé",
        "first_dealer": "0",
        "action": "start",
        **{key: str(value) for key, value in setup_defaults().items()},
    }
    response = client.post("/ascenseur/new/ascenseur", data=data)
    assert response.status_code == 302, text(response)
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and game.circle_id == circle_id
        circle = db.session.get(Circle, circle_id)
        assert circle is not None
        seated = [(p.name, person_name(p)) for p in game.players]
        assert seated == [("anne", "Anne"), ("Bruno", "Bruno"), ("Zoé", "Zoé")]
        assert [person.name for person in circle.current_people] == [
            "Anne",
            "Bruno",
            "Chloé",
            "Zoé",
        ]
    # Another phone, not keeping the circle, cannot start a game in it.
    other = app.test_client()
    page = text(other.get("/ascenseur/new/ascenseur"))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data.update(csrf_token=token.group(1), nonce=nonce.group(1))
    refused = other.post("/ascenseur/new/ascenseur", data=data)
    assert refused.status_code == 422
    shown = html.unescape(text(refused))
    assert "This phone no longer keeps the circle" in shown
    assert 'value="Zoé"' in shown and 'name="circle" type="hidden" value=""' in shown
    with app.app_context():
        assert db.session.query(Game).filter(Game.circle_id == circle_id).count() == 1

    # Two seats naming one person of the circle are refused, every name typed kept.
    page = text(client.get(start))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data.update(csrf_token=token.group(1), nonce=nonce.group(1), **{"players-2": "ANNE"})
    response = client.post("/ascenseur/new/ascenseur", data=data)
    assert response.status_code == 422
    assert "anne and ANNE are one person of the circle (Anne)" in html.unescape(text(response))


def setup_defaults() -> dict[str, Any]:
    from scorekeeper.ascenseur.forms import SetupForm

    values = {}
    for key, value in SetupForm.defaults(rules.PRESETS["ascenseur"]).items():
        if isinstance(value, bool):
            if value:
                values[key] = "y"
        elif value is not None:
            values[key] = value
    return values


def finished_game(app: Flask, circle_id: str, names: list[str], seed: int) -> str:
    """A whole Ascenseur game of the circle, stored as the pages store one."""
    entries = play_out(rules.PRESETS["ascenseur"], len(names), 0, seed)
    game_id = store_game(app, "ascenseur", names, entries)
    with app.app_context():
        game = db.session.get(Game, game_id)
        circle = db.session.get(Circle, circle_id)
        assert game is not None and circle is not None
        game.circle_id = circle_id
        for player in game.players:
            person = circle.person_named(player.name)
            assert person is not None
            player.person_id = person.id
        db.session.commit()
    return game_id


def test_who_chose_initials_never_appears_by_name_on_the_public_pages(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    url = keeper.start(people="Anne Martin\nBruno\nChloé Dupont")
    circle_id = url.rsplit("/", 1)[1]
    finished_game(app, circle_id, ["Anne Martin", "Bruno", "Chloé Dupont"], seed=1)
    chloe_link = next(
        link
        for link in keeper.person_links()
        if "<h1>Chloé Dupont</h1>" in person_page(client, link)
    )
    phone = app.test_client()  # Chloé's own phone
    page = text(phone.get(chloe_link))
    token = TOKEN.search(page)
    assert token
    response = phone.post(
        chloe_link + "/name-shown", data={"csrf_token": token.group(1), "shows": "no"}
    )
    assert response.status_code == 302
    shown = html.unescape(text(phone.get(chloe_link)))
    assert "pages show you as: C. D." in shown, re.findall(r"show you as[^<]*|flash[^<]*<", shown)
    viewer = app.test_client()
    public = html.unescape(text(viewer.get(url)))
    assert "Chloé" not in public and "Dupont" not in public
    assert "C. D." in public and "Anne Martin" in public
    for league in ("ascenseur:ascenseur",):
        page = html.unescape(text(viewer.get(f"{url}?league={league}&since=2000-01-01")))
        assert "Chloé" not in page and "C. D." in page
    # Her choice is logged, and she can show her name again.
    assert "Chloé Dupont shows their initials" in keeper.page()
    phone.post(chloe_link + "/name-shown", data={"csrf_token": token.group(1), "shows": "yes"})
    assert "Chloé Dupont" in html.unescape(text(viewer.get(url)))


def person_page(client: FlaskClient, link: str) -> str:
    return html.unescape(text(client.get(link)))


def league_names(page: str) -> list[str]:
    body = page.split('class="league"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'<th scope="row">([^<]*)</th>', body)


def test_renames_merges_and_games_taken_out_are_logged_and_undone(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    url = keeper.start(people="Anne\nBruno\nChloé\nAnnie")
    circle_id = url.rsplit("/", 1)[1]
    first = finished_game(app, circle_id, ["Anne", "Bruno", "Chloé"], seed=2)
    finished_game(app, circle_id, ["Annie", "Bruno", "Chloé"], seed=3)
    anne, annie = (person_id(app, circle_id, name) for name in ("Anne", "Annie"))
    assert sorted(league_names(keeper.page())) == ["Anne", "Annie", "Bruno", "Chloé"]

    # Two people who sat at one game are two people.
    bruno = person_id(app, circle_id, "Bruno")
    refused = keeper.post("/merge", kept=anne, merged=bruno)
    assert refused.status_code == 422
    assert "Anne and Bruno played in the same game: they are two people." in html.unescape(
        text(refused)
    )
    assert keeper.post("/merge", kept=anne, merged=annie).status_code == 302
    page = keeper.page()
    assert "Annie and Anne are now one person." in page
    assert sorted(league_names(page)) == ["Anne", "Bruno", "Chloé"]
    assert "Annie merged into Anne" in page

    assert keeper.post(f"/people/{anne}/name", name="Anne-Marie").status_code == 302
    taken = keeper.post(f"/people/{bruno}/name", name="anne-marie")
    assert taken.status_code == 422
    assert 'value="anne-marie"' in text(taken)  # what was typed stays
    assert "already one of the circle" in html.unescape(text(taken))
    assert keeper.post(f"/games/{first}/out").status_code == 302
    page = keeper.page()
    assert "out of the history" in page
    with app.app_context():
        out = db.session.get(Game, first)
        assert out is not None and out.out_of_history

    # A form drawn before another phone's change to something else applies all the same.
    stale = keeper.form()
    keeper.post("/people", name="Denis")
    response = client.post(url + "/people", data={**stale, "name": "Emma"}, follow_redirects=True)
    assert "Emma joined the circle." in text(response)
    with app.app_context():
        circle = db.session.get(Circle, circle_id)
        assert circle is not None and circle.person_named("Emma") is not None

    # Undo takes back the last changes, one at a time, and the log keeps them.
    assert keeper.post("/undo").status_code == 302  # the game back in the history
    with app.app_context():
        back = db.session.get(Game, first)
        assert back is not None and not back.out_of_history
    keeper.post("/undo")  # Anne-Marie is Anne again
    keeper.post("/undo")  # Annie and Anne are two again
    page = keeper.page()
    assert sorted(league_names(page)) == ["Anne", "Annie", "Bruno", "Chloé"]
    assert page.count("(undone)") == 3
    response = keeper.post("/undo")
    assert "There is nothing to undo." in text(client.get(url))
    assert response.status_code == 302


def test_a_bad_period_or_league_is_told_and_the_page_still_shows(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    url = keeper.start()
    finished_game(app, url.rsplit("/", 1)[1], ["Anne", "Bruno", "Chloé"], seed=4)
    for query in (
        "?since=2026-13-40",
        "?since=2027-01-01&until=2026-01-01",
        "?league=nothing",
        "?since=" + "9" * 5000,
        "?league=%00",
    ):
        response = client.get(url + query)
        assert response.status_code == 200, query
    assert "The period ends before it begins." in text(
        client.get(url + "?since=2027-01-01&until=2026-01-01")
    )


def test_a_circle_read_back_on_another_server_has_the_same_history(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    url = keeper.start(people="Anne\nBruno\nChloé\nAnnie")
    circle_id = url.rsplit("/", 1)[1]
    for seed, names in enumerate([["Anne", "Bruno", "Chloé"], ["Annie", "Bruno", "Chloé"]] * 2):
        finished_game(app, circle_id, names, seed=10 + seed)
    keeper.post(
        "/merge", kept=person_id(app, circle_id, "Anne"), merged=person_id(app, circle_id, "Annie")
    )
    exported = client.get(url + "/circle.json")
    assert exported.status_code == 200
    document = json.loads(exported.data)

    other = app.test_client()
    page = text(other.get("/circle/import"))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    response = other.post(
        "/circle/import",
        data={
            "csrf_token": token.group(1),
            "nonce": nonce.group(1),
            "file": (__import__("io").BytesIO(json.dumps(document).encode()), "circle.json"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, text(response)
    copy = response.headers["Location"]
    assert copy != url
    original, imported = keeper.page(), html.unescape(text(other.get(copy)))
    league = lambda page: page.split('class="league"', 1)[1].split("</table>", 1)[0]  # noqa: E731
    assert league(original) == league(imported)
    assert "Annie merged into Anne" in imported

    # A file that is not a circle, or names a person twice, is told and stores nothing.
    for bad in (
        b"{}",
        b"not json",
        json.dumps({**document, "people": document["people"] * 2}).encode(),
    ):
        page = text(other.get("/circle/import"))
        token, nonce = TOKEN.search(page), NONCE.search(page)
        assert token and nonce
        response = other.post(
            "/circle/import",
            data={
                "csrf_token": token.group(1),
                "nonce": nonce.group(1),
                "file": (__import__("io").BytesIO(bad), "circle.json"),
            },
            content_type="multipart/form-data",
        )
        assert response.status_code == 422
        assert 'class="error"' in text(response)
    with app.app_context():
        assert db.session.query(Circle).count() == 2
        assert db.session.query(Person).count() == 8
        assert db.session.query(Player).filter(Player.person_id.isnot(None)).count() == 24


@pytest.mark.parametrize("shows", ["maybe", ""])
def test_a_person_s_choice_must_be_one_of_the_two(
    client: FlaskClient, app: Flask, shows: str
) -> None:
    keeper = Keeper(client)
    keeper.start()
    link = keeper.person_links()[0]
    token = TOKEN.search(text(client.get(link)))
    assert token
    response = client.post(
        link + "/name-shown",
        data={"csrf_token": token.group(1), "shows": shows},
        follow_redirects=True,
    )
    assert "Choose to show your name or your initials." in html.unescape(text(response))


def test_a_club_session_in_the_circle_gives_each_pair_s_players_their_percentage(
    client: FlaskClient, app: Flask
) -> None:
    from tests.web.test_club import (
        SMALL,
        TABLE_LINK,
        Club,
        director_post,
        play_whole_session,
        session_form,
    )

    keeper = Keeper(client)
    url = keeper.start(people="Anne\nBruno\nChloé\nDenis")
    circle_id = url.rsplit("/", 1)[1]
    page = text(client.get(f"/club/new?circle={circle_id}"))
    assert "This game joins the history of Les Martin" in html.unescape(page)
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
    names = {"names-0": "anne – Bruno", "names-1": "Chloé & Denis", "names-2": "Zoé – Yann"}
    assert director_post(client, f"{club.url}/pairs", **names).status_code == 302
    play_whole_session(club, 3, seed=5)
    # A session still played counts for nothing yet: its percentages are not final.
    anne_link = next(
        link for link in keeper.person_links() if "<h1>Anne</h1>" in person_page(client, link)
    )
    assert "At the club" not in person_page(client, anne_link)
    client.post(f"{club.url}/close", data=session_form(client, club.url, "close"))
    session = club.session(app)
    with app.app_context():
        circle = db.session.get(Circle, circle_id)
        assert circle is not None
        assert {p.name for p in circle.current_people} >= {"Zoé", "Yann"}  # joined by name
    score = session.score()
    first, second = session.pairs[0], session.pairs[1]
    anne_bruno, chloe_denis = score.standing_of(first.key), score.standing_of(second.key)
    assert anne_bruno and chloe_denis and anne_bruno.percentage and chloe_denis.percentage
    page = person_page(client, anne_link)
    shown = f"{float(anne_bruno.percentage):.2f}"
    assert "At the club" in page and f'<td class="num">{shown}</td>' in page
    assert re.search(
        rf'<th scope="row">Bruno</th><td class="num">1</td><td class="num">{shown}</td>', page
    )
    assert session.id in page  # the session is among her games


def test_a_merge_keeps_the_initials_either_of_the_two_chose(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    url = keeper.start(people="Anne\nChloé Dupont\nChloé D")
    circle_id = url.rsplit("/", 1)[1]
    hidden, shown = (person_id(app, circle_id, name) for name in ("Chloé Dupont", "Chloé D"))
    with app.app_context():
        person = db.session.get(Person, hidden)
        assert person is not None
        person.shows_name = False
        db.session.commit()
    assert keeper.post("/merge", kept=shown, merged=hidden).status_code == 302
    public = html.unescape(text(app.test_client().get(url)))
    assert "Chloé" not in public and "C. D." in public
    assert "Chloé D shows their initials" in keeper.page()


def test_a_teams_match_of_the_circle_counts_each_player_with_their_team(
    client: FlaskClient, app: Flask
) -> None:
    from scorekeeper.teams.models import TableResult, TeamsGame

    keeper = Keeper(client)
    players = ["Anne", "Bruno", "Chloé", "Denis", "Emma", "Farid", "Gaël", "Hugo"]
    url = keeper.start(people="\n".join(players))
    circle_id = url.rsplit("/", 1)[1]
    with app.app_context():
        circle = db.session.get(Circle, circle_id)
        assert circle is not None
        match = TeamsGame(team_names=("Nord", "Sud"), boards=1, first_board=1)
        match.circle_id = circle_id
        match.players = [Player(seat=seat, name=name) for seat, name in enumerate(players)]
        for player in match.players:
            person = circle.person_named(player.name)
            assert person is not None
            player.person_id = person.id
        # Board 1: 3NT made at table 1 (team A North-South, +400), passed out at table 2.
        match.results = [
            TableResult(board=1, table=1, level=3, strain="NT", declarer="N", tricks=9),
            TableResult(board=1, table=2),
        ]
        db.session.add(match)
        db.session.commit()
    page = html.unescape(text(client.get(f"{url}?league=bridge:teams")))
    rows = {row[0]: row for row in league_rows(page)}
    # Seats 0-3 sit at table 1 (N, E, S, W), 4-7 at table 2: team A is N-S at table 1 and
    # E-W at table 2.
    team_a = {"Anne", "Chloé", "Farid", "Hugo"}
    for name in players:
        wins, points = ("1", "9.0") if name in team_a else ("0", "0.0")  # 400 is 9 IMPs
        assert rows[name][1:3] == ("1", wins) and rows[name][4] == points, name


def league_rows(page: str) -> list[tuple[str, ...]]:
    body = page.split('<table class="league">', 1)[1].split("<tbody>", 1)[1].split("</tbody>")[0]
    return [
        tuple(re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row))[1:]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.DOTALL)
    ]


def test_people_level_in_the_league_share_their_place_and_follow_their_names() -> None:
    from datetime import date

    from scorekeeper.circles.stats import league_table
    from scorekeeper.rules.history import Finish, PlayedGame

    day = date(2026, 9, 6)
    games = [
        PlayedGame(day, (Finish("1", 30, 1), Finish("2", 20, 2), Finish("3", 10, 3))),
        PlayedGame(day, (Finish("1", 20, 2), Finish("2", 30, 1), Finish("3", 10, 3))),
    ]
    table = league_table(games, None, None, {"1": "Zoé", "2": "émile", "3": "Anne"})
    assert [row.person for row in table.rows] == ["2", "1", "3"]  # level: by their names
    assert table.places == (1, 1, 3)
    table = league_table(games, None, None, {"1": "Denis", "2": "Émile", "3": "Anne"})
    assert [row.person for row in table.rows] == ["1", "2", "3"]


def test_on_a_private_server_a_circle_is_kept_by_its_link_alone(
    client: FlaskClient, app: Flask
) -> None:
    """At home every phone scores every game, but a circle's people and their choice of
    initials are its keepers' to see and change: another phone in the house is a viewer."""
    app.config["PRIVATE_SERVER"] = True
    keeper = Keeper(client)
    url = keeper.start(people="Anne Martin\nChloé Dupont")
    with app.app_context():
        person = db.session.get(Person, person_id(app, url.rsplit("/", 1)[1], "Chloé Dupont"))
        assert person is not None
        person.shows_name = False
        db.session.commit()
    other = app.test_client()
    page = html.unescape(text(other.get(url)))
    assert "Chloé" not in page and "C. D." in page and "/keep/" not in page
    token = TOKEN.search(text(other.get("/circle/new")))
    assert token
    form = {**keeper.form(), "csrf_token": token.group(1)}
    assert other.post(url + "/people", data={**form, "name": "Zoé"}).status_code == 403
    assert "Start a game in the circle" in keeper.page()


def test_a_change_that_loses_every_race_to_other_phones_says_so_on_the_circle_s_page(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    keeper = Keeper(client)
    url = keeper.start()
    link = keeper.person_links()[0]
    token = TOKEN.search(text(client.get(link)))
    assert token

    def lost(row: object, **options: object) -> bool:  # another phone changed it each time
        db.session.rollback()
        return False

    monkeypatch.setattr(writes, "save", lost)
    added = keeper.post("/people", name="Denis")
    assert added.status_code == 302 and added.headers["Location"] == url
    assert "nothing was changed" in text(client.get(url))
    shown = client.post(link + "/name-shown", data={"csrf_token": token.group(1), "shows": "no"})
    assert shown.status_code == 302 and shown.headers["Location"].endswith(link)
    assert "nothing was changed" in text(client.get(link))
    with app.app_context():
        circle = db.session.get(Circle, url.rsplit("/", 1)[1])
        assert circle is not None and circle.person_named("Denis") is None
        assert all(person.shows_name for person in circle.people)
