"""What every response tells the browser: no third-party code, no framing, no referrer; pages
(which carry a form's token, a scorer's view) kept in no cache; and, over HTTPS, HTTPS only
from now on and a session cookie marked Secure."""

from __future__ import annotations

from flask import Flask, Request, abort, current_app, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from itsdangerous import URLSafeTimedSerializer
from werkzeug.wrappers import Response

from scorekeeper.games.live import POLL_PATH

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; style-src 'self' '{style_hash}'; img-src 'self' data:; "
    "media-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)
"""The app's own files only; the one inline stylesheet by its hash (see assets.STYLESHEET)."""
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


class SessionInterface(SecureCookieSessionInterface):
    """The signed session cookie, marked Secure when the request itself is secure, and not
    even read for the live poll, which needs none (see scorekeeper.games.live)."""

    def __init__(self) -> None:
        self.kept_serializer: tuple[object, URLSafeTimedSerializer | None] | None = None

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def open_session(self, app: Flask, request: Request) -> SessionMixin | None:
        if request.method == "GET" and request.path.endswith(POLL_PATH):
            return self.make_null_session(app)
        return super().open_session(app, request)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's serializer, made once for the app's keys rather than twice a request."""
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        if self.kept_serializer is None or self.kept_serializer[0] != keys:
            self.kept_serializer = (keys, super().get_signing_serializer(app))
        return self.kept_serializer[1]


HSTS = "max-age=31536000"
"""A year: once a browser has the site over HTTPS, it never asks for it over plain HTTP."""


def fixed_headers(app: Flask, secure: bool) -> dict[str, str]:
    """The headers every answer carries, over HTTPS (``secure``) or not."""
    headers = {**HEADERS, "Content-Security-Policy": app.config["CSP"]}
    if secure:
        headers["Strict-Transport-Security"] = HSTS
    return headers


def add_headers(response: Response) -> Response:
    for name, value in fixed_headers(current_app, request.is_secure).items():
        response.headers.setdefault(name, value)
    if response.mimetype == "text/html":
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def refuse_a_body_in_chunks() -> None:
    """A request's body must say its length, as a browser's always does. A body sent in chunks
    is refused before any of it is read: the server reads a chunk's size line whole, however
    long it goes on."""
    if "chunked" in request.headers.get("Transfer-Encoding", "").lower():
        abort(411)


def init_app(app: Flask) -> None:
    app.config["CSP"] = CONTENT_SECURITY_POLICY.format(style_hash=app.config["INLINE_STYLE_HASH"])
    app.session_interface = SessionInterface()
    # First of all, before the form's token is checked (which reads the body).
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_a_body_in_chunks)
    app.after_request(add_headers)
