"""Error pages in the base layout; the database session is rolled back on a server error.

An error page must show whatever just failed (the language, a template, the database): when it
cannot be drawn in the layout, a plain page in both languages stands in for it."""

import time
from collections.abc import Callable

from flask import Blueprint, current_app, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, NotFound

from scorekeeper.extensions import db
from scorekeeper.security import ForeignFormError

bp = Blueprint("errors", __name__)

# A proxy may accept bodies larger than the app does (docs/deployment.md: 16 MB against 3 MB);
# what it has already taken is read to the end, so that the proxy, still sending it when the
# refusal comes, is not cut off and does not put its own error page in place of the app's.
UNREAD_BODY_READ_UP_TO = 32 * 1024 * 1024
UNREAD_BODY_READ_FOR = 5.0  # seconds

PLAIN_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Error {code} · Scorekeeper</title></head>
<body>
<h1>Error {code}</h1>
<p>Something went wrong. Nothing was changed; please try again.</p>
<p lang="fr">Une erreur s’est produite. Rien n’a été modifié ; veuillez réessayer.</p>
<p><a href="/">Back to the games</a> · <a href="/" lang="fr">Retour aux parties</a></p>
</body>
</html>
"""


def error_page(code: int, message: Callable[[], str]) -> tuple[str, int]:
    """The error page in the reader's language, or the plain one if that cannot be drawn."""
    try:
        return render_template("errors/error.html", code=code, message=message()), code
    except Exception:
        current_app.logger.exception("The error page for %d could not be drawn", code)
        return PLAIN_PAGE.format(code=code), code


@bp.app_errorhandler(CSRFError)
def csrf_error(error: CSRFError) -> tuple[str, int]:
    if isinstance(error, ForeignFormError):
        return error_page(
            400,
            lambda: _(
                "This form was sent from another site's page, so it was not accepted. Nothing "
                "was changed. Open the page on this site and enter it again."
            ),
        )
    return error_page(
        400,
        lambda: _(
            "This form could not be accepted: its security token was missing or wrong. "
            "Nothing was changed. Go back, reload the page and enter it again."
        ),
    )


class LinkOpensNothing(NotFound):
    """A link of the app's own kind that opens nothing (any more): its page says why links of
    that kind stop opening, and what to do."""

    def __init__(self, message: Callable[[], str]) -> None:
        super().__init__()
        self.message = message


def http_message(code: int) -> str:
    messages = {
        400: _("This request could not be understood. Nothing was changed."),
        404: _("There is no such page or game here. It may have been mistyped."),
        403: _("This link does not let you change this game. Ask the scorer for the scorer link."),
        405: _("This page cannot be used that way."),
        409: _(
            "Another phone was changing this game at the same moment. Nothing was changed: "
            "go back and try again."
        ),
        411: _(
            "What was sent did not say its length, which this server needs. Nothing was "
            "changed: send it again as a file of known size."
        ),
        413: _("What was sent is too large. Nothing was changed."),
        429: _(
            "Too many games were started or imported from here in a short time. Nothing was "
            "changed: wait a little, then try again."
        ),
    }
    return messages.get(code, _("Something went wrong. Nothing was changed."))


def read_unread_body() -> None:
    """Read and drop the body of a request refused for its stated length before any of it was
    read (up to a bound, for a few seconds at most). One refused partway through (a form's
    parts too many or too large) is left as it is: what is left of it is not known."""
    stated = request.content_length
    limit = request.max_content_length
    stream = request.environ.get("wsgi.input")
    if stream is None or stated is None or limit is None or stated <= limit:
        return
    left = min(stated, UNREAD_BODY_READ_UP_TO)
    deadline = time.monotonic() + UNREAD_BODY_READ_FOR
    try:
        while left > 0 and time.monotonic() < deadline:
            chunk = stream.read(min(left, 64 * 1024))
            if not chunk:
                break
            left -= len(chunk)
    except (OSError, ValueError):  # the client went away: nothing is waiting on the answer
        pass


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> tuple[str, int]:
    code = error.code or 500
    if code == 413:
        read_unread_body()
    if isinstance(error, LinkOpensNothing):
        return error_page(code, error.message)
    return error_page(code, lambda: http_message(code))


@bp.app_errorhandler(Exception)
def server_error(error: Exception) -> tuple[str, int]:
    current_app.logger.exception("Unhandled error", exc_info=error)
    try:
        db.session.rollback()
    except Exception:  # the database itself is what failed
        current_app.logger.exception("The session could not be rolled back")
    return error_page(
        500, lambda: _("Something went wrong on the server. Nothing was changed; please try again.")
    )
