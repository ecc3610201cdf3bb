"""A real server and a real headless Chromium at phone size (360 × 740)."""

from __future__ import annotations

import faulthandler
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect, sync_playwright

from scorekeeper.cli import http_server
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.conftest import DATABASES, app_on, database_url

# What a page should show, waited for longer than Playwright's 5 s: the suite's workers share
# a small host's cores, and a server busy for another worker's test answers in seconds.
expect.set_options(timeout=15_000)


@pytest.fixture(params=DATABASES)
def served_app(request: pytest.FixtureRequest) -> Iterator[Flask]:
    yield from app_on(database_url(request))


STOPS_WITHIN = 30
"""Seconds the server has to stop once the test's phones have hung up."""


@pytest.fixture
def live_server(served_app: Flask, browser: Browser) -> Iterator[str]:
    """The app served as ``scorekeeper serve`` serves it, on a free local port."""
    server = http_server(served_app, "127.0.0.1", 0, 4)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.bind_addr[1]}"
    # The phones hang up first: a page left open goes on asking while the server stops.
    for context in browser.contexts:
        context.close()
    # Cheroot waits without end for a thread busy with a request: a request that never ends
    # must fail the test and show where it stood, not hold up the whole run.
    stopping = threading.Thread(target=server.stop, daemon=True)
    stopping.start()
    stopping.join(timeout=STOPS_WITHIN)
    if stopping.is_alive():
        faulthandler.dump_traceback(all_threads=True)
        pytest.fail(f"the server did not stop within {STOPS_WITHIN} s (its threads above)")
    thread.join(timeout=5)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium package")
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
