"""Who may do what with a game: the scorer enters and corrects, a viewer only looks.

A game's scorer link carries a secret token; opening it marks this browser as a scorer of that
game in the signed session cookie, and the address bar moves on to the plain game address, so
the token never appears in a page a viewer sees. On a private server (the family's laptop),
every phone in the house may score every game.
"""

from __future__ import annotations

from flask import abort, current_app, session

SCORER_OF = "scorer_of"
OPENED = "opened"
REMEMBERED = 60
"""How many games a browser remembers; a cookie has little room."""


def private_server() -> bool:
    return bool(current_app.config["PRIVATE_SERVER"])


def is_scorer(game_id: str) -> bool:
    return private_server() or game_id in session.get(SCORER_OF, [])


def require_scorer(game_id: str) -> None:
    if not is_scorer(game_id):
        abort(403)


def _remember(key: str, game_id: str) -> None:
    session.permanent = True  # a phone keeps its games when the browser is closed
    known = session.get(key, [])
    if known[:1] != [game_id]:  # the cookie is rewritten only when the list changes
        session[key] = [game_id, *(other for other in known if other != game_id)][:REMEMBERED]


def remember(game_id: str, *, scorer: bool = False) -> None:
    """Note that this browser opened the game (and may score it)."""
    _remember(OPENED, game_id)
    if scorer:
        _remember(SCORER_OF, game_id)


def opened_games() -> list[str]:
    return list(session.get(OPENED, []))
