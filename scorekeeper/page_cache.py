"""Round pages kept as drawn, by game version.

After every entry each phone at the table reloads the round page, and drawing it (loading the
game, scoring it, the template) costs several times what serving a file does. A drawn page is
kept under the game's version, which every request reads from the database, so a change made
through any app process shows at once; nothing else is kept between requests. The page is kept
without the session's CSRF token, which goes back in on the way out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import Flask, current_app, g, session
from flask_wtf.csrf import generate_csrf

CSRF_MARK = "\x00csrf-token\x00"


class PageCache:
    """The most recently drawn pages, at most ``size`` of them (a few MB)."""

    def __init__(self, size: int = 500) -> None:
        self.size = size
        self.pages: OrderedDict[Hashable, str] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self.lock:
            page = self.pages.get(key)
            if page is not None:
                self.pages.move_to_end(key)
            return page

    def put(self, key: Hashable, page: str) -> None:
        with self.lock:
            self.pages[key] = page
            self.pages.move_to_end(key)
            while len(self.pages) > self.size:
                self.pages.popitem(last=False)


def cached_page(key: Hashable, draw: Callable[[], str]) -> str:
    """The page kept under ``key``, else ``draw()``'s, kept for the next request.

    ``key`` must name everything the page shows (the game's version, the language, the time
    zone, the host, whether this browser scores); a page carrying a one-time message is not
    kept.
    """
    if session.get("_flashes"):
        return draw()
    cache: PageCache = current_app.extensions["page_cache"]
    page = cache.get(key)
    if page is None:
        page = draw()
        token = g.get("csrf_token")  # set by generate_csrf() when the page has a form
        cache.put(key, page.replace(token, CSRF_MARK) if token else page)
        return page
    return page.replace(CSRF_MARK, generate_csrf()) if CSRF_MARK in page else page


def init_app(app: Flask) -> None:
    app.extensions["page_cache"] = PageCache()
