"""One way to write an entry, for every family: try, save, and try again when another phone
changed the game at that very moment (optimistic locking on the game's version)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import abort, redirect, url_for
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from scorekeeper.extensions import db
from scorekeeper.games.lookup import game_started_by
from scorekeeper.games.models import Game
from scorekeeper.games.registry import family_of
from scorekeeper.games.rights import form_key, remember

ATTEMPTS = 3
"""How often an entry is tried again when another phone changed the game at the same moment."""

G = TypeVar("G", bound=Game)
Outcome = Response | tuple[str, int] | str


def save(game: Game) -> bool:
    """Commit the game's changes, unless another phone changed the game since it was loaded."""
    game.changed()
    try:
        db.session.commit()
    except (StaleDataError, IntegrityError, OperationalError) as error:
        db.session.rollback()
        if isinstance(error, OperationalError) and "locked" not in str(error):
            raise
        return False
    return True


def game_page(game: Game, **arguments: str) -> Response:
    return redirect(url_for(family_of(game).page, game_id=game.id, **arguments))


def write_entry(
    load: Callable[[], G],
    change: Callable[[G], Outcome | None],
    saved: Callable[[G], None] | None = None,
) -> Outcome:
    """Load the game, let ``change`` check the form and change the game's rows (returning
    ``None``) or answer by itself (a page with what is wrong, a conflict); save, call
    ``saved`` (a message to show), and go to the game's page. Tried again, from a fresh load,
    when another phone saved at that very moment."""
    for _attempt in range(ATTEMPTS):
        game = load()
        answer = change(game)
        if answer is not None:
            return answer
        # Addressed before the save: the commit expires the game's row, and reading its id
        # afterwards would cost a transaction of its own.
        page = game_page(game)
        if save(game):
            if saved is not None:
                saved(game)
            return page
    abort(409)


def start_new_game(game: Game, nonce: str | None) -> Response:
    """Store a new game and go to its page. The same form sent twice (a double tap, a retry)
    starts one game; sent again with other players or settings, another."""
    key = form_key(nonce)
    existing = game_started_by(key)
    if existing is not None:
        same = (existing.family, existing.settings, existing.names) == (
            game.family,
            game.settings,
            game.names,
        )
        if same:
            remember(existing.id, scorer=True)
            return game_page(existing)
        key = None  # the form was changed and sent again: a game of its own
    game.setup_nonce = key
    db.session.add(game)
    try:
        db.session.commit()
    except IntegrityError:  # the same form sent twice at once: the first one stands
        db.session.rollback()
        game = game_started_by(key) or abort(409)  # type: ignore[assignment]
    remember(game.id, scorer=True)
    return game_page(game)
