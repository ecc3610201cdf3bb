"""Round pages kept as drawn, by game version, and compressed once.

After every entry each phone at the table reloads the round page, and drawing it (loading the
game, scoring it, the template) costs several times what serving a file does. A drawn page is
kept under the game's version, which every request reads from the database, so a change made
through any app process shows at once; nothing else is kept between requests.

A page is kept under what it shows (game, version, scorer or viewer, language, time zone) and
without what differs from browser to browser: the session's form token and the address the
share links start with are marked in it, and filled in on the way out. The cache is bounded by
the bytes it holds.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from flask import Flask, current_app, g, session
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from scorekeeper.compression import accepts_gzip, deflate_part, gzip_spliced

CSRF_MARK = "\x00csrf-token\x00"
SHARE_MARK = "\x00share-base\x00"
MARKS = (CSRF_MARK, SHARE_MARK)
LIMIT_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True)
class KeptPage:
    """A page cut at its fill-ins: ``parts[0] + fill-in of marks[0] + parts[1] + ...``."""

    parts: tuple[bytes, ...]
    marks: tuple[str, ...]
    deflated: tuple[bytes, ...]

    @classmethod
    def of(cls, page: str) -> KeptPage:
        parts, marks = [], []
        rest = page
        while True:
            found = [(rest.find(mark), mark) for mark in MARKS if mark in rest]
            if not found:
                break
            index, mark = min(found)
            parts.append(rest[:index])
            marks.append(mark)
            rest = rest[index + len(mark) :]
        parts.append(rest)
        encoded = tuple(part.encode() for part in parts)
        return cls(encoded, tuple(marks), tuple(deflate_part(part) for part in encoded))

    @property
    def size(self) -> int:
        return sum(map(len, self.parts)) + sum(map(len, self.deflated))

    def response(self, fill_ins: dict[str, Callable[[], str]]) -> Response:
        """This browser's copy: compressed if it accepts gzip."""
        values = {mark: fill_ins[mark]().encode() for mark in set(self.marks)}
        between = [values[mark] for mark in self.marks]
        if accepts_gzip():
            response = Response(
                gzip_spliced(self.parts, self.deflated, between), mimetype="text/html"
            )
            response.headers["Content-Encoding"] = "gzip"
        else:
            pieces = [self.parts[0]]
            for value, part in zip(between, self.parts[1:], strict=True):
                pieces += [value, part]
            response = Response(b"".join(pieces), mimetype="text/html")
        response.vary.add("Accept-Encoding")
        return response


class PageCache:
    """The most recently drawn pages, at most ``limit_bytes`` of them, raw and compressed."""

    def __init__(self, limit_bytes: int = LIMIT_BYTES) -> None:
        self.limit_bytes = limit_bytes
        self.size = 0
        self.pages: OrderedDict[Hashable, KeptPage] = OrderedDict()
        self.lock = threading.Lock()
        self.drawing: dict[Hashable, tuple[threading.Lock, list[int]]] = {}
        """A lock for each page being drawn, with how many requests wait on it."""

    def get(self, key: Hashable) -> KeptPage | None:
        with self.lock:
            page = self.pages.get(key)
            if page is not None:
                self.pages.move_to_end(key)
            return page

    @contextmanager
    def drawn_once(self, key: Hashable) -> Iterator[None]:
        """Let one request at a time draw the page: the phones at a table all reload it at the
        moment the game changes, and those after the first find it kept."""
        with self.lock:
            lock, waiting = self.drawing.setdefault(key, (threading.Lock(), [0]))
            waiting[0] += 1
        try:
            with lock:
                yield
        finally:
            with self.lock:
                waiting[0] -= 1
                if not waiting[0]:
                    del self.drawing[key]

    def put(self, key: Hashable, page: KeptPage) -> None:
        with self.lock:
            if (old := self.pages.pop(key, None)) is not None:
                self.size -= old.size
            self.pages[key] = page
            self.size += page.size
            while self.size > self.limit_bytes and self.pages:
                self.size -= self.pages.popitem(last=False)[1].size


def drawing_to_keep() -> bool:
    """Whether the page being drawn will be kept: its per-browser values must then be marks."""
    return bool(g.get("drawing_to_keep"))


def cached_page(
    key: Hashable, draw: Callable[[], str], share_base: Callable[[], str]
) -> Response | str:
    """The page kept under ``key``, else ``draw()``'s, kept for the next request.

    ``key`` must name everything the page shows but its fill-ins (the game's version, the
    language, the time zone, whether this browser scores); a page carrying a one-time message
    is not kept.
    """
    if session.get("_flashes"):
        return draw()
    cache: PageCache = current_app.extensions["page_cache"]
    page = cache.get(key)
    if page is None:
        with cache.drawn_once(key):
            page = cache.get(key) or keep_drawn(cache, key, draw)
    return page.response({CSRF_MARK: generate_csrf, SHARE_MARK: share_base})


def keep_drawn(cache: PageCache, key: Hashable, draw: Callable[[], str]) -> KeptPage:
    g.drawing_to_keep = True
    try:
        drawn = draw()
    finally:
        g.drawing_to_keep = False
    token = g.get("csrf_token")  # set by generate_csrf() when the page has a form
    page = KeptPage.of(drawn.replace(token, CSRF_MARK) if token else drawn)
    cache.put(key, page)
    return page


def init_app(app: Flask) -> None:
    app.extensions["page_cache"] = PageCache()
