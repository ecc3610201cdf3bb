"""A session imported from another club program's results file shows what its club published
(ranking, travellers, score cards, printouts), with Scorekeeper's check beside each figure it
counts otherwise and the reason said; the files and the session's own file keep the published
figures; cross-IMPs, played here, from setup to the ranking and the files; hostile results
files get a message, never a server error."""

from __future__ import annotations

import html
import json
import random
import re
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.club.models import ClubSession
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.rules.duplicate import Pair
from tests.rules.club_programs import imp
from tests.rules.test_usebio import NOT_PLAYED, club_program_file, count
from tests.web.table import TOKEN, text
from tests.web.test_club import (
    Club,
    import_results,
    ns_score,
    play_whole_session,
    ranking_rows,
    upload,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "bridge"
HOWELL = (DATA / "compscore_howell_12_pairs.xml").read_bytes()
MITCHELL = (DATA / "compscore_mitchell_19_tables.xml").read_bytes()
BUTLER = (DATA / "ebuscore_butler_howell.xml").read_bytes()
CROSS = (DATA / "compscore_cross_imps_howell.xml").read_bytes()
MARK = re.compile(r'<a class="check (explained|unexplained)"')


def page_of(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return html.unescape(text(response))


def published_ranking(data: bytes) -> list[tuple[str, str, str]]:
    """(place, pair, percentage) as the file writes its ranking."""
    pairs = re.findall(
        rb"<PAIR_NUMBER>(\d+)</PAIR_NUMBER>.*?<PLACE>([^<]+)</PLACE>.*?"
        rb"<PERCENTAGE>([^<]+)</PERCENTAGE>",
        data,
        re.S,
    )
    return [(place.decode(), f"Pair {n.decode()}", pct.decode()) for n, place, pct in pairs]


def stored(app: Flask, url: str) -> ClubSession:
    with app.app_context():
        game = db.session.get(Game, url.rsplit("/", 1)[1])
        assert isinstance(game, ClubSession)
        for rows in (game.results, game.pairs):
            list(rows)
        return game


def test_compscores_howell_shows_its_published_ranking_and_says_where_scorekeeper_differs(
    client: FlaskClient, app: Flask
) -> None:
    url = import_results(client, HOWELL, "tuesday.xml")
    page = page_of(client, url)
    assert "Every score, matchpoint, total and place the file publishes is confirmed" in page
    assert "12 of them are the file's own way of scoring, not Scorekeeper's" in page
    assert "The file's ranking is that of the whole event" not in page
    # The ranking is the file's, place for place, as it wrote it.
    assert ranking_rows(page) == published_ranking(HOWELL)
    assert ranking_rows(page_of(client, f"{url}/ranking")) == published_ranking(HOWELL)
    # Pairs 1 and 3 played 26 of 27 boards: their totals are marked and said.
    assert len(MARK.findall(page)) == 2
    assert "The file factored the total of pair 1, which played 26 of 27 boards, by 27/26." in page
    assert "The file factored the total of pair 3, which played 26 of 27 boards, by 27/26." in page
    total = re.search(r"<strong>Pair 1</strong>: Scorekeeper's total: ([\d.]+)\.", page)
    assert total and total.group(1) == "165.00"
    # How the file scored its session, said once.
    assert "Board 4 was not scaled: its 5 results are matchpointed out of 8" in page
    assert "The totals count those boards Neuberg-scaled to 10, as Scorekeeper does." in page
    # Board 4's traveller: the file's raw figures, each marked, and why.
    travellers = page_of(client, f"{url}/travellers")
    board_4 = travellers.split(">Board 4 ·", 1)[1].split("Board 5 ·", 1)[0]
    assert len(MARK.findall(board_4)) == 10
    assert "Board 4 was not scaled" in board_4
    board_1 = travellers.split(">Board 1 ·", 1)[1].split("Board 2 ·", 1)[0]
    assert not MARK.findall(board_1) and "not scaled" not in board_1
    # Score cards: the published place, total and percentage of each pair.
    cards = page_of(client, f"{url}/cards")
    assert "Pair 1 · Mary Walker - Frank Kowalski · place 1 · 171.35 (63.46 %)" in cards


def test_a_directors_artificial_score_keeps_its_published_matchpoints(client: FlaskClient) -> None:
    url = import_results(client, MITCHELL, "thursday.xml")
    travellers = page_of(client, f"{url}/travellers")
    board_1 = travellers.split(">Board 1 ·", 1)[1].split("Board 2 ·", 1)[0]
    line = re.search(r"<td>A= / A=</td>\s*<td[^>]*>[^<]*</td>\s*(.*?)</tr>", board_1, re.S)
    assert line
    figures = re.findall(r'<td class="num">(\d+)<a class="check explained"', line.group(1))
    assert figures == ["23", "11"]
    assert (
        "Board 1, table 1: artificial score published as 23/11. Scorekeeper counts 18.0/18.0."
        in board_1
    )
    assert "Board 1 was not scaled: its 18 results are matchpointed out of 34" in board_1
    page = page_of(client, url)
    assert "Boards 1, 8, 9, 19, 20 and 21 were not scaled: their 18 results" in page
    # Two rankings, each as the file published it.
    written = re.findall(
        rb"<PAIR_NUMBER>(\d+)</PAIR_NUMBER>\s*<DIRECTION>(NS|EW)</DIRECTION>.*?"
        rb"<PLACE>([^<]+)</PLACE>.*?<PERCENTAGE>([^<]+)</PERCENTAGE>",
        MITCHELL,
        re.S,
    )
    assert ranking_rows(page) == [
        (place.decode(), f"{side.decode()} {number.decode()}", pct.decode())
        for number, side, place, pct in written
    ]


def test_a_butler_howell_is_ranked_by_its_published_imps(client: FlaskClient) -> None:
    url = import_results(client, BUTLER, "butler.xml")
    page = page_of(client, url)
    rows = re.findall(
        r'<td class="num">(\d+=?)(?:<a class="check[^>]*>.*?</a>)?</td>\s*'
        r'<th scope="row">(Pair \d+)',
        page,
        re.S,
    )
    places = re.findall(rb"<PAIR_NUMBER>(\d+)</PAIR_NUMBER>.*?<PLACE>([^<]+)</PLACE>", BUTLER, re.S)
    assert rows == [(place.decode(), f"Pair {n.decode()}") for n, place in places]
    assert "the file's datum is" in page
    travellers = page_of(client, f"{url}/travellers")
    first = re.search(r"Board 1 · [^<]*datum ([+−]?\d+)", travellers)
    assert first and first.group(1) == "+10"  # the file's datum, not Scorekeeper's


def test_a_cross_imp_file_shows_its_imps_to_the_hundredth(client: FlaskClient) -> None:
    url = import_results(client, CROSS, "cross.xml")
    page = page_of(client, url)
    assert "Cross-IMPs" in page
    totals = re.findall(r'<td class="num">([+−]\d+\.\d\d)(?:<a class="check|</td>)', page)
    written = [
        value.decode().replace("-", "−") if value.startswith(b"-") else "+" + value.decode()
        for value in re.findall(rb"<TOTAL_SCORE>([^<]+)</TOTAL_SCORE>", CROSS)
    ]
    assert totals == written
    assert "Each board's figure is rounded to 0.01 before it is added" in page


@pytest.mark.parametrize("suffix", ["session.xml", "session.pbn", "game.json"])
def test_an_imported_session_exported_again_keeps_its_published_figures(
    client: FlaskClient, app: Flask, suffix: str
) -> None:
    url = import_results(client, HOWELL, "tuesday.xml")
    exported = client.get(f"{url}/{suffix}").data
    if suffix == "game.json":
        response = upload(client, "/import", exported, "s.json")
        assert response.status_code == 302, text(response)
        copy = response.headers["Location"]
    else:
        copy = import_results(client, exported, suffix)
    page = page_of(client, copy)
    assert ranking_rows(page) == published_ranking(HOWELL)
    assert "The file factored the total of pair 1, which played 26 of 27 boards" in page
    original, again = stored(app, url), stored(app, copy)
    assert [(r.board, r.published_ns, r.published_ew) for r in again.results] == [
        (r.board, r.published_ns, r.published_ew) for r in original.results
    ]
    assert again.convention == original.convention


def test_a_result_corrected_after_the_import_is_checked_against_what_was_published(
    client: FlaskClient, app: Flask
) -> None:
    url = import_results(client, HOWELL, "tuesday.xml")
    game = stored(app, url)
    result = next(r for r in game.results if r.board == 1)
    edit = f"{url}/results/{result.round}/{result.table}/{result.board}"
    form = page_of(client, edit)
    token, version = TOKEN.search(form), re.search(r'name="drawn_from"[^>]*value="([^"]*)"', form)
    assert token and version
    response = client.post(
        edit,
        data={
            "csrf_token": token.group(1),
            "drawn_from": version.group(1),
            "level": "7",
            "strain": "NT",
            "declarer": "N" if (result.table_result().score_ns or 0) < 0 else "E",
            "doubled": "0",
            "result": "-7",
        },
    )
    assert response.status_code == 302, text(response)
    changed = stored(app, url)
    corrected = next(r for r in changed.results if r.id == result.id)
    # What was published stays as it was published; the check now says it differs.
    assert (corrected.published_ns, corrected.published_ew) == (
        result.published_ns,
        result.published_ew,
    )
    page = page_of(client, url)
    assert "published figures the results do not bear out" in page
    assert f"board 1, table {result.table}: the file's matchpoints is" in page


def test_a_two_player_pairs_names_read_back_as_the_pairs(client: FlaskClient, app: Flask) -> None:
    url = import_results(client, HOWELL, "tuesday.xml")
    assert stored(app, url).name_of(Pair(1)) == "Mary Walker - Frank Kowalski"
    written = client.get(f"{url}/session.xml").data
    assert b"<PLAYER_NAME>Mary Walker</PLAYER_NAME>" in written
    assert b"<PLAYER_NAME>Frank Kowalski</PLAYER_NAME>" in written


# --- Cross-IMPs, played here -------------------------------------------------------------------


def independent_cross_imps(entered: list[tuple[int, int, int, int]]) -> dict[int, Fraction]:
    """Each pair's total: on each board, its score IMPed against every other score and
    averaged over them (East-West the opposite)."""
    boards: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for board, ns, ew, score in entered:
        boards[board].append((ns, ew, score))
    totals: dict[int, Fraction] = defaultdict(Fraction)
    for results in boards.values():
        for ns, ew, score in results:
            others = [other for _, _, other in results]
            average = Fraction(sum(imp(score - o) for o in others), max(len(others) - 1, 1))
            totals[ns] += average
            totals[ew] -= average
    return totals


def test_a_cross_imp_howell_played_here_ranks_by_the_average_imps(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    club.start(
        movement="howell", tables="3", boards_per_round="2", pairs="even", scoring="cross-imps"
    )
    played = play_whole_session(club, 5, seed=8)
    game = club.session(app)
    assert game.scoring.value == "cross-imps"
    seats = {(r.round, r.table, r.board): (r.ns, r.ew) for r in game.results}
    entered = [
        (board, *seats[(round_, table, board)], ns_score(board, fields))
        for round_, table, board, fields in played
    ]
    totals = independent_cross_imps(entered)
    page = page_of(client, club.url)
    assert "Cross-IMPs" in page
    rows = re.findall(
        r'<td class="num">(\d+=?)</td>\s*<th scope="row">Pair (\d+)[^<]*'
        r'(?:<span[^>]*>[^<]*</span>)?</th>\s*<td class="num">([+−]\d+\.\d\d)</td>',
        page,
    )
    assert len(rows) == 6
    for place, pair, shown in rows:
        total = totals[int(pair)]
        assert shown.replace("−", "-") == f"{float(total):+.2f}" or abs(
            Fraction(shown.replace("−", "-")) - total
        ) <= Fraction(1, 200)
        assert int(place.rstrip("=")) == 1 + sum(other > total for other in totals.values())
    # The files say cross-IMPs, and read back as such.
    usebio = client.get(f"{club.url}/session.xml").data
    assert b'EVENT_TYPE="CROSS_IMPS"' in usebio
    assert b"<BOARD_SCORING_METHOD>CROSS_IMPS</BOARD_SCORING_METHOD>" in usebio
    pbn = client.get(f"{club.url}/session.pbn").data
    assert b'[Scoring "IMP;Cross"]' in pbn
    for data, name in ((usebio, "s.xml"), (pbn, "s.pbn")):
        copy = page_of(client, import_results(client, data, name))
        assert "Cross-IMPs" in copy and "is confirmed" in copy
    for printout in ("ranking", "travellers", "cards"):
        assert client.get(f"{club.url}/{printout}").status_code == 200


def test_the_setup_offers_cross_imps_beside_matchpoints_and_butler(client: FlaskClient) -> None:
    page = page_of(client, "/club/new")
    assert 'value="cross-imps"' in page
    assert "Cross-IMPs: IMPs against every other result, averaged" in page


# --- Hostile results files -----------------------------------------------------------------------

ELEMENTS = [
    b"NS_MATCH_POINTS", b"EW_MATCH_POINTS", b"TOTAL_SCORE", b"PERCENTAGE", b"PLACE",
    b"BOARD_SCORING_METHOD", b"NS_IMPS", b"SCORE", b"PAIR_NUMBER", b"BOARDS_PLAYED",
    b"PLAYER_NAME", b"NATIONAL_ID_NUMBER", b"CONTRACT", b"TRICKS",
]  # fmt: skip
VALUES = [
    b"", b"0", b"-1", b"1e9", b"99999999", b"12.3456789", b"1000001", b"NaN", b"3=", b"=",
    b"A5050", b"A9090", b"IMPS", b"CROSS_IMPS", b"AGGREGATE", b"\xe9\xe9", b"28,30", b"-0.00",
    b"&amp;", b"1 NS", b"7 EW", b"999",
]  # fmt: skip


def opens_everywhere(client: FlaskClient, url: str) -> None:
    for part in ("", "/ranking", "/travellers", "/cards", "/session.xml", "/session.pbn"):
        assert client.get(url + part).status_code == 200, part
    exported = client.get(f"{url}/game.json").data
    assert upload(client, "/import", exported, "s.json").status_code == 302


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.data())
def test_a_results_file_with_values_changed_is_refused_or_opens_everywhere(
    client: FlaskClient, app: Flask, data: st.DataObject
) -> None:
    app.config["IMPORTS_LIMIT"] = "100000 per minute"
    app.config["NEW_GAMES_LIMIT"] = "100000 per minute"
    source = data.draw(
        st.sampled_from([CROSS, BUTLER, (DATA / "ebuscore_mitchell_6_tables.xml").read_bytes()])
    )
    for _change in range(data.draw(st.integers(1, 3))):
        element = data.draw(st.sampled_from(ELEMENTS))
        opening = b"<" + element + b">"
        count = source.count(opening)
        if not count:
            continue
        which = data.draw(st.integers(0, count - 1))
        start = -1
        for _ in range(which + 1):
            start = source.index(opening, start + 1)
        end = source.index(b"</" + element + b">", start)
        source = source[: start + len(opening)] + data.draw(st.sampled_from(VALUES)) + source[end:]
    response = upload(client, "/club/import", source, "results.xml")
    assert response.status_code in (302, 422), text(response)
    if response.status_code == 302:
        opens_everywhere(client, response.headers["Location"])
    else:
        assert 'role="alert"' in text(response)


GAME_FIELDS = [
    ("results", "published_ns"), ("results", "published_ew"), ("pairs", "published_place"),
    ("pairs", "published_total"), ("pairs", "published_percentage"),
    ("pairs", "published_boards"), ("settings", "convention"),
]  # fmt: skip
GAME_VALUES = [
    None, "", "x", "1e5", "12345678.5", "-0.5", "3=", "3==", 7, -1, 10**9, [], {},
    {"tops": [[1, 0]]}, {"tops": [[1, 2, 3]]}, {"added": "sideways"}, {"rounding": 7},
    {"data": [[1, 99999]]}, {"divisor": "none", "factored": True}, {"tops": "1"},
]  # fmt: skip


@pytest.mark.parametrize("value", GAME_VALUES, ids=repr)
@pytest.mark.parametrize(("part", "name"), GAME_FIELDS)
def test_a_session_file_with_published_figures_crafted_is_refused_or_opens_everywhere(
    client: FlaskClient, app: Flask, part: str, name: str, value: object
) -> None:
    app.config["IMPORTS_LIMIT"] = "100000 per minute"
    app.config["NEW_GAMES_LIMIT"] = "100000 per minute"
    url = import_results(client, CROSS, "cross.xml")
    document = json.loads(client.get(f"{url}/game.json").data)
    rng = random.Random(name)
    if part == "settings":
        document["settings"][name] = value
    else:
        document[part][rng.randrange(len(document[part]))][name] = value
    response = upload(client, "/import", json.dumps(document).encode(), "s.json")
    assert response.status_code in (302, 422), text(response)
    if response.status_code == 302:
        opens_everywhere(client, response.headers["Location"])
    else:
        assert "error" in text(response)


def test_a_file_that_publishes_no_ranking_is_ranked_as_its_travellers_count(
    client: FlaskClient,
) -> None:
    unscaled = count(NOT_PLAYED["table 3 missed round 2"], neuberg=False)
    data = club_program_file(unscaled)
    data = re.sub(rb"<PLACE>[^<]*</PLACE><TOTAL_SCORE>[^<]*</TOTAL_SCORE>", b"", data)
    data = re.sub(rb"<PERCENTAGE>[^<]*</PERCENTAGE>", b"", data)
    url = import_results(client, data, "tuesday.xml")
    page = page_of(client, url)
    assert "The file publishes no ranking: Scorekeeper ranks the pairs as the file's" in page
    places = [(place, pair) for place, pair, _ in ranking_rows(page)]
    assert places == [
        (unscaled.place(pair), f"{pair[0]} {pair[1]}")
        for side in ("NS", "EW")
        for pair in unscaled.order(side)
    ]
