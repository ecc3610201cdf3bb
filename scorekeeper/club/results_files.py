"""A session's results files: PBN and USEBIO out, and a session scored elsewhere published
here from its file."""

from __future__ import annotations

from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.club import bp, files
from scorekeeper.club.models import ClubSession
from scorekeeper.club.pages import club_session
from scorekeeper.games.registry import file_stem
from scorekeeper.games.rights import is_scorer, require_scorer
from scorekeeper.games.views import import_page
from scorekeeper.limits import imports_limit


def shared_file(game_id: str) -> ClubSession:
    """The session, for whoever may have its results files now."""
    game = club_session(game_id)
    if not game.results_files_for_everyone():
        require_scorer(game)
    return game


def names_in_files(game: ClubSession) -> bool:
    return game.names_shown or is_scorer(game.id, game.family)


@bp.get("/<game_id>/session.pbn")
def export_pbn(game_id: str) -> Response:
    game = shared_file(game_id)
    return Response(
        files.pbn_of(game, names=names_in_files(game)),
        mimetype="application/x-pbn",
        headers={"Content-Disposition": f'attachment; filename="{file_stem(game)}.pbn"'},
    )


@bp.get("/<game_id>/session.xml")
def export_usebio(game_id: str) -> Response:
    game = shared_file(game_id)
    return Response(
        files.usebio_of(game, names=names_in_files(game)),
        mimetype="application/xml",
        headers={"Content-Disposition": f'attachment; filename="{file_stem(game)}-usebio.xml"'},
    )


@bp.route("/import", methods=["GET", "POST"])
@imports_limit
def import_results() -> str | Response | tuple[str, int]:
    """A session scored elsewhere, from its PBN or USEBIO results file: checked and published
    here."""
    label = _("Results file (.pbn or USEBIO .xml)")
    too_large = _("This file is too large to be a session's results (2 MB at most).")
    return import_page(files.session_from_file, "club/import.html", label, too_large)
