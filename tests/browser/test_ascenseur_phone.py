"""The Ascenseur flow on a 360 × 740 phone in headless Chromium, by visible labels and roles."""

from __future__ import annotations

import re
from collections.abc import Sequence

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect

FOUR = ("Anne", "Bruno", "Chloé", "Denis")


class Taps:
    """Taps on the page, counted: a round must take few of them."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def tap(self, target: Locator) -> None:
        target.click()
        self.count += 1

    def player(self, name: str) -> Locator:
        """A player's row of numbers, as the page is without the script (or a correction)."""
        return self.page.get_by_role("group", name=re.compile(rf"^{name}(\s|$)"))

    def line(self, name: str) -> Locator:
        """A player's line beside the keypad."""
        lines = self.page.locator(".keypad-panel:not([hidden]) .seat-line")
        return lines.filter(has_text=re.compile(rf"^\s*{re.escape(name)}(\s|$)"))

    def key(self, value: int) -> Locator:
        panel = self.page.locator(".keypad-panel:not([hidden]) .keypad")
        return panel.get_by_role("button", name=str(value), exact=True)

    def number(self, name: str, value: int) -> None:
        """A player's number: on the keypad, the player's line tapped first unless it is lit;
        else (no script) in the player's row."""
        if self.page.locator(".keypad-panel:not([hidden])").count():
            line = self.line(name)
            if "current" not in (line.get_attribute("class") or ""):
                self.tap(line)
            self.tap(self.key(value))
        else:
            self.tap(self.player(name).get_by_role("radio", name=str(value), exact=True))

    def value(self, name: str) -> Locator:
        """What a player's line shows."""
        return self.line(name).locator(".value")

    def bids_sent(self) -> None:
        """The last bid tapped sends the bids: the tricks are asked for."""
        expect(self.page.locator("form.tricks")).to_be_visible()

    def confirm(self, what: str) -> None:
        self.tap(self.page.get_by_role("button", name=f"Confirm the {what}"))


def start_game(
    page: Page, base: str, names: Sequence[str], preset: str = r"Ascenseur\s+2 to 5"
) -> None:
    page.goto(base + "/")
    page.get_by_role("link", name="Start a game").click()
    page.get_by_role("link", name=re.compile(rf"^{preset}")).click()
    # Count the rows on the players' form, not on the page it replaces.
    expect(page.get_by_role("textbox", name="Player 1", exact=True)).to_be_visible()
    # "Add a player" posts the form and draws it again: wait for each new row
    # before counting, or a click lands on the page being replaced.
    rows = page.get_by_role("textbox")
    for count in range(rows.count() + 1, len(names) + 1):
        page.get_by_role("button", name="Add a player").click()
        expect(rows).to_have_count(count)
    for number, name in enumerate(names, start=1):
        page.get_by_role("textbox", name=f"Player {number}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_text("Round 1 of")).to_be_visible()


def totals(page: Page) -> dict[str, str]:
    rows = page.locator(".standings tbody tr")
    found = {}
    for index in range(rows.count()):
        row = rows.nth(index)
        # Read as the page holds it: on a round's page the standings are a tap away.
        name = (row.locator("th").text_content() or "").strip().split("\n")[0].strip()
        found[name] = (row.locator("td.total").text_content() or "").strip()
    return found


def no_sideways_scroll(page: Page) -> None:
    page.wait_for_load_state()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{page.url} is {width} px wide"


def test_three_rounds_with_a_forbidden_bid_bad_tricks_and_a_correction(
    page: Page, live_server: str
) -> None:
    start_game(page, live_server, FOUR)
    taps = Taps(page)

    # Round 1, one card, Anne deals: Bruno 1, Chloé 0, Denis 0, so Anne may not bid 0.
    expect(page.locator(".dealer strong")).to_have_text("Anne")
    for name, bid in (("Bruno", 1), ("Chloé", 0), ("Denis", 0)):
        taps.number(name, bid)
    expect(page.get_by_text("Anne may not bid 0")).to_be_visible()
    expect(taps.key(0)).to_be_disabled()  # Anne's line is lit
    taps.number("Anne", 1)
    taps.bids_sent()
    for name, tricks in (("Bruno", 1), ("Chloé", 0), ("Denis", 0)):
        taps.number(name, tricks)
    expect(taps.value("Anne")).to_have_text("0")
    expect(page.get_by_text("1 of 1 tricks entered")).to_be_visible()
    taps.confirm("tricks")

    # Round 2, two cards, Bruno deals; the tricks first add up to 3.
    expect(page.get_by_text("Round 2 of 23")).to_be_visible()
    for name, bid in (("Chloé", 1), ("Denis", 0), ("Anne", 1)):
        taps.number(name, bid)
    expect(page.get_by_text("Bruno may not bid 0")).to_be_visible()
    taps.number("Bruno", 1)
    taps.bids_sent()
    for name, tricks in (("Chloé", 2), ("Denis", 1)):
        taps.number(name, tricks)
    for name in ("Anne", "Bruno"):
        expect(taps.value(name)).to_have_text("0")  # all the tricks, and more, are in
    expect(page.locator("form.tricks .count")).to_have_text("The tricks add up to 3, not 2.")
    taps.confirm("tricks")  # not sent: the page has said why
    expect(page.locator("form.tricks .count")).to_have_text("The tricks add up to 3, not 2.")
    expect(page.get_by_text("Round 2 of 23")).to_be_visible()
    taps.number("Denis", 0)
    taps.confirm("tricks")

    # Round 3, three cards, Chloé deals and may not bid 1.
    expect(page.get_by_text("Round 3 of 23")).to_be_visible()
    for name, bid in (("Denis", 1), ("Anne", 1), ("Bruno", 0)):
        taps.number(name, bid)
    expect(page.get_by_text("Chloé may not bid 1")).to_be_visible()
    taps.number("Chloé", 2)
    taps.bids_sent()
    for name, tricks in (("Denis", 1), ("Anne", 1), ("Bruno", 0)):
        taps.number(name, tricks)
    taps.confirm("tricks")
    expect(page.get_by_text("Round 4 of 23")).to_be_visible()
    assert totals(page) == {"Denis": "+1", "Bruno": "0", "Anne": "−1", "Chloé": "−2"}

    # Round 1 is corrected: Anne took the trick, not Bruno.
    page.get_by_role("link", name="Correct round 1").click()
    page.wait_for_url("**/rounds/1/edit")
    taps.player("Anne").nth(1).get_by_role("radio", name="1", exact=True).click()
    taps.player("Bruno").nth(1).get_by_role("radio", name="0", exact=True).click()
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Round 1 corrected; the scores are updated.")).to_be_visible()
    assert totals(page) == {"Anne": "+1", "Denis": "+1", "Bruno": "−2", "Chloé": "−2"}
    expect(page.get_by_text(re.compile(r"Anne's tricks 0 → 1"))).to_be_visible()
    no_sideways_scroll(page)


def test_a_round_for_four_players_takes_two_taps_a_player(page: Page, live_server: str) -> None:
    start_game(page, live_server, FOUR)
    taps = Taps(page)
    # Round 1, one card: the last bid sends the bids; once Bruno's trick is in, everyone
    # else's 0 follows.
    for name in ("Bruno", "Chloé", "Denis", "Anne"):
        taps.number(name, 0)
    taps.bids_sent()
    taps.number("Bruno", 1)
    for name in ("Chloé", "Denis", "Anne"):
        expect(taps.value(name)).to_have_text("0")
    taps.confirm("tricks")
    assert taps.count == 6

    # Round 2, two cards, Bruno deals: one tap per bid, per trick count but the last, and the
    # tricks' confirmation: 2n.
    expect(page.get_by_text("Round 2 of 23")).to_be_visible()
    taps.count = 0
    for name, bid in (("Chloé", 1), ("Denis", 0), ("Anne", 0), ("Bruno", 0)):
        taps.number(name, bid)
    taps.bids_sent()
    for name, tricks in (("Chloé", 1), ("Denis", 0), ("Anne", 0)):
        taps.number(name, tricks)
    expect(taps.value("Bruno")).to_have_text("1")
    expect(page.get_by_text("2 of 2 tricks entered")).to_be_visible()
    taps.confirm("tricks")
    expect(page.get_by_text("Round 3 of 23")).to_be_visible()
    assert taps.count == 2 * len(FOUR)
    # Round 1: Bruno missed (−1); round 2: Chloé made 1 (+1), Bruno missed 0 by 1 (−1).
    assert totals(page) == {"Chloé": "+1", "Anne": "0", "Denis": "0", "Bruno": "−2"}


def test_no_page_scrolls_sideways_and_every_control_is_thumb_sized(
    page: Page, live_server: str
) -> None:
    long_names = ("Marie-Christine", "Jean-Baptiste", "Anne-Sophie", "Bartholomew", "Gwendoline")
    page.goto(live_server + "/")
    no_sideways_scroll(page)
    page.get_by_role("link", name="Start a game").click()
    expect(page.get_by_role("heading", name="Which game?")).to_be_visible()
    no_sideways_scroll(page)
    start_game(page, live_server, long_names, preset=r"Ascenseur à charge\s+2 to")
    no_sideways_scroll(page)
    controls = page.locator(".choice span, button, .button, input[type=text], .option, summary")
    assert controls.count() > 10
    for index in range(controls.count()):
        box = controls.nth(index).bounding_box()
        if box:
            assert box["height"] >= 44, controls.nth(index).inner_html()
    page.goto(live_server + "/ascenseur/new/ascenseur-a-charge")
    page.get_by_text("House rules").click()
    page.get_by_text("Our own rules").click()
    no_sideways_scroll(page)
    for index in range(page.locator("button, .option, summary, input[type=text]").count()):
        box = page.locator("button, .option, summary, input[type=text]").nth(index).bounding_box()
        if box:
            assert box["height"] >= 44
    page.goto(live_server + "/ascenseur/no-such-game")
    no_sideways_scroll(page)


def serious_violations(page: Page) -> list[str]:
    # A page the scripts sent the phone on to (an entry's answer) is checked once loaded: the
    # check walks the document, and a document still being replaced has none to walk.
    page.wait_for_load_state("load")
    results = Axe().run(page)
    return [
        f"{violation['id']}: {violation['help']}"
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


def test_home_new_game_and_round_pages_pass_the_accessibility_check(
    page: Page, live_server: str
) -> None:
    page.goto(live_server + "/")
    assert serious_violations(page) == []
    page.goto(live_server + "/ascenseur/new")
    assert serious_violations(page) == []
    page.goto(live_server + "/ascenseur/new/escalier")
    assert serious_violations(page) == []
    start_game(page, live_server, FOUR)
    assert serious_violations(page) == []
    taps = Taps(page)
    for name in ("Bruno", "Chloé", "Denis", "Anne"):
        taps.number(name, 0)
    taps.bids_sent()
    assert serious_violations(page) == []


def test_the_page_is_french_for_a_french_phone(browser, live_server: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR")
    page = context.new_page()
    page.goto(live_server + "/")
    expect(page.get_by_role("link", name="Commencer une partie")).to_be_visible()
    page.get_by_role("link", name="English").click()
    expect(page.get_by_role("link", name="Start a game")).to_be_visible()
    page.reload()
    expect(page.get_by_role("link", name="Start a game")).to_be_visible()
    context.close()


def test_french_standings_with_long_names_fit_the_phone(browser, live_server: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR")
    page = context.new_page()
    names = ("Grand-père Jean-Baptiste", "Marie-Christine", "Anticonstitutionnelle", "Zoé")
    page.goto(live_server + "/ascenseur/new/ascenseur-a-charge")
    for number, name in enumerate(names, start=1):
        page.get_by_role("textbox", name=f"Joueur {number}", exact=True).fill(name)
    page.get_by_role("button", name="Commencer la partie").click()
    expect(page.locator(".keypad")).to_be_visible()
    taps = Taps(page)
    for _name in names:
        zero = taps.key(0)
        (zero if zero.is_enabled() else taps.key(1)).click()
    taps.bids_sent()
    taps.key(1).click()
    page.locator("button.confirm").click()
    page.locator(".last-round summary").click()
    expect(page.locator(".standings")).to_be_visible()
    no_sideways_scroll(page)
    context.close()
