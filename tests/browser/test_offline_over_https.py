"""A table's phone through a whole outage, behind the README's TLS proxy in front of the club
deployment: its service worker keeps the round's pages the table will need, the table enters a
whole round with the network down, and every result arrives once, in order, when it is back;
the director sees which arrived late. The phone keeps nothing of another table's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import create_engine, func, select

from scorekeeper.ascenseur.models import RoundRecord
from scorekeeper.games.models import SentForm
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS, PHONE, reload_live
from tests.browser.test_ascenseur_phone import FOUR, Taps, start_game
from tests.browser.test_club_over_https import Deployment, deployment  # noqa: F401 -- fixture
from tests.browser.test_club_phones import start_session, tap_result
from tests.browser.test_offline import FOUR_SPADES, first_round_bids, go_offline, kept_note, until

KEPT_PAGES = "scorekeeper-pages-1"


@pytest.fixture
def club_phones(browser: Browser) -> Iterator[list[Page]]:
    """The director's phone and a table's, trusting the club's certificate as a member's phone
    trusts a real one: a browser registers no service worker from a site it does not trust."""
    trusting = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--ignore-certificate-errors"]
    )
    contexts = [trusting.new_context(viewport=PHONE, locale="en-GB") for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.set_default_timeout(15_000)
    yield pages
    for context in contexts:
        context.close()
    trusting.close()


def kept_pages(page: Page) -> list[str]:
    return page.evaluate(
        f"caches.open('{KEPT_PAGES}').then((pages) => pages.keys())"
        ".then((requests) => requests.map((request) => request.url))"
    )


def test_a_table_enters_a_whole_round_offline_and_every_result_arrives_once(
    deployment: Deployment,  # noqa: F811 -- the fixture imported above
    club_phones: list[Page],
) -> None:
    director, table = club_phones
    links = start_session(director, deployment.url, "mitchell", 3)
    table.goto(links[0])
    expect(table.locator("#board-title")).to_have_text("Board 1")
    until(table, "Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)")
    table.reload()  # now through the worker, which keeps the page itself
    expect(table.locator("#board-title")).to_have_text("Board 1")
    own = urlsplit(links[0]).path
    until(table, f"caches.open('{KEPT_PAGES}').then((p) => p.keys()).then((k) => k.length >= 4)")
    kept = kept_pages(table)
    # This table's pages only: its round's boards and its next round, as drawn for it.
    assert all(urlsplit(url).path == own for url in kept), kept
    assert any("round=2" in url for url in kept) and any("board=3" in url for url in kept)

    go_offline(table)
    for board, heading in ((1, "Board 2"), (2, "Board 3")):
        tap_result(table, FOUR_SPADES, moves_on=False)
        expect(table.locator("#board-title")).to_have_text(heading)
        expect(kept_note(table)).to_contain_text(f"Board {board}'s result")
        # The copy the phone kept, and said to be one (its script waits for the network
        # rather than reloading it).
        expect(table.locator("body[data-kept-copy]")).to_have_count(1)
    tap_result(table, {**FOUR_SPADES, "result": "1"}, moves_on=False)
    expect(table.get_by_role("heading", name="Round 2 of 3")).to_be_visible()
    expect(kept_note(table).locator("p").first).to_have_text(
        "Kept on this phone, to be sent when the network is back: Board 1's result, "
        "Board 2's result, Board 3's result."
    )
    table.wait_for_timeout(11_000)  # long enough to arrive late
    table.context.set_offline(False)
    table.goto(links[0] + "?round=1")
    expect(kept_note(table)).to_have_count(0, timeout=30_000)
    expect(table.locator("body[data-kept-copy]")).to_have_count(0)  # the server's page again
    lines = table.locator(".board-line")
    for board, result in ((1, "4♠ N made"), (2, "4♠ N made"), (3, "4♠ N +1")):
        expect(lines.filter(has_text=f"Board {board}")).to_contain_text(result)
    expect(table.locator(".conflict")).to_have_count(0)

    reload_live(director)
    late = director.locator(".arrived-late")
    # Boards 2 and 3 were entered well into the outage. Board 1, tapped as it began, may have
    # reached the server at once behind the service worker (Chromium's emulated outage lets
    # such a request through now and then), its answer lost: applied once all the same, and
    # then not late.
    expect(late).to_contain_text(re.compile("[23] entries arrived late"))
    for board in (2, 3):
        expect(late).to_contain_text(re.compile(rf"Board {board}, table 1: kept \d+ seconds"))


def counted(served: Deployment, table: object) -> int:
    engine = create_engine(served.database_url)
    try:
        with engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(table)).scalar_one())
    finally:
        engine.dispose()


def test_a_home_game_enters_a_whole_round_of_bids_and_tricks_offline(
    deployment: Deployment,  # noqa: F811 -- the fixture imported above
    club_phones: list[Page],
) -> None:
    page = club_phones[0]
    start_game(page, deployment.url, FOUR)
    game = urlsplit(page.url).path
    until(page, "Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)")
    page.reload()  # now through the worker, which keeps the page and the steps drawn ahead
    expect(page.get_by_text("Round 1 of")).to_be_visible()
    until(page, f"caches.open('{KEPT_PAGES}').then((p) => p.keys()).then((k) => k.length >= 4)")
    kept = {urlsplit(url).path for url in kept_pages(page)}
    assert kept == {game, *(f"{game}/ahead/{step}" for step in ("1/tricks", "2/bids", "2/tricks"))}

    go_offline(page)
    taps = Taps(page)
    first_round_bids(taps)  # the last bid sends them: kept, and on to round 1's tricks
    expect(page.get_by_text("Drawn ahead on this phone")).to_be_visible()
    expect(page.locator("body[data-kept-copy]")).to_have_count(1)
    # The bids the server has not seen, written in from what the phone keeps.
    expect(taps.line("Bruno")).to_contain_text("bid 1")
    expect(taps.line("Chloé")).to_contain_text("bid 0")
    taps.number("Bruno", 1)  # the others' nought follow
    taps.confirm("tricks")
    expect(page.get_by_text("Round 2 of")).to_be_visible()
    # Round 2, two cards, Bruno deals: Chloé bids first.
    for name, bid in (("Chloé", 0), ("Denis", 1), ("Anne", 0), ("Bruno", 0)):
        taps.number(name, bid)
    expect(page.locator("form.tricks")).to_be_visible()
    expect(kept_note(page).locator("p").first).to_have_text(
        "Kept on this phone, to be sent when the network is back: Round 1's bids, "
        "Round 1's tricks, Round 2's bids."
    )
    # Round 1's bids, tapped as the outage began, may have reached the server at once behind
    # the worker (see the table's test above), their answer lost; nothing after them has.
    assert counted(deployment, RoundRecord.__table__) <= 1
    assert counted(deployment, SentForm.__table__) <= 1

    page.context.set_offline(False)
    page.goto(deployment.url + game)
    expect(kept_note(page)).to_have_count(0, timeout=30_000)
    expect(page.locator("body[data-kept-copy]")).to_have_count(0)  # the server's page again
    expect(page.get_by_text("Round 2 of")).to_be_visible()
    expect(taps.line("Denis")).to_contain_text("bid 1")  # round 2's tricks asked, its bids in
    assert counted(deployment, RoundRecord.__table__) == 2
    assert counted(deployment, SentForm.__table__) == 3  # each step once
