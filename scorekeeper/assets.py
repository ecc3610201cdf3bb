"""The app's own files (stylesheet, script, icon, video) under addresses that name their
content: ``/static/style.css?v=<hash>``. A browser keeps such a file for a year without asking
again, since a changed file gets a new address; the text files are sent compressed."""

from __future__ import annotations

import base64
import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, abort, current_app, request
from markupsafe import Markup
from werkzeug.wrappers import Response

from scorekeeper.serving import COMPRESSIBLE, accepts_gzip

YEAR = 365 * 24 * 3600
STYLESHEET = "style.css"
"""Carried inside every page: a phone on a slow network paints the page without waiting a
round trip for it (3.5 KB compressed, against 150 ms or more of latency)."""


@dataclass(frozen=True)
class Asset:
    content: bytes
    version: str
    mimetype: str
    gzipped: bytes | None
    """The file compressed, for the text files."""


def read_assets(folder: Path) -> dict[str, Asset]:
    assets = {}
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        content = path.read_bytes()
        mimetype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        compressible = mimetype in COMPRESSIBLE
        assets[path.relative_to(folder).as_posix()] = Asset(
            content=content,
            version=hashlib.sha256(content).hexdigest()[:12],
            mimetype=mimetype,
            gzipped=gzip.compress(content, 9, mtime=0) if compressible else None,
        )
    return assets


def add_version(endpoint: str, values: dict[str, Any]) -> None:
    """``url_for("static", filename=...)`` gives the address that names the file's content."""
    if endpoint == "static" and "v" not in values:
        asset = current_app.extensions["assets"].get(values.get("filename", ""))
        if asset is not None:
            values["v"] = asset.version


def static_file(filename: str) -> Response:
    """A file of ``static/``: for a year when asked for by its content's address."""
    asset: Asset | None = current_app.extensions["assets"].get(filename)
    if asset is None:
        abort(404)
    if asset.gzipped is not None and accepts_gzip():
        response = Response(asset.gzipped, mimetype=asset.mimetype)
        response.headers["Content-Encoding"] = "gzip"
        response.set_etag(f"{asset.version}-gzip")
    else:
        response = Response(asset.content, mimetype=asset.mimetype)
        response.set_etag(asset.version)
    if asset.gzipped is not None:
        response.vary.add("Accept-Encoding")
    if request.args.get("v") == asset.version:
        response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    # Ranges too: a phone's browser asks for the video in pieces.
    return response.make_conditional(
        request, accept_ranges=True, complete_length=len(response.get_data())
    )


SERVICE_WORKER = "service-worker.js"


def service_worker() -> Response:
    """The service worker (static/service-worker.js), from the site's root so that it may keep
    any page of the site; asked for again at each visit, so that a new one takes over."""
    asset: Asset = current_app.extensions["assets"][SERVICE_WORKER]
    response = Response(asset.content, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(asset.version)
    return response.make_conditional(request)


def data_url(filename: str) -> str:
    """The file as a ``data:`` address: the icon comes with the page, with no request of its
    own (a browser asks for the icon again on every reload)."""
    asset: Asset = current_app.extensions["assets"][filename]
    return f"data:{asset.mimetype};base64,{base64.b64encode(asset.content).decode()}"


def init_app(app: Flask) -> None:
    app.extensions["assets"] = read_assets(Path(str(app.static_folder)))
    app.jinja_env.globals["data_url"] = data_url
    stylesheet = (Path(str(app.static_folder)) / STYLESHEET).read_text(encoding="utf-8")
    app.jinja_env.globals["stylesheet"] = Markup(stylesheet)
    digest = base64.b64encode(hashlib.sha256(stylesheet.encode()).digest()).decode()
    app.config["INLINE_STYLE_HASH"] = f"sha256-{digest}"
    app.url_defaults(add_version)
    app.view_functions["static"] = static_file
    app.add_url_rule(f"/{SERVICE_WORKER}", "service_worker", service_worker)
