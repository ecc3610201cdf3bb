"""The ``scorekeeper`` command: ``scorekeeper serve`` runs the app for the phones at the table."""

from __future__ import annotations

import socket
import sys
from datetime import timedelta
from typing import Any

import click
import segno
from cheroot.server import HTTPConnection, HTTPRequest, HTTPServer
from cheroot.wsgi import Server as WSGIServer
from flask import Flask
from flask_migrate import upgrade

from scorekeeper import create_app, set_start_up_aside
from scorekeeper.extensions import db
from scorekeeper.games.models import utcnow
from scorekeeper.games.prune import remove_unplayed_games
from scorekeeper.incoming import Incoming
from scorekeeper.network import network_addresses

HEADERS_LIMIT = 64 * 1024
"""The most a request's line and headers may take: a line that never ends is cut off there."""
BODY_SLACK = 64 * 1024
"""A body this much over the app's own limit is refused by the server without being read;
one less over it reaches the app, whose page says so in the reader's language."""
CONNECTIONS = 4000
"""Connections kept open between requests. Every phone keeps one between its polls, rather than
open a new one every few seconds: a club room of 300 tables is 1 800 phones."""
OTHER_FILES = 256
"""Open files kept for the database, the app's own files and the connections being served."""
WINDOWS_CONNECTIONS = 400
"""On Windows the server watches its connections with ``select()``, which takes 512 at most."""
BACKLOG = 1024
"""Connections the system holds for the server while it takes the ones before, so that a
room's phones arriving together are not made to try again a second later (the system may hold
fewer: Linux's ``net.core.somaxconn``, 128 before 5.4)."""


def allow_open_files(wanted: int) -> int:
    """Raise the process's limit on open files (1 024 on many systems) as far as the system lets
    it, to keep ``wanted`` connections open; return how many it can keep."""
    if sys.platform == "win32":
        return min(wanted, WINDOWS_CONNECTIONS)
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    enough = wanted + OTHER_FILES
    if hard != resource.RLIM_INFINITY:
        enough = min(enough, hard)
    if soft != resource.RLIM_INFINITY and soft < enough:
        resource.setrlimit(resource.RLIMIT_NOFILE, (enough, hard))
        soft = enough
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(0, min(wanted, soft - OTHER_FILES))


class ChunkRefusingRequest(HTTPRequest):
    """A request whose body comes in chunks is refused (411) before any of it is read, and its
    connection closed, so that the body is never taken for a request of its own. Browsers
    always say a body's length; the server could not tell that a body in chunks has come whole
    without reading every chunk's size line, however long."""

    def read_request_headers(self) -> bool:
        # cheroot's own stubs leave its request and connection methods untyped
        if not super().read_request_headers():  # type: ignore[no-untyped-call]
            return False
        if self.chunked_read:
            self.simple_response("411 Length Required", "A request's body must say its length.")
            self.close_connection = True
            return False
        return True


class PhoneConnection(HTTPConnection):
    """A connection whose requests are read as they come in, without a thread (see
    scorekeeper.incoming): its thread reads a request that has come whole."""

    RequestHandlerClass = ChunkRefusingRequest

    def __init__(self, server: HTTPServer, sock: socket.socket, *args: Any) -> None:
        super().__init__(server, sock, *args)
        self.rfile = self.incoming = Incoming(server, sock)

    def communicate(self) -> bool:
        self.rfile = self.incoming.take()
        try:
            return bool(super().communicate())  # type: ignore[no-untyped-call]
        finally:
            self.rfile.close()
            self.rfile = self.incoming


class PhonesServer(WSGIServer):
    """Cheroot, whose threads are given the connections whose request has come whole: the
    connections kept open cost nothing in between, and a slow one costs nothing while its
    request comes. With waitress, whose loop looks at every open connection at each request,
    the 1 800 phones of a club room took 82-86 % of the server's core, where cheroot takes
    55-58 % for the same work."""

    ConnectionClass = PhoneConnection

    @property
    def can_add_keepalive_connection(self) -> bool:
        """Whether a connection may be kept open after its answer, asked before every answer's
        headers: the connections kept are counted without the lock cheroot takes on its list
        of them. The selector thread holds that lock while it takes each connection out, and
        every thread while it puts one back, both through a system call that gives up the
        interpreter: the holder waits to get it back while other threads compute, and every
        answer in the meantime waited for its headers in turn (at 1 005 club tables, 2 ms a
        table's page on average and 13 ms at p95; see docs/benchmark.md). A limit needs no
        more than the length of the list, read at once."""
        if not self.ready:
            return False
        limit = self.keep_alive_conn_limit
        kept = self._connections._selector._selector.get_map()  # type: ignore[attr-defined]
        return limit is None or len(kept) - 1 < limit  # the server's own socket is among them

    def process_conn(self, conn: PhoneConnection) -> None:
        """A connection just accepted, or with something to read, goes to a thread once its
        whole request has come: until then it waits with the idle ones. A browser opens some
        connections ahead of need and may never use them; a phone on a bad network sends its
        request slowly."""
        arrived = conn.incoming.receive()
        if arrived:
            super().process_conn(conn)
        elif arrived is None:
            conn.close()
        else:
            self._connections.put(conn)  # type: ignore[attr-defined]  # not in cheroot's stubs
            # Cheroot closes a waiting connection `timeout` seconds after its last use: for a
            # request on its way, after it began to come (and more for a long body).
            conn.last_used = conn.incoming.waits_from() or conn.last_used


@click.group()
def main() -> None:
    """Scorekeeper: keeps the score of card games played with a real deck."""


@main.command()
@click.option("--port", default=8000, show_default=True, help="The port to listen on.")
@click.option("--host", default="0.0.0.0", show_default=True, help="The address to listen on.")
@click.option("--threads", default=8, show_default=True, help="Requests served at once.")
@click.option(
    "--public",
    is_flag=True,
    help="A club or public server: each browser sees only its own games, and only the "
    "scorer link lets a phone score. Without it, every phone in the house sees and scores "
    "every game, but a phone given a game's follow link, which follows that game only.",
)
def serve(port: int, host: str, threads: int, public: bool) -> None:
    """Create the database if needed and serve Scorekeeper to the phones on this network."""
    app = create_app({"PRIVATE_SERVER": not public})
    with app.app_context():
        upgrade()
    set_start_up_aside()
    urls = [f"http://{address}:{port}/" for address in network_addresses()]
    click.echo(f"Scorekeeper is serving on port {port}. Open on a phone on this network:")
    for url in urls or [f"http://127.0.0.1:{port}/"]:
        click.echo(f"  {url}")
    if urls:
        segno.make(urls[0], error="l").terminal(compact=True)
    click.echo("Press Ctrl+C to stop.")
    kept = allow_open_files(CONNECTIONS)
    if kept < CONNECTIONS:
        click.echo(
            f"This system lets the server keep {kept} connections open: past that, a phone "
            "opens a new one for each request."
        )
    server = http_server(app, host, port, threads, kept)
    try:
        server.safe_start()
    except KeyboardInterrupt:
        server.stop()


def http_server(
    app: Flask, host: str, port: int, threads: int, kept: int = CONNECTIONS
) -> PhonesServer:
    """The HTTP server `serve` runs, keeping ``kept`` connections open between requests."""
    server = PhonesServer(
        (host, port),
        app,
        numthreads=threads,
        server_name="Scorekeeper",
        request_queue_size=BACKLOG,
        shutdown_timeout=1,  # Ctrl+C does not wait on the connections kept open
    )
    server.keep_alive_conn_limit = kept
    server.max_request_header_size = HEADERS_LIMIT
    server.max_request_body_size = app.config["MAX_CONTENT_LENGTH"] + BODY_SLACK
    return server


@main.command()
@click.option(
    "--days",
    type=click.IntRange(min=1),
    required=True,
    help="Remove the games started this many days ago or earlier.",
)
@click.option("--dry-run", is_flag=True, help="Only count them.")
def prune(days: int, dry_run: bool) -> None:
    """Remove the games never played (no round entered) after a chosen age."""
    before = utcnow() - timedelta(days=days)
    with create_app().app_context():
        count = remove_unplayed_games(before, dry_run=dry_run)
        db.session.commit()
    verb = "would be removed" if dry_run else "removed"
    click.echo(f"Games never played, started before {before:%Y-%m-%d %H:%M} UTC: {count} {verb}.")
