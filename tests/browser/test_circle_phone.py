"""A circle on a 360 × 740 phone: started from the home page, a race of Échelons played in it
between two of its people (one typed as the circle offers it), the league that follows, and
a person's own page opened from the link the circle gives them; another phone, with the
circle's address alone, sees the league and not the links."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.chromium import PHONE
from tests.browser.test_ascenseur_phone import no_sideways_scroll, serious_violations
from tests.browser.test_sheet_print import ARTIFACTS


def test_a_circle_is_started_a_game_played_in_it_and_a_person_s_page_opened(
    page: Page, live_server: str, browser: Browser
) -> None:
    page.goto(live_server + "/")
    page.get_by_role("link", name="Start a circle").click()
    page.get_by_label("The circle's name").fill("Les Martin")
    page.get_by_label("Its people, one name a line").fill("Anne\nBruno\nChloé Dupont")
    page.get_by_role("button", name="Start the circle").click()
    expect(page.get_by_role("heading", name="Les Martin")).to_be_visible()
    circle_url = page.url

    page.get_by_role("link", name="Échelons (Klondike patience)").click()
    expect(page.get_by_text("This game joins the history of Les Martin")).to_be_visible()
    page.get_by_label("A race match between two players").check()
    page.get_by_label("Player", exact=True).fill("anne")  # Anne, as typed
    page.get_by_label("Second player (a race)").fill("Bruno")
    page.get_by_role("button", name="Start").click()
    for number, (left_anne, left_bruno) in enumerate((("0", "7"), ("4", "0"), ("0", "12")), 2):
        page.get_by_label("anne: cards left").fill(left_anne)
        page.get_by_label("Bruno: cards left").fill(left_bruno)
        page.get_by_role("button", name="Log it").click()
        expect(page.get_by_role("heading", name=f"Game {number}")).to_be_visible()
        expect(page.locator(".error-summary")).to_have_count(0)
    expect(page.locator(".tally")).to_contain_text("anne 2 – 1 Bruno")

    page.goto(circle_url)
    league = page.locator("table.league")
    expect(league.locator("tbody tr")).to_have_count(2)
    expect(league.locator("tbody tr").first).to_contain_text("Anne")
    expect(league.locator("tbody tr").first.locator("td").nth(2)).to_have_text("2")  # wins
    no_sideways_scroll(page)
    assert serious_violations(page) == []
    page.screenshot(path=str(ARTIFACTS / "circle-keeper.png"), full_page=True)

    # Chloé's own page, from the link the circle gives her: she shows her initials.
    page.locator(".people summary", has_text="Chloé Dupont").click()
    link = page.get_by_label("Chloé Dupont's own page: give this link to them alone")
    chloe_url = re.sub(r"^https?://[^/]+", live_server, link.input_value())
    phone = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    phone.goto(chloe_url)
    expect(phone.get_by_role("heading", name="Chloé Dupont")).to_be_visible()
    phone.get_by_role("button", name="Show my initials instead").click()
    expect(phone.get_by_text("The circle's pages show you as: C. D.")).to_be_visible()
    no_sideways_scroll(phone)
    assert serious_violations(phone) == []

    # Anne's page shows her race record.
    page.goto(circle_url)
    page.locator(".people summary", has_text="Anne").click()
    anne_url = page.get_by_label("Anne's own page: give this link to them alone").input_value()
    phone.goto(re.sub(r"^https?://[^/]+", live_server, anne_url))
    expect(phone.get_by_text("Against Bruno: 3 races played; won: 2, lost: 1.")).to_be_visible()
    expect(phone.get_by_role("rowheader", name="Échelons races")).to_be_visible()
    phone.screenshot(path=str(ARTIFACTS / "circle-person.png"), full_page=True)

    # A phone with the circle's address alone: the league and initials, no links, no names hidden.
    viewer = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    viewer.goto(circle_url)
    expect(viewer.get_by_role("heading", name="League")).to_be_visible()
    expect(viewer.get_by_text("The circle's links")).to_have_count(0)
    expect(viewer.locator("main")).not_to_contain_text("Chloé")
    expect(viewer.locator("main")).to_contain_text("C. D.")
    no_sideways_scroll(viewer)
    viewer.context.close()
    phone.context.close()


def test_a_game_played_outside_the_circle_is_told_before_it_starts_then_added_by_a_keeper(
    page: Page, live_server: str, browser: Browser
) -> None:
    page.goto(live_server + "/circle/new")
    page.get_by_label("The circle's name").fill("Les Martin")
    page.get_by_label("Its people, one name a line").fill("Anne\nBruno")
    page.get_by_role("button", name="Start the circle").click()
    circle_url = page.url
    start = page.get_by_role("link", name="Échelons (Klondike patience)").get_attribute("href")
    assert start

    # Another phone, given the circle's link to start a game, does not keep the circle.
    phone = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    phone.goto(live_server + start)
    note = phone.get_by_text("This phone does not keep Les Martin")
    expect(note).to_be_visible()
    no_sideways_scroll(phone)
    phone.screenshot(path=str(ARTIFACTS / "circle-outside-setup.png"), full_page=True)
    phone.get_by_label("A race match between two players").check()
    phone.get_by_label("Player", exact=True).fill("anne")
    phone.get_by_label("Second player (a race)").fill("Zoé")
    phone.get_by_role("button", name="Start").click()
    phone.get_by_label("anne: cards left").fill("0")
    phone.get_by_label("Zoé: cards left").fill("5")
    phone.get_by_role("button", name="Log it").click()
    phone.get_by_text("Other phones at the table").click()
    scorer_link = phone.get_by_label("Link to keep the score").input_value()

    # The keeper pastes its scorer link, and says who each player is.
    page.goto(circle_url)
    page.get_by_text("Add a game played outside the circle").click()
    page.get_by_label("The game's scorer link").fill(scorer_link)
    page.get_by_role("button", name="Find the game").click()
    expect(page.get_by_role("heading", name="Add a game to Les Martin")).to_be_visible()
    expect(page.get_by_label("Seat 1 · anne")).to_have_value(re.compile(r"\d+"))
    expect(page.get_by_label("Seat 2 · Zoé")).to_have_value("new")
    no_sideways_scroll(page)
    assert serious_violations(page) == []
    page.screenshot(path=str(ARTIFACTS / "circle-add-game.png"), full_page=True)
    page.get_by_role("button", name="Add to the circle").click()
    expect(page.get_by_text("Joining the circle with it: Zoé.")).to_be_visible()
    league = page.locator("table.league")
    expect(league.locator("tbody tr")).to_have_count(2)
    expect(league.locator("tbody tr").first).to_contain_text("Anne")
    phone.context.close()
