"""The pages above the families: the games in progress and finished, the choice of a new game,
and the import of a game file of any family."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TypeVar

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_wtf.file import FileSize
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from scorekeeper.extensions import db
from scorekeeper.games.forms import ImportForm, NewGameForm
from scorekeeper.games.helpers import semicolon_list, signed
from scorekeeper.games.lookup import as_seen_here, game_started_by
from scorekeeper.games.models import Correction, Game
from scorekeeper.games.registry import FAMILIES, circles, family_of
from scorekeeper.games.rights import browser_id, form_key, opened_games, private_server, remember
from scorekeeper.games.transfer import TransferError, read_game_file
from scorekeeper.games.writes import answer_the_script, game_page, sent_token, start_new_game
from scorekeeper.limits import imports_limit

F = TypeVar("F", bound=NewGameForm)

bp = Blueprint("games", __name__)
bp.after_app_request(answer_the_script)


bp.add_app_template_global(signed, "signed")
bp.add_app_template_global(semicolon_list, "semicolon_list")


@bp.app_template_global()
def correction_text(game: Game, change: Correction) -> str:
    """A line of a game's corrections log, as its family says it."""
    return family_of(game).describe(game, change)


@bp.app_template_global()
def game_url(game: Game) -> str:
    """A game's page, whatever its family."""
    return url_for(family_of(game).page, game_id=game.id)


bp.add_app_template_global(sent_token, "sent_token")


@bp.app_template_global()
def kept_texts() -> dict[str, str]:
    """What the phone's script says of the forms it keeps while the network is down (see
    static/scorekeeper.js), ``{entries}`` standing for the entries it names."""
    entries = "{entries}"
    return {
        "kept": _(
            "Kept on this phone, to be sent when the network is back: %(entries)s.", entries=entries
        ),
        "sending": _("Sending: %(entries)s…", entries=entries),
        "waiting": _(
            "Also kept on this phone, to be sent once this page is settled: %(entries)s.",
            entries=entries,
        ),
        "arrived": _("Arrived: %(entries)s.", entries=entries),
        "failing": _(
            "Kept on this phone: the server could not take %(entries)s yet. It is sent again in "
            "a moment.",
            entries=entries,
        ),
        "unanswered": _(
            "Sent, and no page came back to say it was entered: %(entries)s. Look at the game: "
            "send it again, or forget it if it is there.",
            entries=entries,
        ),
        "held": _(
            "The server failed on %(entries)s each time it was sent. Send it again later, or "
            "forget it and enter it again.",
            entries=entries,
        ),
        "refused": _("Not entered: %(entries)s.", entries=entries),
        "why": _("See why"),
        "sendNow": _("Send them now"),
        "forget": _("Forget them"),
        "forgetSure": _("Tap again to forget them: they will not be sent."),
        "forgetHeld": _("Forget this one"),
        "forgetHeldSure": _("Tap again to forget it: it will not be sent."),
        "cannotKeep": _(
            "The network is down and this phone cannot keep the entry: send it again once the "
            "network is back."
        ),
        "entry": _("the form sent"),
        "and": _(", "),
    }


LISTED = 100
"""The most games the home page lists, the newest first."""


@bp.get("/")
def home() -> str:
    """The games in progress, to resume, and the finished ones."""
    newest_first = db.select(Game).order_by(Game.updated_at.desc()).limit(LISTED)
    if not private_server():  # a club or public server: only this browser's own games
        newest_first = newest_first.where(opened_games())
    listed = []
    for game in db.session.execute(newest_first).scalars():
        try:
            listed.append((game, family_of(game).summary(as_seen_here(game))))
        except (KeyError, ValueError):  # a game that cannot be read must not hide the others
            current_app.logger.exception("Game %s cannot be listed", game.id)
    return render_template(
        "home.html",
        families=FAMILIES.values(),
        circles=circles().listed(),
        in_progress=[(game, summary) for game, summary in listed if not summary.finished],
        finished=[(game, summary) for game, summary in listed if summary.finished],
    )


@bp.get("/new")
def choose() -> str:
    """Every game the families offer, to start one."""
    return render_template(
        "games/choose.html",
        families=[(family.name(), family.new_games()) for family in FAMILIES.values()],
    )


@bp.route("/import", methods=["GET", "POST"])
@imports_limit
def import_game() -> str | Response | tuple[str, int]:
    """Start a new game from a game file exported by Scorekeeper."""
    return import_page(read_game_file, "games/import.html")


def import_page(
    read: Callable[[bytes], Game],
    template: str,
    label: str | None = None,
    too_large: str | None = None,
    form_class: type[ImportForm] = ImportForm,
    **context: object,
) -> str | Response | tuple[str, int]:
    """A file's form: drawn, drawn again with what is wrong in the file, or the game ``read``
    makes of it stored. The same file sent twice is one game. A family's own kind of file
    has its own ``label``, and says so when it is ``too_large``; its page is drawn with
    ``context`` (its form a ``form_class``)."""
    form = form_class()  # more than the app's upload limit never gets here: it is a 413 page
    if label is not None:
        form.file.label.text = label
    if too_large is not None:
        form.file.validators = [
            FileSize(ImportForm.MAX_BYTES, message=too_large) if isinstance(v, FileSize) else v
            for v in form.file.validators
        ]
    if form.validate_on_submit():
        key = form_key(form.nonce.data)
        if (same := game_started_by(key)) is not None:  # the same file sent twice
            remember(same.id, scorer=True)
            return game_page(same)
        try:
            game = read(form.file.data.read(ImportForm.MAX_BYTES + 1))
        except TransferError as error:
            form.file.errors = [*form.file.errors, str(error)]
        else:
            return store_imported(game, key)
    if not form.nonce.data:
        form.nonce.data = new_nonce()
    status = 422 if form.is_submitted() else 200
    return render_template(template, form=form, **context), status


def store_imported(game: Game, key: str | None) -> Response:
    game.setup_nonce = key
    db.session.add(game)
    try:
        db.session.commit()
    except IntegrityError:  # sent twice at once: the first one stands
        db.session.rollback()
        game = game_started_by(key) or abort(409)
    remember(game.id, scorer=True)
    flash(_("The game was imported."))
    return game_page(game)


def new_game_form(
    form_class: type[F], template: str, build: Callable[[F], Game]
) -> str | Response | tuple[str, int]:
    """A new game's form: drawn, drawn again with what is wrong, or the game ``build`` makes
    of it started (see start_new_game)."""
    if request.method in ("GET", "HEAD"):
        return render_template(template, form=form_class(data=new_game_data()))
    form = form_class()
    if not form.validate():
        return render_template(template, form=form), 422
    return start_new_game(build(form), form.nonce.data, form.circle.data)


def new_game_data() -> dict[str, str]:
    """What a new-game form is drawn with: its one-time value, and the circle it starts the
    game in (``?circle=``, a circle this browser keeps), if any; a circle it does not keep is
    named apart, to say that the game is played outside it."""
    asked = request.args.get("circle", "")[:16]
    kept = circles().kept(asked)
    return {"nonce": new_nonce(), "circle": kept, "outside": "" if kept else asked}


def new_nonce() -> str:
    """A new-game or import form's one-time value, tied to this browser (see form_key)."""
    browser_id()
    return secrets.token_hex(16)
