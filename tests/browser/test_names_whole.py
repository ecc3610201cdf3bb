"""At 360 px, in English and in French, every player's name in the heading of a phone's score
sheet, every month and week of a patience log and every heading of theirs shows whole: nothing
cut short, nothing spilling out of its cell, no word broken across two lines (a name breaks at
a space or after a hyphen, never inside a word). Measured in the page, word by word."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page

from scorekeeper.echelons.models import EchelonsGame, PatienceRecord
from scorekeeper.extensions import db
from scorekeeper.games.models import Player
from scorekeeper.rules import ascenseur as rules
from tests.games import play_out, store_game

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TABLES = {
    "six long names": (
        "ascenseur-a-charge",
        ("Bruno-Alexandre", "Fanny-Laurence", "Marie-Hélène", "Jean-Baptiste", "Anne-Sophie",
         "Guillaume"),
    ),
    "Escalier, six": (
        "escalier",
        ("Bruno", "Fanny", "Maximilien", "Jean-Christophe", "Marie-Antoinette", "Gwendoline"),
    ),
    "five": ("ascenseur", ("Bruno", "Fanny", "Hélène", "Maximilien", "Élisabeth")),
    "four short names": ("ascenseur", ("Anne", "Bruno", "Chloé", "Denis")),
    "three": ("ascenseur", ("Christophe", "Geneviève", "Jean-Christophe")),
    "two of the longest": ("ascenseur", ("Marie-Christine Dupont", "Anne-Charlotte de Vaux")),
}  # fmt: skip

WHOLE = """(elements) => elements.flatMap((cell) => {
  const faults = [];
  const box = cell.getBoundingClientRect();
  if (cell.scrollWidth > cell.clientWidth + 1 || cell.scrollHeight > cell.clientHeight + 1) {
    faults.push("spills out of its cell");
  }
  const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = texts.nextNode(); node; node = texts.nextNode()) {
    for (const word of node.data.matchAll(/[^\\s-]+-?/g)) {  // a hyphen ends a word
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = Array.from(range.getClientRects()).filter((rect) => rect.width > 0);
      if (lines.length > 1) faults.push(`"${word[0]}" broken over ${lines.length} lines`);
      for (const rect of lines) {
        if (rect.left < box.left - 1 || rect.right > box.right + 1
            || rect.top < box.top - 1 || rect.bottom > box.bottom + 1) {
          faults.push(`"${word[0]}" cut at the cell's edge`);
        }
      }
    }
  }
  return faults.map((fault) => `${cell.textContent.trim()}: ${fault}`);
})"""
"""The faults of each cell: its text beyond its box, a word over two lines or cut short."""


def faults(page: Page, selector: str) -> list[str]:
    found: list[str] = page.locator(selector).evaluate_all(WHOLE)
    return found


def a_year_of_patience(app: Flask) -> str:
    """A log with a game on the 28th of every month of a year, and some between."""
    with app.app_context():
        log = EchelonsGame(players=[Player(seat=0, name="Marie-Hélène")])
        days = [date(2026, month, 28) for month in range(1, 13)] + [date(2026, 12, 1)]
        for number, day in enumerate(days, start=1):
            record = PatienceRecord(number=number, played_on=day, cards_home=20 + number)
            log.entries.append(record)
        db.session.add(log)
        db.session.commit()
        return log.id


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_name_month_and_heading_shows_whole_at_360_px(
    page: Page, served_app: Flask, live_server: str, language: str
) -> None:
    page.context.add_cookies([{"name": "language", "value": language, "url": live_server}])
    ARTIFACTS.mkdir(exist_ok=True)
    found = []
    for table, (preset, names) in TABLES.items():
        entries = play_out(rules.PRESETS[preset], len(names), 0, seed=len(names))
        game_id = store_game(served_app, preset, names, entries)
        page.goto(f"{live_server}/ascenseur/{game_id}/sheet")
        sheet = page.locator(".phone-sheet")
        assert sheet.is_visible()
        assert sheet.evaluate("el => el.scrollWidth <= el.parentElement.clientWidth"), table
        for name in names:
            assert sheet.get_by_role("columnheader", name=name, exact=True).is_visible()
        found += [f"{table}: {fault}" for fault in faults(page, ".phone-sheet thead th")]
        found += [f"{table}: {fault}" for fault in faults(page, ".phone-sheet tbody th")]
        if table == "six long names":
            sheet.screenshot(path=str(ARTIFACTS / f"sheet-phone-names-{language}.png"))
    page.goto(f"{live_server}/echelons/{a_year_of_patience(served_app)}")
    months = page.locator(".periods").first.locator("tbody th")
    assert months.count() == 12
    found += [f"log: {fault}" for fault in faults(page, ".periods th")]
    page.locator(".standings").screenshot(path=str(ARTIFACTS / f"log-periods-{language}.png"))
    assert not found, "\n".join(found)
