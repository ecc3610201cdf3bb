"""How fast the round page shows on a slow phone: first load, and a reload at the table.

    .venv/bin/python bench/page.py [--runs 5]

Starts `scorekeeper serve` on a fresh SQLite database with a 6-player game at round 5, then
opens its round page as its scorer in Debian's Chromium at 360 × 740, throttled like a slow
phone on a weak network (150 ms latency, 1.6 Mbps down, 750 kbps up, CPU 4 × slower). Prints,
as its last line, one JSON object:

- ``cold_fcp_ms``: first contentful paint with an empty cache (a phone joining the table);
- ``warm_fcp_ms``: the same page reloaded (what every phone does after every entry);
- ``warm_requests``: requests that reach the network on that reload;
- ``cold_requests``, ``cold_bytes``, ``warm_bytes``: what the first load asks for and costs on
  the wire, and what a reload costs.

Each figure is the median of ``--runs`` runs, each in a fresh browser context.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, sync_playwright  # noqa: E402

from bench.run import fill  # noqa: E402
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402
from tests.server.processes import Phone, start_server, stop  # noqa: E402

SLOW_PHONE = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1_600_000 / 8,
    "uploadThroughput": 750_000 / 8,
}
CPU_SLOWDOWN = 4
FCP = """() => new Promise((resolve) => {
  const found = () => performance.getEntriesByName("first-contentful-paint")[0];
  if (found()) return resolve(found().startTime);
  new PerformanceObserver(() => { if (found()) resolve(found().startTime); })
    .observe({ type: "paint", buffered: true });
})"""


def measure_once(browser: Browser, url: str, cookies: list[dict[str, Any]]) -> dict[str, Any]:
    """One phone: the first load with an empty cache, then a reload of the same page."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_cookies(cookies)  # the scorer's phone: its page has the forms and the QR codes
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_PHONE)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    fetched: list[dict[str, Any]] = []

    def reached_network(event: dict[str, Any]) -> None:
        response = event["response"]
        cached = ("fromDiskCache", "fromMemoryCache", "fromPrefetchCache", "fromServiceWorker")
        if not any(response.get(flag) for flag in cached):
            fetched.append(
                {"url": response["url"], "status": response["status"], "id": event["requestId"]}
            )

    sizes: dict[str, float] = {}
    from_cache: set[str] = set()
    cdp.on("Network.requestServedFromCache", lambda event: from_cache.add(event["requestId"]))
    cdp.on("Network.responseReceived", reached_network)
    cdp.on(
        "Network.loadingFinished",
        lambda event: sizes.__setitem__(event["requestId"], event["encodedDataLength"]),
    )
    page.goto(url, wait_until="load")
    cold_fcp = page.evaluate(FCP)
    page.wait_for_timeout(300)  # images below the fold, the icon
    cold = [item for item in fetched if item["id"] not in from_cache]
    cold_bytes = sum(sizes.get(item["id"], 0) for item in cold)
    fetched.clear()
    sizes.clear()
    page.reload(wait_until="load")
    warm_fcp = page.evaluate(FCP)
    page.wait_for_timeout(300)
    warm = [item for item in fetched if item["id"] not in from_cache]
    context.close()
    return {
        "cold_fcp_ms": cold_fcp,
        "warm_fcp_ms": warm_fcp,
        "cold_requests": len(cold),
        "cold_bytes": cold_bytes,
        "warm_requests": len(warm),
        "warm_bytes": sum(sizes.get(item["id"], 0) for item in warm),
        "warm_urls": [f"{item['url']} ({item['status']})" for item in warm],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="phones measured, one at a time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "page.sqlite"
        server = start_server(f"sqlite:///{database}", database)
        try:
            filled = fill(server.url, 0)
            scorer = Phone(server.url)
            scorer.request("/")  # a phone of the house: on a private server it may score
            url = server.url + filled["measured"]
            cookies = [
                {"name": c.name, "value": c.value or "", "url": server.url} for c in scorer.jar
            ]
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                runs = [measure_once(browser, url, cookies) for _run in range(args.runs)]
                browser.close()
        finally:
            stop(server)
    result: dict[str, Any] = {
        key: round(statistics.median(run[key] for run in runs), 1)
        for key in (
            "cold_fcp_ms",
            "warm_fcp_ms",
            "warm_requests",
            "cold_requests",
            "cold_bytes",
            "warm_bytes",
        )
    }
    for key in ("warm_requests", "cold_requests", "cold_bytes", "warm_bytes"):
        result[key] = int(result[key])
    print("reload asked for:", ", ".join(runs[-1]["warm_urls"]))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
