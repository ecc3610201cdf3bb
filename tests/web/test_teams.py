"""A bridge teams match through the test client: a new match and what it refuses, each table's
result entered in the taps of a deal at home, IMPs and victory points as the engine and a
hand reckoning have them, corrections and undo scored again and logged, another phone's entry,
a form sent twice, the sheet, the CSV, the game file."""

from __future__ import annotations

import csv
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
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.rules import bridge
from scorekeeper.teams.models import TeamsGame
from tests.web.table import NONCE, TOKEN, text
from tests.web.test_fuzz import database_content

VERSION = re.compile(r'name="drawn_from" type="hidden" value="(\d+)"')
ORIGINAL = re.compile(r'name="drawn_from" type="hidden" value="([^"]*)"')
PLAYERS = {"a_1_n": "Anne", "a_1_s": "Bruno", "b_1_e": "Chloé", "b_2_n": "Denis"}

Result = tuple[str, str, int] | None
"""A table's result as a test writes it: contract, declarer, tricks over the contract (or
under: negative); ``None`` for a passed-out board."""


class Match:
    """A match at two tables, scored through the pages as a phone without JavaScript would."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.url = ""

    def setup_data(self, **fields: str) -> dict[str, str]:
        page = text(self.client.get("/teams/new"))
        token, nonce = TOKEN.search(page), NONCE.search(page)
        assert token and nonce
        return {
            "csrf_token": token.group(1),
            "nonce": nonce.group(1),
            "team_a": "Lions",
            "team_b": "Tigers",
            "boards": "8",
            "first_board": "1",
            "action": "start",
            **PLAYERS,
            **fields,
        }

    def start(self, **fields: str) -> str:
        response = self.client.post("/teams/new", data=self.setup_data(**fields))
        assert response.status_code == 302, text(response)
        self.url = response.headers["Location"]
        return self.url

    def fields(self) -> dict[str, str]:
        page = text(self.client.get(self.url))
        token, version = TOKEN.search(page), VERSION.search(page)
        assert token and version
        return {"csrf_token": token.group(1), "drawn_from": version.group(1)}

    def post(self, board: int, table: int, **result: Any) -> TestResponse:
        data = {**self.fields(), **{name: str(value) for name, value in result.items()}}
        return self.client.post(f"{self.url}/boards/{board}/tables/{table}", data=data)

    def enter(self, board: int, table: int, result: Result) -> None:
        response = self.post(board, table, **result_fields(result))
        assert response.status_code == 302, text(response)[-3000:]

    def board(self, board: int, first: Result, second: Result) -> None:
        self.enter(board, 1, first)
        self.enter(board, 2, second)

    def edit(self, board: int, table: int, result: Result) -> TestResponse:
        page = text(self.client.get(f"{self.url}/boards/{board}/tables/{table}/edit"))
        token, original = TOKEN.search(page), ORIGINAL.search(page)
        assert token and original
        data = {"csrf_token": token.group(1), "drawn_from": original.group(1)}
        return self.client.post(
            f"{self.url}/boards/{board}/tables/{table}/edit",
            data={**data, **{name: str(value) for name, value in result_fields(result).items()}},
        )

    def page(self) -> str:
        return text(self.client.get(self.url))

    def game(self) -> TeamsGame:
        game = db.session.get(Game, self.url.rsplit("/", 1)[1])
        assert isinstance(game, TeamsGame)
        return game


def result_fields(result: Result) -> dict[str, Any]:
    if result is None:
        return {"result": "passed"}
    contract, declarer, over = result
    parsed = bridge.Contract.parse(contract)
    return {
        "level": parsed.level,
        "strain": parsed.strain.value,
        "doubled": parsed.doubled,
        "declarer": declarer,
        "result": over,
    }


def ns_score(board: int, result: Result) -> int:
    """North-South's score, straight from the engine's contract_score."""
    if result is None:
        return 0
    contract, declarer, over = result
    parsed = bridge.Contract.parse(contract)
    side = bridge.Seat(declarer).side
    vulnerable = bridge.board_vulnerability(board).is_vulnerable(side)
    score = bridge.contract_score(
        parsed.level, parsed.strain.value, parsed.doubled, vulnerable, parsed.level + 6 + over
    )
    return score if side is bridge.Side.NS else -score


def board_rows(page: str) -> dict[int, list[str]]:
    """The boards table, each board's cells as text: table 1, table 2, A, B, the score."""
    table = page.split('class="grid-table chicago"', 1)[1].split("</table>", 1)[0]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>", 1)[1], re.S):
        cells = [
            " ".join(re.sub(r"<[^>]+>", " ", cell).split())
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        rows[int(cells[0].split()[0])] = cells[1:]
    return rows


def score_rows(page: str) -> list[tuple[str, str, str]]:
    """The match's score table: each team's name, IMPs and victory points."""
    table = page.split('class="match-score"', 1)[1].split("</table>", 1)[0]
    return [
        (team, imps, vps)
        for team, imps, vps in re.findall(
            r'<span class="tag">[AB]</span> ([^<]+)</th><td class="num total">(\d+)</td>'
            r'<td class="num total">([\d.]+)</td>',
            table,
        )
    ]


@pytest.fixture
def match(client: FlaskClient) -> Match:
    table = Match(client)
    table.start()
    return table


def test_the_new_game_page_offers_a_teams_match(client: FlaskClient) -> None:
    assert 'href="/teams/new"' in text(client.get("/new"))
    assert 'href="/teams/new"' in text(client.get("/"))
    page = text(client.get("/teams/new"))
    assert 'value="8"' in page and "Team A's name" in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"team_a": ""}, "Enter the name of each team."),
        ({"team_b": "  "}, "Enter the name of each team."),
        ({"team_b": "LIONS"}, "The two teams need different names."),
        ({"team_a": "x" * 31}, "Field cannot be longer than 30 characters."),
        ({"team_a": "Li\x07ons"}, "A name is made of letters, digits and signs."),
        ({"b_2_s": "anne"}, "Two players cannot have the same name."),
        ({"boards": "0"}, "A match has 1 to 64 boards."),
        ({"boards": "65"}, "A match has 1 to 64 boards."),
        ({"boards": "eight"}, "Type a whole number, in figures (such as 12)."),
        ({"boards": "8" * 400}, "A match has 1 to 64 boards."),
        ({"boards": ""}, "Enter how many boards the match has."),
        ({"first_board": "0"}, "Boards are numbered from 1 to 999."),
        ({"first_board": "1" * 40}, "Boards are numbered from 1 to 999."),
    ],
)
def test_a_new_match_says_what_is_wrong_and_keeps_what_was_typed(
    client: FlaskClient, app: Flask, fields: dict[str, str], message: str
) -> None:
    table = Match(client)
    response = client.post("/teams/new", data=table.setup_data(**fields))
    assert response.status_code == 422
    page = text(response)
    assert message in page, page[-3000:]
    assert 'value="Anne"' in page and 'value="Chloé"' in page
    with app.app_context():
        assert db.session.execute(db.select(TeamsGame)).first() is None


def test_player_names_are_optional_and_the_team_stands_for_them(client: FlaskClient) -> None:
    table = Match(client)
    table.start(**dict.fromkeys(PLAYERS, ""), first_board="2")
    page = table.page()
    # Board 2: East deals, North-South vulnerable; at table 1 East is a Tiger.
    assert "Board 2, table 1" in page and "North-South vulnerable" in page
    assert "<strong>Tigers</strong> <span>East</span>" in page
    assert re.search(
        r"<strong>N</strong> Lions</span>.*<strong>E</strong> Tigers</span>", page, re.S
    )


def test_the_same_new_match_form_sent_twice_starts_one_match(
    client: FlaskClient, app: Flask
) -> None:
    table = Match(client)
    data = table.setup_data()
    first = client.post("/teams/new", data=data)
    again = client.post("/teams/new", data=data)
    assert first.headers["Location"] == again.headers["Location"]
    with app.app_context():
        assert len(db.session.execute(db.select(TeamsGame)).all()) == 1


def test_hand_worked_boards_give_their_imps_and_the_running_score(match: Match) -> None:
    # Board 1, nobody vulnerable: 2♠ +1 (140) against 2♠ made (110): 30, 1 IMP to A.
    match.board(1, ("2S", "N", 1), ("2S", "N", 0))
    # Board 2, N-S vulnerable: 4♠ made (+620) at table 1; at table 2 the Tigers, North-South,
    # make 3♥ +1 (+170): A gains 620 - 170 = 450, 10 IMPs.
    match.board(2, ("4S", "N", 0), ("3H", "N", 1))
    # Board 3, E-W vulnerable: the Tigers make 3NT vulnerable at table 1 (N-S -600); the Lions,
    # East-West at table 2, only 2NT (N-S -120): A loses 480, 10 IMPs to B.
    match.board(3, ("3NT", "E", 0), ("2NT", "W", 0))
    # Board 4, everybody vulnerable: 4♠ made (+620) at table 1; at table 2 the Lions, East-West,
    # make 3♥ +1 (N-S -170): A gains 620 + 170 = 790, 13 IMPs.
    match.board(4, ("4S", "N", 0), ("3H", "E", 1))
    page = match.page()
    assert board_rows(page) == {
        1: ["2♠ N +1 +140", "2♠ N = +110", "1", "", "1–0"],
        2: ["4♠ N = +620", "3♥ N +1 +170", "10", "", "11–0"],
        3: ["3NT E = −600", "2NT W = −120", "", "10", "11–10"],
        4: ["4♠ N = +620", "3♥ E +1 −170", "13", "", "24–10"],
    }
    vps = bridge.victory_points(14, 8)
    assert score_rows(page) == [
        ("Lions", "24", f"{vps[0]:.2f}"),
        ("Tigers", "10", f"{vps[1]:.2f}"),
    ]


def test_one_imp_on_a_sixteen_board_match_is_worth_the_wbf_figure(client: FlaskClient) -> None:
    table = Match(client)
    table.start(boards="16")
    table.board(1, ("2S", "N", 1), ("2S", "N", 0))  # 140 against 110: 1 IMP
    assert score_rows(table.page()) == [("Lions", "1", "10.31"), ("Tigers", "0", "9.69")]


def test_a_whole_match_matches_the_engine(client: FlaskClient, app: Flask) -> None:
    boards: list[tuple[Result, Result]] = [
        (("4S", "N", 0), ("4S", "N", -1)),
        (("3NTX", "E", -2), ("3NT", "E", 0)),
        (None, ("1NT", "S", 0)),
        (("6H", "S", 0), ("4H", "S", 2)),
        (("2DX", "W", 1), ("3C", "N", -1)),
        (("7NTXX", "N", -3), ("7NT", "N", 0)),
        (None, None),
        (("5CX", "E", -4), ("4S", "N", 0)),
    ]
    table = Match(client)
    table.start(first_board="9")
    for number, (first, second) in enumerate(boards, 9):
        table.board(number, first, second)
    pairs = [
        (ns_score(number, first), ns_score(number, second))
        for number, (first, second) in enumerate(boards, 9)
    ]
    scored = bridge.score_team_match(pairs)
    page = table.page()
    assert "The match is over" in page
    assert score_rows(page) == [
        ("Lions", str(scored.imps_a), f"{scored.victory_points[0]:.2f}"),
        ("Tigers", str(scored.imps_b), f"{scored.victory_points[1]:.2f}"),
    ]
    assert scored.victory_points == bridge.victory_points(scored.margin, len(boards))
    winner = "Lions" if scored.margin > 0 else "Tigers"
    assert f"{winner} win by {abs(scored.margin)} IMPs." in page
    running = (0, 0)
    for imps in scored.board_imps:
        running = (running[0] + max(imps, 0), running[1] + max(-imps, 0))
        assert f"<td>{running[0]}–{running[1]}</td>" in page
    with app.app_context():
        assert len(table.game().results) == 16
    late = table.post(17, 1, **result_fields(("1C", "N", 0)))
    assert late.status_code == 302
    assert "The match is over; nothing was changed." in table.page()
    summary = text(client.get("/"))
    assert "Finished games" in summary and "Lions against Tigers" in summary


def test_table_two_shows_table_ones_result_and_a_passed_out_board_is_one_tap(
    match: Match,
) -> None:
    match.enter(1, 1, ("4S", "N", 0))
    page = match.page()
    assert "Board 1, table 2" in page and "Board 1, table 1 entered: 4♠ by N, made." in page
    assert "<strong>4♠ by N, made</strong>, North-South +420" in page
    response = match.post(1, 2, result="passed")
    assert response.status_code == 302
    page = match.page()
    assert "Board 2, table 1" in page
    assert board_rows(page)[1] == ["4♠ N = +420", "passed out 0", "9", "", "9–0"]


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ({"level": 4, "strain": "S", "result": 0}, "Choose who played the contract."),
        ({"strain": "S", "declarer": "N", "result": 0}, "Choose the level of the contract."),
        ({"level": 4, "declarer": "N", "result": 0}, "Choose the strain of the contract."),
        (
            {"level": 7, "strain": "S", "declarer": "N", "result": 1},
            "7♠ cannot make an overtrick: 13 tricks is all there are.",
        ),
        ({"level": 1, "strain": "S", "declarer": "N", "result": -8}, "at most 7 down"),
        ({"level": 3, "strain": "NT", "declarer": "N"}, "Tap the result of the deal"),
        ({"level": 9, "strain": "S", "declarer": "N", "result": 0}, "Not a valid choice"),
        ({"level": 3, "strain": "Z", "declarer": "Q", "result": "x"}, "Tap the result"),
        ({"level": 3, "strain": "S", "declarer": "N", "doubled": 3, "result": 0}, "Not a valid"),
    ],
)
def test_a_bad_result_is_refused_with_its_reason_and_keeps_the_taps(
    match: Match, app: Flask, result: dict[str, Any], message: str
) -> None:
    response = match.post(1, 1, **result)
    assert response.status_code == 422
    page = text(response)
    assert message in page, page[-3000:]
    if result.get("level") == 4:
        assert re.search(r'<input checked id="level-\d" name="level" type="radio" value="4">', page)
    with app.app_context():
        assert match.game().results == []


@pytest.mark.parametrize(
    "where", ["boards/2/tables/1", "boards/1/tables/2", "boards/1/tables/3", "boards/99/tables/1"]
)
def test_a_result_for_another_board_or_table_changes_nothing(
    match: Match, app: Flask, where: str
) -> None:
    data = {**match.fields(), **result_fields(("4S", "N", 0))}
    response = match.client.post(f"{match.url}/{where}", data=data)
    assert response.status_code == 302
    assert "That is not the board and table to enter now; nothing was changed." in match.page()
    with app.app_context():
        assert match.game().results == []


def test_a_result_sent_twice_is_recorded_once(match: Match, app: Flask) -> None:
    fields = match.fields()
    data = {**fields, **result_fields(("4S", "N", 0))}
    first = match.client.post(f"{match.url}/boards/1/tables/1", data=data)
    again = match.client.post(f"{match.url}/boards/1/tables/1", data=data)
    assert first.status_code == again.status_code == 302
    with app.app_context():
        assert len(match.game().results) == 1


def test_another_phones_result_is_shown_beside_mine_and_mine_can_replace_it(
    match: Match, app: Flask
) -> None:
    stale = match.fields()  # this phone drew the form; another phone enters board 1 first
    match.enter(1, 1, ("4S", "N", 0))
    mine = {**stale, **result_fields(("4S", "N", -1))}
    conflict = match.client.post(f"{match.url}/boards/1/tables/1", data=mine)
    assert conflict.status_code == 409
    page = text(conflict)
    assert "Board 1, table 1 was entered on another phone" in page
    assert "4♠ by N, made" in page and "4♠ by N, −1" in page
    form = page.split('class="conflict"', 1)[1]
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form))
    token = TOKEN.search(form)
    action = re.search(r'action="([^"]+)"', form)
    assert token and action and re.fullmatch(r"\d+:1:4S N 10", hidden["drawn_from"])
    replaced = match.client.post(action.group(1), data={"csrf_token": token.group(1), **hidden})
    assert replaced.status_code == 302
    page = match.page()
    assert "Board 1, table 1 corrected; the match is scored again." in page
    assert "4♠ by N, made → 4♠ by N, −1" in page
    with app.app_context():
        assert [r.tricks for r in match.game().results] == [9]


def test_a_correction_scores_the_match_again_and_is_logged(match: Match, app: Flask) -> None:
    match.board(1, ("2S", "N", 1), ("2S", "N", 0))  # 1 IMP to A
    match.board(2, ("4S", "N", 0), ("3H", "N", 1))  # 10 IMPs to A
    response = match.edit(1, 2, ("4S", "N", 0))  # table 2 now +420: A loses 280, 7 IMPs
    assert response.status_code == 302
    page = match.page()
    assert "Board 1, table 2 corrected; the match is scored again." in page
    assert "Board 1, table 2, corrected at" in page and "2♠ by N, made → 4♠ by N, made" in page
    assert score_rows(page)[0][:2] == ("Lions", "10") and score_rows(page)[1][:2] == ("Tigers", "7")
    assert [row[2:] for row in board_rows(page).values()] == [["10", "", "10–7"], ["", "7", "0–7"]]
    unchanged = match.edit(1, 2, ("4S", "N", 0))
    assert unchanged.status_code == 302
    assert "Board 1, table 2 is unchanged." in match.page()
    with app.app_context():
        assert len(match.game().corrections) == 1


def test_a_correction_made_meanwhile_on_another_phone_is_not_overwritten(
    match: Match, app: Flask
) -> None:
    match.board(1, ("2S", "N", 1), ("2S", "N", 0))
    page = text(match.client.get(f"{match.url}/boards/1/tables/1/edit"))
    token = TOKEN.search(page)
    assert token
    assert match.edit(1, 1, ("3S", "N", 0)).status_code == 302  # another phone, first
    late = match.client.post(
        f"{match.url}/boards/1/tables/1/edit",
        data={"csrf_token": token.group(1), "drawn_from": "1:2S N 9", **result_fields(None)},
    )
    assert late.status_code == 409
    assert "This result was changed on another phone while you corrected it" in text(late)
    assert "3♠ by N, made" in text(late)
    with app.app_context():
        assert match.game().results[0].level == 3


def test_undo_takes_back_the_last_result_and_the_score_follows(match: Match, app: Flask) -> None:
    match.board(1, ("2S", "N", 1), ("2S", "N", 0))
    match.board(2, ("4S", "N", 0), ("3H", "N", 1))
    assert "Take back board 2, table 2" in match.page()
    response = match.client.post(f"{match.url}/undo", data=match.fields())
    assert response.status_code == 302
    page = match.page()
    assert "Board 2, table 2: taken back (3♥ by N, +1)." in page
    assert "Board 2, table 2 at" in page  # in the corrections log
    assert "Board 2, table 2" in page.split('id="deal-title"')[1][:80]  # to enter again
    assert score_rows(page)[0][:2] == ("Lions", "1")
    stale = match.fields()
    match.client.post(f"{match.url}/undo", data=stale)
    refused = match.client.post(f"{match.url}/undo", data=stale)
    assert refused.status_code == 302
    assert "nothing was undone" in match.page()
    with app.app_context():
        assert [(r.board, r.table) for r in match.game().results] == [(1, 1), (1, 2)]


def test_a_viewer_follows_the_match_but_cannot_enter(match: Match, app: Flask) -> None:
    match.board(1, ("2S", "N", 1), ("2S", "N", 0))
    viewer = app.test_client()
    page = text(viewer.get(match.url))
    assert "You are looking on" in page and 'name="level"' not in page
    assert "Correct board 1" not in page
    token = TOKEN.search(text(viewer.get("/teams/new")))
    assert token
    refused = viewer.post(
        f"{match.url}/boards/2/tables/1",
        data={"csrf_token": token.group(1), **result_fields(("1C", "N", 0))},
    )
    assert refused.status_code == 403


def test_the_sheet_and_its_csv_have_every_board(match: Match) -> None:
    match.board(1, ("2S", "N", 1), ("2S", "N", 0))
    match.enter(2, 1, ("4S", "N", 0))
    sheet = text(match.client.get(f"{match.url}/sheet"))
    assert "Lions against Tigers" in sheet and "Anne (table 1, North)" in sheet
    assert sheet.count('<th scope="row" class="round-col">') == 8
    assert "In progress: 1 of 8 boards played." in sheet
    response = match.client.get(f"{match.url}/sheet.csv")
    assert response.mimetype == "text/csv"
    assert "bridge-teams-" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(text(response))))
    assert rows[1][:7] == ["1", "N", "None", "2♠ by N, +1", "140", "2♠ by N, made", "110"]
    assert rows[1][7:] == ["1", "", "1", "0"]
    assert rows[2][:5] == ["2", "E", "NS", "4♠ by N, made", "620"] and rows[2][5:] == [""] * 6
    assert rows[-2][:1] + rows[-2][7:9] == ["Total", "1", "0"]
    vps = bridge.victory_points(1, 8)
    assert rows[-1][7:9] == [f"{vps[0]:.2f}", f"{vps[1]:.2f}"]


def test_team_names_that_a_spreadsheet_would_run_as_formulas_are_written_as_text(
    client: FlaskClient,
) -> None:
    match = Match(client)
    match.start(team_a='=HYPERLINK("//e.x","Go")', team_b="+1+2")
    match.board(1, ("3NT", "S", -2), ("3NT", "S", 0))
    response = client.get(f"{match.url}/sheet.csv")
    rows = list(csv.reader(io.StringIO(text(response))))
    assert rows[0][7:11] == [
        '\'=HYPERLINK("//e.x","Go")',
        "'+1+2",
        '\'=HYPERLINK("//e.x","Go"), total',
        "'+1+2, total",
    ]
    cells = [cell for row in rows for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "@", "\t", "\r")]
    assert rows[1][4] == "-100" and rows[1][6] == "400"  # scores stay numbers
    assert rows[1][8] == "11" and rows[-2][8] == "11"


def test_a_match_exports_and_imports_again(match: Match, client: FlaskClient, app: Flask) -> None:
    match.board(1, ("2S", "N", 1), ("2S", "N", 0))
    match.board(2, ("6NTXX", "E", -3), None)
    match.enter(3, 1, ("4H", "S", 0))
    assert match.edit(1, 1, ("3S", "N", 0)).status_code == 302
    exported = client.get(f"{match.url}/game.json")
    document = json.loads(text(exported))
    assert document["family"] == "teams" and len(document["results"]) == 5
    assert document["players"][0] == {"table": 1, "seat": "N", "name": "Anne"}
    response = import_file(client, document)
    assert response.status_code == 302 and response.headers["Location"].startswith("/teams/")
    copy = Match(client)
    copy.url = response.headers["Location"]
    assert json.loads(text(client.get(f"{copy.url}/game.json"))) == document
    assert score_rows(copy.page()) == score_rows(match.page())
    assert "Board 3, table 2" in copy.page()


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda d: d["results"].pop(0), "results do not follow the match"),
        (lambda d: d["results"][1].update(table=1), "results do not follow the match"),
        (lambda d: d["results"][0].update(declarer=None), "results › 1"),
        (lambda d: d["results"][0].update(strain="Z"), "results › 1 › strain"),
        (lambda d: d["settings"].update(boards=0), "settings › boards"),
        (lambda d: d["settings"].update(first_board=2), "results do not follow the match"),
        (lambda d: d["settings"].update(teams=["Lions", "lions"]), "different names"),
        (lambda d: d["players"].append({**d["players"][0], "name": "Zoé"}), "same place"),
        (lambda d: d["corrections"].append({"number": 1, "at": "2026-11-23T20:00:00",
                                            "kind": "deal"}), "corrections › 1 › kind"),
    ],
)  # fmt: skip
def test_a_spoiled_game_file_is_refused_with_its_reason(
    match: Match, client: FlaskClient, app: Flask, spoil: Any, message: str
) -> None:
    match.board(1, ("2S", "N", 1), ("2S", "N", 0))
    document = json.loads(text(client.get(f"{match.url}/game.json")))
    spoil(document)
    response = import_file(client, document)
    assert response.status_code == 422
    assert message in text(response), text(response)[-2000:]
    with app.app_context():
        assert len(db.session.execute(db.select(TeamsGame)).all()) == 1


def import_file(client: FlaskClient, document: dict[str, Any]) -> TestResponse:
    token = TOKEN.search(text(client.get("/import")))
    assert token
    return client.post(
        "/import",
        data={
            "csrf_token": token.group(1),
            "file": (io.BytesIO(json.dumps(document).encode()), "match.json"),
        },
        content_type="multipart/form-data",
    )


def test_a_match_opens_only_at_its_own_familys_address(match: Match) -> None:
    game_id = match.url.rsplit("/", 1)[1]
    assert match.client.get(match.url).status_code == 200
    assert match.client.get(f"/bridge/{game_id}").status_code == 404
    assert match.client.get(f"/teams/{game_id}/version").status_code == 200
    assert match.client.get(f"/teams/{game_id}/boards/1/tables/1/edit").status_code == 404
    assert match.client.get("/teams/nope/sheet").status_code == 404


FUZZ_FIELDS = [
    "csrf_token",
    "drawn_from",
    "nonce",
    "team_a",
    "team_b",
    "a_1_n",
    "b_2_s",
    "boards",
    "first_board",
    "level",
    "strain",
    "declarer",
    "doubled",
    "honours",
    "result",
]
FUZZ_VALUES = st.one_of(
    st.text(max_size=20),
    st.integers(-(10**9), 10**9).map(str),
    st.sampled_from(
        [
            *("", "0", "1", "4", "7", "8", "64", "65", "-1", "-13", "passed"),
            *("S", "NT", "N", "W", "X", "NS-100", "4S N 10", "pass", "\x00"),
        ]
    ),
)


@pytest.fixture
def half_board(match: Match) -> Match:
    """A match whose first board is in at table 1 only; the examples of a property share it
    (a public server would not start a new match for each of them)."""
    match.enter(1, 1, ("4S", "N", 0))
    return match


@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    route=st.sampled_from(
        [
            "new",
            "GAME/boards/2/tables/1",
            "GAME/boards/1/tables/2",
            "GAME/boards/1/tables/1",
            "GAME/boards/1/tables/1/edit",
            "GAME/boards/1/tables/2/edit",
            "GAME/boards/0/tables/0",
            "GAME/undo",
        ]
    ),
    fields=st.dictionaries(st.sampled_from(FUZZ_FIELDS), FUZZ_VALUES, max_size=10),
    token=st.booleans(),
)
def test_no_post_breaks_a_match_or_changes_what_it_refuses(
    app: Flask, half_board: Match, route: str, fields: dict[str, str], token: bool
) -> None:
    url = "/teams/" + route.replace("GAME", half_board.url.rsplit("/", 1)[1])
    form = dict(fields)
    if token:
        form["csrf_token"] = half_board.fields()["csrf_token"]
    before = database_content(app)
    response = half_board.client.post(url, data=form)
    assert response.status_code < 500, text(response)
    if response.status_code >= 400:
        assert database_content(app) == before, (url, form, response.status_code)
