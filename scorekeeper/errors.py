"""Error pages in the base layout; the database session is rolled back on a server error."""

from flask import Blueprint, current_app, render_template
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from scorekeeper.extensions import db

bp = Blueprint("errors", __name__)


@bp.app_errorhandler(CSRFError)
def csrf_error(error: CSRFError) -> tuple[str, int]:
    message = _(
        "This form could not be accepted: its security token was missing or wrong. "
        "Nothing was changed. Go back, reload the page and enter it again."
    )
    return render_template("errors/error.html", code=400, message=message), 400


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> tuple[str, int]:
    code = error.code or 500
    messages = {
        400: _("This request could not be understood. Nothing was changed."),
        404: _("There is no such page or game here. It may have been mistyped."),
        403: _("This link does not let you change this game. Ask the scorer for the scorer link."),
        405: _("This page cannot be used that way."),
        409: _(
            "Another phone was changing this game at the same moment. Nothing was changed: "
            "go back and try again."
        ),
        413: _("What was sent is too large. Nothing was changed."),
    }
    message = messages.get(code, _("Something went wrong. Nothing was changed."))
    return render_template("errors/error.html", code=code, message=message), code


@bp.app_errorhandler(Exception)
def server_error(error: Exception) -> tuple[str, int]:
    current_app.logger.exception("Unhandled error", exc_info=error)
    db.session.rollback()
    message = _("Something went wrong on the server. Nothing was changed; please try again.")
    return render_template("errors/error.html", code=500, message=message), 500
