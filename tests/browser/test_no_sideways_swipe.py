"""At 360 px, no page needs a sideways swipe, nor does any table on it, for up to six players:
the Ascenseur game's page with its rounds entered, its score sheet, and the teams match sheet.
Paper keeps every column (tests/browser/test_sheet_one_page.py)."""

from __future__ import annotations

import pytest
from flask import Flask
from playwright.sync_api import Page

from scorekeeper.rules import ascenseur as rules
from tests.browser.test_sheet_one_page import every_length
from tests.browser.test_sheet_print import ARTIFACTS, NAMES
from tests.browser.test_teams_phone import Scorer, start_match
from tests.games import play_out, store_game

LONG_NAMES = ("Marie-Françoise", "Jean-Christophe", "Anne", "Bartholomew", "Éléonore", "Zoé")


def too_wide(page: Page) -> list[str]:
    """The page, and each region of it that scrolls, wider than what the screen shows."""
    return page.evaluate(
        """() => {
            const wide = [];
            const root = document.documentElement;
            if (root.scrollWidth > root.clientWidth) wide.push(`page ${root.scrollWidth} px`);
            for (const region of document.querySelectorAll('main *')) {
                const style = getComputedStyle(region);
                if (!['auto', 'scroll'].includes(style.overflowX)) continue;
                if (region.offsetParent === null) continue;  // not shown
                if (region.scrollWidth > region.clientWidth + 1) {
                    wide.push(`${region.className || region.tagName}: ${region.scrollWidth} of `
                              + `${region.clientWidth} px`);
                }
            }
            return wide;
        }"""
    )


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("names", ["short", "long"])
def test_an_ascenseur_game_and_its_sheet_fit_the_phone(
    page: Page, served_app: Flask, live_server: str, players: int, names: str
) -> None:
    preset = "ascenseur-a-charge"
    _rounds, house = max(every_length(preset, players).items())  # the largest numbers
    variant = rules.with_house_rules(rules.PRESETS[preset], house)
    seated = (LONG_NAMES if names == "long" else NAMES)[:players]
    for finished in (False, True):
        entries = play_out(variant, players, 0, seed=players, rounds=None if finished else 9)
        game_id = store_game(served_app, preset, seated, entries, **house)
        for address in (f"/ascenseur/{game_id}", f"/ascenseur/{game_id}/sheet"):
            page.goto(live_server + address)
            assert too_wide(page) == [], address
            if players == 6 and names == "long" and not finished:
                kind = "sheet" if address.endswith("/sheet") else "game"
                ARTIFACTS.mkdir(exist_ok=True)
                shown = page.locator(".phone-sheet" if kind == "sheet" else ".history table")
                shown.screenshot(path=ARTIFACTS / f"phone-{kind}-6-players.png")


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_the_teams_match_sheet_fits_the_phone(page: Page, live_server: str) -> None:
    start_match(page, live_server)
    scorer = Scorer(page)
    scorer.result("4SX", "N", "+1")
    scorer.result("3NTX", "E", "−2")
    page.goto(page.url + "/sheet")
    assert too_wide(page) == []
    page.locator(".phone-sheet").screenshot(path=ARTIFACTS / "phone-teams-sheet.png")
