"""The pages every game has, whatever its family, added to each family's blueprint so that its
games keep their addresses (``/<family>/<game id>/...``): the live version, the scorer link and
the QR codes, the follow link, undo, the game file; and the routes of a family's kind of entry."""

from __future__ import annotations

import json
import secrets
from typing import Any

from flask import Blueprint, Response, abort, flash, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.games.entries import EntryKind, correct, delete, enter
from scorekeeper.games.forms import ConfirmForm
from scorekeeper.games.links import qr_svg, share_links
from scorekeeper.games.lookup import get_game_or_404, scorers_game
from scorekeeper.games.models import Game
from scorekeeper.games.registry import Family, TakenBack, file_stem
from scorekeeper.games.rights import is_scorer, remember, require_scorer
from scorekeeper.games.writes import Outcome, game_page, write_entry
from scorekeeper.serving import POLL_PATH, poll_response


def add_table_routes(bp: Blueprint, family: Family) -> None:
    """Give the family's blueprint the pages every game has."""

    @bp.get("/<game_id>" + POLL_PATH)
    def game_version(game_id: str) -> BaseResponse:
        """The game's version, for the pages that follow it live: 304 while nothing changed.
        A game that exists is mostly answered before Flask (scorekeeper.serving)."""
        return poll_response(game_id, family.key)

    if family.parts is not None:

        @bp.get("/<game_id>/part/<int:part>" + POLL_PATH)
        def part_version(game_id: str, part: int) -> BaseResponse:
            """The version of one of the game's parts (a club table), for its phone's page,
            which follows its own part and the game's row alone."""
            return poll_response(game_id, family.key, part)

    @bp.get("/<game_id>/score/<token>")
    def join_as_scorer(game_id: str, token: str) -> BaseResponse:
        """The scorer link: this browser may now enter and correct the game's entries."""
        game = get_game_or_404(game_id, family.game)
        if not secrets.compare_digest(token.encode(), game.scorer_token.encode()):
            abort(403)
        remember(game.id, scorer=True)
        flash(_("This phone can now enter and correct the scores of this game."))
        return game_page(game)

    @bp.get("/<game_id>/follow")
    def follow(game_id: str) -> BaseResponse:
        """The follow link: this browser follows the game, changing nothing, in every server
        mode (one that scores the game keeps its rights)."""
        game = get_game_or_404(game_id, family.game)
        remember(game.id, follower=True)
        if not is_scorer(game.id, game.family):
            flash(
                _("This phone follows the game: each change shows as it comes; it changes nothing.")
            )
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
    def undo(game_id: str) -> Outcome:
        """Take back the last entry; what is taken back is shown and logged (and, where the
        family can, filled in again)."""

        def change(game: Game) -> Outcome | None:
            if not ConfirmForm.sent_as_drawn(game):  # a retry finds the game changed too
                flash(_("The game changed since this page was drawn; nothing was undone."), "error")
                return game_page(game)
            if (refused := family.undo_refused(game)) is not None:
                flash(refused, "error")
                return game_page(game)
            taken = family.take_back(game)
            if taken is None:
                flash(_("There is nothing to undo."), "error")
                return game_page(game)
            game.corrections.extend(taken.logged)
            undone[:] = [taken]
            return None

        undone: list[TakenBack] = []
        return write_entry(
            lambda: scorers_game(game_id, family.game),
            change,
            lambda game: flash(undone[0].message),
            page=lambda game: game_page(game, **undone[0].refill),
        )

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


def add_entry_routes(
    bp: Blueprint,
    kind: EntryKind[Any, Any],
    path: str,
    *,
    entered: bool = True,
    corrected: bool = True,
    edit: str = "/edit",
) -> None:
    """The routes of a kind of entry at ``path`` (``/deals/<int:number>``): entered by a POST
    there (a GET goes to the page it is entered on), corrected at ``<path><edit>``, deleted at
    ``<path>/delete`` (each where the kind has it)."""
    name = kind.endpoint

    def entering(game_id: str, **route: Any) -> Outcome:
        if request.method in ("GET", "HEAD"):
            # The address a form was sent to, opened again (a reload, the language switch of
            # a page that answered it): the page the entry is made on.
            return kind.page(kind.seen(game_id, route), kind.key(**route))
        return enter(kind, game_id, route)

    def correcting(game_id: str, **route: Any) -> Outcome:
        return correct(kind, game_id, route)

    def deleting(game_id: str, **route: Any) -> Outcome:
        return delete(kind, game_id, route)

    if entered:
        bp.add_url_rule(f"/<game_id>{path}", name, entering, methods=["GET", "POST"])
    if corrected:
        rule = f"/<game_id>{path}{edit}"
        bp.add_url_rule(rule, f"{name}_edit", correcting, methods=["GET", "POST"])
    if kind.deleted is not None:
        bp.add_url_rule(f"/<game_id>{path}/delete", f"{name}_delete", deleting, methods=["POST"])
