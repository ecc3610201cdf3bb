"""A bridge teams match on a 360 × 740 phone in headless Chromium: three boards entered at both
tables in a few taps each, the IMPs and victory points as the engine has them, a correction,
and the match sheet printed on one page."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from playwright.sync_api import Page, expect

from scorekeeper.rules import bridge
from tests.browser.test_ascenseur_phone import Taps, no_sideways_scroll, serious_violations
from tests.browser.test_sheet_print import ARTIFACTS, pages


def start_match(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.get_by_role("link", name="Start a game").click()
    page.get_by_role("link", name=re.compile("^Bridge teams match")).click()
    page.get_by_role("textbox", name="Team A's name").fill("Lions")
    page.get_by_role("textbox", name="Team B's name").fill("Tigers")
    page.get_by_role("textbox", name="Table 1, North").fill("Anne")
    page.get_by_role("textbox", name="Table 1, East").fill("Chloé")
    page.get_by_label("Boards in the match").fill("4")
    page.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("heading", name="Board 1, table 1")).to_be_visible()


class Scorer(Taps):
    """Results entered by tapping, counted."""

    def choose(self, group: str, label: str | re.Pattern[str]) -> None:
        row = self.page.get_by_role("group", name=group)
        self.tap(row.get_by_role("radio", name=label, exact=isinstance(label, str)))

    def result(self, contract: str | None, declarer: str = "", result: str = "") -> int:
        """One table's result; the taps it took."""
        start = self.count
        heading = self.page.get_by_role("heading", name=re.compile(r"^Board \d+, table \d$"))
        entering = heading.inner_text()
        if contract is None:
            self.tap(self.page.get_by_role("button", name="Passed out"))
        else:
            parsed = bridge.Contract.parse(contract)
            self.choose("Level", str(parsed.level))
            strain = parsed.strain
            self.choose("Strain", "NT" if strain is bridge.Strain.NOTRUMP else strain.symbol)
            self.choose("Declarer", re.compile(f"^{declarer} "))
            if parsed.doubled:
                self.choose("Doubled", "X" * parsed.doubled)
            self.tap(self.page.get_by_role("button", name=result, exact=True))
        expect(self.page.get_by_role("heading", name=entering)).to_have_count(0)
        return self.count - start


def score_table(page: Page) -> list[list[str]]:
    rows = page.locator("table.match-score tbody tr")
    return [
        [cell.strip() for cell in rows.nth(n).locator("th, td").all_inner_texts()]
        for n in range(rows.count())
    ]


def test_three_boards_at_both_tables_a_correction_and_the_sheet(
    page: Page, live_server: str, tmp_path: Path
) -> None:
    start_match(page, live_server)
    scorer = Scorer(page)
    expect(page.get_by_text("Nobody vulnerable")).to_be_visible()
    taps = [
        scorer.result("4S", "N", "made"),  # board 1, table 1: Anne's 4♠, +420
        scorer.result("4S", "N", "−1"),  # table 2: the Tigers go down, −50
        scorer.result("3NTX", "E", "−2"),  # board 2, N-S vulnerable: Chloé's 3NTX, +300
        scorer.result(None),  # table 2: passed out
        scorer.result("2H", "S", "+1"),  # board 3, E-W vulnerable: +140
        scorer.result("3C", "W", "made"),  # table 2: the Lions' 3♣, −110
    ]
    # Level, strain, declarer, result: four taps; doubled one more; passed out one tap.
    assert taps == [4, 4, 5, 1, 4, 4]
    expect(page.get_by_role("heading", name="Board 4, table 1")).to_be_visible()
    expect(page.get_by_text("Both sides vulnerable")).to_be_visible()

    boards = [((4, "S", 0, "N", 10), (4, "S", 0, "N", 9)), ((3, "NT", 1, "E", 7), None)]
    boards.append(((2, "H", 0, "S", 9), (3, "C", 0, "W", 9)))
    pairs = []
    for number, tables in enumerate(boards, 1):
        scores = []
        for played in tables:
            if played is None:
                scores.append(0)
                continue
            level, strain, doubled, declarer, tricks = played
            side = bridge.Seat(declarer).side
            vulnerable = bridge.board_vulnerability(number).is_vulnerable(side)
            score = bridge.contract_score(level, strain, doubled, vulnerable, tricks)
            scores.append(score if side is bridge.Side.NS else -score)
        pairs.append((scores[0], scores[1]))
    assert pairs == [(420, -50), (300, 0), (140, -110)]
    match = bridge.score_team_match(pairs)
    assert match.board_imps == (10, 7, 6)
    vps = bridge.victory_points(match.margin, 4)
    assert score_table(page) == [
        ["A Lions", str(match.imps_a), f"{vps[0]:.2f}"],
        ["B Tigers", str(match.imps_b), f"{vps[1]:.2f}"],
    ]
    expect(page.locator(".match-section")).to_contain_text("WBF scale for 4 boards")
    no_sideways_scroll(page)

    # Board 2 at table 2 was not passed out: the Lions, East-West, made 2♠.
    page.get_by_role("link", name="Correct board 2, table 2").click()
    page.wait_for_url("**/boards/2/tables/2/edit")  # the match page has its own Level row
    scorer.choose("Level", "2")
    scorer.choose("Strain", "♠")
    scorer.choose("Declarer", re.compile("^W "))
    page.get_by_role("button", name="made", exact=True).click()
    corrected_note = "Board 2, table 2 corrected; the match is scored again."
    expect(page.get_by_text(corrected_note)).to_be_visible()
    expect(page.get_by_text(re.compile("passed out → 2♠ by W, made"))).to_be_visible()
    corrected = bridge.score_team_match([(420, -50), (300, -110), (140, -110)])
    assert score_table(page)[0][1] == str(corrected.imps_a)

    page.get_by_role("link", name="The match sheet, to print or save").click()
    expect(page.get_by_role("heading", name=re.compile("Lions against Tigers"))).to_be_visible()
    pdf = tmp_path / "match.pdf"
    page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    assert pages(info.stdout) == 1
    words = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    assert "Lions" in words.stdout and str(corrected.imps_a) in words.stdout
    ARTIFACTS.mkdir(exist_ok=True)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-singlefile", str(pdf), str(ARTIFACTS / "teams-sheet")],
        check=True,
    )


def test_the_teams_pages_pass_the_accessibility_check(page: Page, live_server: str) -> None:
    page.goto(live_server + "/teams/new")
    assert serious_violations(page) == []
    start_match(page, live_server)
    assert serious_violations(page) == []
    scorer = Scorer(page)
    scorer.result("1NT", "N", "made")
    scorer.result("1NT", "N", "+1")
    assert serious_violations(page) == []
    page.get_by_role("link", name="Correct board 1, table 1").click()
    page.wait_for_url("**/boards/1/tables/1/edit")
    assert serious_violations(page) == []
    page.goto(page.url.rsplit("/boards/", 1)[0] + "/sheet")
    assert serious_violations(page) == []
