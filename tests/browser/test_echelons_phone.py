"""Échelons on a 360 × 740 phone: a few patience games logged in two taps each, the statistics
and the chart; a race game and its tally."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.test_ascenseur_phone import Taps, no_sideways_scroll, serious_violations


def start(page: Page, base: str, *names: str) -> None:
    page.goto(base + "/")
    page.get_by_role("link", name="Échelons (patience)").click()
    if len(names) == 2:
        page.get_by_label("A race match between two players").check()
        page.get_by_role("textbox", name="Second player (a race)").fill(names[1])
    page.get_by_role("textbox", name="Player", exact=True).fill(names[0])
    page.get_by_role("button", name="Start").click()


def test_a_patience_log_in_two_taps_a_game(page: Page, live_server: str) -> None:
    start(page, live_server, "Zoé")
    taps = Taps(page)
    taps.tap(page.get_by_role("button", name="Won: all 52 cards home"))
    expect(page.get_by_role("heading", name="Game 2")).to_be_visible()
    assert taps.count == 1
    taps.count = 0
    taps.tap(page.get_by_label("Cards on the foundations"))
    page.keyboard.type("34")
    taps.tap(page.get_by_role("button", name="Log it"))
    expect(page.get_by_role("heading", name="Game 3")).to_be_visible()
    assert taps.count == 2
    page.get_by_role("button", name="Won: all 52 cards home").click()
    expect(page.get_by_role("heading", name="Game 4")).to_be_visible()
    stats = page.locator(".stats")
    expect(stats).to_contain_text("3")  # games
    expect(stats.locator("div").nth(2)).to_contain_text("1")  # wins in a row now
    assert page.locator(".patience-chart rect").count() == 3
    no_sideways_scroll(page)
    assert serious_violations(page) == []


def test_a_race_game_and_its_tally(page: Page, live_server: str) -> None:
    start(page, live_server, "Zoé", "Yann")
    page.get_by_label("Zoé: cards left").fill("0")
    page.get_by_label("Yann: cards left").fill("0")
    page.get_by_role("button", name="Log it").click()
    expect(page.locator(".error-summary")).to_contain_text(
        "Both players cannot have placed every card"
    )
    page.get_by_label("Yann: cards left").fill("9")
    page.get_by_role("button", name="Log it").click()
    expect(page.locator(".tally")).to_contain_text("Zoé 1 – 0 Yann")
    no_sideways_scroll(page)
