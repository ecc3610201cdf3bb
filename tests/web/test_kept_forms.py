"""Forms a phone kept while the network was down and sent again (static/scorekeeper.js): each
carries a one-time token, and the server applies it once however often it arrives."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.games import writes
from scorekeeper.games.models import SentForm
from tests.web.crawler import as_drawn, forms_of
from tests.web.families import every_familys_pages
from tests.web.table import TOKEN, Table, text
from tests.web.test_circles import Keeper
from tests.web.test_club import CONFIRM, CONFIRMED_FROM, SMALL, Club

SCRIPT = {"Scorekeeper-Sent": "1"}
IGNORED_TABLES = {"sent_form", "browser_game"}
IGNORED_COLUMNS = {"updated_at", "opened_at"}


def stored(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row the games keep, but the tokens themselves and the browsers' notes."""
    with app.app_context():
        found = {}
        for table in db.metadata.sorted_tables:
            if table.name in IGNORED_TABLES:
                continue
            columns = [column for column in table.columns if column.name not in IGNORED_COLUMNS]
            rows = db.session.execute(select(*columns)).all()
            found[table.name] = sorted((tuple(row) for row in rows), key=repr)
        return found


def token(number: int) -> str:
    return f"{number:032x}"


def test_every_form_that_changes_a_game_is_applied_once_however_often_it_arrives(
    app: Flask, client: FlaskClient
) -> None:
    pages = every_familys_pages(client)
    sent = 0
    applied: set[str] = set()
    for page in pages:
        drawn = client.get(page)
        if drawn.status_code != 200:
            continue
        for form in forms_of(text(drawn)):
            if "drawn_from" not in form.fields or form.kinds.get("file"):
                continue
            data = as_drawn(form)
            name, value = form.buttons[0] if form.buttons else ("", "")
            if name:
                data[name] = value
            sent += 1
            data.update(sent_as=token(sent), kept_for="12000")
            before = stored(app)
            with client.session_transaction() as session:
                session.pop("_flashes", None)
            first = client.post(form.action, data=data, headers=SCRIPT)
            with client.session_transaction() as session:
                refused = any(kind == "error" for kind, _ in session.get("_flashes", []))
            after_first = stored(app)
            again = client.post(form.action, data=data)  # as the browser sends it to show it
            third = client.post(form.action, data=data, headers=SCRIPT)
            assert stored(app) == after_first, (form.action, first.status_code)
            with app.app_context():
                written = db.session.get(SentForm, token(sent))
            if written is not None:  # applied: the token was written with the change
                applied.add(form.action.split("/")[1])  # the family's part of the address
                location = first.headers["Scorekeeper-Location"]
                assert first.status_code == 204 and written.location == location
                assert "Location" not in first.headers and not first.get_data()
                assert (again.status_code, again.headers["Location"]) == (303, location)
                assert (third.status_code, third.headers["Scorekeeper-Location"]) == (204, location)
                assert first.headers["Scorekeeper-Applied"] == third.headers["Scorekeeper-Applied"]
                assert first.headers["Scorekeeper-Applied"] == "1"
            elif first.status_code == 204:  # sent on with nothing changed (a message to show)
                location = first.headers["Scorekeeper-Location"]
                assert again.status_code in (302, 303) and again.headers["Location"] == location
                assert third.headers["Scorekeeper-Location"] == location
                assert after_first == before
                # Said to be applied where the game holds it already (the form drawn with what
                # stands, sent as it was drawn), else a refusal the next page explains; the
                # same either way however often it arrives.
                said = first.headers.get("Scorekeeper-Applied")
                assert said == (None if refused else "1"), (form.action, refused)
                assert third.headers.get("Scorekeeper-Applied") == said
            else:
                assert first.status_code not in (301, 302, 303, 307, 308)
                assert again.status_code == third.status_code == first.status_code
    # Every family's entries and buttons were among them.
    assert applied == {"ascenseur", "bridge", "club", "teams", "echelons", "tarot"}, applied


def test_a_round_sent_again_goes_where_the_first_went_and_says_it_had_arrived(
    app: Flask, client: FlaskClient
) -> None:
    table = Table(client)
    game = table.start("ascenseur", ("Anne", "Bruno", "Chloé"))
    data = {**table.round_data("bid", (1, 0, 1)), "sent_as": token(1)}
    first = client.post(f"{game}/rounds/1/bids", data=data, headers=SCRIPT)
    assert first.status_code == 204
    assert first.headers["Scorekeeper-Location"] == game
    assert "Location" not in first.headers
    page = text(client.get(game))
    assert "Tricks" in page  # the bids are in, and the page asks for the tricks
    again = client.post(f"{game}/rounds/1/bids", data=data, headers=SCRIPT)
    assert (again.status_code, again.headers["Scorekeeper-Location"]) == (204, game)
    assert "This had arrived already: it is entered once." in text(client.get(game))
    with app.app_context():
        (kept,) = db.session.scalars(select(SentForm)).all()
        assert (kept.token, kept.location, kept.number, kept.kept_for) == (token(1), game, 1, 0)


def test_a_token_mistyped_is_no_token_and_a_kept_time_mistyped_is_none(
    app: Flask, client: FlaskClient
) -> None:
    table = Table(client)
    mistyped = ("", "short", "x" * 33, "not a token at all!", "é" * 20, token(1)[:15])
    for number, sent_as in enumerate(mistyped):
        game = table.start("ascenseur", ("Anne", "Bruno", "Chloé"))
        data = {**table.round_data("bid", (1, 0, 1)), "sent_as": sent_as, "kept_for": "5000"}
        answer = client.post(f"{game}/rounds/1/bids", data=data, headers=SCRIPT)
        assert answer.status_code == 204, sent_as  # entered: the bids are in
        assert "Scorekeeper-Applied" not in answer.headers  # but no token of it kept
        assert "Tricks" in text(client.get(game)), number
    kept_for = {"9" * 40: 0, "-1": 0, "1e9": 0, "٣٣٠٠٠": 0, "45000": 45, "": 0}
    for number, (sent, seconds) in enumerate(kept_for.items()):
        game = table.start("ascenseur", ("Anne", "Bruno", "Chloé"))
        data = {**table.round_data("bid", (1, 0, 1)), "sent_as": token(7 + number)}
        answer = client.post(
            f"{game}/rounds/1/bids", data={**data, "kept_for": sent}, headers=SCRIPT
        )
        assert answer.headers["Scorekeeper-Applied"] == "1"
        with app.app_context():
            written = db.session.get(SentForm, token(7 + number))
            assert written is not None and written.kept_for == seconds, sent
    with app.app_context():
        assert len(db.session.scalars(select(SentForm)).all()) == len(kept_for)


def test_a_token_is_its_own_games_alone(app: Flask, client: FlaskClient) -> None:
    table = Table(client)
    first = table.start("ascenseur", ("Anne", "Bruno", "Chloé"))
    data = {**table.round_data("bid", (1, 0, 1)), "sent_as": token(1)}
    assert client.post(f"{first}/rounds/1/bids", data=data, headers=SCRIPT).status_code == 204
    other = table.start("ascenseur", ("Anne", "Bruno", "Chloé"))
    before = stored(app)
    elsewhere = client.post(f"{other}/rounds/1/bids", data=data, headers=SCRIPT)
    assert elsewhere.status_code == 400
    assert stored(app) == before  # not taken as the other game's, nor applied there


def test_a_token_is_its_own_circles_alone(app: Flask, client: FlaskClient) -> None:
    first, other = Keeper(client), Keeper(client)
    first.start("Les Martin")
    other.start("Les Dubois")
    sent = {**first.form(), "name": "Zoé", "sent_as": token(1)}
    assert client.post(first.url + "/people", data=sent, headers=SCRIPT).status_code == 204
    before = stored(app)
    elsewhere = {**other.form(), "name": "Zoé", "sent_as": token(1)}
    assert client.post(other.url + "/people", data=elsewhere, headers=SCRIPT).status_code == 400
    assert stored(app) == before
    again = client.post(first.url + "/people", data=sent, headers=SCRIPT)
    assert (again.status_code, again.headers["Scorekeeper-Applied"]) == (204, "1")
    with app.app_context():
        written = db.session.get(SentForm, token(1))
        assert written is not None and (written.game_id, written.circle_id) == (
            None,
            first.url.rsplit("/", 1)[1],
        )


def test_a_persons_own_change_sent_again_is_taken_as_arrived(
    app: Flask, client: FlaskClient
) -> None:
    keeper = Keeper(client)
    keeper.start()
    link = keeper.person_links()[0]
    csrf = TOKEN.search(text(client.get(link)))
    assert csrf
    sent = {"csrf_token": csrf.group(1), "shows": "no", "sent_as": token(1)}
    first = client.post(link + "/name-shown", data=sent, headers=SCRIPT)
    assert (first.status_code, first.headers["Scorekeeper-Applied"]) == (204, "1")
    before = stored(app)
    again = client.post(link + "/name-shown", data=sent, headers=SCRIPT)
    assert (again.status_code, again.headers["Scorekeeper-Applied"]) == (204, "1")
    assert again.headers["Scorekeeper-Location"] == first.headers["Scorekeeper-Location"]
    assert stored(app) == before


def test_a_busy_answer_says_to_send_it_again_in_a_moment(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(client)
    game = table.start("ascenseur", ("Anne", "Bruno", "Chloé"))
    data = {**table.round_data("bid", (1, 0, 1)), "sent_as": token(1)}

    def saved_by_another_phone_meanwhile(row: object, **_: object) -> bool:
        db.session.rollback()
        return False

    monkeypatch.setattr(writes, "save", saved_by_another_phone_meanwhile)
    busy = client.post(f"{game}/rounds/1/bids", data=data, headers=SCRIPT)
    assert busy.status_code == 409 and busy.headers["Retry-After"] == "1"
    assert "Scorekeeper-Applied" not in busy.headers
    monkeypatch.undo()
    with app.app_context():
        assert db.session.get(SentForm, token(1)) is None
    applied = client.post(f"{game}/rounds/1/bids", data=data, headers=SCRIPT)
    assert (applied.status_code, applied.headers["Scorekeeper-Applied"]) == (204, "1")
    assert "Retry-After" not in applied.headers


def test_an_error_page_reads_no_body_for_the_token(app: Flask, client: FlaskClient) -> None:
    table = Table(client)
    game = table.start("ascenseur", ("Anne", "Bruno", "Chloé"))
    data = {**table.round_data("bid", (1, 0, 1)), "sent_as": token(5)}
    missing = client.post(f"{game}/rounds/1/nothing-here", data=data, headers=SCRIPT)
    assert missing.status_code in (404, 405) and "data-answered" not in text(missing)
    app.config["MAX_CONTENT_LENGTH"] = 2_000
    too_large = client.post(
        f"{game}/rounds/1/bids", data={**data, "filler": "x" * 5_000}, headers=SCRIPT
    )
    assert too_large.status_code == 413 and "data-answered" not in text(too_large)


def test_a_page_drawn_as_the_answer_to_a_kept_form_says_which(client: FlaskClient) -> None:
    table = Table(client)
    game = table.start("ascenseur", ("Anne", "Bruno", "Chloé"))
    # One card, Anne deals: the bids 1, 0, 0 add up to the cards, which the hook forbids.
    data = {**table.round_data("bid", (0, 1, 0)), "sent_as": token(3)}
    refused = client.post(f"{game}/rounds/1/bids", data=data, headers=SCRIPT)
    assert refused.status_code == 422
    assert f'data-answered="{token(3)}"' in text(refused)
    assert "data-answered" not in text(client.get(game))
    kept = re.search(r"data-kept='([^']*)'", text(refused))
    assert kept and "Kept on this phone" in kept.group(1)


def test_the_director_sees_which_results_arrived_late(app: Flask, client: FlaskClient) -> None:
    club = Club(client)
    club.start(**SMALL)
    result = {"level": "4", "strain": "S", "declarer": "N", "doubled": "0", "result": "0"}
    club.enter(1, {**result, "sent_as": token(1), "kept_for": "3000"})  # a moment's blip
    club.enter(1, {**result, "result": "1", "sent_as": token(2), "kept_for": "245000"})
    page = text(client.get(club.url))
    assert "1 entry arrived late" in page
    assert "Board 2, table 1" in page and "kept 4 minutes on the phone, arrived at" in page
    assert "Board 1, table 1" not in page.split("arrived late")[1].split("</section>")[0]
    with app.app_context():
        seats = {(sent.number, sent.seat) for sent in db.session.scalars(select(SentForm))}
    assert seats == {(1, 1), (2, 1)}


def test_east_west_confirm_the_result_they_saw_whatever_the_table_entered_since(
    app: Flask, client: FlaskClient
) -> None:
    club = Club(client)
    club.start(**SMALL)
    result = {"level": "4", "strain": "S", "declarer": "N", "doubled": "0", "result": "0"}
    _round, first, _status = club.enter(1, result)
    page = text(client.get(club.tables[1]))
    confirm, stamp, csrf = CONFIRM.search(page), CONFIRMED_FROM.search(page), TOKEN.search(page)
    assert confirm and stamp and csrf
    sent = {"csrf_token": csrf.group(1), "drawn_from": stamp.group(1)}
    club.enter(1, {**result, "result": "1"})  # the next board, kept on the phone and sent first
    assert client.post(confirm.group(1), data=sent).status_code == 302
    assert [r.confirmed for r in club.session(app).results if r.board == first] == [True]

    club.enter(2, result)
    page = text(client.get(club.tables[2]))
    confirm, stamp = CONFIRM.search(page), CONFIRMED_FROM.search(page)
    assert confirm and stamp
    # North corrects it from the table's phone before East-West tap.
    edit = f"{confirm.group(1).removesuffix('/confirm')}/edit"
    (form,) = [form for form in forms_of(text(client.get(edit))) if form.action == edit]
    changed = {**as_drawn(form), **result, "result": "-1"}
    assert client.post(edit, data=changed).status_code == 302
    refused = client.post(
        confirm.group(1), data={**sent, "drawn_from": stamp.group(1)}, follow_redirects=True
    )
    assert "The result changed since this page was drawn: check it and confirm again." in text(
        refused
    )
    assert [r.confirmed for r in club.session(app).results if r.table == 2] == [False]


def test_the_service_worker_is_offered_over_https_only_and_names_a_tables_own_pages(
    client: FlaskClient,
) -> None:
    worker = client.get("/service-worker.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert worker.headers["Cache-Control"] == "no-cache"
    assert "caches.open" in worker.get_data(as_text=True)
    club = Club(client)
    club.start(**SMALL)
    plain = text(client.get(club.tables[1]))
    assert "data-service-worker" not in plain
    secure = text(client.get(club.tables[1], base_url="https://localhost"))
    assert 'data-service-worker="/service-worker.js"' in secure
    kept = re.search(r'data-keep-pages="([^"]*)"', secure)
    assert kept
    own = club.tables[1].split("?")[0]
    pages = html.unescape(kept.group(1)).split()
    # The round's other board and the next round, at this table's own address: no other
    # table's page, no traveller.
    assert pages and all(page.split("?")[0] == own for page in pages), pages
    assert {page.split("?")[1] for page in pages} == {"round=1&board=2", "round=2"}


def test_the_same_entry_again_is_taken_and_a_refusal_is_not(
    app: Flask, client: FlaskClient
) -> None:
    """What the game holds already, sent from another phone's kept form (its own token), is
    taken as applied: the phone that kept it has nothing to hold back. A form the game no
    longer takes is sent on to the page that says why, not said to be applied."""
    table = Table(client)
    game = table.start("ascenseur", ("Anne", "Bruno", "Chloé"))
    bids = table.round_data("bid", (1, 0, 1))
    client.post(f"{game}/rounds/1/bids", data={**bids, "sent_as": token(1)}, headers=SCRIPT)
    before = stored(app)
    same = client.post(f"{game}/rounds/1/bids", data={**bids, "sent_as": token(2)}, headers=SCRIPT)
    assert (same.status_code, same.headers.get("Scorekeeper-Applied")) == (204, "1")
    assert same.headers["Scorekeeper-Location"] == game
    other = {**table.round_data("bid", (0, 0, 0)), "sent_as": token(3)}
    conflict = client.post(f"{game}/rounds/1/bids", data=other, headers=SCRIPT)
    assert conflict.status_code == 409 and "Scorekeeper-Applied" not in conflict.headers
    early = {**table.round_data("bid", (1, 1, 1)), "sent_as": token(4)}
    refused = client.post(f"{game}/rounds/3/bids", data=early, headers=SCRIPT)
    assert refused.status_code == 204 and "Scorekeeper-Applied" not in refused.headers
    assert stored(app) == before
    with app.app_context():
        assert db.session.scalars(select(SentForm.token)).all() == [token(1)]
