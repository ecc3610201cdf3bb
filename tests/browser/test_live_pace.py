"""How often a phone following a game asks whether it changed, on a fake clock: often after a
change, less once the game is quiet, never while the page is hidden, at once when shown."""

from __future__ import annotations

from datetime import datetime, timedelta

from playwright.sync_api import Browser, Page

from scorekeeper.serving import LIVE_PACE
from tests.browser.conftest import PHONE
from tests.browser.test_ascenseur_phone import FOUR, start_game

MOVING_MS = round(LIVE_PACE.moving_every * 1000)
QUIET_MS = round(LIVE_PACE.quiet_every * 1000)
QUIET_AFTER_MS = round(LIVE_PACE.quiet_after * 1000)
START = datetime(2026, 11, 24, 20, 0)


def polls_after(page: Page, asked: list[str], milliseconds: int) -> int:
    """Move the page's clock on; the polls it sent meanwhile, each answered."""
    before = len(asked)
    page.clock.run_for(milliseconds)
    page.wait_for_timeout(300)  # a poll sent is answered on the real clock
    return len(asked) - before


def until_a_poll(page: Page, asked: list[str], step_ms: int = 500) -> None:
    """Move the page's clock on by steps until it asks: it has asked less than a step ago."""
    for _step in range(2 * QUIET_MS // step_ms):
        if polls_after(page, asked, step_ms):
            return
    raise AssertionError("the page stopped asking")


def set_hidden(page: Page, hidden: bool) -> None:
    page.evaluate(
        """hidden => {
            Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
            Object.defineProperty(document, "visibilityState",
                { value: hidden ? "hidden" : "visible", configurable: true });
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def test_a_phone_asks_at_the_pace_of_the_game(browser: Browser, live_server: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    scorer = context.new_page()
    start_game(scorer, live_server, FOUR)
    viewer = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    viewer.clock.install(time=START)
    viewer.clock.pause_at(START + timedelta(seconds=1))  # time moves only when told
    asked: list[str] = []
    viewer.on("requestfinished", lambda r: asked.append(r.url) if "/version" in r.url else None)
    viewer.goto(scorer.url)
    assert viewer.locator("body").get_attribute("data-live-pace") == LIVE_PACE.attribute()

    # Just after a change: every couple of seconds.
    assert polls_after(viewer, asked, MOVING_MS - 300) == 0
    assert polls_after(viewer, asked, 400) == 1
    for _poll in range(3):
        assert polls_after(viewer, asked, MOVING_MS + 100) == 1
    # Once the game has been quiet a while: less often.
    polls_after(viewer, asked, QUIET_AFTER_MS)
    until_a_poll(viewer, asked)
    assert polls_after(viewer, asked, QUIET_MS - 600) == 0
    assert polls_after(viewer, asked, 700) == 1
    for _poll in range(3):
        assert polls_after(viewer, asked, QUIET_MS + 100) == 1
    # Hidden (the phone in a pocket): not at all; shown again: at once.
    set_hidden(viewer, True)
    assert polls_after(viewer, asked, 10 * QUIET_MS) == 0
    before = len(asked)
    set_hidden(viewer, False)
    viewer.wait_for_timeout(500)
    assert len(asked) == before + 1
    assert polls_after(viewer, asked, QUIET_MS + 100) == 1
    context.close()
    viewer.context.close()
