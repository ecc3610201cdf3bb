"""Who may do what with a game: the scorer enters and corrects, a viewer only looks.

Each link gives what its name says, in every server mode. A game's scorer link carries a
secret token; opening it marks this browser as a scorer of that game, and the address bar moves
on to the plain game address, so the token never appears in a page a viewer sees. Its follow
link marks this browser as following the game only (unless it scores it already). On a private
server (the family's laptop), every phone in the house may score every game, but a phone given
a game's follow link, and a family whose games hand out narrower links of their own (a club
session's table links): there, in every server mode, the scorer's rights come from the scorer
link alone.

A browser is known by a random id in its signed session cookie. Every game it scores is kept in
the database under that id, for as long as the game is: a club's director keeps a season's
sessions, a family years of games. The cookie carries the most recent games it scores or only
looked at, so that the common case costs no query, and a browser that sends no cookie (a
crawler, a link preview) writes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import Flask, abort, current_app, session
from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from scorekeeper.games.models import BrowserGame, Game
from scorekeeper.games.registry import FAMILIES

BROWSER = "browser"
SCORER_OF = "scorer_of"
FOLLOWS = "follows"
OPENED = "opened"
RECENT = 60
"""How many of its most recent games a browser's cookie carries; the database has them all."""


def private_server() -> bool:
    return bool(current_app.config["PRIVATE_SERVER"])


def browser_id() -> str:
    """This browser's id, given on its first visit."""
    known = session.get(BROWSER)
    if isinstance(known, str):
        return known
    session[BROWSER] = known = secrets.token_urlsafe(16)
    keep_older_cookie(known)
    return known


def keep_older_cookie(browser: str) -> None:
    """A cookie from before browsers had ids: the games it scores go to the database."""
    scorer_of = session.get(SCORER_OF, [])
    if not scorer_of:
        return
    existing = db.session.execute(select(Game.id).where(Game.id.in_(scorer_of))).scalars()
    for game_id in set(existing):
        db.session.add(BrowserGame(browser=browser, game_id=game_id))
    db.session.commit()


def every_phone_scores(family: str) -> bool:
    """Whether every phone scores this family's games without the scorer link: on a private
    server, unless the family's games give narrower links of their own."""
    return private_server() and FAMILIES[family].every_phone_scores_at_home


def is_scorer(game_id: str, family: str, *, sure: bool = False) -> bool:
    """Whether this browser scores the game (of ``family``). The cookie answers when it holds
    the game, or when it holds every game the browser scores; the database, when the cookie's
    list is full, or when ``sure`` (before a change is made)."""
    if every_phone_scores(family) and not noted(FOLLOWS, game_id, sure=sure):
        return True
    return noted(SCORER_OF, game_id, sure=sure)


def noted(key: str, game_id: str, *, sure: bool) -> bool:
    """Whether this browser scores the game (``key`` is SCORER_OF) or follows it only
    (FOLLOWS), as :func:`is_scorer` finds it: its cookie, or the database."""
    recent = session.get(key, [])
    if game_id in recent:
        return True
    browser = session.get(BROWSER)
    if not isinstance(browser, str) or (len(recent) < RECENT and not sure):
        return False
    row = db.session.get(BrowserGame, (browser, game_id))
    return row is not None and row.scores == (key == SCORER_OF)


def require_scorer(game: Game) -> None:
    if not is_scorer(game.id, game.family, sure=True):
        abort(403)


def _note_recent(key: str, game_id: str) -> bool:
    """Put the game first in the cookie's list; True if it was not in it."""
    if not session.permanent:  # setting it, even to what it is, makes the cookie signed again
        session.permanent = True  # a phone keeps its games when the browser is closed
    known = session.get(key, [])
    if known[:1] != [game_id]:  # the cookie is rewritten only when the list changes
        session[key] = [game_id, *(other for other in known if other != game_id)][:RECENT]
    return game_id not in known


def _forget_recent(key: str, game_id: str) -> None:
    known = session.get(key, [])
    if game_id in known:
        session[key] = [other for other in known if other != game_id]


def remember(game_id: str, *, scorer: bool = False, follower: bool = False) -> None:
    """Note that this browser opened the game; that it scores it (its scorer link, or a game it
    began); or that it follows it only (its follow link, opened on a browser that does not
    score it: a scorer keeps its rights)."""
    # The id comes with the first game noted: a cookie noting games without one is taken for
    # a cookie from before browsers had ids, and given one (rewritten) at its next request.
    browser = browser_id()
    _note_recent(OPENED, game_id)
    if scorer:
        _forget_recent(FOLLOWS, game_id)
        if _note_recent(SCORER_OF, game_id):
            _note_in_database(browser, game_id, scores=True)
    elif follower and not noted(SCORER_OF, game_id, sure=True) and _note_recent(FOLLOWS, game_id):
        _note_in_database(browser, game_id, scores=False)


def _note_in_database(browser: str, game_id: str, *, scores: bool) -> None:
    """Keep what the browser may do with the game: a follower given the scorer link since
    scores it; a scorer never becomes a follower."""
    row = db.session.get(BrowserGame, (browser, game_id))
    if row is not None and (row.scores or not scores):
        return
    if row is None:
        db.session.add(BrowserGame(browser=browser, game_id=game_id, scores=scores))
    else:
        row.scores = scores
    try:
        db.session.commit()
    except IntegrityError:  # the same browser, the same game, two requests at once
        db.session.rollback()


def form_key(nonce: str | None) -> str | None:
    """What a one-time form (new game, import) is stored under: its nonce tied to this browser,
    so the same form sent twice starts one game, and another browser sending that nonce
    starts a game of its own instead of getting this one."""
    if not nonce:
        return None
    secret = str(current_app.config["SECRET_KEY"]).encode()
    mac = hmac.new(secret, f"{browser_id()}:{nonce}".encode(), hashlib.sha256)
    return mac.hexdigest()[:32]


def adopt_older_cookie() -> None:
    """On the first request with a cookie from before browsers had ids, give it one."""
    if BROWSER not in session and (OPENED in session or SCORER_OF in session):
        browser_id()


def init_app(app: Flask) -> None:
    app.before_request(adopt_older_cookie)


def scored_games() -> ColumnElement[bool]:
    """Which games this browser scores by their scorer link: those the database keeps under
    its id, and those its cookie holds."""
    scored = select(BrowserGame.game_id).where(BrowserGame.browser == session.get(BROWSER, ""))
    return or_(Game.id.in_(scored), Game.id.in_(session.get(SCORER_OF, [])))


def opened_games() -> ColumnElement[bool]:
    """Which games this browser opened: those it scores, and those its cookie remembers."""
    scored = select(BrowserGame.game_id).where(BrowserGame.browser == session.get(BROWSER, ""))
    return or_(Game.id.in_(scored), Game.id.in_(session.get(OPENED, [])))
