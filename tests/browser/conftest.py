"""A real server and a real headless Chromium at phone size (360 × 740)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, sync_playwright
from waitress.server import create_server

from tests.conftest import DATABASES, database_url, migrated_app

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 360, "height": 740}
# Quiet, reproducible Chromium: no background traffic to the outside, no first-run dialogs.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(params=DATABASES)
def served_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    yield from migrated_app(database_url(request, tmp_path))


@pytest.fixture
def live_server(served_app: Flask) -> Iterator[str]:
    """The app served by waitress, as ``scorekeeper serve`` does, on a free local port."""
    server = create_server(
        served_app, host="127.0.0.1", port=0, threads=4, asyncore_loop_timeout=0.1
    )
    closing = threading.Event()

    def serve() -> None:
        try:
            server.run()
        except OSError:  # its sockets closed under its select() on the way out
            if not closing.is_set():
                raise

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"  # type: ignore[union-attr]
    closing.set()
    server.close()
    for channel in list(server._map.values()):  # type: ignore[union-attr]
        channel.close()  # connections a browser keeps alive: the loop ends when none is left
    thread.join(timeout=5)
    server.task_dispatcher.shutdown()  # its threads, and the database connections they keep


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
