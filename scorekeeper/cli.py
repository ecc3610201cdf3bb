"""The ``scorekeeper`` command: ``scorekeeper serve`` runs the app for the phones at the table."""

from __future__ import annotations

import sys
from datetime import timedelta

import click
import segno
from cheroot.wsgi import Server as WSGIServer
from flask import Flask
from flask_migrate import upgrade

from scorekeeper import create_app, set_start_up_aside
from scorekeeper.extensions import db
from scorekeeper.games.models import utcnow
from scorekeeper.games.prune import remove_unplayed_games
from scorekeeper.network import network_addresses

HEADERS_LIMIT = 256 * 1024
"""The most a request's line and headers may take: a line that never ends is cut off there."""
CONNECTIONS = 4000
"""Connections kept open between requests. Every phone keeps one between its polls, rather than
open a new one every few seconds: a club room of 300 tables is 1 800 phones."""
BACKLOG = 1024
"""Connections the system holds for the server while it takes the ones before: a room's phones
arriving together are not turned away (or made to try again a second later)."""


def allow_open_files(wanted: int) -> None:
    """Raise the process's limit on open files (1 024 on many systems), as far as the system
    lets it go, to hold ``wanted`` connections with room for the database and the app's
    files."""
    if sys.platform == "win32":
        return
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    enough = wanted + 256 if hard == resource.RLIM_INFINITY else min(wanted + 256, hard)
    if soft != resource.RLIM_INFINITY and soft < enough:
        resource.setrlimit(resource.RLIMIT_NOFILE, (enough, hard))


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
    "every game.",
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
    allow_open_files(CONNECTIONS)
    server = http_server(app, host, port, threads)
    try:
        server.safe_start()
    except KeyboardInterrupt:
        server.stop()


def http_server(app: Flask, host: str, port: int, threads: int) -> WSGIServer:
    """The HTTP server `serve` runs: cheroot, whose threads wait on the connections that have
    something to say. The connections kept open cost nothing in between: with waitress, whose
    loop looks at every open connection at each request, 1 800 phones of a club room took 85 %
    of the server's core where the same work over 48 connections took 60 %."""
    server = WSGIServer(
        (host, port), app, numthreads=threads, server_name="Scorekeeper", request_queue_size=BACKLOG
    )
    server.keep_alive_conn_limit = CONNECTIONS
    server.max_request_header_size = HEADERS_LIMIT
    server.max_request_body_size = app.config["MAX_CONTENT_LENGTH"]
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
    click.echo(f"{count} game(s) never played, started before {before:%Y-%m-%d %H:%M} UTC: {verb}.")
