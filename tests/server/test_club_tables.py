"""Fifteen tables of a club session enter their results at the same moment, round after round,
against a real server (two processes on PostgreSQL, `serve`'s or the club deployment's): none
waits for another's version, none is refused, and every result is stored."""

from __future__ import annotations

import re
import threading

from tests.server.processes import Phone, Server

TABLES = 15
TABLE_LINK = re.compile(r'value="https?://[^/"]+(/club/[^/"]+/table/\d+/[0-9a-f]+)"')
ENTRY = re.compile(r'action="(/club/[^"]+/table/\d+/[0-9a-f]+/\d+/\d+)"')
VERSION = re.compile(r'name="drawn_from" type="hidden" value="(\d+)"')
TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
NONCE = re.compile(r'name="nonce" type="hidden" value="([^"]*)"')


def test_fifteen_tables_enter_at_once(servers: list[Server]) -> None:
    director = Phone(servers[0].url)
    _status, page, _location = director.request("/club/new")
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    form = {
        "csrf_token": token.group(1),
        "nonce": nonce.group(1),
        "movement": "mitchell",
        "tables": str(TABLES),
        "boards_per_round": "2",
        "pairs": "even",
        "scoring": "matchpoints",
    }
    status, body, location = director.request("/club/new", form)
    assert status == 302, body
    session = location.removeprefix(servers[0].url)
    links = TABLE_LINK.findall(director.request(session)[1])
    assert len(links) == TABLES
    # Each table's phone on one of the server processes, by turns.
    phones = [Phone(servers[index % len(servers)].url) for index in range(TABLES)]
    refused: list[tuple[int, int | str]] = []

    def enter_next(index: int, barrier: threading.Barrier) -> None:
        phone, link = phones[index], links[index]
        try:
            page = phone.request(link)[1]
            entry, token, version = ENTRY.search(page), TOKEN.search(page), VERSION.search(page)
            if not (entry and token and version):
                refused.append((index + 1, 0))
                barrier.abort()  # the others do not wait for a table that has nothing to send
                return
            barrier.wait(timeout=60)  # every table sends at the same moment
            data = {
                "csrf_token": token.group(1),
                "drawn_from": version.group(1),
                "result": "passed",
            }
            status, _body, _location = phone.request(entry.group(1), data)
        except threading.BrokenBarrierError:
            refused.append((index + 1, "another table did not come"))
            return
        except Exception as error:  # a server that went away: say so now, not after every round
            refused.append((index + 1, repr(error)))
            barrier.abort()
            return
        if status != 302:
            refused.append((index + 1, status))

    rounds = TABLES  # an odd number of tables: every round is played
    for _board_of_a_round in range(rounds * 2):
        barrier = threading.Barrier(TABLES)
        threads = [
            threading.Thread(target=enter_next, args=(index, barrier)) for index in range(TABLES)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if refused:
            break
    assert refused == []
    page = director.request(session)[1]
    assert f"Results in: {TABLES * rounds * 2} of {TABLES * rounds * 2}" in page


CLOSING_TABLES = 8
RESULTS_IN = re.compile(r"Results in: (\d+) of")
CLOSE_FORM = re.compile(r'action="(/club/[^"]+/close)"(?:.|\n)*?name="csrf_token" type="hidden" '
                        r'value="([^"]+)"(?:.|\n)*?name="drawn_from" type="hidden" '
                        r'value="(\d+)"')  # fmt: skip


def test_the_director_closes_the_session_while_every_table_goes_on_entering(
    servers: list[Server],
) -> None:
    """Closing depends on the session's own row, not on the tables' entries: the director's
    page drawn once closes the session at the first tap, however many results come in
    meanwhile, and no table's result is stored after it."""
    director = Phone(servers[0].url)
    _status, page, _location = director.request("/club/new")
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    form = {
        "csrf_token": token.group(1),
        "nonce": nonce.group(1),
        "movement": "mitchell",
        "tables": str(CLOSING_TABLES - 1),
        "boards_per_round": "3",
        "pairs": "even",
        "scoring": "matchpoints",
    }
    status, body, location = director.request("/club/new", form)
    assert status == 302, body
    session = location.removeprefix(servers[0].url)
    links = TABLE_LINK.findall(director.request(session)[1])
    stop = threading.Event()
    sent: list[int] = []

    def keep_entering(index: int) -> None:
        phone = Phone(servers[index % len(servers)].url)
        while not stop.is_set():
            page = phone.request(links[index])[1]
            entry, token, version = ENTRY.search(page), TOKEN.search(page), VERSION.search(page)
            if not (entry and token and version):
                return  # the table is done, or the session closed
            data = {"csrf_token": token.group(1), "drawn_from": version.group(1)}
            status, _body, _location = phone.request(entry.group(1), {**data, "result": "passed"})
            if status == 302:
                sent.append(index)

    threads = [threading.Thread(target=keep_entering, args=(index,)) for index in range(len(links))]
    for thread in threads:
        thread.start()
    try:
        while len(sent) < 3 * len(links):  # the room is busy
            stop.wait(0.05)
        found = CLOSE_FORM.search(director.request(session)[1])
        assert found
        action, csrf, drawn_from = found.groups()
        while len(sent) < 6 * len(links):  # results keep coming after the page was drawn
            stop.wait(0.05)
        status, _body, location = director.request(
            action, {"csrf_token": csrf, "drawn_from": drawn_from}
        )
        assert status == 302
        page = director.request(location.removeprefix(servers[0].url))[1]
        assert "The session is closed." in page, page
        at_close = RESULTS_IN.search(page)
        assert at_close
        stop.wait(1)  # the tables try on
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    page = director.request(session)[1]
    assert "Open the session again" in page
    stored = RESULTS_IN.search(page)
    assert stored and stored.group(1) == at_close.group(1)  # nothing entered after the close
    assert int(stored.group(1)) >= 6 * len(links)
