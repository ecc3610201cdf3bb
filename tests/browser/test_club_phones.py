"""A club session on real phones: the director sets up a 7-table Mitchell (3 boards a round)
and a 5-table Howell; three phones, each at its own tables, enter every result by tapping, one
result each in turn; the ranking the director's page shows is the one counted independently
in the test; the printouts fit their pages."""

from __future__ import annotations

import random
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from scorekeeper.rules.common import Side
from scorekeeper.rules.movements import howell, mitchell
from tests.browser.conftest import PHONE
from tests.browser.test_ascenseur_phone import no_sideways_scroll
from tests.browser.test_sheet_print import ARTIFACTS, pages
from tests.web.test_club import independent_ranking, ns_score, random_result, ranking_rows

FFB = Path(__file__).resolve().parents[1] / "data" / "bridge" / "ffb_2022_dn1_s1.pbn"
STRAIN_NAMES = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT"}


def start_session(
    page: Page, base: str, movement: str, tables: int, boards_per_round: int = 3
) -> list[str]:
    page.goto(base + "/club/new")
    page.get_by_role("radio", name=re.compile(f"^{movement.capitalize()}:")).check()
    choose_tables(page, tables, boards_per_round)
    page.get_by_role("button", name="Start the session").click()
    expect(page.get_by_role("heading", name="Ranking", exact=True)).to_be_visible()
    return table_links(page, base, tables)


def choose_tables(page: Page, tables: int, boards_per_round: int) -> None:
    """The setup form's tables and boards a round, tapped."""
    page.get_by_role("group", name="Tables").get_by_role(
        "radio", name=str(tables), exact=True
    ).click()
    page.get_by_role("group", name="Boards a round").get_by_role(
        "radio", name=str(boards_per_round), exact=True
    ).click()


def opened_anew(page: Page, url: str) -> Page:
    """The page closed and ``url`` opened in a new one of the same phone: a page that
    follows the session reloads itself when results come in, and our own navigation could
    cut across its own."""
    context = page.context
    page.close()
    fresh = context.new_page()
    fresh.goto(url)
    return fresh


def table_links(page: Page, base: str, tables: int) -> list[str]:
    """The tables' links as the director's page gives them."""
    page.get_by_text("A link for each table's phone").click()
    links = page.locator(".table-links input").evaluate_all("(inputs) => inputs.map(i => i.value)")
    assert len(links) == tables
    # The links name the server as other phones reach it on the network; here, the test's.
    return [base + urlsplit(link).path for link in links]


def tap_result(page: Page, fields: dict[str, str], *, moves_on: bool = True) -> None:
    """One board, tapped as North would: level, strain, declarer, doubled, then the result;
    then the page ``moves_on`` to the next board."""
    heading = page.locator("#board-title").inner_text()
    if fields["result"] == "passed":
        page.get_by_role("button", name="Passed out").click()
    else:
        page.get_by_role("group", name="Level").get_by_role(
            "radio", name=fields["level"], exact=True
        ).click()
        strain = STRAIN_NAMES[fields["strain"]]
        page.get_by_role("group", name="Strain").get_by_role(
            "radio", name=strain, exact=True
        ).click()
        page.get_by_role("group", name="Declarer").get_by_role(
            "radio", name=re.compile(f"^{fields['declarer']} ")
        ).click()
        if fields["doubled"] != "0":
            page.get_by_role("group", name="Doubled").get_by_role(
                "radio", name="X", exact=True
            ).click()
        result = int(fields["result"])
        label = "made" if result == 0 else (f"+{result}" if result > 0 else f"−{-result}")
        page.get_by_role("button", name=label, exact=True).click()
    if not moves_on:
        return
    expect(
        page.locator("#board-title").filter(has_text=re.compile(f"^{re.escape(heading)}$"))
    ).to_have_count(0)
    # The old page is gone once the new one has begun: wait for all of it before looking for
    # the next board, or a page still arriving would look like a table with no board left.
    page.wait_for_load_state("load")


def go_to(page: Page, url: str) -> None:
    """Open ``url``. A page that follows the session reloads itself when the director changes
    the movement; a navigation of ours that such a reload cuts short is made again."""
    try:
        page.goto(url)
    except PlaywrightError as error:
        if "ERR_ABORTED" not in str(error):
            raise
        page.goto(url)


def phone_at_tables(
    page: Page,
    links: list[str],
    tables: list[int],
    rounds: int,
    entered: list[tuple[int, int, int, dict[str, str]]],
    rng: random.Random,
) -> Iterator[None]:
    """A phone that walks its tables round after round, entering one result per step."""
    for round_ in range(1, rounds + 1):
        for table in tables:
            go_to(page, f"{links[table - 1]}?round={round_}")
            while page.locator("#board-title").count():
                board = int(page.locator("#board-title").inner_text().split()[-1])
                fields = random_result(rng)
                tap_result(page, fields)
                entered.append((round_, table, board, fields))
                yield


# A whole session of taps takes a minute or so: each movement on one of the two databases.
@pytest.mark.parametrize(
    "kind,tables,served_app",
    [("mitchell", 7, "sqlite"), ("howell", 5, "postgresql")],
    indirect=["served_app"],
)
def test_three_phones_enter_a_whole_session_and_the_ranking_is_right(
    browser: Browser, live_server: str, kind: str, tables: int
) -> None:
    director = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    links = start_session(director, live_server, kind, tables)
    movement = (mitchell if kind == "mitchell" else howell)(tables, 3)
    phones = [browser.new_context(viewport=PHONE, locale="en-GB").new_page() for _ in range(3)]
    shares = [list(range(1, tables + 1))[index::3] for index in range(3)]
    entered: list[tuple[int, int, int, dict[str, str]]] = []
    walkers = [
        phone_at_tables(phone, links, share, movement.rounds, entered, random.Random(index))
        for index, (phone, share) in enumerate(zip(phones, shares, strict=True))
    ]
    while walkers:  # one result on each phone in turn: the three enter at once
        for walker in list(walkers):
            if next(walker, StopIteration) is StopIteration:
                walkers.remove(walker)
    assert len(entered) == sum(len(s.boards) for s in movement.seatings)
    no_sideways_scroll(phones[0])

    counted = []
    for round_, table, board, fields in entered:
        seating = next(s for s in movement.round_seatings(round_) if s.table == table)
        ns, ew = (
            (("NS", seating.ns), ("EW", seating.ew))
            if kind == "mitchell"
            else (seating.ns, seating.ew)
        )
        counted.append((board, ns, ew, ns_score(board, fields)))
    expected = independent_ranking(counted)

    # The director's page follows the session by itself (a reload of ours could cut across
    # its own): the last result shows there within a poll or two.
    expect(director.get_by_text(f"Results in: {len(entered)} of {len(entered)}")).to_be_visible(
        timeout=20_000
    )
    shown = ranking_rows(director.content())
    assert len(shown) == len(expected)
    for _place, pair, pct in shown:
        if kind == "mitchell":
            direction, number = pair.split(" ")
            key: object = (direction, int(number))
        else:
            key = int(pair.split(" ")[1])
        assert pct == f"{float(expected[key][1]):.2f}", pair
    for phone in phones:
        phone.context.close()
    director.context.close()


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_the_printouts_fit_their_pages(browser: Browser, live_server: str, tmp_path: Path) -> None:
    """A whole 7-table Mitchell (each result posted as the table's form would send it), then
    each printout: the ranking and the travellers on
    one A4 page, one table card a page, score cards without a card cut across pages."""
    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    links = start_session(page, live_server, "mitchell", 7)
    movement = mitchell(7, 3)
    rng = random.Random(7)
    for round_ in range(1, movement.rounds + 1):
        for table in range(1, 8):
            for _board in range(3):
                page.goto(f"{links[table - 1]}?round={round_}")
                form = page.locator("form.deal-entry")
                action = form.get_attribute("action")
                fields = {
                    "csrf_token": form.locator("[name=csrf_token]").input_value(),
                    "drawn_from": form.locator("[name=drawn_from]").input_value(),
                    **random_result(rng),
                }
                response = page.request.post(
                    live_server + str(action), form=fields, max_redirects=0
                )
                assert response.status == 302
    base = page.url.split("/table/")[0]
    no_sideways_scroll(page)
    for name, most in (("ranking", 1), ("travellers", 3), ("movement", 8), ("cards", 14)):
        page.goto(f"{base}/{name}")
        pdf = tmp_path / f"club-{name}.pdf"
        page.pdf(path=str(pdf), format="A4", print_background=True, prefer_css_page_size=True)
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
        count = pages(info.stdout)
        # Each sheet prints, and on no more A4 pages than a director would hand out or pin up.
        assert 1 <= count <= most, (name, count)
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / pdf.name).write_bytes(pdf.read_bytes())


def test_a_ranking_of_44_pairs_prints_from_the_first_page(
    page: Page, live_server: str, tmp_path: Path
) -> None:
    """The FFB session read from its file: one field of 44 pairs. Its ranking starts under
    the title of page 1, not on page 2."""
    page.goto(live_server + "/club/import")
    page.set_input_files("input[type=file]", str(FFB))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("heading", name="Ranking", exact=True)).to_be_visible()
    page.goto(page.url + "/ranking")
    pdf = tmp_path / "club-ranking-44.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True, prefer_css_page_size=True)
    first = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", "-layout", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    places = re.findall(r"^\s*(\d+)=?\s+Pair \d+", first, re.MULTILINE)
    assert len(places) >= 20, first  # the first page holds the ranking's first half at least
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    assert pages(info.stdout) <= 2
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / pdf.name).write_bytes(pdf.read_bytes())


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_an_arrow_switched_mitchell_is_played_on_a_phone_and_ranked_as_one_field(
    browser: Browser, live_server: str
) -> None:
    director = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    links = start_session(director, live_server, "mitchell", 3)
    director.get_by_text("Arrow switch", exact=True).click()
    director.get_by_role("group", name="Rounds with an arrow switch").get_by_label(
        "Round 3"
    ).check()
    director.get_by_role("button", name="Set the arrow switch").click()
    expect(director.get_by_role("status")).to_contain_text("Arrow switch in round 3:")
    no_sideways_scroll(director)
    director.get_by_text("Arrow switch: round 3").click()
    director.locator("details", has_text="Arrow switch: round 3").screenshot(
        path=str(ARTIFACTS / "club-arrow-switch-director.png")
    )
    movement = mitchell(3, 3).with_arrow_switch({3})

    phone = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    entered: list[tuple[int, int, int, dict[str, str]]] = []
    walker = phone_at_tables(phone, links, [1, 2, 3], movement.rounds, entered, random.Random(3))
    for _step in walker:
        round_, table = entered[-1][:2]
        if round_ == 2 and len([e for e in entered if e[:2] == (2, table)]) == 3:
            # Past round 2 the table's phone tells East-West they sit North-South next.
            expect(phone.locator(".hint.move")).to_contain_text("East-West go to table")
            expect(phone.locator(".hint.move")).to_contain_text("(North-South)")
    phone.goto(f"{links[0]}?round=3")
    expect(phone.get_by_text("Arrow switch this round: EW 2 sit North-South")).to_be_visible()
    expect(phone.locator(".pairs-at-table")).to_contain_text("North-South EW 2")
    no_sideways_scroll(phone)
    phone.screenshot(path=str(ARTIFACTS / "club-arrow-switch-phone.png"))

    counted = []
    for round_, table, board, fields in entered:
        seating = movement.round_seatings(round_)[table - 1]
        (north, north_side), (east, east_side) = seating.at(Side.NS), seating.at(Side.EW)
        counted.append(
            (board, (north_side.value, north), (east_side.value, east), ns_score(board, fields))
        )
    expected = independent_ranking(counted)
    director = opened_anew(director, director.url)
    expect(director.get_by_text("Results in: 27 of 27")).to_be_visible()
    shown = ranking_rows(director.content())
    assert len(shown) == 6 == len(expected)
    percents = [float(pct) for _place, _pair, pct in shown]
    assert percents == sorted(percents, reverse=True)  # one ranking for the room
    for _place, pair, pct in shown:
        direction, number = pair.split(" ")
        assert pct == f"{float(expected[direction, int(number)][1]):.2f}", pair
    # The printed score cards: a switched round's "(you sat North-South)" no larger than its row.
    director.goto(director.url + "/cards")
    director.emulate_media(media="print")
    rows = director.locator(".score-card tbody tr").evaluate_all(
        """rows => rows.map(row => [...row.querySelectorAll("td, td *")].map(
               (cell) => [cell.tagName, parseFloat(getComputedStyle(cell).fontSize)]))"""
    )
    assert any(len(row) > 6 for row in rows), "no switched round on the cards"
    for row in rows:
        row_size = max(size for tag, size in row if tag == "TD")
        assert all(size <= row_size for _tag, size in row), row
    director.context.close()
    phone.context.close()


@pytest.mark.parametrize("served_app", ["postgresql"], indirect=True)
def test_a_late_pair_arrives_in_round_2_and_the_mitchell_becomes_8_tables(
    browser: Browser, live_server: str
) -> None:
    director = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    links = start_session(director, live_server, "mitchell", 7, boards_per_round=1)
    session = director.url
    phone = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    rng = random.Random(8)
    entered: list[tuple[int, int, int, dict[str, str]]] = []
    for _step in phone_at_tables(phone, links, list(range(1, 8)), 1, entered, rng):
        pass
    assert len(entered) == 7

    director = opened_anew(director, session)
    director.get_by_text("Late pairs: one more table").click()
    director.get_by_label("The new table plays from round").select_option("2")
    director.get_by_role("radio", name="One: a North-South pair sits out each round").check()
    director.get_by_label("The North-South pair's players (optional)").fill("Zoé – Yann")
    director.locator("details", has_text="Late pairs: one more table").screenshot(
        path=str(ARTIFACTS / "club-added-table-director.png")
    )
    director.get_by_role("button", name="Add the table").click()
    expect(director.get_by_role("status")).to_contain_text("Table 8 plays from round 2")
    no_sideways_scroll(director)
    links = table_links(director, live_server, 8)
    movement = mitchell(7, 1).with_added_table(2, pairs=1)

    for _step in phone_at_tables(phone, links, list(range(1, 9)), 7, entered, rng):
        pass
    sat_out = []
    for seating in movement.seatings:
        if seating.round > 1 and movement.sits_out(seating):
            phone.goto(f"{links[seating.table - 1]}?round={seating.round}")
            expect(phone.locator(".winner")).to_contain_text("sits out this round")
            sat_out.append(seating.ns)
    assert len(sat_out) == len(set(sat_out)) == 6  # a different pair each round
    phone.goto(f"{links[7]}?round=2")
    expect(phone.locator(".pairs-at-table")).to_contain_text("North-South NS 8")
    expect(phone.locator(".pairs-at-table")).to_contain_text("Zoé – Yann")
    no_sideways_scroll(phone)
    phone.screenshot(path=str(ARTIFACTS / "club-added-table-phone.png"), full_page=True)
    assert len(entered) == 7 + 6 * 7

    counted = []
    for round_, table, board, fields in entered:
        seating = movement.round_seatings(round_)[table - 1]
        counted.append((board, ("NS", seating.ns), ("EW", seating.ew), ns_score(board, fields)))
    expected = independent_ranking(counted)
    director = opened_anew(director, session)
    expect(director.get_by_text("Results in: 49 of 49")).to_be_visible()
    shown = ranking_rows(director.content())
    assert len(shown) == 15 == len(expected)
    for _place, pair, pct in shown:
        direction, number = pair.split(" ")
        assert pct == f"{float(expected[direction, int(number)][1]):.2f}", pair
    director.goto(f"{session}/movement")
    expect(director.locator(".movement-grid")).to_contain_text("not there yet")
    no_sideways_scroll(director)
    director.context.close()
    phone.context.close()


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_a_result_entered_for_the_wrong_board_is_moved_by_the_director(
    browser: Browser, live_server: str
) -> None:
    director = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    links = start_session(director, live_server, "mitchell", 3)
    session = director.url
    phone = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    phone.goto(links[0])
    expect(phone.locator("#board-title")).to_have_text("Board 1")
    # The table picked up board 2 first, and entered its result as board 1's.
    four_spades = {"level": "4", "strain": "S", "declarer": "N", "doubled": "0", "result": "1"}
    tap_result(phone, four_spades)

    director = opened_anew(director, f"{session}/results/1/1/1")
    director.get_by_label("The board this table played").select_option("2")
    director.get_by_role("button", name="Move the result to this board").click()
    expect(director.get_by_role("status")).to_contain_text(
        "The result of board 1 at table 1 is now board 2's"
    )
    expect(director.get_by_text("moved to board 2, where it was played")).to_have_count(1)
    no_sideways_scroll(director)

    # The phone asks for board 1 again; board 2 is in, as the pairs played it.
    phone.goto(links[0])
    expect(phone.locator("#board-title")).to_have_text("Board 1")
    expect(phone.get_by_text("Board 2", exact=True)).to_be_visible()
    expect(phone.locator("li", has_text="Board 2")).to_contain_text("4♠ N +1")
    director = opened_anew(director, f"{session}/travellers")
    board_2 = director.locator("table", has=director.get_by_text("Board 2 ·"))
    expect(board_2.locator("tbody tr")).to_have_count(1)
    expect(board_2.locator("tbody tr").first).to_contain_text("4♠ N +1")
    board_1 = director.locator("table", has=director.get_by_text("Board 1 ·"))
    expect(board_1.locator("tbody tr")).to_have_count(0)
    director.context.close()
    phone.context.close()
