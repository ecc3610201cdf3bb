"""A hostile client against the real server: a chunked body whose chunk-size line never ends is
refused before it is read, a request line that never ends is cut off, requests sent a byte at a
time hold none of its threads and are cut off, long bodies on their way wait on disk, and the
server keeps answering everyone else meanwhile."""

from __future__ import annotations

import re
import select
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.incoming import SLOWEST_UPLOAD
from tests.server.processes import Phone, Server, start_server, stop
from tests.server.test_concurrent_scorers import start

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


SLOW_HEADS = 50
SLOW_BODIES = 50
SLOW_BODY_LENGTH = 256 * 1024  # a body this long waits in a temporary file
DEADLINE = 10 + 20 / SLOWEST_UPLOAD  # the server's timeout: a byte a second adds next to nothing


def trickle(
    connections: list[socket.socket], closed: dict[socket.socket, float], stop: threading.Event
) -> None:
    """Send a byte a second on each connection; note when the server closes each one."""
    waiting = list(connections)
    while waiting and not stop.is_set():
        readable, _, _ = select.select(waiting, [], [], 1.0)
        for connection in waiting:
            if connection not in readable:
                try:
                    connection.send(b"a")
                    continue
                except OSError:
                    pass
            closed[connection] = time.monotonic()
            waiting.remove(connection)


def test_requests_sent_a_byte_at_a_time_hold_no_thread_and_are_cut_off(server: Server) -> None:
    """Far more slow clients than the server has threads: heads sent a byte a second, and
    bodies of an import sent a byte a second after their head."""
    host, port = server.url.removeprefix("http://").split(":")
    slow_head = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "
    slow_body = (
        b"POST /ascenseur/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n{" % SLOW_BODY_LENGTH
    )
    attackers = []
    for start_of_request in [slow_head] * SLOW_HEADS + [slow_body] * SLOW_BODIES:
        attacker = socket.create_connection((host, int(port)), timeout=10)
        attacker.sendall(start_of_request)
        attackers.append(attacker)
    began = time.monotonic()
    closed: dict[socket.socket, float] = {}
    stopped = threading.Event()
    attack = threading.Thread(target=trickle, args=(attackers, closed, stopped))
    attack.start()
    waits = []
    try:
        while len(closed) < len(attackers) and time.monotonic() - began < DEADLINE + 10:
            asked = time.monotonic()
            with urllib.request.urlopen(server.url + "/", timeout=10) as response:
                assert response.status == 200
            waits.append(time.monotonic() - asked)
            time.sleep(0.2)
    finally:
        stopped.set()
        attack.join()
        for attacker in attackers:
            attacker.close()
    assert len(waits) > 10 and max(waits) < 2, waits  # the home page answered throughout
    assert len(closed) == len(attackers)  # every slow client cut off, by its deadline
    assert max(closed[attacker] for attacker in attackers[:SLOW_HEADS]) - began < 10 + 3
    assert max(closed.values()) - began < DEADLINE + 3


def test_a_long_body_sent_slowly_arrives_whole(server: Server) -> None:
    """A game file, made longer than the server keeps in memory, sent in pieces over a second
    and a half: the game is imported."""
    phone = Phone(server.url)
    game = start(phone)
    exported = phone.request(game.removeprefix(server.url) + "/game.json")[1].encode()
    game_file = exported + b" " * (200 * 1024)
    token = phone.token("/ascenseur/import")
    boundary = b"slowly"
    body = (
        b"".join(
            b"--%s\r\nContent-Disposition: form-data; name=%s%s\r\n\r\n%s\r\n"
            % (boundary, name, extra, value)
            for name, extra, value in [
                (b'"csrf_token"', b"", token.encode()),
                (b'"nonce"', b"", b"slowly"),
                (b'"file"', b'; filename="game.json"\r\nContent-Type: application/json', game_file),
            ]
        )
        + b"--%s--\r\n" % boundary
    )
    cookies = "; ".join(f"{cookie.name}={cookie.value}" for cookie in phone.jar)
    request = (
        b"POST /ascenseur/import HTTP/1.1\r\nHost: x\r\nCookie: %s\r\nConnection: close\r\n"
        b"Content-Type: multipart/form-data; boundary=%s\r\nContent-Length: %d\r\n\r\n%s"
        % (cookies.encode(), boundary, len(body), body)
    )
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        for piece in range(0, len(request), 16 * 1024):
            connection.sendall(request[piece : piece + 16 * 1024])
            time.sleep(0.1)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 302"), answer[:300]
    imported = re.search(rb"Location: (\S+)", answer)
    assert imported and imported.group(1).decode() != game
    assert phone.request(imported.group(1).decode().removeprefix(server.url))[0] == 200


def test_requests_sent_without_waiting_are_answered_in_turn(server: Server) -> None:
    """Three requests on one connection, sent before any answer, the last one's head in two
    pieces: three answers, in their order."""
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(
            b"GET /static/style.css HTTP/1.1\r\nHost: x\r\n\r\n"
            b"GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\nGET /static/style.css HTTP/1.1\r\nHo"
        )
        time.sleep(0.3)
        connection.sendall(b"st: x\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    statuses = re.findall(rb"HTTP/1.1 (\d+) ", answer)
    assert statuses == [b"200", b"404", b"200"], answer[:300]


def resident_memory(server: Server) -> int:
    """The server process's resident memory, in bytes (Linux)."""
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    assert match
    return int(match.group(1)) * 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_long_bodies_on_their_way_wait_on_disk_not_in_memory(server: Server) -> None:
    """Forty imports of 3 MB, each with 1 MB sent and the rest still to come: the server holds
    their 40 MB in temporary files."""
    host, port = server.url.removeprefix("http://").split(":")
    before = resident_memory(server)
    connections = []
    try:
        for _ in range(40):
            connection = socket.create_connection((host, int(port)), timeout=10)
            connection.sendall(
                b"POST /ascenseur/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n" % (3 * MEGABYTE) + b" " * MEGABYTE
            )
            connections.append(connection)
        time.sleep(1)  # read by the server
        assert resident_memory(server) - before < 10 * MEGABYTE
        with urllib.request.urlopen(server.url + "/", timeout=10) as response:
            assert response.status == 200
    finally:
        for connection in connections:
            connection.close()
