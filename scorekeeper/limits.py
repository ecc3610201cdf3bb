"""How many games a client may start or import on a public server: a public server is not a
machine for making games by the thousand. A private server (the family's own) counts nothing."""

from __future__ import annotations

from flask import current_app, request

from scorekeeper.extensions import limiter
from scorekeeper.games.rights import private_server


def new_games() -> str:
    return str(current_app.config["NEW_GAMES_LIMIT"])


def redraws_the_form() -> bool:
    """A new-game form sent to add a player or to preview: it starts no game."""
    return private_server() or request.form.get("action") != "start"


# Starting and importing games, counted together per client: a public server is not a machine
# for making games by the thousand. Every form that starts a game is counted, whatever its
# fields; only a form whose view draws it again unless told to start is exempt when it does.
new_games_limit = limiter.shared_limit(
    new_games, scope="new-games", methods=["POST"], exempt_when=private_server
)
redrawn_setup_limit = limiter.shared_limit(
    new_games, scope="new-games", methods=["POST"], exempt_when=redraws_the_form
)
imports_limit = new_games_limit
