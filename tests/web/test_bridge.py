"""Bridge at home through the test client: a new evening, deals in the pad, the engine's word
on every deal, corrections and deletions logged, undo, the next rubber's seats, the game file."""

from __future__ import annotations

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

from scorekeeper.bridge.models import BridgeGame
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.rules import bridge
from tests.web.crawler import as_drawn, form_to
from tests.web.table import NONCE, TOKEN, text
from tests.web.test_fuzz import database_content

FOUR = ("Anne", "Bruno", "Chloé", "Denis")
VERSION = re.compile(r'name="drawn_from" type="hidden" value="(\d+)"')


class Evening:
    """An evening at the table, played through the pages as a phone without JavaScript."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.url = ""

    def start(self, form: str = "rubber", first_dealer: str = "N", **extra: str) -> str:
        page = text(self.client.get("/bridge/new"))
        token, nonce = TOKEN.search(page), NONCE.search(page)
        assert token and nonce
        data = {
            "csrf_token": token.group(1),
            "nonce": nonce.group(1),
            **dict(zip(("north", "east", "south", "west"), FOUR, strict=True)),
            "form": form,
            "first_dealer": first_dealer,
            **extra,
        }
        response = self.client.post("/bridge/new", data=data)
        assert response.status_code == 302, text(response)
        self.url = response.headers["Location"]
        return self.url

    def fields(self) -> dict[str, str]:
        page = text(self.client.get(self.url))
        token, version = TOKEN.search(page), VERSION.search(page)
        assert token and version
        return {"csrf_token": token.group(1), "drawn_from": version.group(1)}

    def delete(self, number: int):  # type: ignore[no-untyped-def]
        """Delete a deal from its correction page, as drawn."""
        page = text(self.client.get(f"{self.url}/deals/{number}/edit"))
        form = form_to(page, "/delete")
        return self.client.post(form.action, data=as_drawn(form))

    def deal(self, number: int, **deal: Any):  # type: ignore[no-untyped-def]
        data = {**self.fields(), **{name: str(value) for name, value in deal.items()}}
        return self.client.post(f"{self.url}/deals/{number}", data=data)

    def played(self, number: int, contract: str, declarer: str, result: int, **extra: Any) -> None:
        parsed = bridge.Contract.parse(contract)
        response = self.deal(
            number,
            level=parsed.level,
            strain=parsed.strain.value,
            declarer=declarer,
            doubled=parsed.doubled,
            result=result,
            **extra,
        )
        assert response.status_code == 302, text(response)

    def game(self, app: Flask) -> BridgeGame:
        game = db.session.get(Game, self.url.rsplit("/", 1)[1])
        assert isinstance(game, BridgeGame)
        return game


@pytest.fixture
def evening(client: FlaskClient) -> Evening:
    table = Evening(client)
    table.start()
    return table


def test_the_home_and_new_game_pages_offer_bridge(client: FlaskClient) -> None:
    assert 'href="/bridge/new"' in text(client.get("/"))
    page = text(client.get("/new"))
    assert 'href="/bridge/new"' in page and 'href="/ascenseur/new/escalier"' in page


def test_a_rubber_won_two_games_to_one_matches_the_engine(evening: Evening, app: Flask) -> None:
    evening.played(1, "4S", "N", 0, honours="NS-100")  # N-S game: 120 below, 100 honours
    evening.played(2, "3NTX", "E", -1)  # E-W down one doubled, not vulnerable: 100 to N-S
    evening.played(3, "4H", "E", 1)  # E-W game: 120 below, 30 above
    evening.played(4, "2C", "S", 0)  # part-score 40
    evening.played(5, "3NT", "N", 0)  # N-S second game: rubber 2-1, 500
    page = text(evening.client.get(evening.url))
    deals = [
        bridge.RubberDeal("NS", bridge.Contract.parse("4S"), 10, bridge.Honours("NS", 100)),
        bridge.RubberDeal("EW", bridge.Contract.parse("3NTX"), 8),
        bridge.RubberDeal("EW", bridge.Contract.parse("4H"), 11),
        bridge.RubberDeal("NS", bridge.Contract.parse("2C"), 8),
        bridge.RubberDeal("NS", bridge.Contract.parse("3NT"), 9),
    ]
    rubber = bridge.score_rubber(deals)
    assert rubber.finished and rubber.games_won == bridge.BySide(2, 1)
    assert f'<tr class="totals"><td>{rubber.totals.ns}</td><td>{rubber.totals.ew}</td></tr>' in page
    margin = rubber.totals.ns - rubber.totals.ew
    assert f"Anne &amp; Chloé win by {margin}." in page
    assert "Who sits where for the next one?" in page
    assert f"+{margin}" in page and f"−{margin}" in page  # the players' running totals


def test_a_bad_deal_is_refused_with_its_reason_and_nothing_changes(
    evening: Evening, app: Flask
) -> None:
    cases = [
        ({"level": 4, "strain": "S", "result": 0}, "Choose who played the contract."),
        ({"strain": "S", "declarer": "N", "result": 0}, "Choose the level of the contract."),
        (
            {"level": 7, "strain": "NT", "declarer": "N", "result": 1},
            "7NT cannot make an overtrick: 13 tricks is all there are.",
        ),
        (
            {"level": 7, "strain": "S", "declarer": "N", "doubled": 1, "result": 2},
            "7♠X cannot make an overtrick: 13 tricks is all there are.",
        ),
        (
            {"level": 6, "strain": "H", "declarer": "N", "result": 2},
            "6♥ can make at most 1 overtrick: 13 tricks is all there are.",
        ),
        (
            {"level": 5, "strain": "C", "declarer": "N", "result": 3},
            "5♣ can make at most 2 overtricks: 13 tricks is all there are.",
        ),
        ({"level": 1, "strain": "S", "declarer": "N", "result": -8}, "at most 7 down"),
        (
            {"level": 3, "strain": "NT", "declarer": "N", "result": 0, "honours": "NS-100"},
            "At no trump only the four aces in one hand count: 150.",
        ),
        ({"level": 3, "strain": "NT", "declarer": "N"}, "Tap the result of the deal"),
        ({"level": 9, "strain": "S", "declarer": "N", "result": 0}, "Not a valid choice"),
        ({"level": 3, "strain": "Z", "declarer": "Q", "result": "x"}, "Tap the result"),
    ]
    for deal, message in cases:
        response = evening.deal(1, **deal)
        assert response.status_code == 422, deal
        assert message in text(response), (deal, text(response)[-3000:])
    kept = text(evening.deal(1, level=4, strain="S", doubled=1, result=-2))
    for name, value in (("level", "4"), ("strain", "S"), ("doubled", "1")):
        assert re.search(
            rf'<input checked id="{name}-\d" name="{name}" type="radio" value="{value}">', kept
        )
    with app.app_context():
        assert evening.game(app).deals == []


def test_a_passed_out_deal_is_one_tap_and_the_next_player_deals(evening: Evening) -> None:
    assert evening.deal(1, result="passed", level=3).status_code == 302
    page = text(evening.client.get(evening.url))
    assert "Deal 2" in page and "passed out" in page
    assert "<strong>Bruno</strong>" in page  # East deals the second deal


def test_a_deal_sent_twice_is_entered_once_and_another_phones_is_shown_beside_mine(
    evening: Evening, app: Flask
) -> None:
    fields = evening.fields()
    deal = {"level": "4", "strain": "S", "declarer": "N", "result": "0"}
    first = evening.client.post(f"{evening.url}/deals/1", data={**fields, **deal})
    again = evening.client.post(f"{evening.url}/deals/1", data={**fields, **deal})
    assert first.status_code == again.status_code == 302
    other = {**deal, "level": "3", "strain": "NT"}
    conflict = evening.client.post(f"{evening.url}/deals/1", data={**fields, **other})
    assert conflict.status_code == 409
    page = text(conflict)
    assert "Deal 1 was entered on another phone" in page
    assert "4♠ by N, made" in page and "3NT by N, made" in page
    with app.app_context():
        assert len(evening.game(app).deals) == 1


def test_a_deal_is_corrected_and_deleted_and_both_are_logged(evening: Evening, app: Flask) -> None:
    evening.played(1, "4S", "N", 0)
    evening.played(2, "2H", "E", -1)
    edit = text(evening.client.get(f"{evening.url}/deals/1/edit"))
    token = TOKEN.search(edit)
    original = re.search(r'name="drawn_from" type="hidden" value="([^"]+)"', edit)
    assert token and original
    response = evening.client.post(
        f"{evening.url}/deals/1/edit",
        data={
            "csrf_token": token.group(1),
            "drawn_from": original.group(1),
            "level": "4",
            "strain": "S",
            "declarer": "N",
            "doubled": "1",
            "result": "1",
        },
    )
    assert response.status_code == 302
    page = text(evening.client.get(evening.url))
    assert "Deal 1 corrected; the pad is redrawn." in page
    assert "Deal 1 corrected at" in page and "4♠ by N, made → 4♠X by N, +1" in page
    response = evening.delete(2)
    assert response.status_code == 302
    page = text(evening.client.get(evening.url))
    assert "Deal 2 deleted at" in page and "(2♥ by E, −1)" in page
    with app.app_context():
        game = evening.game(app)
        assert [record.values["doubled"] for record in game.deals] == [1]


def test_undo_takes_back_the_last_deal_and_logs_it(evening: Evening, app: Flask) -> None:
    evening.played(1, "4S", "N", 0)
    evening.played(2, "3NT", "S", 0)  # rubber over: a second rubber may start
    fields = evening.fields()
    evening.client.post(f"{evening.url}/seating", data={**fields, "action": "same"})
    fields = evening.fields()
    response = evening.client.post(f"{evening.url}/undo", data=fields)
    assert response.status_code == 302
    page = text(evening.client.get(evening.url))
    assert "Deal 2: taken back (3NT by S, made)." in page
    assert "Rubber 1" in page and "Rubber 2" not in page  # the rubber begun after it went too
    with app.app_context():
        assert len(evening.game(app).deals) == 1 and len(evening.game(app).seatings) == 1


def test_the_next_rubber_asks_who_sits_where_and_keeps_the_players_totals(
    evening: Evening, app: Flask
) -> None:
    evening.played(1, "4S", "N", 0)
    evening.played(2, "4S", "N", 0)  # N-S (Anne & Chloé) win 2-0: 120+120+700
    fields = evening.fields()
    bad = evening.client.post(
        f"{evening.url}/seating",
        data={**fields, "action": "change", "north": "0", "east": "0", "south": "2", "west": "3"},
    )
    assert bad.status_code == 422 and "Each player sits in one seat only." in text(bad)
    response = evening.client.post(
        f"{evening.url}/seating",
        data={**fields, "action": "change", "north": "0", "east": "2", "south": "1", "west": "3"},
    )
    assert response.status_code == 302
    evening.played(3, "4H", "E", 0)  # Chloé (East) now partners Denis
    evening.played(4, "3NT", "W", 0)
    with app.app_context():
        from scorekeeper.bridge.evening import score_evening

        scored = score_evening(evening.game(app))
    # Rubber 1: N-S 940 (120, 120, 700). Rubber 2: E-W 920 (120, 100, 700), Chloé now East.
    assert scored.points == (940 - 920, -940 - 920, 940 + 920, -940 + 920)
    # Each player's net settled (RULES.md §4), not each rubber's: 1 860 is 19, where 9 + 9
    # would say 18.
    assert scored.hundreds == (0, -19, 19, 0)
    page = text(evening.client.get(evening.url))
    assert "Chloé &amp; Denis win by 920." in page


def test_the_next_rubber_sent_again_is_taken_as_begun_only_with_the_seats_it_asked(
    evening: Evening, app: Flask
) -> None:
    evening.played(1, "4S", "N", 0)
    evening.played(2, "4S", "N", 0)
    fields = evening.fields()  # both phones drew the seating form from the same page
    swapped = {"action": "change", "north": "0", "east": "2", "south": "1", "west": "3"}
    first = evening.client.post(f"{evening.url}/seating", data={**fields, **swapped})
    assert first.status_code == 302
    # The same seats again (a second phone, or a form sent twice): the game holds it already.
    again = evening.client.post(f"{evening.url}/seating", data={**fields, **swapped})
    assert again.status_code == 302
    # Other seats: both shown, theirs kept unless this phone seats its own.
    other = evening.client.post(f"{evening.url}/seating", data={**fields, "action": "same"})
    page = text(other)
    assert other.status_code == 409
    assert "Rubber 2 was begun on another phone" in page
    assert "Anne &amp; Chloé" in page and "Anne &amp; Bruno" in page  # mine, then theirs
    assert "Seat mine instead" in page
    with app.app_context():
        assert [s.seats for s in evening.game(app).seatings][1] == {"N": 0, "E": 2, "S": 1, "W": 3}
    instead = evening.client.post(
        f"{evening.url}/seating",
        data={
            **evening.fields(),
            "instead": "2",
            "north": "0",
            "east": "1",
            "south": "2",
            "west": "3",
        },
    )
    assert instead.status_code == 302
    with app.app_context():
        seatings = evening.game(app).seatings
        assert len(seatings) == 2 and seatings[1].seats == {"N": 0, "E": 1, "S": 2, "W": 3}
    # Once a deal is played in it, the rubber's seats are the table's: theirs can only be kept.
    evening.played(3, "2H", "E", 0)
    late = evening.client.post(f"{evening.url}/seating", data={**fields, **swapped})
    assert late.status_code == 409 and "Seat mine instead" not in text(late)
    stale = evening.client.post(
        f"{evening.url}/seating",
        data={
            **evening.fields(),
            "instead": "2",
            "north": "0",
            "east": "2",
            "south": "1",
            "west": "3",
        },
    )
    assert stale.status_code == 409
    with app.app_context():
        assert evening.game(app).seatings[1].seats == {"N": 0, "E": 1, "S": 2, "W": 3}


SEATING_DRAWN = re.compile(r'name="drawn_from" type="hidden" value="(after-\d+)"')


def test_a_seating_drawn_after_an_earlier_rubber_seats_no_later_one(
    evening: Evening, app: Flask
) -> None:
    evening.played(1, "4S", "N", 0)
    evening.played(2, "4S", "N", 0)
    drawn = SEATING_DRAWN.search(text(evening.client.get(evening.url)))
    assert drawn and drawn.group(1) == "after-1"
    after_first = {**evening.fields(), "drawn_from": drawn.group(1)}
    begun = evening.client.post(f"{evening.url}/seating", data={**after_first, "action": "same"})
    assert begun.status_code == 302
    evening.played(3, "4S", "N", 0)
    evening.played(4, "4S", "N", 0)  # rubber 2 over too
    # A phone's form of the end of rubber 1, sent now (kept while offline, a page left open):
    # it asked for rubber 2, which was begun and played since, and seats no rubber 3.
    late = evening.client.post(
        f"{evening.url}/seating", data={**after_first, "action": "with-east"}
    )
    page = text(late)
    assert late.status_code == 409 and "Rubber 2 was begun on another phone" in page
    assert "Seat mine instead" not in page
    again = evening.client.post(f"{evening.url}/seating", data={**after_first, "action": "same"})
    assert again.status_code == 302  # what it asked for is what the game holds
    with app.app_context():
        assert len(evening.game(app).seatings) == 2
    drawn = SEATING_DRAWN.search(text(evening.client.get(evening.url)))
    assert drawn and drawn.group(1) == "after-2"
    # Rubber 2's last deal taken back, the form drawn at its end is refused, not taken as
    # seating rubber 2 again; so is one drawn after a rubber there is none of.
    assert evening.client.post(f"{evening.url}/undo", data=evening.fields()).status_code == 302
    for follows in (drawn.group(1), "after-9"):
        early = evening.client.post(
            f"{evening.url}/seating",
            data={**evening.fields(), "drawn_from": follows, "action": "same"},
        )
        assert early.status_code == 409
        assert "This rubber is not over: the next one is seated when it is." in text(early)
    with app.app_context():
        assert len(evening.game(app).seatings) == 2
    evening.played(4, "4S", "N", 0)
    third = evening.client.post(
        f"{evening.url}/seating",
        data={**evening.fields(), "drawn_from": drawn.group(1), "action": "with-east"},
    )
    assert third.status_code == 302
    with app.app_context():
        seatings = evening.game(app).seatings
        assert len(seatings) == 3 and seatings[2].seats == {"N": 0, "S": 1, "E": 2, "W": 3}


def test_chicago_scores_its_four_deals_as_the_engine_does(client: FlaskClient, app: Flask) -> None:
    table = Evening(client)
    table.start(form="chicago", first_dealer="E")
    table.played(1, "2S", "N", 0)
    table.played(2, "2D", "N", 1)
    table.played(3, "4H", "W", -2, honours="EW-100")
    early = client.post(f"{table.url}/seating", data={**table.fields(), "action": "same"})
    assert early.status_code == 409
    assert "This Chicago wheel is not over: the next one is seated when it is." in text(early)
    table.played(4, "1NT", "S", 0)
    deals = [
        bridge.RubberDeal("NS", bridge.Contract.parse("2S"), 8),
        bridge.RubberDeal("NS", bridge.Contract.parse("2D"), 9),
        bridge.RubberDeal("EW", bridge.Contract.parse("4H"), 8, bridge.Honours("EW", 100)),
        bridge.RubberDeal("NS", bridge.Contract.parse("1NT"), 7),
    ]
    chicago = bridge.score_chicago(deals, first_dealer=bridge.Seat.EAST)
    page = text(client.get(table.url))
    assert chicago.wheel_complete and "Chicago wheel 1 is over" in page
    assert re.search(
        rf'<tr class="totals">.*?<td class="num">{chicago.totals.ns}</td><td class="num">'
        rf"{chicago.totals.ew}</td>",
        page,
        re.DOTALL,
    )


def test_an_evening_exports_and_imports_again(
    evening: Evening, app: Flask, client: FlaskClient
) -> None:
    evening.played(1, "4S", "N", 0, honours="NS-150")
    evening.played(2, "6NTXX", "E", -3)
    exported = client.get(f"{evening.url}/game.json")
    document = json.loads(text(exported))
    assert document["family"] == "bridge" and len(document["deals"]) == 2
    token = TOKEN.search(text(client.get("/import")))
    assert token
    response = client.post(
        "/import",
        data={"csrf_token": token.group(1), "file": (io.BytesIO(exported.get_data()), "g.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302 and response.headers["Location"].startswith("/bridge/")
    copy = text(client.get(response.headers["Location"]))
    assert (
        text(client.get(evening.url)).count("6NTXX by E, −3") == copy.count("6NTXX by E, −3") == 1
    )
    spoiled = {**document, "deals": [{**document["deals"][0], "declarer": None}]}
    response = client.post(
        "/import",
        data={
            "csrf_token": token.group(1),
            "file": (io.BytesIO(json.dumps(spoiled).encode()), "g.json"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 422 and "deals › 1" in text(response)


def test_the_sheet_shows_every_rubber_and_a_viewer_cannot_enter(
    evening: Evening, app: Flask
) -> None:
    evening.played(1, "4S", "N", 0)
    sheet = text(evening.client.get(f"{evening.url}/sheet"))
    assert "Rubber 1" in sheet and "The evening" in sheet
    viewer = app.test_client()
    page = text(viewer.get(evening.url))
    assert "You are looking on" in page and 'name="level"' not in page
    token = TOKEN.search(text(viewer.get("/bridge/new")))
    assert token
    refused = viewer.post(
        f"{evening.url}/deals/2",
        data={
            "csrf_token": token.group(1),
            "level": "1",
            "strain": "C",
            "declarer": "N",
            "result": "0",
        },
    )
    assert refused.status_code == 403


FUZZ_FIELDS = [
    "csrf_token",
    "drawn_from",
    "nonce",
    "north",
    "east",
    "south",
    "west",
    "form",
    "as_duplicate",
    "first_dealer",
    "level",
    "strain",
    "declarer",
    "doubled",
    "honours",
    "result",
    "action",
]
FUZZ_VALUES = st.one_of(
    st.text(max_size=20),
    st.integers(-(10**9), 10**9).map(str),
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "4",
            "7",
            "8",
            "-1",
            "-13",
            "-14",
            "passed",
            "S",
            "NT",
            "N",
            "W",
            "X",
            "NS-100",
            "EW-150",
            "NS-999",
            "same",
            "change",
            "chicago",
            "rubber",
            "y",
            "\x00",
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
            "GAME/seating",
            "GAME/undo",
        ]
    ),
    fields=st.dictionaries(st.sampled_from(FUZZ_FIELDS), FUZZ_VALUES, max_size=10),
    token=st.booleans(),
)
def test_no_post_breaks_an_evening_or_changes_what_it_refuses(
    app: Flask, client: FlaskClient, route: str, fields: dict[str, str], token: bool
) -> None:
    app.config["NEW_GAMES_LIMIT"] = "100000 per minute"  # every example starts an evening
    table = Evening(client)
    table.start()
    table.played(1, "4S", "N", 0)
    table.played(2, "2H", "E", -1)
    url = "/bridge/" + route.replace("GAME", table.url.rsplit("/", 1)[1])
    form = dict(fields)
    if token:
        form["csrf_token"] = table.fields()["csrf_token"]
    before = database_content(app)
    response = client.post(url, data=form)
    assert response.status_code < 500, text(response)
    if response.status_code >= 400:
        assert database_content(app) == before, (url, form, response.status_code)


def edit_deal(evening: Evening, number: int, **deal: object):  # type: ignore[no-untyped-def]
    page = text(evening.client.get(f"{evening.url}/deals/{number}/edit"))
    token = TOKEN.search(page)
    original = re.search(r'name="drawn_from" type="hidden" value="([^"]+)"', page)
    assert token and original
    data = {"csrf_token": token.group(1), "drawn_from": original.group(1)}
    return evening.client.post(
        f"{evening.url}/deals/{number}/edit",
        data={**data, **{name: str(value) for name, value in deal.items()}},
    )


def test_a_rubber_over_stays_over_once_the_next_one_has_begun(evening: Evening, app: Flask) -> None:
    evening.played(1, "4S", "N", 0)
    evening.played(2, "4S", "N", 0)
    evening.client.post(f"{evening.url}/seating", data={**evening.fields(), "action": "same"})
    evening.played(3, "2C", "E", 0)
    response = edit_deal(evening, 2, level=4, strain="S", declarer="N", result=-1)
    assert response.status_code == 422
    assert "Rubber 1 would not be over any more" in text(response)
    # The refused deal is not taken for the stored one: the form still corrects it.
    assert "Now: 4♠ by N, made." in text(response)
    fine = edit_deal(evening, 2, level=4, strain="S", declarer="N", result=1)
    assert fine.status_code == 302
    deleted = evening.delete(1)
    assert deleted.status_code == 302
    page = text(evening.client.get(evening.url))
    assert "Rubber 1 would not be over any more" in page
    with app.app_context():
        assert len(evening.game(app).deals) == 3


def test_a_chicago_wheel_never_has_more_than_four_deals(client: FlaskClient, app: Flask) -> None:
    table = Evening(client)
    table.start(form="chicago")
    assert table.deal(1, result="passed").status_code == 302
    for number in range(2, 6):
        table.played(number, "1C", "N", 0)
    response = edit_deal(table, 1, level=1, strain="C", declarer="N", result=0)
    assert response.status_code == 422
    assert "Chicago wheel 1 has four deals already." in text(response)


def test_an_import_with_rubbers_out_of_order_is_refused(
    evening: Evening, client: FlaskClient
) -> None:
    evening.played(1, "4S", "N", 0)
    document = json.loads(text(client.get(f"{evening.url}/game.json")))
    document["seatings"].append({"number": 2, "seats": {"N": 0, "E": 1, "S": 2, "W": 3}})
    document["deals"] = [
        {**document["deals"][0], "number": 1, "rubber": 2},
        {**document["deals"][0], "number": 2, "rubber": 1},
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
    assert response.status_code == 422 and "rubber after rubber" in text(response)


def test_a_game_opens_only_at_its_own_familys_address(evening: Evening, app: Flask) -> None:
    game_id = evening.url.rsplit("/", 1)[1]
    assert evening.client.get(evening.url).status_code == 200  # drawn and kept
    assert evening.client.get(f"/ascenseur/{game_id}").status_code == 404
    assert evening.client.get(f"/ascenseur/{game_id}/version").status_code == 404
    assert evening.client.get(f"/echelons/{game_id}").status_code == 404


def test_the_correction_page_names_who_sat_where_then(evening: Evening) -> None:
    evening.played(1, "4S", "N", 0)
    evening.played(2, "4S", "N", 0)
    response = evening.client.post(
        f"{evening.url}/seating", data={**evening.fields(), "action": "with-east"}
    )
    assert response.status_code == 302
    page = text(evening.client.get(evening.url))
    assert "Anne &amp; Bruno" in page  # North now partners the player who was East
    edit = text(evening.client.get(f"{evening.url}/deals/1/edit"))
    assert re.search(r"<strong>N</strong> Anne</span>.*<strong>E</strong> Bruno</span>", edit, re.S)
    assert re.search(r"<strong>S</strong> Chloé</span>", edit)


def test_an_entered_deal_is_said_on_the_next_page(evening: Evening) -> None:
    response = evening.deal(1, level=3, strain="NT", declarer="S", result=1)
    assert response.status_code == 302
    assert "Deal 1 entered: 3NT by S, +1." in text(evening.client.get(evening.url))


def test_an_exact_fifty_settles_in_hundreds_as_the_evening_chose(
    client: FlaskClient, app: Flask
) -> None:
    # E-W one down (50 to N-S), then two 3NT made by North: 50 + 100 + 100 + 700 = 950.
    settled = {}
    for rounding, hundreds in (("50-up", "+10"), ("50-down", "+9")):
        table = Evening(client)
        table.start(rounding=rounding)
        table.played(1, "2H", "E", -1)
        table.played(2, "3NT", "N", 0)
        table.played(3, "3NT", "N", 0)
        page = text(client.get(table.url))
        row = re.search(
            r'<th scope="row">Anne</th><td class="num total">([^<]+)</td>'
            r'<td class="num">([^<]+)</td>',
            page,
        )
        assert row and row.groups() == ("+950", hundreds), rounding
        rule = "50 up" if rounding == "50-up" else "50 down"
        assert f"In hundreds: each player's net rounded to the nearest hundred, {rule}." in page
        assert f"In hundreds: each player's net rounded to the nearest hundred, {rule}." in text(
            client.get(f"{table.url}/sheet")
        )
        settled[rounding] = table
    # The choice goes with the game file, and comes back with it.
    exported = client.get(f"{settled['50-down'].url}/game.json")
    assert json.loads(text(exported))["settings"]["rounding"] == "50-down"
    token = TOKEN.search(text(client.get("/import")))
    assert token
    response = client.post(
        "/import",
        data={"csrf_token": token.group(1), "file": (io.BytesIO(exported.get_data()), "g.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    copy = text(client.get(response.headers["Location"]))
    assert "each player's net rounded to the nearest hundred, 50 down." in copy
    assert re.search(
        r'<th scope="row">Anne</th><td class="num total">\+950</td>'
        r'<td class="num">\+9</td>',
        copy,
    )


def test_the_setup_offers_the_settlements_rounding_fifty_up_unless_chosen(
    client: FlaskClient, app: Flask
) -> None:
    page = text(client.get("/bridge/new"))
    assert 'name="rounding" type="radio" value="50-up"' in page
    assert re.search(
        r'<input checked id="rounding-0" name="rounding" type="radio" value="50-up">', page
    )
    table = Evening(client)
    table.start()  # an older form, without the choice: 50 up, as before
    assert "rounded to the nearest hundred, 50 up." in text(client.get(table.url))
    refused = Evening(client)
    with pytest.raises(AssertionError):
        refused.start(rounding="50-sideways")


def test_a_chicago_evening_speaks_of_its_wheels_not_of_rubbers(
    client: FlaskClient, evening: Evening
) -> None:
    assert "Points: the rubbers played out, each won by its margin." in text(
        client.get(evening.url)
    )
    table = Evening(client)
    table.start(form="chicago")
    for number in range(1, 5):
        table.played(number, "1C", "N", 0)
    for page in (text(client.get(table.url)), text(client.get(f"{table.url}/sheet"))):
        assert (
            "Points: the Chicago wheels of four deals played out, each won by its margin." in page
        )
        assert "rubber" not in page.lower()
    late = table.deal(5, level=1, strain="C", declarer="N", result=0)
    assert late.status_code == 302
    assert "This Chicago wheel is over: choose who sits where for the next one." in text(
        client.get(table.url)
    )


def test_a_chicago_scored_as_duplicate_neither_offers_nor_takes_honours(
    client: FlaskClient, app: Flask
) -> None:
    table = Evening(client)
    table.start(form="chicago", as_duplicate="y")
    assert 'name="honours"' not in text(client.get(table.url))
    response = table.deal(1, level=4, strain="S", declarer="N", result=0, honours="NS-100")
    assert response.status_code == 422
    assert "Honours do not count when every deal is scored as duplicate." in text(response)
    with app.app_context():
        assert table.game(app).deals == []
    table.played(1, "4S", "N", 0)
    assert 'name="honours"' not in text(client.get(f"{table.url}/deals/1/edit"))
    refused = edit_deal(table, 1, level=4, strain="S", declarer="N", result=0, honours="EW-150")
    assert refused.status_code == 422
    with app.app_context():
        assert table.game(app).deals[0].honours is None
    # Scored the rubber way, they count, and the form offers them.
    rubber = Evening(client)
    rubber.start(form="chicago")
    assert 'name="honours"' in text(client.get(rubber.url))
    rubber.played(1, "4S", "N", 0, honours="NS-100")


def test_the_last_deal_sent_again_from_a_page_drawn_before_it_asks_before_entering_it_twice(
    evening: Evening, app: Flask
) -> None:
    before = evening.fields()  # the page the back button brings again
    deal = {"level": "4", "strain": "S", "declarer": "N", "result": "0"}
    assert evening.client.post(f"{evening.url}/deals/1", data={**before, **deal}).status_code == 302
    again = evening.client.post(f"{evening.url}/deals/2", data={**before, **deal})
    assert again.status_code == 409
    page = text(again)
    assert "Deal 2: the game changed since this page was drawn" in page
    assert "Deal 1 <strong>4♠ by N, made</strong>" in page  # what is entered already
    assert "Deal 2 <strong>4♠ by N, made</strong>" in page  # and what was sent again
    with app.app_context():
        assert len(evening.game(app).deals) == 1
    # One tap enters it again: the question's form is drawn from the game as it is now.
    question = page[page.index('<section class="conflict"') :]
    question = question[: question.index("</form>")]
    assert 'action="' + evening.url + '/deals/2"' in question
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', question))
    token = TOKEN.search(question)
    assert token and hidden["drawn_from"] == evening.fields()["drawn_from"]
    response = evening.client.post(
        f"{evening.url}/deals/2", data={"csrf_token": token.group(1), **hidden}
    )
    assert response.status_code == 302
    assert "Deal 2 entered: 4♠ by N, made." in text(evening.client.get(evening.url))
    with app.app_context():
        assert [record.values for record in evening.game(app).deals] == [
            evening.game(app).deals[0].values
        ] * 2


def test_the_same_deal_again_from_the_page_drawn_after_it_is_simply_entered(
    evening: Evening, app: Flask
) -> None:
    before = evening.fields()
    evening.played(1, "1C", "S", 0)
    evening.played(2, "1C", "S", 0)  # played twice in a row: the page said deal 2
    # Another deal from the earlier page is no repeat: it goes in as deal 3.
    other = {"level": "2", "strain": "C", "declarer": "E", "result": "-1"}
    assert (
        evening.client.post(f"{evening.url}/deals/3", data={**before, **other}).status_code == 302
    )
    with app.app_context():
        assert len(evening.game(app).deals) == 3
