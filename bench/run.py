"""Measure Scorekeeper as a club would run it: the real server, real requests, real numbers.

    .venv/bin/python bench/run.py [--seconds 15] [--runs 3] [--no-postgresql] [--twice]

Two deployments: `scorekeeper serve` on a fresh SQLite database, and the club deployment of
docs/deployment.md (Granian, a worker of four threads per core, on a PostgreSQL server that syncs
every commit). Each is filled with games at every stage and driven from a load generator in
another process. The server runs on one core and the generator (and PostgreSQL) on the other,
so that they do not take turns on both: the figures are per server core. Every load step runs
``--runs`` times, the two deployments taking turns run by run; each figure is the median of
the runs, with its spread ((highest − lowest) / median). A run made while the host ran
slower than in the best run of its kind so far (by the server's busy share, or the
static file's rate) is run again (``STEADY``). The flat-out rates of the static
file, the round page and the poll take turns second by second. The latencies come from a
minute at 300 tables, in which every scorer enters a round, with the share of that minute the
server spent computing (PostgreSQL's work, on the other core, is not counted). A number of tables
counts as held where, in most runs of a ``--seconds`` step, the generator kept 95 % of its
schedule, no request failed and the round page's p95 stayed under 100 ms; the minutes at 300
tables count as the step at 300, and the search goes on above or below it. The club night
(``--workloads club``) is measured the same way on the same servers: sessions of 15 tables, each
table's phone entering a board about every seven minutes and following its table, the
director's page and two players' phones a table following the session; its latencies come from
a minute at 1 005 tables, and the sessions held are searched above or below that. The last lines
are one JSON object per deployment and workload; ``--twice`` runs the whole benchmark again and
compares every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import math
import multiprocessing
import os
import random
import re
import resource
import shutil
import statistics
import sys
import tempfile
import time
import timeit
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.rules import ascenseur as rules  # noqa: E402
from scorekeeper.rules.movements import mitchell  # noqa: E402
from scorekeeper.serving import LIVE_PACE  # noqa: E402
from tests.postgres import PostgresServer, server_binaries  # noqa: E402
from tests.server.processes import (  # noqa: E402
    SCOREKEEPER,
    TOKEN,
    Phone,
    Server,
    club_database_url,
    club_deployment_command,
    free_port,
    launch,
    migrate,
    stop,
)

NAMES = ("Anne", "Bruno", "Chloé", "Denis", "Élodie", "François")
PRESET = "ascenseur-a-charge"
SETUP = {  # the preset's own rules, as its new-game form starts
    "top_rounds": "once",
    "deck_cards": "52",
    "decks": "1",
    "bidding": "in-turn",
    "hook": "y",
    "hook_from": "1",
    "first_lead": "dealer",
    "play": "free",
    "made_base": "10",
    "made_per_trick": "2",
    "missed_flat": "0",
    "missed_per_trick": "2",
    "shape": "up-and-down",
    "hands": "all",
    "trump": "when-cards-remain",
    "first_dealer": "0",
    "action": "start",
}
POST_EVERY, PHONES = 60.0, 5
"""A table: a scorer enters a round every minute, five phones follow the game at the app's
pace (scorekeeper.serving.live): every 2 s after a change, every 5 s once it is quiet."""
PLAYED_SPREAD = 12
"""Table n starts the benchmark with n % 12 rounds played: a room at every stage of its games,
so that a run moving each game on by a round barely changes what a page costs."""
PAGE_TARGET_MS = 100.0
LATENCY_TABLES = 300
LATENCY_SECONDS = POST_EVERY
"""The latencies are measured at this many tables (the target per server core) for a whole
minute, in which every scorer enters one round: the same load in every run, rather than at the
most tables held, which moves from run to run, over a quarter of the scorers."""
KEPT_SCHEDULE = 0.95
"""A load step counts only where the phones asked at this share of the pace they meant to keep
(what they meant to wait between two polls, over what they did wait, answers included)."""
CORES = sorted(os.sched_getaffinity(0))
SERVER_CORES = set(CORES[:1])
LOAD_CORES = set(CORES[1:]) or SERVER_CORES
"""The server on the first core; the load generator and PostgreSQL on the others."""


# --- The deployments ------------------------------------------------------------------------


def pinned_to_server_core() -> None:
    os.sched_setaffinity(0, SERVER_CORES)


def start_pinned(command: list[str], database_url: str, folder: Path) -> Server:
    """Start a server process on the server's core and wait until it answers; what it writes
    to stderr goes to a file in ``folder``."""
    port = free_port()
    env = {
        "DATABASE_URL": database_url,
        "SECRET_KEY": "bench",
        "SCOREKEEPER_NEW_GAMES_LIMIT": "100000 per minute",  # the bench fills 600 games
    }
    return launch(
        [part.replace("PORT", str(port)) for part in command],
        port,
        env,
        Path(os.devnull),
        folder / f"server-{port}.log",
        wait=60,
        preexec_fn=pinned_to_server_core,
    )


def serve_on_sqlite(database_url: str, folder: Path) -> Server:
    """`scorekeeper serve`, as at home or in a small club: it migrates the database itself."""
    return start_pinned(
        [str(SCOREKEEPER), "serve", "--host", "127.0.0.1", "--port", "PORT"], database_url, folder
    )


def granian_on_postgresql(database_url: str, folder: Path) -> Server:
    """The club deployment of docs/deployment.md: the tables migrated, then Granian with one
    worker per core (and four threads each), started by that page's own command."""
    migrate(database_url)
    granian = shutil.which("granian", path=str(Path(sys.executable).parent))
    if granian is None:
        raise SystemExit("granian is missing: .venv/bin/pip install -e '.[bench]'")
    # The page's command as written, its "$(nproc)" the server's cores.
    return start_pinned(club_deployment_command("PORT", len(SERVER_CORES)), database_url, folder)


PROXY_CONNECTIONS = 48
"""The connections through which a proxy in front of the server (nginx, in the club deployment
of docs/deployment.md) asks it: the phones' own connections end at the proxy."""


@dataclass(frozen=True)
class Deployment:
    label: str
    start: Callable[[str, Path], Server]
    phones_connect_directly: bool
    """Whether the phones reach the server itself, each keeping its connection open between its
    polls (`scorekeeper serve`), or a proxy in front of it (the club deployment)."""

    def connections(self, tables: int) -> int:
        return tables * (PHONES + 1) if self.phones_connect_directly else PROXY_CONNECTIONS


# --- Filling the server ---------------------------------------------------------------------


def new_game(phone: Phone, players: int, nonce: str) -> str:
    data = {
        **SETUP,
        "csrf_token": phone.token(f"/ascenseur/new/{PRESET}"),
        "nonce": nonce,
        **{f"players-{seat}": NAMES[seat] for seat in range(players)},
    }
    status, body, location = phone.request(f"/ascenseur/new/{PRESET}", data)
    assert status == 302, body[:500]
    return urllib.parse.urlsplit(location).path


def play_round(phone: Phone, path: str, number: int, players: int) -> None:
    plan = rules.plan_round(rules.PRESETS[PRESET], players, 0, number)
    token = phone.token(path)
    bids = {f"bid_{seat}": "0" for seat in range(players)}
    assert (
        phone.request(f"{path}/rounds/{number}/bids", {"csrf_token": token, **bids, "trump": ""})[0]
        == 302
    )
    tricks = {
        f"tricks_{seat}": str(plan.cards if seat == plan.dealer else 0) for seat in range(players)
    }
    assert (
        phone.request(f"{path}/rounds/{number}/tricks", {"csrf_token": token, **tricks})[0] == 302
    )


def fill(base: str, tables: int) -> dict[str, Any]:
    """The 6-player game at round 5 whose page is measured, and one 4-player game per table,
    the tables at every stage of their game (a page costs more as its sheet grows)."""
    phone = Phone(base)
    measured = new_game(phone, 6, "measured")
    for number in range(1, 5):
        play_round(phone, measured, number, 6)

    def table(number: int) -> dict[str, Any]:
        scorer = Phone(base)
        path = new_game(scorer, 4, f"table-{number}")
        played = number % PLAYED_SPREAD
        for round_number in range(1, played + 1):
            play_round(scorer, path, round_number, 4)
        phones = [Phone(base) for _ in range(PHONES)]
        for phone in phones:  # each opens the game once, as from its QR code
            phone.request(path)
        return {
            "path": path,
            "cookie": cookie_of(scorer),
            "phones": [cookie_of(phone) for phone in phones],
            "token": scorer.token(path),
            "next": played + 1,
            "version": json.loads(scorer.request(f"{path}/version")[1])["version"],
        }

    with ThreadPoolExecutor(8) as pool:  # eight tables set up at once
        scorers = list(pool.map(table, range(tables)))
    return {"measured": measured, "scorers": scorers}


def cookie_of(phone: Phone) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in phone.jar)


def page_bytes_gzip(base: str, path: str) -> tuple[int, list[tuple[str, int, int]]]:
    """The round page and every stylesheet and script it loads, each gzip-compressed."""
    phone = Phone(base)
    _status, page, _ = phone.request(path)
    parts = [(path, page.encode())]
    for asset in re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"', page):
        parts.append((asset, phone.request(asset)[1].encode()))
    sizes = [(name, len(body), len(gzip.compress(body, 9))) for name, body in parts]
    return sum(size for _name, _raw, size in sizes), sizes


# --- Filling the server: the club night -----------------------------------------------------


CLUB_TABLES, CLUB_BOARDS = 15, 2
"""A session: a Mitchell of 15 tables, two boards a round (15 rounds, 30 boards)."""
CLUB_SETUP = {
    "movement": "mitchell",
    "tables": str(CLUB_TABLES),
    "boards_per_round": str(CLUB_BOARDS),
    "pairs": "even",
    "scoring": "matchpoints",
    "shown": "played",  # the players see the ranking as it stands, on their own phones
}
BOARD_EVERY, CONFIRM_AFTER = 420.0, 20.0
"""A table plays a board about every seven minutes: North-South enter its result on the
table's phone, and East-West confirm it there a little later."""
PLAYER_PHONES = 2
"""The players' own phones at each table, watching the ranking as it stands (the session's
page, which follows the session) while they play."""
CLUB_PLAYED_SPREAD = 4
"""Session n starts the benchmark with n % 4 rounds played everywhere."""
CLUB_TARGET_TABLES = 1000
"""A federation's simultaneous pairs night: some seventy clubs of fifteen tables on one core."""
CLUB_TARGETS_MS = {"table_pages": 100.0, "posts": 150.0, "director_pages": 200.0}
"""What a step must keep (p95) to count as held, besides the phones' pace."""
TABLE_LINK = re.compile(r'value="https?://[^/"]+(/club/[^/"]+/table/(\d+)/[0-9a-f]+)"')
DRAWN_FROM = re.compile(r'name="drawn_from" type="hidden" value="(\d+)"')
FOLLOWED = re.compile(r'data-live="([^"]+)" data-version="(\d+)"')
NONCE = re.compile(r'name="nonce" type="hidden" value="([^"]*)"')


def boards_of(tables: int) -> dict[int, list[tuple[int, int]]]:
    """Each table's boards in the order it plays them, (round, board), in a Mitchell of
    ``tables`` tables, two boards a round."""
    movement = mitchell(tables, CLUB_BOARDS)
    return {
        table: [(s.round, board) for s in movement.table_seatings(table) for board in s.boards]
        for table in range(1, tables + 1)
    }


def result_fields(rng: random.Random) -> dict[str, str]:
    """A board's result as North-South enter it: mostly a game made or one off, some passed."""
    if rng.random() < 0.1:
        return {"result": "passed"}
    level, strain = rng.choice([("3", "NT"), ("4", "S"), ("4", "H"), ("2", "D"), ("1", "NT")])
    return {
        "level": level,
        "strain": strain,
        "declarer": rng.choice("NESW"),
        "doubled": "0",
        "result": rng.choice(["-1", "0", "0", "1"]),
    }


def club_session(base: str, number: int) -> dict[str, Any]:
    """A session started by its director, its tables' phones and the players' each having
    opened their link once, and ``number % CLUB_PLAYED_SPREAD`` rounds played everywhere."""
    director = Phone(base)
    path = set_up(director, CLUB_SETUP)
    return session_played(base, director, path, number, CLUB_TABLES)


def set_up(director: Phone, setup: dict[str, str], query: str = "") -> str:
    """A session set up on the director's phone (``query``: ``?field=`` adds a section to a
    field): its page's path."""
    page = director.request(f"/club/new{query}")[1]
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data = {"csrf_token": token.group(1), "nonce": nonce.group(1), **setup}
    status, body, location = director.request("/club/new", data)
    assert status == 302, body[:500]
    return urllib.parse.urlsplit(location).path


def session_played(
    base: str,
    director: Phone,
    path: str,
    number: int,
    table_count: int,
    players: int = PLAYER_PHONES,
    players_follow_the_table: bool = False,
) -> dict[str, Any]:
    """A session's tables' phones and the players' (``players`` a table, following the
    session's page or their table's) each having opened their link once, and
    ``number % CLUB_PLAYED_SPREAD`` rounds played everywhere."""
    session = tables_opened(base, director, path, table_count)
    rounds_played(session, number)
    return phones_opened(base, director, session, players, players_follow_the_table)


def tables_opened(base: str, director: Phone, path: str, table_count: int) -> dict[str, Any]:
    """A session's tables' phones, each having opened its link from the director's page."""
    links = {int(table): link for link, table in TABLE_LINK.findall(director.request(path)[1])}
    assert sorted(links) == list(range(1, table_count + 1))
    boards_of_table = boards_of(table_count)
    tables: list[dict[str, Any]] = []
    for at, link in sorted(links.items()):
        phone = Phone(base)
        page = phone.request(link)[1]
        token, drawn = TOKEN.search(page), DRAWN_FROM.search(page)
        assert token and drawn
        tables.append(
            {
                "table": at,
                "link": link,
                "phone": phone,
                "token": token.group(1),
                "version": int(drawn.group(1)),
                "next": 0,
                "boards": boards_of_table[at],
            }
        )
    return {"path": path, "tables": tables}


def rounds_played(session: dict[str, Any], number: int, spread: int = CLUB_PLAYED_SPREAD) -> None:
    """``number % spread`` rounds played at every table of the session."""
    rng = random.Random(number)
    for _round in range(number % spread):
        for table in session["tables"]:
            for _board in range(CLUB_BOARDS):
                enter_and_confirm(table, rng)


def phones_opened(
    base: str,
    director: Phone,
    session: dict[str, Any],
    players: int,
    players_follow_the_table: bool,
) -> dict[str, Any]:
    """Each table's phone following its table, and the players' phones opened once."""
    path = session["path"]
    for table in session["tables"]:
        phone = table.pop("phone")
        live = FOLLOWED.search(phone.request(table["link"])[1])
        assert live and "/part/" in live.group(1)
        table["part_version"] = int(live.group(2))
        table["cookie"] = cookie_of(phone)
        phones = [Phone(base) for _ in range(players)]
        for player in phones:
            player.request(table["link"] if players_follow_the_table else path)
        table["players"] = [cookie_of(player) for player in phones]
        table["entered"] = False  # North-South entered its next board, East-West to confirm
    return {
        **session,
        "director": cookie_of(director),
        "version": json.loads(director.request(f"{path}/version")[1])["version"],
    }


def enter_and_confirm(table: dict[str, Any], rng: random.Random) -> None:
    """The table's next board entered by North-South and confirmed by East-West (filling)."""
    phone: Phone = table["phone"]
    round_, board = table["boards"][table["next"]]
    entry = f"{table['link']}/{round_}/{board}"
    for address, fields in ((entry, result_fields(rng)), (f"{entry}/confirm", {})):
        sent = {"csrf_token": table["token"], "drawn_from": str(table["version"]), **fields}
        status, body, _location = phone.request(address, sent)
        assert status == 302, body[:500]
        table["version"] += 1
    table["next"] += 1


def club_fill(base: str, sessions: int) -> dict[str, Any]:
    with ThreadPoolExecutor(8) as pool:  # eight sessions set up at once
        return {"sessions": list(pool.map(lambda n: club_session(base, n), range(sessions)))}


# --- Filling the server: the simultaneous event -----------------------------------------------


SIM_SECTIONS = (15,) * 55 + (13, 12, 10) * 5
"""A federation's simultaneous pairs: seventy clubs' sections, 1 000 tables in all, of 10 to
15 tables (the setup form's Mitchell stops at 15), each a Mitchell of two boards a round, all
on the same boards, scored across the field."""
SIM_PLAYED_SPREAD = 3
"""Section n starts with n % 3 rounds played: 2 000 results or so, the field's first hour
(filled through the pages, a result's two posts each, it takes the server minutes)."""
SIM_PLAYER_PHONES = 1
"""A player's phone at each table, following its table's page."""
SIM_TARGETS_MS = {"table_pages": 100.0, "posts": 150.0, "field_pages": 200.0}
"""What a step must keep (p95) to count as held, besides the phones' pace."""
FIELD_EVERY = 2.0
"""The organiser's phone loads the field's page, then its ranking, one every 2 s."""
FIELD_LINK = re.compile(r'href="(/club/field/[A-Za-z0-9_-]+)"')


def sim_fill(base: str) -> dict[str, Any]:
    """The event set up through the app's pages by its organiser's phone: the first section's
    setup with two sections, then each further section added to the field (``?field=``);
    then every section's tables' phones opened, section n with ``n % SIM_PLAYED_SPREAD``
    rounds played, and the players' phones opened, eight sections at once."""
    director = Phone(base)
    first = set_up(director, {**CLUB_SETUP, "tables": str(SIM_SECTIONS[0]), "sections": "2"})
    found = FIELD_LINK.search(director.request(first)[1])
    assert found
    field = found.group(1)
    field_id = field.rsplit("/", 1)[1]
    assert SIM_SECTIONS[0] == SIM_SECTIONS[1]  # the first two are set up together
    for tables in SIM_SECTIONS[2:]:
        setup = {**CLUB_SETUP, "tables": str(tables), "field": field_id, "board_set": "same"}
        set_up(director, setup, f"?field={field_id}")
    sections = re.findall(r'<h3><a href="(/club/[A-Za-z0-9_-]+)">', director.request(field)[1])
    assert len(sections) == len(SIM_SECTIONS), len(sections)

    numbers = range(len(SIM_SECTIONS))
    # Each step for every section before the next: the pages opened while no result changes
    # the field are drawn once its score is kept, not scored anew at each page.
    with ThreadPoolExecutor(8) as pool:
        opened = list(
            pool.map(lambda n: tables_opened(base, director, sections[n], SIM_SECTIONS[n]), numbers)
        )
        list(pool.map(lambda n: rounds_played(opened[n], n, SIM_PLAYED_SPREAD), numbers))
        filled = list(
            pool.map(
                lambda n: phones_opened(base, director, opened[n], SIM_PLAYER_PHONES, True),
                numbers,
            )
        )
    return {"sessions": filled, "field": {"path": field, "director": cookie_of(director)}}


# --- The load generator (another process) ---------------------------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection; one request at a time."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, bytes]:
        await self.open()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body:
            lines += [
                "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(body)}",
            ]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        assert self.reader
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length, close = 0, False
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _sep, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
            if name.lower() == "connection" and "close" in value.lower():
                close = True
        payload = await self.reader.readexactly(length) if length else b""
        if close:
            self.writer.close()
            self.writer = None
        return status, payload


OPENED_AT_ONCE, SETTLE = 128, 1.0


class RunClock:
    """A load run's clock, started once its connections are open: the share of its core the
    server used while the run went on (its own computing: PostgreSQL runs on the other core),
    and the generator's share of its own. Starting the generator's process, handing it the
    games and opening the connections are not the run's, and do not count."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid
        self.server_used = cpu_seconds(server_pid)
        self.core_used = core_busy_seconds()
        self.generator_used = time.process_time()
        self.started = time.perf_counter()

    def shares(self) -> dict[str, float]:
        elapsed = time.perf_counter() - self.started
        server = (cpu_seconds(self.server_pid) - self.server_used) / elapsed
        core = (core_busy_seconds() - self.core_used) / elapsed
        return {
            "server_busy_share": server,
            # The server's core is not the server's alone on a host that runs anything else:
            # its threads then wait for the core while the server's own share reads low.
            "core_others_share": max(0.0, core - server),
            # A generator short of its core would hold answers it has received: the
            # latencies would then be partly its own.
            "generator_busy_share": (time.process_time() - self.generator_used) / elapsed,
        }


class Pool:
    def __init__(self, host: str, port: int, size: int) -> None:
        self.free: asyncio.Queue[Connection] = asyncio.Queue()
        for _ in range(size):
            self.free.put_nowait(Connection(host, port))

    async def open(self) -> None:
        """Open every connection before a run's clock starts, as the phones of an evening
        under way hold theirs open: opened by each phone's first request, thousands of them
        came together in a run's first second, a storm no evening sees, and the slowest
        answers of the run were all there."""
        connections = [self.free.get_nowait() for _ in range(self.free.qsize())]
        for first in range(0, len(connections), OPENED_AT_ONCE):
            batch = connections[first : first + OPENED_AT_ONCE]
            # One that fails is opened again by its first request, which counts the error.
            await asyncio.gather(*(c.open() for c in batch), return_exceptions=True)
        for connection in connections:
            self.free.put_nowait(connection)
        await asyncio.sleep(SETTLE)  # the server takes the last ones in

    async def timed(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, float]:
        connection = await self.free.get()
        try:
            started = time.perf_counter()
            status, _payload = await connection.request(method, path, headers, body)
            return status, (time.perf_counter() - started) * 1000
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            connection.writer = None
            return 0, 0.0
        finally:
            self.free.put_nowait(connection)


RATE_SLICE = 1.0
"""The flat-out rates take turns a second at a time (the static file, the page, the poll, and
round again), so that a host that speeds up or slows down during a run weighs on the three
alike, and on the ratios between them not at all."""


async def flat_out(pool: Pool, path: str, headers: dict[str, str], end: float) -> int:
    """One client asking again as soon as it is answered, until ``end``: how many answers."""
    answered = 0
    while time.perf_counter() < end:
        status, _ms = await pool.timed("GET", path, headers)
        if status in (200, 304):
            answered += 1
    return answered


async def throughput(
    base: str, targets: dict[str, tuple[str, dict[str, str]]], seconds: float, clients: int
) -> dict[str, float]:
    """Requests per second for each target with ``clients`` requests always in flight, over
    ``seconds`` each, the targets taking turns."""
    parts = urllib.parse.urlsplit(base)
    pool = Pool(parts.hostname or "127.0.0.1", parts.port or 80, clients)
    done = dict.fromkeys(targets, 0)
    spent = dict.fromkeys(targets, 0.0)
    turns = max(1, round(seconds / RATE_SLICE))
    for _turn in range(turns):
        for name, (path, headers) in targets.items():
            started = time.perf_counter()
            end = started + seconds / turns
            clients_done = [flat_out(pool, path, headers, end) for _ in range(clients)]
            done[name] += sum(await asyncio.gather(*clients_done))
            spent[name] += time.perf_counter() - started
    return {name: done[name] / spent[name] for name in targets}


async def tables_load(
    base: str,
    fill_data: dict[str, Any],
    tables: int,
    seconds: float,
    connections: int,
    server_pid: int,
) -> dict[str, Any]:
    """``tables`` tables at once: five phones polling at the app's pace, a scorer posting a
    round every minute, and every phone reloading the page after each change, over
    ``connections`` kept open. Latencies in ms."""
    parts = urllib.parse.urlsplit(base)
    pool = Pool(parts.hostname or "127.0.0.1", parts.port or 80, connections)
    await pool.open()
    clock = RunClock(server_pid)
    end = time.perf_counter() + seconds
    pages: list[float] = []
    posts: list[float] = []
    polls: list[float] = []
    errors = 0
    rng = random.Random(tables)

    async def pause(wanted: float) -> None:
        """Wait, but not past the step's end: a step lasts its seconds, not a scorer's minute."""
        await asyncio.sleep(max(0.0, min(wanted, end - time.perf_counter())))

    meant, waited = [0.0], [0.0]  # the phones' planned and actual time between two polls

    # Each table enters its round at a moment of the minute drawn at random, as tables do,
    # but in each stretch of the minute as long as the step the same number of them: drawn
    # over the whole minute, a 15-s step held a quarter more entries at one number of tables
    # and a sixth fewer at another, the same in every run since the draws are seeded.
    started_at = time.perf_counter()
    scorers = fill_data["scorers"][:tables]
    stretches = max(1, round(POST_EVERY / seconds))
    first_entry = {
        id(scorer): started_at + (number % stretches + rng.random()) / stretches * POST_EVERY
        for number, scorer in enumerate(rng.sample(scorers, len(scorers)))
    }

    async def phone(scorer: dict[str, Any], cookie: str) -> None:
        """A phone on the table, as the page's script: polls at the app's pace, and reloads the
        page when the game has changed, last when its scorer entered the last round."""
        nonlocal errors
        changed_at = first_entry[id(scorer)] - POST_EVERY
        wait = LIVE_PACE.every(time.perf_counter() - changed_at) * rng.uniform(0.9, 1.1)
        await pause(rng.uniform(0, wait))
        game_id, seen = scorer["path"].rsplit("/", 1)[1], scorer["version"]
        headers = {"Cookie": cookie}
        last_start = None
        while time.perf_counter() < end:
            started = time.perf_counter()
            if last_start is not None:
                meant[0] += wait
                waited[0] += started - last_start
            last_start = started
            etag = f'"{game_id}-{seen}"'
            status, ms = await pool.timed(
                "GET", f"{scorer['path']}/version", {**headers, "If-None-Match": etag}
            )
            if status in (200, 304):
                polls.append(ms)
            else:
                errors += 1
            if status == 200:
                seen = scorer["version"]
                status, ms = await pool.timed("GET", scorer["path"], headers)
                if status == 200:
                    pages.append(ms)
                changed_at = time.perf_counter()
            wait = LIVE_PACE.every(time.perf_counter() - changed_at) * rng.uniform(0.9, 1.1)
            await pause(wait)

    schedule = rules.schedule(rules.PRESETS[PRESET], 4)

    async def scorer_task(scorer: dict[str, Any]) -> None:
        nonlocal errors
        await pause(first_entry[id(scorer)] - time.perf_counter())
        while time.perf_counter() < end and scorer["next"] <= len(schedule):
            number = scorer["next"]
            cards = schedule[number - 1]
            dealer = rules.dealer_seat(number, 4, 0)
            headers = {"Cookie": scorer["cookie"]}
            for kind, values in (
                ("bids", [0] * 4),
                ("tricks", [cards if s == dealer else 0 for s in range(4)]),
            ):
                prefix = "bid" if kind == "bids" else "tricks"
                body = urllib.parse.urlencode(
                    {
                        "csrf_token": scorer["token"],
                        **{f"{prefix}_{s}": v for s, v in enumerate(values)},
                        "trump": "",
                    }
                ).encode()
                status, ms = await pool.timed(
                    "POST", f"{scorer['path']}/rounds/{number}/{kind}", headers, body
                )
                if status == 302:
                    posts.append(ms)
                    scorer["version"] += 1
                else:
                    errors += 1
                status, ms = await pool.timed("GET", scorer["path"], headers)  # the redirect
                if status == 200:
                    pages.append(ms)
            scorer["next"] += 1
            await pause(POST_EVERY)

    tasks = [phone(s, cookie) for s in scorers for cookie in s["phones"]]
    await asyncio.gather(*tasks, *(scorer_task(s) for s in scorers))
    return {
        "pages": pages,
        "posts": posts,
        "polls": polls,
        "errors": errors,
        "kept": meant[0] / waited[0] if waited[0] else 0.0,
        **clock.shares(),
        "scorers": scorers,  # where each game now is, for the next run to go on from
    }


async def club_load(
    base: str,
    fill_data: dict[str, Any],
    sessions: int,
    seconds: float,
    connections: int,
    server_pid: int,
) -> dict[str, Any]:
    """``sessions`` club sessions at once: each table's phone entering a board at a club's pace
    (North-South enter, East-West confirm, each followed by the table's page) and following its
    own table; the players' phones and the director's following the session, each reloading
    its page when the session changed. Latencies in ms."""
    parts = urllib.parse.urlsplit(base)
    pool = Pool(parts.hostname or "127.0.0.1", parts.port or 80, connections)
    await pool.open()
    clock = RunClock(server_pid)
    started_at = time.perf_counter()
    end = started_at + seconds
    kinds = (*CLUB_KINDS, "field_pages")
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    errors = [0]
    meant, waited = [0.0], [0.0]
    chosen = fill_data["sessions"][:sessions]
    # Each run draws anew: seeded alike, every run drew each table the same moment, and the
    # tables that had entered a board just before one run ended were those drawn to confirm
    # it in the first instant of the next.
    rng = random.Random()
    # Each table's next board comes at a moment of its seven minutes drawn at random, but in
    # each stretch of them as long as the run the same number of tables, as the Ascenseur
    # tables do: the run carries its share of the entries, not more or fewer by chance.
    tables = [table for session in chosen for table in session["tables"]]
    stretches = max(1, round(BOARD_EVERY / seconds))
    first_board = {
        id(table): (number % stretches + rng.random()) / stretches * BOARD_EVERY
        for number, table in enumerate(rng.sample(tables, len(tables)))
    }

    async def pause(wanted: float) -> None:
        await asyncio.sleep(max(0.0, min(wanted, end - time.perf_counter())))

    def timed(kind: str, status: int, ms: float, wanted: tuple[int, ...] = (200,)) -> bool:
        if status in wanted:
            times[kind].append(ms)
            return True
        errors[0] += 1
        return False

    async def follow(
        address: str,
        etag: Callable[[], str],
        changed: Callable[[], Awaitable[None]] | None,
        cookie: str,
    ) -> None:
        """A page's script: polls at the app's pace, ``changed()`` when the answer is new."""
        changed_at = started_at - rng.uniform(0, 2 * LIVE_PACE.quiet_after)
        wait = LIVE_PACE.every(time.perf_counter() - changed_at) * rng.uniform(0.9, 1.1)
        await pause(rng.uniform(0, wait))
        headers = {"Cookie": cookie}
        last_start = None
        while time.perf_counter() < end:
            now = time.perf_counter()
            if last_start is not None:
                meant[0] += wait
                waited[0] += now - last_start
            last_start = now
            status, ms = await pool.timed("GET", address, {**headers, "If-None-Match": etag()})
            polled = timed(
                "table_polls" if "/part/" in address else "polls", status, ms, (200, 304)
            )
            if polled and status == 200 and changed is not None:
                await changed()
                changed_at = time.perf_counter()
            wait = LIVE_PACE.every(time.perf_counter() - changed_at) * rng.uniform(0.9, 1.1)
            await pause(wait)

    def session_follower(session: dict[str, Any], cookie: str, kind: str) -> Any:
        game_id = session["path"].rsplit("/", 1)[1]
        seen = [session["version"]]

        async def reload() -> None:
            seen[0] = session["version"]
            status, ms = await pool.timed("GET", session["path"], {"Cookie": cookie})
            timed(kind, status, ms)

        return follow(
            f"{session['path']}/version", lambda: f'"{game_id}-{seen[0]}"', reload, cookie
        )

    async def table_phone(session: dict[str, Any], table: dict[str, Any]) -> None:
        """North-South enter a board and East-West confirm it, about every seven minutes from
        a moment drawn at random; meanwhile the phone follows its table. A confirmation due
        after the run's end waits for the next run, which sends it in its first 20 s: sent at
        the run's last instant, the confirmations of every table waiting for one came
        together in a burst no club makes, and were a fifth of the run's posts."""
        game_id = session["path"].rsplit("/", 1)[1]
        headers = {"Cookie": table["cookie"]}
        number = table["table"]
        poll = follow(
            f"{session['path']}/part/{number}/version",
            lambda: f'"{game_id}-{number}-{table["part_version"]}"',
            None,  # it shows its own changes, the page after each entry: the poll stays 304
            table["cookie"],
        )
        polling = asyncio.ensure_future(poll)
        await pause(rng.uniform(0, CONFIRM_AFTER) if table["entered"] else first_board[id(table)])
        while time.perf_counter() < end and table["next"] < len(table["boards"]):
            board_started = time.perf_counter()
            round_, board = table["boards"][table["next"]]
            entry = f"{table['link']}/{round_}/{board}"
            if not table["entered"]:
                await send(session, table, headers, entry, result_fields(rng))
                table["entered"] = True
                await pause(CONFIRM_AFTER)
                if time.perf_counter() >= end:
                    break
            # The tick shows on the table's page alone: the session's version stays.
            await send(session, table, headers, f"{entry}/confirm", {}, in_session=False)
            table["entered"] = False
            table["next"] += 1
            await pause(BOARD_EVERY - (time.perf_counter() - board_started))
        await polling

    async def send(
        session: dict[str, Any],
        table: dict[str, Any],
        headers: dict[str, str],
        address: str,
        fields: dict[str, str],
        *,
        in_session: bool = True,
    ) -> None:
        """One of the table's entries, then its page (the redirect). An entry ``in_session``
        changes the session's pages too, which the director's and the players' phones reload."""
        sent = {"csrf_token": table["token"], "drawn_from": str(table["version"]), **fields}
        body = urllib.parse.urlencode(sent).encode()
        status, ms = await pool.timed("POST", address, headers, body)
        if timed("posts", status, ms, (302,)):
            table["version"] += 1
            table["part_version"] += 1
            session["version"] += in_session
        status, ms = await pool.timed("GET", table["link"], headers)
        timed("table_pages", status, ms)

    def table_follower(session: dict[str, Any], table: dict[str, Any], cookie: str) -> Any:
        """A player's phone following its table's page (the event's players)."""
        game_id = session["path"].rsplit("/", 1)[1]
        number = table["table"]
        seen = [table["part_version"]]

        async def reload() -> None:
            seen[0] = table["part_version"]
            status, ms = await pool.timed("GET", table["link"], {"Cookie": cookie})
            timed("player_pages", status, ms)

        return follow(
            f"{session['path']}/part/{number}/version",
            lambda: f'"{game_id}-{number}-{seen[0]}"',
            reload,
            cookie,
        )

    async def organiser(field: dict[str, Any]) -> None:
        """The organiser's phone: the field's page, then its ranking, one every 2 s."""
        headers = {"Cookie": field["director"]}
        await pause(rng.uniform(0, FIELD_EVERY))
        while time.perf_counter() < end:
            for address in (field["path"], f"{field['path']}/ranking"):
                status, ms = await pool.timed("GET", address, headers)
                timed("field_pages", status, ms)
                await pause(FIELD_EVERY)

    tasks = []
    field = fill_data.get("field")
    for session in chosen:
        if field is None:
            tasks.append(session_follower(session, session["director"], "director_pages"))
        for table in session["tables"]:
            tasks.append(table_phone(session, table))
            tasks += [
                table_follower(session, table, cookie)
                if field is not None
                else session_follower(session, cookie, "player_pages")
                for cookie in table["players"]
            ]
    if field is not None:
        tasks.append(organiser(field))
    await asyncio.gather(*tasks)
    return {
        **times,
        "errors": errors[0],
        "kept": meant[0] / waited[0] if waited[0] else 0.0,
        **clock.shares(),
        "sessions": chosen,  # where each session now is, for the next run to go on from
    }


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def load_generator(job: dict[str, Any], answer: Any) -> None:
    """Runs in its own process, so the server and the generator do not share an interpreter,
    and on its own core, so that they do not take turns on one."""
    os.sched_setaffinity(0, LOAD_CORES)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a connection per phone
    wanted = 65536 if hard == resource.RLIM_INFINITY else hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    base, seconds = job["base"], job["seconds"]
    result: dict[str, Any] = {}
    if job["kind"] == "throughput":
        result = asyncio.run(throughput(base, job["targets"], seconds, 16))
    elif job["kind"] == "club":
        club_job = (job["fill"], job["sessions"], seconds, job["connections"], job["server_pid"])
        result = asyncio.run(club_load(base, *club_job))
    else:
        tables_job = (job["fill"], job["tables"], seconds, job["connections"], job["server_pid"])
        result = asyncio.run(tables_load(base, *tables_job))
    answer.send(result)


STEADY, TRIES = 1.15, 3
"""This host changes speed for minutes at a time, and the latencies near the knee follow: the
same minute at 300 tables, the same requests, took the server 51 % of its core and gave a page
p95 of 37 ms, then 66 % and 87 ms. The server's processor time for a run's work is the host's
speed measured on that work itself (a fixed loop timed beside it did not follow it). A run at a
number of tables counts where its busy share was within 15 % of the least any run at that
number has taken so far (a run moves each game on a round, so the work is nearly, not quite,
the same); a run of the flat-out rates, where the static file's rate (Flask's own work, none of
the app's) was within 15 % of its best so far. A run made while the host was slower is run
again, at most ``TRIES`` times in all; the last counts whatever the host did, and says so. A
run is judged only against those before it: the first of its kind sets the mark, and a run kept
before a faster one is not judged again. The marks carry over to a second whole benchmark
(``--twice``), so that its runs are held to the first one's."""


def in_another_process(job: dict[str, Any]) -> dict[str, Any]:
    receive, send = multiprocessing.Pipe(duplex=False)
    process = multiprocessing.Process(target=load_generator, args=(job, send))
    process.start()
    result: dict[str, Any] = receive.recv()
    process.join()
    return result


class Host:
    """The least each kind of run has cost the host in this benchmark (a deployment's flat-out
    rates, its runs at a number of tables), against which another run of that kind is steady."""

    def __init__(self) -> None:
        self.least: dict[tuple[object, ...], float] = {}

    def steady(self, kind: tuple[object, ...], cost: float) -> bool:
        least = self.least[kind] = min(self.least.get(kind, cost), cost)
        return cost <= STEADY * least

    def until_steady(
        self,
        kind: tuple[object, ...],
        run: Callable[[], dict[str, Any]],
        cost: Callable[[dict[str, Any]], float],
        say: Callable[[str], None],
    ) -> Any:
        """Run until a run is steady, at most ``TRIES`` times; the result notes ``redone``."""
        for attempt in range(TRIES):
            result = run()
            result["redone"] = attempt
            if self.steady(kind, cost(result)):
                return result
            slower = cost(result) / self.least[kind] - 1
            if attempt + 1 < TRIES:
                say(f"the host ran {slower:.0%} slower than in the best run of these: run again")
            else:
                say(f"the host ran {slower:.0%} slower than in the best run in {TRIES} tries")
        return result


HOST = Host()


# --- The engine ------------------------------------------------------------------------------


RESCORE_ATTEMPTS, RESCORE_APART = 7, 5.0


def rescore_max_game_ms() -> tuple[float, str]:
    """Scoring the largest game any preset allows, every round entered: most rounds × players."""
    best = None
    for key, preset in rules.PRESETS.items():
        for decks in (1, 2) if preset.top is rules.Top.DECK_SHARE else (1,):
            variant = replace(preset, decks=decks, top_rounds=rules.TopRounds.EACH_PLAYER)
            for players in variant.player_counts:
                cells = len(rules.schedule(variant, players)) * players
                if best is None or cells > best[0]:
                    best = (cells, key, variant, players)
    assert best
    cells, key, variant, players = best
    from tests.games import play_out

    entries = play_out(variant, players, 0, seed=1)
    names = [f"Player {n}" for n in range(players)]
    # On the server's core, the fastest of 15, as timeit advises: a slower one timed whatever
    # else ran on the core meanwhile (a database still busy after the load), not the scoring.
    # Taken again every few seconds for half a minute: the fastest of them all.
    everywhere = os.sched_getaffinity(0)
    os.sched_setaffinity(0, SERVER_CORES)
    fastest = float("inf")
    try:
        for attempt in range(RESCORE_ATTEMPTS):
            runs = timeit.repeat(
                lambda: rules.score_game(variant, names, 0, entries), number=1, repeat=15
            )
            fastest = min(fastest, *runs)
            if attempt + 1 < RESCORE_ATTEMPTS:
                time.sleep(RESCORE_APART)
    finally:
        os.sched_setaffinity(0, everywhere)
    return (
        fastest * 1000,
        f"{key}, 2 decks, top round per player, {players} players, {len(entries)} rounds",
    )


# --- One deployment, every step run several times ------------------------------------------


def median_and_spread(values: list[float]) -> tuple[float, float]:
    """The median of the runs, and their spread: (highest − lowest) / median."""
    middle = statistics.median(values)
    spread = (max(values) - min(values)) / middle if middle else 0.0
    return middle, spread


def cpu_seconds(pid: int) -> float:
    """The processor time a server has used so far: Granian answers in a child of the process
    it was started as, and a child that ended (a worker restarted) leaves its time to it."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:  # a process that ended meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
        parent, (utime, stime, children_utime, children_stime) = fields[1], fields[11:15]
        if int(entry) == pid or int(parent) == pid:
            total += int(utime) + int(stime) + int(children_utime) + int(children_stime)
    return total / os.sysconf("SC_CLK_TCK")


def core_busy_seconds() -> float:
    """The time the server's cores have spent running anything (the server, or another
    process of the host) so far."""
    busy = 0
    for line in Path("/proc/stat").read_text().splitlines():
        name, *ticks = line.split()
        if name.startswith("cpu") and name[3:].isdigit() and int(name[3:]) in SERVER_CORES:
            # user nice system idle iowait irq softirq steal: all but idle and iowait
            values = [int(tick) for tick in ticks[:8]]
            busy += sum(values) - values[3] - values[4]
    return busy / os.sysconf("SC_CLK_TCK")


def load_step(
    server: Server, fill_data: dict[str, Any], tables: int, seconds: float, connections: int
) -> dict[str, Any]:
    load = in_another_process(
        {
            "kind": "tables",
            "base": server.url,
            "seconds": seconds,
            "fill": fill_data,
            "tables": tables,
            "connections": connections,
            "server_pid": server.process.pid,
        }
    )
    fill_data["scorers"][:tables] = load.pop("scorers")  # the next run goes on from here
    load["page_p95"] = percentile(load["pages"], 0.95)
    load["held"] = (
        load["kept"] >= KEPT_SCHEDULE and not load["errors"] and load["page_p95"] < PAGE_TARGET_MS
    )
    return load


@dataclass(frozen=True)
class Plan:
    """What a deployment is filled with: Ascenseur tables, and club sessions (none: no club)."""

    tables: int
    sessions: int
    sim: bool = False
    """Whether it holds the simultaneous event too."""


@dataclass
class ClubNight:
    """The club night on a deployment: its sessions, the flat-out targets, and its runs."""

    fill: dict[str, Any]
    targets: dict[str, tuple[str, dict[str, str]]]
    rates: list[dict[str, float]] = field(default_factory=list)
    latency_loads: list[dict[str, Any]] = field(default_factory=list)
    low: int = 1
    high: int = 0
    sustained: int = 0
    redone: int = 0
    workload: str = "club"
    """"club": sessions of their own; "sim": the simultaneous event, one field."""
    targets_ms: dict[str, float] = field(default_factory=lambda: dict(CLUB_TARGETS_MS))
    memory: list[list[float]] = field(default_factory=list)
    """Each latency run's resident memory of each server process, in MB, at its end."""

    def tables(self, sessions: int) -> int:
        """The tables of the first ``sessions`` sessions."""
        return sum(len(session["tables"]) for session in self.fill["sessions"][:sessions])

    def phones(self, sessions: int) -> int:
        """The phones of the first ``sessions`` sessions: each table's and its players', the
        directors' (the club night) or the organiser's (the event)."""
        chosen = self.fill["sessions"][:sessions]
        at_tables = sum(1 + len(table["players"]) for s in chosen for table in s["tables"])
        return at_tables + (1 if self.workload == "sim" else len(chosen))


@dataclass
class Bench:
    """One deployment being measured: its server, its games, and what its runs gave so far."""

    deployment: Deployment
    server: Server
    fill: dict[str, Any]
    size: int
    targets: dict[str, tuple[str, dict[str, str]]]
    rates: list[dict[str, float]] = field(default_factory=list)
    latency_loads: list[dict[str, Any]] = field(default_factory=list)
    low: int = 50
    high: int = 0
    sustained: int = 0
    redone: int = 0
    club: ClubNight | None = None
    sim: ClubNight | None = None

    def night(self, workload: str) -> ClubNight | None:
        return self.sim if workload == "sim" else self.club

    def say(self, message: str) -> None:
        print(f"  {self.deployment.label:<20} {message}", flush=True)


def prepare(
    deployment: Deployment,
    database_url: str,
    folder: Path,
    plan: Plan,
    cleanup: ExitStack,
) -> Bench:
    """Start the deployment and fill it with games (and club sessions); note the round page's
    size (and the table page's), and write a static file of the same size for each. ``cleanup``
    stops the server and removes the files."""
    server = deployment.start(database_url, folder)
    running = [server]
    cleanup.callback(lambda: stop(running.pop()) if running else None)
    print(f"\n== {deployment.label}: {plan.tables} tables, {plan.sessions} sessions ==", flush=True)
    fill_data = fill(server.url, plan.tables)
    measured = fill_data["measured"]
    size, parts = page_bytes_gzip(server.url, measured)
    for name, raw, packed in parts:
        print(f"  {name:<40} {raw:>7} B  {packed:>6} B gzip")
    static_file = same_size_file(deployment, server, measured, "round", cleanup)
    night, table_file = None, None
    if plan.sessions:
        started = time.perf_counter()
        night = club_fill(server.url, plan.sessions)
        first = night["sessions"][0]
        table_link = first["tables"][0]["link"]
        print(
            f"  {plan.sessions} club sessions filled in {time.perf_counter() - started:.0f} s; "
            f"a table's page {page_bytes_gzip(server.url, table_link)[0]} B gzip",
            flush=True,
        )
        table_file = same_size_file(deployment, server, table_link, "table", cleanup)
    event, event_file = None, None
    if plan.sim:
        started = time.perf_counter()
        event = sim_fill(server.url)
        table_link = event["sessions"][0]["tables"][0]["link"]
        print(
            f"  the event filled in {time.perf_counter() - started:.0f} s: "
            f"{len(event['sessions'])} sections, "
            f"{sum(len(s['tables']) for s in event['sessions'])} tables; a table's page "
            f"{page_bytes_gzip(server.url, table_link)[0]} B gzip",
            flush=True,
        )
        event_file = same_size_file(deployment, server, table_link, "sim-table", cleanup)
    # The app reads its static files when it starts: start it again to serve them.
    stop(running.pop())
    server = deployment.start(database_url, folder)
    running.append(server)
    reloading = Phone(server.url)  # a phone at the table, with its cookie
    reloading.request(measured)
    version = json.loads(reloading.request(f"{measured}/version")[1])["version"]
    etag = f'"{measured.rsplit("/", 1)[1]}-{version}"'
    cookie = {"Cookie": cookie_of(reloading)}
    targets = {
        "static": (f"/static/{static_file}", {}),
        "page": (measured, cookie),
        "poll": (f"{measured}/version", {**cookie, "If-None-Match": etag}),
    }
    bench = Bench(deployment, server, fill_data, size, targets, high=plan.tables)
    if night is not None:
        session, table = night["sessions"][0], night["sessions"][0]["tables"][0]
        game_id = session["path"].rsplit("/", 1)[1]
        etag = f'"{game_id}-{session["version"]}"'
        bench.club = ClubNight(
            night,
            {
                "static": (f"/static/{table_file}", {}),
                "table_page": (table["link"], {"Cookie": table["cookie"]}),
                "director_page": (session["path"], {"Cookie": session["director"]}),
                "poll": (f"{session['path']}/version", {"If-None-Match": etag}),
            },
            high=plan.sessions,
        )
    if event is not None:
        session, table = event["sessions"][0], event["sessions"][0]["tables"][0]
        game_id = session["path"].rsplit("/", 1)[1]
        etag = f'"{game_id}-{table["table"]}-{table["part_version"]}"'
        director = {"Cookie": event["field"]["director"]}
        bench.sim = ClubNight(
            event,
            {
                "static": (f"/static/{event_file}", {}),
                "table_page": (table["link"], {"Cookie": table["cookie"]}),
                "field_page": (f"{event['field']['path']}/ranking", director),
                "poll": (
                    f"{session['path']}/part/{table['table']}/version",
                    {"If-None-Match": etag},
                ),
            },
            high=len(event["sessions"]) - 1,
            workload="sim",
            targets_ms=dict(SIM_TARGETS_MS),
        )
    return bench


def same_size_file(
    deployment: Deployment, server: Server, path: str, kind: str, cleanup: ExitStack
) -> str:
    """A static file as large as the page at ``path``, named after it (the app serves it once
    started again)."""
    page = Phone(server.url).request(path)[1].encode()
    static_file = ROOT / "static" / f"bench-{deployment.label}-{kind}-{len(page)}.html"
    static_file.write_bytes(page)
    cleanup.callback(static_file.unlink, missing_ok=True)
    return static_file.name


def rates_run(bench: Bench, seconds: float) -> None:
    rate = flat_out_rates(bench, bench.targets, "rates", seconds)
    bench.rates.append(rate)
    bench.redone += rate["redone"]


def flat_out_rates(
    bench: Bench, targets: dict[str, tuple[str, dict[str, str]]], kind: str, seconds: float
) -> dict[str, Any]:
    """The flat-out rates of ``targets`` taking turns, run again while the host was slower
    (``kind`` names the runs they are held to)."""

    def run() -> dict[str, Any]:
        job = {"kind": "throughput", "base": bench.server.url, "seconds": seconds}
        rate = in_another_process({**job, "targets": targets})
        print(
            f"  {bench.deployment.label:<20} {kind}, requests a second: "
            + ", ".join(f"{name} {rate[name]:.0f}" for name in targets),
            flush=True,
        )
        return rate

    return HOST.until_steady(  # type: ignore[no-any-return]
        (bench.deployment.label, kind), run, lambda rate: 1 / rate["static"], bench.say
    )


def tables_run(bench: Bench, tables: int, seconds: float, note: str = "") -> dict[str, Any]:
    def run() -> dict[str, Any]:
        connections = bench.deployment.connections(tables)
        load = load_step(bench.server, bench.fill, tables, seconds, connections)
        print(
            f"  {bench.deployment.label:<20} {tables:>4} tables{note and f' ({note})'}: page p95 "
            f"{load['page_p95']:7.1f} ms over {len(load['pages'])} pages, {len(load['polls'])} "
            f"polls ({load['kept']:.0%} of the schedule), {len(load['posts'])} posts, "
            f"{load['errors']} errors, server core {load['server_busy_share']:.0%} busy "
            f"(others {load['core_others_share']:.0%}), generator "
            f"{load['generator_busy_share']:.0%}",
            flush=True,
        )
        return load

    if note == "warm-up":  # not counted, so not run again either
        return run()
    kind = (bench.deployment.label, "tables", tables)
    load: dict[str, Any] = HOST.until_steady(
        kind, run, lambda load: load["server_busy_share"], bench.say
    )
    bench.redone += load["redone"]
    return load


def measure_all(
    benches: list[Bench], seconds: float, runs: int, most_tables: int
) -> list[dict[str, Any]]:
    """Every run of every step, the deployments taking turns run by run: a stretch of minutes
    in which the host is slower then weighs on each of them, and on a single run of each, not
    on every run of one deployment."""
    latency_tables = min(LATENCY_TABLES, most_tables)
    # A server process just started is cold: its first step draws every page afresh, compiles
    # its templates and loads each language's data. That step is not counted.
    for bench in benches:
        tables_run(bench, latency_tables, seconds, "warm-up")
    for _run in range(runs):
        for bench in benches:
            rates_run(bench, seconds)
        for bench in benches:
            load = tables_run(bench, latency_tables, max(seconds, LATENCY_SECONDS))
            bench.latency_loads.append(load)
    # The most tables held, searched for each deployment at once: a step is held when most of
    # its runs hold it. The minutes at 300 tables are the step at 300, the longest runs of the
    # benchmark and the target: the search goes on above it or below it, never again across.
    for bench in benches:
        if sum(load["held"] for load in bench.latency_loads) * 2 > runs:
            bench.sustained, bench.low = latency_tables, latency_tables + 25
        else:
            bench.high = latency_tables - 25
    searching = [bench for bench in benches if bench.low <= bench.high]
    while searching:
        steps = {id(bench): (bench.low + bench.high) // 2 for bench in searching}
        held = {id(bench): 0 for bench in searching}
        for _run in range(runs):
            for bench in searching:
                held[id(bench)] += tables_run(bench, steps[id(bench)], seconds)["held"]
        for bench in searching:
            tables = steps[id(bench)]
            if held[id(bench)] * 2 > runs:
                bench.sustained, bench.low = tables, tables + 25
            else:
                bench.high = tables - 25
        searching = [bench for bench in searching if bench.low <= bench.high]
    rescore, largest = rescore_max_game_ms()
    print(f"  largest game re-scored: {largest}")
    return [figures_of(bench, latency_tables, runs, rescore) for bench in benches]


def put_figures(result: dict[str, Any], figures: dict[str, list[float]]) -> None:
    """Each figure's median over the runs, rounded as it reads, and its spread; a figure of
    requests the workload does not make (the event's phones poll no session) is left out,
    rather than written as NaN, which a JSON reader may refuse."""
    for name, values in figures.items():
        if all(math.isnan(value) for value in values):
            continue
        middle, spread = median_and_spread(values)
        ratio = "_vs_" in name or name.endswith("_share")
        places = 2 if ratio else (1 if name.endswith("_ms") else 0)
        result[name] = round(middle, places) if places else round(middle)
        result[f"{name}_spread"] = round(spread, 2)


def figures_of(bench: Bench, latency_tables: int, runs: int, rescore: float) -> dict[str, Any]:
    at, rates = bench.latency_loads, bench.rates
    figures: dict[str, list[float]] = {
        "round_page_p50_ms": [percentile(load["pages"], 0.50) for load in at],
        "round_page_p95_ms": [percentile(load["pages"], 0.95) for load in at],
        "post_round_p95_ms": [percentile(load["posts"], 0.95) for load in at],
        "poll_p95_ms": [percentile(load["polls"], 0.95) for load in at],
        "server_busy_share": [load["server_busy_share"] for load in at],
        "core_others_share": [load["core_others_share"] for load in at],
        "generator_busy_share": [load["generator_busy_share"] for load in at],
        "static_rps": [rate["static"] for rate in rates],
        "round_page_rps": [rate["page"] for rate in rates],
        "poll_rps": [rate["poll"] for rate in rates],
        "page_vs_static": [rate["page"] / rate["static"] for rate in rates],
        "poll_vs_static": [rate["poll"] / rate["static"] for rate in rates],
    }
    result: dict[str, Any] = {
        "database": bench.deployment.label,
        "workload": "ascenseur",
        "runs": runs,
        "latencies_at_tables": latency_tables,
        "round_page_bytes_gzip": bench.size,
        "tables_sustained": bench.sustained,
    }
    put_figures(result, figures)
    result["runs_redone"] = bench.redone
    result["rescore_max_game_ms"] = round(rescore, 2)
    return result


# --- The club night, every step run several times ------------------------------------------


def club_connections(deployment: Deployment, night: ClubNight, sessions: int) -> int:
    """A connection for every phone (the tables', the players', the directors') where they
    reach the server itself; the proxy's where they reach nginx."""
    if not deployment.phones_connect_directly:
        return PROXY_CONNECTIONS
    return night.phones(sessions)


def resident_mb(pid: int) -> list[float]:
    """The resident memory of a server's processes (the one started, and its children: the
    Granian workers), in MB."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(entry) == pid or int(fields.get("PPid", "0").strip()) == pid:
            found.append(int(fields.get("VmRSS", "0 kB").split()[0]) / 1024)
    return sorted(found, reverse=True)


def club_step(
    bench: Bench, sessions: int, seconds: float, workload: str = "club"
) -> dict[str, Any]:
    night = bench.night(workload)
    assert night is not None
    load = in_another_process(
        {
            "kind": "club",
            "base": bench.server.url,
            "seconds": seconds,
            "fill": night.fill,
            "sessions": sessions,
            "connections": club_connections(bench.deployment, night, sessions),
            "server_pid": bench.server.process.pid,
        }
    )
    load["memory_mb"] = resident_mb(bench.server.process.pid)
    night.fill["sessions"][:sessions] = load.pop("sessions")  # the next run goes on from here
    p95 = {kind: percentile(load[kind], 0.95) for kind in night.targets_ms}
    load["held"] = (
        load["kept"] >= KEPT_SCHEDULE
        and not load["errors"]
        and all(p95[kind] < target for kind, target in night.targets_ms.items())
    )
    load["p95"] = p95
    return load


def club_run(
    bench: Bench, sessions: int, seconds: float, note: str = "", workload: str = "club"
) -> dict[str, Any]:
    night = bench.night(workload)
    assert night is not None

    def run() -> dict[str, Any]:
        load = club_step(bench, sessions, seconds, workload)
        p95 = load["p95"]
        pages = "director_pages" if workload == "club" else "field_pages"
        print(
            f"  {bench.deployment.label:<20} {night.tables(sessions):>5} {workload} tables"
            f"{note and f' ({note})'}: p95 table page {p95['table_pages']:.1f} ms "
            f"({len(load['table_pages'])}), post {p95['posts']:.1f} ms ({len(load['posts'])}), "
            f"{pages.split('_')[0]} {percentile(load[pages], 0.95):.1f} ms "
            f"({len(load[pages])}), player pages {len(load['player_pages'])} (p95 "
            f"{percentile(load['player_pages'], 0.95):.1f} ms), polls {len(load['polls'])} + "
            f"{len(load['table_polls'])} ({load['kept']:.0%} of the schedule), "
            f"{load['errors']} errors, server core {load['server_busy_share']:.0%} busy "
            f"(others {load['core_others_share']:.0%}), generator "
            f"{load['generator_busy_share']:.0%}, memory "
            + "+".join(f"{mb:.0f}" for mb in load["memory_mb"])
            + " MB",
            flush=True,
        )
        return load

    if note == "warm-up":
        return run()
    kind = (bench.deployment.label, workload, sessions)
    load: dict[str, Any] = HOST.until_steady(
        kind, run, lambda load: load["server_busy_share"], bench.say
    )
    night.redone += load["redone"]
    return load


def club_rates_run(bench: Bench, seconds: float, workload: str = "club") -> None:
    night = bench.night(workload)
    assert night is not None
    rate = flat_out_rates(bench, night.targets, f"{workload} rates", seconds)
    night.rates.append(rate)
    night.redone += rate["redone"]


def measure_club(
    benches: list[Bench], seconds: float, runs: int, workload: str = "club"
) -> list[dict[str, Any]]:
    """The club night's runs, as :func:`measure_all`'s: the deployments taking turns, the
    latencies over a minute at the target (some seventy sessions of fifteen tables), the most
    sessions held searched above or below it. The event (``workload`` "sim") is run the same
    way: its latencies at its whole field, the most of its sections held searched below it
    (each section still scored across the whole field)."""
    nights = [bench for bench in benches if bench.night(workload) is not None]

    def night_of(bench: Bench) -> ClubNight:
        found = bench.night(workload)
        assert found is not None
        return found

    filled = min(len(night_of(bench).fill["sessions"]) for bench in nights)
    # Sessions: the event's whole field, or some seventy sessions of fifteen tables.
    club_target = min(-(-CLUB_TARGET_TABLES // CLUB_TABLES), filled)
    target = filled if workload == "sim" else club_target
    for bench in nights:
        club_run(bench, target, seconds, "warm-up", workload)
    for _run in range(runs):
        for bench in nights:
            club_rates_run(bench, seconds, workload)
        for bench in nights:
            load = club_run(bench, target, max(seconds, LATENCY_SECONDS), workload=workload)
            night_of(bench).latency_loads.append(load)
    for bench in nights:
        night = night_of(bench)
        if sum(load["held"] for load in night.latency_loads) * 2 > runs:
            night.sustained, night.low = target, target + 1
        else:
            night.high = target - 1
    searching = [bench for bench in nights if night_of(bench).low <= night_of(bench).high]
    while searching:
        steps = {id(b): (night_of(b).low + night_of(b).high) // 2 for b in searching}
        held = {id(bench): 0 for bench in searching}
        for _run in range(runs):
            for bench in searching:
                step = club_run(bench, steps[id(bench)], seconds, workload=workload)
                held[id(bench)] += step["held"]
        for bench in searching:
            night = night_of(bench)
            if held[id(bench)] * 2 > runs:
                night.sustained, night.low = steps[id(bench)], steps[id(bench)] + 1
            else:
                night.high = steps[id(bench)] - 1
        searching = [b for b in searching if night_of(b).low <= night_of(b).high]
    return [club_figures(bench, target, runs, workload) for bench in nights]


def club_figures(bench: Bench, target: int, runs: int, workload: str = "club") -> dict[str, Any]:
    night = bench.night(workload)
    assert night is not None
    at, rates = night.latency_loads, night.rates
    pages = "director_page" if workload == "club" else "field_page"
    figures: dict[str, list[float]] = {
        "table_page_p95_ms": [percentile(load["table_pages"], 0.95) for load in at],
        "post_result_p95_ms": [percentile(load["posts"], 0.95) for load in at],
        f"{pages}_p95_ms": [percentile(load[f"{pages}s"], 0.95) for load in at],
        "player_page_p95_ms": [percentile(load["player_pages"], 0.95) for load in at],
        "poll_p95_ms": [percentile(load["polls"], 0.95) for load in at],
        "table_poll_p95_ms": [percentile(load["table_polls"], 0.95) for load in at],
        "requests_per_s": [
            sum(len(load[kind]) for kind in (*CLUB_KINDS, "field_pages")) / max(LATENCY_SECONDS, 1)
            for load in at
        ],
        "server_busy_share": [load["server_busy_share"] for load in at],
        "core_others_share": [load["core_others_share"] for load in at],
        "generator_busy_share": [load["generator_busy_share"] for load in at],
        "static_rps": [rate["static"] for rate in rates],
        "table_page_rps": [rate["table_page"] for rate in rates],
        f"{pages}_rps": [rate[pages] for rate in rates],
        "table_page_vs_static": [rate["table_page"] / rate["static"] for rate in rates],
        f"{pages}_vs_static": [rate[pages] / rate["static"] for rate in rates],
        "poll_vs_static": [rate["poll"] / rate["static"] for rate in rates],
        "memory_mb_per_process": [max(load["memory_mb"], default=0.0) for load in at],
    }
    result: dict[str, Any] = {
        "database": bench.deployment.label,
        "workload": workload,
        "runs": runs,
        "latencies_at_tables": night.tables(target),
        f"{workload}_tables_sustained": night.tables(night.sustained),
    }
    put_figures(result, figures)
    result["server_processes"] = max(len(load["memory_mb"]) for load in at)
    result["runs_redone"] = night.redone
    return result


CLUB_KINDS = ("table_pages", "posts", "director_pages", "player_pages", "polls", "table_polls")


TARGETS = {
    "round_page_bytes_gzip": "≤ 14000",
    "round_page_p95_ms": "< 100",
    "post_round_p95_ms": "< 150",
    "page_vs_static": "≥ 0.7",
    "poll_vs_static": "≥ 0.8",
    "tables_sustained": "≥ 300",
    "club_tables_sustained": "≥ 1000",
    "table_page_p95_ms": "< 100",
    "post_result_p95_ms": "< 150",
    "director_page_p95_ms": "< 200",
    "table_page_vs_static": "≥ 0.7",
    "sim_tables_sustained": "≥ 1000",
    "field_page_p95_ms": "< 200",
}


def table(results: list[dict[str, Any]]) -> None:
    print()
    print(f"{'measure':<26}" + "".join(f"{r['database']:>22}" for r in results) + "   target")
    for key in results[0]:
        if key == "database" or key.endswith("_spread"):
            continue
        cells = []
        for result in results:
            spread = result.get(f"{key}_spread")
            cells.append(
                f"{result.get(key, '–')}" + (f" ±{spread:.0%}" if spread is not None else "")
            )
        print(
            f"{key:<26}" + "".join(f"{cell:>22}" for cell in cells) + f"   {TARGETS.get(key, '')}"
        )


WORKLOADS = ("ascenseur", "club", "sim")


def whole_benchmark(
    seconds: float, runs: int, postgresql: bool, plan: Plan, workloads: tuple[str, ...]
) -> list[dict[str, Any]]:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    print(
        f"\nServers on core {sorted(SERVER_CORES)}, load on {sorted(LOAD_CORES)}, {runs} runs a "
        f"step, the deployments taking turns run by run; {', '.join(workloads)}.",
        flush=True,
    )
    if "club" not in workloads:
        plan = replace(plan, sessions=0)
    if "ascenseur" not in workloads:  # the round page is still measured, on a few tables
        plan = replace(plan, tables=min(plan.tables, 24))
    plan = replace(plan, sim="sim" in workloads)
    with ExitStack() as cleanup:
        # Last of all, the databases and the servers' logs (a failed start shows its log).
        cleanup.callback(shutil.rmtree, folder, ignore_errors=True)
        plans = [
            (
                Deployment("serve+sqlite", serve_on_sqlite, phones_connect_directly=True),
                f"sqlite:///{folder / 'bench.sqlite'}",
            )
        ]
        if postgresql and (binaries := server_binaries()):
            os.sched_setaffinity(0, LOAD_CORES)  # PostgreSQL beside the generator, from its start
            postgres = PostgresServer(binaries).start(durable=True)
            os.sched_setaffinity(0, set(CORES))
            cleanup.callback(postgres.stop)
            club = Deployment(
                "granian+postgresql", granian_on_postgresql, phones_connect_directly=False
            )
            # Through its socket, as docs/deployment.md has the club deployment reach its database.
            plans.append((club, club_database_url(postgres, postgres.create_database())))
        benches = [prepare(deployment, url, folder, plan, cleanup) for deployment, url in plans]
        results = []
        if "ascenseur" in workloads:
            print("\n-- Ascenseur tables --", flush=True)
            results += measure_all(benches, seconds, runs, plan.tables)
        if "club" in workloads:
            print("\n-- The club night --", flush=True)
            results += measure_club(benches, seconds, runs)
        if "sim" in workloads:
            print("\n-- The simultaneous event: one field of 1 000 tables --", flush=True)
            results += measure_club(benches, seconds, runs, "sim")
    for workload in workloads:
        table([result for result in results if result["workload"] == workload])
    for result in results:
        print(json.dumps(result))
    return results


def compare(first: list[dict[str, Any]], second: list[dict[str, Any]]) -> None:
    """How far the second whole run is from the first, figure by figure."""
    print("\nThe two whole runs, figure by figure (differences over 15 % marked):")
    for one, two in zip(first, second, strict=True):
        for key, value in one.items():
            skipped = ("database", "workload", "runs", "latencies_at_tables", "runs_redone")
            if key in skipped or key.endswith("_spread"):
                continue
            other = two[key]
            gap = abs(other - value) / value if value else 0.0
            mark = "  <-- over 15 %" if gap > 0.15 else ""
            label = f"{one['database']} {one['workload']}"
            print(f"  {label:<32} {key:<24} {value:>10} {other:>10} {gap:6.1%}{mark}")
    # The static file asks nothing of the app but Flask's own work: where its rate moved
    # between the runs, the host's speed moved, and every absolute figure with it.
    for one, two in zip(first, second, strict=True):
        change = two["static_rps"] / one["static_rps"] - 1
        label = f"{one['database']} {one['workload']}"
        print(f"  {label:<32} the host, by the static file's rate: {change:+.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=15.0, help="length of each step of the search"
    )
    parser.add_argument("--runs", type=int, default=3, help="runs of each load step")
    parser.add_argument("--no-postgresql", action="store_true", help="SQLite only")
    parser.add_argument("--twice", action="store_true", help="run it all again and compare")
    parser.add_argument("--tables", type=int, default=600, help="the most Ascenseur tables tried")
    parser.add_argument(
        "--sessions", type=int, default=90, help="the most club sessions (of 15 tables) tried"
    )
    parser.add_argument(
        "--workloads",
        default="ascenseur,club",
        help="what to measure: ascenseur, club, sim (the simultaneous event), or a list of "
        "them (the default: ascenseur,club)",
    )
    options = parser.parse_args()
    workloads = tuple(w for w in WORKLOADS if w in options.workloads.split(","))
    plan = Plan(options.tables, options.sessions)
    arguments = (options.seconds, options.runs, not options.no_postgresql, plan, workloads)
    first = whole_benchmark(*arguments)
    if options.twice:
        compare(first, whole_benchmark(*arguments))


if __name__ == "__main__":
    main()
