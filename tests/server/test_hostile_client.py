"""A hostile client against the real server: a chunked body whose chunk-size line never ends is
refused before it is read, a request line that never ends is cut off, and the server keeps
answering everyone else meanwhile."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import Server, start_server, stop

MEGABYTE = 1024 * 1024


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    database = tmp_path / "served.sqlite"
    started = start_server(f"sqlite:///{database}", database)
    yield started
    stop(started)


def endless_chunk_size_line(url: str, most: int, answer: list[bytes]) -> None:
    """Send a chunked POST whose first chunk-size line goes on and on; keep what comes back."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(
            b"POST /ascenseur/import HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
            b"Content-Type: application/json\r\n\r\n"
        )
        sent = 0
        try:
            while sent < most:
                connection.sendall(b"1" * 65536)
                sent += 65536
        except OSError:  # the server stopped reading and closed the connection
            pass
        connection.settimeout(10)
        try:
            answer.append(connection.recv(4096))
        except OSError:
            answer.append(b"")
        answer.append(str(sent).encode())


def test_an_endless_chunk_size_line_is_cut_off_and_others_are_served(server: Server) -> None:
    answer: list[bytes] = []
    attack = threading.Thread(
        target=endless_chunk_size_line, args=(server.url, 64 * MEGABYTE, answer)
    )
    attack.start()
    time.sleep(0.2)
    for _ in range(5):  # the home page answers while the attack goes on
        with urllib.request.urlopen(server.url + "/", timeout=10) as response:
            assert response.status == 200
    attack.join(60)
    assert not attack.is_alive()
    first, sent = answer
    assert first.startswith(b"HTTP/1.1 411"), first[:200]  # a body must say its length
    assert int(sent) < 8 * MEGABYTE  # cut off, not read to the end


def test_an_endless_request_line_is_cut_off(server: Server) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    sent = 0
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(b"GET /")
        try:
            while sent < 64 * MEGABYTE:
                connection.sendall(b"a" * 65536)
                sent += 65536
        except OSError:
            pass
        connection.settimeout(10)
        try:
            first = connection.recv(4096)
        except OSError:
            first = b""
    assert sent < 8 * MEGABYTE
    assert first == b"" or first.startswith((b"HTTP/1.1 4", b"HTTP/1.0 4")), first[:200]
    with urllib.request.urlopen(server.url + "/", timeout=10) as response:
        assert response.status == 200


def test_a_body_in_chunks_is_refused_and_never_taken_for_a_request(server: Server) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    smuggled = b"GET /static/style.css HTTP/1.1\r\nHost: x\r\n\r\n"
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(
            b"POST /ascenseur/import HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
            b"Content-Type: application/json\r\n\r\n" + smuggled
        )
        answer = b""
        while chunk := connection.recv(65536):  # until the server closes the connection
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 411"), answer[:200]
    assert answer.count(b"HTTP/1.1 ") == 1  # the body was not answered as a request
