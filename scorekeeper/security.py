"""What every response tells the browser: no third-party code, no framing, no referrer to
other sites; pages and files (which carry a form's token, a scorer's view, a session's results)
kept in no cache; and, over HTTPS, HTTPS only from now on and a session cookie marked Secure.

A form is taken only from this site's own pages: besides its token, the page it was sent from
(the Origin a browser sends with every form, or else its Referer) must be this site. Flask-WTF's
own check over HTTPS demands a Referer, which a browser may leave out; today's browsers send
the Origin with every form, so it is the one checked. A form with neither (an older browser) is
taken on its token alone."""

from __future__ import annotations

from time import monotonic
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Request, abort, current_app, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_wtf.csrf import CSRFError
from itsdangerous import URLSafeTimedSerializer
from werkzeug.wrappers import Response

from scorekeeper.serving import POLL_PATH

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; style-src 'self' '{style_hash}'; img-src 'self' data:; "
    "media-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)
"""The app's own files only; the one inline stylesheet by its hash (see assets.STYLESHEET)."""
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    # This site's own pages say where a form came from; no other site learns an address of
    # this one (a table's link is a secret).
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
DEFAULT_PORTS = {"http": 80, "https": 443}


class ForeignFormError(CSRFError):
    """A form sent from another site's page."""


def sent_from_this_site(source: str) -> bool:
    """Whether the page at ``source`` (an Origin or a Referer) is this site's: the same host
    and port, over HTTPS when this request is. A page over HTTPS sending to a plain request
    has a TLS proxy in front that did not say so (SCOREKEEPER_BEHIND_PROXY): the host alone
    is compared, the proxy's port being unknown here."""
    try:
        theirs, ours = site_of(source), site_of(request.host_url)
    except ValueError:  # not an address ("null"), or a port out of range
        return False
    if theirs[0] == "https" and ours[0] == "http":
        return theirs[1] == ours[1]
    return theirs == ours


def site_of(url: str) -> tuple[str, str, int]:
    """An address's scheme, host and port."""
    parts = urlsplit(url)
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        raise ValueError(url)
    return parts.scheme, parts.hostname, parts.port or DEFAULT_PORTS[parts.scheme]


def refuse_a_form_from_another_site() -> None:
    if request.method in SAFE_METHODS:
        return
    source = request.headers.get("Origin") or request.referrer
    if source is not None and not sent_from_this_site(source):
        raise ForeignFormError(f"A form sent from {source!r}.")


class SessionInterface(SecureCookieSessionInterface):
    """The signed session cookie, marked Secure when the request itself is secure, and not
    even read for the live poll, which needs none (see scorekeeper.serving.live)."""

    def __init__(self) -> None:
        self.kept_serializer: tuple[object, URLSafeTimedSerializer | None] | None = None
        self.opened: dict[str, tuple[float, dict[str, Any]]] = {}
        """Cookies checked and read lately, by their signed value: what each holds, and until
        when it is taken from here."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """The session, its cookie checked and read once a minute at most: a phone sends the
        same cookie with every page it reloads, and checking its signature and reading it cost
        a kept page a tenth of its time. A cookie that fails the check is never kept."""
        if request.method == "GET" and request.path.endswith(POLL_PATH):
            return self.make_null_session(app)
        serializer = self.get_signing_serializer(app)  # a change of keys forgets every cookie
        cookie = request.cookies.get(self.get_cookie_name(app))
        if serializer is None or not cookie:
            return super().open_session(app, request)
        kept = self.opened.get(cookie)
        if kept is not None and monotonic() < kept[0]:
            # Its own lists: a request changes the session it is given, never the one kept.
            held = {k: list(v) if isinstance(v, list) else v for k, v in kept[1].items()}
            return self.session_class(held)
        session = super().open_session(app, request)
        if session is not None and session:  # an empty one: the cookie failed the check
            if len(self.opened) >= COOKIES_KEPT:
                self.opened = {}
            self.opened[cookie] = (monotonic() + COOKIE_KEPT_FOR, dict(session))
        return session

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's serializer, made once for the app's keys rather than twice a request."""
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        if self.kept_serializer is None or self.kept_serializer[0] != keys:
            self.kept_serializer = (keys, super().get_signing_serializer(app))
            self.opened = {}
        return self.kept_serializer[1]


COOKIE_KEPT_FOR = 60.0
"""Seconds a cookie read is taken from memory: its age is checked again (a session cookie
lasts 400 days) at least this often."""
COOKIES_KEPT = 20_000
"""Cookies kept at most (a club's room holds a few thousand phones): past it, all are let go."""


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
    # Pages, game files, sheets and results: none kept by a browser or a cache in between
    # (a shared phone's next user, a club's laptop). Files that may be kept say so themselves.
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
    app.config["WTF_CSRF_SSL_STRICT"] = False  # the Origin is checked instead
    # First of all, before the form's token is checked (which reads the body).
    first = app.before_request_funcs.setdefault(None, [])
    first[0:0] = [refuse_a_body_in_chunks, refuse_a_form_from_another_site]
    app.after_request(add_headers)
