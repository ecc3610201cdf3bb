"""A real server process, started as `scorekeeper serve` starts it or as the club deployment
of docs/deployment.md starts it, and a plain HTTP client: for the server tests and the
benchmarks alike (no pytest here)."""

from __future__ import annotations

import http.cookiejar
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.postgres import PostgresServer

SCOREKEEPER = Path(sys.executable).parent / "scorekeeper"
ROOT = Path(__file__).parents[2]
DEPLOYMENT = ROOT / "docs" / "deployment.md"
"""The page a club follows to run Scorekeeper: the tests run its own lines."""
TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    database: Path
    log: Path

    def output(self) -> str:
        """What the server wrote to its stderr: its log, and the stack of every thread if it
        crashed (faulthandler is on)."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def launch(
    command: list[str],
    port: int,
    env: dict[str, str],
    database: Path,
    log: Path,
    *,
    wait: float = 30.0,
    preexec_fn: Callable[[], None] | None = None,
) -> Server:
    """Start a server process listening on ``port`` and wait until it answers. What it writes
    goes to ``log`` (a pipe nobody reads fills up and stops the server), with faulthandler on,
    so a crash leaves the stack of every thread there."""
    with log.open("wb") as output:
        process = subprocess.Popen(
            command,
            env={**os.environ, **env, "PYTHONFAULTHANDLER": "1"},
            stdout=output,  # Granian logs there
            stderr=output,
            preexec_fn=preexec_fn,
            start_new_session=True,  # its workers can be stopped with it, whatever happens
        )
    server = Server(f"http://127.0.0.1:{port}", process, database, log)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(server.url + "/", timeout=1).close()
            return server
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(server.output()) from None
            time.sleep(0.1)
    process.kill()
    process.wait()
    raise RuntimeError(f"{command[0]} did not start:\n{server.output()}")


def start_server(database_url: str, database: Path, *extra: str) -> Server:
    port = free_port()
    return launch(
        [str(SCOREKEEPER), "serve", "--host", "127.0.0.1", "--port", str(port), *extra],
        port,
        {"DATABASE_URL": database_url, "SECRET_KEY": "server-tests"},
        database,
        database.with_name(f"server-{port}.log"),
    )


def documented_line(start: str, what: str) -> str:
    """The one line of docs/deployment.md's set-up that begins with ``start`` (the line that
    does ``what``), as written there."""
    written = [
        line.strip()
        for line in DEPLOYMENT.read_text().splitlines()
        if line.strip().startswith(start)
    ]
    assert len(written) == 1, f"{DEPLOYMENT.name} {what} in one command, one line"
    return written[0]


def club_deployment_command(port: int | str, workers: int) -> list[str]:
    """The command that starts the club deployment, as docs/deployment.md writes it on one line
    (its worker count and port replaced): the tests and the benchmark run exactly that."""
    command = documented_line(".venv/bin/granian ", "starts the club deployment")
    for as_written, here in (('"$(nproc)"', str(workers)), ("--port 8000", f"--port {port}")):
        assert as_written in command, f"{DEPLOYMENT.name}'s command no longer says {as_written}"
        command = command.replace(as_written, here)
    bin_folder = Path(sys.executable).parent
    return [part.replace(".venv/bin", str(bin_folder)) for part in shlex.split(command)]


def club_database_url(postgres: PostgresServer, database: str) -> str:
    """The ``DATABASE_URL`` docs/deployment.md gives the club deployment, which reaches
    PostgreSQL through its Unix socket, pointed at ``database`` of the tests' server (its role,
    its socket's folder and port)."""
    line = documented_line("export DATABASE_URL=", "sets DATABASE_URL")
    written = line.removeprefix("export DATABASE_URL=").strip("'\"")
    url = urllib.parse.urlsplit(written)
    socket_folder = urllib.parse.parse_qs(url.query).get("host", [""])[0]
    assert (
        url.scheme == "postgresql+psycopg" and not url.hostname and socket_folder.startswith("/")
    ), f"{DEPLOYMENT.name} no longer reaches PostgreSQL through its socket: {written}"
    query = urllib.parse.urlencode({"host": str(postgres.root), "port": postgres.port})
    return urllib.parse.urlunsplit((url.scheme, "postgres@", f"/{database}", query, ""))


def migrate(database_url: str) -> None:
    """The ``flask db upgrade`` of docs/deployment.md, which the club deployment runs before its
    workers."""
    flask = Path(sys.executable).parent / "flask"
    subprocess.run(
        [str(flask), "--app", "scorekeeper", "db", "upgrade"],
        env={**os.environ, "DATABASE_URL": database_url},
        check=True,
        capture_output=True,
    )


def start_club_deployment(database_url: str, database: Path, workers: int = 2) -> Server:
    """The club deployment of docs/deployment.md: the database migrated, then Granian's
    workers. Without the proxy in front (``SCOREKEEPER_BEHIND_PROXY``), as the client speaks
    plain HTTP."""
    migrate(database_url)
    port = free_port()
    return launch(
        club_deployment_command(port, workers),
        port,
        {"DATABASE_URL": database_url, "SECRET_KEY": "server-tests"},
        database,
        database.with_name(f"club-{port}.log"),
    )


def stop(server: Server) -> None:
    """Stop the server; fail, with what it wrote, if it had already ended by itself or any of
    its processes crashed."""
    ended = server.process.poll()
    if ended is not None:
        raise AssertionError(f"the server ended by itself (exit {ended}):\n{server.output()}")
    server.process.terminate()
    try:
        ended = server.process.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(server.process.pid, signal.SIGKILL)  # the workers too
        server.process.wait()
        raise AssertionError(f"the server did not stop within 10 s:\n{server.output()}") from None
    # A crashed Granian worker is replaced by a new one: only the log tells.
    crashed = ("Fatal Python error", "Unexpected exit from worker")
    if ended not in (0, -signal.SIGTERM) or any(sign in server.output() for sign in crashed):
        raise AssertionError(f"the server ended badly (exit {ended}):\n{server.output()}")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


class Phone:
    """One phone's browser: its own cookies, its own forms; redirects are not followed."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )

    def request(self, path: str, data: dict[str, str] | None = None) -> tuple[int, str, str]:
        body = None if data is None else urllib.parse.urlencode(data).encode()
        try:
            with self.opener.open(self.base + path, body, timeout=30) as response:
                return (
                    response.status,
                    response.read().decode(),
                    response.headers.get("Location", ""),
                )
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(), error.headers.get("Location", "")

    def token(self, path: str) -> str:
        match = TOKEN.search(self.request(path)[1])
        assert match, path
        return match.group(1)
