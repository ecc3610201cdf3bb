"""How the games' pages and polls are served fast, behind one small interface: what this module
exports is all the rest of the app uses.

- :func:`kept_page`: a game's page, drawn once per change of the game and kept (``pages``);
- :func:`stored_version`: a game's version as the database has it now (``versions``);
- the live poll, answered before Flask, on PostgreSQL from what each server process was told of
  the games' changes (``live``, ``watch``): a write says nothing, the database tells;
- :func:`note_counted_elsewhere`: games whose pages show another game's change, counted
  changed with it (``watch``);
- pages and files sent compressed (``compression``).

The app factory wires it all with :func:`init_app`.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask

from scorekeeper.serving import compression, pages, versions
from scorekeeper.serving.compression import COMPRESSIBLE, accepts_gzip
from scorekeeper.serving.live import LIVE_PACE, POLL_PATH, LivePoll, poll_response
from scorekeeper.serving.pages import drawing_for_both_roles, kept_offline, kept_page, per_browser
from scorekeeper.serving.versions import stored_version
from scorekeeper.serving.watch import note_counted_elsewhere

__all__ = [
    "COMPRESSIBLE",
    "LIVE_PACE",
    "POLL_PATH",
    "accepts_gzip",
    "drawing_for_both_roles",
    "init_app",
    "kept_offline",
    "kept_page",
    "note_counted_elsewhere",
    "per_browser",
    "poll_response",
    "stored_version",
]


def init_app(app: Flask, headers: Callable[[bool], dict[str, str]]) -> None:
    """Wire the serving into the app: the version reads (and on PostgreSQL the watch), the page
    cache, compression, and the live poll in front of Flask, answered with ``headers(secure)``
    (what every answer carries)."""
    versions.init_app(app)
    pages.init_app(app)
    compression.init_app(app)
    app.jinja_env.globals["live_pace"] = LIVE_PACE.attribute()
    app.wsgi_app = LivePoll(  # type: ignore[method-assign]
        app.wsgi_app, app.extensions["version_reads"].polled_version, headers
    )
