"""Entries through the network's outages: what the phones made, what arrived, what was lost.

    .venv/bin/python bench/outages.py [--outages 10,30,60,180,600] [--online 20]

The club deployment (Granian's workers on PostgreSQL behind nginx over HTTPS, as the README
sets it up), with 10 phones in Debian's Chromium at 360 × 740: the 8 table phones of an
8-table Mitchell session, 4 boards a round, and the phones of 2 home games of Ascenseur. Every
phone enters as fast as its page lets it (a table its boards and East-West's confirmations, a
family its bids and tricks) while the room's network goes down for each of ``--outages``
seconds in turn, ``--online`` seconds apart; then the network stays up until every phone has
sent what it kept. Prints, as its last line, one JSON object:

- ``entries_made``: the forms the phones took (each kept on the phone before it is sent);
- ``acknowledged``: those the server applied (their one-time token is in the database);
- ``lost``: made and never applied (target 0), listed in ``not_applied``; an entry the server
  refused in its own way (a page saying why) counts here too, and each such page is printed
  before the JSON line as an ``answered:`` line, for the reader to tell the two apart;
- ``applied_twice``: an entry applied over another or again: a correction logged, a result
  or a round stored more often than the phones made it (target 0);
- ``tokens_stored``: the one-time tokens the server holds (every applied entry's, once);
- ``made_offline``, ``made_by_kind``, ``outages_s``, ``phones``, ``minutes``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import BrowserContext, Page, sync_playwright  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402

from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402
from tests.browser.test_ascenseur_phone import FOUR, Taps, start_game  # noqa: E402
from tests.browser.test_club_over_https import club_over_https  # noqa: E402
from tests.browser.test_club_phones import start_session, tap_result  # noqa: E402
from tests.postgres import PostgresServer, server_binaries  # noqa: E402

TABLES = 8
BOARDS_A_ROUND = 4
# Every entry the phone's script keeps is noted apart, with its token, as it is kept.
NOTE_WHAT_IS_MADE = """(() => {
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    setItem.call(this, key, value);
    if (key !== "scorekeeper.kept") return;
    const made = JSON.parse(this.getItem("probe.made") || "{}");
    for (const entry of JSON.parse(value)) {
      made[entry.token] = made[entry.token] || { action: entry.action, label: entry.label,
        offline: !navigator.onLine };
    }
    setItem.call(this, "probe.made", JSON.stringify(made));
  };
  // What the server said back that was not an entry going in: a refusal, a message.
  document.addEventListener("DOMContentLoaded", () => {
    const said = Array.from(document.querySelectorAll(".flash.error, .conflict, .error-summary"));
    const answered = document.body.dataset.answered;
    if (!said.length && !answered) return;
    const notes = JSON.parse(localStorage.getItem("probe.said") || "[]");
    notes.push({ url: location.href, answered: answered || null,
      said: said.map((element) => element.textContent.trim().slice(0, 200)) });
    setItem.call(localStorage, "probe.said", JSON.stringify(notes));
  });
})();"""
RESULTS = ["made", "+1", "−1"]


@dataclass
class Phone:
    page: Page
    table: int | None = None
    entered: set[int] = field(default_factory=set)
    confirmed: set[str] = field(default_factory=set)
    taps: Taps | None = None

    @property
    def context(self) -> BrowserContext:
        return self.page.context


def opened(context: BrowserContext) -> Page:
    page = context.new_page()
    page.set_default_timeout(4_000)
    return page


def table_step(phone: Phone, rng: random.Random) -> bool:
    """One thing a table's phone does, if there is one: a board's result, East-West's
    confirmation, the next round."""
    page = phone.page
    if page.title().startswith("Not on this phone"):
        page.go_back()
        return True
    title = page.locator("#board-title")
    if title.count() and page.locator("form.deal-entry").count():
        board = int(re.sub(r"\D", "", title.inner_text()))
        if board not in phone.entered:
            phone.entered.add(board)
            level = rng.choice(["2", "3", "4"])
            fields = {"level": level, "strain": rng.choice(["S", "H", "NT"]), "declarer": "N"}
            tap_result(page, {**fields, "doubled": "0", "result": "0"}, moves_on=False)
            page.wait_for_timeout(300)
            return True
    for form in page.locator("form.inline").all():
        action = form.get_attribute("action") or ""
        if "confirm" in action and action not in phone.confirmed:
            phone.confirmed.add(action)
            form.get_by_role("button").click()
            page.wait_for_timeout(300)
            return True
    onwards = page.get_by_role("link", name=re.compile(r"^On to round \d+$"))
    if onwards.count():
        onwards.click()
        page.wait_for_timeout(300)
        return True
    return False


def home_step(phone: Phone) -> bool:
    """One round's bids, or its tricks (every bid nought; the last player's count fills
    itself in)."""
    page = phone.page
    assert phone.taps is not None
    bids, tricks = page.locator("form.bids:not(.sent)"), page.locator("form.tricks:not(.sent)")
    if bids.count():
        page.evaluate("document.querySelector('form.bids').classList.add('sent')")
        for line in page.locator(".keypad-panel:not([hidden]) .seat-line").all():
            line.click()
            phone.taps.key(0).click()
        page.wait_for_timeout(300)
        return True
    if tricks.count():
        page.evaluate("document.querySelector('form.tricks').classList.add('sent')")
        lines = page.locator(".keypad-panel:not([hidden]) .seat-line").all()
        for line in lines[:-1]:
            line.click()
            phone.taps.key(0).click()
        phone.taps.confirm("tricks")
        page.wait_for_timeout(300)
        return True
    return False


def step_all(phones: list[Phone], rng: random.Random) -> int:
    done = 0
    for phone in phones:
        try:
            acted = table_step(phone, rng) if phone.table else home_step(phone)
        except PlaywrightError:
            acted = False  # a page on its way to the next: its turn comes again
        done += acted
    return done


def kept_on(phone: Phone) -> int:
    """How many entries the phone keeps still (-1: its page is on its way)."""
    try:
        kept = phone.page.evaluate("localStorage.getItem('scorekeeper.kept')")
    except PlaywrightError:
        return -1
    return len(json.loads(kept or "[]"))


def made_on(phone: Phone) -> dict[str, Any]:
    return json.loads(phone.page.evaluate("localStorage.getItem('probe.made')") or "{}")


def said_on(phone: Phone) -> list[dict[str, Any]]:
    return json.loads(phone.page.evaluate("localStorage.getItem('probe.said')") or "[]")


def network(phones: list[Phone], up: bool) -> None:
    for phone in phones:
        phone.context.set_offline(not up)


def counted(database_url: str, made: dict[str, Any]) -> dict[str, Any]:
    engine = create_engine(database_url)
    with engine.connect() as connection:
        sent = {row[0] for row in connection.execute(text("select token from sent_form"))}
        corrections = connection.execute(text("select count(*) from correction")).scalar_one()
        results = connection.execute(
            text('select count(*), count(distinct (game_id, board, "table")) from club_result')
        ).one()
        rounds = connection.execute(
            text('select count(*), count(distinct (game_id, number)) from "round"')
        ).one()
        answered = connection.execute(text("select count(*) from sent_form")).scalar_one()
    engine.dispose()
    made_tokens = set(made)
    kinds = Counter(
        "result"
        if entry["label"].endswith("'s result")
        else "confirmation"
        if entry["label"].startswith("East-West")
        else "round"
        for entry in made.values()
    )
    return {
        "entries_made": len(made_tokens),
        "made_offline": sum(1 for entry in made.values() if entry["offline"]),
        "acknowledged": len(made_tokens & sent),
        "lost": len(made_tokens - sent),
        "applied_twice": corrections + (results[0] - results[1]) + (rounds[0] - rounds[1]),
        "tokens_stored": answered,
        "made_by_kind": dict(kinds),
        "not_applied": sorted(
            f"{entry['label']} ({entry['action'].split('/', 3)[-1]})"
            for token, entry in made.items()
            if token not in sent
        )[:40],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outages", default="10,30,60,180,600", help="seconds, in turn")
    parser.add_argument("--online", type=float, default=20, help="seconds between outages")
    parser.add_argument("--seed", type=int, default=55)
    arguments = parser.parse_args()
    outages = [float(seconds) for seconds in arguments.outages.split(",")]
    rng = random.Random(arguments.seed)
    binaries = server_binaries()
    assert binaries is not None, "no PostgreSQL server binaries (apt-get install postgresql)"
    postgres = PostgresServer(binaries).start()
    began = time.monotonic()
    try:
        with (
            tempfile.TemporaryDirectory() as folder,
            club_over_https(postgres, Path(folder)) as deployment,
            sync_playwright() as playwright,
        ):
            # The phones trust the club's certificate, as members' phones trust a real one.
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--ignore-certificate-errors"]
            )

            def context() -> BrowserContext:
                made = browser.new_context(viewport=PHONE, locale="en-GB")
                made.add_init_script(NOTE_WHAT_IS_MADE)
                return made

            director = opened(context())
            director.set_default_timeout(15_000)
            links = start_session(director, deployment.url, "mitchell", TABLES, BOARDS_A_ROUND)
            phones = [Phone(opened(context()), table=number) for number in range(1, TABLES + 1)]
            for phone, link in zip(phones, links, strict=True):
                phone.page.goto(link)
            for _game in range(2):
                page = opened(context())
                page.set_default_timeout(15_000)
                start_game(page, deployment.url, FOUR)
                page.set_default_timeout(4_000)
                phones.append(Phone(page, taps=Taps(page)))
            print(f"{len(phones)} phones at {deployment.url}", flush=True)
            for seconds in outages:
                until = time.monotonic() + arguments.online
                while time.monotonic() < until:
                    step_all(phones, rng)
                network(phones, up=False)
                print(f"network down for {seconds:.0f} s", flush=True)
                until = time.monotonic() + seconds
                while time.monotonic() < until:
                    if not step_all(phones, rng):
                        time.sleep(1)
                network(phones, up=True)
                print("network up", flush=True)
            # Up for good: on until every phone has entered everything and sent what it kept.
            quiet_since = time.monotonic()
            while time.monotonic() - quiet_since < 30:
                if step_all(phones, rng) or any(kept_on(phone) for phone in phones):
                    quiet_since = time.monotonic()
                else:
                    time.sleep(1)
            made: dict[str, Any] = {}
            said: list[dict[str, Any]] = []
            for phone in phones:
                made.update(made_on(phone))
                said.extend(said_on(phone))
            figures = counted(deployment.database_url, made)
            for note in said:  # what the server answered instead, for the reader to check
                print("answered:", json.dumps(note, ensure_ascii=False), flush=True)
            browser.close()
    finally:
        postgres.stop()
    figures.update(
        workload="outages",
        phones=len(phones),
        outages_s=outages,
        minutes=round((time.monotonic() - began) / 60, 1),
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
