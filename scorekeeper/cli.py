"""The ``scorekeeper`` command."""

import click


@click.group()
def main() -> None:
    """Scorekeeper: keeps the score of card games played with a real deck."""


@main.command()
@click.option("--port", default=8000, show_default=True, help="The port to listen on.")
def serve(port: int) -> None:
    """Serve Scorekeeper to the phones on this network."""
    click.echo(
        f"Nothing to serve yet on port {port}: the rules engine is ready, the pages are not."
    )
