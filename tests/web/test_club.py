"""A club session through the test client: set up, every table's phone entering its results,
the ranking against an independent computation, conflicts and double submits, the director's
corrections and artificial scores, the printouts, and the files (PBN, USEBIO, JSON)."""

from __future__ import annotations

import html
import io
import json
import random
import re
import threading
from collections import defaultdict
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm import Session
from werkzeug.datastructures import FileStorage
from werkzeug.test import TestResponse, stream_encode_multipart

from scorekeeper.club import director, pages
from scorekeeper.club import table as table_pages
from scorekeeper.club.models import ClubSession
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.rules.bridge import board_vulnerability, contract_score
from scorekeeper.rules.common import Side
from scorekeeper.rules.duplicate import Pair
from scorekeeper.rules.movements import howell, mitchell
from tests.rules.test_pbn import whole_event
from tests.rules.test_usebio import NOT_PLAYED, club_program_file, count
from tests.web.crawler import as_drawn, forms_of
from tests.web.table import NONCE, TOKEN, text

DATA = Path(__file__).resolve().parents[1] / "data" / "bridge"
TABLE_LINK = re.compile(r'value="https?://[^/"]+(/club/[^/"]+/table/(\d+)/[0-9a-f]+)"')
ENTRY = re.compile(r'action="(/club/[^"]+/table/\d+/[0-9a-f]+/(\d+)/(\d+))"')
VERSION = re.compile(r'name="drawn_from" type="hidden" value="(\d+)"')
SMALL = {
    "movement": "mitchell",
    "tables": "3",
    "boards_per_round": "2",
    "pairs": "even",
    "scoring": "matchpoints",
}
"""The small session most tests play: a 3-table Mitchell, 2 boards a round."""
CONFIRM = re.compile(r'action="(/club/[^"]+/confirm)"')
CONFIRMED_FROM = re.compile(r'/confirm">.*?name="drawn_from" value="([^"]*)"', re.S)
"""What East-West's button is drawn from: the result it confirms."""


class Club:
    """The director's phone and the tables' phones, without JavaScript."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.url = ""
        self.tables: dict[int, str] = {}

    def start(self, **choices: str) -> str:
        page = text(self.client.get("/club/new"))
        token, nonce = TOKEN.search(page), NONCE.search(page)
        assert token and nonce
        data = {"csrf_token": token.group(1), "nonce": nonce.group(1)}
        data.update(choices)
        response = self.client.post("/club/new", data=data)
        assert response.status_code == 302, text(response)
        self.url = response.headers["Location"]
        page = text(self.client.get(self.url))
        self.tables = {int(number): link for link, number in TABLE_LINK.findall(page)}
        return self.url

    def drawn(self, table: int) -> tuple[str, dict[str, str]]:
        """Where the table's phone sends its next board, and the form's own fields, as the
        page draws them now."""
        page = text(self.client.get(self.tables[table]))
        entry, token, version = ENTRY.search(page), TOKEN.search(page), VERSION.search(page)
        assert entry and token and version, page
        return entry.group(1), {"csrf_token": token.group(1), "drawn_from": version.group(1)}

    def enter(self, table: int, fields: dict[str, str]) -> tuple[int, int, int]:
        """Enter the table's next board; returns (round, board, status)."""
        page = text(self.client.get(self.tables[table]))
        entry, token, version = ENTRY.search(page), TOKEN.search(page), VERSION.search(page)
        assert entry and token and version, page
        data = {"csrf_token": token.group(1), "drawn_from": version.group(1), **fields}
        response = self.client.post(entry.group(1), data=data)
        return int(entry.group(2)), int(entry.group(3)), response.status_code

    def session(self, app: Flask) -> ClubSession:
        with app.app_context():
            game = db.session.get(Game, self.url.rsplit("/", 1)[1])
            assert isinstance(game, ClubSession)
            for rows in (game.results, game.pairs, game.tables, game.deals, game.corrections):
                list(rows)  # loaded now: the test reads them after the request's session
            return game


def random_result(rng: random.Random) -> dict[str, str]:
    if rng.random() < 0.05:
        return {"result": "passed"}
    level = rng.choice([1, 2, 3, 3, 4, 4, 5, 6])
    result = max(-3, min(7 - level, rng.choice([-2, -1, 0, 0, 0, 1, 1, 2])))
    return {
        "level": str(level),
        "strain": rng.choice(["C", "D", "H", "S", "NT"]),
        "declarer": rng.choice("NESW"),
        "doubled": str(rng.choice([0, 0, 0, 0, 1])),
        "result": str(result),
    }


def ns_score(board: int, fields: dict[str, str]) -> int:
    """Law 77, from the fields as entered: the independent side of the check."""
    if fields["result"] == "passed":
        return 0
    level = int(fields["level"])
    declarer = fields["declarer"]
    side = "NS" if declarer in "NS" else "EW"
    vulnerability = board_vulnerability(board).value
    vulnerable = vulnerability == "All" or vulnerability == side
    tricks = 6 + level + int(fields["result"])
    score = contract_score(level, fields["strain"], int(fields["doubled"]), vulnerable, tricks)
    return score if side == "NS" else -score


def independent_ranking(
    entered: list[tuple[int, object, object, int]],
) -> dict[object, tuple[Fraction, Fraction]]:
    """Matchpoints by hand: on each board 2 per lower score and 1 per equal one in the same
    direction, a board with fewer results than the most any board has (N) scaled by Neuberg,
    (M + 1) × N / n − 1; each pair's total and percentage of its own top, 2 × (N − 1) a board."""
    by_board: dict[int, list[tuple[object, object, int]]] = defaultdict(list)
    for board, ns, ew, score in entered:
        by_board[board].append((ns, ew, score))
    field = max(len(results) for results in by_board.values())
    top = 2 * (field - 1)
    totals: dict[object, Fraction] = defaultdict(Fraction)
    tops: dict[object, int] = defaultdict(int)
    for results in by_board.values():
        obtained = len(results)
        for ns, ew, score in results:
            mp = (
                sum(2 if other < score else 1 if other == score else 0 for _, _, other in results)
                - 1
            )
            scaled = Fraction(mp + 1) * field / obtained - 1
            totals[ns] += scaled
            totals[ew] += top - scaled
            tops[ns] += top
            tops[ew] += top
    return {pair: (totals[pair], totals[pair] * 100 / tops[pair]) for pair in totals}


def play_whole_session(
    club: Club, movement_rounds: int, seed: int
) -> list[tuple[int, int, int, dict[str, str]]]:
    rng = random.Random(seed)
    played = []
    for _round in range(movement_rounds):
        for table in sorted(club.tables):
            while True:
                page = text(club.client.get(club.tables[table]))
                match = ENTRY.search(page)
                if match is None or int(match.group(2)) != _round + 1:
                    break
                fields = random_result(rng)
                round_, board, status = club.enter(table, fields)
                assert status == 302
                played.append((round_, table, board, fields))
    return played


def ranking_rows(page: str) -> list[tuple[str, str, str]]:
    """(place, pair, percentage) from the ranking tables of a page (a published figure's mark
    left out)."""
    page = re.sub(r'<a class="check [^"]*"[^>]*>.*?</a>', "", page)
    rows = re.findall(
        r'<td class="num">(\d+=?)</td>\s*<th scope="row">([^<]+?)'
        r'(?: <span class="names">.*?</span>)?</th>'
        r'\s*<td class="num">[^<]*</td>\s*<td class="num total">([^<]*)</td>',
        page,
    )
    return [(place, html.unescape(pair).strip(), pct) for place, pair, pct in rows]


@pytest.mark.parametrize("kind", ["mitchell", "howell"])
def test_a_whole_session_entered_at_the_tables_ranks_as_an_independent_count(
    client: FlaskClient, app: Flask, kind: str
) -> None:
    tables = 7 if kind == "mitchell" else 5
    club = Club(client)
    club.start(
        movement=kind, tables=str(tables), boards_per_round="3", pairs="even", scoring="matchpoints"
    )
    movement = (mitchell if kind == "mitchell" else howell)(tables, 3)
    assert sorted(club.tables) == list(range(1, tables + 1))
    played = play_whole_session(club, movement.rounds, seed=tables)
    assert len(played) == sum(len(s.boards) for s in movement.seatings)
    entered = []
    for round_, table, board, fields in played:
        seating = next(s for s in movement.round_seatings(round_) if s.table == table)
        assert board in seating.boards
        if kind == "mitchell":
            ns, ew = ("NS", seating.ns), ("EW", seating.ew)
        else:
            ns, ew = seating.ns, seating.ew
        entered.append((board, ns, ew, ns_score(board, fields)))
    expected = independent_ranking(entered)
    page = text(client.get(club.url))
    assert f"Results in: {len(played)} of {len(played)}" in page
    shown = ranking_rows(page)
    assert len(shown) == len(expected)
    for _place, pair, pct in shown:
        if kind == "mitchell":
            direction, number = pair.split(" ")
            key: object = (direction, int(number))
        else:
            key = int(pair.split(" ")[1])
        _total, percent = expected[key]
        assert pct == f"{float(percent):.2f}", (pair, pct, float(percent))
    # The places follow the percentages, ties sharing a place, per direction in a Mitchell.
    groups = [("NS",), ("EW",)] if kind == "mitchell" else [()]
    for group in groups:
        rows = [(place, pair, pct) for place, pair, pct in shown if pair.startswith(group)]
        percents = [float(pct) for _, _, pct in rows]
        assert percents == sorted(percents, reverse=True)
        for place, _pair, pct in rows:
            better = sum(1 for other in percents if other > float(pct))
            assert int(place.rstrip("=")) == better + 1


def test_a_table_sees_its_board_dealer_and_vulnerability_and_east_west_confirm(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(**SMALL)
    page = text(client.get(club.tables[2]))
    # Table 2 starts with board set 2 (boards 3 and 4): board 3 is South's, East-West vulnerable.
    assert "Board 3" in page and "South" in page and "East-West vulnerable" in page
    round_, board, status = club.enter(
        2, {"level": "3", "strain": "NT", "declarer": "S", "doubled": "0", "result": "1"}
    )
    assert (round_, board, status) == (1, 3, 302)
    page = text(client.get(club.tables[2]))
    assert "NS +430" in page and "Board 4" in page
    confirm, token, version = CONFIRM.search(page), TOKEN.search(page), CONFIRMED_FROM.search(page)
    assert confirm and token and version
    session_before = client.get(club.url + "/version").get_json()
    table_before = client.get(club.url + "/part/2/version").get_json()
    director_before = client.get(club.url).data
    response = client.post(
        confirm.group(1), data={"csrf_token": token.group(1), "drawn_from": version.group(1)}
    )
    assert response.status_code == 302
    page = text(client.get(club.tables[2]))
    assert "confirmed" in page
    # The tick shows on the table's page alone: its phone reloads, the session's do not.
    assert client.get(club.url + "/part/2/version").get_json() != table_before
    assert client.get(club.url + "/version").get_json() == session_before
    assert client.get(club.url).data == director_before
    assert club.session(app).results[0].confirmed
    club.enter(2, {"result": "passed"})  # board 4, the round's last
    page = text(client.get(club.tables[2] + "?round=1"))
    assert "On to round 2" in page and ENTRY.search(page) is None


def test_the_same_result_sent_twice_is_recorded_once_and_a_stale_one_is_shown_beside(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(**SMALL)
    entry, drawn = club.drawn(1)
    data = {**drawn, "level": "4", "strain": "H", "declarer": "N", "doubled": "0", "result": "0"}
    assert client.post(entry, data=data).status_code == 302
    assert client.post(entry, data=data).status_code == 302  # a double tap
    assert len(club.session(app).results) == 1
    other = {**data, "result": "-1"}  # another phone, drawn before the first entry
    response = client.post(entry, data=other)
    assert response.status_code == 409
    page = text(response)
    assert "was entered on another phone" in page and "4♥ N made" in page and "4♥ N −1" in page
    assert club.session(app).results[0].tricks == 10


def test_putting_mine_in_place_of_another_phone_s_result_stays_on_that_board(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(**SMALL)
    entry, drawn = club.drawn(1)
    fields = {"level": "4", "strain": "H", "declarer": "N", "doubled": "0"}
    drawn = {**drawn, **fields}
    assert client.post(entry, data={**drawn, "result": "0"}).status_code == 302
    conflict = client.post(entry, data={**drawn, "result": "-1"})
    assert conflict.status_code == 409
    (put_mine,) = [f for f in forms_of(text(conflict)) if f.action.endswith("/edit")]
    assert put_mine.action == entry + "/edit"
    # Board 1 changed again before the tap: the page asks again, its form still board 1's.
    club.enter(1, {"result": "passed"})  # board 2 entered: board 1's row is as it was
    other = {**as_drawn(put_mine), "result": "1"}
    assert client.post(put_mine.action, data=other).status_code == 302
    response = client.post(put_mine.action, data={**as_drawn(put_mine), "level": "5"})
    assert response.status_code == 409, text(response)
    asked = text(response)
    assert "it now reads 4♥ N +1" in asked
    (again,) = [f for f in forms_of(asked) if f.action.endswith("/edit")]
    assert again.action == entry + "/edit"
    assert 'class="deal-title">Board 1</h2>' in asked
    mine = {**as_drawn(again), **fields, "level": "5", "result": "-1"}
    assert client.post(again.action, data=mine).status_code == 302
    results = {r.board: r.code for r in club.session(app).results}
    assert results == {1: "5H N 10", 2: "pass"}
    # Confirmed by East-West, it is the director's to change: the phone is told so.
    round_one = text(client.get(club.tables[1], query_string={"round": 1}))
    (confirm,) = [f for f in forms_of(round_one) if f.action.endswith("/1/1/confirm")]
    assert client.post(confirm.action, data=as_drawn(confirm)).status_code == 302
    assert [r.confirmed for r in club.session(app).results if r.board == 1] == [True]
    response = client.post(entry, data={**drawn, "result": "-2"}, follow_redirects=True)
    assert "East-West confirmed this result" in text(response)
    assert {r.board: r.code for r in club.session(app).results}[1] == "5H N 10"


def test_a_closed_session_says_so_to_a_result_for_a_board_entered_already(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(**SMALL)
    entry, drawn = club.drawn(1)
    assert client.post(entry, data={**drawn, "result": "passed"}).status_code == 302
    client.post(f"{club.url}/close", data=session_form(client, club.url, "close"))
    other = {**drawn, "level": "1", "strain": "C", "declarer": "N", "doubled": "0", "result": "0"}
    response = client.post(entry, data=other, follow_redirects=True)
    assert 'class="flash error" role="status">The session is closed' in text(response)
    assert "was entered on another phone" not in text(response)
    # Nor does East-West's confirmation, from a page drawn after the session closed.
    round_one = text(client.get(club.tables[1], query_string={"round": 1}))
    assert "/1/1/confirm" not in round_one  # the closed session's page offers none
    table = club.session(app).table(1)
    assert table is not None
    confirm = entry + "/confirm"
    response = client.post(confirm, data={**drawn, "drawn_from": str(table.version)})
    assert response.status_code == 302
    assert [(r.code, r.confirmed) for r in club.session(app).results] == [("pass", False)]


def test_tables_keep_versions_of_their_own(client: FlaskClient, app: Flask) -> None:
    """A form drawn at table 2 is still good after table 1 entered a result."""
    club = Club(client)
    club.start(
        movement="mitchell", tables="4", boards_per_round="1", pairs="even", scoring="matchpoints"
    )
    page = text(client.get(club.tables[2]))
    entry, token, version = ENTRY.search(page), TOKEN.search(page), VERSION.search(page)
    assert entry and token and version
    club.enter(1, {"result": "passed"})
    data = {"csrf_token": token.group(1), "drawn_from": version.group(1), "result": "passed"}
    assert client.post(entry.group(1), data=data).status_code == 302
    assert len(club.session(app).results) == 2


def test_a_table_link_enters_its_own_table_only(client: FlaskClient, app: Flask) -> None:
    club = Club(client)
    club.start(**SMALL)
    table_one = club.tables[1]
    forged = table_one.replace("/table/1/", "/table/2/")
    assert client.get(forged).status_code == 403
    assert client.get(table_one[:-4] + "0000").status_code == 403
    assert client.get(club.url + "/table/9/abc").status_code == 404
    page = text(client.get(table_one))
    entry, token, version = ENTRY.search(page), TOKEN.search(page), VERSION.search(page)
    assert entry and token and version
    wrong_board = re.sub(r"/(\d+)/(\d+)$", "/1/5", entry.group(1))
    data = {"csrf_token": token.group(1), "drawn_from": version.group(1), "result": "passed"}
    assert client.post(wrong_board, data=data).status_code == 404
    assert club.session(app).results == []


def test_bad_entries_are_refused_with_a_message_and_change_nothing(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(**SMALL)
    for fields in (
        {},
        {"result": "9"},
        {"level": "7", "strain": "S", "declarer": "N", "doubled": "0", "result": "1"},
        {"level": "8", "strain": "S", "declarer": "N", "doubled": "0", "result": "0"},
        {"level": "3", "strain": "X", "declarer": "N", "doubled": "0", "result": "0"},
        {"level": "3", "strain": "S", "declarer": "Q", "doubled": "0", "result": "0"},
        {"level": "3", "strain": "S", "declarer": "N", "doubled": "5", "result": "0"},
        {"level": "3", "strain": "S", "result": "0"},
        {"level": "\x00", "strain": "S", "declarer": "N", "result": "0"},
    ):
        _round, _board, status = club.enter(1, fields)
        assert status == 422, fields
    assert club.session(app).results == []


@pytest.mark.parametrize(
    "choices",
    [
        {"movement": "howell", "tables": "9"},
        {"movement": "mitchell", "tables": "2"},
        {"movement": "mitchell", "tables": "16"},
        {"movement": "mitchell", "tables": "x"},
        {"movement": "swiss", "tables": "5"},
        {"movement": "mitchell", "tables": "5", "boards_per_round": "0"},
        {"movement": "mitchell", "tables": "5", "pairs": "many"},
        {"movement": "mitchell", "tables": "5", "scoring": "total"},
        {"movement": "mitchell", "tables": "5", "event": "a\x00b"},
        {"movement": "mitchell", "tables": "5", "event": "x" * 61},
    ],
)
def test_a_session_set_up_wrong_is_refused_with_a_message(
    client: FlaskClient, choices: dict[str, str]
) -> None:
    page = text(client.get("/club/new"))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data = {
        "csrf_token": token.group(1),
        "nonce": nonce.group(1),
        "boards_per_round": "3",
        "pairs": "even",
        "scoring": "matchpoints",
        **choices,
    }
    response = client.post("/club/new", data=data)
    assert response.status_code == 422
    assert 'role="alert"' in text(response)


def test_an_odd_number_of_pairs_has_a_pair_sitting_out(client: FlaskClient, app: Flask) -> None:
    club = Club(client)
    club.start(
        movement="mitchell", tables="3", boards_per_round="2", pairs="odd", scoring="matchpoints"
    )
    page = text(client.get(club.tables[3]))  # East-West 3 is the phantom: round 1 sits out
    assert "sits out" in page and ENTRY.search(page) is None
    for table in (1, 2):
        for _board in range(2):
            club.enter(table, {"result": "passed"})
    page = text(client.get(club.tables[3]))  # the room has moved on to round 2
    assert "Round 2 of 3" in page and ENTRY.search(page) is not None
    for result in club.session(app).results:  # round 1 is played again below, in earnest
        url = f"{club.url}/results/{result.round}/{result.table}/{result.board}"
        director_post(client, url, action="delete")
    session = club.session(app)
    assert len(session.pairs) == 5
    played = play_whole_session(club, 3, seed=1)
    assert len(played) == 2 * 6  # two tables play each round
    page = text(client.get(club.url))
    assert len(ranking_rows(page)) == 5


def session_form(client: FlaskClient, url: str, action: str) -> dict[str, str]:
    """The fields of the director's form sent to ``url/action`` (undo, close), as drawn."""
    (form,) = [f for f in forms_of(text(client.get(url))) if f.action == f"{url}/{action}"]
    return {name: values[0] for name, values in form.fields.items()}


def director_post(
    client: FlaskClient, url: str, action: str | None = None, **fields: str
) -> TestResponse:
    """Send one of the director's forms at ``url``, as drawn: for a result, the result
    (``action="result"``), artificial scores or the deletion; elsewhere, the page's form."""
    forms = forms_of(text(client.get(url)))
    if action is None:
        (form,) = forms
    elif action == "delete":
        (form,) = [form for form in forms if form.action.endswith("/delete")]
    else:
        (form,) = [form for form in forms if form.fields.get("action") == [action]]
    return client.post(form.action, data={**as_drawn(form), **fields})


def test_the_director_corrects_gives_artificial_scores_deletes_and_undoes_all_logged(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(**SMALL)
    club.enter(1, {"level": "4", "strain": "S", "declarer": "N", "doubled": "0", "result": "0"})
    edit = f"{club.url}/results/1/1/1"
    response = director_post(
        client, edit, action="result", level="4", strain="S", declarer="N", doubled="0", result="1"
    )
    assert response.status_code == 302
    assert club.session(app).results[0].tricks == 11
    response = director_post(
        client, f"{club.url}/results/1/1/2", action="artificial", scores="A+/A-"
    )
    assert response.status_code == 302
    page = text(client.get(club.url))
    assert "corrected" in page and "4♠ N made" in page and "4♠ N +1" in page
    assert "artificial: A+ to North-South, A- to East-West" in page
    travellers = text(client.get(f"{club.url}/travellers"))
    assert "A+ / A-" in travellers
    response = director_post(client, f"{club.url}/results/1/1/2", action="delete")
    assert response.status_code == 302
    assert len(club.session(app).results) == 1
    response = client.post(f"{club.url}/undo", data=session_form(client, club.url, "undo"))
    assert response.status_code == 302
    assert club.session(app).results == []
    kinds = [c.kind for c in club.session(app).corrections]
    assert kinds == ["result", "artificial", "result-deleted", "undo-result"]


def test_the_director_s_forms_drawn_before_a_result_went_away_say_so(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(**SMALL)
    club.enter(1, {"level": "3", "strain": "NT", "declarer": "S", "doubled": "0", "result": "0"})
    edit = f"{club.url}/results/1/1/1"
    forms = forms_of(text(client.get(edit)))
    (delete,) = [form for form in forms if form.action.endswith("/delete")]
    (result,) = [form for form in forms if form.fields.get("action") == ["result"]]
    response = client.post(f"{club.url}/undo", data=session_form(client, club.url, "undo"))
    assert response.status_code == 302 and club.session(app).results == []
    response = client.post(delete.action, data=as_drawn(delete), follow_redirects=True)
    assert response.status_code == 200
    assert "nothing was deleted" in text(response)
    response = client.post(edit, data={**as_drawn(result), "result": "1"})
    assert response.status_code == 409
    assert "it now reads no result" in text(response) and "passed out" not in text(response)
    assert club.session(app).results == []


def test_a_closed_session_takes_no_more_results_from_the_tables(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(**SMALL)
    page = text(client.get(club.tables[1]))
    entry, token, version = ENTRY.search(page), TOKEN.search(page), VERSION.search(page)
    assert entry and token and version
    client.post(f"{club.url}/close", data=session_form(client, club.url, "close"))
    assert club.session(app).closed
    data = {"csrf_token": token.group(1), "drawn_from": version.group(1), "result": "passed"}
    response = client.post(entry.group(1), data=data, follow_redirects=True)
    assert "The session is closed" in text(response)
    assert club.session(app).results == []


def test_a_result_sent_as_the_director_closes_is_refused_however_the_rows_were_read(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session closed between the table's entry reading the session (open) and reading
    its table (already counted closed): the entry is tried again from the session as it is,
    and refused, rather than stored after the close."""
    club = Club(client)
    club.start(**SMALL)
    page = text(client.get(club.tables[1]))
    entry, token, version = ENTRY.search(page), TOKEN.search(page), VERSION.search(page)
    assert entry and token and version
    read = table_pages.club_session

    def closed_meanwhile(game_id: str) -> ClubSession:
        game = read(game_id)
        if not game.closed:
            with Session(db.engine) as directors_phone:  # the close, as director.close writes it
                closing = directors_phone.get(ClubSession, game_id)
                assert closing is not None
                closing.setting("closed", True)
                closing.changed()
                for row in closing.tables:
                    row.changed()
                directors_phone.commit()
        return game

    monkeypatch.setattr(table_pages, "club_session", closed_meanwhile)
    data = {"csrf_token": token.group(1), "drawn_from": version.group(1), "result": "passed"}
    response = client.post(entry.group(1), data=data, follow_redirects=True)
    assert "The session is closed" in text(response)
    assert club.session(app).closed and club.session(app).results == []


def test_undo_takes_no_result_from_a_closed_session(client: FlaskClient, app: Flask) -> None:
    club = Club(client)
    club.start(**SMALL)
    assert club.enter(1, {"result": "passed"})[2] == 302
    client.post(f"{club.url}/close", data=session_form(client, club.url, "close"))
    page = text(client.get(club.url))
    assert "Undo the last result entered" not in page
    # A form sent all the same, drawn from the closed session as it is.
    sent = {**session_form(client, club.url, "close"), "drawn_from": club.session(app).live_version}
    response = client.post(f"{club.url}/undo", data=sent)
    assert response.status_code == 302
    page = text(client.get(response.headers["Location"]))
    assert "The session is closed: open it again to take a result back." in page
    assert len(club.session(app).results) == 1
    client.post(f"{club.url}/close", data=session_form(client, club.url, "close"))  # reopened
    response = client.post(f"{club.url}/undo", data=session_form(client, club.url, "undo"))
    assert "taken back" in text(client.get(response.headers["Location"]))
    assert club.session(app).results == []


def test_the_club_s_name_is_on_every_printout_and_in_its_files(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**SMALL, club="Bridge Club de Mâcon", event="Tournoi du mardi")
    play_whole_session(club, 3, seed=8)
    for page in ("ranking", "travellers", "cards", "movement", "hands/print"):
        response = client.get(f"{url}/{page}")
        assert response.status_code == 200, page
        assert '<p class="club-name">Bridge Club de Mâcon</p>' in text(response), page
    pbn = client.get(f"{url}/session.pbn").get_data(as_text=True)
    assert pbn.count('[Site "Bridge Club de Mâcon"]') == 6  # every board's game
    assert '[Site "?"]' not in pbn
    usebio = client.get(f"{url}/session.xml").get_data(as_text=True)
    assert "<CLUB_NAME>Bridge Club de Mâcon</CLUB_NAME>" in usebio
    for exported, name in ((pbn.encode(), "s.pbn"), (usebio.encode(), "s.xml")):
        imported = import_results(client, exported, name)
        assert '<p class="club-name">Bridge Club de Mâcon</p>' in text(
            client.get(f"{imported}/ranking")
        ), name


def test_pairs_names_show_in_the_ranking(client: FlaskClient, app: Flask) -> None:
    club = Club(client)
    club.start(
        movement="howell", tables="3", boards_per_round="2", pairs="even", scoring="matchpoints"
    )
    names = {f"names-{index}": f"Joueur {index} – Partenaire" for index in range(6)}
    response = director_post(client, f"{club.url}/pairs", **names)
    assert response.status_code == 302
    club.enter(1, {"result": "passed"})
    page = text(client.get(club.url))
    assert "Joueur 0 – Partenaire" in page
    bad = director_post(client, f"{club.url}/pairs", **{"names-0": "x" * 61})
    assert bad.status_code == 422


def test_butler_scoring_ranks_by_imps(client: FlaskClient, app: Flask) -> None:
    club = Club(client)
    club.start(
        movement="mitchell", tables="3", boards_per_round="1", pairs="even", scoring="butler"
    )
    play_whole_session(club, 3, seed=3)
    page = text(client.get(club.url))
    assert "IMPs" in page and "Butler" in page
    session = club.session(app).score()
    assert [direction for direction, _standings in session.rankings] == [Side.NS, Side.EW]
    for _direction, standings in session.rankings:
        assert all(standing.percentage is None for standing in standings)
        totals = [s.total for s in standings]
        assert totals == sorted(totals, reverse=True)


def test_printouts_and_files_of_a_session(client: FlaskClient, app: Flask) -> None:
    club = Club(client)
    club.start(
        movement="howell", tables="3", boards_per_round="2", pairs="even", scoring="matchpoints"
    )
    play_whole_session(club, 5, seed=5)
    for page in ("movement", "ranking", "travellers", "cards"):
        response = client.get(f"{club.url}/{page}")
        assert response.status_code == 200, page
    cards = text(client.get(f"{club.url}/movement"))
    assert "shared with table" in cards
    before = club.session(app).score()
    for suffix in ("session.pbn", "session.xml"):
        exported = client.get(f"{club.url}/{suffix}").data
        imported = import_results(client, exported, f"x.{suffix.rsplit('.', 1)[1]}")
        assert "is confirmed" in text(client.get(imported)), suffix
        with app.app_context():
            game = db.session.get(Game, imported.rsplit("/", 1)[1])
            assert isinstance(game, ClubSession)
            after = game.score()
        assert [(s.pair.number, s.rank, s.total, s.percentage) for s in after.standings()] == [
            (s.pair.number, s.rank, s.total, s.percentage) for s in before.standings()
        ]
    exported = client.get(f"{club.url}/game.json").data
    response = upload(client, "/import", exported, "s.json")
    assert response.status_code == 302
    copy = text(client.get(response.headers["Location"]))
    assert ranking_rows(copy) == ranking_rows(text(client.get(club.url)))


def upload(client: FlaskClient, path: str, data: bytes, name: str) -> TestResponse:
    """Send a file through the upload form at ``path``, as a browser would."""
    page = text(client.get(path))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    fields = {"csrf_token": token.group(1), "nonce": nonce.group(1)}
    # Encoded in memory: the test client would spool a large file to a temporary file it
    # never closes.
    body, length, boundary = stream_encode_multipart(
        {**fields, "file": FileStorage(io.BytesIO(data), name)}, use_tempfile=False
    )
    return client.post(
        path,
        input_stream=body,
        content_type=f'multipart/form-data; boundary="{boundary}"',
        headers={"Content-Length": str(length)},
    )


def import_results(client: FlaskClient, data: bytes, name: str) -> str:
    response = upload(client, "/club/import", data, name)
    assert response.status_code == 302, text(response)
    return str(response.headers["Location"])


def test_the_real_session_file_is_published_with_its_ranking(
    client: FlaskClient, app: Flask
) -> None:
    url = import_results(client, (DATA / "ffb_2022_dn1_s1.pbn").read_bytes(), "s.pbn")
    page = text(client.get(url))
    assert "is confirmed" in page
    ranking = text(client.get(f"{url}/ranking"))
    rows = ranking_rows(ranking)
    published = [
        line.split(",")
        for line in (DATA / "ffb_2022_dn1_s1_totals.csv").read_text().splitlines()[1:]
    ]
    assert [(place.rstrip("="), pair.split(" ")[1], pct) for place, pair, pct in rows] == [
        (p[0], p[1], f"{float(p[5]):.2f}") for p in published
    ]


@pytest.mark.parametrize("neuberg", [True, False], ids=["neuberg", "not scaled"])
def test_a_file_with_boards_played_fewer_times_ranks_as_its_program_did(
    client: FlaskClient, app: Flask, neuberg: bool
) -> None:
    counted = count(NOT_PLAYED["table 3 missed round 2"], neuberg=neuberg)
    url = import_results(client, club_program_file(counted), "tuesday.xml")
    assert "is confirmed" in text(client.get(url))
    places = [(place, pair) for place, pair, _ in ranking_rows(text(client.get(url)))]
    assert places == [
        (counted.place(pair), f"{pair[0]} {pair[1]}")
        for side in ("NS", "EW")
        for pair in counted.order(side)
    ]
    # The session's game file keeps how the file was scored.
    exported = client.get(f"{url}/game.json").data
    copy = upload(client, "/import", exported, "s.json")
    assert copy.status_code == 302
    assert ranking_rows(text(client.get(copy.headers["Location"]))) == ranking_rows(
        text(client.get(url))
    )


def test_a_file_with_the_whole_event_s_ranking_says_so(client: FlaskClient) -> None:
    data = whole_event((DATA / "ffb_2022_dn1_s1.pbn").read_bytes().decode("latin-1"))
    url = import_results(client, data.encode("latin-1"), "s.pbn")
    page = html.unescape(text(client.get(url)))
    assert "differ" not in page
    assert "Every score and matchpoint the file publishes for this session is confirmed" in page
    assert "about 180 boards a pair, this session 30" in page
    # The ranking shown is the one the file published, said to be the whole event's.
    ranking = html.unescape(text(client.get(f"{url}/ranking")))
    assert "The file's ranking is that of the whole event" in ranking
    places = [place for place, _pair, _percentage in ranking_rows(ranking)]
    assert places == [str(place) for place in range(1, 45)]


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x00\xff" * 50,
        b'% PBN 2.0\n[Board "1"]\n[ScoreTable "Table;Round"]\n1',
        b"<USEBIO><EVENT/></USEBIO>",
        b'<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>',
    ],
)
def test_a_bad_results_file_gets_a_message(client: FlaskClient, data: bytes) -> None:
    response = upload(client, "/club/import", data, "x.pbn")
    assert response.status_code == 422
    assert 'role="alert"' in text(response)


def test_a_file_whose_published_figures_are_wrong_is_imported_with_the_difference_named(
    client: FlaskClient,
) -> None:
    data = (DATA / "ffb_2022_dn1_s1.pbn").read_bytes().replace(b" 771.2 61.21 ", b" 771.3 61.21 ")
    url = import_results(client, data, "s.pbn")
    page = html.unescape(text(client.get(url)))
    assert "1 of the file's published figures differ" in page
    assert "pair 7: the file's total is 771.3, Scorekeeper's 771.2" in page


def test_a_bad_results_file_is_explained_in_french(client: FlaskClient) -> None:
    client.get("/language/fr")
    data = b'% PBN 2.0\n[Event "x"]\n[Board "1"]\n[Board "x"\n'
    response = upload(client, "/club/import", data, "x.pbn")
    assert response.status_code == 422
    assert "Ligne 4" in html.unescape(text(response)), text(response)


FFB = (DATA / "ffb_2022_dn1_s1.pbn").read_bytes()
"""The FFB session as Magic Contest exported it (Windows-1252)."""
FFB_TEXT = FFB.decode("cp1252")


def stored_session(app: Flask, url: str) -> ClubSession:
    with app.app_context():
        game = db.session.get(Game, url.rsplit("/", 1)[1])
        assert isinstance(game, ClubSession)
        for rows in (game.results, game.pairs):
            list(rows)  # loaded now: the test reads them after the request's session
        return game


def test_a_session_file_without_its_creation_time_imports(client: FlaskClient) -> None:
    club = Club(client)
    club.start(**SMALL)
    club.enter(1, {"result": "passed"})
    document = client.get(f"{club.url}/game.json").get_json()
    del document["created_at"]  # optional in the file
    response = upload(client, "/import", json.dumps(document).encode(), "s.json")
    assert response.status_code == 302, text(response)
    assert client.get(f"{response.headers['Location']}/session.pbn").status_code == 200


def test_an_imported_session_keeps_the_day_its_file_gives(client: FlaskClient) -> None:
    url = import_results(client, FFB, "s.pbn")
    assert '<span class="date">Feb 6, 2022</span>' in text(client.get(url))
    assert '<span class="date">February 6, 2022</span>' in text(client.get(f"{url}/ranking"))
    assert b'[Date "2022.02.06"]' in client.get(f"{url}/session.pbn").data
    usebio = client.get(f"{url}/session.xml").data
    assert b"<DATE>06/02/2022</DATE>" in usebio
    exported = client.get(f"{url}/game.json").data
    assert json.loads(exported)["settings"]["date"] == "2022-02-06"
    again = upload(client, "/import", exported, "s.json")
    assert again.status_code == 302
    for copy in (again.headers["Location"], import_results(client, usebio, "s.xml")):
        assert '<span class="date">Feb 6, 2022</span>' in text(client.get(copy))
        assert b'[Date "2022.02.06"]' in client.get(f"{copy}/session.pbn").data
    # A file that gives no date: the day it was imported.
    undated = import_results(client, FFB.replace(b'[Date "2022.02.06"]', b'[Date "?"]'), "s.pbn")
    today = datetime.now(UTC).strftime("%Y.%m.%d")
    assert f'[Date "{today}"]'.encode() in client.get(f"{undated}/session.pbn").data


def test_control_characters_of_a_results_file_are_cleaned_so_it_stores_and_exports(
    client: FlaskClient, app: Flask
) -> None:
    source = (
        FFB_TEXT.replace('[Event "', '[Event "\x1b[1m\x9b', 1)
        .replace(' - "" 30 ', ' - "Anne\x00 Martin\t-\x85Bruno Petit" 30 ', 1)
        .replace(" 3  1  3 42 4S  S 10 S9 ", ' 3  1  3 42 4S  S 10 "S\x009" ', 1)
    )
    url = import_results(client, source.encode(), "s.pbn")  # UTF-8: \x85 and \x9b are C1
    game = stored_session(app, url)
    assert game.event == "[1mOpen /2 DN1 National Finale directe 21-22 - Séance 1"
    assert game.name_of(Pair(7)) == "Anne Martin - Bruno Petit"
    assert [r.lead for r in game.results if (r.board, r.table) == (1, 3)] == ["S9"]
    exported = client.get(f"{url}/game.json").data
    again = upload(client, "/import", exported, "s.json")
    assert again.status_code == 302, text(again)
    assert stored_session(app, again.headers["Location"]).name_of(Pair(7)) == (
        "Anne Martin - Bruno Petit"
    )
    for suffix in ("session.pbn", "session.xml"):
        import_results(client, client.get(f"{url}/{suffix}").data, suffix)
    # A game file that holds them (exported before they were cleaned) imports cleaned too.
    document = json.loads(exported)
    document["settings"]["event"] = "\x1b[1mMonday\x00"
    document["pairs"][0]["names"] = "Anne\x9b\tMartin"
    again = upload(client, "/import", json.dumps(document).encode(), "s.json")
    assert again.status_code == 302, text(again)
    copy = stored_session(app, again.headers["Location"])
    assert (copy.event, copy.pairs[0].names) == ("[1mMonday", "Anne Martin")


def test_names_from_a_results_file_can_be_saved_again_as_they_are(
    client: FlaskClient, app: Flask
) -> None:
    source = FFB_TEXT.replace(' - "" 30 ', ' - "Anne\u00a0Martin - Bruno Petit" 30 ', 1)
    url = import_results(client, source.encode("cp1252"), "s.pbn")
    page = text(client.get(f"{url}/pairs"))
    token, version = (
        TOKEN.search(page),
        re.search(r'name="drawn_from" type="hidden" value="(\d+)"', page),
    )
    assert token and version
    fields = {
        name: html.unescape(value)
        for name, value in re.findall(r'name="(names-\d+)" [^>]*value="([^"]*)"', page)
    }
    assert "Anne\u00a0Martin - Bruno Petit" in fields.values()
    data = {"csrf_token": token.group(1), "drawn_from": version.group(1), **fields}
    response = client.post(f"{url}/pairs", data=data)
    assert response.status_code == 302, text(response)
    assert stored_session(app, url).name_of(Pair(7)) == "Anne\u00a0Martin - Bruno Petit"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_results_files_in_utf16_are_read(client: FlaskClient, encoding: str) -> None:
    url = import_results(client, FFB, "s.pbn")
    usebio = client.get(f"{url}/session.xml").data.decode()
    usebio = usebio.replace('encoding="UTF-8"', 'encoding="UTF-16"')
    for data, name in ((usebio.encode(encoding), "s.xml"), (FFB_TEXT.encode(encoding), "s.pbn")):
        copy = import_results(client, data, name)
        assert "Séance 1" in text(client.get(copy)), name


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (
            b"vg|Club de Bridge,Monday pairs|P|1,8|I|0|0|Anne,Bruno|\n"
            b"pn|Anne,Bruno,Chloe,Denis|st||md|3SAKQHJ,,,|rh||ah|Board 1|sv|o|\n"
            b"qx|o1|mb|1S|mb|p|mb|p|mb|p|pc|SA|\n",
            "This is a BBO LIN file: deals as they were bid and played, not a session's results.",
        ),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "This file is a PDF, a printout"),
        (b"PK\x03\x04\x14\x00\x06\x00" + b"\x00" * 22 + b"[Content_Types].xml", "spreadsheet"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 40, "spreadsheet"),
        (b"<!DOCTYPE html>\n<html><head><title>Results</title>", "This file is a web page"),
        (b'{"format": "scorekeeper-game", "version": 1, "family": "club"}', "Import a game"),
    ],
    ids=["bbo-lin", "pdf", "xlsx", "xls", "web-page", "game-file"],
)
def test_a_file_of_another_kind_is_named_with_the_files_that_are_read(
    client: FlaskClient, data: bytes, kind: str
) -> None:
    response = upload(client, "/club/import", data, "results")
    assert response.status_code == 422
    page = html.unescape(text(response))
    assert kind in page, page
    assert "Scorekeeper reads the results file a scoring program exports, PBN or USEBIO" in page
    assert "stands before any tag" not in page


def test_addresses_out_of_the_movement_are_not_found(client: FlaskClient) -> None:
    club = Club(client)
    club.start(**SMALL)
    for path in ("/results/0/1/1", "/results/9/1/1", "/results/1/9/1", "/results/1/1/99"):
        assert client.get(club.url + path).status_code == 404, path
    page = text(client.get(club.tables[1]))
    entry, token, version = ENTRY.search(page), TOKEN.search(page), VERSION.search(page)
    assert entry and token and version
    data = {"csrf_token": token.group(1), "drawn_from": version.group(1), "result": "passed"}
    for round_ in ("0", "99"):
        wrong = re.sub(r"/(\d+)/(\d+)$", f"/{round_}/1", entry.group(1))
        assert client.post(wrong, data=data).status_code == 404
    assert client.get(club.tables[1] + "?round=99").status_code == 200


def test_the_director_s_page_follows_the_live_version_the_poll_answers(client: FlaskClient) -> None:
    club = Club(client)
    club.start(**SMALL)
    club.enter(2, {"result": "passed"})
    page = text(client.get(club.url))
    shown = re.search(r'data-version="(\d+)"', page)
    assert shown
    assert client.get(club.url + "/version").get_json() == {"version": int(shown.group(1))}


def test_a_session_s_score_is_kept_in_its_newest_state_only(client: FlaskClient) -> None:
    """Each result entered scores the session anew; the score of the state before is let go,
    not kept beside it until the server has scored 256 states of other sessions."""
    pages.kept_scores.clear()
    club = Club(client)
    club.start(**SMALL)
    game_id = club.url.rsplit("/", 1)[1]
    versions = []
    for table in (1, 2):
        club.enter(table, {"result": "passed"})
        assert "Results in: " in text(client.get(club.url))
        kept = [state for scope, state in pages.kept_scores.items() if scope[0] == game_id]
        assert len(kept) == 1
        versions.append(kept[0][0])
    assert versions[1] > versions[0]


def test_a_result_entered_while_the_director_s_page_is_drawn_reaches_it_at_the_next_poll(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's reads are statements of their own: a table's result can commit after the
    results are read and before the tables' versions are. The page must then still follow
    the version it was drawn from, or the director's phone would never show that result."""
    club = Club(client)
    club.start(**SMALL)
    table_phone = Club(app.test_client())
    table_phone.url, table_phone.tables = club.url, club.tables
    club.enter(1, {"result": "passed"})  # the page kept as drawn at the start is then old
    scored_before = director.scored
    entered: list[bool] = []

    def scored_then_a_table_enters(game: ClubSession, scorer: bool = True) -> object:
        score = scored_before(game, scorer)  # the results are read
        if not entered:
            entered.append(True)
            # Another phone's request runs in a thread of its own, with its own session.
            other = threading.Thread(target=table_phone.enter, args=(2, {"result": "passed"}))
            other.start()
            other.join()
        return score

    monkeypatch.setattr(director, "scored", scored_then_a_table_enters)
    page = text(client.get(club.url))
    assert entered and "Results in: 1 of " in page
    shown = re.search(r'data-version="(\d+)"', page)
    assert shown
    game_id = club.url.rsplit("/", 1)[1]
    etag = f'"{game_id}-{shown.group(1)}"'
    poll = client.get(club.url + "/version", headers={"If-None-Match": etag})
    assert poll.status_code == 200 and poll.get_json()["version"] != int(shown.group(1))
    assert "Results in: 2 of " in text(client.get(club.url))


def test_a_director_s_form_drawn_before_a_table_s_entry_changes_nothing(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(**SMALL)
    club.enter(1, {"result": "passed"})
    undo = session_form(client, club.url, "undo")
    edit = f"{club.url}/results/1/2/3"
    (artificial,) = [
        form
        for form in forms_of(text(client.get(edit)))
        if form.fields.get("action") == ["artificial"]
    ]
    club.enter(2, {"level": "3", "strain": "NT", "declarer": "S", "doubled": "0", "result": "0"})
    response = client.post(f"{club.url}/undo", data=undo)
    assert response.status_code == 302
    response = client.post(edit, data={**as_drawn(artificial), "scores": "A=/A="})
    assert response.status_code == 409  # drawn when the board had no result: the table's is kept
    session = club.session(app)
    assert sorted(r.code for r in session.results) == ["3NT S 9", "pass"]
    assert session.corrections == []


def test_a_correction_keeps_the_result_s_row_and_undo_takes_back_the_last_entered(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(**SMALL)
    club.enter(1, {"level": "2", "strain": "H", "declarer": "E", "doubled": "0", "result": "0"})
    club.enter(2, {"result": "passed"})
    first = club.session(app).results
    response = director_post(
        client,
        f"{club.url}/results/1/1/1",
        action="result",
        level="2",
        strain="H",
        declarer="E",
        doubled="0",
        result="1",
    )
    assert response.status_code == 302
    again = director_post(
        client,
        f"{club.url}/results/1/1/1",
        action="result",
        level="2",
        strain="H",
        declarer="E",
        doubled="0",
        result="1",
    )
    assert again.status_code == 302
    assert "is unchanged" in text(client.get(club.url))
    corrected = {r.table: r for r in club.session(app).results}
    assert corrected[1].id == next(r.id for r in first if r.table == 1) and corrected[1].tricks == 9
    client.post(f"{club.url}/undo", data=session_form(client, club.url, "undo"))
    assert [r.table for r in club.session(app).results] == [1]


@pytest.mark.parametrize(
    "result",
    [
        {"level": 4, "board": 1, "table": 1, "round": 1, "ns": 1, "ew": 1},
        {"artificial_ns": "A+", "board": 1, "table": 1, "round": 1, "ns": 1, "ew": 1},
        {
            "level": 4,
            "strain": "S",
            "declarer": "N",
            "tricks": 10,
            "artificial_ns": "A+",
            "artificial_ew": "A+",
            "board": 1,
            "table": 1,
            "round": 1,
            "ns": 1,
            "ew": 1,
        },
    ],
)
def test_a_session_file_with_a_half_entered_result_is_refused(
    client: FlaskClient, result: dict[str, object]
) -> None:
    club = Club(client)
    club.start(**SMALL)
    document = client.get(f"{club.url}/game.json").get_json()
    document["results"] = [result]
    raw = json.dumps(document).encode()
    response = upload(client, "/import", raw, "s.json")
    assert response.status_code == 422


@pytest.mark.parametrize("taken_back", ["delete", "undo"])
def test_a_stale_form_sent_again_does_not_bring_back_a_result_the_director_took_away(
    client: FlaskClient, app: Flask, taken_back: str
) -> None:
    club = Club(client)
    club.start(**SMALL)
    page = text(client.get(club.tables[1]))
    entry, token, version = ENTRY.search(page), TOKEN.search(page), VERSION.search(page)
    assert entry and token and version
    data = {
        "csrf_token": token.group(1),
        "drawn_from": version.group(1),
        **{"level": "3", "strain": "NT", "declarer": "S", "doubled": "0", "result": "1"},
    }
    assert client.post(entry.group(1), data=data).status_code == 302
    if taken_back == "delete":
        response = director_post(client, f"{club.url}/results/1/1/1", action="delete")
    else:
        (undo,) = [form for form in forms_of(text(client.get(club.url))) if "undo" in form.action]
        response = client.post(undo.action, data={k: v[0] for k, v in undo.fields.items()})
    assert response.status_code == 302
    assert club.session(app).results == []
    response = client.post(entry.group(1), data=data)  # the phone sends its old form again
    assert response.status_code == 409
    page = html.unescape(text(response))
    assert "Board 1: the game changed since this page was drawn" in page
    assert "Enter mine all the same" in page
    assert "taken away by the director" in page and "3NT S +1" in page
    assert club.session(app).results == []
    put_mine = forms_of(page)[0]  # the conflict's "Put mine instead"
    hidden = {name: values[0] for name, values in put_mine.fields.items()}
    assert client.post(put_mine.action, data=hidden).status_code == 302
    assert [result.tricks for result in club.session(app).results] == [10]


@pytest.mark.parametrize(
    "movement,tables,sitting,phantom",
    [("mitchell", "3", "NS 3", "EW 3"), ("howell", "4", "Pair 1", "Pair 8")],
)
def test_the_pair_sitting_out_is_named_and_the_phantom_never(
    client: FlaskClient, movement: str, tables: str, sitting: str, phantom: str
) -> None:
    club = Club(client)
    club.start(
        movement=movement, tables=tables, boards_per_round="2", pairs="odd", scoring="matchpoints"
    )
    cards = text(client.get(f"{club.url}/movement"))
    assert f"{sitting} sits out" in cards
    assert phantom not in cards and "(sits out)" not in cards
    for link in club.tables.values():
        page = text(client.get(link))
        if "sits out this round" in page:
            assert f"{sitting} sits out this round: no board to play at this table." in page
            assert phantom not in page
            break
    else:
        raise AssertionError("no table sits out in round 1")


def test_the_table_rounds_still_missing_are_those_of_rounds_under_way(
    client: FlaskClient,
) -> None:
    club = Club(client)
    club.start(**SMALL)
    for _board in range(2):
        club.enter(1, {"result": "passed"})
    page = text(client.get(club.url))
    assert "2 table-rounds still missing" in page  # tables 2 and 3 in round 1; not round 2 or 3
    assert "Round 2, table" not in page


def test_a_form_drawn_before_east_west_confirmed_another_board_is_simply_entered(
    client: FlaskClient, app: Flask
) -> None:
    """A change of the table's version that takes nothing away asks nothing."""
    club = Club(client)
    club.start(**SMALL)
    club.enter(1, {"result": "passed"})
    page = text(client.get(club.tables[1]))
    entry, token, version = ENTRY.search(page), TOKEN.search(page), VERSION.search(page)
    assert entry and token and version
    (confirm,) = [form for form in forms_of(page) if form.action.endswith("/confirm")]
    data = {name: values[0] for name, values in confirm.fields.items()}
    assert client.post(confirm.action, data=data).status_code == 302  # on East-West's phone
    board_two = {"csrf_token": token.group(1), "drawn_from": version.group(1), "result": "passed"}
    assert client.post(entry.group(1), data=board_two).status_code == 302
    assert len(club.session(app).results) == 2


def test_the_phone_and_the_table_cards_say_where_the_boards_go(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**SMALL)
    page = text(client.get(club.tables[1]))
    assert "Boards 1–2 then go to table 3." in page  # a Mitchell's boards go one table down
    page = text(client.get(club.tables[3]))
    assert "Boards 5–6 then go to table 2." in page
    last = text(client.get(club.tables[1] + "?round=3"))
    assert "then go to table" not in last
    cards = text(client.get(f"{url}/movement"))
    # Table 1's card: round 1's and round 2's boards go on to table 3; round 3's nowhere.
    start = cards.index('table-card"')
    card = cards[start : cards.index('table-card"', start + 1)]
    assert card.count("→ table 3") == 2


@pytest.mark.parametrize("shown", ["played", "end"])
def test_a_table_s_phone_shows_its_pairs_results_so_far_where_the_ranking_is_shown(
    client: FlaskClient, app: Flask, shown: str
) -> None:
    club = Club(client)
    club.start(**{**SMALL, "shown": shown})
    club.enter(1, {"level": "4", "strain": "S", "declarer": "N", "doubled": "0", "result": "0"})
    club.enter(2, {"level": "4", "strain": "S", "declarer": "N", "doubled": "0", "result": "1"})
    page = text(client.get(club.tables[1]))
    if shown == "end":
        assert "Your results so far" not in page
        return
    cards = page[page.index("Your results so far") :]
    # Each pair has played one board, which no other table has yet: every pair level.
    assert "North-South · NS 1 · place 1=" in cards
    assert "East-West · EW 1 · place 1=" in cards
    assert cards.count("+420") == 1 and cards.count("−420") == 1
    assert "+450" not in cards  # another pair's board: on its own card only


def test_pair_numbers_only_keeps_the_names_for_the_director(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(
        movement="howell", tables="3", boards_per_round="2", pairs="even", scoring="matchpoints"
    )
    names = {f"names-{index}": f"Joueur {index} – Partenaire" for index in range(6)}
    assert director_post(client, f"{club.url}/pairs", **names).status_code == 302
    club.enter(1, {"result": "passed"})
    (form,) = [f for f in forms_of(text(client.get(club.url))) if f.action.endswith("/shown")]
    response = client.post(form.action, data={**as_drawn(form), "names": "hidden"})
    assert response.status_code == 302
    looking_on = app.test_client()
    assert "Joueur" in text(client.get(club.url))  # the director's page
    for path in ("", "/ranking"):
        page = text(looking_on.get(club.url + path))
        assert "Ranking" in page and "Joueur" not in page, path
    assert "Joueur" not in text(looking_on.get(club.tables[1]))
    (close,) = [f for f in forms_of(text(client.get(club.url))) if f.action.endswith("/close")]
    client.post(close.action, data=as_drawn(close))
    for path in ("/travellers", "/cards", "/session.pbn", "/session.xml"):
        assert "Joueur" not in looking_on.get(club.url + path).get_data(as_text=True), path
    assert "Joueur 0" in client.get(club.url + "/session.pbn").get_data(as_text=True)
    assert "Joueur 0" in text(client.get(club.url + "/cards"))


def move_form_of(
    client: FlaskClient, url: str, round_: int, table: int, board: int
) -> tuple[str, dict[str, str]]:
    page = text(client.get(f"{url}/results/{round_}/{table}/{board}"))
    (form,) = [f for f in forms_of(page) if f.action.endswith("/move")]
    return form.action, as_drawn(form)


FOUR_TABLES = {**SMALL, "tables": "4"}
"""A 4-table Mitchell, 2 boards a round: East-West skip a table, each pair misses a set."""


def test_a_result_entered_for_the_wrong_board_is_moved_to_the_board_played(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**FOUR_TABLES)
    four_spades = {"level": "4", "strain": "S", "declarer": "N", "doubled": "0", "result": "0"}
    assert club.enter(1, four_spades)[:2] == (1, 1)  # table 1 enters board 1...
    club.enter(2, {**four_spades, "result": "1"})  # ...table 2 plays board 3
    # ...but table 1 had picked up board 7, a board neither of its pairs is to play: the
    # director moves the result there.
    action, fields = move_form_of(client, url, 1, 1, 1)
    response = client.post(action, data={**fields, "board": "7"})
    assert response.status_code == 302
    page = text(client.get(url))
    assert "now board 7&#39;s" in page or "now board 7's" in page
    game = club.session(app)
    assert {(r.round, r.table, r.board) for r in game.results} == {(1, 1, 7), (1, 2, 3)}
    logged = re.search(
        r"Board 1, table 1, at \S+(?:\s[AP]M)?: ([^<]*) moved to board 7, where it was played",
        page,
    )
    assert logged is not None and logged.group(1) == "4♠ N made"
    # Board 1 is still to play at table 1, and the board played instead is on its page.
    table_page = text(client.get(club.tables[1]))
    assert ENTRY.search(table_page).group(3) == "1"  # type: ignore[union-attr]
    assert "Board 7" in table_page
    assert client.get(f"{url}/results/1/1/7").status_code == 200  # corrected where it is
    assert client.get(f"{url}/results/1/1/8").status_code == 404  # nothing moved there
    # A form drawn before the move, sent again, moves nothing more.
    again = client.post(action, data={**fields, "board": "8"})
    assert again.status_code == 302
    moved = {(r.round, r.table, r.board) for r in club.session(app).results}
    assert moved == {(1, 1, 7), (1, 2, 3)}
    # Only the director moves results.
    action, fields = move_form_of(client, url, 1, 1, 7)
    other = app.test_client()
    token = TOKEN.search(text(other.get("/club/new")))
    assert token is not None
    refused = other.post(action, data={**fields, "csrf_token": token.group(1), "board": "8"})
    assert refused.status_code == 403


def test_a_result_is_not_moved_onto_a_board_its_pairs_have_played_or_are_to_play(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**FOUR_TABLES)
    passed = {"result": "passed"}
    club.enter(1, passed)  # board 1, NS 1 and EW 1
    club.enter(1, passed)  # board 2
    # Board 2 has a result at this table already: not offered, and refused when sent.
    action, fields = move_form_of(client, url, 1, 1, 1)
    assert 'value="2"' not in text(client.get(f"{url}/results/1/1/1")).split("/move")[1]
    response = client.post(action, data={**fields, "board": "2"})
    assert "Choose a board with no result" in text(client.get(response.headers["Location"]))
    # EW 1 plays board 5 in round 2 (and NS 1 in round 3): the result cannot take its place.
    response = client.post(action, data={**fields, "board": "5"})
    page = text(client.get(response.headers["Location"]))
    assert "These pairs still have board 5 to play, in round 2 at table 2" in page
    # Round 2: NS 1 meets EW 4 on boards 3-4; board 1 is NS 1's already.
    club.enter(1, passed)
    action, fields = move_form_of(client, url, 2, 1, 3)
    response = client.post(action, data={**fields, "board": "1"})
    page = text(client.get(response.headers["Location"]))
    assert "These pairs have a result on board 1 already, at table 1" in page
    assert {(r.round, r.table, r.board) for r in club.session(app).results} == {
        (1, 1, 1),
        (1, 1, 2),
        (2, 1, 3),
    }


def neuberg_ranking(
    entered: list[tuple[int, object, object, int]], expected: int
) -> dict[object, Fraction]:
    """Percentages by hand, each board scaled to ``expected`` results with Neuberg's formula."""
    by_board: dict[int, list[tuple[object, object, int]]] = defaultdict(list)
    for board, ns, ew, score in entered:
        by_board[board].append((ns, ew, score))
    totals: dict[object, Fraction] = defaultdict(Fraction)
    tops: dict[object, int] = defaultdict(int)
    top = 2 * (expected - 1)
    for results in by_board.values():
        n = len(results)
        for ns, ew, score in results:
            mp = sum(2 if o < score else 1 if o == score else 0 for _, _, o in results) - 1
            scaled = Fraction(mp + 1) * expected / n - 1
            totals[ns] += scaled
            totals[ew] += top - scaled
            tops[ns] += top
            tops[ew] += top
    return {pair: totals[pair] * 100 / tops[pair] for pair in totals}


def test_a_late_pair_takes_the_sit_out_and_the_session_ranks_with_neuberg(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**{**SMALL, "pairs": "odd"})  # 5 pairs: EW 3 is the sit-out
    movement = mitchell(3, 2, pairs=5)
    rng = random.Random(36)
    entered: list[tuple[int, object, object, int]] = []

    def play_round(round_: int) -> None:
        for table in sorted(club.tables):
            while True:
                page = text(client.get(club.tables[table]))
                match = ENTRY.search(page)
                if match is None or int(match.group(2)) != round_:
                    break
                fields = random_result(rng)
                _r, board, status = club.enter(table, fields)
                assert status == 302
                seating = next(s for s in movement.round_seatings(round_) if s.table == table)
                entered.append(
                    (board, ("NS", seating.ns), ("EW", seating.ew), ns_score(board, fields))
                )

    play_round(1)
    # The sit-out's table in round 2 has no board before the late pair comes.
    sit_out_2 = next(s for s in movement.round_seatings(2) if movement.sits_out(s))
    assert "sits out this round" in text(client.get(club.tables[sit_out_2.table] + "?round=2"))
    (form,) = [f for f in forms_of(text(client.get(url))) if f.action.endswith("/late-pair")]
    assert form.fields["from_round"] == ["1", "2", "3"]  # from the round played on
    response = client.post(
        form.action, data={**as_drawn(form), "from_round": "2", "names": "Zoé – Yann"}
    )
    assert response.status_code == 302
    page = text(client.get(url))
    assert "The late pair plays from round 2" in page
    assert "a late pair, EW 3, takes the sit-out&#39;s place from round 2" in page
    assert "A late pair arrives" not in page  # once only
    table_page = text(client.get(club.tables[sit_out_2.table] + "?round=2"))
    assert "sits out" not in table_page and "EW 3" in table_page
    play_round(2)
    play_round(3)
    assert len(entered) == 2 * 2 + 3 * 2 * 2  # round 1 with a sit-out, then every table
    expected = neuberg_ranking(entered, expected=3)
    shown = ranking_rows(text(client.get(url)))
    assert len(shown) == 6
    for _place, pair, pct in shown:
        direction, number = pair.split(" ")
        assert pct == f"{float(expected[direction, int(number)]):.2f}", pair
    assert "Zoé – Yann" in text(client.get(url))
    # The session's file takes it back as it is.
    exported = client.get(f"{url}/game.json").get_data()
    response = upload(client, "/import", exported, "session.json")
    assert response.status_code == 302, text(response)


def test_a_table_s_phone_shows_no_figure_of_a_board_one_of_its_pairs_has_still_to_play(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(movement="mitchell", tables="5", boards_per_round="1", pairs="even", shown="played")
    rng = random.Random(5)
    for _round in range(2):
        for table in sorted(club.tables):
            assert club.enter(table, random_result(rng))[2] == 302
    game = club.session(app)
    movement = game.movement
    assert movement is not None
    seen_any = False
    for table in sorted(club.tables):
        page = text(client.get(club.tables[table]))
        seating = next(s for s in movement.round_seatings(3) if s.table == table)
        both = game.boards_played_at(seating)
        cards = page[page.index("Your results so far") : page.index("The ranking</a>")]
        shown = {
            int(board)
            for board in re.findall(r'<td class="card-round">\d+</td><td>(\d+)</td>', cards)
        }
        assert shown == both, (table, shown, both)
        seen_any = seen_any or bool(shown)
        # An earlier round's page shows that round's pairs no figures.
        earlier = text(client.get(club.tables[table] + "?round=1"))
        assert "Your results so far" not in earlier
    assert seen_any  # some pairs seated together now have boards in common


def test_a_ranking_shown_round_by_round_moves_when_every_table_has_finished_a_round(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**{**SMALL, "shown": "rounds"})
    looking_on = app.test_client()
    rng = random.Random(12)
    for _board in range(2):
        assert club.enter(1, random_result(rng))[2] == 302
    page = text(looking_on.get(url))
    assert "The ranking shows once every table has finished round 1." in page
    assert not ranking_rows(page)
    for table in (2, 3):
        for _board in range(2):
            assert club.enter(table, random_result(rng))[2] == 302
    after_one = ranking_rows(text(looking_on.get(url)))
    assert len(after_one) == 6
    assert "As it stood at the end of round 1" in text(looking_on.get(url + "/ranking"))
    assert (
        club.enter(
            1, {"level": "7", "strain": "NT", "declarer": "N", "doubled": "1", "result": "0"}
        )[2]
        == 302
    )
    # Round 2 is under way: those looking on still see round 1's ranking; the director, now.
    assert ranking_rows(text(looking_on.get(url))) == after_one
    assert ranking_rows(text(looking_on.get(url + "/ranking"))) == after_one
    assert ranking_rows(text(client.get(url))) != after_one
    # Once closed, everyone sees every result.
    (close,) = [f for f in forms_of(text(client.get(url))) if f.action.endswith("/close")]
    client.post(close.action, data=as_drawn(close))
    assert ranking_rows(text(looking_on.get(url))) == ranking_rows(text(client.get(url)))


def test_a_result_entered_for_the_other_board_of_the_round_is_moved_to_it(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**SMALL)
    club.enter(1, {"level": "3", "strain": "NT", "declarer": "S", "doubled": "0", "result": "0"})
    # The table played board 2 first and entered it as board 1.
    action, fields = move_form_of(client, url, 1, 1, 1)
    assert client.post(action, data={**fields, "board": "2"}).status_code == 302
    assert {(r.round, r.table, r.board) for r in club.session(app).results} == {(1, 1, 2)}
    page = text(client.get(club.tables[1]))
    assert ENTRY.search(page).group(3) == "1"  # type: ignore[union-attr]  # board 1 to play


def test_a_result_the_director_enters_ahead_leaves_the_table_s_phone_where_it_is(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**{**SMALL, "tables": "5"})
    rng = random.Random(3)
    for table in sorted(club.tables):
        for _board in range(2):
            club.enter(table, random_result(rng))
    assert "Round 2 of 5" in text(client.get(club.tables[2]))
    movement = mitchell(5, 2)
    ahead = next(s for s in movement.round_seatings(4) if s.table == 2)
    response = director_post(
        client,
        f"{url}/results/4/2/{ahead.boards[0]}",
        action="artificial",
        scores="A=/A=",
    )
    assert response.status_code == 302
    assert "Round 2 of 5" in text(client.get(club.tables[2]))


def test_round_by_round_the_phone_s_travellers_are_those_of_the_boards_played(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(**{**SMALL, "shown": "rounds"})
    club.enter(1, {"level": "3", "strain": "NT", "declarer": "S", "doubled": "0", "result": "0"})
    travellers = text(client.get(club.tables[1] + "/travellers"))
    assert "3NT S made" in travellers  # this table's own result, before round 1 is over
    # The round's last board: the phone is sent to the round's page, where its pairs see its
    # travellers until the next round begins here; the next round's page shows its own pairs'.
    page = text(client.get(club.tables[1]))
    entry, token, version = ENTRY.search(page), TOKEN.search(page), VERSION.search(page)
    assert entry and token and version
    fields = {"level": "4", "strain": "H", "declarer": "N", "doubled": "1", "result": "-2"}
    sent = {"csrf_token": token.group(1), "drawn_from": version.group(1), **fields}
    finished = client.post(entry.group(1), data=sent).headers["Location"]
    assert finished.endswith("?round=1")
    page = html.unescape(text(client.get(finished)))
    assert "Round 1 is over at this table" in page and "Travellers of round 1, just played" in page
    travellers = text(client.get(club.tables[1] + "/travellers?round=1"))
    assert "3NT S made" in travellers and "4♥X N −2" in travellers
    assert "Round 1, just finished at this table" in travellers
    assert "Round 2 of 3" in text(client.get(club.tables[1]))  # a phone opened anew: round 2
    for round_ in ("", "?round=2"):  # round 2's pairs: they may still have those to play
        travellers = text(client.get(club.tables[1] + "/travellers" + round_))
        assert "3NT S made" not in travellers and "4♥X N −2" not in travellers
    club.enter(1, {"result": "passed"})  # round 2 begins: round 1's travellers are over
    travellers = text(client.get(club.tables[1] + "/travellers?round=1"))
    assert "3NT S made" not in travellers and "4♥X N −2" not in travellers


def test_an_arrow_switched_mitchell_seats_the_phones_and_ranks_as_one_field(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(movement="mitchell", tables="5", boards_per_round="1", pairs="even")
    rng = random.Random(38)
    played = []
    for table in sorted(club.tables):  # round 1 as it was
        assert club.enter(table, random_result(rng))[2] == 302
    (form,) = [f for f in forms_of(text(client.get(url))) if f.action.endswith("/arrow-switch")]
    assert form.fields["rounds"] == ["2", "3", "4", "5"]  # round 1 has begun
    # A round begun meanwhile is refused, and nothing changes.
    response = client.post(form.action, data={**as_drawn(form), "rounds": ["1", "5"]})
    page = text(client.get(url))
    assert "A round chosen has begun meanwhile" in page
    assert "Arrow switch: rounds" not in page
    response = client.post(form.action, data={**as_drawn(form), "rounds": ["4", "5"]})
    assert response.status_code == 302
    page = text(client.get(url))
    assert "Arrow switch in rounds 4, 5: East-West sit North-South there." in page
    assert "the arrow switch rounds are now: 4, 5" in page  # the log
    game = club.session(app)
    movement = game.movement
    assert movement is not None and movement.switched_rounds == {4, 5}
    # Round 3's phones say where the pairs sit next: East-West pairs at North-South seats.
    page = text(client.get(club.tables[1] + "?round=3"))
    assert "Next round East-West go to table 2 (North-South)." in page
    for round_ in range(2, 6):
        for table in sorted(club.tables):
            page = text(client.get(club.tables[table]))
            seating = movement.round_seatings(round_)[table - 1]
            if round_ >= 4:
                assert "Arrow switch this round" in page
                assert f"North-South <strong>EW {seating.ew}</strong>" in page
            else:
                assert "Arrow switch this round" not in page
                assert f"North-South <strong>NS {seating.ns}</strong>" in page
            fields = random_result(rng)
            _round, board, status = club.enter(table, fields)
            assert (status, _round) == (302, round_)
            played.append((board, seating.at(Side.NS), seating.at(Side.EW), fields))
    # Each pair earns the score of the seats it held: counted here from the seats alone.
    entered = [
        (board, (north[1].value, north[0]), (east[1].value, east[0]), ns_score(board, fields))
        for board, north, east, fields in played
    ]
    for result in club.session(app).results:
        assert result.switched == (result.round >= 4)
        if result.round == 1:
            score = result.table_result().score_ns
            assert score is not None
            entered.append((result.board, ("NS", result.ns), ("EW", result.ew), score))
    expected = independent_ranking(entered)
    page = text(client.get(url))
    shown = ranking_rows(page)
    assert len(shown) == 10
    percents = [float(pct) for _place, _pair, pct in shown]
    assert percents == sorted(percents, reverse=True)  # one list for the whole room
    for place, pair, pct in shown:
        direction, number = pair.split(" ")
        _total, percent = expected[direction, int(number)]
        assert pct == f"{float(percent):.2f}", pair
        assert int(place.rstrip("=")) == 1 + sum(1 for other in percents if other > float(pct))
    # Its files number the room across: East-West pair 2 is pair 7; the game file keeps it.
    pbn = client.get(f"{url}/session.pbn").get_data(as_text=True)
    assert "[TotalScoreTable" in pbn and "Direction" not in pbn.split("[TotalScoreTable")[1][:80]
    exported = client.get(f"{url}/game.json").get_data()
    response = upload(client, "/import", exported, "session.json")
    assert response.status_code == 302, text(response)
    assert ranking_rows(text(client.get(response.headers["Location"]))) == shown


@pytest.mark.parametrize("late", [1, 2])
def test_late_pairs_get_one_more_table_and_the_session_ranks_as_counted(
    client: FlaskClient, app: Flask, late: int
) -> None:
    club = Club(client)
    url = club.start(movement="mitchell", tables="7", boards_per_round="1", pairs="even")
    rng = random.Random(late)
    for table in sorted(club.tables):  # round 1 as it was
        assert club.enter(table, random_result(rng))[2] == 302
    assert "Late pairs: one more table" in text(client.get(url))
    (form,) = [f for f in forms_of(text(client.get(url))) if f.action.endswith("/added-table")]
    assert form.fields["from_round"] == ["2", "3", "4", "5", "6", "7"]  # round 1 has begun
    response = client.post(form.action, data={**as_drawn(form), "from_round": "1"})
    assert "Choose the round the new table plays from." in text(client.get(url))
    data = {**as_drawn(form), "from_round": "2", "pairs": str(late), "names": "Zoé – Yann"}
    response = client.post(form.action, data=data)
    assert response.status_code == 302
    page = text(client.get(url))
    assert "Table 8 plays from round 2" in page
    assert "table 8 added from round 2 for NS 8" in page  # the log
    assert "Late pairs: one more table" not in page  # once only
    # The new table has its link, like the others.
    club.tables = {int(number): link for link, number in TABLE_LINK.findall(page)}
    assert sorted(club.tables) == list(range(1, 9))
    movement = mitchell(7, 1).with_added_table(2, pairs=late)
    assert club.session(app).movement == movement
    assert "This table plays from round 2." in text(client.get(club.tables[8] + "?round=1"))
    entered = []
    for result in club.session(app).results:
        score = result.table_result().score_ns
        assert score is not None
        entered.append((result.board, ("NS", result.ns), ("EW", result.ew), score))
    for round_ in range(2, 8):
        for seating in movement.round_seatings(round_):
            page = text(client.get(club.tables[seating.table]))
            if movement.sits_out(seating):
                assert "sits out this round" in page
                continue
            assert f"North-South <strong>NS {seating.ns}</strong>" in page
            assert f"East-West <strong>EW {seating.ew}</strong>" in page
            if movement.shared_with(seating):
                assert "the boards are shared with table" in page
            fields = random_result(rng)
            played_round, board, status = club.enter(seating.table, fields)
            assert (status, played_round, board) == (302, round_, seating.boards[0])
            entered.append((board, ("NS", seating.ns), ("EW", seating.ew), ns_score(board, fields)))
    expected = independent_ranking(entered)
    page = text(client.get(url))
    shown = ranking_rows(page)
    assert len(shown) == 14 + late == len(expected)
    for _place, pair, pct in shown:
        direction, number = pair.split(" ")
        assert pct == f"{float(expected[direction, int(number)][1]):.2f}", pair
    assert "Zoé – Yann" in page
    exported = client.get(f"{url}/game.json").get_data()
    response = upload(client, "/import", exported, "session.json")
    assert response.status_code == 302, text(response)
    assert ranking_rows(text(client.get(response.headers["Location"]))) == shown


def test_tables_sharing_boards_start_on_different_ones_and_either_may_be_entered_first(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(movement="mitchell", tables="7", boards_per_round="3", pairs="even")
    rng = random.Random(4)
    for table in sorted(club.tables):
        for _board in range(3):
            assert club.enter(table, random_result(rng))[2] == 302
    (form,) = [f for f in forms_of(text(client.get(url))) if f.action.endswith("/added-table")]
    response = client.post(form.action, data={**as_drawn(form), "from_round": "2", "pairs": "2"})
    assert response.status_code == 302
    page = text(client.get(url))
    club.tables = {int(number): link for link, number in TABLE_LINK.findall(page)}
    movement = club.session(app).movement
    assert movement is not None
    cards = text(client.get(f"{url}/movement"))
    for round_ in range(2, movement.rounds + 1):
        sharing = [s for s in movement.round_seatings(round_) if movement.shared_with(s)]
        assert len(sharing) == 2
        first, second = sharing
        asked = {}
        for seating in sharing:
            other = next(s.table for s in sharing if s is not seating)
            page = text(client.get(club.tables[seating.table]))
            asked[seating.table] = int(ENTRY.search(page).group(3))  # type: ignore[union-attr]
            assert (
                f"shared with table {other}: start with board {asked[seating.table]} and pass"
            ) in page
            assert f"(shared with table {other}: start with board {asked[seating.table]})" in cards
        assert asked[first.table] != asked[second.table]
        # The second table finds its first board still with the first: it plays another.
        page = text(client.get(club.tables[second.table]))
        (other_board,) = {*second.boards} - {asked[first.table], asked[second.table]}
        choice = f"{club.tables[second.table]}?round={round_}&amp;board={other_board}"
        assert choice in page
        page = text(client.get(choice.replace("&amp;", "&")))
        assert ENTRY.search(page).group(3) == str(other_board)  # type: ignore[union-attr]
        for table in (first.table, second.table):
            while True:
                found = ENTRY.search(text(client.get(club.tables[table])))
                if found is None or int(found.group(2)) != round_:
                    break
                assert club.enter(table, random_result(rng))[2] == 302
        for seating in movement.round_seatings(round_):
            if seating not in sharing and not movement.sits_out(seating):
                for _board in seating.boards:
                    assert club.enter(seating.table, random_result(rng))[2] == 302
    session = club.session(app)
    assert len(session.results) == 3 * (7 * 7 + 6)
    assert "Enter this board now" not in text(client.get(club.tables[1]))


def test_a_pair_leaving_leaves_its_opponents_sitting_out_and_ranks_with_neuberg(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**SMALL)
    rng = random.Random(9)
    for table in (1, 1, 2, 2, 3, 3):
        assert club.enter(table, random_result(rng))[2] == 302
    (form,) = [f for f in forms_of(text(client.get(url))) if f.action.endswith("/pair-leaves")]
    assert form.fields["from_round"] == ["2", "3"]
    assert "EW2" in form.fields["pair"]
    response = client.post(form.action, data={**as_drawn(form), "pair": "EW9"})
    assert "Choose the pair leaving" in text(client.get(url))
    response = client.post(form.action, data={**as_drawn(form), "pair": "EW2", "from_round": "2"})
    assert response.status_code == 302
    page = text(client.get(url))
    assert "From round 2 the pairs it would have met sit out" in page
    assert "EW 2 leaves; from round 2 the pairs it would have met sit out" in page
    assert "A pair leaves" not in page  # once
    movement = mitchell(3, 2).with_pair_leaving(2, Side.EW, 2)
    entered = []
    for result in club.session(app).results:
        score = result.table_result().score_ns
        assert score is not None
        entered.append((result.board, ("NS", result.ns), ("EW", result.ew), score))
    for round_ in (2, 3):
        for seating in movement.round_seatings(round_):
            if movement.sits_out(seating):
                page = text(client.get(f"{club.tables[seating.table]}?round={round_}"))
                assert f"NS {seating.ns} sits out this round" in page
                continue
            for _board in seating.boards:
                fields = random_result(rng)
                played, board, status = club.enter(seating.table, fields)
                assert (status, played) == (302, round_)
                entered.append(
                    (board, ("NS", seating.ns), ("EW", seating.ew), ns_score(board, fields))
                )
    assert len(entered) == 6 + 2 * 2 * 2
    expected = neuberg_ranking(entered, expected=3)
    page = text(client.get(url))
    assert "Results in: 14 of 14" in page
    shown = ranking_rows(page)
    assert len(shown) == 6  # the pair that left is ranked on what it played
    for _place, pair, pct in shown:
        direction, number = pair.split(" ")
        assert pct == f"{float(expected[direction, int(number)]):.2f}", pair
    exported = client.get(f"{url}/game.json").get_data()
    response = upload(client, "/import", exported, "session.json")
    assert response.status_code == 302, text(response)
    assert ranking_rows(text(client.get(response.headers["Location"]))) == shown


def test_pairs_that_sat_the_other_way_round_earn_the_seats_they_held(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**SMALL)
    three_notrump = {"level": "3", "strain": "NT", "declarer": "N", "doubled": "0", "result": "0"}
    assert club.enter(1, three_notrump)[2] == 302  # board 1: NS 1 v EW 1, 3NT made
    assert club.enter(3, {**three_notrump, "result": "-1"})[2] == 302  # board 5
    assert club.enter(2, {**three_notrump, "result": "-1"})[2] == 302  # board 3
    assert club.enter(3, three_notrump)[:2] == (1, 6)
    assert club.enter(3, {**three_notrump, "result": "-2"})[:2] == (2, 1)  # NS 3 v EW 2
    club.client.get(url)
    session = club.session(app)
    movement = session.movement
    assert movement is not None
    # Board 1 is played at table 3 in round 3; until then, NS 1 has its top there.
    page = text(client.get(f"{url}/results/1/1/1"))
    (form,) = [f for f in forms_of(page) if f.action.endswith("/seats")]
    response = client.post(form.action, data=as_drawn(form))
    assert response.status_code == 302
    page = text(client.get(url))
    assert "Board 1 at table 1: EW 1 sat North-South" in page
    assert "3NT N made, EW 1 sat North-South" in page  # the log
    result = club.session(app).result_at(1, 1, 1)
    assert result is not None and result.switched and (result.ns, result.ew) == (1, 1)
    # EW 1 held North-South's cards: it earns North-South's figure on board 1, NS 1 East-West's.
    score = club.session(app).score()
    item = next(item for item in score.board(1) if item.result.table == 1)
    assert item.ns > item.ew  # 3NT made beats 3NT two down
    east_west, north_south = (
        score.standing_of(Pair(1, Side.EW)),
        score.standing_of(Pair(1, Side.NS)),
    )
    assert east_west is not None and east_west.total == item.ns
    assert north_south is not None and north_south.total == item.ew
    travellers = text(client.get(f"{url}/travellers"))
    assert "<td>EW 1</td><td>NS 1</td>" in travellers
    # Sent again as drawn before, it changes nothing; drawn anew, it puts them back.
    client.post(form.action, data=as_drawn(form))
    assert "This result changed since the page was drawn" in text(
        client.get(f"{url}/results/1/1/1")
    )
    assert club.session(app).result_at(1, 1, 1).switched  # type: ignore[union-attr]
    exported = client.get(f"{url}/game.json").get_data()
    response = upload(client, "/import", exported, "session.json")
    assert response.status_code == 302, text(response)
    imported = text(client.get(response.headers["Location"]))
    assert ranking_rows(imported) == ranking_rows(text(client.get(url)))
    (again,) = [
        f for f in forms_of(text(client.get(f"{url}/results/1/1/1"))) if f.action.endswith("/seats")
    ]
    assert client.post(again.action, data=as_drawn(again)).status_code == 302
    result = club.session(app).result_at(1, 1, 1)
    assert result is not None and not result.switched


@pytest.mark.parametrize("change", ["arrow-switch", "added-table", "pair-leaves"])
def test_a_phone_s_form_drawn_before_the_director_reseats_the_pairs_is_asked_again(
    client: FlaskClient, app: Flask, change: str
) -> None:
    club = Club(client)
    url = club.start(movement="mitchell", tables="5", boards_per_round="1", pairs="even")
    rng = random.Random(4)
    for table in sorted(club.tables):
        assert club.enter(table, random_result(rng))[2] == 302
    action, drawn = club.drawn(4)  # table 4's phone shows round 2
    (form,) = [f for f in forms_of(text(client.get(url))) if f.action.endswith(f"/{change}")]
    chosen = {"rounds": ["2"], "from_round": "2", "pairs": "2", "pair": "EW3"}
    assert client.post(form.action, data={**as_drawn(form), **chosen}).status_code == 302
    response = client.post(action, data={**drawn, **random_result(rng)})
    if change == "pair-leaves":  # EW 3 was to play at table 4: it sits out now
        assert response.status_code == 302
        page = text(client.get(response.headers["Location"]))
        assert "this table sits out round 2. Nothing was entered." in page
    else:
        assert response.status_code == 409
        assert "the director has seated the pairs otherwise since" in text(response)
        # Drawn again, as the pairs now sit, it is entered.
        assert club.enter(4, random_result(rng))[2] == 302
    assert {r.round for r in club.session(app).results} == {1} | (
        {2} if change != "pair-leaves" else set()
    )


def test_an_arrow_switch_taken_off_and_a_table_added_keep_the_session_s_file_whole(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(movement="mitchell", tables="5", boards_per_round="1", pairs="even")
    for rounds in (["4"], []):
        (form,) = [f for f in forms_of(text(client.get(url))) if f.action.endswith("/arrow-switch")]
        response = client.post(form.action, data={**as_drawn(form), "rounds": rounds})
        assert response.status_code == 302
    assert "No arrow switch: each direction is ranked apart." in text(client.get(url))
    (form,) = [f for f in forms_of(text(client.get(url))) if f.action.endswith("/added-table")]
    assert client.post(form.action, data={**as_drawn(form), "from_round": "3"}).status_code == 302
    exported = client.get(f"{url}/game.json").get_data()
    response = upload(client, "/import", exported, "session.json")
    assert response.status_code == 302, text(response)
    page = text(client.get(response.headers["Location"]))
    assert "table 6 added from round 3 for NS 6, EW 6" in page  # its table kept in the log


def test_the_table_cards_of_an_arrow_switched_round_say_where_east_west_go(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(movement="mitchell", tables="5", boards_per_round="1", pairs="even")
    (form,) = [f for f in forms_of(text(client.get(url))) if f.action.endswith("/arrow-switch")]
    client.post(form.action, data={**as_drawn(form), "rounds": ["3"]})
    movement = mitchell(5, 1).with_arrow_switch({3})
    cards = html.unescape(text(client.get(f"{url}/movement")))
    card = cards[cards.index("Table 1") :]
    row = re.search(r'<th scope="row">3 <abbr[^>]*>⇅</abbr></th>(.*?)</tr>', card, re.S)
    assert row is not None
    table, side = movement.next_move(movement.round_seatings(3)[0].ew, 3, Side.EW)  # type: ignore[misc]
    assert f"table {table}, {side_name(side)}" in row.group(1)


def side_name(side: Side) -> str:
    return "North-South" if side is Side.NS else "East-West"
