"""The Ascenseur pages through Flask's test client: the whole flow without JavaScript, every bad
input, corrections, undo and the end of the game."""

from __future__ import annotations

import html
import re

import pytest
import sqlalchemy
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import check

from scorekeeper.ascenseur.models import RoundRecord
from scorekeeper.extensions import db
from scorekeeper.games.models import Correction, Game
from tests.web.table import ORIGINAL, TOKEN, Table, text
from tests.web.test_ascenseur_sheet import import_file

FOUR = ("Anne", "Bruno", "Chloé", "Denis")


@pytest.fixture
def table(client: FlaskClient) -> Table:
    return Table(client)


def stored(app: Flask) -> tuple[int, list[tuple[int, list[int], list[int] | None]]]:
    """The games, and every round's entries as stored."""
    with app.app_context():
        games = db.session.scalar(db.select(db.func.count(Game.id)))
        rounds = db.session.execute(db.select(RoundRecord).order_by(RoundRecord.id)).scalars()
        return games or 0, [(r.number, r.bids, r.tricks) for r in rounds]


def checked(page: str, name: str) -> str | None:
    """The value of the checked radio button of that name, as the page was drawn."""
    match = re.search(rf'<input checked id="{name}-\d+" name="{name}"[^>]* value="(\d+)"', page)
    return match.group(1) if match else None


def test_migrations_match_the_models(app: Flask) -> None:
    with app.app_context():
        check()  # raises if a model changed without its migration


def test_home_offers_to_start_a_game(client: FlaskClient) -> None:
    page = text(client.get("/"))
    assert 'href="/ascenseur/new"' in page
    assert "No game in progress." in page


def test_choosing_a_game_lists_the_six_presets_with_a_line_each(client: FlaskClient) -> None:
    page = text(client.get("/ascenseur/new"))
    for name in ("Ascenseur", "Ascenseur à charge fixe", "Escalier", "(gros contrats)"):
        assert name in page
    assert "Made: 10 + 2 per trick bid" in page
    assert page.count('class="preset"') == 6


def test_new_game_page_shows_the_game_before_it_starts(client: FlaskClient) -> None:
    page = text(client.get("/ascenseur/new/ascenseur-a-charge"))
    assert "25 rounds" in page
    assert "1 2 3 4 5 6 7 8 9 10 11 12 13 12 11" in page
    assert "bid 2, took 2 → +14; bid 2, took 4 → −4" in page


def test_the_preview_tells_which_cards_to_remove(table: Table, client: FlaskClient) -> None:
    data = table.setup_data(
        "ascenseur-a-charge", ("Ana", "Bob", "Cy", "Di", "Ed"), action="preview"
    )
    page = text(client.post("/ascenseur/new/ascenseur-a-charge", data=data))
    assert "take out of the deck: 2♣ 2♦" in page
    assert "19 rounds" in page


def test_own_scoring_shows_its_worked_example(table: Table, client: FlaskClient) -> None:
    data = table.setup_data(
        "ascenseur",
        FOUR,
        action="preview",
        made_base=20,
        made_per_trick=10,
        missed_per_trick=10,
    )
    page = text(client.post("/ascenseur/new/ascenseur", data=data))
    assert "bid 2, took 2 → +40; bid 2, took 4 → −20" in page


def test_the_live_preview_answers_the_form_as_it_changes(client: FlaskClient) -> None:
    query = (
        "players-0=A&players-1=B&players-2=C&top_rounds=each-player&bidding=in-turn&hook=y"
        "&hook_from=1&first_lead=dealer&play=free&deck_cards=52&decks=1&first_dealer=0"
        "&shape=up-and-down&hands=all&trump=when-cards-remain"
    )
    page = text(client.get(f"/ascenseur/new/ascenseur-reguliere/preview?{query}"))
    assert 'id="preview"' in page and "<html" not in page
    assert "17 17 17" in page  # the top round once per player
    assert "2♣" in page


def test_players_can_be_added_moved_and_removed_without_javascript(
    table: Table, client: FlaskClient
) -> None:
    data = table.setup_data("ascenseur", ("Anne", "Bruno", "Chloé"), first_dealer=2, action="add")
    page = text(client.post("/ascenseur/new/ascenseur", data=data))
    assert page.count('name="players-') == 4
    data = table.setup_data("ascenseur", ("Anne", "Bruno", "Chloé"), first_dealer=2, action="up-2")
    page = text(client.post("/ascenseur/new/ascenseur", data=data))
    assert re.findall(r'name="players-\d" [^>]*value="([^"]*)"', page) == ["Anne", "Chloé", "Bruno"]
    assert checked(page, "first_dealer") == "1"  # Chloé still deals first
    data = table.setup_data("ascenseur", ("Anne", "Bruno", "Chloé"), action="remove-0")
    page = text(client.post("/ascenseur/new/ascenseur", data=data))
    assert re.findall(r'name="players-\d" [^>]*value="([^"]*)"', page) == ["Bruno", "Chloé"]


def test_starting_a_game_stores_the_table_and_shows_round_one(table: Table, app: Flask) -> None:
    url = table.start("ascenseur", FOUR, first_dealer=1)
    page = text(table.client.get(url))
    assert "Round 1 of 23" in page
    assert '<p class="dealer"><span>Dealer</span> <strong>Bruno</strong></p>' in page
    assert "<strong>1</strong> card each" in page
    assert "Turn the next card up" in page
    assert "Chloé leads the first trick." in page
    rows = [page.index(f'id="row-bid_{seat}"') for seat in (2, 3, 0, 1)]
    assert rows == sorted(rows)  # Chloé bids first, Bruno the dealer last
    with app.app_context():
        game = db.session.execute(db.select(Game)).scalar_one()
        assert game.names == FOUR and game.first_dealer == 1 and game.house_rules == {}
        assert len(game.id) >= 12  # not a counter


def test_house_rules_are_stored_as_changes_to_the_preset(table: Table, app: Flask) -> None:
    table.start("ascenseur-a-charge", FOUR, bidding="simultaneous", deck_cards=32)
    with app.app_context():
        game = db.session.execute(db.select(Game)).scalar_one()
        assert game.house_rules == {"bidding": "simultaneous", "deck_cards": 32}
    page = text(table.client.get(table.game_url))
    assert "Round 1 of 15" in page
    assert "The dealer may not bid" not in page


def test_a_round_bids_then_tricks_then_standings(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    # Round 1: Anne deals; Bruno 1, Chloé 0, Denis 0; Anne may not bid 0.
    assert table.bids(1, (1, 1, 0, 0), trump="H").status_code == 302
    page = text(table.client.get(table.game_url))
    assert "Trump: ♥" in page
    assert "bid 1" in page
    assert table.tricks(1, (0, 1, 0, 0)).status_code == 302
    page = text(table.client.get(table.game_url))
    assert "Round 2 of 23" in page
    assert "<strong>Bruno</strong>" in page
    assert "After round 1." in page
    assert stored(app)[1] == [(1, [1, 1, 0, 0], [0, 1, 0, 0])]


def test_an_entry_is_one_transaction(table: Table, app: Flask) -> None:
    """Load, check, write and commit, then the redirect: nothing read after the commit (the
    game's expired row read again was a second round trip to the database for every entry)."""
    table.start("ascenseur", FOUR)
    data = table.round_data("bid", (1, 1, 0, 0))
    data["trump"] = ""
    began: list[str] = []

    def begin(connection: sqlalchemy.Connection) -> None:
        began.append("begin")

    with app.app_context():
        engine = db.engine
    sqlalchemy.event.listen(engine, "begin", begin)
    try:
        response = table.client.post(f"{table.game_url}/rounds/1/bids", data=data)
    finally:
        sqlalchemy.event.remove(engine, "begin", begin)
    assert response.status_code == 302
    assert response.headers["Location"].endswith(table.game_url)
    assert began == ["begin"]
    assert stored(app)[1] == [(1, [1, 1, 0, 0], None)]


def test_the_dealers_forbidden_bid_is_refused_and_the_bids_kept(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    response = table.bids(1, (0, 1, 0, 0))  # Anne, the dealer, bids 0: the bids would add up to 1
    page = text(response)
    assert response.status_code == 422
    assert "Anne deals and may not bid 0" in page
    assert [checked(page, f"bid_{seat}") for seat in range(4)] == ["0", "1", "0", "0"]
    assert stored(app) == (1, [])


@pytest.mark.parametrize("bad", ["2", "-1", "abc", "1.5", ""])
def test_a_bid_outside_the_cards_or_not_a_number_is_refused(
    table: Table, app: Flask, bad: str
) -> None:
    table.start("ascenseur", FOUR)
    response = table.bids(1, (0, bad, 1, 1))
    assert response.status_code == 422
    page = text(response)
    bruno = page[page.index('name="bid_1"') :]
    bruno = bruno[: bruno.index("</fieldset>")]
    assert 'class="error"' in bruno  # the message sits on Bruno's row
    assert stored(app) == (1, [])


def test_a_missing_bid_names_the_player(table: Table) -> None:
    table.start("ascenseur", FOUR)
    page = text(table.bids(1, (0, None, 1, 1)))
    assert "Enter Bruno&#39;s bid." in page or "Enter Bruno's bid." in page


def test_tricks_that_do_not_add_up_are_refused_and_kept(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    table.bids(1, (1, 1, 0, 0))
    response = table.tricks(1, (0, 0, 0, 0))
    page = text(response)
    assert response.status_code == 422
    assert "The tricks add up to 0, not 1" in page
    # Said once, where the count of the tricks is, not again in the summary of the form.
    assert page.count("The tricks add up to 0, not 1") == 1
    assert re.search(r'<p class="count error" role="alert">The tricks add up to 0, not 1', page)
    assert [checked(page, f"tricks_{seat}") for seat in range(4)] == ["0", "0", "0", "0"]
    assert stored(app)[1] == [(1, [1, 1, 0, 0], None)]


def test_a_trump_suit_that_does_not_exist_is_refused(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    assert table.bids(1, (1, 1, 0, 0), trump="X").status_code == 422
    assert stored(app) == (1, [])


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (("Anne", ""), "Enter a name, or remove this row."),
        (("Anne", "anne"), "Two players cannot have the same name."),
        (("Anne", "Bruno", "Chloé", "Denis", "Ed", "Fanny"), "for 2 to 5 players, not 6"),
        (("Anne", "B" * 25), "Field cannot be longer than 24 characters."),
    ],
)
def test_bad_players_are_refused_and_the_names_kept(
    table: Table, client: FlaskClient, app: Flask, names: tuple[str, ...], message: str
) -> None:
    response = client.post("/ascenseur/new/ascenseur", data=table.setup_data("ascenseur", names))
    page = text(response)
    assert response.status_code == 422
    assert message in page
    for name in names:
        if name:
            assert f'value="{name}"' in page
    assert stored(app) == (0, [])


def test_an_impossible_own_rule_is_explained(table: Table, client: FlaskClient, app: Flask) -> None:
    data = table.setup_data(
        "ascenseur-a-charge",
        [f"P{n}" for n in range(20)],
        deck_cards=32,
        hands="even",
    )
    response = client.post("/ascenseur/new/ascenseur-a-charge", data=data)
    assert response.status_code == 422
    assert "32 cards cannot deal these hands to 20 players" in text(response)
    assert stored(app) == (0, [])


def test_starting_twice_with_the_same_form_makes_one_game(
    table: Table, client: FlaskClient, app: Flask
) -> None:
    data = table.setup_data("ascenseur", FOUR)
    first = client.post("/ascenseur/new/ascenseur", data=data)
    second = client.post("/ascenseur/new/ascenseur", data=data)
    assert first.headers["Location"] == second.headers["Location"]
    assert stored(app)[0] == 1


def test_a_second_submit_of_the_same_bids_changes_nothing(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    data = table.round_data("bid", (1, 1, 0, 0))
    url = f"{table.game_url}/rounds/1/bids"
    assert table.client.post(url, data=data).status_code == 302
    again = table.client.post(url, data=data)  # a double tap, the back button, a retry
    assert again.status_code == 302 and again.headers["Location"] == table.game_url
    assert 'role="alert"' not in text(table.client.get(table.game_url))
    assert stored(app)[1] == [(1, [1, 1, 0, 0], None)]


def test_numbers_the_rules_refuse_sent_for_a_step_already_entered_change_nothing(
    table: Table, app: Flask
) -> None:
    table.start("ascenseur", FOUR)
    drawn = table.round_data("bid", (1, 1, 0, 0))
    url = f"{table.game_url}/rounds/1/bids"
    assert table.client.post(url, data=drawn).status_code == 302
    hooked = {**drawn, "bid_1": "0"}  # one card, bids adding up to it: the dealer may not
    response = table.client.post(url, data=hooked)
    assert response.status_code == 302 and response.headers["Location"] == table.game_url
    assert table.tricks(1, (1, 0, 0, 0)).status_code == 302
    too_many = {**table.round_data("tricks", (1, 1, 0, 0))}
    response = table.client.post(f"{table.game_url}/rounds/1/tricks", data=too_many)
    assert response.status_code == 302
    assert stored(app)[1] == [(1, [1, 1, 0, 0], [1, 0, 0, 0])]


def test_an_entry_address_opened_by_a_viewer_leads_to_the_game(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    viewer = app.test_client()
    response = viewer.get(f"{table.game_url}/rounds/1/bids")
    assert response.status_code == 302 and response.headers["Location"] == table.game_url


def test_bids_entered_on_two_phones_are_shown_side_by_side(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    mine = table.round_data("bid", (0, 1, 0, 0))  # drawn before the other phone's entry
    mine["bid_0"] = "1"
    assert table.bids(1, (1, 1, 0, 0)).status_code == 302  # the other phone
    mine["bid_0"], mine["bid_2"] = "1", "1"
    response = table.client.post(f"{table.game_url}/rounds/1/bids", data=mine)
    page = text(response)
    assert response.status_code == 409
    assert "Round 1 was entered on another phone" in page
    assert re.search(r"There:.*Chloé <strong>0</strong>", page)
    assert re.search(r"Yours:.*Chloé <strong>1</strong>", page)
    assert stored(app)[1] == [(1, [1, 1, 0, 0], None)]
    # One tap puts mine instead: the correction is logged like any other.
    form = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', page))
    form["csrf_token"] = TOKEN.findall(page)[-1]
    form["drawn_from"] = html.unescape(form["drawn_from"])
    response = table.client.post(f"{table.game_url}/rounds/1/edit", data=form)
    assert response.status_code == 302
    assert stored(app)[1] == [(1, [1, 1, 1, 0], None)]
    assert "Chloé&#39;s bid 0 → 1" in text(table.client.get(table.game_url))


def test_the_same_bids_under_another_trump_are_another_phones_entry(
    table: Table, app: Flask
) -> None:
    table.start("ascenseur", FOUR)
    mine = table.round_data("bid", (1, 1, 0, 0))  # drawn before the other phone's entry
    assert table.bids(1, (1, 1, 0, 0), trump="H").status_code == 302  # the other phone
    same = table.client.post(f"{table.game_url}/rounds/1/bids", data={**mine, "trump": "H"})
    assert same.status_code == 302  # the same entry again: the game holds it already
    response = table.client.post(f"{table.game_url}/rounds/1/bids", data={**mine, "trump": "S"})
    page = text(response)
    assert response.status_code == 409
    assert "Round 1 was entered on another phone" in page
    assert re.search(r"There:.*Trump <strong>♥</strong>", page)
    assert re.search(r"Yours:.*Trump <strong>♠</strong>", page)
    with app.app_context():
        assert db.session.scalars(sqlalchemy.select(RoundRecord.trump)).all() == ["H"]
    # One tap puts mine instead, its trump with it.
    form = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', page))
    form["csrf_token"] = TOKEN.findall(page)[-1]
    form["drawn_from"] = html.unescape(form["drawn_from"])
    assert table.client.post(f"{table.game_url}/rounds/1/edit", data=form).status_code == 302
    with app.app_context():
        assert db.session.scalars(sqlalchemy.select(RoundRecord.trump)).all() == ["S"]
    assert "trump ♥ → ♠" in text(table.client.get(table.game_url))


def test_a_correction_over_another_phones_correction_keeps_both(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    table.play(1, (1, 1, 0, 0), (0, 1, 0, 0))
    mine = table.edit_data(1)  # my correction form, drawn now
    theirs = table.edit_data(1)
    fields = {f"bid_{s}": b for s, b in enumerate((1, 1, 0, 0))}
    table.client.post(
        f"{table.game_url}/rounds/1/edit",
        data={**theirs, **fields, **{f"tricks_{s}": t for s, t in enumerate((1, 0, 0, 0))}},
    )
    response = table.client.post(
        f"{table.game_url}/rounds/1/edit",
        data={**mine, **fields, **{f"tricks_{s}": t for s, t in enumerate((0, 0, 1, 0))}},
    )
    page = text(response)
    assert response.status_code == 409
    assert "was changed on another phone while you corrected it" in page
    assert "Anne 1/1, Bruno 1/0" in page
    assert checked(page, "tricks_2") == "1"  # my numbers, kept
    assert stored(app)[1] == [(1, [1, 1, 0, 0], [1, 0, 0, 0])]
    again = {
        **table.edit_data(1),
        **fields,
        **{f"tricks_{s}": t for s, t in enumerate((0, 0, 1, 0))},
    }
    again["drawn_from"] = html.unescape(ORIGINAL.search(page).group(1))  # type: ignore[union-attr]
    assert table.client.post(f"{table.game_url}/rounds/1/edit", data=again).status_code == 302
    assert stored(app)[1] == [(1, [1, 1, 0, 0], [0, 0, 1, 0])]


def test_tricks_for_a_round_not_yet_bid_change_nothing(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    response = table.tricks(1, (0, 1, 0, 0))
    assert response.status_code == 302
    assert "not the one being played" in text(table.client.get(table.game_url))
    assert stored(app) == (1, [])


def test_a_form_without_its_csrf_token_is_refused(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    data = table.round_data("bid", (1, 1, 0, 0))
    del data["csrf_token"]
    response = table.client.post(f"{table.game_url}/rounds/1/bids", data=data)
    assert response.status_code == 400
    assert "security token" in text(response) and "Scorekeeper" in text(response)
    assert stored(app) == (1, [])


@pytest.mark.parametrize(
    "url",
    ["/ascenseur/nosuchgame", "/ascenseur/new/belote", "/nowhere", "/ascenseur/x/rounds/1/edit"],
)
def test_what_does_not_exist_gets_the_404_page(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert "There is no such page or game here." in text(response)
    assert '<footer class="bottom">' in text(response)


def test_editing_an_earlier_round_rescores_and_is_logged(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    table.play(1, (1, 1, 0, 0), (0, 1, 0, 0))  # Anne −1, Bruno +1
    table.play(2, (0, 1, 2, 0), (0, 0, 2, 0))  # Bruno −1, Chloé +2
    edit = f"{table.game_url}/rounds/1/edit"
    page = text(table.client.get(edit))
    assert checked(page, "tricks_1") == "1"
    response = table.correct(1, (1, 1, 0, 0), (1, 0, 0, 0))
    assert response.status_code == 302
    page = text(table.client.get(table.game_url))
    assert "Round 1 corrected; the scores are updated." in page
    assert re.search(r"Round 1 corrected at [\d:]+\s*(AM|PM)?: Anne&#39;s tricks 0 → 1", page)
    assert re.search(r"Bruno&#39;s tricks 1 → 0", page)
    totals = re.findall(r'<td class="num total">([^<]+)</td>', page)
    assert totals == ["+2", "+1", "0", "−2"]  # Chloé, Anne, Denis, Bruno by place
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Correction.id))) == 2


def test_a_correction_that_breaks_a_rule_is_refused(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    table.play(1, (1, 1, 0, 0), (0, 1, 0, 0))
    edit = f"{table.game_url}/rounds/1/edit"
    data = {
        **table.edit_data(1),
        **{f"bid_{s}": str(b) for s, b in enumerate((0, 1, 0, 0))},
        **{f"tricks_{s}": str(t) for s, t in enumerate((0, 1, 1, 0))},
    }
    page = text(table.client.post(edit, data=data))
    assert "Anne deals and may not bid 0" in page
    assert "The tricks add up to 2, not 1" in page
    assert stored(app)[1] == [(1, [1, 1, 0, 0], [0, 1, 0, 0])]


def test_undo_takes_back_the_last_tricks_then_the_last_bids(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    table.play(1, (1, 1, 0, 0), (0, 1, 0, 0))
    undo = f"{table.game_url}/undo"
    version = re.search(
        r'name="drawn_from" type="hidden" value="(\d+)"', text(table.client.get(table.game_url))
    )
    assert version
    data = {"csrf_token": table.token(table.game_url), "drawn_from": version.group(1)}
    assert table.client.post(undo, data=data).status_code == 302
    assert stored(app)[1] == [(1, [1, 1, 0, 0], None)]
    stale = table.client.post(undo, data=data)  # the same button pressed again
    assert stale.status_code == 302
    assert stored(app)[1] == [(1, [1, 1, 0, 0], None)]
    page = text(table.client.get(table.game_url))
    assert "nothing was undone" in page
    assert "Round 1 at" in page and "tricks taken back (0/1/0/0)" in page


def test_undoing_bids_gives_back_the_noted_trump_and_logs_it(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    assert table.bids(1, (1, 1, 0, 0), trump="H").status_code == 302
    data = table.round_data("tricks", [])
    del data["csrf_token"]
    response = table.client.post(
        f"{table.game_url}/undo", data={**data, "csrf_token": table.token(table.game_url)}
    )
    assert response.status_code == 302 and "trump=H" in response.headers["Location"]
    assert stored(app)[1] == []
    page = text(table.client.get(response.headers["Location"]))
    assert re.search(r'<input checked id="trump-\d+" name="trump"[^>]* value="H"', page)
    assert checked(page, "bid_1") == "1"
    assert "Round 1 corrected at" in page and "trump ♥ → not noted" in page
    assert "bids taken back (1/1/0/0)" in page


@pytest.mark.parametrize("players", [10, 26])
def test_a_large_table_can_take_back_a_round(table: Table, app: Flask, players: int) -> None:
    names = [f"Player {seat}" for seat in range(1, players + 1)]
    table.start("ascenseur-reguliere", names)
    tricks = [0] * players
    tricks[1] = 1
    table.play(1, [0] * players, tricks)
    data = table.round_data("bid", [])
    response = table.client.post(f"{table.game_url}/undo", data=data)
    assert response.status_code == 302
    assert stored(app)[1] == [(1, [0] * players, None)]
    taken_back = "/".join(map(str, tricks))
    assert f"tricks taken back ({taken_back})" in text(table.client.get(table.game_url))
    exported = table.client.get(f"{table.game_url}/game.json").get_data()
    response = import_file(table.client, exported)
    assert response.status_code == 302
    assert f"tricks taken back ({taken_back})" in text(
        table.client.get(response.headers["Location"])
    )


def test_the_standings_say_who_can_no_longer_win(table: Table) -> None:
    # Our own rules: three rounds of one card; a made 1 is worth 10, anything else nothing.
    table.start(
        "ascenseur",
        ("Ana", "Bob", "Cy"),
        chosen_top=1,
        shape="up",
        made_base=10,
        made_per_trick=0,
        made_zero=0,
        missed_per_trick=0,
        top_rounds="each-player",
    )
    table.play(1, (1, 0, 1), (1, 0, 0))  # Ana makes her 1: 10
    table.play(2, (1, 1, 0), (1, 0, 0))  # Ana again: 20; one round left, worth 10 at most
    page = text(table.client.get(table.game_url))
    assert page.count("can no longer win") == 2
    assert "Ana has won: nobody can catch up any more." in page


def test_the_end_shows_the_final_standings_and_the_winner(
    table: Table, client: FlaskClient
) -> None:
    table.start("ascenseur", ("Ana", "Bob"), chosen_top=2, shape="up")
    table.play(1, (1, 1), (1, 0))  # Ana deals; Ana +1, Bob −1
    table.play(2, (0, 1), (0, 2))  # Bob deals; Ana +0, Bob −1
    page = text(client.get(table.game_url))
    assert "Final standings" in page
    assert "Ana wins!" in page
    assert 'name="bid_0"' not in page
    home = text(client.get("/"))
    assert "Finished games" in home and "Winner: Ana" in home


def test_a_tie_shares_the_win(table: Table, client: FlaskClient) -> None:
    table.start("ascenseur", ("Ana", "Bob"), chosen_top=1, shape="up", missed_per_trick=0)
    table.play(1, (0, 0), (0, 1))
    assert "Ana, Bob share the win!" in text(client.get(table.game_url))


def test_escalier_tells_the_table_the_round_is_blind(table: Table) -> None:
    table.start("escalier", ("Ana", "Bob", "Cy"))
    page = text(table.client.get(table.game_url))
    assert "Blind round: hold your card to your forehead" in page
    assert "Play: follow suit; otherwise trump, and overtrump if you can." in page


def test_games_in_progress_are_listed_on_the_home_page(table: Table, client: FlaskClient) -> None:
    table.start("ascenseur", FOUR)
    table.play(1, (1, 1, 0, 0), (0, 1, 0, 0))
    home = text(client.get("/"))
    assert "Anne, Bruno, Chloé, Denis" in home
    assert "Round 2 of 23" in home
    assert table.game_url in home


def test_french_for_browsers_that_prefer_it(client: FlaskClient) -> None:
    page = text(client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}))
    assert '<html lang="fr">' in page
    assert "Commencer une partie" in page


def test_the_language_switch_is_remembered(client: FlaskClient) -> None:
    response = client.get("/language/fr?next=/ascenseur/new")
    assert response.status_code == 302 and response.headers["Location"] == "/ascenseur/new"
    page = text(client.get("/ascenseur/new", headers={"Accept-Language": "en"}))
    assert '<html lang="fr">' in page
    assert client.get("/language/en?next=https://elsewhere.example/").headers["Location"] == "/"


def test_taking_back_tricks_fills_them_in_again(table: Table, app: Flask) -> None:
    table.start("ascenseur", FOUR)
    table.play(1, (1, 1, 0, 0), (0, 1, 0, 0))
    page = text(table.client.get(table.game_url))
    assert "Take back round 1's tricks" in page
    version = re.search(r'name="drawn_from" type="hidden" value="(\d+)"', page)
    assert version
    data = {"csrf_token": table.token(table.game_url), "drawn_from": version.group(1)}
    response = table.client.post(f"{table.game_url}/undo", data=data)
    page = text(table.client.get(response.headers["Location"]))
    assert "The numbers are filled in again below." in page
    assert [checked(page, f"tricks_{seat}") for seat in range(4)] == ["0", "1", "0", "0"]
    # The bids are taken back from the tricks step itself, by one button (and no other).
    assert page.count("Take back the bids") == 1
    assert "Take back round 1's bids" not in page
    tricks_form = page.index('class="entry tricks"')
    take_back = page.index(f'action="{table.game_url}/undo" class="undo take-back"')
    assert tricks_form < take_back < page.index('class="reminder"')


def test_opening_the_address_a_round_was_sent_to_leads_back_to_the_game(table: Table) -> None:
    table.start("ascenseur", FOUR)
    for kind in ("bids", "tricks"):
        response = table.client.get(f"{table.game_url}/rounds/1/{kind}")
        assert response.status_code == 302 and response.headers["Location"] == table.game_url


def test_the_language_switch_after_a_refused_entry_returns_to_the_game(table: Table) -> None:
    table.start("ascenseur", FOUR)
    page = text(table.bids(1, (0, 1, 0, 0)))
    assert f"/language/fr?next={table.game_url}" in page


def test_a_penalty_typed_with_a_minus_sign_is_a_penalty(table: Table, client: FlaskClient) -> None:
    data = table.setup_data(
        "ascenseur", FOUR, action="preview", made_base=10, made_per_trick=1, missed_per_trick=-1
    )
    page = text(client.post("/ascenseur/new/ascenseur", data=data))
    assert "bid 2, took 2 → +12; bid 2, took 4 → −2" in page


def test_dates_read_as_at_home(table: Table, client: FlaskClient) -> None:
    table.start("ascenseur", FOUR)
    british = text(client.get("/", headers={"Accept-Language": "en-GB,en;q=0.8"}))
    american = text(client.get("/", headers={"Accept-Language": "en-US,en;q=0.8"}))
    assert re.search(r"\b\d{2}/\d{2}/\d{4}\b", british)
    assert re.search(r"\b\d{1,2}/\d{1,2}/\d{2}\b", american)
    assert '<html lang="en">' in british


def test_escalier_counts_points_lost_as_positive_numbers(table: Table) -> None:
    table.start("escalier", ("Ana", "Bob", "Cy"))
    table.play(1, (1, 0, 1), (1, 0, 0))  # Cy bid 1 and took nothing: 1 point lost
    page = text(table.client.get(table.game_url))
    assert "Points lost: the fewest wins." in page
    totals = re.findall(r'<td class="num total">([^<]+)</td>', page)
    assert totals == ["0", "0", "1"]


@pytest.mark.parametrize("dealer", ["7", "-1", str(10**30)])
def test_a_first_dealer_outside_the_table_is_refused(
    table: Table, client: FlaskClient, app: Flask, dealer: str
) -> None:
    data = table.setup_data("ascenseur", FOUR)
    data["first_dealer"] = dealer
    response = client.post("/ascenseur/new/ascenseur", data=data)
    assert response.status_code == 422
    assert "Choose who deals first among the players." in text(response)
    assert stored(app) == (0, [])
    assert client.get("/").status_code == 200


@pytest.mark.parametrize(
    "data",
    [{"action": "up-²"}, {"action": "remove-¹"}, {"players-1": "Bo\x00b"}, {"nonce": "n" * 40}],
)
def test_crafted_new_game_forms_are_answered_not_crashed(
    table: Table, client: FlaskClient, app: Flask, data: dict[str, str]
) -> None:
    response = client.post(
        "/ascenseur/new/ascenseur", data={**table.setup_data("ascenseur", FOUR), **data}
    )
    assert response.status_code in (200, 422)
    assert stored(app) == (0, [])


def test_crafted_addresses_are_answered_not_crashed(table: Table) -> None:
    table.start("ascenseur", FOUR)
    assert table.client.get(f"{table.game_url}?again=²/1/1/1").status_code == 200
    assert table.client.get("/ascenseur/ab%00c").status_code == 404
    assert table.client.get("/ascenseur/ab%00c/version").status_code == 404


def test_the_same_new_game_form_changed_and_sent_again_starts_another_game(
    table: Table, client: FlaskClient, app: Flask
) -> None:
    data = table.setup_data("ascenseur", FOUR)
    first = client.post("/ascenseur/new/ascenseur", data=data)
    changed = client.post("/ascenseur/new/ascenseur", data={**data, "players-3": "Denise"})
    assert first.headers["Location"] != changed.headers["Location"]
    assert stored(app)[0] == 2
