"""Hand records of a club session through the test client: a dealing program's PBN file kept
for the session's boards, or every board dealt here; each deal solved double dummy in the
background (the FFB session's analysis by Magic Contest as the reference); the hands shown
only to those who have played them; a result far from what the cards make flagged before
East-West confirm and on the director's page; bad files refused with a message."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import FileStorage
from werkzeug.test import TestResponse, stream_encode_multipart

from scorekeeper.club.hands import hand_record
from scorekeeper.extensions import db
from scorekeeper.rules.hands import Deal
from tests.conftest import DATABASES, app_on, database_url
from tests.rules.test_hands import FFB, ffb_table
from tests.web.crawler import as_drawn, forms_of
from tests.web.table import TOKEN, text
from tests.web.test_club import Club

DATA = Path(__file__).resolve().parents[1] / "data" / "bridge"
FFB_FILE = (DATA / "ffb_2022_dn1_s1.pbn").read_bytes()
FIVE_TABLES = {
    "movement": "mitchell",
    "tables": "5",
    "boards_per_round": "3",
    "pairs": "even",
    "scoring": "matchpoints",
}
"""15 boards: the FFB file's first fifteen."""


@pytest.fixture(params=DATABASES)
def app(request: pytest.FixtureRequest) -> Iterator[Flask]:
    """The app with its hand records' solver at work."""
    yield from app_on(database_url(request), TESTING=True, SOLVE_HANDS=True)


def solved(app: Flask) -> None:
    app.extensions["hand_solver"].wait()


def send_hands(
    client: FlaskClient, url: str, data: bytes | None, action: str = "file", **fields: str
) -> TestResponse:
    """The director's hand records form, as drawn, with a file (or none) and its button."""
    (form,) = forms_of(text(client.get(f"{url}/hands")))
    values: dict[str, object] = {**as_drawn(form), "action": action, **fields}
    if data is not None:
        values["file"] = FileStorage(io.BytesIO(data), "hands.pbn")
    body, length, boundary = stream_encode_multipart(values, use_tempfile=False)
    return client.post(
        f"{url}/hands",
        input_stream=body,
        content_type=f'multipart/form-data; boundary="{boundary}"',
        headers={"Content-Length": str(length)},
    )


def kept_deals(app: Flask, club: Club) -> dict[int, tuple[str, str | None]]:
    game = club.session(app)
    return {row.board: (row.deal, row.tricks) for row in game.deals}


def test_a_pbn_file_s_hands_are_kept_solved_and_agree_with_magic_contest(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**FIVE_TABLES)
    response = send_hands(client, url, FFB_FILE)
    assert response.status_code == 302
    page = text(client.get(response.headers["Location"]))
    assert "The hands of 15 boards are kept" in page
    solved(app)
    kept = kept_deals(app, club)
    assert sorted(kept) == list(range(1, 16))  # the file's boards 16 to 30 are not played
    for board, (deal, tricks) in kept.items():
        reference = FFB[board - 1]
        assert Deal.from_pbn(deal) == Deal.from_pbn(reference["Deal"])
        assert tricks == ffb_table(reference).to_text()
        record = hand_record(board, deal, tricks)
        assert record is not None and record.par is not None
        side, points = reference["OptimumScore"].split()
        assert record.par.score == (int(points) if side == "NS" else -int(points))
    page = text(client.get(f"{url}/hands"))
    assert "4♠ N/S =, NS +420" in page  # board 1
    # Every par from North-South's side, as the file's OptimumScore is read at the club.
    pars = re.findall(r'<p class="par"><strong>Par</strong> [^<]*, NS ([+−]\d+|0)</p>', page)
    said = []
    for reference in FFB[:15]:
        side, points = reference["OptimumScore"].split()
        score = int(points) if side == "NS" else -int(points)
        said.append(f"{score:+d}".replace("-", "−") if score else "0")
    assert pars == said and "−" in "".join(pars)
    assert "East-West +" not in page and "North-South +" not in page
    assert page.count('class="double-dummy"') == 15
    assert "KQ106" in page  # North's spades on board 1, the ten as players write it


def test_every_board_dealt_here_goes_out_in_the_pbn_file_and_prints_four_a_page(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**FIVE_TABLES)
    assert send_hands(client, url, None, action="deal").status_code == 302
    solved(app)
    kept = kept_deals(app, club)
    assert sorted(kept) == list(range(1, 16))
    deals = {board: Deal.from_pbn(deal) for board, (deal, _) in kept.items()}
    assert len(set(deals.values())) == 15
    assert all(tricks is not None for _, tricks in kept.values())
    pbn = client.get(f"{url}/session.pbn").get_data(as_text=True)
    for board, deal in deals.items():
        assert f'[Board "{board}"]' in pbn
        assert f'[Deal "{deal.to_pbn()}"]' in pbn
    sheets = text(client.get(f"{url}/hands/print"))
    assert sheets.count('class="hand-records hand-page"') == 4  # 4 + 4 + 4 + 3 boards
    assert sheets.count('class="double-dummy"') == 15


def test_hands_dealt_again_replace_the_old_and_are_solved_again(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**FIVE_TABLES)
    send_hands(client, url, None, action="deal")
    solved(app)
    first = kept_deals(app, club)
    send_hands(client, url, FFB_FILE)
    solved(app)
    second = kept_deals(app, club)
    assert second != first
    assert second[1] == (FFB[0]["Deal"], ffb_table(FFB[0]).to_text())


def play_round_one(club: Club) -> None:
    """Every table's first round: 4♠ by North, made exactly."""
    for table in sorted(club.tables):
        for _board in range(3):
            fields = {"level": "4", "strain": "S", "declarer": "N", "doubled": "0", "result": "0"}
            _round, _b, status = club.enter(table, fields)
            assert status == 302


def test_the_hands_are_shown_only_to_those_who_have_played_them(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**FIVE_TABLES, shown="all")
    send_hands(client, url, FFB_FILE)
    solved(app)
    play_round_one(club)
    looking_on = app.test_client()
    travellers = text(looking_on.get(f"{url}/travellers"))
    assert "Board 1" in travellers and 'class="hand-record"' not in travellers
    assert looking_on.get(f"{url}/hands/print").status_code == 403
    assert looking_on.get(f"{url}/hands").status_code in (403, 404)
    # Table 1 played boards 1-3 in round 1: its pairs see their hands until round 2 begins
    # there. Then its phone seats round 2's pairs, who have not played them, so no hands; in
    # a Mitchell North-South stay, East-West come from table 2 having played boards 4-6
    # there, against another North-South.
    table_page = text(club.client.get(club.tables[1] + "/travellers?round=1"))
    assert table_page.count('class="hand-record"') == 3
    assert 'aria-label="Board 1: the hands"' in table_page
    assert 'class="hand-record"' not in text(club.client.get(club.tables[1] + "/travellers"))
    club.enter(1, {"result": "passed"})
    table_page = text(club.client.get(club.tables[1] + "/travellers?round=1"))
    assert table_page.count('class="hand-record"') == 1  # the board both have now played
    assert 'aria-label="Board 1: the hands"' not in table_page
    assert "Board 4" in table_page  # the results, as the director shows them all
    # The director sees every hand; everyone once the session is closed.
    assert text(client.get(f"{url}/travellers")).count('class="hand-record"') == 15
    (close,) = [f for f in forms_of(text(client.get(url))) if f.action.endswith("/close")]
    client.post(close.action, data=as_drawn(close))
    assert text(looking_on.get(f"{url}/travellers")).count('class="hand-record"') == 15
    assert looking_on.get(f"{url}/hands/print").status_code == 200


def test_a_table_s_phone_shows_the_hands_of_the_boards_its_pairs_have_played(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**FIVE_TABLES)
    send_hands(client, url, FFB_FILE)
    solved(app)
    for _board in range(2):
        fields = {"level": "4", "strain": "S", "declarer": "N", "doubled": "0", "result": "0"}
        club.enter(1, fields)
    page = text(club.client.get(club.tables[1] + "/travellers"))
    assert page.count('class="hand-record"') == 2
    assert "4♠ N/S =, NS +420" in page  # board 1's par
    assert 'aria-label="Board 3: the hands"' not in page  # still to play
    # The round over, its pairs see the hands of its three boards, until the next round's
    # first result: the pairs arriving have not played boards 1 to 3.
    club.enter(1, {"result": "passed"})
    page = text(club.client.get(club.tables[1] + "/travellers?round=1"))
    assert page.count('class="hand-record"') == 3
    assert 'class="hand-record"' not in text(club.client.get(club.tables[1] + "/travellers"))
    club.enter(1, {"result": "passed"})
    page = text(club.client.get(club.tables[1] + "/travellers?round=1"))
    assert 'aria-label="Board 1: the hands"' not in page
    assert 'aria-label="Board 3: the hands"' not in page


def test_a_result_far_from_what_the_cards_make_is_flagged_before_east_west_confirm(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**FIVE_TABLES)
    send_hands(client, url, FFB_FILE)
    solved(app)
    # Board 1: North takes 8 tricks in no trump double dummy; 7NT made is entered.
    club.enter(1, {"level": "7", "strain": "NT", "declarer": "N", "doubled": "0", "result": "0"})
    # Board 2: 3NT by East makes 9; entered as made exactly, nothing to flag.
    club.enter(1, {"level": "3", "strain": "NT", "declarer": "E", "doubled": "0", "result": "0"})
    page = text(club.client.get(club.tables[1]))
    assert page.count('class="warning improbable"') == 1
    assert "Double dummy, North takes 8 tricks in NT, and 13 are entered" in page
    director = text(client.get(url))
    assert "1 result far from what the cards make" in director
    assert "Board 1, table 1" in director


def test_an_unsolved_board_is_shown_with_its_hands_and_no_analysis(
    client: FlaskClient, app: Flask
) -> None:
    app.config["SOLVE_HANDS"] = False
    club = Club(client)
    url = club.start(**FIVE_TABLES)
    send_hands(client, url, FFB_FILE)
    page = text(client.get(f"{url}/hands"))
    assert page.count('class="hand-record"') == 15
    assert 'class="double-dummy"' not in page
    assert "once it is worked out" in page
    app.config["SOLVE_HANDS"] = True
    text(client.get(f"{url}/hands"))  # a page that shows them asks for the solve
    solved(app)
    assert text(client.get(f"{url}/hands")).count('class="double-dummy"') == 15


EXAMPLE = b"N:KQT6.AJT.T984.65 A2.K9876.72.9742 J543.43.AQ5.AKJ3 987.Q52.KJ63.QT8"
SHORT_DEAL = EXAMPLE[:-1]  # West has 12 cards
BAD_FILES = [
    (None, "Choose a PBN file of hand records."),
    (b"", "The file gives no board"),
    (b'[Event "x"]\n[Board "1"]\n', "The file gives no board"),
    (b'[Board "1"]\n[Deal "' + SHORT_DEAL + b'"]\n', "Line 2: board 1"),
    (b'[Board "40"]\n[Deal "' + EXAMPLE + b'"]\n', "no deal for this session"),
    (b"<?xml version='1.0'?><USEBIO/>", "Line 1"),
    (b"\xff\xfe\x00garbage\x00", ""),
]


@pytest.mark.parametrize(("data", "said"), BAD_FILES)
def test_a_bad_hand_records_file_is_refused_with_a_message_and_changes_nothing(
    client: FlaskClient, app: Flask, data: bytes | None, said: str
) -> None:
    club = Club(client)
    url = club.start(**FIVE_TABLES)
    send_hands(client, url, None, action="deal")
    solved(app)
    before = kept_deals(app, club)
    response = send_hands(client, url, data)
    assert response.status_code == 422
    page = text(response)
    assert 'class="error"' in page and said in page
    assert kept_deals(app, club) == before


def test_a_hand_records_form_drawn_before_a_change_is_sent_again(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**FIVE_TABLES)
    (form,) = forms_of(text(client.get(f"{url}/hands")))
    send_hands(client, url, None, action="deal")  # another of the director's phones
    solved(app)
    before = kept_deals(app, club)
    values = {**as_drawn(form), "action": "deal"}
    response = client.post(f"{url}/hands", data=values)
    assert response.status_code == 409
    assert "changed since this page was drawn" in text(response)
    assert kept_deals(app, club) == before


def test_only_the_director_keeps_hands(client: FlaskClient, app: Flask) -> None:
    club = Club(client)
    url = club.start(**FIVE_TABLES)
    (form,) = forms_of(text(client.get(f"{url}/hands")))
    other = app.test_client()
    token = TOKEN.search(text(other.get("/club/new")))  # its own token: only the link is wrong
    assert token is not None
    fields = {**as_drawn(form), "csrf_token": token.group(1), "action": "deal"}
    response = other.post(f"{url}/hands", data=fields)
    assert response.status_code == 403
    assert kept_deals(app, club) == {}


def test_an_imported_results_file_s_deals_are_solved_and_shown_on_its_travellers(
    client: FlaskClient, app: Flask
) -> None:
    from tests.web.test_club import import_results

    url = import_results(client, FFB_FILE, "ffb.pbn")
    travellers = text(client.get(f"{url}/travellers"))
    assert travellers.count('class="hand-record"') == 30
    solved(app)
    travellers = text(client.get(f"{url}/travellers"))
    assert travellers.count('class="double-dummy"') == 30
    with app.app_context():
        from scorekeeper.club.models import ClubSession

        game = db.session.get(ClubSession, url.rsplit("/", 1)[1])
        assert game is not None
        tables = {row.board: row.tricks for row in game.deals}
    assert tables == {board: ffb_table(FFB[board - 1]).to_text() for board in range(1, 31)}
    assert re.search(r"Par</strong> 4♠ N/S =, NS \+420", travellers)


def test_hands_given_again_while_the_solver_works_are_never_given_the_old_analysis(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.club import hands

    club = Club(client)
    url = club.start(**FIVE_TABLES)
    solve = hands.double_dummy_tables
    given_again = []

    def slow_solve(deals: object) -> object:
        """The director sends other hands while the first ones are being solved."""
        tables = solve(deals)  # type: ignore[arg-type]
        if not given_again:
            given_again.append(True)
            assert send_hands(client, url, FFB_FILE).status_code == 302
        return tables

    monkeypatch.setattr(hands, "double_dummy_tables", slow_solve)
    send_hands(client, url, None, action="deal")
    solved(app)
    for _ in range(50):  # the second solve may be asked for while the first still runs
        text(client.get(f"{url}/hands"))
        solved(app)
        kept = kept_deals(app, club)
        if all(tricks for _deal, tricks in kept.values()):
            break
    for board, (deal, tricks) in kept.items():
        assert deal == FFB[board - 1]["Deal"]
        assert tricks == ffb_table(FFB[board - 1]).to_text()


@pytest.mark.parametrize("shown", ["all", "played"])
def test_no_file_gives_the_hands_away_before_the_session_closes(
    client: FlaskClient, app: Flask, shown: str
) -> None:
    club = Club(client)
    url = club.start(**FIVE_TABLES, shown=shown)
    send_hands(client, url, FFB_FILE)
    club.enter(1, {"result": "passed"})
    looking_on = app.test_client()
    for path in ("/session.pbn", "/session.xml", "/game.json", "/hands/print"):
        assert looking_on.get(url + path).status_code == 403, path
    page = text(looking_on.get(url))
    assert "session.pbn" not in page and "/hands/print" not in page
    (close,) = [f for f in forms_of(text(client.get(url))) if f.action.endswith("/close")]
    client.post(close.action, data=as_drawn(close))
    page = text(looking_on.get(url))
    assert "session.pbn" in page and "session.xml" in page and "/hands/print" in page
    pbn = looking_on.get(url + "/session.pbn").get_data(as_text=True)
    assert f'[Deal "{FFB[0]["Deal"]}"]' in pbn
    assert looking_on.get(url + "/game.json").status_code == 200


def test_an_imported_session_s_hands_and_files_are_for_everyone(
    client: FlaskClient, app: Flask
) -> None:
    """Played elsewhere, its hands are no secret: its files and hand records are public."""
    from tests.web.test_club import import_results

    url = import_results(client, FFB_FILE, "ffb.pbn")
    looking_on = app.test_client()
    for path in ("/session.pbn", "/session.xml", "/game.json", "/hands/print"):
        assert looking_on.get(url + path).status_code == 200, path
    assert text(looking_on.get(url + "/travellers")).count('class="hand-record"') == 30
    # Nobody deals an imported session's boards again.
    (form,) = forms_of(text(client.get(f"{url}/hands")))
    response = client.post(f"{url}/hands", data={**as_drawn(form), "action": "deal"})
    assert response.status_code == 422
    assert "Choose a PBN file of hand records." in text(response)


def test_a_hands_form_refused_as_stale_is_taken_when_sent_again(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**FIVE_TABLES)
    (form,) = forms_of(text(client.get(f"{url}/hands")))
    send_hands(client, url, None, action="deal")  # meanwhile, from another of its phones
    solved(app)
    stale = client.post(f"{url}/hands", data={**as_drawn(form), "action": "deal"})
    assert stale.status_code == 409
    (again,) = forms_of(text(stale))
    response = client.post(f"{url}/hands", data={**as_drawn(again), "action": "deal"})
    assert response.status_code == 302


def test_a_solve_with_nothing_to_write_changes_nothing(client: FlaskClient, app: Flask) -> None:
    club = Club(client)
    url = club.start(**FIVE_TABLES)
    send_hands(client, url, FFB_FILE)
    solved(app)
    version = club.session(app).version
    for _ in range(3):
        text(client.get(f"{url}/hands"))  # every board solved: no solve is asked for
        app.extensions["hand_solver"].solve(club.session(app).id)  # nor changes anything
    assert club.session(app).version == version


def test_the_flag_shows_after_the_last_board_of_a_round_too(
    client: FlaskClient, app: Flask
) -> None:
    club = Club(client)
    url = club.start(**{**FIVE_TABLES, "boards_per_round": "1"})
    send_hands(client, url, FFB_FILE)
    solved(app)
    page = text(client.get(club.tables[1]))
    entry = re.search(r'action="(/club/[^"]+/table/\d+/[0-9a-f]+/1/1)"', page)
    assert entry is not None
    (form,) = [f for f in forms_of(page) if f.action == entry.group(1)]
    seven_nt = {"level": "7", "strain": "NT", "declarer": "N", "doubled": "0", "result": "0"}
    response = client.post(entry.group(1), data={**as_drawn(form), **seven_nt})
    after = text(client.get(response.headers["Location"]))  # the round just finished
    assert "Double dummy, North takes 8 tricks in NT, and 13 are entered" in after
