"""What every response tells the browser: no third-party code, no framing, no referrer; pages
(which carry a form's token, a scorer's view) kept in no cache; and, over HTTPS, HTTPS only
from now on and a session cookie marked Secure."""

from __future__ import annotations

from flask import Flask, current_app, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.wrappers import Response

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
    """The signed session cookie, marked Secure when the request itself is secure."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


HSTS = "max-age=31536000"
"""A year: once a browser has the site over HTTPS, it never asks for it over plain HTTP."""


def add_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers.setdefault("Content-Security-Policy", current_app.config["CSP"])
    if response.mimetype == "text/html":
        response.headers.setdefault("Cache-Control", "no-store")
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", HSTS)
    return response


def init_app(app: Flask) -> None:
    app.config["CSP"] = CONTENT_SECURITY_POLICY.format(style_hash=app.config["INLINE_STYLE_HASH"])
    app.session_interface = SessionInterface()
    app.after_request(add_headers)
