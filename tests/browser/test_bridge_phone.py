"""Bridge at home on a 360 × 740 phone in headless Chromium: a whole rubber won 2-1 (honours,
a doubled contract, a correction) and a whole Chicago wheel, a few taps a deal, the pad's
totals as the engine has them, and the evening printed on one page."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from playwright.sync_api import Page, expect

from scorekeeper.rules import bridge
from tests.browser.test_ascenseur_phone import Taps, no_sideways_scroll, serious_violations
from tests.browser.test_sheet_print import ARTIFACTS, pages

FOUR = ("Anne", "Bruno", "Chloé", "Denis")


def start_evening(page: Page, base: str, form: str = "rubber") -> None:
    page.goto(base + "/")
    page.get_by_role("link", name="Bridge at home").click()
    for seat, name in zip(("North", "East", "South", "West"), FOUR, strict=True):
        page.get_by_role("textbox", name=seat, exact=True).fill(name)
    if form == "chicago":
        page.get_by_label("Chicago: wheels of four deals").check()
    page.get_by_role("button", name="Start the evening").click()
    expect(page.get_by_role("heading", name="Deal 1")).to_be_visible()


class Pad(Taps):
    """Deals entered by tapping, counted."""

    def choose(self, group: str, label: str) -> None:
        group_ = self.page.get_by_role("group", name=group)
        self.tap(group_.get_by_role("radio", name=label, exact=True))

    def deal(
        self,
        contract: str,
        declarer: str,
        result: str,
        honours: str | None = None,
    ) -> int:
        """One deal; the taps it took."""
        start = self.count
        parsed = bridge.Contract.parse(contract)
        self.choose("Level", str(parsed.level))
        self.choose(
            "Strain", "NT" if parsed.strain is bridge.Strain.NOTRUMP else parsed.strain.symbol
        )
        self.choose("Declarer", declarer)
        if parsed.doubled:
            self.choose("Doubled", "X" * parsed.doubled)
        if honours:
            self.choose("Honours claimed", honours)
        number = self.page.get_by_role("heading", name=re.compile(r"^Deal \d+$")).inner_text()
        self.tap(self.page.get_by_role("button", name=result, exact=True))
        expect(self.page.get_by_role("heading", name=number)).to_have_count(0)
        return self.count - start


def pad_totals(page: Page) -> tuple[int, int]:
    cells = page.locator(".pad-section tr.totals td").all_inner_texts()
    return int(cells[0].strip()), int(cells[1].strip())


def test_a_whole_rubber_won_two_games_to_one(page: Page, live_server: str, tmp_path: Path) -> None:
    start_evening(page, live_server)
    pad = Pad(page)
    expect(page.get_by_text("Nobody vulnerable")).to_be_visible()
    taps = [
        pad.deal("4S", "N Anne", "made", honours="100 N-S"),  # N-S game, honours
        pad.deal("3NTX", "E Bruno", "−1"),  # doubled, one down: 100 to N-S
        pad.deal("4H", "E Bruno", "+1"),  # E-W game
        pad.deal("2C", "S Chloé", "made"),  # part-score
        pad.deal("3NT", "N Anne", "made"),  # N-S second game: 2-1
    ]
    # Level, strain, declarer, result: four taps; doubled or honours, one more each.
    assert taps == [5, 5, 4, 4, 4]
    expect(page.get_by_text("Rubber 1 is over")).to_be_visible()
    no_sideways_scroll(page)

    # Deal 4 was a 2♣ made with an overtrick: corrected, the pad is redrawn.
    page.get_by_role("link", name="Correct deal 4").click()
    page.get_by_role("button", name="+1", exact=True).click()
    expect(page.get_by_text("Deal 4 corrected; the pad is redrawn.")).to_be_visible()
    expect(page.get_by_text(re.compile("2♣ by S, made → 2♣ by S, \\+1"))).to_be_visible()
    deals = [
        bridge.RubberDeal("NS", bridge.Contract.parse("4S"), 10, bridge.Honours("NS", 100)),
        bridge.RubberDeal("EW", bridge.Contract.parse("3NTX"), 8),
        bridge.RubberDeal("EW", bridge.Contract.parse("4H"), 11),
        bridge.RubberDeal("NS", bridge.Contract.parse("2C"), 9),
        bridge.RubberDeal("NS", bridge.Contract.parse("3NT"), 9),
    ]
    rubber = bridge.score_rubber(deals)
    assert rubber.games_won == bridge.BySide(2, 1) and rubber.rubber_bonus is not None
    assert rubber.rubber_bonus.points == 500
    assert pad_totals(page) == (rubber.totals.ns, rubber.totals.ew)

    # The next rubber: one tap keeps the seats.
    page.get_by_role("button", name="Same seats").click()
    expect(page.get_by_role("heading", name="Deal 6")).to_be_visible()  # of the evening
    expect(page.locator(".round-count")).to_contain_text("Rubber 2 · its deal 1")

    page.get_by_role("link", name="The pad, to print or save").click()
    # Printed only once the sheet has replaced the pad: a click returns before it loads.
    expect(page.get_by_role("heading", name=re.compile("Rubber bridge"))).to_be_visible()
    pdf = tmp_path / "pad.pdf"
    page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    assert pages(info.stdout) == 1
    words = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    assert str(rubber.totals.ns) in words.stdout and "Anne" in words.stdout
    ARTIFACTS.mkdir(exist_ok=True)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "80", "-singlefile", str(pdf), str(ARTIFACTS / "bridge-pad")],
        check=True,
    )


def test_a_whole_chicago_wheel(page: Page, live_server: str) -> None:
    start_evening(page, live_server, form="chicago")
    pad = Pad(page)
    taps = [
        pad.deal("2S", "N Anne", "made"),
        pad.deal("2D", "N Anne", "+1"),
        pad.deal("4H", "W Denis", "−2", honours="100 E-W"),
        pad.deal("1NT", "S Chloé", "made"),
    ]
    assert taps == [4, 4, 5, 4]
    expect(page.get_by_text("Chicago wheel 1 is over")).to_be_visible()
    chicago = bridge.score_chicago(
        [
            bridge.RubberDeal("NS", bridge.Contract.parse("2S"), 8),
            bridge.RubberDeal("NS", bridge.Contract.parse("2D"), 9),
            bridge.RubberDeal("EW", bridge.Contract.parse("4H"), 8, bridge.Honours("EW", 100)),
            bridge.RubberDeal("NS", bridge.Contract.parse("1NT"), 7),
        ]
    )
    cells = page.locator(".pad-section tr.totals td").all_inner_texts()
    assert (int(cells[0]), int(cells[1])) == (chicago.totals.ns, chicago.totals.ew)
    no_sideways_scroll(page)


def test_a_passed_out_deal_is_one_tap_and_results_follow_the_level(
    page: Page, live_server: str
) -> None:
    start_evening(page, live_server)
    page.get_by_role("group", name="Level").get_by_role("radio", name="6", exact=True).click()
    expect(page.get_by_role("button", name="+2", exact=True)).to_be_hidden()  # 6: +1 at most
    expect(page.get_by_role("button", name="+1", exact=True)).to_be_visible()
    page.get_by_role("button", name="made", exact=True).click()  # no strain, no declarer
    expect(page.locator(".error-summary")).to_contain_text("Choose the strain of the contract.")
    assert "/deals/" not in page.url
    page.get_by_role("button", name="Passed out").click()
    expect(page.get_by_role("heading", name="Deal 2")).to_be_visible()


def test_the_bridge_pages_pass_the_accessibility_check(page: Page, live_server: str) -> None:
    page.goto(live_server + "/bridge/new")
    assert serious_violations(page) == []
    start_evening(page, live_server)
    assert serious_violations(page) == []
    Pad(page).deal("4S", "N Anne", "made")
    assert serious_violations(page) == []
    page.get_by_role("link", name="Correct deal 1").click()
    page.wait_for_url("**/deals/1/edit")
    assert serious_violations(page) == []
    page.goto(page.url.rsplit("/deals/", 1)[0] + "/sheet")
    assert serious_violations(page) == []


def test_the_back_button_then_the_same_deal_asks_before_entering_it_twice(
    page: Page, live_server: str
) -> None:
    start_evening(page, live_server)
    pad = Pad(page)
    pad.deal("2C", "N Anne", "made")
    page.go_back()  # the pad drawn anew, as the game is now: deal 2 to enter
    expect(page.get_by_role("heading", name="Deal 2")).to_be_visible()
    pad.choose("Level", "2")
    pad.choose("Strain", "♣")
    pad.choose("Declarer", "N Anne")
    pad.tap(page.get_by_role("button", name="made", exact=True))
    question = page.get_by_role("alert").filter(has_text="changed since this page was drawn")
    expect(question).to_contain_text("Deal 2: the game changed since this page was drawn")
    expect(question).to_contain_text("Deal 1 2♣ by N, made")
    expect(page.locator(".history ol.deals li")).to_have_count(1)
    assert serious_violations(page) == []
    question.get_by_role("button", name="Enter mine all the same").click()
    expect(page.get_by_text("Deal 2 entered: 2♣ by N, made.")).to_be_visible()
    expect(page.get_by_role("heading", name="Deal 3")).to_be_visible()
    expect(page.locator(".history ol.deals li")).to_have_count(2)
    # Not a deal sent again: a deal played twice, entered from the page drawn after the first.
    pad.deal("1C", "E Bruno", "made")
    pad.deal("1C", "E Bruno", "made")
    expect(page.get_by_role("heading", name="Deal 5")).to_be_visible()
