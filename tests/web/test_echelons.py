"""Échelons through the test client: a log of games with its statistics matching an independent
count, a race match and its tally, refused entries that change nothing, corrections, the file."""

from __future__ import annotations

import html
import io
import json
import re
from datetime import date, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.echelons.models import EchelonsGame
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from tests.web.crawler import as_drawn, form_to
from tests.web.table import NONCE, TOKEN, text


class Log:
    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.url = ""

    def start(self, *names: str) -> str:
        page = text(self.client.get("/echelons/new"))
        token, nonce = TOKEN.search(page), NONCE.search(page)
        assert token and nonce
        data = {"csrf_token": token.group(1), "nonce": nonce.group(1), "player_a": names[0]}
        if len(names) == 2:
            data.update(kind="race", player_b=names[1])
        response = self.client.post("/echelons/new", data=data)
        assert response.status_code == 302, text(response)
        self.url = response.headers["Location"]
        return self.url

    def send(self, url: str, part: str, **fields: object):  # type: ignore[no-untyped-def]
        """Send the form of the page at ``url`` whose address contains ``part``, as drawn,
        with ``fields`` filled in."""
        form = form_to(text(self.client.get(url)), part)
        data = {**as_drawn(form), **{name: str(value) for name, value in fields.items()}}
        return self.client.post(form.action, data=data)

    def post(self, **fields: object):  # type: ignore[no-untyped-def]
        return self.send(self.url, "/games/", **fields)

    def correct(self, number: int, **fields: object):  # type: ignore[no-untyped-def]
        return self.send(f"{self.url}/games/{number}/edit", "/edit", **fields)

    def delete(self, number: int):  # type: ignore[no-untyped-def]
        return self.send(f"{self.url}/games/{number}/edit", "/delete")

    def undo(self):  # type: ignore[no-untyped-def]
        return self.send(self.url, "/undo")

    def entries(self, app: Flask) -> int:
        with app.app_context():
            game = db.session.get(Game, self.url.rsplit("/", 1)[1])
            assert isinstance(game, EchelonsGame)
            return len(game.entries)


def test_a_month_of_patience_games_and_its_statistics(client: FlaskClient, app: Flask) -> None:
    log = Log(client)
    log.start("Zoé")
    start = date(2026, 11, 2)
    cards = [52, 31, 52, 52, 48, 52, 52, 52, 7, 52] * 3
    for day, home in enumerate(cards):
        played_on = (start + timedelta(days=day)).isoformat()
        fields = {"result": "won"} if home == 52 else {"result": "cards", "cards_home": home}
        assert log.post(played_on=played_on, **fields).status_code == 302
    page = text(client.get(log.url))
    outcomes = "".join("W" if home == 52 else "L" for home in cards)
    wins = outcomes.count("W")
    longest = max(len(run) for run in outcomes.split("L"))
    current = len(outcomes) - len(outcomes.rstrip("W"))
    stats = dict(re.findall(r"<dt>([^<]+)</dt><dd>(\d+)", page))
    assert int(stats["Games"]) == len(cards) and int(stats["Won"]) == wins
    assert int(stats["Wins in a row now"]) == current and int(stats["Longest run"]) == longest
    assert f"{sum(cards) / len(cards):.1f}" in page
    assert page.count("<rect ") == len(cards)  # the chart: one bar a game
    assert "November 2026" in page and "December 2026" in page


def test_a_game_logged_late_takes_its_place_by_the_day_it_was_played(
    client: FlaskClient,
) -> None:
    """Two wins, then a loss; a win of last month logged afterwards starts the run of wins,
    and the loss still ends it."""
    log = Log(client)
    log.start("Zoé")
    for played_on, fields in [
        ("2026-11-20", {"result": "won"}),
        ("2026-11-21", {"result": "won"}),
        ("2026-11-22", {"result": "cards", "cards_home": 40}),
        ("2026-10-15", {"result": "won"}),
    ]:
        assert log.post(played_on=played_on, **fields).status_code == 302
    page = text(client.get(log.url))
    stats = dict(re.findall(r"<dt>([^<]+)</dt><dd>(\d+)", page))
    assert int(stats["Wins in a row now"]) == 0 and int(stats["Longest run"]) == 3
    bars = re.findall(r'<rect [^>]*class="(won|lost)"', page)
    assert bars == ["won", "won", "won", "lost"]  # the chart too, in the order played
    assert "At most the last 8 weeks with games; each game counts in the week it was played" in page
    assert "At most the last 12 months with games" in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"result": "cards"}, "Type how many cards reached the foundations."),
        ({"result": "cards", "cards_home": 52}, "from 0 to 51"),
        ({"result": "cards", "cards_home": "x"}, "Type a whole number, in figures"),
        ({"result": "cards", "cards_home": "9" * 400}, "from 0 to 51"),
        ({"result": "won", "minutes": 0}, "from 1 to 1440 minutes"),
        ({"result": "won", "played_on": "yesterday"}, "Not a valid date value"),
        ({"result": "maybe"}, "Tap Won"),
    ],
)
def test_a_refused_game_says_why_and_changes_nothing(
    client: FlaskClient, app: Flask, fields: dict[str, object], message: str
) -> None:
    log = Log(client)
    log.start("Zoé")
    response = log.post(**{"played_on": "2026-11-20", **fields})
    assert response.status_code == 422 and message in text(response)
    assert log.entries(app) == 0


def test_the_forms_own_messages_follow_each_request_s_language(client: FlaskClient) -> None:
    log = Log(client)
    log.start("Zoé")
    for language, message in [("fr", "pas une date valide"), ("en", "Not a valid date")]:
        client.set_cookie("language", language)
        response = log.post(played_on="20/11/2026", result="won")
        assert response.status_code == 422 and message in text(response)


def test_a_race_match_and_its_tally(client: FlaskClient, app: Flask) -> None:
    race = Log(client)
    race.start("Zoé", "Yann")
    for a, b in ((0, 7), (9, 0), (3, 8), (5, 5)):
        assert race.post(left_a=a, left_b=b, played_on="2026-11-20").status_code == 302
    refused = race.post(left_a=0, left_b=0, played_on="2026-11-20")
    assert refused.status_code == 422
    assert "Both players cannot have placed every card" in text(refused)
    page = text(client.get(race.url))
    assert re.search(r"<strong>Zoé 2</strong> – <strong>1 Yann</strong>", page)
    assert "(1 draw)" in page and race.entries(app) == 4


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", ["Race: 1 – 0 ·", "Race: 1 – 0, 1 draw ·", "Race: 1 – 0, 2 draws ·"]),
        ("fr", ["Course\u00a0: 1 – 0 ·", "Course\u00a0: 1 – 0, 1 partie nulle ·",
                "Course\u00a0: 1 – 0, 2 parties nulles ·"]),
    ],
)  # fmt: skip
def test_the_home_page_and_the_race_say_its_draws_alike(
    client: FlaskClient, language: str, said: list[str]
) -> None:
    client.set_cookie("language", language)
    race = Log(client)
    race.start("Zoé", "Yann")
    assert race.post(left_a=0, left_b=7, played_on="2026-11-20").status_code == 302
    for draws, home_line in enumerate(said):
        if draws:
            assert race.post(left_a=5, left_b=5, played_on="2026-11-20").status_code == 302
        home = html.unescape(text(client.get("/")))
        assert home_line in home, home
        page = html.unescape(text(client.get(race.url)))
        if draws:
            in_the_tally = home_line.split(", ")[-1].removesuffix(" ·")
            assert f"({in_the_tally})" in page
        else:
            assert not re.search(r"\d (draws?|parties? nulles?)\b", page)


def test_the_games_logged_are_listed_by_the_day_they_were_played(client: FlaskClient) -> None:
    """A game logged late for an earlier day stands among that day's, after those logged
    before it (RULES.md §4); each keeps its number, the order it was logged in."""
    log = Log(client)
    log.start("Zoé")
    for played_on, cards in [
        ("2026-11-20", 10),
        ("2026-11-22", 11),
        ("2026-11-21", 12),
        ("2026-11-20", 13),
        ("2026-12-01", 14),
    ]:
        assert log.post(result="cards", cards_home=cards, played_on=played_on).status_code == 302
    page = text(client.get(log.url))
    listed = page[page.index('id="games-title"') :]
    items = re.findall(
        r'<li value="(\d+)"><a href="[^"]+/games/(\d+)/edit"[^>]*>([^<]+)</a>', listed
    )
    assert [(int(value), int(edit)) for value, edit, _text in items] == [
        (5, 5), (2, 2), (3, 3), (4, 4), (1, 1)
    ]  # fmt: skip
    assert [said for _value, _edit, said in items] == [
        "Dec 1, 2026: 14 cards home",
        "Nov 22, 2026: 11 cards home",
        "Nov 21, 2026: 12 cards home",
        "Nov 20, 2026: 13 cards home",
        "Nov 20, 2026: 10 cards home",
    ]


def test_a_game_is_corrected_deleted_and_taken_back_and_each_is_logged(
    client: FlaskClient, app: Flask
) -> None:
    log = Log(client)
    log.start("Zoé")
    log.post(result="won", played_on="2026-11-20")
    log.post(result="cards", cards_home=20, played_on="2026-11-21")
    log.post(result="cards", cards_home=30, played_on="2026-11-22", minutes=1)
    assert log.correct(2, result="won", played_on="2026-11-21").status_code == 302
    page = text(client.get(log.url))
    assert "Game 2 corrected at" in page
    assert ": Nov 21, 2026, 20 cards home → Nov 21, 2026, won</li>" in page
    assert log.delete(1).status_code == 302
    assert log.undo().status_code == 302
    page = text(client.get(log.url))
    assert "Game 1 deleted at" in page and "(Nov 20, 2026, won)</li>" in page
    assert ": taken back (Nov 22, 2026, 30 cards home, 1 minute)</li>" in page
    assert log.entries(app) == 1


def test_two_phones_logging_from_the_same_page_log_two_games_and_a_double_tap_one(
    client: FlaskClient, app: Flask
) -> None:
    log = Log(client)
    log.start("Zoé")
    form = form_to(text(client.get(log.url)), "/games/")
    drawn = as_drawn(form)
    mine = {**drawn, "result": "won", "played_on": "2026-11-20"}
    assert client.post(form.action, data=mine).status_code == 302
    assert client.post(form.action, data=mine).status_code == 302  # a double tap
    assert log.entries(app) == 1
    theirs = {**drawn, "result": "cards", "cards_home": "31", "played_on": "2026-11-20"}
    response = client.post(form.action, data=theirs, follow_redirects=True)
    assert "Game 2 logged: Nov 20, 2026: 31 cards home." in text(response)
    assert log.entries(app) == 2


def test_a_game_deleted_twice_from_one_page_deletes_one(client: FlaskClient, app: Flask) -> None:
    log = Log(client)
    log.start("Zoé")
    for _game in range(3):
        log.post(result="won", played_on="2026-11-20")
    delete = form_to(text(client.get(f"{log.url}/games/2/edit")), "/delete")
    for _sent in range(2):
        assert client.post(delete.action, data=as_drawn(delete)).status_code == 302
    assert log.entries(app) == 2


def test_the_corrections_log_of_a_race_and_in_french_reads_as_sentences(
    client: FlaskClient,
) -> None:
    race = Log(client)
    race.start("Zoé", "Yann")
    race.post(left_a=0, left_b=7, played_on="2026-09-03")
    assert race.correct(1, left_a=4, left_b=4, played_on="2026-09-04").status_code == 302
    race.post(left_a=3, left_b=0, played_on="2026-11-27")
    assert race.undo().status_code == 302
    client.set_cookie("language", "fr")
    page = text(client.get(race.url))
    log = re.search(r'<ul class="log">(.*?)</ul>', page, re.S)
    assert log, page
    lines = re.findall(r"<li>(.*?)</li>", log.group(1))
    assert [re.sub(r"\d\d:\d\d", "HH:MM", line) for line in lines] == [
        "Partie 2 à HH:MM\u00a0: annulée (27 nov. 2026, Zoé 3, Yann 0 — Yann gagne)",
        "Partie 1 corrigée à HH:MM\u00a0: 3 sept. 2026, Zoé 0, Yann 7 — Zoé gagne"
        " → 4 sept. 2026, Zoé 4, Yann 4 — match nul",
    ]


def test_a_corrections_log_read_from_a_file_names_what_it_cannot_say_as_it_is(
    client: FlaskClient,
) -> None:
    log = Log(client)
    log.start("Zoé")
    log.post(result="won", played_on="2026-11-20")
    document = json.loads(client.get(f"{log.url}/game.json").get_data())
    at = "2026-11-21T10:00:00"
    document["corrections"] = [
        {"number": 1, "at": at, "kind": "game", "old": "7/0 2026-11-20", "new": "52 2026-11-20"},
        {"number": 1, "at": at, "kind": "game-deleted", "old": "60 2026-11-20"},
        {"number": 1, "at": at, "kind": "undo-game", "old": "52 2026-11-20 9'"},
    ]
    token = TOKEN.search(text(client.get("/import")))
    assert token
    response = client.post(
        "/import",
        data={
            "csrf_token": token.group(1),
            "file": (io.BytesIO(json.dumps(document).encode()), "g.json"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    page = text(client.get(response.headers["Location"]))
    assert ": 7/0 2026-11-20 → Nov 20, 2026, won</li>" in page  # a race's game, in a log
    assert "(60 2026-11-20)</li>" in page  # more cards than the deck has
    assert "taken back (Nov 20, 2026, won, 9 minutes)</li>" in page


def test_a_log_exports_and_imports_again(client: FlaskClient, app: Flask) -> None:
    log = Log(client)
    log.start("Zoé")
    log.post(result="won", played_on="2026-11-20", minutes=14)
    log.post(result="cards", cards_home=12, played_on="2026-11-21")
    exported = client.get(f"{log.url}/game.json").get_data()
    assert json.loads(exported)["family"] == "echelons"
    token = TOKEN.search(text(client.get("/import")))
    assert token
    response = client.post(
        "/import",
        data={"csrf_token": token.group(1), "file": (io.BytesIO(exported), "g.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302 and "/echelons/" in response.headers["Location"]
    spoiled = json.loads(exported)
    spoiled["games"][0]["cards_home"] = 53
    response = client.post(
        "/import",
        data={
            "csrf_token": token.group(1),
            "file": (io.BytesIO(json.dumps(spoiled).encode()), "g.json"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 422 and "games › 1 › cards_home" in text(response)
