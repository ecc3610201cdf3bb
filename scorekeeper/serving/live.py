"""The live poll: how often a phone that follows a game asks whether it changed, and the
answer, given before Flask wherever it can be.

Five phones at a table ask every few seconds, which makes the poll most of a server's traffic.
A phone asks often while the game moves, less once nothing has changed for a while (the table
is playing its cards), and not at all while its page is hidden (it asks at once when shown
again). The page carries the pace to the script; the benchmark's phones keep the same pace.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import TYPE_CHECKING

from flask import abort, current_app, request
from werkzeug.http import parse_etags
from werkzeug.wrappers import Response

from scorekeeper.serving.versions import stored_version

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


@dataclass(frozen=True)
class LivePace:
    moving_every: float = 2.0
    """Seconds between two questions in the first ``quiet_after`` seconds after a change."""
    quiet_every: float = 5.0
    """Seconds between two questions once the game has been quiet that long."""
    quiet_after: float = 15.0
    """What follows an entry within seconds is its correction or its undo; the next entry
    waits for a hand to be dealt and bid, or played. At a table entering a round a minute,
    asking every 2 s for 15 s rather than 30 s spares a fifth of the polls; the news of an
    entry made 15 to 30 s after the last comes up to 3 s later."""

    def every(self, quiet_for: float) -> float:
        """The wait before the next question, ``quiet_for`` seconds after the last change."""
        return self.moving_every if quiet_for < self.quiet_after else self.quiet_every

    def attribute(self) -> str:
        """The pace as the page gives it to the script: milliseconds, space-separated."""
        return " ".join(
            str(round(seconds * 1000))
            for seconds in (self.moving_every, self.quiet_every, self.quiet_after)
        )


LIVE_PACE = LivePace()
POLL_PATH = "/version"
"""How a game's poll address ends (``/<family>/<game id>/version``): it reads the game's version
and nothing else, not even the session cookie."""


POLL_ADDRESS = re.compile(
    r"/(?P<family>[a-z]+)/(?P<game_id>[A-Za-z0-9_-]{1,16})(?:/part/(?P<part>[1-9][0-9]{0,3}))?"
    + POLL_PATH
)
"""A game's poll, or one of its parts' (``/club/<id>/part/3/version``: a club table's phone)."""


def poll_answer(
    game_id: str, version: int, if_none_match: str | None, part: int | None = None
) -> tuple[int, dict[str, str], bytes]:
    """The answer to a poll: 304 while the phone's page shows this version, else the version."""
    etag = f"{game_id}-{version}" if part is None else f"{game_id}-{part}-{version}"
    headers = {"ETag": f'"{etag}"', "Cache-Control": "no-cache"}
    # A weak match is enough (RFC 9110): a proxy that compresses answers makes their tags weak.
    if parse_etags(if_none_match).contains_weak(etag):
        return 304, headers, b""
    body = json.dumps({"version": version}).encode()
    return 200, {**headers, "Content-Type": "application/json"}, body


def poll_response(game_id: str, family: str, part: int | None = None) -> Response:
    """The poll, as Flask's route answers it: a game (or part) that :class:`LivePoll` let
    through (one that does not exist: 404), or a database that failed there."""
    version = stored_version(game_id, family, part)
    if version is None:
        abort(404)
    status, headers, body = poll_answer(
        game_id, version, request.headers.get("If-None-Match"), part
    )
    return current_app.response_class(body, status, headers)


class LivePoll:
    """Answers the live poll of a game that exists before the request reaches Flask.

    The poll is most of a server's requests and needs nothing of Flask's: no session, no
    language, no form, no limit. Through Flask it cost some 450 µs of the server's time, the
    version read itself 15 µs; here it costs the read and the answer. Anything else, a game
    that does not exist or a database that fails, goes on to Flask, whose route gives the same
    answer or the page's own error. A poll's address is its family's key (a test holds every
    family to it)."""

    def __init__(
        self,
        wsgi_app: WSGIApplication,
        read_version: Callable[[str, str, int | None], int | None],
        headers: Callable[[bool], dict[str, str]],
    ) -> None:
        self.wsgi_app = wsgi_app
        self.read_version = read_version
        self.headers = headers

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD")
        address = POLL_ADDRESS.fullmatch(environ.get("PATH_INFO", ""))
        if address is None or method not in ("GET", "HEAD"):
            return self.wsgi_app(environ, start_response)
        part = int(address["part"]) if address["part"] else None
        try:
            version = self.read_version(address["game_id"], address["family"], part)
        except Exception:
            version = None  # Flask reads it again and shows the error as every page does
        if version is None:
            return self.wsgi_app(environ, start_response)
        status, headers, body = poll_answer(
            address["game_id"], version, environ.get("HTTP_IF_NONE_MATCH"), part
        )
        secure = environ.get("wsgi.url_scheme") == "https"
        headers = {**self.headers(secure), **headers}
        if status != 304:  # a 304 has no body, and no length but that of the 200 (RFC 9110)
            headers["Content-Length"] = str(len(body))
        start_response(f"{status} {HTTPStatus(status).phrase}", list(headers.items()))
        return [b""] if method == "HEAD" else [body]
