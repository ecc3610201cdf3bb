"""The score sheet on screen, its chart, its CSV; the whole game as JSON and back again."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import replace

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.rules import ascenseur as rules
from scorekeeper.rules.cards import Suit
from tests.games import play_out, store_game
from tests.rules.test_ascenseur_properties import tables
from tests.web.table import TOKEN, Table, text

THREE = ("Ana", "Bob", "Cy")


def games_count(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Game.id))) or 0


def finished(app: Flask, preset: str = "ascenseur", names: tuple[str, ...] = THREE) -> str:
    variant = rules.PRESETS[preset]
    return store_game(app, preset, names, play_out(variant, len(names), 0, seed=7))


def test_the_sheet_has_a_row_per_round_and_a_column_group_per_player(
    app: Flask, client: FlaskClient
) -> None:
    game_id = finished(app)
    page = text(client.get(f"/ascenseur/{game_id}/sheet"))
    with app.app_context():
        sheet = db.session.get(Game, game_id).sheet()  # type: ignore[union-attr]
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    assert body.count("<tr") == len(sheet.plans) == 29
    for name in THREE:
        assert f'colspan="5" class="player">{name}</th>' in page
    assert page.count('<th scope="col">+</th>') == 3
    totals = re.findall(r'class="first total">([^<]+)</td>', page)
    assert totals == [f"+{t}" if t > 0 else (f"−{-t}" if t < 0 else "0") for t in sheet.totals]
    places = re.findall(r'class="first place[^"]*">(\d+)</td>', page)
    assert [int(place) for place in places] == list(sheet.places)
    winners = ", ".join(THREE[seat] for seat in sheet.winners)
    assert f"{winners} wins!" in page or f"{winners} share the win!" in page


def test_escalier_keeps_one_column_of_points_lost(app: Flask, client: FlaskClient) -> None:
    game_id = finished(app, "escalier")
    page = text(client.get(f"/ascenseur/{game_id}/sheet"))
    assert 'colspan="4" class="player">Ana</th>' in page
    assert '<th scope="col">+</th>' not in page
    assert "Points lost" in page


def plotted_finish(chart: str) -> list[float]:
    """What each line of a chart ends at, read off its axis: the figure at the height of the
    line's last point, from the heights of the axis' labelled ticks."""
    ticks = [
        (float(y), int(label.replace("−", "-").replace("+", "")))
        for y, label in re.findall(
            r'<text x="[\d.]+" y="([\d.]+)" text-anchor="end"[^>]*>([^<]+)<', chart
        )
    ]
    (top_y, top), (bottom_y, bottom) = ticks[-1], ticks[0]
    ends = [
        float(line.split()[-1].split(",")[1])
        for line in re.findall(r'<polyline points="([^"]+)"', chart)
    ]
    return [bottom + (top - bottom) * (bottom_y - y) / (bottom_y - top_y) for y in ends]


def test_escalier_s_chart_plots_the_points_lost_the_sheet_shows(
    app: Flask, client: FlaskClient
) -> None:
    game_id = finished(app, "escalier", ("Ana", "Bob", "Cy", "Di"))
    page = text(client.get(f"/ascenseur/{game_id}/sheet"))
    lost = [int(total) for total in re.findall(r'class="first total">([^<]+)</td>', page)]
    assert max(lost) > 0 and all(points >= 0 for points in lost)
    chart = page[page.index('<figure class="chart">') : page.index("</figure>")]
    assert "Points lost, round by round" in chart
    assert "−" not in chart  # no tick below zero: nobody loses less than nothing
    assert [round(end) for end in plotted_finish(chart)] == lost  # to the nearest pixel
    # Where points are won and lost, the chart plots the signed totals as the sheet does.
    game_id = finished(app, "ascenseur", ("Ana", "Bob", "Cy", "Di"))
    page = text(client.get(f"/ascenseur/{game_id}/sheet"))
    totals = re.findall(r'class="first total">([^<]+)</td>', page)
    chart = page[page.index('<figure class="chart">') : page.index("</figure>")]
    signed = [int(t.replace("−", "-").replace("+", "")) for t in totals]
    assert [round(end) for end in plotted_finish(chart)] == signed


def test_the_sheet_shows_the_trump_suit_noted_and_the_rounds_without_trump(
    app: Flask, client: FlaskClient
) -> None:
    entries = play_out(rules.PRESETS["ascenseur-a-charge"], 4, 0, seed=3)
    entries[1] = replace(entries[1], trump=Suit.HEARTS)
    game_id = store_game(app, "ascenseur-a-charge", ("A", "B", "C", "D"), entries)
    page = text(client.get(f"/ascenseur/{game_id}/sheet"))
    cells = re.findall(r'<td class="trump-col[^"]*">([^<]*)</td>', page)
    assert cells[1] == "♥"
    assert cells[12] == "–"  # 13 cards each: every card dealt, no trump
    assert cells[0] == "✓"


def test_the_chart_tells_players_apart_by_colour_dash_and_marker(
    app: Flask, client: FlaskClient
) -> None:
    game_id = finished(app, "ascenseur", ("Ana", "Bob", "Cy", "Di"))
    page = text(client.get(f"/ascenseur/{game_id}/sheet"))
    chart = page[page.index('<figure class="chart">') : page.index("</figure>")]
    assert chart.count("<polyline") == 4
    assert "<script>" not in chart  # drawn on the server, no script
    strokes = re.findall(r'<g class="series" stroke="(#[0-9A-F]{6})"', chart)
    dashes = re.findall(r'stroke-dasharray="([^"]*)" stroke-linejoin', chart)
    assert len(set(strokes)) == 4 and len(set(dashes)) == 4
    assert {"<circle", "<rect", "<polygon"} <= set(re.findall(r"<circle|<rect|<polygon", chart))
    for name in ("Ana", "Bob", "Cy", "Di"):
        assert f"</svg>{name}</li>" in chart


def test_the_sheet_as_csv(app: Flask, client: FlaskClient) -> None:
    game_id = finished(app)
    response = client.get(f"/ascenseur/{game_id}/sheet.csv")
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(text(response))))
    with app.app_context():
        sheet = db.session.get(Game, game_id).sheet()  # type: ignore[union-attr]
    assert rows[0][:4] == ["Round", "Cards", "Dealer", "Trump"]
    assert rows[0][4:9] == ["Ana bid", "Ana tricks", "Ana +", "Ana −", "Ana total"]
    assert len(rows) == 1 + 29 + 2
    assert [int(rows[-2][8 + 5 * seat]) for seat in range(3)] == list(sheet.totals)
    assert [int(rows[-1][8 + 5 * seat]) for seat in range(3)] == list(sheet.places)


def export(client: FlaskClient, game_id: str) -> bytes:
    response = client.get(f"/ascenseur/{game_id}/game.json")
    assert response.mimetype == "application/json"
    return response.get_data()


def import_file(client: FlaskClient, content: bytes, nonce: str = ""):  # type: ignore[no-untyped-def]
    token = TOKEN.search(text(client.get("/ascenseur/import")))
    assert token
    data = {
        "csrf_token": token.group(1),
        "file": (io.BytesIO(content), "game.json"),
        "nonce": nonce,
    }
    return client.post("/ascenseur/import", data=data, content_type="multipart/form-data")


def test_the_whole_game_as_json_keeps_every_entry_and_the_log(
    app: Flask, client: FlaskClient
) -> None:
    table = Table(client)
    table.start("ascenseur", THREE)
    table.play(1, (1, 0, 1), (1, 0, 0))
    edit = f"{table.game_url}/rounds/1/edit"
    fields = {f"bid_{s}": b for s, b in enumerate((1, 0, 1))}
    fields |= {f"tricks_{s}": t for s, t in enumerate((0, 0, 1))}
    table.client.post(edit, data={**table.edit_data(1), **fields, "trump": "S"})
    table.bids(2, (0, 1, 0))
    game_id = table.game_url.rsplit("/", 1)[1]
    document = json.loads(export(client, game_id))
    assert document["format"] == "scorekeeper-game" and document["version"] == 1
    assert document["players"] == list(THREE) and document["preset"] == "ascenseur"
    assert document["rounds"] == [
        {"number": 1, "bids": [1, 0, 1], "tricks": [0, 0, 1], "trump": "S"},
        {"number": 2, "bids": [0, 1, 0], "tricks": None, "trump": None},
    ]
    assert [c["field"] for c in document["corrections"]] == ["tricks", "tricks", "trump"]
    response = import_file(client, export(client, game_id))
    assert response.status_code == 302
    imported = text(client.get(response.headers["Location"]))
    assert "The game was imported." in imported
    assert "Round 2 of 29" in imported and "Ana&#39;s tricks 1 → 0" in imported


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(tables(most_players=8), st.data())
def test_an_imported_game_has_the_same_sheet_field_for_field(
    app: Flask, client: FlaskClient, table: tuple[rules.Variant, int], data: st.DataObject
) -> None:
    variant, players = table
    preset = data.draw(st.sampled_from(sorted(rules.PRESETS)))
    try:
        house = rules.house_rules(variant, rules.PRESETS[preset])
        rules.with_house_rules(rules.PRESETS[preset], house)
    except ValueError:
        return
    names = tuple(f"Player {seat + 1}" for seat in range(players))
    first_dealer = data.draw(st.integers(0, players - 1))
    played = data.draw(st.integers(0, len(rules.schedule(variant, players))))
    entries = play_out(variant, players, first_dealer, data.draw(st.integers(0, 10**6)), played)
    if entries and data.draw(st.booleans()):  # the round being played: bids in, tricks to come
        entries[-1] = rules.RoundEntry(entries[-1].bids)
    original = store_game(app, preset, names, entries, first_dealer, **house)
    response = import_file(client, export(client, original))
    assert response.status_code == 302, text(response)
    copy = response.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        before = db.session.get(Game, original).sheet()  # type: ignore[union-attr]
        after = db.session.get(Game, copy).sheet()  # type: ignore[union-attr]
    assert after == before
    csv_before = text(client.get(f"/ascenseur/{original}/sheet.csv"))
    assert text(client.get(f"/ascenseur/{copy}/sheet.csv")) == csv_before


def valid_document(app: Flask, client: FlaskClient) -> dict:  # type: ignore[type-arg]
    return json.loads(export(client, finished(app)))


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda d: d.update(version=2), "of version 2; this Scorekeeper reads version 1"),
        (lambda d: d.update(format="something-else"), "not a Scorekeeper game"),
        (lambda d: d.update(preset="belote"), "does not know: belote"),
        (lambda d: d.update(house_rules={"decks": 9}), "house_rules › decks: one of 1 or 2"),
        (lambda d: d.update(players=["Ana", "Ana", "Cy"]), "cannot be played"),
        (lambda d: d.update(players=["x" * 40, "Bob", "Cy"]), "players › 1: at most 24 characters"),
        (lambda d: d.update(first_dealer="Ana"), "first_dealer: a whole number is expected"),
        (lambda d: d["rounds"][0].update(bids=[1, 0, 0]), "Round 1: Ana deals and may not bid 1"),
        (lambda d: d["rounds"][3].update(tricks=[5, 0, 0]), "Round 4: Ana&#39;s tricks must be"),
        (lambda d: d["rounds"][2].update(tricks=[0, 0, 0]), "Round 3: The tricks add up to 0"),
        (lambda d: d["rounds"][2].update(bids="lots"), "rounds › 3 › bids: a list is expected"),
        (lambda d: d["rounds"].append(dict(d["rounds"][0], number=30)), "more rounds than"),
        (lambda d: d["rounds"][0].update(tricks=None), "Round 1 has no tricks, but later"),
        (lambda d: d.update(corrections=[{"round": 1, "field": "drop table"}]), "corrections › 1"),
    ],
)
def test_a_spoiled_game_file_is_refused_with_its_reason(
    app: Flask,
    client: FlaskClient,
    spoil,
    message: str,  # type: ignore[no-untyped-def]
) -> None:
    document = valid_document(app, client)
    spoil(document)
    before = games_count(app)
    response = import_file(client, json.dumps(document).encode())
    assert response.status_code == 422
    assert message in text(response)
    assert games_count(app) == before


@pytest.mark.parametrize(
    ("content", "message", "status"),
    [
        (b'{"format": "scorekeeper-game", "version": 1, "rou', "cut short", 422),
        (b"\xff\xfe\x00garbage", "not JSON", 422),
        (b"[" * 99_000 + b"]" * 99_000, "not JSON", 422),
        (b"[" * 50_000, "not JSON", 422),
        (b"null", "not a Scorekeeper game", 422),
    ],
)
def test_junk_is_refused_and_creates_nothing(
    app: Flask, client: FlaskClient, content: bytes, message: str, status: int
) -> None:
    response = import_file(client, content)
    assert response.status_code == status
    assert message in text(response)
    assert games_count(app) == 0


def test_ten_megabytes_of_junk_are_refused_before_being_read(
    app: Flask, client: FlaskClient
) -> None:
    token = TOKEN.search(text(client.get("/ascenseur/import")))
    assert token
    junk = b"x" * 10_000_000
    body = (
        b'--sk\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
        + token.group(1).encode()
        + b'\r\n--sk\r\nContent-Disposition: form-data; name="file"; filename="g.json"\r\n'
        + b"Content-Type: application/json\r\n\r\n"
        + junk
        + b"\r\n--sk--\r\n"
    )
    response = client.post(
        "/ascenseur/import",
        input_stream=io.BytesIO(body),
        content_type="multipart/form-data; boundary=sk",
        headers={"Content-Length": str(len(body))},
    )
    assert response.status_code == 413
    assert "What was sent is too large. Nothing was changed." in text(response)
    assert games_count(app) == 0


def test_an_import_without_a_file_asks_for_one(client: FlaskClient) -> None:
    token = TOKEN.search(text(client.get("/ascenseur/import")))
    assert token
    response = client.post("/ascenseur/import", data={"csrf_token": token.group(1)})
    assert response.status_code == 422
    assert "Choose a game file." in text(response)


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_every_preset_has_its_sheet_its_csv_and_its_file(
    app: Flask, client: FlaskClient, preset: str
) -> None:
    names = ("Ana", "Bob", "Cy", "Di")
    entries = play_out(rules.PRESETS[preset], 4, 1, seed=len(preset))
    game_id = store_game(app, preset, names, entries, first_dealer=1)
    page = text(client.get(f"/ascenseur/{game_id}/sheet"))
    assert page.count('class="player">') == 4 and "<polyline" in page
    rows = list(csv.reader(io.StringIO(text(client.get(f"/ascenseur/{game_id}/sheet.csv")))))
    assert len(rows) == 1 + len(entries) + 2
    response = import_file(client, export(client, game_id))
    copy = response.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        original = db.session.get(Game, game_id).sheet()  # type: ignore[union-attr]
        assert db.session.get(Game, copy).sheet() == original  # type: ignore[union-attr]
    assert original.is_complete


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda d: d.update(players=["Ana", "ana ", "Cy"]), "cannot be played"),
        (lambda d: d.update(players=["Ana", "\x00", "Cy"]), "players › 2: this must not be"),
        (lambda d: d.update(corrections=5), "corrections: a list is expected"),
        (
            lambda d: d.update(
                corrections=[
                    {
                        "round": 2**40,
                        "field": "bid",
                        "old": "1",
                        "new": "2",
                        "at": "2026-01-01T00:00:00",
                    }
                ]
            ),
            "corrections › 1 › round: the number must be at most 1001",
        ),
    ],
)
def test_more_spoiled_files_are_refused(
    app: Flask, client: FlaskClient, spoil, message: str
) -> None:  # type: ignore[no-untyped-def]
    document = valid_document(app, client)
    spoil(document)
    before = games_count(app)
    response = import_file(client, json.dumps(document).encode())
    assert response.status_code == 422 and message in text(response)
    assert games_count(app) == before


def test_the_same_file_sent_twice_from_one_form_imports_one_game(
    app: Flask, client: FlaskClient
) -> None:
    content = export(client, finished(app))
    first = import_file(client, content, nonce="n1")
    second = import_file(client, content, nonce="n1")
    assert first.headers["Location"] == second.headers["Location"]
    assert games_count(app) == 2  # the original and one copy


@pytest.mark.parametrize("language", ["en", "fr"])
def test_an_import_in_chunks_is_refused_before_it_is_read(
    app: Flask, client: FlaskClient, language: str
) -> None:
    body = io.BytesIO(b"never read")
    response = client.post(
        "/ascenseur/import",
        input_stream=body,
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked", "Accept-Language": language},
    )
    assert response.status_code == 411
    expected = {
        "en": "What was sent did not say its length",
        "fr": "L&#39;envoi ne disait pas sa longueur",
    }[language]
    assert expected in text(response)
    assert body.tell() == 0  # not a byte of it read
    assert games_count(app) == 0
