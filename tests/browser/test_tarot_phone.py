"""French Tarot on a 360 × 740 phone in headless Chromium: a 5-player game of 12 deals tapped
in, each deal's taps counted, the dealer and the first to speak shown, a deal all passed, a
correction, a second phone following live; the totals held to a count written here (RULES.md
§5, not the engine); nothing of the form covered or cut; the sheet printed on one A4 page."""

from __future__ import annotations

import math
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorekeeper.extensions import db
from scorekeeper.games.models import Player
from scorekeeper.tarot.models import TarotDealRecord, TarotGame
from tests.browser.chromium import PHONE
from tests.browser.test_ascenseur_phone import Taps, no_sideways_scroll, serious_violations
from tests.browser.test_sheet_print import ARTIFACTS, pages

FIVE = ("Anne", "Bruno", "Chloé", "Denis", "Élodie")
NEEDED = {0: 56, 1: 51, 2: 41, 3: 36}
TIMES = {"Prise": 1, "Garde": 2, "Garde sans": 4, "Garde contre": 6}
HANDFUL = {"simple": 20, "double": 30, "triple": 40}
SLAM = {"announced and made": 400, "made, not announced": 200, "announced, failed": -200}


@dataclass(frozen=True)
class Deal:
    """A deal as the table tells it, and as a phone taps it."""

    taker: str
    contract: str
    bouts: int
    points: float
    partner: str | None = None  # None: the taker played alone
    petit: str | None = None  # "taker's side" or "defence"
    poignee: tuple[str, str] | None = None  # (whose: "taker's side" or "defence", kind)
    slam: str | None = None

    def outcome(self) -> tuple[bool, int]:
        """Whether the contract is made, and by how much it is made or down."""
        made = self.points >= NEEDED[self.bouts]
        counted = math.ceil(self.points) if made else math.floor(self.points)  # the half point
        return made, abs(counted - NEEDED[self.bouts])

    def marks(self) -> dict[str, int]:
        """Each player's mark, counted as RULES.md §5 says, per defender then by role."""
        made, by = self.outcome()
        side = 1 if made else -1
        value = side * (25 + by) * TIMES[self.contract]
        if self.petit:
            value += (10 if self.petit == "taker's side" else -10) * TIMES[self.contract]
        if self.poignee:
            value += side * HANDFUL[self.poignee[1]]  # to the side that wins the deal
        if self.slam:
            value += SLAM[self.slam]
        marks = {name: -value for name in FIVE}
        if self.partner:
            marks[self.taker], marks[self.partner] = 2 * value, value
        else:
            marks[self.taker] = 4 * value
        return marks


GAME: list[Deal | None] = [
    Deal("Anne", "Garde", 2, 49, partner="Denis"),
    Deal("Bruno", "Prise", 1, 47, partner="Anne", petit="defence"),
    None,  # all passed
    Deal("Élodie", "Garde sans", 3, 52, partner="Chloé", poignee=("taker's side", "simple")),
    Deal("Denis", "Prise", 0, 60),
    Deal("Chloé", "Garde", 2, 40.5, partner="Bruno"),
    Deal("Anne", "Garde contre", 3, 70, partner="Élodie", slam="announced, failed"),
    Deal("Bruno", "Prise", 1, 51, partner="Denis"),
    Deal("Denis", "Garde", 2, 41.5, partner="Anne"),
    Deal("Élodie", "Prise", 1, 44, partner="Bruno", poignee=("defence", "double")),
    Deal("Chloé", "Garde", 2, 38),
    Deal("Anne", "Prise", 2, 55, partner="Chloé", petit="taker's side"),
]
FIRST_DEALER = 2  # Chloé


class Phone(Taps):
    """Deals tapped in, counted."""

    def choose(self, group: str, label: str) -> None:
        words = re.compile("^" + r"\s+".join(map(re.escape, group.split())) + "$")
        found = self.page.get_by_role("group", name=words)
        self.tap(found.get_by_role("radio", name=re.compile(rf"^{re.escape(label)}(\s\d|$)")))

    def deal(self, deal: Deal | None, number: int) -> int:
        """One deal; the taps it took."""
        start = self.count
        if deal is None:
            self.tap(self.page.get_by_role("button", name="All passed"))
        else:
            self.choose("Taker", deal.taker)
            self.choose("Contract", deal.contract)
            self.choose("Partner (the called king)", deal.partner or "Alone")
            self.choose("Bouts, and the points they need", str(deal.bouts))
            self.choose("Points: tens", str(int(deal.points) // 10))
            self.choose("Points: units", str(int(deal.points) % 10))
            if deal.points != int(deal.points):
                self.tap(self.page.get_by_role("checkbox", name="+ ½"))
            if deal.petit or deal.poignee or deal.slam:
                self.tap(self.page.get_by_text("Bonuses: petit au bout, poignée, chelem"))
            if deal.petit:
                self.choose("Petit au bout", deal.petit)
            if deal.poignee:
                whose, kind = deal.poignee
                group = "Poignée of the taker's side" if whose == "taker's side" else None
                self.choose(group or "Poignée of the defence", kind)
            if deal.slam:
                self.choose("Chelem", deal.slam)
            made, by = deal.outcome()
            said = f"{deal.points:g} points, {NEEDED[deal.bouts]} needed: "
            said += f"made by {by}" if made else f"down by {by}"
            expect(self.page.locator(".points-line")).to_have_text(said)
            self.tap(self.page.get_by_role("button", name="Done"))
        expect(
            self.page.get_by_role("heading", name=f"Deal {number + 1}", exact=True)
        ).to_be_visible()
        return self.count - start


def totals(page: Page) -> dict[str, int]:
    rows = page.locator(".standings tbody tr")
    found = {}
    for index in range(rows.count()):
        name = rows.nth(index).locator("th").inner_text().strip()
        found[name] = int(rows.nth(index).locator("td.total").inner_text().replace("−", "-"))
    return found


COVERED_OR_CUT = """(form) => {
  // Every control the form shows, brought to the middle of the screen: it is the one a tap
  // there reaches (nothing lies over it), inside the screen, its words all shown.
  form.querySelectorAll("details").forEach((details) => { details.open = true; });
  const problems = [];
  for (const control of form.querySelectorAll("label.choice, button, summary")) {
    if (control.offsetParent === null) continue;  // not shown (the taker among the partners)
    control.scrollIntoView({ block: "center" });
    const box = control.getBoundingClientRect();
    const name = control.textContent.trim().replace(/\\s+/g, " ");
    if (box.left < 0 || box.right > document.documentElement.clientWidth) {
      problems.push(`${name}: outside the screen`);
    }
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!control.contains(hit)) problems.push(`${name}: under ${hit && hit.outerHTML}`);
    for (const part of [control, ...control.querySelectorAll("span, b, small")]) {
      if (part.scrollWidth > part.clientWidth + 1 || part.scrollHeight > part.clientHeight + 1) {
        problems.push(`${name}: cut, ${part.scrollWidth}×${part.scrollHeight} in `
                      + `${part.clientWidth}×${part.clientHeight}`);
      }
    }
  }
  form.querySelectorAll("details").forEach((details) => { details.open = false; });
  window.scrollTo(0, 0);
  return problems;
}"""


def start(page: Page, base: str, names: tuple[str, ...], first_dealer: int) -> None:
    page.goto(base + "/")
    page.get_by_role("link", name="French Tarot").click()
    for number, name in enumerate(names, start=1):
        page.get_by_role("textbox", name=f"Player {number}", exact=True).fill(name)
    page.get_by_role("radio", name=f"Player {first_dealer + 1} deals first").check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Deal 1", exact=True)).to_be_visible()


def test_a_five_player_game_of_twelve_deals_on_a_phone(
    page: Page, browser: Browser, live_server: str, tmp_path: Path
) -> None:
    start(page, live_server, FIVE, FIRST_DEALER)
    assert page.locator("form.tarot-deal").evaluate(COVERED_OR_CUT) == []
    no_sideways_scroll(page)
    follower = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    follower.goto(page.url)  # the viewer link: the game's address alone
    expect(follower.get_by_text("You are looking on")).to_be_visible()
    phone = Phone(page)
    expected = dict.fromkeys(FIVE, 0)
    taps = []
    for number, deal in enumerate(GAME, start=1):
        dealer = FIVE[(FIRST_DEALER - (number - 1)) % 5]  # the deal turns to the right
        speaker = FIVE[(FIRST_DEALER - number) % 5]
        expect(page.locator(".dealer strong")).to_have_text(dealer)
        expect(page.locator(".speaker")).to_have_text(f"{speaker} speaks first and leads.")
        taps.append(phone.deal(deal, number))
        for name, mark in (deal.marks() if deal else {}).items():
            expected[name] += mark
        assert totals(page) == expected, number
    # Taker, contract, partner, bouts, tens, units, Done: 7 taps at 5 players (6 at 3 and 4);
    # the half point one more; the bonuses one tap to show them, then one each; all passed one.
    assert taps == [7, 9, 1, 9, 7, 8, 9, 7, 8, 9, 7, 9]
    assert sum(expected.values()) == 0
    expect(follower.locator(".standings")).to_contain_text(f"after deal {len(GAME)}")
    assert totals(follower) == expected

    # Deal 8 was made with 50 points, not 51: corrected, every total counted again.
    page.get_by_role("link", name="Correct deal 8").click()
    Phone(page).choose("Points: units", "0")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Deal 8 corrected; the totals are counted again.")).to_be_visible()
    for name, mark in GAME[7].marks().items():  # type: ignore[union-attr]
        expected[name] -= mark
    for name, mark in Deal("Bruno", "Prise", 1, 50, partner="Denis").marks().items():
        expected[name] += mark
    assert totals(page) == expected
    expect(follower.get_by_text("Deal 8 corrected at")).to_be_visible()
    follower.context.close()

    page.get_by_role("link", name="The sheet, to print or save").click()
    expect(page.get_by_role("heading", name=re.compile("French Tarot"))).to_be_visible()
    no_sideways_scroll(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "tarot-sheet-phone.png"), full_page=True)
    pdf = tmp_path / "sheet.pdf"
    page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    assert pages(info.stdout) == 1
    words = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    printed = words.stdout.replace("−", "-")
    for name, total in expected.items():
        assert name in printed and f"{total:+d}" in printed, name
    subprocess.run(
        ["pdftoppm", "-png", "-r", "80", "-singlefile", str(pdf), str(ARTIFACTS / "tarot-sheet")],
        check=True,
    )


def test_a_common_deal_at_four_players_is_six_taps_and_a_refusal_keeps_the_taps(
    page: Page, live_server: str
) -> None:
    start(page, live_server, ("Anne", "Bruno", "Marie-Françoise", "Denis"), 0)
    phone = Phone(page)
    for group, label in (("Taker", "Marie-Françoise"), ("Contract", "Garde sans")):
        phone.choose(group, label)
    for group, label in (("Bouts, and the points they need", "1"), ("Points: tens", "9")):
        phone.choose(group, label)
    phone.choose("Points: units", "4")
    expect(page.locator(".points-line")).to_have_text("94 points, 51 needed: made by 43")
    phone.tap(page.get_by_role("button", name="Done"))
    expect(page.locator(".error-summary")).to_contain_text("The cards hold 91 points")  # not 94
    expect(
        page.get_by_role("group", name="Contract").get_by_role("radio", name="Garde sans")
    ).to_be_checked()
    phone.choose("Points: tens", "5")
    expect(page.locator(".points-line")).to_have_text("54 points, 51 needed: made by 3")
    phone.tap(page.get_by_role("button", name="Done"))
    expect(page.get_by_role("heading", name="Deal 2", exact=True)).to_be_visible()
    assert phone.count == 6 + 2  # six for the deal, two to put its tens right
    assert totals(page)["Marie-Françoise"] == 3 * (25 + 3) * 4  # 54 with one bout: made by 3
    assert page.locator("form.tarot-deal").evaluate(COVERED_OR_CUT) == []
    assert page.get_by_role("checkbox", name="+ ½").count() == 0  # whole points at 4 players
    assert serious_violations(page) == []
    page.get_by_role("link", name="Correct deal 1").click()
    assert serious_violations(page) == []
    page.get_by_role("link", name="Cancel").click()
    expect(page.get_by_role("heading", name="Deal 2", exact=True)).to_be_visible()
    page.goto(page.url + "/sheet")
    assert serious_violations(page) == []


def test_the_pages_read_in_french_on_a_phone(page: Page, live_server: str) -> None:
    page.goto(live_server + "/language/fr?next=/tarot/new")
    for number, name in enumerate(FIVE, start=1):
        page.get_by_role("textbox", name=f"Joueur {number}", exact=True).fill(name)
    page.get_by_role("button", name="Commencer la partie").click()
    expect(page.get_by_role("heading", name="Donne 1", exact=True)).to_be_visible()
    assert page.locator("form.tarot-deal").evaluate(COVERED_OR_CUT) == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "tarot-deal-fr.png"))
    phone = Phone(page)
    phone.choose("Preneur", "Anne")
    phone.choose("Contrat", "Garde contre")
    phone.choose("Appelé (le roi appelé)", "Seul")
    phone.choose("Bouts, et les points à faire", "2")
    phone.choose("Points\u00a0: dizaines", "4")
    phone.choose("Points\u00a0: unités", "9")
    expect(page.locator(".points-line")).to_have_text("49 points, 41 à faire\u00a0: réussie de 8")
    phone.tap(page.get_by_role("button", name="Valider"))
    expect(page.get_by_role("heading", name="Donne 2", exact=True)).to_be_visible()
    entered = page.locator(".history li", has_text="Anne sans appelé, Garde contre, 2 bouts, 49")
    expect(entered).to_be_visible()
    assert totals(page)["Anne"] == 4 * (25 + 8) * 6
    page.screenshot(path=str(ARTIFACTS / "tarot-page-fr.png"), full_page=True)


LONG_NAMES = ("Marie-Françoise", "Jean-Christophe", "Bartholomew", "Éléonore", "Maximilienne")


def stored_game(app: Flask, names: tuple[str, ...], deals: int, bonuses: bool) -> str:
    """A game of ``deals`` deals stored as the pages store them: every contract, partners at 5
    players, halves at 3 and 5, and with ``bonuses`` two in each deal."""
    contracts = ("prise", "garde", "garde-sans", "garde-contre")
    players = len(names)
    records = []
    for number in range(1, deals + 1):
        fields: dict[str, object] = {
            "taker": number % players,
            "contract": contracts[number % 4],
            "bouts": number % 4,
            "half_points": 2 * (35 + (number * 7) % 40) + (number % 2 if players != 4 else 0),
            "partner": (number + 1) % players if players == 5 else None,
        }
        if bonuses:
            fields.update(petit_au_bout="defence", poignee_taker="triple")
        records.append(TarotDealRecord(number=number, **fields))
    with app.app_context():
        game = TarotGame(
            first_dealer=0,
            players=[Player(seat=seat, name=name) for seat, name in enumerate(names)],
            deals=records,
        )
        db.session.add(game)
        db.session.commit()
        return game.id


PRINTED = {"width": round(192 * 96 / 25.4), "height": round(279 * 96 / 25.4)}
"""An A4 page inside its 9 mm margins, in CSS pixels."""


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_long_sheets_with_long_names_print_on_one_page(
    page: Page, served_app: Flask, live_server: str, tmp_path: Path
) -> None:
    """At 3, 4 and 5 players, 90 deals, or 40 with two bonuses each (a line each), come out on
    one page, every column within its width."""
    page.set_viewport_size(PRINTED)
    for players in (3, 4, 5):
        for deals, bonuses in ((90, False), (40, True), (6, True)):
            game_id = stored_game(served_app, LONG_NAMES[:players], deals, bonuses)
            page.goto(f"{live_server}/tarot/{game_id}/sheet")
            page.emulate_media(media="print")
            width, height = page.evaluate(
                """() => [document.documentElement.scrollWidth,
                          document.querySelector(".sheet-page").getBoundingClientRect().bottom]"""
            )
            assert width <= PRINTED["width"] and height <= PRINTED["height"], (players, deals)
            page.emulate_media(media="null")  # the PDF is printed as paper, by itself
            if deals == 90 or players == 5:
                pdf = tmp_path / f"{players}-{deals}.pdf"
                page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
                info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True)
                assert pages(info.stdout) == 1, (players, deals)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "80", "-singlefile", str(pdf), str(ARTIFACTS / "tarot-long")],
        check=True,
    )
