"""The pages every game has, whatever its family, added to each family's blueprint so that its
games keep their addresses (``/<family>/<game id>/...``): the live version, the scorer link and
the QR codes, undo, the game file."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Hashable

from flask import Blueprint, Response, abort, current_app, flash, g, request
from flask_babel import get_locale, get_timezone
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.extensions import db
from scorekeeper.games.entries import game_page, save
from scorekeeper.games.forms import ConfirmForm
from scorekeeper.games.links import qr_svg, share_base, share_links
from scorekeeper.games.live import POLL_PATH, poll_answer
from scorekeeper.games.lookup import get_game_or_404, scorers_game, stored_version
from scorekeeper.games.page_cache import ScorerAndViewer, cached_page
from scorekeeper.games.registry import Family, file_stem
from scorekeeper.games.rights import every_phone_scores, is_scorer, remember, require_scorer


def kept_game_page(
    family: Family,
    game_id: str,
    draw: Callable[[], str],
    *varies: Hashable,
    for_both_roles: bool = False,
) -> BaseResponse | str:
    """A game's page, kept as drawn under what it shows (see page_cache): its family and id,
    its version, scorer or viewer, the language and the time zone, and what else it
    ``varies`` with (the day, for a form that offers today's date). A page whose template
    marks what only its scorer or only its viewers see is drawn ``for_both_roles`` when its
    scorer asks: the phones looking on then find their copy kept."""
    version = stored_version(game_id, family.key)
    if version is None:
        abort(404)
    # The page follows the version read before any of its own reads: a change committed
    # while it is drawn may show in some of them and not in others, and only a version older
    # than all of them makes the phone reload until the page shows that change.
    g.page_version = version
    remember(game_id)
    scorer = is_scorer(game_id, family.key)

    def key(scorer: bool) -> Hashable:
        where = (str(get_locale()), str(get_timezone()))
        return (family.key, game_id, version, scorer, *where, *varies)

    # Where every phone scores, none would ask for the viewers' copy.
    both = for_both_roles and scorer and not every_phone_scores(family.key)
    kept = ScorerAndViewer(key(True), key(False)) if both else key(scorer)
    return cached_page(kept, lambda: drawn_outside_a_transaction(draw), share_base)


def drawn_outside_a_transaction(draw: Callable[[], str]) -> str:
    """``draw()``, its reads made outside a transaction when none has begun yet.

    Drawing a page only reads. On PostgreSQL a transaction costs two round trips more (BEGIN,
    and ROLLBACK at the end), and each round trip waits for the interpreter while another
    thread computes; its statements would not see one state of the game anyway (each one reads
    what is committed when it starts, PostgreSQL's default), nor do they on SQLite, where the
    driver begins a transaction only to write. The connection goes back to the pool once the
    page is drawn, so that nothing later in the request writes outside a transaction."""
    if db.session().in_transaction():
        return draw()
    db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
    try:
        return draw()
    finally:
        db.session.rollback()  # no statement: there is no transaction to end


def add_table_routes(bp: Blueprint, family: Family) -> None:
    """Give the family's blueprint the pages every game has."""

    @bp.get("/<game_id>" + POLL_PATH)
    def game_version(game_id: str) -> Response:
        """The game's version, for the pages that follow it live: 304 while nothing changed.
        A game that exists is mostly answered before Flask (scorekeeper.games.live.LivePoll)."""
        version = stored_version(game_id, family.key)
        if version is None:
            abort(404)
        status, headers, body = poll_answer(game_id, version, request.headers.get("If-None-Match"))
        return current_app.response_class(body, status, headers)

    @bp.get("/<game_id>/score/<token>")
    def join_as_scorer(game_id: str, token: str) -> BaseResponse:
        """The scorer link: this browser may now enter and correct the game's entries."""
        game = get_game_or_404(game_id, family.game)
        if not secrets.compare_digest(token.encode(), game.scorer_token.encode()):
            abort(403)
        remember(game.id, scorer=True)
        flash(_("This phone can now enter and correct the scores of this game."))
        return game_page(game)

    @bp.get("/<game_id>/qr/<any(viewer, scorer):link>.svg")
    def qr_code(game_id: str, link: str) -> Response:
        """A QR code of the viewer or the scorer link, for another phone's camera."""
        game = get_game_or_404(game_id, family.game)
        if link == "scorer":
            require_scorer(game)
        response = Response(qr_svg(share_links(game)[link]), mimetype="image/svg+xml")
        # The scorer link is a secret: no cache keeps it.
        response.headers["Cache-Control"] = (
            "no-store" if link == "scorer" else "private, max-age=86400"
        )
        return response

    @bp.post("/<game_id>/undo")
    def undo(game_id: str) -> BaseResponse:
        """Take back the last entry; what is taken back is shown and logged (and, where the
        family can, filled in again)."""
        game = scorers_game(game_id, family.game)
        changed = _("The game changed since this page was drawn; nothing was undone.")
        if not ConfirmForm.sent_as_drawn(game):
            flash(changed, "error")
            return game_page(game)
        taken = family.take_back(game)
        if taken is None:
            flash(_("There is nothing to undo."), "error")
            return game_page(game)
        game.corrections.extend(taken.logged)
        if not save(game):
            flash(changed, "error")
            return game_page(game)
        flash(taken.message)
        return game_page(game, **taken.refill)

    @bp.get("/<game_id>/game.json")
    def game_json(game_id: str) -> Response:
        """The whole game, every entry, as a JSON file that the import page takes back."""
        game = get_game_or_404(game_id, family.game)
        if not family.file_for_everyone(game):
            require_scorer(game)
        return Response(
            json.dumps(family.export(game), ensure_ascii=False, indent=2),
            mimetype="application/json",
            headers={"Content-Disposition": f'attachment; filename="{file_stem(game)}.json"'},
        )
