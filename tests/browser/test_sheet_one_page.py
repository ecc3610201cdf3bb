"""Every finished game of 2 to 7 players, at every schedule length the rules can give it, is
laid out for print on one A4 page with its chart; and printed, each number of players' longest
game comes out on one page.

The layout is read with the print stylesheet in a window the size of the page inside its
margins (fast enough for every length); the real prints confirm what that reading says."""

from __future__ import annotations

import itertools
import subprocess
from functools import cache
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page

from scorekeeper.rules import ascenseur as rules
from tests.browser.test_sheet_print import ARTIFACTS, NAMES, pages
from tests.games import play_out, store_game

MM = 96 / 25.4
"""CSS pixels in a millimetre."""
PORTRAIT = (192, 279)
LANDSCAPE = (279, 192)
"""An A4 page inside its 9 mm margins, in millimetres (width, height)."""
SMALLEST_CHART_MM = 30
SCHEDULE_RULES = {
    "decks": (1, 2),
    "top_rounds": ("once", "each-player"),
    "shape": tuple(shape.value for shape in rules.Shape),
    "hands": tuple(hands.value for hands in rules.Hands),
}


@cache
def every_length(preset: str, players: int) -> dict[int, dict[str, object]]:
    """For each number of rounds a game of ``preset`` for ``players`` can have, house rules
    that give it: the schedule's own rules, and every top the table may choose."""
    found: dict[int, dict[str, object]] = {}
    names = list(SCHEDULE_RULES)
    for values in itertools.product(*SCHEDULE_RULES.values()):
        chosen = dict(zip(names, values, strict=True))
        for top in [None, *range(1, 53)]:
            house = chosen if top is None else {**chosen, "top": "chosen", "chosen_top": top}
            try:
                variant = rules.with_house_rules(rules.PRESETS[preset], house)
                rounds = len(rules.schedule(variant, players))
            except ValueError:
                continue
            found.setdefault(rounds, house)
    return dict(sorted(found.items()))


def layout(page: Page, base: str, app: Flask, preset: str, players: int, house: dict) -> dict:
    """The sheet of a finished game as the print stylesheet lays it out: where each part ends
    (millimetres from the top of the page's printable area)."""
    variant = rules.with_house_rules(rules.PRESETS[preset], house)
    entries = play_out(variant, players, 0, seed=players)
    game_id = store_game(app, preset, NAMES[:players], entries, **house)
    page.goto(f"{base}/ascenseur/{game_id}/sheet")
    measured: dict = page.evaluate(
        """(mm) => {
            const bottom = (selector) => {
                const found = document.querySelector(selector);
                return found ? found.getBoundingClientRect().bottom / mm : null;
            };
            const chart = document.querySelector('.sheet-page > .chart > svg');
            return {
                page: document.documentElement.scrollHeight / mm,
                wide: document.documentElement.scrollWidth / mm,
                table: bottom('.sheet-page .sheet'),
                article: bottom('.sheet-page'),
                chart: chart ? chart.getBoundingClientRect().height / mm : 0,
                wide_page: document.querySelector('.sheet-page').classList.contains('wide'),
            };
        }""",
        MM,
    )
    measured["rounds"] = len(entries)
    return measured


@pytest.fixture
def print_page(browser: Browser) -> Page:
    page = browser.new_page()
    page.emulate_media(media="print")
    return page


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    ("preset", "players"),
    [
        *(("ascenseur-a-charge", players) for players in range(2, 8)),
        *(("escalier", players) for players in range(3, 7)),  # its sheet counts points lost
    ],
)
def test_every_schedule_length_lays_out_on_one_page_with_its_chart(
    print_page: Page, served_app: Flask, live_server: str, preset: str, players: int
) -> None:
    width, height = PORTRAIT if players <= 6 else LANDSCAPE
    print_page.set_viewport_size({"width": round(width * MM), "height": round(height * MM)})
    lengths = every_length(preset, players)
    assert len(lengths) > 10, lengths  # the schedules a table can choose
    over = []
    for rounds, house in lengths.items():
        measured = layout(print_page, live_server, served_app, preset, players, house)
        assert measured["wide_page"] == (players > 6)
        fits = measured["page"] <= height + 0.5 and measured["wide"] <= width + 0.5
        if not fits or measured["chart"] < SMALLEST_CHART_MM:
            over.append((rounds, house, measured))
    assert over == []


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
@pytest.mark.parametrize("players", range(2, 8))
def test_each_number_of_players_longest_game_prints_on_one_page(
    page: Page, served_app: Flask, live_server: str, players: int, tmp_path: Path
) -> None:
    preset = "ascenseur-a-charge"
    rounds, house = max(every_length(preset, players).items())
    variant = rules.with_house_rules(rules.PRESETS[preset], house)
    entries = play_out(variant, players, 0, seed=players)
    game_id = store_game(served_app, preset, NAMES[:players], entries, **house)
    page.goto(f"{live_server}/ascenseur/{game_id}/sheet")
    pdf = tmp_path / "sheet.pdf"
    page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    ARTIFACTS.mkdir(exist_ok=True)
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "60",
            "-singlefile",
            str(pdf),
            str(ARTIFACTS / f"longest-{players}"),
        ],
        check=True,
    )
    assert pages(info.stdout) == 1, f"{players} players, {rounds} rounds"
