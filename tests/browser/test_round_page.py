"""The round page on a 360 × 740 phone: everything a round needs on the first screen, and the
page's own words (never the browser's bubble) for a bid left out or refused."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_ascenseur_phone import FOUR, Taps, start_game

SIX = ("Anne", "Bruno", "Chloé", "Denis", "Élodie", "François")


def play_first_round(page: Page, names: tuple[str, ...]) -> None:
    """Round 1 (one card): everyone bids 0 but the dealer, who bids 1; the first bidder takes
    the trick."""
    taps = Taps(page)
    for _name in names:
        zero = taps.key(0)
        (zero if zero.is_enabled() else taps.key(1)).click()
    expect(page.locator("form.tricks")).to_be_visible()  # sent with the last bid
    taps.key(1).click()
    page.locator("button.confirm").click()
    expect(page.locator(".round-count")).to_contain_text(re.compile("(Round|Manche) 2"))


def on_screen(page: Page, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= 740, (selector, box)


@pytest.mark.parametrize("players", [4, 5, 6])
def test_the_outcome_and_the_confirm_button_are_on_the_first_screen(
    page: Page, live_server: str, players: int
) -> None:
    preset = r"Ascenseur à charge\s+2 to" if players > 5 else r"Ascenseur\s+2 to 5"
    start_game(page, live_server, SIX[:players], preset=preset)
    play_first_round(page, SIX[:players])
    assert page.evaluate("window.scrollY") == 0
    on_screen(page, ".last-round summary")  # the round just played, each player's points
    on_screen(page, "button.confirm")
    page.locator(".last-round summary").click()  # the standings, one tap away
    heading = page.get_by_role("columnheader", name="Place")
    box = heading.bounding_box()
    assert box and box["height"] < 30  # "Place" on one line, not "Plac/e"


def test_rounds_entered_fit_the_phone_for_four_players_and_buttons_keep_to_one_line(
    browser: Browser, live_server: str
) -> None:
    for locale, names in (
        ("en-GB", FOUR),
        ("fr-FR", ("Marie-Christine", "Jean-Baptiste", "Zoé", "Bartholomew")),
    ):
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale=locale)
        page = context.new_page()
        page.goto(live_server + "/ascenseur/new/ascenseur")
        for number, name in enumerate(names, start=1):
            label = "Player" if locale == "en-GB" else "Joueur"
            page.get_by_role("textbox", name=f"{label} {number}", exact=True).fill(name)
        page.locator("button.primary[value=start]").click()
        expect(page.locator("button.confirm")).to_be_visible()  # the round page, not the form
        play_first_round(page, names)
        grid = page.locator(".history .scroll")
        assert grid.evaluate("el => el.scrollWidth <= el.clientWidth"), locale
        for button in page.locator("main button, main .button").all():
            box = button.bounding_box()
            if box:
                assert box["height"] < 56, (locale, button.inner_text())
        context.close()


def test_a_dealers_early_bid_that_becomes_forbidden_is_kept_and_explained(
    page: Page, live_server: str
) -> None:
    start_game(page, live_server, FOUR)
    taps = Taps(page)
    taps.number("Anne", 0)  # Anne deals round 1 (one card) and bids first of all
    for name, bid in (("Bruno", 1), ("Chloé", 0), ("Denis", 0)):
        taps.number(name, bid)
    expect(taps.value("Anne")).to_have_text("0")
    expect(page.locator(".keypad-errors")).to_contain_text(
        "Anne may not bid 0: the bids would add up to 1."
    )
    expect(taps.line("Anne")).to_have_class(re.compile("invalid"))
    assert "/rounds/" not in page.url  # every bid in, but not sent
    taps.confirm("bids")
    expect(page.locator(".error-summary")).to_contain_text("Anne may not bid 0")
    assert "/rounds/" not in page.url  # nothing was sent
    expect(page.get_by_text("Round 1 of")).to_be_visible()
    taps.number("Anne", 1)  # the bids, whole and allowed now, are sent
    taps.bids_sent()


def test_a_missing_bid_is_named_by_the_page(page: Page, live_server: str) -> None:
    start_game(page, live_server, FOUR)
    taps = Taps(page)
    for name in ("Bruno", "Denis"):
        taps.number(name, 0)
    taps.confirm("bids")
    summary = page.locator(".error-summary")
    expect(summary).to_contain_text("Enter Chloé's bid.")
    expect(summary).to_contain_text("Enter Anne's bid.")
    expect(taps.line("Chloé")).to_have_class(re.compile("invalid"))
    assert page.evaluate("document.querySelector('form.entry').noValidate")
    summary.get_by_role("link", name="Enter Chloé's bid.").click()
    expect(taps.line("Chloé")).to_have_class(re.compile("current"))
    taps.number("Chloé", 0)
    expect(taps.line("Chloé")).not_to_have_class(re.compile("invalid"))


def test_without_javascript_the_server_names_the_missing_bid(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="en-GB", java_script_enabled=False
    )
    page = context.new_page()
    start_game(page, live_server, FOUR)
    expect(page.locator(".keypad-panel")).to_be_hidden()  # the rows of numbers are the form
    Taps(page).number("Bruno", 0)
    page.get_by_role("button", name="Confirm the bids").click()
    expect(page.locator(".error-summary")).to_contain_text("Enter Chloé's bid.")
    expect(page.locator("#row-bid_2")).to_have_class(re.compile("invalid"))
    expect(page.locator(".keypad-panel")).to_be_hidden()
    context.close()


def test_bids_given_back_by_an_undo_wait_for_their_confirmation(
    page: Page, live_server: str
) -> None:
    start_game(page, live_server, FOUR)
    taps = Taps(page)
    for name, bid in (("Bruno", 1), ("Chloé", 0), ("Denis", 0), ("Anne", 1)):
        taps.number(name, bid)
    taps.bids_sent()
    page.get_by_role("button", name="Take back round 1's bids").click()
    expect(taps.value("Anne")).to_have_text("1")  # filled in again, every one
    expect(taps.line("Bruno")).to_have_class(re.compile("current"))
    expect(page.locator(".keypad")).to_have_attribute("aria-label", "Bid: Bruno")
    for name in ("Denis", "Chloé"):  # numbers changed on a whole form: nothing is sent yet
        taps.number(name, 1)
        expect(taps.value(name)).to_have_text("1")
        expect(page.locator("form.bids")).to_be_visible()
    taps.confirm("bids")
    taps.bids_sent()
