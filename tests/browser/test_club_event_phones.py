"""A simultaneous of three clubs on real phones: the organiser sets the event up, two clubs
join it by its link and play their sections on their own phones, a third scores on its own
computer and uploads its file; the organiser's ranking is the one counted by hand across the
field, and a table of the club that starts later sees nothing of a board the other club has
played before its own table has played it."""

from __future__ import annotations

import random
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Error, Page, Response, expect

from scorekeeper.rules.movements import mitchell
from tests.browser.conftest import PHONE
from tests.browser.test_ascenseur_phone import no_sideways_scroll
from tests.browser.test_club_phones import (
    choose_tables,
    phone_at_tables,
    start_session,
    table_links,
)
from tests.browser.test_sheet_print import ARTIFACTS
from tests.web.test_club import ns_score
from tests.web.test_club_event import event_rows, ranked_as_counted
from tests.web.test_club_field import counted_by_hand

Played = list[tuple[int, int, int, int]]


def go(page: Page, url: str) -> Response | None:
    """``page.goto(url)``: a page following its game may reload itself at the very moment it
    is sent to the same address, and the browser then takes the page's own reload instead of
    this navigation (the same page, as fresh): that one is waited for."""
    try:
        return page.goto(url)
    except Error as error:
        if "interrupted by another navigation" not in str(error):
            raise
        page.wait_for_load_state()
        return page.goto(url)


def to_event_ranking(page: Page, section: str) -> None:
    """The player follows the section page's link to the event's ranking, and the ranking is
    loaded before it is read: the click alone returns while the section page is still shown."""
    go(page, section)
    page.get_by_role("link", name="The event's ranking, every club").click()
    page.wait_for_url(section + "/field")
    page.wait_for_load_state()


def new_phone(browser: Browser) -> Page:
    return browser.new_context(viewport=PHONE, locale="en-GB").new_page()


def set_up_event(page: Page, base: str) -> str:
    """The organiser's phone sets the event up; the clubs' link its page gives."""
    go(page, base + "/club/new")
    page.get_by_role("link", name="Or organise a simultaneous pairs across clubs.").click()
    page.get_by_label("Event").fill("Charity simultaneous")
    page.get_by_label("Played on").fill("2026-12-02")
    page.get_by_label("Boards dealt here").fill("24")
    page.get_by_role("button", name="Set up the event").click()
    expect(page.get_by_text("The event is set up")).to_be_visible()
    link = page.get_by_label("Link clubs join the event by").input_value()
    return base + urlsplit(link).path


def join(page: Page, base: str, clubs_link: str, club: str, tables: int) -> list[str]:
    """A club's director opens the clubs' link and starts the club's section."""
    go(page, clubs_link)
    page.get_by_role("link", name="Set up your club's section").click()
    page.get_by_label("Club").fill(club)
    choose_tables(page, tables, 2)
    page.get_by_role("button", name="Start your club's section").click()
    expect(page.get_by_role("heading", name="Ranking", exact=True)).to_be_visible()
    return table_links(page, base, tables)


def play(page: Page, links: list[str], tables: int, seed: int) -> Played:
    movement = mitchell(tables, 2)
    entered: list[tuple[int, int, int, dict[str, str]]] = []
    for _step in phone_at_tables(
        page, links, list(range(1, tables + 1)), movement.rounds, entered, random.Random(seed)
    ):
        pass
    played = []
    for round_, table, board, fields in entered:
        seating = next(s for s in movement.round_seatings(round_) if s.table == table)
        played.append((board, seating.ns, seating.ew, ns_score(board, fields)))
    assert len(played) == sum(len(s.boards) for s in movement.seatings)
    return played


def close(director: Page, section_url: str) -> None:
    go(director, section_url)
    director.get_by_role("button", name="Close the session").click()
    expect(director.get_by_text("The session is closed.")).to_be_visible()


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_three_clubs_one_uploading_rank_as_one_field_and_a_later_club_sees_nothing_early(
    browser: Browser, live_server: str
) -> None:
    organiser = new_phone(browser)
    clubs_link = set_up_event(organiser, live_server)
    field_url = organiser.url

    lyon, nantes = new_phone(browser), new_phone(browser)
    lyon_links = join(lyon, live_server, clubs_link, "Lyon", 3)
    lyon_section = lyon.url
    nantes_links = join(nantes, live_server, clubs_link, "Nantes", 4)
    nantes_section = nantes.url

    tables = new_phone(browser)
    played = {"A": play(tables, lyon_links, 3, 1)}
    close(lyon, lyon_section)

    # Nantes has not begun: its table phones and players see nothing of Lyon's boards.
    player = new_phone(browser)
    to_event_ranking(player, nantes_section)
    expect(player.get_by_text("No result yet.").first).to_be_visible()
    expect(player.get_by_text("Lyon")).to_have_count(0)
    go(player, nantes_links[0] + "/travellers")
    expect(player.get_by_text(re.compile(r"^Board \d+"))).to_have_count(0)
    answer = go(player, lyon_section + "/hands/print")
    assert answer is not None and answer.status == 403

    played["B"] = play(tables, nantes_links, 4, 2)
    close(nantes, nantes_section)

    # Rennes scored on the club's own computer: its game file, uploaded by its director.
    rennes = new_phone(browser)
    own_links = start_session(rennes, live_server, "mitchell", 3, 2)
    own_section = rennes.url
    played["C"] = play(tables, own_links, 3, 3)
    close(rennes, own_section)
    game_file = rennes.request.get(own_section + "/game.json")
    assert game_file.ok
    go(rennes, clubs_link)
    rennes.get_by_label("Club").fill("Rennes")
    rennes.locator("input[type=file]").set_input_files(
        files=[{"name": "rennes.json", "mimeType": "application/json", "buffer": game_file.body()}]
    )
    rennes.get_by_role("button", name="Upload").click()
    expect(rennes.get_by_text("The game was imported.")).to_be_visible()

    expected = counted_by_hand(played, {"A": 3, "B": 4, "C": 3})
    go(organiser, field_url)
    expect(organiser.get_by_text("Results in: 18 of 18")).to_have_count(2)
    expect(organiser.get_by_text("uploaded from its file")).to_be_visible()
    shown = ranked_as_counted(organiser.content(), expected)
    no_sideways_scroll(organiser)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    organiser.screenshot(path=str(Path(ARTIFACTS) / "club-event-360.png"), full_page=True)

    # Every club has closed, but another may still join: nothing is public yet.
    answer = go(player, lyon_section + "/hands/print")
    assert answer is not None and answer.status == 403
    # The organiser closes the event: the hands and the event's ranking are everyone's.
    organiser.get_by_role("button", name="Close the event: no more clubs").click()
    expect(organiser.get_by_text("The event is closed: no club joins it any more.")).to_be_visible()
    answer = go(player, lyon_section + "/hands/print")
    assert answer is not None and answer.status == 200
    to_event_ranking(player, nantes_section)
    assert event_rows(player.content()) == shown
    for phone in (organiser, lyon, nantes, tables, player, rennes):
        # The page first, then its context: a context closed with its page still open once
        # hung in Chromium's teardown until the test's time ran out.
        phone.close()
        phone.context.close()
