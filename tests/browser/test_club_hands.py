"""Hand records on real phones: the director gives a session the hands of a dealing program's
PBN file (the FFB session's); they are solved in the background; a table's phone flags a
result far from what the cards make before East-West confirm, and shows each board's hands,
the tricks each declarer takes and par once both its pairs have played it; the hand records
print four boards a page."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.test_ascenseur_phone import no_sideways_scroll
from tests.browser.test_club_phones import FFB, start_session, tap_result
from tests.browser.test_sheet_print import ARTIFACTS, pages


def analysed(page: Page, url: str, boards: int) -> None:
    """Open ``url`` until the analysis of ``boards`` boards shows (the solve runs apart)."""
    for _attempt in range(60):
        page.goto(url)
        if page.locator(".double-dummy").count() == boards:
            return
        time.sleep(0.5)
    raise AssertionError(f"{url} shows {page.locator('.double-dummy').count()} analysed boards")


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_a_table_s_phone_shows_the_hands_after_its_board_and_flags_an_improbable_result(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    director = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    links = start_session(director, live_server, "mitchell", 5)
    session = director.url
    director.get_by_role("link", name="Hand records").click()
    director.get_by_label("Hand records (.pbn)").set_input_files(FFB)
    director.get_by_role("button", name="Keep these hands").click()
    expect(director.get_by_role("status")).to_contain_text("The hands of 15 boards are kept")
    analysed(director, f"{session}/hands", 15)
    no_sideways_scroll(director)

    phone = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    phone.goto(links[0])
    # Board 1: North makes 8 tricks in no trump double dummy; 7NT made is a slip.
    tap_result(
        phone, {"level": "7", "strain": "NT", "declarer": "N", "doubled": "0", "result": "0"}
    )
    warning = phone.locator(".improbable")
    expect(warning).to_have_text(
        "Double dummy, North takes 8 tricks in NT, and 13 are entered: check this result."
    )
    expect(phone.get_by_role("button", name="East-West: confirm")).to_be_visible()
    director.goto(session)
    expect(director.get_by_text("1 result far from what the cards make")).to_be_visible()

    # Board 2, as the cards make it: no flag.
    tap_result(
        phone, {"level": "3", "strain": "NT", "declarer": "E", "doubled": "0", "result": "0"}
    )
    expect(phone.locator(".improbable")).to_have_count(1)
    phone.get_by_role("link", name="Travellers of the boards both pairs here have played").click()
    expect(phone.locator(".hand-record")).to_have_count(2)
    first = phone.get_by_role("region", name="Board 1: the hands")
    expect(first.locator(".hand-north")).to_contain_text("KQ106")
    expect(first.locator(".par")).to_have_text("Par 4♠ N/S =, NS +420")
    # North's tricks in NT, ♠, ♥, ♦, ♣, as Magic Contest's analysis has them.
    north = first.locator(".double-dummy tbody tr").first.locator("td")
    expect(north).to_have_text(["8", "10", "6", "9", "7"])
    expect(phone.get_by_role("region", name="Board 3: the hands")).to_have_count(0)
    no_sideways_scroll(phone)
    phone.screenshot(path=str(ARTIFACTS / "club-hands-phone.png"), full_page=True)

    director.goto(f"{session}/movement")  # the table cards say where the boards go
    expect(director.locator(".table-card").first).to_contain_text("→ table 5")
    no_sideways_scroll(director)
    director.goto(f"{session}/hands/print")
    pdf = tmp_path / "hands.pdf"
    director.pdf(path=str(pdf), format="A4", print_background=True)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    assert pages(info.stdout) == 4  # 15 boards, four a page
    phone.context.close()
    director.context.close()
