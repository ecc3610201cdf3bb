"""A club room on `scorekeeper serve`: every phone keeps its connection open between its polls.
More phones than the system's usual limit on open files (1 024) are all answered, and one more
phone arriving then loads its page at once; connections a browser opens ahead of need and never
uses hold none of the server's threads."""

from __future__ import annotations

import http.client
import resource
import socket
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.cli import CONNECTIONS
from tests.server.processes import SCOREKEEPER, Server, free_port, launch, stop

PHONES = 1100
USUAL_LIMIT = 1024


def usual_open_files_limit() -> None:
    """The server starts with the soft limit most systems give a process."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (USUAL_LIMIT, hard))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < PHONES + 256:
        pytest.skip(f"a room of phones needs {PHONES + 256} open files; the limit is {hard}")
    database = tmp_path / "served.sqlite"
    port = free_port()
    started = launch(
        [str(SCOREKEEPER), "serve", "--host", "127.0.0.1", "--port", str(port)],
        port,
        {"DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "room"},
        database,
        tmp_path / "server.log",
        preexec_fn=usual_open_files_limit,
    )
    yield started
    stop(started)


@pytest.fixture
def enough_open_files() -> Iterator[None]:
    """This process holds the phones' connections: as many open files as they need."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = PHONES + 256 if hard == resource.RLIM_INFINITY else min(PHONES + 256, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_every_phone_of_a_room_keeps_its_connection_and_is_answered(
    server: Server, enough_open_files: None
) -> None:
    assert PHONES < CONNECTIONS
    host, port = server.url.removeprefix("http://").split(":")
    phones: list[http.client.HTTPConnection] = []

    def ask(phone: http.client.HTTPConnection) -> int:
        phone.request("GET", "/static/style.css")
        response = phone.getresponse()
        response.read()
        return response.status

    try:
        for _ in range(PHONES):
            phone = http.client.HTTPConnection(host, int(port), timeout=30)
            phones.append(phone)
            assert ask(phone) == 200
        # Every connection is still open: one more phone is answered all the same,
        with urllib.request.urlopen(server.url + "/", timeout=10) as response:
            assert response.status == 200
        for phone in phones[-100:]:  # and phones ask again on their own connection
            assert phone.sock is not None
            assert ask(phone) == 200
    finally:
        for phone in phones:
            phone.close()
    assert "Traceback" not in server.output()


def test_connections_opened_ahead_of_need_hold_no_thread(server: Server) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    unused = [socket.create_connection((host, int(port)), timeout=10) for _ in range(20)]
    try:  # more than the server's threads (8), and none of them says anything
        started = time.perf_counter()
        with urllib.request.urlopen(server.url + "/", timeout=10) as response:
            assert response.status == 200
        assert time.perf_counter() - started < 5  # not after the unused ones time out (10 s)
    finally:
        for connection in unused:
            connection.close()
