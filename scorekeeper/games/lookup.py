"""Finding a game from its address: 404 for anything else, 403 for a viewer where a scorer is
needed; and the game's version, read on every request without the ORM."""

from __future__ import annotations

import re
from typing import TypeVar

from flask import abort
from sqlalchemy import bindparam, select

from scorekeeper.access import require_scorer
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.games.registry import FAMILIES

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
G = TypeVar("G", bound=Game)
STATE = select(Game.version, Game.family).where(Game.id == bindparam("game_id"))


def get_game_or_404(game_id: str, kind: type[G]) -> G:
    """The game of this id and of this family (its :class:`Game` subclass), or a 404 page."""
    game = db.session.get(Game, game_id) if GAME_ID.fullmatch(game_id) else None
    if not isinstance(game, kind):
        abort(404)
    return game


def scorers_game(game_id: str, kind: type[G]) -> G:
    """The game, for a browser that scores it."""
    game = get_game_or_404(game_id, kind)
    require_scorer(game.id)
    return game


def stored_version(game_id: str, family: str) -> int | None:
    """The version of the game of this family, as the database has it now; ``None`` if there
    is no such game. Every phone asks for it every few seconds, so the query skips the ORM's
    session."""
    if not GAME_ID.fullmatch(game_id):
        return None
    known = FAMILIES.get(family)
    query = known.live_version if known is not None and known.live_version is not None else STATE
    with db.engine.connect() as connection:
        row = connection.execute(query, {"game_id": game_id}).one_or_none()
    return row.version if row is not None and row.family == family else None


def game_started_by(key: str | None) -> Game | None:
    """The game a one-time form (new game, import) already started, if any."""
    if key is None:
        return None
    return db.session.execute(db.select(Game).filter_by(setup_nonce=key)).scalar_one_or_none()
