"""The headless Chromium of the browser tests and of bench/page.py (no pytest here)."""

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

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


def reload_live(page: Page) -> None:
    """Reload a page that reloads itself when its game changes. The two may cross: the browser
    then drops the first for the second (net::ERR_ABORTED), and the page is read again."""
    for _ in range(3):
        try:
            page.reload()
            return
        except PlaywrightError as error:
            if "ERR_ABORTED" not in error.message:
                raise
    page.reload()
