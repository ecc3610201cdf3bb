"""Two sections on real phones: the director sets up two 3-table sections of one field, a
phone in each section enters every result by tapping, one result each in turn, and the
field's ranking on the director's phone is the one counted by hand across the field."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from scorekeeper.rules.movements import mitchell
from tests.browser.conftest import PHONE
from tests.browser.test_ascenseur_phone import no_sideways_scroll
from tests.browser.test_club_phones import choose_tables, phone_at_tables, table_links
from tests.browser.test_sheet_print import ARTIFACTS
from tests.web.test_club import ns_score, ranking_rows
from tests.web.test_club_field import counted_by_hand, shown_pairs, two_places


def start_field(page: Page, base: str, tables: int, sections: int) -> None:
    page.goto(base + "/club/new")
    page.get_by_role("radio", name=re.compile("^Mitchell:")).check()
    choose_tables(page, tables, 2)
    page.get_by_role("group", name="Sections").get_by_role(
        "radio", name=str(sections), exact=True
    ).click()
    page.get_by_role("button", name="Start the session").click()
    expect(page.get_by_text("Section A", exact=True)).to_be_visible()


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_two_sections_entered_on_phones_rank_across_the_field(
    browser: Browser, live_server: str
) -> None:
    director = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    start_field(director, live_server, 3, 2)
    director.get_by_role("link", name="The field: every section and its ranking").click()
    field_url = director.url
    sections = {}
    for name in ("A", "B"):
        director.goto(field_url)
        director.get_by_role("link", name=f"Section {name}", exact=True).click()
        sections[name] = table_links(director, live_server, 3)
    movement = mitchell(3, 2)
    phones = {
        name: browser.new_context(viewport=PHONE, locale="en-GB").new_page() for name in sections
    }
    entered: dict[str, list[tuple[int, int, int, dict[str, str]]]] = {"A": [], "B": []}
    walkers = [
        phone_at_tables(
            phones[name],
            sections[name],
            [1, 2, 3],
            movement.rounds,
            entered[name],
            random.Random(seed),
        )
        for seed, name in enumerate(sections)
    ]
    while walkers:  # one result on each phone in turn: both sections enter at once
        for walker in list(walkers):
            if next(walker, StopIteration) is StopIteration:
                walkers.remove(walker)
    played = {}
    for name, results in entered.items():
        assert len(results) == sum(len(s.boards) for s in movement.seatings)
        played[name] = []
        for round_, table, board, fields in results:
            seating = next(s for s in movement.round_seatings(round_) if s.table == table)
            played[name].append((board, seating.ns, seating.ew, ns_score(board, fields)))
    expected = counted_by_hand(played, {"A": 3, "B": 3})

    director.goto(field_url)
    expect(director.get_by_text("Results in: 18 of 18")).to_have_count(2)
    shown = shown_pairs(director.content())
    assert set(shown) == set(expected)
    for pair, (_place, pct) in shown.items():
        assert pct == two_places(expected[pair]), pair
    no_sideways_scroll(director)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    director.screenshot(path=str(Path(ARTIFACTS) / "club-field-360.png"), full_page=True)
    # A section's own page ranks its pairs by the same figures.
    director.get_by_role("link", name="Section B", exact=True).click()
    director.wait_for_url(lambda url: url != field_url)
    director.wait_for_load_state()
    section_rows = ranking_rows(director.content())
    assert len(section_rows) == len([pair for pair in expected if pair[0] == "B"])
    for _place, pair, pct in section_rows:
        direction, number = pair.split(" ")
        assert pct == two_places(expected[("B", direction, int(number))])
    for phone in phones.values():
        phone.context.close()
    director.context.close()
