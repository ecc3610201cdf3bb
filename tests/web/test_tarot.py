"""French Tarot through the test client, as a phone without JavaScript: a new game, the worked
deals of RULES.md §5 entered through the deal form, the dealer to the right, a deal all passed,
the engine's refusals said in the page with nothing lost, corrections, deletions and undo
logged, two phones at once, the game file, the CSV, the French page, and who may do what."""

from __future__ import annotations

import copy
import csv
import html
import io
import json
import os
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.circles.models import Person
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.tarot.models import TarotGame
from tests.web.crawler import as_drawn, form_to
from tests.web.table import NONCE, TOKEN, text
from tests.web.test_circles import Keeper, league_rows
from tests.web.test_fuzz import database_content
from tests.web.test_import_fuzz import CRAFTED, DELETE, PLAUSIBLE, import_raw, paths, put

FOUR = ("Anne", "Bruno", "Chloé", "Denis")
FIVE = (*FOUR, "Élodie")
DRAWN_FROM = re.compile(r'name="drawn_from" type="hidden" value="([^"]*)"')


def deal_fields(
    taker: int,
    contract: str,
    bouts: int,
    points: float,
    partner: int | str | None = None,
    **more: Any,
) -> dict[str, str]:
    """A deal as its buttons send it: the points as their tens and units, and a half."""
    whole = int(points)
    fields = {
        "taker": str(taker),
        "contract": contract,
        "bouts": str(bouts),
        "tens": str(whole // 10),
        "units": str(whole % 10),
        "action": "deal",
        **{name: str(value) for name, value in more.items()},
    }
    if points != whole:
        fields["half"] = "y"
    if partner is not None:
        fields["partner"] = str(partner)
    return fields


class Tarot:
    """A game at the table, played through the pages."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.url = ""

    def setup(self, names: tuple[str, ...], first_dealer: int = 0, **extra: str):  # type: ignore[no-untyped-def]
        page = text(self.client.get("/tarot/new"))
        token, nonce = TOKEN.search(page), NONCE.search(page)
        assert token and nonce
        data = {
            "csrf_token": token.group(1),
            "nonce": nonce.group(1),
            **{f"players-{row}": name for row, name in enumerate(names)},
            "first_dealer": str(first_dealer),
            **extra,
        }
        return self.client.post("/tarot/new", data=data)

    def start(self, names: tuple[str, ...] = FOUR, first_dealer: int = 0) -> str:
        response = self.setup(names, first_dealer)
        assert response.status_code == 302, text(response)
        self.url = response.headers["Location"]
        return self.url

    def fields(self, url: str = "") -> dict[str, str]:
        """The hidden fields of the form on the page at ``url`` (the game's page)."""
        page = text(self.client.get(url or self.url))
        token, drawn = TOKEN.search(page), DRAWN_FROM.search(page)
        assert token and drawn
        return {"csrf_token": token.group(1), "drawn_from": html.unescape(drawn.group(1))}

    def post(self, number: int, fields: dict[str, str]):  # type: ignore[no-untyped-def]
        return self.client.post(f"{self.url}/deals/{number}", data={**self.fields(), **fields})

    def deal(self, number: int, *args: Any, **kwargs: Any) -> None:
        response = self.post(number, deal_fields(*args, **kwargs))
        assert response.status_code == 302, text(response)

    def passed(self, number: int) -> None:
        assert self.post(number, {"action": "passed"}).status_code == 302

    def correct(self, number: int, fields: dict[str, str]):  # type: ignore[no-untyped-def]
        edit = f"{self.url}/deals/{number}/edit"
        return self.client.post(edit, data={**self.fields(edit), **fields})

    def send(self, url: str, part: str):  # type: ignore[no-untyped-def]
        form = form_to(text(self.client.get(url)), part)
        return self.client.post(form.action, data=as_drawn(form))

    def page(self) -> str:
        return html.unescape(text(self.client.get(self.url)))

    def totals(self) -> dict[str, str]:
        rows = re.findall(
            r'<th scope="row">([^<]+)</th>\s*(?:<td class="num[^"]*">[^<]*</td>\s*)?'
            r'<td class="num total">([^<]+)</td>',
            self.page(),
        )
        return dict(rows)

    def game(self) -> TarotGame:
        game = db.session.get(Game, self.url.rsplit("/", 1)[1])
        assert isinstance(game, TarotGame)
        return game


@pytest.fixture
def table(client: FlaskClient) -> Tarot:
    table = Tarot(client)
    table.start()
    return table


def test_the_home_and_new_game_pages_offer_tarot(client: FlaskClient) -> None:
    assert 'href="/tarot/new"' in text(client.get("/"))
    assert 'href="/tarot/new"' in text(client.get("/new"))


def test_a_new_game_takes_three_to_five_names_and_keeps_what_was_typed(
    client: FlaskClient, app: Flask
) -> None:
    game = Tarot(client)
    for names, message in [
        (("Anne", "Bruno"), "Tarot is for 3, 4 or 5 players: type their names."),
        (("Anne", "Bruno", "anne "), "Two players cannot have the same name."),
        (("Anne", "Bruno\tX", "Chloé"), "A name is made of letters, digits and signs."),
    ]:
        response = game.setup(names)
        assert response.status_code == 422 and message in html.unescape(text(response))
        assert 'value="Bruno' in text(response)  # what was typed stays
    response = game.setup(("Anne", "Bruno", "Chloé"), first_dealer=4)
    assert response.status_code == 422
    assert "The first dealer's row has no name." in html.unescape(text(response))
    with app.app_context():
        assert db.session.query(TarotGame).count() == 0
    # Rows left empty are skipped; the first dealer stays on the name beside their button.
    response = game.setup(("Anne", "", "Chloé", "Denis"), first_dealer=3)
    assert response.status_code == 302
    page = html.unescape(text(client.get(response.headers["Location"])))
    assert "<strong>Denis</strong>" in page and "Chloé speaks first and leads." in page


def test_the_worked_deals_of_the_rule_book_at_four_players(table: Tarot, app: Flask) -> None:
    table.deal(1, 0, "garde", 2, 49)  # 1. made by 8: Anne +198, each defender −66
    assert table.totals() == {"Anne": "+198", "Bruno": "−66", "Chloé": "−66", "Denis": "−66"}
    # 2. Prise, 1 bout, 47, the defence's petit au bout: down 4, V = −39.
    table.deal(2, 1, "prise", 1, 47, petit_au_bout="defence")
    # 5. Garde, 1 bout, 51, a defender's double poignée: made by 0, V = 80.
    table.deal(3, 2, "garde", 1, 51, poignee_defence="double")
    assert "Deal 3 entered: Chloé, Garde, 1 bout, 51 points: made by 0" in table.page()
    assert table.totals() == {
        "Anne": f"+{198 + 39 - 80}",
        "Bruno": f"{-66 - 117 - 80}".replace("-", "−"),
        "Chloé": f"+{-66 + 39 + 240}",
        "Denis": f"{-66 + 39 - 80}".replace("-", "−"),
    }
    page = table.page()
    assert "Bruno, Prise, 1 bout, 47 points: down by 4; petit au bout (defence)" in page
    assert "Chloé, Garde, 1 bout, 51 points: made by 0; poignée double (defence)" in page


def test_five_players_a_partner_or_alone_and_three_players_a_half_point(
    client: FlaskClient,
) -> None:
    five = Tarot(client)
    five.start(FIVE)
    # 3. Garde sans, 3 bouts, 52 points with the partner, the taker's simple poignée: V = 184.
    five.deal(1, 0, "garde-sans", 3, 52, partner=2, poignee_taker="simple")
    five.deal(2, 4, "prise", 0, 60, partner="alone")  # made by 4: V = 29, Élodie +116
    assert five.totals() == {
        "Anne": f"+{368 - 29}",
        "Bruno": f"−{184 + 29}",
        "Chloé": f"+{184 - 29}",
        "Denis": f"−{184 + 29}",
        "Élodie": "−68",
    }
    page = five.page()
    assert "Anne with Chloé, Garde sans, 3 bouts, 52 points: made by 16" in page
    assert "Élodie alone, Prise, 0 bouts, 60 points: made by 4" in page
    assert "poignée simple (taker's side)" in page and "8 trumps" in page  # at 5 players
    three = Tarot(client)
    three.start(FOUR[:3])
    # 4. Garde, 2 bouts, 40.5: counted 40, down 1; V = −52.
    three.deal(1, 0, "garde", 2, 40.5)
    assert three.totals() == {"Anne": "−104", "Bruno": "+52", "Chloé": "+52"}
    assert "40.5 points: down by 1" in three.page() and "13 trumps" in three.page()


def test_the_deal_turns_to_the_right_and_a_deal_all_passed_is_one_tap(client: FlaskClient) -> None:
    table = Tarot(client)
    table.start(FOUR, first_dealer=2)
    page = table.page()
    assert "<strong>Chloé</strong>" in page and "Bruno speaks first and leads." in page
    table.passed(1)
    page = table.page()
    assert "Deal 2" in page and "all passed" in page
    assert "<strong>Bruno</strong>" in page and "Anne speaks first and leads." in page
    assert set(table.totals().values()) == {"0"}
    table.deal(2, 3, "prise", 0, 56)
    assert "<strong>Anne</strong>" in table.page()  # then Denis speaks, at Anne's right


@pytest.mark.parametrize(
    ("players", "fields", "message", "row"),
    [
        (FOUR, deal_fields(0, "garde", 2, 95), "The cards hold 91 points", None),
        (FOUR[:3], deal_fields(0, "garde", 2, 91.5), "not 91.5", None),
        (FOUR, {**deal_fields(0, "garde", 2, 49), "taker": ""}, "Choose the taker.", "taker"),
        (FIVE, deal_fields(0, "garde", 2, 49), "Choose the partner, or Alone.", "partner"),
        (FOUR, {**deal_fields(0, "garde", 2, 49), "units": ""}, "Choose the units", "units"),
        (FOUR, {**deal_fields(0, "garde", 2, 49), "action": ""}, "Tap Done to enter", None),
        (FOUR, deal_fields(0, "garde", 2, 49, chelem="grand"), "Not a valid choice", "chelem"),
        (FOUR, deal_fields(7, "garde", 2, 49), "Not a valid choice", "taker"),
        (FIVE, deal_fields(0, "garde", 2, 49, partner="x"), "Not a valid choice", "partner"),
    ],
)
def test_an_impossible_deal_is_refused_in_the_page_with_what_was_tapped_kept(
    client: FlaskClient,
    app: Flask,
    players: tuple[str, ...],
    fields: dict[str, str],
    message: str,
    row: str | None,
) -> None:
    table = Tarot(client)
    table.start(players)
    response = table.post(1, fields)
    assert response.status_code == 422
    page = text(response)
    assert message in html.unescape(page)
    if row is not None:
        assert f'<li><a href="#row-{row}">' in page  # the summary leads to the row
    for name in ("contract", "bouts", "tens"):
        if fields.get(name):
            checked = (
                f'<input checked id="{name}-\\d" name="{name}" type="radio" value="{fields[name]}">'
            )
            assert re.search(checked, page), name
    with app.app_context():
        assert table.game().deals == []


def test_a_deal_is_corrected_deleted_and_taken_back_and_each_is_logged(
    table: Tarot, app: Flask
) -> None:
    table.deal(1, 0, "garde", 2, 49)
    table.deal(2, 1, "prise", 1, 47)
    table.deal(3, 2, "prise", 1, 60)
    response = table.correct(1, deal_fields(0, "garde-sans", 2, 49))
    assert response.status_code == 302
    page = table.page()
    assert "Deal 1 corrected; the totals are counted again." in page
    assert (
        "Anne, Garde, 2 bouts, 49 points: made by 8 → Anne, Garde sans, 2 bouts, 49 points: "
        "made by 8" in page
    )
    assert table.totals()["Anne"] == f"+{3 * 33 * 4 + 29 - 34}"  # a defender of deal 2
    refused = table.correct(2, deal_fields(1, "prise", 4, 47))
    assert refused.status_code == 422 and "Not a valid choice" in text(refused)
    assert table.send(f"{table.url}/deals/2/edit", "/delete").status_code == 302
    assert (
        "Deal 2 deleted at" in table.page() and "(Bruno, Prise, 1 bout, 47 points" in table.page()
    )
    assert table.send(table.url, "/undo").status_code == 302
    page = table.page()
    assert "Deal 2 taken back: Chloé, Prise, 1 bout, 60 points: made by 9." in page
    assert ": taken back (Chloé, Prise, 1 bout, 60 points: made by 9)" in page
    with app.app_context():
        assert [record.contract for record in table.game().deals] == ["garde-sans"]


def test_a_deal_sent_twice_is_entered_once_and_another_phones_is_shown_beside_mine(
    table: Tarot, app: Flask
) -> None:
    drawn = table.fields()
    mine = {**drawn, **deal_fields(0, "garde", 2, 49)}
    assert table.client.post(f"{table.url}/deals/1", data=mine).status_code == 302
    assert table.client.post(f"{table.url}/deals/1", data=mine).status_code == 302
    theirs = {**drawn, **deal_fields(1, "prise", 1, 50)}
    conflict = table.client.post(f"{table.url}/deals/1", data=theirs)
    assert conflict.status_code == 409
    page = html.unescape(text(conflict))
    assert "Deal 1 was entered on another phone" in page
    assert "Anne, Garde, 2 bouts, 49 points" in page and "Bruno, Prise, 1 bout, 50 points" in page
    question = page[page.index('<section class="conflict"') :]
    form = form_to(question, "/edit")
    response = table.client.post(form.action, data=as_drawn(form))
    assert response.status_code == 302
    assert "Bruno, Prise, 1 bout, 50 points: down by 1" in table.page()
    with app.app_context():
        assert [record.taker for record in table.game().deals] == [1]


def test_the_last_deal_sent_again_from_the_page_before_it_asks_first(
    table: Tarot, app: Flask
) -> None:
    before = table.fields()
    deal = deal_fields(0, "garde", 2, 49)
    assert table.client.post(f"{table.url}/deals/1", data={**before, **deal}).status_code == 302
    again = table.client.post(f"{table.url}/deals/2", data={**before, **deal})
    assert again.status_code == 409
    assert "Deal 2: the game changed since this page was drawn" in text(again)
    passes = {"action": "passed"}  # two deals all passed in a row, from fresh pages
    assert (
        table.client.post(f"{table.url}/deals/2", data={**table.fields(), **passes}).status_code
        == 302
    )
    assert (
        table.client.post(f"{table.url}/deals/3", data={**table.fields(), **passes}).status_code
        == 302
    )
    with app.app_context():
        assert len(table.game().deals) == 3


def test_the_game_file_goes_out_and_comes_back_and_a_spoiled_one_is_refused(
    client: FlaskClient, app: Flask
) -> None:
    five = Tarot(client)
    five.start(FIVE, first_dealer=3)
    five.deal(1, 0, "garde-contre", 3, 70, partner=0, chelem="made", petit_au_bout="taker")
    five.passed(2)
    five.deal(3, 1, "prise", 1, 40.5, partner=4, poignee_defence="triple")
    assert five.correct(3, deal_fields(1, "prise", 1, 41.5, partner=4)).status_code == 302
    exported = client.get(f"{five.url}/game.json")
    assert 'filename="tarot-' in exported.headers["Content-Disposition"]
    document = json.loads(text(exported))
    assert document["family"] == "tarot" and document["first_dealer"] == 3
    assert [deal["taker"] for deal in document["deals"]] == [0, None, 1]

    def imported(content: dict[str, Any]):  # type: ignore[no-untyped-def]
        token = TOKEN.search(text(client.get("/import")))
        assert token
        raw = io.BytesIO(json.dumps(content).encode())
        return client.post(
            "/import",
            data={"csrf_token": token.group(1), "file": (raw, "g.json")},
            content_type="multipart/form-data",
        )

    response = imported(document)
    assert response.status_code == 302 and response.headers["Location"].startswith("/tarot/")
    copy = Tarot(client)
    copy.url = response.headers["Location"]
    assert copy.totals() == five.totals() and len(set(five.totals().values())) > 1
    assert copy.page().count("corrected at") == 1
    assert json.loads(text(client.get(f"{copy.url}/game.json")))["deals"] == document["deals"]
    for spoiled, message in [
        ({**document, "players": document["players"][:2]}, "players"),
        ({**document, "first_dealer": 7}, "first_dealer"),
        ({**document, "deals": [{**document["deals"][0], "half_points": 200}]}, "deals › 1"),
        ({**document, "deals": [{"number": 1, "contract": "garde"}]}, "deals › 1"),
        (
            {
                **document,
                "deals": [
                    {**document["deals"][0], "taker": 4},
                    {**document["deals"][0], "number": 1},
                ],
            },
            "not in order",
        ),
    ]:
        response = imported(spoiled)
        assert response.status_code == 422 and message in html.unescape(text(response)), message
    partner = {**document["deals"][0], "partner": 2}
    four = {**document, "players": list(FOUR), "first_dealer": 0, "deals": [partner]}
    response = imported(four)
    assert response.status_code == 422
    assert "Deal 1 of the file: Only at 5 players does the taker have a partner" in html.unescape(
        text(response)
    )


def test_the_sheet_and_its_csv_give_every_deal_and_the_totals(client: FlaskClient) -> None:
    table = Tarot(client)
    table.start(FIVE, first_dealer=1)
    table.deal(1, 0, "garde", 2, 49, partner=3, petit_au_bout="defence")
    table.passed(2)
    table.deal(3, 4, "prise", 0, 50.5, partner="alone")
    sheet = html.unescape(text(client.get(f"{table.url}/sheet")))
    assert "Bruno dealt first." in sheet and "3 deals." in sheet
    assert "petit au bout (defence)" in sheet and "all passed" in sheet
    csv_file = client.get(f"{table.url}/sheet.csv")
    assert csv_file.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(text(csv_file))))
    assert rows[0][:9] == [
        "Deal",
        "Dealer",
        "Taker",
        "Contract",
        "Partner",
        "Bouts",
        "Points",
        "Made (+) or down (−) by",
        "Bonuses",
    ]
    assert rows[1][:8] == ["1", "Bruno", "Anne", "Garde", "Denis", "2", "49", "8"]
    assert rows[2][:3] == ["2", "Anne", "all passed"]
    assert rows[3][:8] == ["3", "Élodie", "Élodie", "Prise", "alone", "0", "50.5", "-6"]
    # Garde made by 8, the defence's petit au bout: V = 66 − 20 = 46; then a Prise alone, down
    # 6 (the half point to the defence: 50.5 is 50): V = −31.
    marks = [2 * 46 + 31, -46 + 31, -46 + 31, 46 + 31, -46 - 4 * 31]
    totals = [int(cell) for cell in rows[-2][10::2]]
    assert totals == marks
    assert rows[-1][0] == "Place" and [int(cell) for cell in rows[-1][10::2]] == [1, 3, 3, 2, 5]
    shown = table.totals()
    assert totals == [int(shown[name].replace("−", "-")) for name in FIVE]


def test_the_french_page_names_contracts_and_sides_as_players_say_them(
    client: FlaskClient,
) -> None:
    table = Tarot(client)
    table.start(FIVE)
    table.deal(1, 0, "garde-contre", 2, 49, partner=1, poignee_taker="double")
    client.set_cookie("language", "fr")
    page = table.page()
    for said in ("Preneur", "Garde contre", "Appelé", "Seul", "Bouts", "Primes", "Donneur"):
        assert said in page, said
    assert "Anne avec Bruno, Garde contre, 2 bouts, 49 points\u00a0: réussie de 8" in page
    assert "poignée double (attaque)" in page
    assert "Donne 2" in page


def test_a_viewer_sees_the_game_and_changes_nothing(table: Tarot, app: Flask) -> None:
    table.deal(1, 0, "garde", 2, 49)
    viewer = app.test_client()
    page = text(viewer.get(table.url))
    assert "You are looking on" in page and 'name="taker"' not in page and "<form" not in page
    for url in ("/sheet", "/sheet.csv", "/game.json", "/qr/viewer.svg"):
        assert viewer.get(table.url + url).status_code == 200, url
    assert viewer.get(f"{table.url}/qr/scorer.svg").status_code == 403
    assert viewer.get(f"{table.url}/deals/1/edit").status_code == 403
    token = TOKEN.search(text(viewer.get("/tarot/new")))
    assert token
    fields = {"csrf_token": token.group(1), "drawn_from": "2"}
    for path, sent in [
        ("/deals/2", deal_fields(1, "prise", 1, 50)),
        ("/deals/1/edit", deal_fields(1, "prise", 1, 50)),
        ("/deals/1/delete", {}),
        ("/undo", {}),
    ]:
        assert viewer.post(table.url + path, data={**fields, **sent}).status_code == 403, path
    with app.app_context():
        assert len(table.game().deals) == 1
        token_of_scorer = table.game().scorer_token
    assert viewer.get(f"{table.url}/score/{token_of_scorer}").status_code == 302
    assert 'name="taker"' in text(viewer.get(table.url))
    assert viewer.get(f"{table.url}/score/{token_of_scorer[:-2]}xx").status_code == 403


def test_a_game_opens_only_at_its_own_familys_address(table: Tarot) -> None:
    game_id = table.url.rsplit("/", 1)[1]
    assert table.client.get(table.url).status_code == 200
    assert table.client.get(f"/bridge/{game_id}").status_code == 404
    assert table.client.get(f"/tarot/{game_id}/deals/9/edit").status_code == 404


def test_a_game_started_in_a_circle_seats_its_people(client: FlaskClient, app: Flask) -> None:
    keeper = Keeper(client)
    circle_id = keeper.start().rsplit("/", 1)[1]
    page = html.unescape(text(client.get(f"/tarot/new?circle={circle_id}")))
    assert "This game joins the history of Les Martin" in page and 'list="circle-people"' in page
    table = Tarot(client)
    response = table.setup(("anne ", "Bruno", "Zoé"), circle=circle_id)
    assert response.status_code == 302, text(response)
    table.url = response.headers["Location"]
    table.deal(1, 0, "garde", 2, 49)
    with app.app_context():
        game = table.game()
        assert game.circle_id == circle_id
        people = [db.session.get(Person, player.person_id) for player in game.players]
        assert [person.name for person in people if person] == ["Anne", "Bruno", "Zoé"]
    # Before a whole turn of the deal the game is listed, and no league counts it.
    page = text(client.get(keeper.url))
    assert "French Tarot" in page and "French Tarot, 3 players" not in page
    for link in keeper.person_links():
        assert client.get(link).status_code == 200
    # Three deals, a whole turn of the deal: the game counts as it stands. Deal 1, Anne's
    # Garde made by 8: +132, −66, −66; deal 2 all passed; deal 3, Bruno's Prise down by 31,
    # V = −56: Bruno −112, the others +56. Anne 188, Bruno −178, Zoé −10.
    table.passed(2)
    table.deal(3, 1, "prise", 0, 25)
    page = html.unescape(text(client.get(f"{keeper.url}?league=tarot:3")))
    assert "French Tarot, 3 players" in page
    rows = {row[0]: row for row in league_rows(page)}
    assert [rows[name][1:3] for name in ("Anne", "Bruno", "Zoé")] == [
        ("1", "1"), ("1", "0"), ("1", "0")
    ]  # fmt: skip
    assert rows["Anne"][4] == "188.0" and rows["Bruno"][4] == "−178.0"
    anne = next(link for link in keeper.person_links() if "Anne" in text(client.get(link)))
    page = html.unescape(text(client.get(anne)))
    assert "3 deals played." not in page and "2 deals played." in page  # one all passed
    assert "As taker" in page and "Garde" in page


FUZZ_FIELDS = [
    "csrf_token",
    "drawn_from",
    "nonce",
    "first_dealer",
    *(f"players-{row}" for row in range(-1, 7)),
    "taker",
    "contract",
    "partner",
    "bouts",
    "tens",
    "units",
    "half",
    "petit_au_bout",
    "poignee_taker",
    "poignee_defence",
    "chelem",
    "action",
]
FUZZ_VALUES = st.one_of(
    st.text(max_size=20),
    st.integers(-(10**9), 10**9).map(str),
    st.sampled_from(
        [
            "",
            "\x00",
            "0",
            "1",
            "3",
            "4",
            "5",
            "9",
            "10",
            "-1",
            "y",
            "deal",
            "passed",
            "alone",
            "garde",
            "garde-sans",
            "taker",
            "defence",
            "simple",
            "triple",
            "made",
        ]
    ),
)


@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    route=st.sampled_from(
        [
            "new",
            "GAME/deals/3",
            "GAME/deals/2",
            "GAME/deals/1/edit",
            "GAME/deals/9/edit",
            "GAME/deals/1/delete",
            "GAME/undo",
        ]
    ),
    fields=st.dictionaries(st.sampled_from(FUZZ_FIELDS), FUZZ_VALUES, max_size=12),
    token=st.booleans(),
)
def test_no_post_breaks_a_game_or_changes_what_it_refuses(
    app: Flask, client: FlaskClient, route: str, fields: dict[str, str], token: bool
) -> None:
    app.config["NEW_GAMES_LIMIT"] = "100000 per minute"  # every example starts a game
    table = Tarot(client)
    table.start(FIVE)
    table.deal(1, 0, "garde", 2, 49, partner=1)
    table.passed(2)
    url = "/tarot/" + route.replace("GAME", table.url.rsplit("/", 1)[1])
    form = dict(fields)
    if token:
        form["csrf_token"] = table.fields()["csrf_token"]
    before = database_content(app)
    response = client.post(url, data=form)
    assert response.status_code < 500, text(response)
    if response.status_code >= 400:
        assert database_content(app) == before, (url, form, response.status_code)
    text(client.get(table.url))  # whatever was taken, the page still draws


def a_tarot_file(client: FlaskClient) -> dict[str, Any]:
    """A 5-player game of a few deals, with a correction, as exported."""
    table = Tarot(client)
    table.start(FIVE, first_dealer=1)
    table.deal(1, 0, "garde", 2, 49, partner=3, petit_au_bout="defence", chelem="made")
    table.passed(2)
    table.deal(3, 2, "prise", 1, 40.5, partner="alone", poignee_defence="double")
    assert table.correct(1, deal_fields(0, "garde-sans", 2, 49, partner=3)).status_code == 302
    return json.loads(text(client.get(f"{table.url}/game.json")))  # type: ignore[no-any-return]


def opens_everywhere(client: FlaskClient, location: str) -> None:
    """Every page and file of an imported game answers, and its file imports again."""
    page = text(client.get(location))
    edits = sorted(set(re.findall(r'href="(/tarot/[^"/]+/deals/\d+/edit)"', page)))
    for url in [
        location,
        *(location + end for end in ("/sheet", "/sheet.csv", "/game.json")),
        *edits,
    ]:
        assert client.get(url).status_code == 200, url
    assert import_raw(client, client.get(f"{location}/game.json").get_data()).status_code == 302


@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "100")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_crafted_file_is_refused_or_imports_a_game_that_opens_everywhere(
    app: Flask, client: FlaskClient, data: st.DataObject
) -> None:
    app.config["NEW_GAMES_LIMIT"] = "100000 per minute"
    document = copy.deepcopy(a_tarot_file(client))
    for _change in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths(document)))
        here = document
        for step in path:
            here = here[step]
        if data.draw(st.booleans()):
            value = data.draw(st.sampled_from([*PLAUSIBLE.get(type(here), [None]), DELETE]))
        else:
            value = data.draw(st.sampled_from([*CRAFTED, "garde", "defence", "triple", DELETE]))
        put(document, path, value if value is DELETE else copy.deepcopy(value))
    with app.app_context():
        before = db.session.query(Game).count()
    response = import_raw(client, json.dumps(document, ensure_ascii=False).encode())
    assert response.status_code in (302, 422), text(response)
    if response.status_code == 302:
        opens_everywhere(client, response.headers["Location"])
    else:
        assert 'class="error"' in text(response)
        with app.app_context():
            assert db.session.query(Game).count() == before
