"""The server killed (SIGKILL) while phones post rounds: after a restart every entry it
acknowledged is there, nothing is half-written, and SQLite's integrity check says ok."""

from __future__ import annotations

import http.client
import json
import os
import signal
import sqlite3
import threading
import time

import pytest

from scorekeeper.rules import ascenseur as rules
from tests.server.processes import Phone, start_server, stop
from tests.server.test_concurrent_scorers import start

GAMES = 4
KILL_AFTER = 40  # acknowledged entries, all games together


def keep_scoring(
    phone: Phone,
    game_path: str,
    acknowledged: list[tuple[str, int, str, list[int]]],
    stopped: threading.Event,
) -> None:
    """Enter rounds one after the other (nobody bids, one player takes every trick)."""
    plans = rules.plan_game(rules.PRESETS["ascenseur"], 2, 0)
    for plan in plans:
        for kind, values in (("bids", [0, 0]), ("tricks", [plan.cards, 0])):
            if stopped.is_set():
                return
            prefix = "bid" if kind == "bids" else "tricks"
            try:
                token = phone.token(game_path)
                form = {
                    "csrf_token": token,
                    f"{prefix}_0": str(values[0]),
                    f"{prefix}_1": str(values[1]),
                    "trump": "",
                }
                status, _body, _ = phone.request(f"{game_path}/rounds/{plan.number}/{kind}", form)
            except (OSError, AssertionError, http.client.HTTPException):
                return  # the server is gone, maybe halfway through an answer
            if status != 302:
                return
            acknowledged.append((game_path, plan.number, kind, values))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_killed_server_keeps_every_acknowledged_entry(
    backend: str, request: pytest.FixtureRequest, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    database = tmp_path / "crash.sqlite"
    if backend == "sqlite":
        url = f"sqlite:///{database}"
    else:
        postgres = request.getfixturevalue("postgres")
        url = postgres.url(postgres.create_database())
    server = start_server(url, database)
    phones = [Phone(server.url) for _ in range(GAMES)]
    paths = [start(phone).removeprefix(server.url) for phone in phones]
    acknowledged: list[tuple[str, int, str, list[int]]] = []
    stopped = threading.Event()
    threads = [
        threading.Thread(target=keep_scoring, args=(phone, path, acknowledged, stopped))
        for phone, path in zip(phones, paths, strict=True)
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while len(acknowledged) < KILL_AFTER and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(server.process.pid, signal.SIGKILL)  # in the middle of the phones' requests
    stopped.set()
    for thread in threads:
        thread.join()
    server.process.wait()
    assert len(acknowledged) >= KILL_AFTER

    restarted = start_server(url, database)
    try:
        reader = Phone(restarted.url)
        for path in paths:
            status, body, _ = reader.request(f"{path}/game.json")
            assert status == 200
            rounds = {r["number"]: r for r in json.loads(body)["rounds"]}
            for game_path, number, kind, values in acknowledged:
                if game_path == path:
                    assert rounds[number][kind] == values, (path, number, kind)
            # Nothing half-written: every stored round is whole, and the game still plays.
            assert all(len(r["bids"]) == 2 for r in rounds.values())
            assert reader.request(path)[0] == 200
            assert reader.request(f"{path}/sheet")[0] == 200
    finally:
        stop(restarted)
    if backend == "sqlite":
        with sqlite3.connect(database) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
