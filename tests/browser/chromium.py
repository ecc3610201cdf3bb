"""The headless Chromium of the browser tests and of bench/page.py (no pytest here)."""

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
