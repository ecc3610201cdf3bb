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

from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.browser.test_club_over_https import Deployment, deployment  # noqa: F401 -- fixture
from tests.browser.test_club_phones import start_session, tap_result
from tests.browser.test_offline import FOUR_SPADES, go_offline, kept_note, until

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

    director.reload()
    late = director.locator(".arrived-late")
    # Boards 2 and 3 were entered well into the outage. Board 1, tapped as it began, may have
    # reached the server at once behind the service worker (Chromium's emulated outage lets
    # such a request through now and then), its answer lost: applied once all the same, and
    # then not late.
    expect(late).to_contain_text(re.compile("[23] entries arrived late"))
    for board in (2, 3):
        expect(late).to_contain_text(re.compile(rf"Board {board}, table 1: kept \d+ seconds"))
