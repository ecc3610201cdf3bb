"""Measure Scorekeeper as a club would run it: the real server, real requests, real numbers.

    .venv/bin/python bench/run.py [--seconds 8] [--postgresql]

Starts `scorekeeper serve` on 127.0.0.1 with a fresh SQLite database (and, with --postgresql
or when the server binaries are there, again on a throwaway PostgreSQL server), fills it with
games, drives it from a load generator in another process, prints a table, and as its last line
one JSON object per run (the SQLite one last).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import multiprocessing
import random
import re
import statistics
import sys
import tempfile
import time
import timeit
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.rules import ascenseur as rules  # noqa: E402
from tests.postgres import PostgresServer, server_binaries  # noqa: E402
from tests.server.conftest import Phone, start_server, stop  # noqa: E402

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
POLL_EVERY, POST_EVERY, PHONES = 3.0, 60.0, 5
PAGE_TARGET_MS = 100.0


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
    """The 6-player game at round 5 whose page is measured, and one 4-player game per table."""
    phone = Phone(base)
    measured = new_game(phone, 6, "measured")
    for number in range(1, 5):
        play_round(phone, measured, number, 6)

    def table(number: int) -> dict[str, Any]:
        scorer = Phone(base)
        path = new_game(scorer, 4, f"table-{number}")
        cookie = "; ".join(f"{c.name}={c.value}" for c in scorer.jar)
        return {
            "path": path,
            "cookie": cookie,
            "token": scorer.token(path),
            "next": 1,
            "version": 1,
        }

    with ThreadPoolExecutor(8) as pool:  # as many tables starting at once as the server's threads
        scorers = list(pool.map(table, range(tables)))
    return {"measured": measured, "scorers": scorers}


def page_bytes_gzip(base: str, path: str) -> tuple[int, list[tuple[str, int, int]]]:
    """The round page and every stylesheet and script it loads, each gzip-compressed."""
    phone = Phone(base)
    _status, page, _ = phone.request(path)
    parts = [(path, page.encode())]
    for asset in re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"', page):
        parts.append((asset, phone.request(asset)[1].encode()))
    sizes = [(name, len(body), len(gzip.compress(body, 9))) for name, body in parts]
    return sum(size for _name, _raw, size in sizes), sizes


# --- The load generator (another process) ---------------------------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection; one request at a time."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
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


class Pool:
    def __init__(self, host: str, port: int, size: int) -> None:
        self.free: asyncio.Queue[Connection] = asyncio.Queue()
        for _ in range(size):
            self.free.put_nowait(Connection(host, port))

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


async def throughput(
    base: str, path: str, headers: dict[str, str], seconds: float, clients: int
) -> float:
    """Requests per second with ``clients`` requests always in flight."""
    parts = urllib.parse.urlsplit(base)
    pool = Pool(parts.hostname or "127.0.0.1", parts.port or 80, clients)
    done = 0
    end = time.perf_counter() + seconds

    async def client() -> None:
        nonlocal done
        while time.perf_counter() < end:
            status, _ms = await pool.timed("GET", path, headers)
            if status in (200, 304):
                done += 1

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return done / (time.perf_counter() - started)


async def tables_load(
    base: str, fill_data: dict[str, Any], tables: int, seconds: float
) -> dict[str, Any]:
    """``tables`` tables at once: five phones polling every 3 s, a scorer posting a round every
    60 s, and every phone reloading the page after each change. Latencies in ms."""
    parts = urllib.parse.urlsplit(base)
    pool = Pool(parts.hostname or "127.0.0.1", parts.port or 80, 48)
    end = time.perf_counter() + seconds
    pages: list[float] = []
    posts: list[float] = []
    polls: list[float] = []
    errors = 0
    rng = random.Random(tables)

    async def phone(scorer: dict[str, Any]) -> None:
        """A phone on the table: polls, and reloads the page when the game has changed."""
        nonlocal errors
        await asyncio.sleep(rng.uniform(0, POLL_EVERY))
        game_id, seen = scorer["path"].rsplit("/", 1)[1], scorer["version"]
        while time.perf_counter() < end:
            etag = f'"{game_id}-{seen}"'
            status, ms = await pool.timed(
                "GET", f"{scorer['path']}/version", {"If-None-Match": etag}
            )
            if status in (200, 304):
                polls.append(ms)
            else:
                errors += 1
            if status == 200:
                seen = scorer["version"]
                status, ms = await pool.timed("GET", scorer["path"], {})
                if status == 200:
                    pages.append(ms)
            await asyncio.sleep(POLL_EVERY * rng.uniform(0.9, 1.1))

    async def scorer_task(scorer: dict[str, Any]) -> None:
        nonlocal errors
        await asyncio.sleep(rng.uniform(0, POST_EVERY))
        while time.perf_counter() < end and scorer["next"] <= 23:
            number, cards = (
                scorer["next"],
                rules.schedule(rules.PRESETS["ascenseur"], 4)[scorer["next"] - 1],
            )
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
            await asyncio.sleep(POST_EVERY)

    scorers = fill_data["scorers"][:tables]
    tasks = [phone(s) for s in scorers for _ in range(PHONES)] + [scorer_task(s) for s in scorers]
    await asyncio.gather(*tasks)
    return {"pages": pages, "posts": posts, "polls": polls, "errors": errors}


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def load_generator(job: dict[str, Any], answer: Any) -> None:
    """Runs in its own process, so the server and the generator do not share an interpreter."""
    base, seconds = job["base"], job["seconds"]
    result: dict[str, Any] = {}
    if job["kind"] == "throughput":
        result = {
            name: asyncio.run(throughput(base, path, headers, seconds, 16))
            for name, (path, headers) in job["targets"].items()
        }
    else:
        result = asyncio.run(tables_load(base, job["fill"], job["tables"], seconds))
    answer.send(result)


def in_another_process(job: dict[str, Any]) -> dict[str, Any]:
    receive, send = multiprocessing.Pipe(duplex=False)
    process = multiprocessing.Process(target=load_generator, args=(job, send))
    process.start()
    result = receive.recv()
    process.join()
    return result


# --- The engine ------------------------------------------------------------------------------


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
    runs = timeit.repeat(lambda: rules.score_game(variant, names, 0, entries), number=1, repeat=15)
    return statistics.median(
        runs
    ) * 1000, f"{key}, 2 decks, top round per player, {players} players, {len(entries)} rounds"


# --- One run ---------------------------------------------------------------------------------


def run(database_url: str, database: Path, seconds: float, label: str) -> dict[str, Any]:
    server = start_server(database_url, database)
    static_file = None
    try:
        print(f"\n== {label} ==", flush=True)
        most_tables = 600
        fill_data = fill(server.url, most_tables)
        measured = fill_data["measured"]
        size, parts = page_bytes_gzip(server.url, measured)
        for name, raw, packed in parts:
            print(f"  {name:<40} {raw:>7} B  {packed:>6} B gzip")
        page = Phone(server.url).request(measured)[1].encode()
        static_file = ROOT / "static" / f"bench-{len(page)}.html"
        static_file.write_bytes(page)
        version = json.loads(Phone(server.url).request(f"{measured}/version")[1])["version"]
        etag = f'"{measured.rsplit("/", 1)[1]}-{version}"'
        rates = in_another_process(
            {
                "kind": "throughput",
                "base": server.url,
                "seconds": seconds,
                "targets": {
                    "static": (f"/static/{static_file.name}", {}),
                    "page": (measured, {}),
                    "poll": (f"{measured}/version", {"If-None-Match": etag}),
                },
            }
        )
        # Tables: find the most the server holds with the round page's p95 under 100 ms.
        low, high, sustained, at = 50, most_tables, 0, None
        while low <= high:
            tables = (low + high) // 2
            load = in_another_process(
                {
                    "kind": "tables",
                    "base": server.url,
                    "seconds": seconds,
                    "fill": fill_data,
                    "tables": tables,
                }
            )
            p95 = percentile(load["pages"], 0.95)
            # Past some number of tables the load generator cannot keep its own schedule; the
            # server is then not offered the load, and the step does not count as held.
            scheduled = tables * PHONES * (seconds - POLL_EVERY / 2) / POLL_EVERY
            print(
                f"  {tables:>4} tables: page p95 {p95:7.1f} ms over {len(load['pages'])} pages, "
                f"{len(load['polls'])} polls ({len(load['polls']) / scheduled:.0%} of the "
                f"schedule), {len(load['posts'])} posts, {load['errors']} errors",
                flush=True,
            )
            offered = len(load["polls"]) >= 0.9 * scheduled
            if p95 < PAGE_TARGET_MS and not load["errors"] and offered:
                sustained, at, low = tables, load, tables + 25
            else:
                high = tables - 25
        at = at or load
        rescore, largest = rescore_max_game_ms()
        result = {
            "database": label,
            "round_page_bytes_gzip": size,
            "round_page_p50_ms": round(percentile(at["pages"], 0.50), 1),
            "round_page_p95_ms": round(percentile(at["pages"], 0.95), 1),
            "post_round_p95_ms": round(percentile(at["posts"], 0.95), 1),
            "static_rps": round(rates["static"]),
            "round_page_rps": round(rates["page"]),
            "poll_rps": round(rates["poll"]),
            "page_vs_static": round(rates["page"] / rates["static"], 2),
            "poll_vs_static": round(rates["poll"] / rates["static"], 2),
            "tables_sustained": sustained,
            "rescore_max_game_ms": round(rescore, 2),
        }
        print(f"  largest game re-scored: {largest}")
        return result
    finally:
        if static_file:
            static_file.unlink(missing_ok=True)
        stop(server)


def table(results: list[dict[str, Any]]) -> None:
    targets = {
        "round_page_bytes_gzip": "≤ 14000",
        "page_vs_static": "≥ 0.5",
        "poll_vs_static": "≥ 0.8",
        "tables_sustained": "≥ 300",
    }
    print()
    print(f"{'measure':<24}" + "".join(f"{r['database']:>14}" for r in results) + "   target")
    for key in results[0]:
        if key != "database":
            print(
                f"{key:<24}"
                + "".join(f"{r[key]:>14}" for r in results)
                + f"   {targets.get(key, '')}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each load step")
    parser.add_argument("--no-postgresql", action="store_true", help="SQLite only")
    options = parser.parse_args()
    results = []
    if not options.no_postgresql and (binaries := server_binaries()):
        postgres = PostgresServer(binaries).start()
        try:
            url = postgres.url(postgres.create_database())
            results.append(
                run(url, Path(tempfile.mkdtemp()) / "unused", options.seconds, "postgresql")
            )
        finally:
            postgres.stop()
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    results.append(
        run(
            f"sqlite:///{folder / 'bench.sqlite'}",
            folder / "bench.sqlite",
            options.seconds,
            "sqlite",
        )
    )
    table(results)
    for result in results:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
