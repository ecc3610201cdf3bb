"""Where the club night's answers wait on `scorekeeper serve`, two checkouts side by side.

    .venv/bin/python bench/waits.py [--against REV] [--sessions 67] [--seconds 20] [--rounds 6]
                                    [--apart]

Fills a SQLite database with club sessions as bench/run.py fills its club night, copies it for
each server, and starts `scorekeeper serve` on it from this checkout and, given ``--against``,
from that revision too (its files as git holds them, in a temporary folder; it must be at the
same migration as this checkout), each on the server's core. The servers take turns, run by
run, under the club workload at ``--sessions`` sessions (67: 1 005 tables), so that the host's
drift weighs on both alike. Each run's line gives the p95 of a table's page, a result's post
and the director's page; the server's busy share; the share of its core that other processes
of the host took; and how long the server's threads were ready to run while the core ran
something else (summed over its threads: 1.5 is one and a half threads waiting, on average).
The last lines give each server's medians and, run by run, the ratio of its p95s to the first
server's: on a host whose speed drifts, compare those ratios, not a latency from another run.

With ``--apart`` each server takes its requests' time apart (bench/timed_serve.py), and the
last lines give, for each kind of request, its mean and its p95 of: the wait for a thread, the
time in the thread, the app's part, the thread's own processor time and its wait for the core
within the app, the rest (slept: waiting for the interpreter, a lock, the disk), its SQL
statements and the time they took (their processor time counted), and the waits for cheroot's
lock on its list of connections; then how many threads, on average, waited for that lock
between requests.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import (  # noqa: E402
    CLUB_TABLES,
    Bench,
    ClubNight,
    Deployment,
    club_fill,
    club_step,
    pinned_to_server_core,
    serve_on_sqlite,
)
from tests.server.processes import Server, free_port, launch, stop  # noqa: E402

PARTS = (
    ("thread_wait", "for a thread"),
    ("in_thread", "in the thread"),
    ("app", "app"),
    ("app_processor", "its processor"),
    ("app_waited_for_core", "its wait for the core"),
    ("slept", "slept"),
    ("sql_count", "statements"),
    ("sql", "their time"),
    ("connections_lock", "connections' lock"),
)


def checkout_of(revision: str, folder: Path) -> Path:
    """The files of ``revision`` as git holds them, in ``folder``."""
    folder.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def core_ticks(core: int) -> list[int]:
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith(f"cpu{core} "):
            return [int(tick) for tick in line.split()[1:]]
    raise LookupError(core)


def waited_for_core(pid: int) -> float:
    """Seconds the process's threads have been ready to run while the core ran something else."""
    waited = 0
    for thread in os.listdir(f"/proc/{pid}/task"):
        try:
            waited += int(Path(f"/proc/{pid}/task/{thread}/schedstat").read_text().split()[1])
        except OSError:  # a thread that ended meanwhile
            continue
    return waited / 1e9


class Side:
    """One server under test: its checkout, its copy of the database, its sessions."""

    def __init__(
        self, label: str, checkout: Path, database: Path, fill: dict[str, Any], apart: bool
    ) -> None:
        self.label, self.folder = label, database.parent
        self.noted = self.folder / "timed.json" if apart else None
        port = free_port()
        env = {
            "DATABASE_URL": f"sqlite:///{database}",
            "SECRET_KEY": "bench",
            **({"SCOREKEEPER_TIMED": str(self.noted)} if self.noted else {}),
        }
        command = [sys.executable, str(ROOT / "bench" / "timed_serve.py"), str(checkout)]
        command += ["serve", "--host", "127.0.0.1", "--port", str(port)]
        self.server: Server = launch(
            command,
            port,
            env,
            database,
            self.folder / "server.log",
            wait=60,
            preexec_fn=pinned_to_server_core,
        )
        deployment = Deployment(label, serve_on_sqlite, phones_connect_directly=True)
        self.bench = Bench(deployment, self.server, {}, 0, {}, club=ClubNight(fill, {}))
        self.runs: list[dict[str, Any]] = []
        self.requests: list[dict[str, Any]] = []
        self.between: dict[str, float] = {}
        self.seconds = 0.0

    def run(self, sessions: int, seconds_run: float, note: str) -> dict[str, Any]:
        core = min(os.sched_getaffinity(self.server.process.pid))
        ticks, waited = core_ticks(core), waited_for_core(self.server.process.pid)
        load = club_step(self.bench, sessions, seconds_run)
        after = core_ticks(core)
        idle = (after[3] + after[4] - ticks[3] - ticks[4]) / (sum(after) - sum(ticks))
        load["core_idle_share"] = idle
        load["waiting_for_core"] = (waited_for_core(self.server.process.pid) - waited) / seconds_run
        p95 = load["p95"]
        print(
            f"  {self.label:<10} {note:<8} p95 table page {p95['table_pages']:6.1f} ms "
            f"({len(load['table_pages'])}), post {p95['posts']:6.1f}, director "
            f"{p95['director_pages']:6.1f}; server {load['server_busy_share']:.0%} of its core, "
            f"others {load['core_others_share']:.0%}, idle {idle:.0%}; threads waiting for the "
            f"core {load['waiting_for_core']:.2f}; {load['kept']:.0%} of the pace, "
            f"{load['errors']} errors",
            flush=True,
        )
        if self.noted is not None:
            self.noted.unlink(missing_ok=True)
            self.server.process.send_signal(signal.SIGUSR1)
            while not self.noted.exists():
                time.sleep(0.1)
            if note != "warm-up":
                noted = json.loads(self.noted.read_text())
                self.requests += noted["requests"]
                for name, seconds in noted["between"].items():
                    self.between[name] = self.between.get(name, 0.0) + seconds
                self.seconds += seconds_run
        return load


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else float("nan")


def taken_apart(side: Side) -> None:
    print(f"\n{side.label}: each kind of request taken apart, mean / p95, ms")
    print(f"  {'':<13}{'count':>7}" + "".join(f"{title:>24}" for _name, title in PARTS))
    for request in side.requests:
        request["slept"] = (
            request.get("app", 0.0)
            - request.get("app_processor", 0.0)
            - request.get("app_waited_for_core", 0.0)
        )
    for kind in sorted({request["kind"] for request in side.requests}):
        these = [request for request in side.requests if request["kind"] == kind]
        cells = []
        for name, _title in PARTS:
            values = [request.get(name, 0.0) for request in these]
            scale = 1 if name.endswith("_count") else 1000
            cells.append(f"{statistics.mean(values) * scale:.1f} / {p95(values) * scale:.1f}")
        print(f"  {kind:<13}{len(these):>7}" + "".join(f"{cell:>24}" for cell in cells))
    waited = side.between.get("connections_lock", 0.0) / side.seconds
    print(f"  between requests, threads waiting for cheroot's lock: {waited:.2f} on average")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", help="a revision to serve beside this checkout")
    parser.add_argument("--sessions", type=int, default=67, help="club sessions of 15 tables")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each run")
    parser.add_argument("--rounds", type=int, default=6, help="runs of each server")
    parser.add_argument("--apart", action="store_true", help="take each request's time apart")
    options = parser.parse_args()
    with ExitStack() as cleanup:
        folder = Path(tempfile.mkdtemp(prefix="scorekeeper-waits-"))
        cleanup.callback(shutil.rmtree, folder, ignore_errors=True)
        filling = folder / "fill"
        filling.mkdir()
        server = serve_on_sqlite(f"sqlite:///{filling / 'club.sqlite'}", filling)
        try:
            started = time.perf_counter()
            fill = club_fill(server.url, options.sessions)
            print(
                f"{options.sessions} sessions of {CLUB_TABLES} tables filled in "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
        finally:
            stop(server)
        checkouts = [("this", ROOT)]
        if options.against:
            checkouts.insert(0, (options.against, checkout_of(options.against, folder / "rev")))
        sides = []
        for label, checkout in checkouts:
            database = folder / label.replace("/", "-") / "club.sqlite"
            database.parent.mkdir()
            for suffix in ("", "-wal"):
                if (filling / f"club.sqlite{suffix}").exists():
                    shutil.copy(filling / f"club.sqlite{suffix}", f"{database}{suffix}")
            side = Side(label, checkout, database, copy.deepcopy(fill), options.apart)
            cleanup.callback(stop, side.server)
            sides.append(side)
        print(f"\n{options.sessions * CLUB_TABLES} tables, runs of {options.seconds:.0f} s")
        for side in sides:
            side.run(options.sessions, 15, "warm-up")
        for number in range(options.rounds):
            turn = sides[number % len(sides) :] + sides[: number % len(sides)]
            for side in turn:
                side.runs.append(side.run(options.sessions, options.seconds, f"run {number}"))
        print("\nmedians of the runs; the p95s' ratios to the first server's, run by run")
        first = sides[0]
        for side in sides:

            def median(figure: Any, side: Side = side) -> float:
                return statistics.median(figure(load) for load in side.runs)

            ratios = {
                kind: [
                    mine["p95"][kind] / theirs["p95"][kind]
                    for mine, theirs in zip(side.runs, first.runs, strict=True)
                ]
                for kind in ("table_pages", "posts")
            }
            print(
                f"  {side.label:<10} p95 table page {median(lambda x: x['p95']['table_pages']):.1f}"
                f" ms, post {median(lambda x: x['p95']['posts']):.1f}, director "
                f"{median(lambda x: x['p95']['director_pages']):.1f}; server "
                f"{median(lambda x: x['server_busy_share']):.0%}, others "
                f"{median(lambda x: x['core_others_share']):.0%}, threads waiting for the core "
                f"{median(lambda x: x['waiting_for_core']):.2f}"
            )
            if side is not first:
                for kind, values in ratios.items():
                    shown = ", ".join(f"{value:.2f}" for value in values)
                    print(
                        f"  {'':<10} {kind} p95 ratio: median {statistics.median(values):.2f} "
                        f"({shown})"
                    )
        if options.apart:
            for side in sides:
                taken_apart(side)


if __name__ == "__main__":
    main()
