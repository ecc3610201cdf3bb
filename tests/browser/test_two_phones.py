"""Two phones on one game, in two real browser contexts: what one enters, the other shows."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from playwright.sync_api import Browser, expect

from tests.browser.conftest import PHONE
from tests.browser.test_ascenseur_phone import FOUR, Taps, start_game


def test_an_entry_on_one_phone_appears_on_the_other_within_three_seconds(
    browser: Browser, live_server: str
) -> None:
    scorer_context = browser.new_context(viewport=PHONE, locale="en-GB")
    viewer_context = browser.new_context(viewport=PHONE, locale="en-GB")
    scorer, viewer = scorer_context.new_page(), viewer_context.new_page()
    start_game(scorer, live_server, FOUR)
    viewer.goto(scorer.url)  # the viewer link: the game's address alone
    expect(viewer.get_by_text("You are looking on")).to_be_visible()
    assert viewer.get_by_role("radio").count() == 0

    taps = Taps(scorer)
    for name in ("Bruno", "Chloé", "Denis", "Anne"):
        taps.number(name, 0)
    taps.bids_sent()
    expect(viewer.get_by_role("heading", name="Rounds entered")).to_be_visible(timeout=3000)

    taps.number("Bruno", 1)
    taps.confirm("tricks")
    expect(scorer.get_by_text("Round 2 of 23")).to_be_visible()
    expect(viewer.get_by_text("Round 2 of 23")).to_be_visible(timeout=3000)
    expect(viewer.locator(".standings")).to_contain_text(re.compile(r"Bruno\s*−1"))

    # A viewer holding the scorer link may score too.
    scorer.get_by_text("Other phones at the table").click()
    scorer_link = scorer.get_by_role("textbox", name="Link to keep the score").input_value()
    # The link names the laptop's address on the network; the test stays on the loopback.
    viewer.goto(live_server + urlsplit(scorer_link).path)
    expect(viewer.get_by_text("can now enter and correct")).to_be_visible()
    expect(viewer.locator(".keypad-panel")).to_be_visible()
    scorer_context.close()
    viewer_context.close()


def test_without_a_wake_lock_a_silent_video_keeps_the_screen_on(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    # A phone on plain http: no Wake Lock API.
    context.add_init_script("delete Navigator.prototype.wakeLock;")
    page = context.new_page()
    start_game(page, live_server, FOUR)
    video = page.locator("video")
    expect(video).to_have_count(1)
    assert video.evaluate("v => v.muted && v.loop && v.hasAttribute('playsinline')")
    sources = video.evaluate("v => Array.from(v.querySelectorAll('source'), s => s.type)")
    assert sources == ["video/webm", "video/mp4"]
    page.locator(".deal").click()  # the first tap starts it
    # Either the video plays, or the page says the phone may go to sleep.
    for _poll in range(150):  # a busy machine may take seconds to start a video
        playing = video.evaluate("v => v.currentTime > 0 && !v.paused")
        if playing or page.locator("#awake-note").is_visible():
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("neither a playing video nor a note")
    context.close()


def test_a_page_left_by_its_phone_is_not_reloaded_across_the_navigation(
    browser: Browser, live_server: str
) -> None:
    """A change seen by the poll while the phone is going to another page (a link tapped, a form
    sent) does not reload the page over that navigation; if the phone stays after all (a file
    downloaded), the page says a few seconds later that the game changed."""
    scorer_context = browser.new_context(viewport=PHONE, locale="en-GB")
    viewer_context = browser.new_context(viewport=PHONE, locale="en-GB")
    scorer, viewer = scorer_context.new_page(), viewer_context.new_page()
    start_game(scorer, live_server, FOUR)
    viewer.goto(scorer.url)
    expect(viewer.get_by_text("You are looking on")).to_be_visible()
    viewer.evaluate("window.drawnOnce = true")
    # The viewer's polls see nothing new until the scorer's bids are in.
    viewer.route("**/version", lambda route: route.fulfill(status=304))
    taps = Taps(scorer)
    for name in ("Bruno", "Chloé", "Denis", "Anne"):
        taps.number(name, 0)
    taps.bids_sent()
    expect(scorer.get_by_role("heading", name="Rounds entered")).to_be_visible()

    viewer.evaluate("window.dispatchEvent(new Event('beforeunload'))")  # as a tap on a link
    with viewer.expect_response(lambda r: r.url.endswith("/version") and r.status == 200):
        viewer.unroute("**/version")
    viewer.wait_for_timeout(500)
    assert viewer.evaluate("window.drawnOnce === true"), "reloaded over its own navigation"
    expect(viewer.get_by_role("heading", name="Rounds entered")).to_have_count(0)
    # Still here after a few seconds: the page says the game changed, one tap from showing it.
    note = viewer.get_by_role("status").filter(has_text="The game changed on another phone")
    expect(note).to_be_visible(timeout=10_000)
    assert viewer.evaluate("window.drawnOnce === true")
    note.get_by_role("link", name="Show it").click()
    expect(viewer.get_by_role("heading", name="Rounds entered")).to_be_visible()
    scorer_context.close()
    viewer_context.close()
