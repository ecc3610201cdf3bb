"""The round page on a 360 × 740 phone: everything a round needs on the first screen; the
keypad's keys struck out for the number refused alone; the page's own words (never the browser's
bubble), at once and once, for a bid left out or refused and tricks that do not add up; and bids
sent by mistake taken back from the tricks in one tap."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorekeeper.ascenseur.models import AscenseurGame
from scorekeeper.extensions import db
from scorekeeper.rules import ascenseur as rules
from tests.browser.test_ascenseur_phone import FOUR, Taps, start_game
from tests.browser.test_round_on_one_screen import PRESET, hidden, open_as_scorer
from tests.games import play_out, store_game

SIX = ("Anne", "Bruno", "Chloé", "Denis", "Élodie", "François")
SEVEN = (*SIX, "Gaston")


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
def test_the_outcome_and_the_keypad_are_on_the_first_screen(
    page: Page, live_server: str, players: int
) -> None:
    preset = r"Ascenseur à charge\s+2 to" if players > 5 else r"Ascenseur\s+2 to 5"
    start_game(page, live_server, SIX[:players], preset=preset)
    play_first_round(page, SIX[:players])
    assert page.evaluate("window.scrollY") == 0
    on_screen(page, ".last-round summary")  # the round just played, each player's points
    on_screen(page, ".keypad")
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
        expect(page.locator(".keypad")).to_be_visible()  # the round page, not the form
        play_first_round(page, names)
        grid = page.locator(".history .scroll")
        assert grid.evaluate("el => el.scrollWidth <= el.clientWidth"), locale
        for button in page.locator("main button, main .button").all():
            box = button.bounding_box()
            if box:
                assert box["height"] < 56, (locale, button.inner_text())
        context.close()


def said_once(page: Page, words: str) -> None:
    """``words`` shown in the page, and exactly once."""
    expect(page.locator("main")).to_contain_text(words, use_inner_text=True)
    shown = page.locator("main").inner_text()
    assert shown.count(words) == 1, shown


def struck_keys(page: Page) -> list[str]:
    return page.locator(".keypad button:disabled").all_inner_texts()


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
@pytest.mark.parametrize("players", range(3, 8))
def test_a_dealers_number_that_becomes_forbidden_lights_the_dealer_and_strikes_that_key_alone(
    page: Page, served_app: Flask, live_server: str, players: int
) -> None:
    # Round 7, seven cards: the dealer's 1 is tapped first; the others' 6, 0, 0 ... then make it
    # the number that would add up to 7.
    variant = rules.PRESETS[PRESET]
    plan = rules.plan_game(variant, players, 0)[6]
    names = SEVEN[:players]
    assert plan.cards == 7 and plan.hook
    entries = play_out(variant, players, 0, seed=players, rounds=6)
    game_id = store_game(served_app, PRESET, names, entries)
    open_as_scorer(page, live_server, served_app, game_id)
    dealer, *others = (names[seat] for seat in (plan.dealer, *plan.bidding_order[:-1]))
    taps = Taps(page)
    expect(page.get_by_text("Round 7 of")).to_be_visible()
    taps.number(dealer, 1)
    expect(taps.line(others[0])).to_have_class(re.compile("current"))
    for name, bid in zip(others, [plan.cards - 1] + [0] * len(others), strict=False):
        assert struck_keys(page) == []  # no number is forbidden until the others have bid
        taps.number(name, bid)
    expect(taps.line(dealer)).to_have_class(re.compile("current"))
    expect(taps.line(dealer)).to_have_class(re.compile("invalid"))
    assert struck_keys(page) == ["1"]
    expect(page.locator(".keypad button.chosen")).to_have_count(0)
    said_once(page, f"{dealer} may not bid 1: the bids would add up to 7. Choose another bid.")
    expect(page.get_by_role("button", name="Confirm the bids")).to_be_hidden()
    assert "/rounds/" not in page.url  # every bid in, but not sent
    taps.tap(taps.key(2))  # the dealer's line is lit: one tap, and the bids are sent
    taps.bids_sent()
    with served_app.app_context():
        game = db.session.get(AscenseurGame, game_id)
        assert game is not None
        assert game.rounds[-1].bids[plan.dealer] == 2


def open_round(page: Page, app: Flask, base: str, number: int, preset: str = "ascenseur") -> str:
    """Four players' game at round ``number``, as its scorer sees it; the game's id."""
    variant = rules.PRESETS[preset]
    entries = play_out(variant, 4, 0, seed=4, rounds=number - 1)
    game_id = store_game(app, preset, FOUR, entries)
    open_as_scorer(page, base, app, game_id)
    return game_id


def to_the_tricks(page: Page) -> list[str]:
    """Everyone bids nothing (the dealer 1 if need be); the players in bidding order."""
    order = [page.locator(".seat-line .who").nth(n).inner_text() for n in range(4)]
    keys = page.locator(".keypad")
    for _name in order:
        zero = keys.get_by_role("button", name="0", exact=True)
        (zero if zero.is_enabled() else keys.get_by_role("button", name="1", exact=True)).click()
    expect(page.locator("form.tricks")).to_be_visible()
    return order


def tricks_stored(app: Flask, game_id: str) -> list[int] | None:
    with app.app_context():
        game = db.session.get(AscenseurGame, game_id)
        assert game is not None
        return game.rounds[-1].tricks


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_tricks_that_add_up_to_too_many_say_so_at_once_and_once(
    page: Page, served_app: Flask, live_server: str
) -> None:
    game_id = open_round(page, served_app, live_server, 3)  # three cards
    first, second, third, fourth = to_the_tricks(page)
    taps = Taps(page)
    taps.number(first, 3)
    for name in (second, third, fourth):
        expect(taps.value(name)).to_have_text("0")  # nobody else took a trick
    taps.number(third, 1)
    for name, value in ((first, "3"), (second, "0"), (third, "1"), (fourth, "0")):
        expect(taps.value(name)).to_have_text(value)  # the zeros stay
    said_once(page, "The tricks add up to 4, not 3.")
    expect(page.locator("form.tricks .count")).to_have_class(re.compile("error"))
    expect(taps.line(third)).to_have_class(re.compile("current"))
    assert struck_keys(page) == []
    assert "Enter" not in page.locator("main").inner_text()
    taps.confirm("tricks")
    said_once(page, "The tricks add up to 4, not 3.")  # nothing sent, and nothing said twice
    assert tricks_stored(served_app, game_id) is None
    taps.number(first, 2)
    expect(page.locator("form.tricks .count")).to_have_text("3 of 3 tricks entered")
    taps.confirm("tricks")
    expect(page.get_by_text("Round 4 of")).to_be_visible()
    assert tricks_stored(served_app, game_id) == [{first: 2, third: 1}.get(n, 0) for n in FOUR]


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_tricks_that_add_up_to_too_few_say_so_at_once(
    page: Page, served_app: Flask, live_server: str
) -> None:
    open_round(page, served_app, live_server, 4)  # four cards
    order = to_the_tricks(page)
    taps = Taps(page)
    for name in order[:3]:
        taps.number(name, 1)
    expect(taps.value(order[3])).to_have_text("1")  # filled in
    expect(page.locator("form.tricks .count")).to_have_text("4 of 4 tricks entered")
    taps.number(order[3], 0)
    said_once(page, "The tricks add up to 3, not 4.")


def test_a_french_phone_is_told_the_total_in_french(browser: Browser, live_server: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR")
    page = context.new_page()
    page.goto(live_server + "/ascenseur/new/ascenseur")
    for number, name in enumerate(FOUR, start=1):
        page.get_by_role("textbox", name=f"Joueur {number}", exact=True).fill(name)
    page.locator("button.primary[value=start]").click()
    play_first_round(page, FOUR)
    order = to_the_tricks(page)  # round 2, two cards
    taps = Taps(page)
    taps.number(order[0], 2)
    taps.number(order[1], 1)
    said_once(page, "Total des plis\u00a0: 3 au lieu de 2.")
    context.close()


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_a_total_the_server_refuses_is_said_once(
    page: Page, served_app: Flask, live_server: str
) -> None:
    game_id = open_round(page, served_app, live_server, 3)
    to_the_tricks(page)
    # Sent as a phone without the script would send it (past the page's own check).
    page.evaluate(
        """() => {
            const form = document.querySelector("form.tricks");
            form.querySelectorAll("fieldset.numbers").forEach((row) => {
                row.querySelector('input[value="1"]').checked = true;
            });
            form.submit();
        }"""
    )
    expect(page.locator("form.tricks .count")).to_have_text("The tricks add up to 4, not 3.")
    said_once(page, "The tricks add up to 4, not 3.")
    expect(page.locator(".error-summary")).to_have_count(0)
    assert tricks_stored(served_app, game_id) is None


def test_without_javascript_a_wrong_total_is_said_once_where_the_count_is(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="en-GB", java_script_enabled=False
    )
    page = context.new_page()
    start_game(page, live_server, FOUR)
    taps = Taps(page)
    for name in ("Bruno", "Chloé", "Denis", "Anne"):
        taps.number(name, 0)
    page.get_by_role("button", name="Confirm the bids").click()
    for name in ("Bruno", "Chloé", "Denis", "Anne"):
        taps.number(name, 1)
    page.get_by_role("button", name="Confirm the tricks").click()
    words = "The tricks add up to 4, not 1: they must add up to the number of cards dealt."
    expect(page.locator("form.tricks .count")).to_have_text(words)
    said_once(page, words)
    for name in ("Bruno", "Chloé", "Denis", "Anne"):  # nothing entered is lost
        expect(taps.player(name).get_by_role("radio", name="1", exact=True)).to_be_checked()
    context.close()


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_with_the_standings_open_no_key_is_under_a_button(
    page: Page, served_app: Flask, live_server: str
) -> None:
    plan = rules.plan_game(rules.PRESETS["ascenseur"], 4, 0)[11]
    assert plan.cards == 12 and plan.hook
    open_round(page, served_app, live_server, 12)
    page.locator(".last-round summary").click()
    expect(page.locator(".standings")).to_be_visible()
    shown = [".seat-line", ".seat-line .value", ".keypad button", "form.bids .forbidden"]
    assert hidden(page, shown, first_screen=False) == []
    taps = Taps(page)
    for bid in (1, 2, 3):  # the note now names the dealer's forbidden number: 6
        taps.tap(taps.key(bid))
    expect(page.locator("form.bids .forbidden")).to_contain_text("may not bid 6")
    assert hidden(page, shown, first_screen=False) == []
    taps.tap(taps.key(0))
    taps.bids_sent()
    page.locator(".last-round summary").click()
    expect(page.locator(".standings")).to_be_visible()
    shown = [".seat-line", ".seat-line .value", ".keypad button", "form.tricks .confirm"]
    assert hidden(page, [*shown, ".take-back button"], first_screen=False) == []


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_a_bid_the_server_refuses_is_said_once_under_the_keypad(
    page: Page, served_app: Flask, live_server: str
) -> None:
    open_round(page, served_app, live_server, 1)
    taps = Taps(page)
    for name in ("Bruno", "Denis"):
        taps.number(name, 0)
    expect(page.get_by_role("button", name="Confirm the bids")).to_be_hidden()  # nothing to send
    page.evaluate("document.querySelector('form.bids').submit()")  # as without the script
    said_once(page, "Enter Chloé's bid.")
    said_once(page, "Enter Anne's bid.")
    expect(page.locator(".keypad-errors")).to_have_text("Enter Chloé's bid. Enter Anne's bid.")
    expect(page.locator(".error-summary")).to_be_hidden()  # it would say the same again
    expect(taps.line("Chloé")).to_have_class(re.compile("current"))
    expect(taps.line("Chloé")).to_have_class(re.compile("invalid"))
    expect(taps.value("Bruno")).to_have_text("0")  # nothing entered is lost
    taps.number("Chloé", 0)
    expect(taps.line("Chloé")).not_to_have_class(re.compile("invalid"))
    expect(page.locator(".keypad-errors")).to_have_text("Enter Anne's bid.")
    expect(taps.line("Anne")).to_have_class(re.compile("current"))
    taps.number("Anne", 0)  # the others bid nothing: the dealer may not bid 1
    taps.bids_sent()


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


def test_bids_sent_by_mistake_are_taken_back_from_the_tricks_in_one_tap(
    page: Page, live_server: str
) -> None:
    start_game(page, live_server, FOUR)
    taps = Taps(page)
    confirm = page.get_by_role("button", name="Confirm the bids")
    for name, bid in (("Bruno", 1), ("Chloé", 0), ("Denis", 0)):
        expect(confirm).to_be_hidden()  # the last bid sends them: no button to look for
        taps.number(name, bid)
    taps.number("Anne", 1)
    taps.bids_sent()
    take_back = page.get_by_role("button", name="Take back the bids")
    expect(take_back).to_have_count(1)  # on the tricks step, and nowhere else
    on_screen(page, ".take-back button")
    taps.count = 0
    taps.tap(take_back)
    expect(
        page.get_by_text("Round 1: taken back. The numbers are filled in again below.")
    ).to_be_visible()
    assert taps.count == 1
    expect(taps.value("Anne")).to_have_text("1")  # filled in again, every one
    expect(taps.line("Bruno")).to_have_class(re.compile("current"))
    expect(page.locator(".keypad")).to_have_attribute("aria-label", "Bid: Bruno")
    for name in ("Denis", "Chloé"):  # numbers changed on a whole form: nothing is sent yet
        taps.number(name, 1)
        expect(taps.value(name)).to_have_text("1")
        expect(page.locator("form.bids")).to_be_visible()
    taps.confirm("bids")
    taps.bids_sent()


def test_without_javascript_the_bids_are_taken_back_from_the_tricks(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="en-GB", java_script_enabled=False
    )
    page = context.new_page()
    start_game(page, live_server, FOUR)
    taps = Taps(page)
    for name in ("Bruno", "Chloé", "Denis", "Anne"):
        taps.number(name, 0)
    page.get_by_role("button", name="Confirm the bids").click()
    expect(page.get_by_role("button", name="Confirm the tricks")).to_be_visible()
    page.get_by_role("button", name="Take back the bids").click()
    expect(page.get_by_text("Round 1: taken back.")).to_be_visible()
    for name in ("Bruno", "Chloé", "Denis", "Anne"):
        expect(taps.player(name).get_by_role("radio", name="0", exact=True)).to_be_checked()
    context.close()
