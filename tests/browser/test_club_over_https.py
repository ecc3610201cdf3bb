"""The club deployment of docs/deployment.md as a club's phones reach it: Granian's workers on
PostgreSQL behind nginx over HTTPS, set up with that page's own lines. In Chromium, the
director starts a session, a table's phone enters a board and East-West confirm, the director
corrects it and closes the session; a family scores an Ascenseur round. Every form is
accepted, none twice."""

from __future__ import annotations

import os
import re
import shutil
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import trustme
from playwright.sync_api import Browser, Page, Response, expect

from tests.browser.chromium import reload_live
from tests.browser.conftest import PHONE
from tests.browser.test_ascenseur_phone import FOUR, Taps, start_game
from tests.browser.test_club_phones import start_session, tap_result
from tests.postgres import PostgresServer
from tests.server.processes import (
    DEPLOYMENT,
    Server,
    club_database_url,
    club_deployment_command,
    free_port,
    launch,
    migrate,
    stop,
)

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def deployment_proxy_lines() -> tuple[str, list[str]]:
    """The nginx lines of docs/deployment.md: the upstream block, and the directives of
    ``location /``."""
    lines = [line.strip().lstrip("#").strip() for line in DEPLOYMENT.read_text().splitlines()]
    (upstream,) = [line for line in lines if line.startswith("upstream scorekeeper ")]
    location = [line for line in lines if line.startswith(("proxy_pass ", "proxy_set_header "))]
    location += [line for line in lines if line.startswith("proxy_http_version ")]
    location += [line.split("#")[0] for line in lines if line.startswith("client_max_body_size ")]
    assert location, f"{DEPLOYMENT.name}'s nginx lines for location / are missing"
    return upstream, location


def nginx_config(folder: Path, port: int, app_port: int, cert: Path, key: Path) -> Path:
    upstream, location = deployment_proxy_lines()
    assert "server 127.0.0.1:8000;" in upstream
    upstream = upstream.replace("127.0.0.1:8000", f"127.0.0.1:{app_port}")
    directives = "\n      ".join(
        part.strip() + ";" for line in location for part in line.split(";") if part.strip()
    )
    temp = "\n  ".join(
        f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    temp += f"\n  uwsgi_temp_path {folder / 'uwsgi'};\n  scgi_temp_path {folder / 'scgi'};"
    config = folder / "nginx.conf"
    config.write_text(
        f"""{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
pid {folder / "nginx.pid"};
events {{ worker_connections 256; }}
http {{
  access_log {folder / "access.log"};
  {temp}
  {upstream}
  server {{
    listen 127.0.0.1:{port} ssl;
    server_name localhost;
    ssl_certificate {cert};
    ssl_certificate_key {key};
    location / {{
      {directives}
    }}
  }}
}}
"""
    )
    return config


@dataclass
class Deployment:
    url: str
    app: Server
    proxy: subprocess.Popen[bytes]
    folder: Path
    database_url: str


def wait_for_https(url: str, proxy: subprocess.Popen[bytes], log: Path) -> None:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url + "/", timeout=2, context=context).close()
            return
        except OSError:
            if proxy.poll() is not None:
                break
            time.sleep(0.1)
    raise RuntimeError(f"nginx did not answer:\n{log.read_text(errors='replace')}")


@contextmanager
def club_over_https(postgres: PostgresServer, folder: Path) -> Iterator[Deployment]:
    """The club deployment on a database of its own, behind nginx over HTTPS, its files in
    ``folder`` (also what bench/outages.py runs its phones against)."""
    database_url = club_database_url(postgres, postgres.create_database())
    migrate(database_url)
    app_port = free_port()
    app = launch(
        club_deployment_command(app_port, 2),
        app_port,
        {"DATABASE_URL": database_url, "SECRET_KEY": "https", "SCOREKEEPER_BEHIND_PROXY": "1"},
        folder / "unused.sqlite",
        folder / "granian.log",
    )
    authority = trustme.CA()
    certificate = authority.issue_cert("localhost", "127.0.0.1")
    cert, key = folder / "cert.pem", folder / "key.pem"
    certificate.cert_chain_pems[0].write_to_path(str(cert))
    certificate.private_key_pem.write_to_path(str(key))
    port = free_port()
    config = nginx_config(folder, port, app_port, cert, key)
    log = folder / "nginx-error.log"
    proxy = subprocess.Popen(
        [NGINX, "-p", str(folder), "-c", str(config), "-e", str(log), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    url = f"https://localhost:{port}"
    try:
        wait_for_https(url, proxy, log)
        yield Deployment(url, app, proxy, folder, database_url)
    finally:
        proxy.terminate()
        proxy.wait(10)
        stop(app)


@pytest.fixture
def deployment(postgres: PostgresServer, tmp_path: Path) -> Iterator[Deployment]:
    if not Path(NGINX).exists():
        if os.environ.get("CI"):
            pytest.fail("nginx is missing: .ci/run installs Debian's nginx package")
        pytest.skip("no nginx (apt-get install nginx)")
    with club_over_https(postgres, tmp_path) as deployed:
        yield deployed


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[Page]]:
    """The director's phone and a table's, each with its own cookies, trusting the club's
    certificate as its members' phones trust a real one."""
    contexts = [
        browser.new_context(viewport=PHONE, locale="en-GB", ignore_https_errors=True)
        for _ in range(2)
    ]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.set_default_timeout(15_000)
    yield pages
    for context in contexts:
        context.close()


def refused_forms(page: Page) -> list[str]:
    """Every answer to a form this page sends that is an error, as it arrives."""
    refused: list[str] = []

    def look(response: Response) -> None:
        if response.request.method == "POST" and response.status >= 400:
            refused.append(f"{response.status} {response.url}")

    page.on("response", look)
    return refused


def test_a_club_evening_and_a_family_game_over_https(
    deployment: Deployment, phones: list[Page]
) -> None:
    director, table = phones
    refused = [refused_forms(director), refused_forms(table)]
    links = start_session(director, deployment.url, "mitchell", 3)
    assert director.url.startswith(deployment.url + "/club/")
    written = director.locator(".table-links input").first.input_value()
    # Opened on localhost, the links give the machine's address on the network instead; over
    # HTTPS, on the port the phones asked for.
    link, site = urlsplit(written), urlsplit(deployment.url)
    assert (link.scheme, link.port) == ("https", site.port)
    table.goto(links[0])
    tap_result(table, {"level": "4", "strain": "S", "declarer": "N", "doubled": "0", "result": "1"})
    expect(table.get_by_text("Board 1: 4♠ N +1.")).to_be_visible()
    table.get_by_role("button", name="East-West: confirm").first.click()
    expect(table.get_by_text("confirmed").first).to_be_visible()
    reload_live(director)
    expect(director.get_by_role("heading", name="Results in: 1 of 27")).to_be_visible()
    director.goto(director.url + "/results/1/1/1")
    for group, choice in (("Level", "4"), ("Strain", "♠"), ("Declarer", re.compile("^N "))):
        director.get_by_role("group", name=group).get_by_role("radio", name=choice).click()
    director.get_by_role("button", name="made", exact=True).click()
    expect(director.get_by_text("Board 1 at table 1 saved.")).to_be_visible()
    director.get_by_role("button", name="Close the session").click()
    expect(director.get_by_text("The session is closed.")).to_be_visible()
    reload_live(table)
    expect(table.get_by_text("The session is closed").first).to_be_visible()
    # A family's game on the same site: round 1, one card, Anne deals and may not bid 0.
    start_game(director, deployment.url, FOUR)
    taps = Taps(director)
    for name, bid in (("Bruno", 1), ("Chloé", 0), ("Denis", 0), ("Anne", 1)):
        taps.number(name, bid)
    taps.bids_sent()
    taps.number("Bruno", 1)
    taps.confirm("tricks")
    expect(director.get_by_text("Round 2 of 23")).to_be_visible()
    assert refused == [[], []]
    assert all(cookie["secure"] for cookie in director.context.cookies())
    # Results files as large as the app takes reach it through the proxy, and one larger gets
    # the app's own message in the page: never the proxy's.
    for size, said in (
        (1_500_000, "The file is not well-formed XML"),
        (2_500_000, "This file is too large to be a session's results"),
        (5_000_000, "What was sent is too large"),  # beyond the app's own limit: its 413 page
    ):
        director.goto(deployment.url + "/club/import")
        payload = b"<?xml version='1.0'?>" + b" " * size
        director.get_by_label("Results file").set_input_files(
            {"name": "results.xml", "mimeType": "application/xml", "buffer": payload}
        )
        director.get_by_role("button", name=re.compile("^Import")).click()
        expect(director.locator("body")).to_contain_text(re.compile(said, re.IGNORECASE))
        assert "nginx" not in director.content()


def test_a_file_too_large_gets_the_apps_message_through_the_proxy_every_time(
    deployment: Deployment,
) -> None:
    """The app refuses a body above its limit before reading it; the proxy, still sending what it
    took from the phone, must not be cut off (nginx would answer 502 in place of the app's page)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    body = (
        b'--x\r\nContent-Disposition: form-data; name="results_file"; filename="r.xml"\r\n\r\n'
        + b" " * 5_000_000
        + b"\r\n--x--\r\n"
    )
    answers = []
    for _ in range(40):
        request = urllib.request.Request(
            deployment.url + "/club/import",
            data=body,
            headers={"Content-Type": "multipart/form-data; boundary=x", "Accept-Language": "en"},
        )
        try:
            urllib.request.urlopen(request, context=context, timeout=30).close()
            answers.append((200, ""))
        except urllib.error.HTTPError as error:
            answers.append((error.code, error.read().decode(errors="replace")))
    assert [code for code, _ in answers] == [413] * 40
    assert all("What was sent is too large" in page for _, page in answers)
