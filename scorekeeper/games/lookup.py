"""Finding a game from its address: 404 for anything else, 403 for a viewer where a scorer is
needed; a game of a circle as a viewer may see it."""

from __future__ import annotations

import re
from functools import cache
from typing import TypeVar

from flask import abort
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.strategy_options import _AbstractLoad

from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.games.registry import circles
from scorekeeper.games.rights import is_scorer, require_scorer

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
G = TypeVar("G", bound=Game)


@cache
def with_players() -> _AbstractLoad:
    """A game's players in the game's own statement (the pages and entries of every family but
    the club's use their names): on PostgreSQL a statement of its own is a round trip of its
    own. Made at the first request, once the app has mapped every model a game names."""
    return joinedload(Game.players)


def get_game_or_404(game_id: str, kind: type[G]) -> G:
    """The game of this id and of this family (its :class:`Game` subclass), or a 404 page."""
    found = GAME_ID.fullmatch(game_id)
    game = db.session.get(Game, game_id, options=[with_players()]) if found else None
    if not isinstance(game, kind):
        abort(404)
    return as_seen_here(game)


def as_seen_here(game: G) -> G:
    """``game`` as this browser may see it. A game of a circle shows whoever does not score it
    the names the circle's people chose to show (their initials), on its pages and in its files
    alike: its rows are given them in memory, as if loaded so, and never written back (nothing
    a viewer sends writes a name, and a value set this way is no change to save)."""
    if game.circle_id is not None and not is_scorer(game.id, game.family):
        for row, attribute, value in circles().shown_to_viewers(game):
            set_committed_value(row, attribute, value)
    return game


def shown_alike(game_id: str) -> bool:
    """Whether the game of this id (loaded in this request) shows those who do not score it
    what it shows its scorer: not a game of a circle some of whose players chose to show their
    initials."""
    game = db.session.get(Game, game_id)
    return game is None or game.circle_id is None or not circles().shown_to_viewers(game)


def scorers_game(game_id: str, kind: type[G]) -> G:
    """The game, for a browser that scores it."""
    game = get_game_or_404(game_id, kind)
    require_scorer(game)
    return game


def game_started_by(key: str | None) -> Game | None:
    """The game a one-time form (new game, import) already started, if any."""
    if key is None:
        return None
    return db.session.execute(db.select(Game).filter_by(setup_nonce=key)).scalar_one_or_none()
