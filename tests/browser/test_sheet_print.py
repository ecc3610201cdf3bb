"""The score sheet printed by headless Chromium: one A4 page for six players, landscape beyond.

The first page of each print is kept as a PNG in test-artifacts/ to look at."""

from __future__ import annotations

import itertools
import re
import subprocess
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page

from scorekeeper.rules import ascenseur as rules
from tests.games import play_out, store_game

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
NAMES = ("Anne", "Bruno", "Chloé", "Denis", "Élodie", "François", "Gaston", "Hélène", "Igor", "Jo")
# The longest schedule for these players: two decks, the top round once per player.
LONGEST = {"decks": 2, "top_rounds": "each-player"}


NAMES = (*NAMES, *(f"P{n}" for n in range(11, 27)))


def print_sheet(page: Page, app: Flask, base: str, players: int, tmp_path: Path) -> tuple[str, str]:
    """Print a finished game's sheet; the PDF's description and text."""
    variant = rules.with_house_rules(rules.PRESETS["ascenseur-a-charge"], LONGEST)
    entries = play_out(variant, players, 0, seed=players)
    game_id = store_game(app, "ascenseur-a-charge", NAMES[:players], entries, **LONGEST)
    page.goto(f"{base}/ascenseur/{game_id}/sheet")
    pdf = tmp_path / f"sheet-{players}.pdf"
    page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
    ARTIFACTS.mkdir(exist_ok=True)
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "100",
            "-f",
            "1",
            "-singlefile",
            str(pdf),
            str(ARTIFACTS / f"sheet-{players}-players"),
        ],
        check=True,
    )
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    words = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    with app.app_context():
        from scorekeeper.extensions import db
        from scorekeeper.games.models import Game

        totals = db.session.get(Game, game_id).sheet().totals  # type: ignore[union-attr]
    for total in totals:
        shown = f"+{total}" if total > 0 else (f"−{-total}" if total < 0 else "0")
        assert shown in words.stdout, f"total {shown} not printed"
    return info.stdout, words.stdout


def printed_extent(pdf: Path) -> tuple[float, float]:
    """How far down the page something is printed, and the smallest type used for a figure
    of the table (points)."""
    bbox = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    words = re.findall(
        r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>', bbox
    )
    lowest = max(float(bottom) for _top, bottom, _text in words)
    figures = [float(bottom) - float(top) for top, bottom, text in words if text.isdigit()]
    return lowest, min(figures)


def pages(info: str) -> int:
    match = re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE)
    assert match
    return int(match.group(1))


def page_size(info: str) -> tuple[float, float]:
    match = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", info, re.MULTILINE)
    assert match
    return float(match.group(1)), float(match.group(2))


@pytest.fixture(autouse=True)
def needs_poppler() -> None:
    if subprocess.run(["which", "pdfinfo"], capture_output=True).returncode != 0:
        pytest.fail("pdfinfo is missing: .ci/run installs Debian's poppler-utils")


def test_six_players_print_on_one_a4_portrait_page(
    page: Page, served_app: Flask, live_server: str, tmp_path: Path
) -> None:
    info, words = print_sheet(page, served_app, live_server, 6, tmp_path)
    assert pages(info) == 1
    width, height = page_size(info)
    assert abs(width - 595) < 2 and abs(height - 842) < 2  # A4, portrait
    assert "Ascenseur à charge" in words and "François" in words
    assert "Scorekeeper" not in words.split("Ascenseur à charge")[0]  # no navigation on paper
    (ARTIFACTS / "print-pages.txt").write_text(f"6 players: {pages(info)} page(s), portrait\n")
    lowest, smallest = printed_extent(tmp_path / "sheet-6.pdf")
    assert lowest > 0.85 * height  # the sheet and its chart fill the page
    assert smallest >= 6.5  # the figures at 6 pt at least (their box is taller than the type)


def test_two_players_and_their_longest_schedule_print_on_one_page(
    page: Page, served_app: Flask, live_server: str, tmp_path: Path
) -> None:
    info, words = print_sheet(page, served_app, live_server, 2, tmp_path)
    assert pages(info) == 1  # 104 rounds: two decks, the top round once per player
    assert "104" in words


def test_twenty_six_players_print_every_column(
    page: Page, served_app: Flask, live_server: str, tmp_path: Path
) -> None:
    info, words = print_sheet(page, served_app, live_server, 26, tmp_path)
    for name in NAMES[:26]:
        assert name in words, name
    with open(ARTIFACTS / "print-pages.txt", "a") as note:
        note.write(f"26 players: {pages(info)} page(s), landscape\n")


def test_ten_players_print_in_landscape(
    page: Page, served_app: Flask, live_server: str, tmp_path: Path
) -> None:
    info, words = print_sheet(page, served_app, live_server, 10, tmp_path)
    width, height = page_size(info)
    assert width > height  # A4 turned to landscape
    assert words.count("Bid") >= 10  # the players' column headings, on every page
    with open(ARTIFACTS / "print-pages.txt", "a") as note:
        note.write(f"10 players: {pages(info)} page(s), landscape\n")


def test_a_phone_shows_every_player_and_a_tablet_the_whole_sheet_in_its_own_box(
    page: Page, served_app: Flask, live_server: str
) -> None:
    variant = rules.PRESETS["ascenseur-a-charge"]
    game_id = store_game(served_app, "ascenseur-a-charge", NAMES[:6], play_out(variant, 6, 0, 1))
    page.goto(f"{live_server}/ascenseur/{game_id}/sheet")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not page.locator(".sheet-scroll").is_visible()
    phone = page.locator(".phone-sheet")
    assert phone.evaluate("el => el.scrollWidth <= el.parentElement.clientWidth")
    for name in NAMES[:6]:
        assert phone.get_by_role("columnheader", name=name).is_visible()
    page.set_viewport_size({"width": 800, "height": 900})
    assert not phone.is_visible()
    box = page.locator(".sheet-scroll")
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")  # the grid scrolls inside
    box.evaluate("el => { el.scrollLeft = 400; el.scrollTop = 200; }")
    round_cell = page.locator("tbody th.round-col").nth(8).bounding_box()
    name_cell = page.locator("thead th.player").nth(3).bounding_box()
    frame = box.bounding_box()
    assert round_cell and name_cell and frame
    assert abs(round_cell["x"] - frame["x"]) < 3  # the round column stays on the left
    assert abs(name_cell["y"] - frame["y"]) < 3  # the players' names stay on top
    page.set_viewport_size({"width": 360, "height": 740})
    page.screenshot(path=str(ARTIFACTS / "sheet-phone.png"), full_page=True)


MM = 72 / 25.4
"""Points (a PDF's unit) in a millimetre."""


def printed_words(pdf: Path) -> list[tuple[float, float, float, str]]:
    """Each word printed on the first page: its left, its right, its baseline's height, its
    text."""
    bbox = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", "-bbox", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = re.findall(
        r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
        bbox,
    )
    return [(float(left), float(right), float(low), word) for left, right, low, word in found]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_cards_dealt_print_clear_of_the_dealer_s_name(
    page: Page, served_app: Flask, live_server: str, tmp_path: Path, language: str
) -> None:
    """ "10Denis": each round's cards and its dealer are apart by more than a space, at every
    type size the sheet prints in (as many players as print on one page)."""
    page.context.add_cookies([{"name": "language", "value": language, "url": live_server}])
    for players in (2, 3, 5, 6, 7):
        variant = rules.PRESETS["ascenseur-a-charge"]
        entries = play_out(variant, players, 0, seed=players)
        game_id = store_game(served_app, "ascenseur-a-charge", NAMES[:players], entries)
        page.goto(f"{live_server}/ascenseur/{game_id}/sheet")
        pdf = tmp_path / f"sheet-{players}-{language}.pdf"
        page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
        words = printed_words(pdf)
        lines: dict[float, list[tuple[float, float, str]]] = {}
        for left, right, low, word in words:
            lines.setdefault(round(low, 1), []).append((left, right, word))
        gaps = []
        for line in lines.values():
            line.sort()
            for (_left, right, before), (left, _right, after) in itertools.pairwise(line):
                name = after.rstrip("…")  # a long name is cut short in its column
                if before.isdigit() and name and any(n.startswith(name) for n in NAMES):
                    gaps.append(left - right)
        assert len(gaps) >= len(entries) - 2, (players, len(gaps))
        assert min(gaps) >= 1.2 * MM, (players, language, min(gaps) / MM)
