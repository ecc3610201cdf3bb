"""A director publishes another club program's results file from a phone: the session shows
the ranking the file published at 360 px, each figure Scorekeeper counts otherwise marked, the
mark leading to the note that says why."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import PHONE
from tests.browser.test_ascenseur_phone import no_sideways_scroll
from tests.browser.test_sheet_print import ARTIFACTS

HOWELL = Path(__file__).resolve().parents[1] / "data" / "bridge" / "compscore_howell_12_pairs.xml"


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_a_compscore_file_is_published_with_its_ranking_and_the_check_beside_it(
    browser: Browser, live_server: str
) -> None:
    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    page.goto(f"{live_server}/club/new")
    page.get_by_role("link", name="Or publish a session from its PBN or USEBIO file.").click()
    page.get_by_label("Results file (.pbn or USEBIO .xml)").set_input_files(HOWELL)
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("heading", name="The figures the club published")).to_be_visible()
    expect(page.get_by_text("12 of them are the file's own way of scoring")).to_be_visible()
    no_sideways_scroll(page)
    ranking = page.locator("table.ranking.published")
    expect(ranking.locator("tbody tr")).to_have_count(12)
    first = ranking.locator("tbody tr").first
    expect(first).to_contain_text("Pair 1")
    expect(first).to_contain_text("171.35")
    expect(first).to_contain_text("63.46")
    # Pair 1's total is the file's, factored: its mark leads to why.
    first.locator("a.check.explained").click()
    note = page.locator("#check-1")
    expect(note).to_be_in_viewport()
    expect(note).to_contain_text("The file factored the total of pair 1")
    # How the file scored its session, one tap away.
    page.get_by_text("How the file scored its session").click()
    expect(page.get_by_text("Board 4 was not scaled")).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "club-imported-session.png"), full_page=True)
