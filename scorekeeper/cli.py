"""The ``scorekeeper`` command: ``scorekeeper serve`` runs the app for the phones at the table."""

from __future__ import annotations

import click
import segno
from flask_migrate import upgrade
from waitress import serve as waitress_serve

from scorekeeper import create_app
from scorekeeper.network import network_addresses


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
    urls = [f"http://{address}:{port}/" for address in network_addresses()]
    click.echo(f"Scorekeeper is serving on port {port}. Open on a phone on this network:")
    for url in urls or [f"http://127.0.0.1:{port}/"]:
        click.echo(f"  {url}")
    if urls:
        segno.make(urls[0], error="l").terminal(compact=True)
    click.echo("Press Ctrl+C to stop.")
    waitress_serve(app, host=host, port=port, threads=threads, ident="Scorekeeper")
