"""How a change is written, the same way for every family: checked against what it was drawn
from, saved under the version of the row it locks, tried again from a fresh load when another
phone wrote that row at that very moment; a change shown on other games' pages counted in
theirs (a field's sections), every such write locking the games' rows in one order; a form the
phone kept while the network was down applied once however often it arrives; and a new game
stored once however often its form is sent.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast, overload

from flask import abort, flash, g, redirect, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from scorekeeper.extensions import db
from scorekeeper.games.forms import ChangeForm
from scorekeeper.games.lookup import game_started_by
from scorekeeper.games.models import Game, SentForm
from scorekeeper.games.registry import circles, family_of
from scorekeeper.games.rights import form_key, remember
from scorekeeper.serving import note_counted_elsewhere

ATTEMPTS = 3
"""How often an entry is tried again when another phone changed the game at the same moment."""

SENT_AS = re.compile(r"[A-Za-z0-9_-]{16,32}")
"""The one-time token a phone's script gives a form it sends (see SentForm)."""
KEPT_AT_MOST = 400 * 24 * 3600
"""Seconds beyond which what a phone says it kept a form for is taken as that long."""

G = TypeVar("G", bound=Game)
R = TypeVar("R")
"""What a write loads: a game, or another row that counts its changes (a circle's person)."""
E = TypeVar("E")
Outcome = Response | tuple[str, int] | str


def save(row: Any, *, shown_beyond_the_part: bool = True) -> bool:
    """Commit, counting a change of ``row`` (the game, a club table, or any row that counts its
    changes: a circle), unless another phone changed that row since it was loaded. A part's
    change (a club table's) is counted in the game's row too, whose version the game's pages
    follow: that row is written first, as a write locking the game writes it before its parts'
    rows, so that two such writes wait for one another rather than each for the other. A part's
    change that shows on that part's own page alone (East-West's confirmation, on their table's)
    is not ``shown_beyond_the_part``: the game's pages, and the phones following them, have
    nothing new to draw."""
    row.changed()
    part_of = None if isinstance(row, Game) else getattr(row, "game_id", None)
    try:
        # Nothing is written before the game's rows are locked, in the order every write
        # takes them: the reads that find which rows to lock must not flush the change.
        with db.session.no_autoflush:
            game = row if isinstance(row, Game) else part_of and db.session.get(Game, part_of)
            if game and shown_beyond_the_part and (others := game.shown_with()):
                _count_changed_with(game, others)
            stands = part_of is None or _game_stands(part_of, counted=shown_beyond_the_part)
        if not stands:
            db.session.rollback()
            return False
        db.session.commit()
    except (StaleDataError, IntegrityError, OperationalError) as error:
        db.session.rollback()
        if isinstance(error, OperationalError) and "locked" not in str(error):
            raise
        return False
    return True


def _count_changed_with(game: Game, others: list[str]) -> None:
    """Count a change of ``game`` in the games whose pages show it too. The rows are locked
    one id after the other, the game's own among them, so that two such writes (two sections
    entering at once) wait for one another rather than each for the other."""
    count_changed_in(others, game.family, locking=[game.id])


def count_changed_in(game_ids: list[str], family: str, *, locking: Sequence[str] = ()) -> None:
    """Count a change in each of these games' parts (their pages show something new, though
    their own rows did not change: a field's other sections), their rows and ``locking``'s
    locked in the order of their ids, as every such write locks them."""
    with db.session.no_autoflush:
        db.session.execute(
            select(Game.id)
            .where(Game.id.in_([*locking, *game_ids]))
            .order_by(Game.id)
            .with_for_update()
        )
        db.session.execute(
            update(Game)
            .where(Game.id.in_(game_ids))
            .values(parts_version=Game.parts_version + 1)
            .execution_options(synchronize_session=False)
        )
    note_counted_elsewhere(db.session(), game_ids, family)


def _game_stands(game_id: str, *, counted: bool) -> bool:
    """Whether the game a part's change was checked against (closed or not, who sits where) is
    still as it was loaded, its row locked until the commit. A change of the game itself (the
    director closing the session) made meanwhile makes the part's change be tried again from a
    fresh load: the game's row is written under its loaded version, which waits for the other
    write and then finds nothing to write."""
    game = db.session.get(Game, game_id)
    assert game is not None
    with db.session.no_autoflush:
        written = cast(
            CursorResult[Any],
            db.session.execute(
                update(Game)
                .where(Game.id == game_id, Game.version == game.version)
                .values(parts_version=Game.parts_version + 1 if counted else Game.parts_version)
                .execution_options(synchronize_session=False)
            ),
        )
    return bool(written.rowcount)


def game_page(game: Game, **arguments: str) -> Response:
    """The game's page, with ``arguments`` in its query."""
    # Typed as url_for takes them: its own keywords (_external, ...) are not among them.
    values: dict[str, Any] = {"game_id": game.id, **arguments}
    return redirect(url_for(family_of(game).page, **values))


@overload
def write_entry(
    load: Callable[[], G],
    change: Callable[[G], Outcome | None],
    saved: Callable[[G], None] | None = None,
    *,
    lock: Callable[[G], Any] = ...,
    page: Callable[[G], Response] = ...,
    busy: Callable[[], Outcome] | None = None,
    shown_beyond_the_part: bool = True,
    at: tuple[int, int | None] | None = None,
) -> Outcome: ...


@overload
def write_entry(
    load: Callable[[], R],
    change: Callable[[R], Outcome | None],
    saved: Callable[[R], None] | None = None,
    *,
    lock: Callable[[R], Any] = ...,
    page: Callable[[R], Response],
    busy: Callable[[], Outcome] | None = None,
    shown_beyond_the_part: bool = True,
    at: tuple[int, int | None] | None = None,
) -> Outcome: ...


def write_entry(
    load: Callable[[], Any],
    change: Callable[[Any], Outcome | None],
    saved: Callable[[Any], None] | None = None,
    *,
    lock: Callable[[Any], Any] = lambda game: game,
    page: Callable[[Any], Response] = game_page,
    busy: Callable[[], Outcome] | None = None,
    shown_beyond_the_part: bool = True,
    at: tuple[int, int | None] | None = None,
) -> Outcome:
    """Load the game (or another row that counts its changes, given the ``page`` to go to),
    let ``change`` check the form and change its rows (returning ``None``) or answer by itself
    (a page with what is wrong, a conflict); save, locking the row ``lock`` names, call
    ``saved`` (a message to show), and go to ``page``. Tried again, from a fresh load, when
    another phone saved that row at that very moment; after the last try, ``busy``'s answer
    (a 409 page by default). A change of a game's part that shows on the part's page alone is
    not ``shown_beyond_the_part`` (see :func:`save`)."""
    token = sent_token(reading=True)
    for _attempt in range(ATTEMPTS):
        # Before the load: what the load refuses now (a table moved since, a board no longer
        # seated there) must not hide that this form was applied when it first arrived.
        if token is not None and (arrived := arrived_before(token)) is not None:
            return arrived
        game = load()
        answer = change(game)
        if answer is not None:
            return answer
        # Addressed before the save: the commit expires the rows, and reading the game's id
        # afterwards would cost a transaction of its own.
        after = page(game)
        if token is not None:
            keep_token(token, game, after, at)
        if save(lock(game), shown_beyond_the_part=shown_beyond_the_part):
            g.sent_form_applied = token is not None
            if saved is not None:
                saved(game)
            return after
    g.busy = True
    if busy is not None:
        return busy()
    abort(409)


def sent_token(*, reading: bool = False) -> str | None:
    """The one-time token of a form the phone's script sent, if this request is one. Read
    from the body by the write (``reading``), else only where the body was read already: an
    error page (a body too large, an address that is not there) reads no body for it."""
    if request.method != "POST" or not (reading or "form" in vars(request)):
        return None
    try:
        token = request.form.get("sent_as", "")
    except HTTPException:
        return None
    return token if SENT_AS.fullmatch(token) else None


def arrived_before(token: str) -> Response | None:
    """Where the phone goes when a form it kept arrives again, already applied (its answer was
    lost on the way back): where the first one went, nothing changed; ``None`` if it is new.
    A token is one form's, at the game it was sent to: the same token at another game's address
    is refused, not taken as that game's."""
    sent = db.session.get(SentForm, token)
    if sent is None:
        return None
    location, stored_at = sent.location, {"game_id": sent.game_id, "circle_id": sent.circle_id}
    db.session.rollback()
    route = request.view_args or {}
    if any(at is not None and at != route.get(name) for name, at in stored_at.items()):
        abort(400)
    g.sent_form_applied = True
    flash(_("This had arrived already: it is entered once."))
    return redirect(location, 303)


def as_it_stands() -> None:
    """Say that what this form asks for is what the game holds already (the same entry again,
    a correction that changes nothing, a deletion made): nothing is written, and for a phone
    that kept the form it is taken, as a form applied is, not refused."""
    g.sent_form_applied = True


def keep_token(token: str, row: Any, after: Response, at: tuple[int, int | None] | None) -> None:
    """Write the token with the change it makes, in the same commit."""
    kept = request.form.get("kept_for", "")
    seconds = int(kept) // 1000 if kept.isascii() and kept.isdigit() and len(kept) < 16 else 0
    number, seat = at if at is not None else (None, None)
    db.session.add(
        SentForm(
            token=token,
            game_id=row.id if isinstance(row, Game) else None,
            # A circle's own change, at its address (a person's page, at theirs, keeps none).
            circle_id=None if isinstance(row, Game) else (request.view_args or {}).get("circle_id"),
            location=str(after.headers.get("Location", "/"))[:500],
            kept_for=min(seconds, KEPT_AT_MOST),
            number=number,
            seat=seat,
        )
    )


SENT_BY_SCRIPT = "Scorekeeper-Sent"
"""The header of a form the phone's script sends (and may keep until the server answers)."""
LOCATION_FOR_SCRIPT = "Scorekeeper-Location"
APPLIED_FOR_SCRIPT = "Scorekeeper-Applied"
"""Said, beside the address, when the form was applied (now or when it first arrived): an
address alone is a refusal the next page explains (the session closed, the game moved on)."""
REDIRECTS = frozenset({301, 302, 303, 307, 308})


def answer_the_script(response: Response) -> Response:
    """A form sent by the phone's script is answered, where a page would be sent on, with no
    page and the address to go to: the script then goes there as the browser would have gone,
    and the messages for the next page are kept for it (a fetch that followed the address
    would have drawn that page, and its messages, for nobody)."""
    if g.get("busy"):
        # Nothing was written: the same form sent again in a moment will be.
        response.headers["Retry-After"] = "1"
    if response.status_code in REDIRECTS and request.headers.get(SENT_BY_SCRIPT):
        response.headers[LOCATION_FOR_SCRIPT] = response.headers.pop("Location", "/")
        if g.get("sent_form_applied"):
            response.headers[APPLIED_FOR_SCRIPT] = "1"
        response.status_code = 204
        response.set_data(b"")
    return response


def write_apart(
    load: Callable[[], G | None],
    change: Callable[[G], bool],
    *,
    lock: Callable[[G], Any] = lambda game: game,
) -> bool:
    """``write_entry`` for work done apart from any request (a background solve): load the
    game, let ``change`` change its rows (``False``: nothing to change), save under the same
    lock, tried again from a fresh load when another phone saved that row at that very moment.
    Whether it was saved."""
    for _attempt in range(ATTEMPTS):
        game = load()
        if game is None or not change(game):
            db.session.rollback()
            return False
        if save(lock(game)):
            return True
    return False


def drawn_from_now(form: ChangeForm, token: object) -> bool:
    """Whether a form was drawn from what it changes as it is now (see ``drawn_from``)."""
    return form.drawn_from.data == str(token)


def start_new_game(game: Game, nonce: str | None, circle_id: str | None = None) -> Response:
    """Store a new game and go to its page. The same form sent twice (a double tap, a retry)
    starts one game; sent again with other players or settings, another. A game started in a
    circle (``circle_id``) seats its people (see registry.Circles)."""
    key = form_key(nonce)
    existing = game_started_by(key)
    if existing is not None:
        same = (existing.family, existing.settings, existing.names) == (
            game.family,
            game.settings,
            game.names,
        )
        if same:
            for started in (existing.id, *existing.started_with()):
                remember(started, scorer=True)
            return game_page(existing)
        key = None  # the form was changed and sent again: a game of its own
    if circle_id:
        circles().seat(game, circle_id)
    game.setup_nonce = key
    db.session.add(game)
    try:
        db.session.commit()
    except IntegrityError:  # the same form sent twice at once: the first one stands
        db.session.rollback()
        game = game_started_by(key) or abort(409)
    for started in (game.id, *game.started_with()):
        remember(started, scorer=True)
    return game_page(game)
