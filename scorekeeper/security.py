"""What every response tells the browser: no third-party code, no framing, no referrer; and a
session cookie that is Secure whenever the page came over HTTPS."""

from __future__ import annotations

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.wrappers import Response

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; media-src 'self' data:; "
        "frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


class SessionInterface(SecureCookieSessionInterface):
    """The signed session cookie, marked Secure when the request itself is secure."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


def add_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_app(app: Flask) -> None:
    app.session_interface = SessionInterface()
    app.after_request(add_headers)
