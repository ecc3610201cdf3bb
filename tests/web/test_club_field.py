"""Sections played as one field: set up together or added, each with its own tables and links,
scored across the field (held to a count by hand), the director's field page, and what each
link may see of it."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper.club import field_scores
from scorekeeper.club.models import ClubField, ClubSession
from scorekeeper.extensions import db
from scorekeeper.rules.field import FieldScore, Section, score_field, section_name
from scorekeeper.rules.movements import mitchell
from tests.web.table import NONCE, TOKEN, text
from tests.web.test_club import (
    SMALL,
    TABLE_LINK,
    Club,
    director_post,
    ns_score,
    play_whole_session,
    ranking_rows,
)

FIELD_LINK = re.compile(r'href="(/club/field/[A-Za-z0-9_-]+)"')
SECTION_LINK = re.compile(r'<h3><a href="(/club/[A-Za-z0-9_-]+)">Section ([A-Z]+)</a></h3>')


def start_field(client: FlaskClient, sections: int, **choices: str) -> tuple[str, dict[str, Club]]:
    """A field set up on the director's phone: its page, and each section's director's page
    with its table links."""
    club = Club(client)
    club.start(**{**SMALL, **choices, "sections": str(sections)})
    page = text(client.get(club.url))
    found = FIELD_LINK.search(page)
    assert found, page
    return found.group(1), sections_of(client, found.group(1))


def sections_of(client: FlaskClient, field: str) -> dict[str, Club]:
    found = {}
    for url, name in SECTION_LINK.findall(text(client.get(field))):
        section = Club(client)
        section.url = url
        page = text(client.get(url))
        section.tables = {int(number): link for link, number in TABLE_LINK.findall(page)}
        found[name] = section
    return found


def add_section(client: FlaskClient, field: str, **choices: str) -> int:
    field_id = field.rsplit("/", 1)[1]
    page = text(client.get(f"/club/new?field={field_id}"))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data = {"csrf_token": token.group(1), "nonce": nonce.group(1), "field": field_id}
    return client.post("/club/new", data={**data, **SMALL, **choices}).status_code


def counted_by_hand(
    played: dict[str, list[tuple[int, int, int, int]]], tables: dict[str, int]
) -> dict[tuple[str, str, int], Fraction]:
    """Each pair's percentage, the whole field on each board: 2 per lower North-South score of
    the board in any section and 1 per equal one; a board's N the results the movements of the
    sections that play it schedule for a board added up, (M + 1) × N / n − 1 where it has
    fewer; each pair's share of its tops, 2 × (N − 1) a board."""
    scores: dict[int, list[int]] = defaultdict(list)
    expected: dict[int, int] = defaultdict(int)
    for name, results in played.items():
        schedule = Counter(b for s in mitchell(tables[name], 2).seatings for b in s.boards)
        for board in schedule:
            expected[board] += max(schedule.values())
        for board, _ns, _ew, score in results:
            scores[board].append(score)
    totals: dict[tuple[str, str, int], list[Fraction]] = defaultdict(lambda: [Fraction(0)] * 2)
    for name, results in played.items():
        for board, ns, ew, score in results:
            real, field = scores[board], expected[board]
            points = Fraction(sum(2 if s < score else 1 if s == score else 0 for s in real) - 1)
            if len(real) < field:
                points = (points + 1) * field / len(real) - 1
            top = 2 * (field - 1)
            for pair, figure in (((name, "NS", ns), points), ((name, "EW", ew), top - points)):
                totals[pair][0] += figure
                totals[pair][1] += top
    return {pair: 100 * total / top for pair, (total, top) in totals.items()}


def two_places(value: Fraction) -> str:
    """A percentage as the pages write it: two decimals, half up (RULES.md §4)."""
    hundredths = math.floor(value * 100 + Fraction(1, 2))
    return f"{hundredths // 100}.{hundredths % 100:02d}"


def play(section: Club, tables: int, seed: int) -> list[tuple[int, int, int, int]]:
    movement = mitchell(tables, 2)
    played = []
    for round_, table, board, fields in play_whole_session(section, movement.rounds, seed):
        seating = next(s for s in movement.round_seatings(round_) if s.table == table)
        played.append((board, seating.ns, seating.ew, ns_score(board, fields)))
    return played


def shown_pairs(page: str) -> dict[tuple[str, str, int], tuple[int, str]]:
    found = {}
    for place, pair, pct in ranking_rows(page):
        section, direction, number = pair.split(" ")
        found[(section, direction, int(number))] = (int(place.rstrip("=")), pct)
    return found


def test_sections_on_the_same_boards_rank_across_the_field_as_a_count_by_hand(
    client: FlaskClient, app: Flask
) -> None:
    field, sections = start_field(client, 2)
    assert sorted(sections) == ["A", "B"]
    # A third section, one table more: its last round's boards are its own alone.
    assert add_section(client, field, tables="4") == 302
    sections = sections_of(client, field)
    tables = {"A": 3, "B": 3, "C": 4}
    assert {name: len(section.tables) for name, section in sections.items()} == tables
    played = {name: play(sections[name], tables[name], seed) for seed, name in enumerate("ABC")}
    expected = counted_by_hand(played, tables)

    page = text(client.get(field))
    for name, count in tables.items():
        boards = sum(len(seating.boards) for seating in mitchell(count, 2).seatings)
        assert len(played[name]) == boards
        assert f"Results in: {boards} of {boards}" in page
    shown = shown_pairs(page)
    assert set(shown) == set(expected)
    for pair, (_place, pct) in shown.items():
        assert pct == two_places(expected[pair]), pair
    for direction in ("NS", "EW"):
        mine = {pair: pct for pair, pct in expected.items() if pair[1] == direction}
        for pair, pct in mine.items():
            assert shown[pair][0] == 1 + sum(other > pct for other in mine.values())

    # Each section's page ranks its own pairs, by the field's figures.
    for name, section in sections.items():
        rows = ranking_rows(text(client.get(section.url)))
        own = {pair: pct for pair, pct in expected.items() if pair[0] == name}
        assert len(rows) == len(own)
        for place, pair, pct in rows:
            direction, number = pair.split(" ")
            mine = expected[(name, direction, int(number))]
            assert pct == two_places(mine)
            rivals = [p for key, p in own.items() if key[1] == direction]
            assert int(place.rstrip("=")) == 1 + sum(other > mine for other in rivals)


def test_a_result_in_one_section_moves_the_other_section_s_figures_at_once(
    client: FlaskClient, app: Flask
) -> None:
    _field, sections = start_field(client, 2)
    a, b = sections["A"], sections["B"]
    contract = {"strain": "S", "declarer": "N", "doubled": "0", "result": "0"}
    assert b.enter(1, {**contract, "level": "2"})[2] == 302
    before = ranking_rows(text(client.get(b.url)))
    assert a.enter(1, {**contract, "level": "4"})[2] == 302  # the same board, in section A
    after = ranking_rows(text(client.get(b.url)))
    # Board 1 expects 3 results in each section: B's 110 alone is worth (0 + 1) × 6 / 1 − 1
    # = 5 of 10; beaten by A's 420, (0 + 1) × 6 / 2 − 1 = 2 of 10.
    assert ("1", "NS 1", "50.00") in before
    assert ("1", "NS 1", "20.00") in after  # B's page, kept, is drawn again


def test_each_section_on_its_own_is_ranked_as_a_session_of_its_own(
    client: FlaskClient, app: Flask
) -> None:
    field, sections = start_field(client, 2)
    page = text(client.get(field))
    token = TOKEN.search(page)
    assert token
    response = client.post(
        field, data={"csrf_token": token.group(1), "across": "apart", "overall": "section"}
    )
    assert response.status_code == 302
    played = play(sections["A"], 3, seed=4)
    alone = counted_by_hand({"A": played}, {"A": 3})
    rows = ranking_rows(text(client.get(sections["A"].url)))
    for _place, pair, pct in rows:
        direction, number = pair.split(" ")
        assert pct == two_places(alone[("A", direction, int(number))])
    assert "each section scored on its own" in text(client.get(field))


def test_the_field_is_its_director_s_alone_until_the_director_shows_it(
    client: FlaskClient, app: Flask
) -> None:
    field, sections = start_field(client, 2)
    field_id = field.rsplit("/", 1)[1]
    table_phone = app.test_client()
    assert table_phone.get(sections["A"].tables[1]).status_code == 200
    assert table_phone.get(field).status_code == 404
    assert table_phone.get(f"{field}/ranking").status_code == 404
    # Section A's table link is no link to section B's table of the same number.
    borrowed = sections["A"].tables[1].replace(sections["A"].url, sections["B"].url)
    assert borrowed != sections["B"].tables[1]
    assert table_phone.get(borrowed).status_code == 403
    players = app.test_client()
    page = text(players.get(sections["B"].url))
    assert "The field: every section" not in page and f"/club/field/{field_id}" not in page
    # Another browser may not add a section to a field it does not direct.
    page = text(players.get(f"/club/new?field={field_id}"))
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data = {"csrf_token": token.group(1), "nonce": nonce.group(1), "field": field_id, **SMALL}
    response = players.post("/club/new", data=data)
    assert response.status_code == 422
    assert "This field is not one you direct" in text(response)
    with app.app_context():
        found = db.session.get(ClubField, field_id)
        assert found is not None and len(found.sections) == 2
    # Shown to the players: the field's ranking, from their section's page.
    page = text(client.get(field))
    token = TOKEN.search(page)
    assert token
    client.post(
        field, data={"csrf_token": token.group(1), "across": "across", "overall": "overall"}
    )
    page = text(players.get(sections["B"].url))
    assert f'href="/club/field/{field_id}/ranking"' in page
    assert players.get(f"{field}/ranking").status_code == 200
    assert players.get(field).status_code == 404


DIRECTOR_LINK = re.compile(r'value="https?://[^/"]+(/club/event/[^/"]+/organise/[^/"]+)"')


def test_the_field_s_director_link_directs_every_section_on_another_phone(
    client: FlaskClient, app: Flask, mode: str
) -> None:
    field, sections = start_field(client, 2)
    found = DIRECTOR_LINK.search(text(client.get(field)))
    assert found
    second = app.test_client()
    assert second.get(field).status_code == 404
    assert second.get(found.group(1).rsplit("/", 1)[0] + "/wrong").status_code == 404
    assert "Close the session" not in text(second.get(sections["A"].url))
    assert second.get(found.group(1)).status_code == 302
    assert second.get(field).status_code == 200
    for section in sections.values():
        assert "Close the session" in text(second.get(section.url))
    # A section added since on the first phone: directed on the second once it opens the field.
    assert add_section(client, field) == 302
    added = sections_of(client, field)["C"]
    assert "Close the session" not in text(second.get(added.url))
    assert second.get(field).status_code == 200
    assert "Close the session" in text(second.get(added.url))
    # A table's link directs nothing.
    table_phone = app.test_client()
    assert table_phone.get(sections["A"].tables[1]).status_code == 200
    assert table_phone.get(field).status_code == 404


def test_a_section_added_with_boards_of_its_own_is_scored_apart(
    client: FlaskClient, app: Flask
) -> None:
    field, _sections = start_field(client, 2)
    assert add_section(client, field, board_set="own") == 302
    sections = sections_of(client, field)
    assert "its own boards" in text(client.get(field))
    played = play(sections["C"], 3, seed=9)
    alone = counted_by_hand({"C": played}, {"C": 3})
    rows = ranking_rows(text(client.get(sections["C"].url)))
    assert rows
    for _place, pair, pct in rows:
        direction, number = pair.split(" ")
        assert pct == two_places(alone[("C", direction, int(number))])


def test_the_names_of_sections_follow_the_alphabet() -> None:
    assert [section_name(n) for n in (0, 1, 25, 26, 27, 52)] == [
        "A", "B", "Z", "AA", "AB", "BA",
    ]  # fmt: skip


def test_the_field_s_file_has_every_section_and_each_section_s_file_its_field_figures(
    client: FlaskClient, app: Flask
) -> None:
    field, sections = start_field(client, 2)
    played = {name: play(sections[name], 3, seed) for seed, name in enumerate("AB")}
    expected = counted_by_hand(played, {"A": 3, "B": 3})
    response = client.get(f"{field}/field.xml")
    assert response.status_code == 200
    root = ET.fromstring(response.data.split(b"\n", 2)[2])
    written = root.findall("EVENT/SESSION/SECTION")
    assert [section.get("SECTION_ID") for section in written] == ["A", "B"]
    for section in written:
        name = section.get("SECTION_ID") or ""
        for pair in section.findall("PARTICIPANTS/PAIR"):
            number, direction = (pair.findtext("PAIR_NUMBER") or "").split(" ")
            mine = expected[(name, direction, int(number))]
            assert pair.findtext("PERCENTAGE") == two_places(mine)
            assert pair.findtext("OVERALL_PLACE")
    # A section's own file: its pairs with their figures in the field.
    own = client.get(f"{sections['B'].url}/session.xml")
    assert own.status_code == 200
    for pair in ET.fromstring(own.data.split(b"\n", 2)[2]).findall(".//PARTICIPANTS/PAIR"):
        number, direction = (pair.findtext("PAIR_NUMBER") or "").split(" ")
        assert pair.findtext("PERCENTAGE") == two_places(expected[("B", direction, int(number))])
    assert app.test_client().get(f"{field}/field.xml").status_code == 404


def test_a_section_s_printouts_name_it_and_the_field_s_names_the_field(
    client: FlaskClient, app: Flask
) -> None:
    field, sections = start_field(client, 2)
    page = text(client.get(f"{sections['B'].url}/ranking"))
    assert "Pairs session · Section B" in page
    page = text(client.get(f"{field}/ranking"))
    assert "Pairs session · The field's ranking" in page and "Section A" not in page


def test_a_section_added_twice_by_a_double_tap_is_one_section_scored_as_the_field(
    client: FlaskClient, app: Flask
) -> None:
    field, _sections = start_field(client, 2)
    field_id = field.rsplit("/", 1)[1]
    page = text(client.get(f"/club/new?field={field_id}"))
    assert 'name="scoring"' not in page  # the field's own scoring
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data = {"csrf_token": token.group(1), "nonce": nonce.group(1), "field": field_id}
    sent = {**data, **SMALL, "scoring": "butler"}
    first, again = client.post("/club/new", data=sent), client.post("/club/new", data=sent)
    assert first.status_code == again.status_code == 302
    assert first.headers["Location"] == again.headers["Location"]
    with app.app_context():
        found = db.session.get(ClubField, field_id)
        assert found is not None
        assert [section.section for section in found.sections] == ["A", "B", "C"]
        assert {section.scoring.value for section in found.sections} == {"matchpoints"}


def test_a_closed_section_keeps_its_boards_to_itself_until_every_section_on_them_closes(
    client: FlaskClient, app: Flask
) -> None:
    from tests.web.test_club import session_form

    _field, sections = start_field(client, 2)
    for name in ("A", "B"):
        client.post(
            f"{sections[name].url}/close", data=session_form(client, sections[name].url, "close")
        )
        with app.app_context():
            found = db.session.get(ClubField, _field.rsplit("/", 1)[1])
            assert found is not None
            a = found.section("A")
            assert a is not None and a.closed
            assert a.hands_public() is a.shows_everything() is (name == "B")


@pytest.mark.parametrize("app", ["postgresql"], indirect=True)
def test_a_result_in_a_section_locks_the_field_s_rows_before_it_writes_any(
    client: FlaskClient, app: Flask
) -> None:
    """Every write of a section takes the sections' rows in one order before it writes: two
    sections entering at once wait for one another, never each for the other."""
    _field, sections = start_field(client, 2)
    statements: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        statements.append(
            statement.split(None, 1)[0].upper()
            + (" FOR UPDATE" if "FOR UPDATE" in statement else "")
        )

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", seen)
        try:
            assert sections["A"].enter(1, {"result": "passed"})[2] == 302
        finally:
            event.remove(db.engine, "before_cursor_execute", seen)
    locked = statements.index("SELECT FOR UPDATE")
    assert not {"INSERT", "UPDATE", "DELETE"} & set(statements[:locked]), statements


def test_a_result_in_one_section_shows_at_once_on_every_page_of_the_field(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The field is scored once per state of its sections, for all their pages: a result
    entered in section A is on section B's page, the field's page and its ranking at once."""
    field, sections = start_field(client, 2)
    a, b = sections["A"], sections["B"]
    contract = {"strain": "S", "declarer": "N", "doubled": "0", "result": "0"}
    assert b.enter(1, {**contract, "level": "2"})[2] == 302
    pages = (b.url, field, f"{field}/ranking")
    for page in pages:  # drawn, and the field's score kept
        assert client.get(page).status_code == 200
    assert ("1", "NS 1", "50.00") in ranking_rows(text(client.get(b.url)))
    assert shown_pairs(text(client.get(field)))[("B", "NS", 1)] == (1, "50.00")
    scored = []
    whole = ClubField._scored

    def counted(field_row: ClubField) -> FieldScore:
        scored.append(field_row.id)
        return whole(field_row)

    monkeypatch.setattr(ClubField, "_scored", counted)
    assert a.enter(1, {**contract, "level": "4"})[2] == 302  # the same board, in section A
    # B's 110 is now beaten by A's 420: (0 + 1) × 6 / 2 − 1 = 2 of 10.
    assert ("1", "NS 1", "20.00") in ranking_rows(text(client.get(b.url)))
    on_field = shown_pairs(text(client.get(field)))
    assert on_field[("B", "NS", 1)][1] == "20.00"
    assert on_field[("A", "NS", 1)][1] == "80.00"
    assert "80.00" in text(client.get(f"{field}/ranking"))
    assert ("1", "NS 1", "80.00") in ranking_rows(text(client.get(a.url)))
    assert len(scored) == 1  # one score of the field for its four pages
    # Another result, in section B: every page follows again.
    assert b.enter(2, {**contract, "level": "3"})[2] == 302
    assert shown_pairs(text(client.get(field)))[("B", "NS", 2)][1] == "50.00"
    assert len(scored) == 2
    with app.app_context():  # the field's rows read together, as each section reads its own
        found = db.session.get(ClubField, field.rsplit("/", 1)[1])
        assert found is not None
        assert field_scores.records_of(found.sections) == [s.record() for s in found.sections]


def test_a_change_in_one_section_reads_that_section_s_rows_again_and_no_other(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every result counts a change in each section of the field, but a field scored anew for a
    page reads again only the sections whose own rows changed (a table's result, a director's
    correction), and scores what a count from every row gives."""
    field, sections = start_field(client, 3)
    ids = {name: section.url.rsplit("/", 1)[1] for name, section in sections.items()}
    contract = {"strain": "S", "declarer": "N", "doubled": "0", "result": "0"}
    assert sections["B"].enter(1, {**contract, "level": "2"})[2] == 302
    read: list[str] = []
    record_with = ClubSession.record_with

    def noted(section: ClubSession, *args: object, **kwargs: object) -> object:
        read.append(section.id)
        return record_with(section, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ClubSession, "record_with", noted)

    def read_for_a_page() -> set[str]:
        """The sections whose rows the field's page read, and its figures checked against
        the field scored from every section's own record."""
        read.clear()
        shown = shown_pairs(text(client.get(field)))
        drawn_from = {name for name, id_ in ids.items() if id_ in read}
        with app.app_context():
            found = db.session.get(ClubField, field.rsplit("/", 1)[1])
            assert found is not None
            scratch = score_field(
                [Section(s.section, s.record(), s.board_set) for s in found.sections],
                across=found.across,
            )
        assert shown == {
            (f.pair.section, f.pair.pair.direction.value, f.pair.pair.number): (
                f.rank,
                two_places(f.percentage),
            )
            for _side, standings in scratch.overall
            for f in standings
            if f.pair.pair.direction is not None and f.percentage is not None
        }
        return drawn_from

    assert read_for_a_page() == {"B"}  # A and C as read for the pages drawn before
    b_before = ranking_rows(text(client.get(sections["B"].url)))
    assert sections["A"].enter(1, {**contract, "level": "4"})[2] == 302
    assert read_for_a_page() == {"A"}
    b_after = ranking_rows(text(client.get(sections["B"].url)))
    assert b_after != b_before  # B's figures follow A's result, B's rows unread
    response = director_post(
        client,
        f"{sections['B'].url}/results/1/1/1",
        action="result",
        level="6",
        strain="S",
        declarer="N",
        doubled="0",
        result="0",
    )
    assert response.status_code == 302
    assert read_for_a_page() == {"B"}
    assert ranking_rows(text(client.get(sections["B"].url))) != b_after
    assert client.get(field).status_code == 200
    read.clear()
    assert client.get(f"{field}/ranking").status_code == 200
    assert read == []  # nothing changed: the kept score


def test_the_field_s_page_says_how_far_each_section_has_got(client: FlaskClient) -> None:
    """Each section's card: its results in, and the round its tables are at (the first round
    not finished at every table), counted apart for each section."""
    field, sections = start_field(client, 2)
    a, b = sections["A"], sections["B"]
    contract = {"strain": "S", "declarer": "N", "doubled": "0", "result": "0", "level": "2"}
    for table in sorted(a.tables):  # round 1 at every table of A, then one board of round 2
        for _board in range(2):
            assert a.enter(table, contract)[2] == 302
    assert a.enter(1, contract)[0] == 2
    assert b.enter(2, contract)[2] == 302
    cards = re.findall(
        r"Results in: (\d+) of (\d+)(?: · round (\d+) of (\d+))?", text(client.get(field))
    )
    assert cards == [("7", "18", "2", "3"), ("1", "18", "1", "3")]


def test_the_field_s_page_shows_the_leaders_of_a_large_field_and_its_own_page_the_whole(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A simultaneous ranks thousands of pairs: the field's page shows the first lines of each
    ranking, as the whole ranking orders them, with the pairs sharing the last one's place,
    and links to it."""
    from scorekeeper.club import field as field_pages

    field, sections = start_field(client, 2)
    contract = {"strain": "S", "declarer": "N", "doubled": "0", "result": "0"}
    for number, section in enumerate(sections.values()):
        for table in sorted(section.tables):
            assert (
                section.enter(table, {**contract, "level": str(1 + (table + number) % 4)})[2] == 302
            )
    whole = ranking_rows(text(client.get(f"{field}/ranking")))
    assert len(whole) == 12  # six pairs in each direction
    page = text(client.get(field))
    assert ranking_rows(page) == whole  # a field this small is shown whole
    assert "The whole ranking" not in page

    monkeypatch.setattr(field_pages, "FIELD_PAGE_LEADERS", 2)
    page = text(client.get(field))

    def leaders(ranking: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
        """The first two, and those sharing the second's place."""
        shown = ranking[:2]
        for line in ranking[2:]:
            if line[0] != shown[-1][0]:
                break
            shown.append(line)
        return shown

    north_south, east_west = whole[:6], whole[6:]
    assert ranking_rows(page) == leaders(north_south) + leaders(east_west)
    assert 4 < len(ranking_rows(page)) < len(whole)  # a place shared across the cut, shown whole
    assert "The leaders of each ranking" in page
    assert f'<a href="{field}/ranking">The whole ranking</a>' in page
