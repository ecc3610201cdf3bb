"""The opening lead on a real phone at 360 px: the director asks for it and gives the session
the FFB hands; a table's phone taps the contract, the lead and the result; a lead from the
wrong hand is refused in the page before East-West confirm, with every tap kept; the right
declarer puts it in, and the lead shows on the board's line and in its traveller."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.test_ascenseur_phone import no_sideways_scroll
from tests.browser.test_club_phones import FFB, table_links
from tests.browser.test_sheet_print import ARTIFACTS


def tap(page: Page, group: str, name: str) -> None:
    page.get_by_role("group", name=group).get_by_role("radio", name=name, exact=True).click()


def tap_contract(page: Page, declarer: str) -> None:
    """4♠ by ``declarer`` (its seat's letter)."""
    tap(page, "Level", "4")
    tap(page, "Strain", "♠")
    page.get_by_role("group", name="Declarer").get_by_role(
        "radio", name=re.compile(f"^{declarer} ")
    ).click()


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_a_lead_from_the_wrong_hand_is_refused_on_the_phone(
    browser: Browser, live_server: str
) -> None:
    director = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    director.goto(live_server + "/club/new")
    director.get_by_role("group", name="Tables").get_by_role("radio", name="5", exact=True).click()
    director.get_by_role("radio", name=re.compile("^Asked at each table")).check()
    director.get_by_role("button", name="Start the session").click()
    links = table_links(director, live_server, 5)
    director.get_by_role("link", name="Hand records").click()
    director.get_by_label("Hand records (.pbn)").set_input_files(FFB)
    director.get_by_role("button", name="Keep these hands").click()
    expect(director.get_by_role("status")).to_contain_text("The hands of 15 boards are kept")

    phone = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    phone.goto(links[0])
    expect(phone.locator("#board-title")).to_have_text("Board 1")
    leads = phone.get_by_role("group", name="Opening lead")
    expect(leads.get_by_role("radio")).to_have_count(52)
    no_sideways_scroll(phone)

    # The lead forgotten: the phone says so before anything is sent.
    tap_contract(phone, "S")
    phone.get_by_role("button", name="made", exact=True).click()
    expect(phone.locator("#row-lead .row-errors")).to_have_text("Tap the opening lead.")

    # South as declarer, the 3♠ led: South's own card, not West's.
    tap(phone, "Opening lead", "3♠")
    phone.get_by_role("button", name="made", exact=True).click()
    refusal = "The 3♠ lead is not in West's hand: check the declarer."
    expect(phone.locator("#row-lead .row-errors")).to_have_text(refusal)
    expect(phone.locator(".error-summary")).to_contain_text(refusal)
    expect(phone.locator("#board-title")).to_have_text("Board 1")
    expect(phone.get_by_role("button", name="East-West: confirm")).to_have_count(0)
    for group, name in (("Level", "4"), ("Strain", "♠"), ("Opening lead", "3♠")):
        expect(
            phone.get_by_role("group", name=group).get_by_role("radio", name=name, exact=True)
        ).to_be_checked()
    expect(
        phone.get_by_role("group", name="Declarer").get_by_role("radio", name=re.compile("^S "))
    ).to_be_checked()
    no_sideways_scroll(phone)
    phone.screenshot(path=str(ARTIFACTS / "club-lead-refused-phone.png"), full_page=True)

    # North declared: East leads, from ♠A2.
    phone.get_by_role("group", name="Declarer").get_by_role("radio", name=re.compile("^N ")).click()
    tap(phone, "Opening lead", "A♠")
    phone.get_by_role("button", name="made", exact=True).click()
    expect(phone.locator("#board-title")).to_have_text("Board 2")
    line = phone.locator(".board-line").first
    expect(line).to_contain_text("4♠ N made")
    expect(line.locator(".lead")).to_have_text("A♠ led")
    expect(line.get_by_role("button", name="East-West: confirm")).to_be_visible()
    no_sideways_scroll(phone)
    phone.screenshot(path=str(ARTIFACTS / "club-lead-entered-phone.png"), full_page=True)

    # The lead in the board's traveller, its hands beside it, on the phone's width.
    phone.get_by_role("link", name="Travellers of the boards both pairs here have played").click()
    traveller = phone.locator(".traveller").first
    expect(traveller.get_by_role("columnheader", name="Lead")).to_be_visible()
    expect(traveller.locator("td.lead")).to_have_text("A♠")
    no_sideways_scroll(phone)
    phone.screenshot(path=str(ARTIFACTS / "club-lead-traveller-phone.png"), full_page=True)
    phone.context.close()
    director.context.close()
