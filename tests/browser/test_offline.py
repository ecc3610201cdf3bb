"""A phone that loses the network loses nothing, on ``scorekeeper serve`` over plain HTTP (no
service worker there): a form sent while the network or the server is down is kept on the
phone, the page says so, and it is sent by itself once the server answers, once; what the
server answers instead (another phone's entry, the director's change) is shown, not lost."""

from __future__ import annotations

import itertools
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route, expect
from sqlalchemy import func, select

from scorekeeper.ascenseur.models import RoundRecord
from scorekeeper.cli import http_server
from scorekeeper.club.rows import ClubResult
from scorekeeper.extensions import db
from scorekeeper.games.models import SentForm
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS, PHONE, reload_live
from tests.browser.test_ascenseur_phone import FOUR, Taps, start_game
from tests.browser.test_club_phones import start_session, tap_result
from tests.server.processes import free_port

FOUR_SPADES = {"level": "4", "strain": "S", "declarer": "N", "doubled": "0", "result": "0"}
THREE_NT = {"level": "3", "strain": "NT", "declarer": "S", "doubled": "0", "result": "1"}


def kept_note(page: Page) -> Locator:
    return page.locator("#kept-note")


def until(page: Page, script: str, seconds: float = 15) -> None:
    """Wait for ``script`` to come true on the page (page.wait_for_function evaluates a string,
    which the pages' own policy forbids)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"never true: {script}"
        page.wait_for_timeout(200)


def go_offline(page: Page) -> None:
    """The phone's network cut, and cut for the page's own requests before anything is tapped:
    the browser's emulated outage may let a request through just after it begins (seen behind
    a service worker), and a form sent then arrives at once, as it would on a network that
    fails only on the way back."""
    page.context.set_offline(True)
    until(
        page,
        "!navigator.onLine && fetch('/?offline-probe=' + Date.now(), { cache: 'no-store' })"
        ".then(() => false, () => true)",
    )


def phone(browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def opened(browser: Browser, profile: Path) -> BrowserContext:
    """The phone's browser opened on its own profile, as it was when last closed."""
    context = browser.browser_type.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        viewport=PHONE,
        locale="en-GB",
    )
    context.set_default_timeout(15_000)
    return context


def stored(app: Flask, statement: object) -> object:
    with app.app_context():
        return db.session.execute(statement).scalar_one()  # type: ignore[call-overload]


def tricks_entered(app: Flask, number: int) -> int:
    """How many rounds ``number`` hold tricks: 0 or 1, never 2."""
    return int(
        stored(
            app,
            select(func.count())
            .select_from(RoundRecord)
            .where(RoundRecord.number == number, RoundRecord.tricks.is_not(None)),
        )
    )


@contextmanager
def round_one_tricks_asked(browser: Browser, base: str) -> Iterator[tuple[Page, Taps]]:
    """A phone of its own on a four-player game at ``base``, round 1's bids in: its page asks
    for the tricks."""
    page = phone(browser)
    try:
        start_game(page, base, FOUR)
        taps = Taps(page)
        first_round_bids(taps)
        yield page, taps
    finally:
        page.context.close()


def first_round_bids(taps: Taps) -> None:
    """Round 1, one card, Anne deals: Bruno 1, Chloé 0, Denis 0, Anne 1."""
    for name, bid in (("Bruno", 1), ("Chloé", 0), ("Denis", 0), ("Anne", 1)):
        taps.number(name, bid)
    taps.bids_sent()


def test_a_round_sent_offline_arrives_once_after_the_browser_is_closed_and_opened_again(
    served_app: Flask, live_server: str, browser: Browser, tmp_path: Path
) -> None:
    profile = tmp_path / "profile"
    context = opened(browser, profile)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        start_game(page, live_server, FOUR)
        game = page.url
        taps = Taps(page)
        first_round_bids(taps)
        go_offline(page)
        taps.number("Bruno", 1)  # the others' nought follow
        taps.confirm("tricks")
        expect(kept_note(page).locator("p").first).to_have_text(
            "Kept on this phone, to be sent when the network is back: Round 1's tricks."
        )
        expect(taps.value("Bruno")).to_have_text("1")  # the page still holds what was tapped
        assert tricks_entered(served_app, 1) == 0
        page.wait_for_timeout(1500)  # a try or two on the way
        context.close()

        context = opened(browser, profile)
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(game)
        expect(page.get_by_text("Round 2 of")).to_be_visible()
        expect(kept_note(page)).to_have_count(0)
        assert tricks_entered(served_app, 1) == 1
        # Nothing left on the phone (another tab of it, the one the browser opened again, may
        # be the one that sent it and let it go).
        until(page, "localStorage.getItem('scorekeeper.kept') === null")
        # Each form the script sent has its token: the bids and the tricks, each once.
        assert stored(served_app, select(func.count()).select_from(SentForm)) == 2
    finally:
        context.close()


@pytest.fixture
def restartable(served_app: Flask) -> Iterator[dict[str, object]]:
    """``scorekeeper serve``'s server, which the test stops and starts again on its port."""
    state: dict[str, object] = {}

    def start(port: int) -> None:
        server = http_server(served_app, "127.0.0.1", port, 4)
        server.prepare()
        thread = threading.Thread(target=server.serve, daemon=True)
        thread.start()
        state.update(server=server, thread=thread, port=server.bind_addr[1])

    def stop() -> None:
        server = state.pop("server", None)
        if server is not None:
            server.stop()  # type: ignore[attr-defined]
            state["thread"].join(timeout=30)  # type: ignore[attr-defined]

    state.update(start=start, stop=stop)
    start(free_port())  # a port of its own, taken again at once (an ephemeral one is not)
    yield state
    stop()


def test_a_round_sent_while_the_server_restarts_arrives_once_it_is_back(
    served_app: Flask, restartable: dict[str, object], browser: Browser
) -> None:
    base = f"http://127.0.0.1:{restartable['port']}"
    with round_one_tricks_asked(browser, base) as (page, taps):
        restartable["stop"]()  # type: ignore[operator]
        taps.number("Bruno", 1)
        taps.confirm("tricks")
        expect(kept_note(page)).to_contain_text("Round 1's tricks")
        time.sleep(3)
        assert tricks_entered(served_app, 1) == 0
        restartable["start"](restartable["port"])  # type: ignore[operator]
        expect(page.get_by_text("Round 2 of")).to_be_visible(timeout=40_000)
        expect(kept_note(page)).to_have_count(0)
        assert tricks_entered(served_app, 1) == 1


def failing_sends(
    page: Page, times: int | None = None, status: int = 500, headers: dict[str, str] | None = None
) -> list[str]:
    """Round 1's tricks sent to a server failing on them (500, or the ``status`` given with
    its ``headers``), ``times`` times or every time; the sends it failed on, as they come."""
    failed: list[str] = []

    def failing(route: Route) -> None:
        if route.request.method == "POST" and (times is None or len(failed) < times):
            failed.append(route.request.url)
            route.fulfill(status=status, body="Not now", headers=headers or {})
        else:
            route.continue_()

    page.route("**/rounds/1/tricks", failing)
    return failed


def test_an_entry_the_server_fails_on_is_kept_and_sent_again_until_it_is_taken(
    served_app: Flask, live_server: str, browser: Browser
) -> None:
    with round_one_tricks_asked(browser, live_server) as (page, taps):
        failed = failing_sends(page, times=2)
        taps.number("Bruno", 1)
        taps.confirm("tricks")
        expect(kept_note(page)).to_contain_text(
            "Kept on this phone: the server could not take Round 1's tricks yet."
        )
        expect(page.get_by_text("Round 2 of")).to_be_visible(timeout=30_000)
        expect(kept_note(page)).to_have_count(0)
        assert len(failed) == 2 and tricks_entered(served_app, 1) == 1


def test_an_entry_the_server_keeps_failing_on_is_held_for_the_phone_to_send_again(
    served_app: Flask, live_server: str, browser: Browser
) -> None:
    with round_one_tricks_asked(browser, live_server) as (page, taps):
        failed = failing_sends(page)
        taps.number("Bruno", 1)
        taps.confirm("tricks")
        expect(kept_note(page)).to_contain_text(
            "The server failed on Round 1's tricks each time it was sent.", timeout=40_000
        )
        tries = len(failed)
        page.wait_for_timeout(3000)
        assert len(failed) == tries == 5  # held: not sent again by itself
        page.unroute("**/rounds/1/tricks")
        kept_note(page).get_by_role("button", name="Send them now").click()
        expect(page.get_by_text("Round 2 of")).to_be_visible()
        expect(kept_note(page)).to_have_count(0)
        assert tricks_entered(served_app, 1) == 1


def test_a_server_busy_again_and_again_is_waited_for_and_holds_nothing(
    served_app: Flask, live_server: str, browser: Browser
) -> None:
    """Busy (429 with Retry-After) is not failing: the entry is sent again when the server
    says, however many times, and is never held."""
    with round_one_tricks_asked(browser, live_server) as (page, taps):
        busy = failing_sends(page, times=7, status=429, headers={"Retry-After": "1"})
        taps.number("Bruno", 1)
        taps.confirm("tricks")
        expect(page.get_by_text("Round 2 of")).to_be_visible(timeout=30_000)
        expect(kept_note(page)).to_have_count(0)
        assert len(busy) == 7 and tricks_entered(served_app, 1) == 1


def test_a_server_busy_that_says_try_again_now_is_not_sent_to_in_a_spin(
    served_app: Flask, live_server: str, browser: Browser
) -> None:
    """ "Retry-After: 0" is taken as the shortest wait, not as a licence to send at once."""
    with round_one_tricks_asked(browser, live_server) as (page, taps):
        sent_at: list[float] = []

        def busy_now(route: Route) -> None:
            if route.request.method == "POST" and len(sent_at) < 4:
                sent_at.append(time.monotonic())
                route.fulfill(status=429, body="Not now", headers={"Retry-After": "0"})
            else:
                route.continue_()

        page.route("**/rounds/1/tricks", busy_now)
        taps.number("Bruno", 1)
        taps.confirm("tricks")
        expect(page.get_by_text("Round 2 of")).to_be_visible(timeout=30_000)
        gaps = [later - sooner for sooner, later in itertools.pairwise(sent_at)]
        assert len(sent_at) == 4 and min(gaps) >= 0.9, gaps
        assert tricks_entered(served_app, 1) == 1


def test_an_entry_kept_that_another_phone_made_the_same_is_taken(
    served_app: Flask, live_server: str, browser: Browser
) -> None:
    with round_one_tricks_asked(browser, live_server) as (page, taps):
        page.get_by_text("Other phones at the table").click()
        link = page.get_by_role("textbox", name="Link to keep the score").input_value()
        go_offline(page)
        taps.number("Bruno", 1)
        taps.confirm("tricks")
        expect(kept_note(page)).to_contain_text("Round 1's tricks")
        other = phone(browser)
        try:
            other.goto(live_server + urlsplit(link).path)  # the loopback, not the network's
            other_taps = Taps(other)
            other_taps.number("Bruno", 1)
            other_taps.confirm("tricks")
            expect(other.get_by_text("Round 2 of")).to_be_visible()
        finally:
            other.context.close()
        taps.number("Chloé", 0)  # the phone's holder at it again: the page is not taken away
        page.context.set_offline(False)
        # What it kept is what the game holds: taken, said to have arrived, nothing held.
        expect(kept_note(page)).to_have_text("Arrived: Round 1's tricks.", timeout=30_000)
        assert page.evaluate("localStorage.getItem('scorekeeper.kept')") is None
        assert page.evaluate("localStorage.getItem('scorekeeper.kept.paused')") is None
        assert tricks_entered(served_app, 1) == 1
        page.reload()
        expect(page.get_by_text("Round 2 of")).to_be_visible()


def test_a_page_from_on_the_way_is_not_taken_for_the_entry_and_the_phone_decides(
    served_app: Flask, live_server: str, browser: Browser
) -> None:
    with round_one_tricks_asked(browser, live_server) as (page, taps):
        game = page.url
        # A proxy's page where the app's answer should be, for the script and for the browser.
        page.route(
            "**/rounds/1/tricks",
            lambda route: route.fulfill(
                status=200, content_type="text/html", body="<p>Welcome to the hotel Wi-Fi</p>"
            ),
        )
        taps.number("Bruno", 1)
        taps.confirm("tricks")
        expect(page.get_by_text("Welcome to the hotel Wi-Fi")).to_be_visible()
        page.unroute("**/rounds/1/tricks")
        page.goto(game)
        expect(kept_note(page)).to_contain_text(
            "Sent, and no page came back to say it was entered: Round 1's tricks."
        )
        page.wait_for_timeout(2500)  # not sent again by itself, over and over
        assert tricks_entered(served_app, 1) == 0
        forget = kept_note(page).get_by_role("button", name="Forget this one")
        forget.click()
        kept_note(page).get_by_role(
            "button", name="Tap again to forget it: it will not be sent."
        ).click()
        expect(kept_note(page)).to_have_count(0)
        assert page.evaluate("localStorage.getItem('scorekeeper.kept')") is None
        taps.number("Bruno", 1)
        taps.confirm("tricks")
        expect(page.get_by_text("Round 2 of")).to_be_visible()
        assert tricks_entered(served_app, 1) == 1


def results(app: Flask, table: int, board: int) -> list[tuple[int | None, int]]:
    with app.app_context():
        rows = db.session.scalars(
            select(ClubResult).where(ClubResult.table == table, ClubResult.board == board)
        )
        return [(row.level, row.tricks) for row in rows]  # type: ignore[attr-defined]


@pytest.fixture
def phones(browser: Browser, live_server: str) -> Iterator[Callable[[], Page]]:
    """Phones of their own, each closed before the server stops: a phone left open polls a
    server that is stopping, and the test's end then waits on it."""
    opened: list[Page] = []

    def new() -> Page:
        opened.append(phone(browser))
        return opened[-1]

    yield new
    for page in opened:
        page.close()
        page.context.close()


def test_table_phones_offline_another_phone_on_the_same_board_and_the_director_closing(
    served_app: Flask, live_server: str, phones: Callable[[], Page]
) -> None:
    director = phones()
    links = start_session(director, live_server, "mitchell", 3)
    first, second, third, beside = (phones() for _ in range(4))
    for page, link in ((first, links[0]), (second, links[1]), (third, links[2])):
        page.goto(link)
    beside.goto(links[0])  # a second phone at table 1

    # Table 2 enters board 4 offline; it arrives late, once the network is back.
    go_offline(second)
    tap_result(second, FOUR_SPADES, moves_on=False)
    expect(kept_note(second).locator("p").first).to_have_text(
        "Kept on this phone, to be sent when the network is back: Board 4's result."
    )
    # Table 1 enters board 1 offline while the other phone at the table enters it online.
    go_offline(first)
    tap_result(first, FOUR_SPADES, moves_on=False)
    expect(kept_note(first)).to_contain_text("Board 1's result")
    tap_result(beside, THREE_NT)
    second.wait_for_timeout(11_000)  # long enough to arrive late
    second.context.set_offline(False)
    expect(second.locator("#board-title")).to_have_text("Board 5")
    expect(kept_note(second)).to_have_count(0)

    first.context.set_offline(False)
    expect(
        first.get_by_role("heading", name="Board 1 was entered on another phone")
    ).to_be_visible()
    expect(first.get_by_text(re.compile("There: .*3NT"))).to_be_visible()
    expect(first.get_by_text(re.compile("Yours: .*4♠"))).to_be_visible()
    expect(kept_note(first)).to_have_count(0)  # answered: it is on the page, not on the phone
    first.get_by_role("button", name="Put mine instead").click()
    expect(first.get_by_text("Board 1: the result is changed.")).to_be_visible()

    # Table 3 enters offline; the director closes the session meanwhile. So does the other
    # phone at table 1, whose holder then begins the next board: it is left where it is.
    go_offline(third)
    tap_result(third, FOUR_SPADES, moves_on=False)
    expect(kept_note(third)).to_contain_text("Board 7's result")
    reload_live(beside)
    expect(beside.locator("#board-title")).to_have_text("Board 2")
    go_offline(beside)
    tap_result(beside, FOUR_SPADES, moves_on=False)
    expect(kept_note(beside)).to_contain_text("Board 2's result")
    beside.get_by_role("group", name="Level").get_by_role("radio", name="3", exact=True).click()
    reload_live(director)
    director.get_by_role("button", name="Close the session").click()
    expect(director.get_by_role("button", name="Open the session again")).to_be_visible()
    third.context.set_offline(False)
    expect(
        third.get_by_text("The session is closed: ask the director to change a result.").first
    ).to_be_visible()
    expect(kept_note(third)).to_have_count(0)
    expect(third.get_by_text("Arrived:")).to_have_count(0)  # refused is not said to be in
    beside.context.set_offline(False)
    refusal = kept_note(beside).get_by_text("Not entered: Board 2's result.")
    expect(refusal).to_be_visible(timeout=30_000)
    beside.goto(links[0] + "/travellers")  # the refusal is the phone's until its page is read
    expect(refusal).to_be_visible()
    reload_live(beside)
    expect(refusal).to_be_visible()
    refusal.get_by_role("link", name="See why").click()
    expect(
        beside.get_by_text("The session is closed: ask the director to change a result.").first
    ).to_be_visible()
    expect(kept_note(beside)).to_have_count(0)
    reload_live(beside)
    expect(kept_note(beside)).to_have_count(0)

    assert results(served_app, 1, 1) == [(4, 10)]  # one winner at table 1: the one put last
    assert results(served_app, 2, 4) == [(4, 10)]  # arrived once
    assert results(served_app, 3, 7) == []  # answered, not applied
    assert results(served_app, 1, 2) == []
    reload_live(director)
    late = director.locator(".arrived-late")
    expect(late).to_contain_text("1 entry arrived late")
    expect(late).to_contain_text(re.compile(r"Board 4, table 2: kept \d+ seconds on the phone"))


# What the app answers for a page the service worker keeps: (status, marked to keep) and
# whether the answer comes from the app itself (a redirect is seen by the worker only as
# opaque).
WORKER_ANSWERS = [
    (200, True),
    (200, False),
    (302, False),
    (403, False),
    (404, False),
    (409, False),
    (410, False),
    (429, False),
    (500, False),
    (502, False),
    (503, False),
    (504, False),
]


def test_the_worker_lets_a_kept_page_go_only_when_the_app_says_it_is_no_longer_the_phones(
    live_server: str, browser: Browser
) -> None:
    """The rule as one table: a copy is replaced by a page marked to keep, let go on the
    app's own word that the page is gone (403, 404, 410) or not to be kept (a page of its
    own, unmarked), and stays on any other answer (an error, a redirect, a proxy's "too
    many", a conflict), which says nothing of the page. The worker's own code runs in a page
    of the app's address, on the browser's own cache and answers (a blank page, as the
    worker's script shares names with the pages' own)."""
    page = phone(browser)
    try:
        page.route(
            "**/worker-under-test",
            lambda route: route.fulfill(body="<!doctype html><title>Worker</title>"),
        )
        page.goto(live_server + "/worker-under-test")
        page.add_script_tag(url="/static/service-worker.js")

        def answer(route: Route) -> None:
            status = int(route.request.url.rsplit("/", 2)[-2])
            marked = route.request.url.endswith("/keep")
            headers = {"Content-Type": "text/html; charset=utf-8"}
            if marked:
                headers["Scorekeeper-Offline"] = "keep"
            if status == 302:
                headers["Location"] = "/"
            route.fulfill(status=status, body="fresh", headers=headers)

        page.route("**/answers/**", answer)
        for status, marked in WORKER_ANSWERS:
            after = page.evaluate(
                """async (address) => {
                  const url = location.origin + "/kept-page";
                  const pages = await caches.open(PAGES);
                  await pages.put(url, new Response("old"));
                  await answered(url, await fetch(address, { redirect: "manual" }));
                  const copy = await pages.match(url);
                  return copy ? copy.text() : null;
                }""",
                f"/answers/{status}/{'keep' if marked else 'plain'}",
            )
            if status == 200 and marked:
                expected: str | None = "fresh"
            elif status in (403, 404, 410) or status == 200:
                expected = None
            else:
                expected = "old"
            assert after == expected, (status, marked)
        # The app's own answers alike: a page it does not keep, an address it does not have.
        for address, expected in (("/", None), ("/no-such-page", None)):
            after = page.evaluate(
                """async (address) => {
                  const url = location.origin + "/kept-page";
                  const pages = await caches.open(PAGES);
                  await pages.put(url, new Response("old"));
                  await answered(url, await fetch(address, { redirect: "manual" }));
                  return Boolean(await pages.match(url));
                }""",
                address,
            )
            assert after is (expected is not None), address
    finally:
        page.context.close()
