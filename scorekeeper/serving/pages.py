"""Pages kept as drawn, by game version, and compressed once.

After every entry each phone at the table reloads the round page, and drawing it (loading the
game, scoring it, the template) costs several times what serving a file does. A drawn page is
kept under the game's version, as its live poll is given it (scorekeeper.serving.versions
.page_versions): a change made through any app process shows at its next poll, and on the phone
that made it at once; nothing else is kept between requests.

A page is kept under what it shows (game, version, scorer or viewer, language, time zone) and
without what differs from browser to browser: the session's form token and the address the
share links start with are marked in it, and filled in on the way out. The cache is bounded by
the bytes it holds.

A family's page may be drawn once for its scorer and those looking on alike: the parts only
one of them sees are marked (``templates/games/_roles.html``), and each copy is the drawing
with the other's parts cut out. After an entry the scorer's phone draws the page, and the
other phones at the table find theirs kept, or wait for it: in a server process, the page is
drawn once per change rather than twice (unless a viewer's phone asks first).
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from flask import Flask, abort, current_app, g, make_response, request, session
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from werkzeug.wrappers import Response

from scorekeeper.extensions import db
from scorekeeper.games.lookup import shown_alike
from scorekeeper.games.registry import Family
from scorekeeper.games.rights import every_phone_scores, is_scorer, remember
from scorekeeper.i18n import page_place
from scorekeeper.serving.compression import accepts_gzip, deflate_part, gzip_spliced
from scorekeeper.serving.versions import page_versions

SIGNED_TOKENS_KEPT = 20_000
signed_tokens: dict[tuple[object, str], str] = {}
signed_tokens_lock = threading.Lock()


def csrf_token() -> str:
    """The token this browser's forms carry (Flask-WTF's ``generate_csrf``), signed once for
    each browser's secret rather than on every page: signing it (JSON, HMAC, base64) cost a
    kept page with a form as much as the rest of its answer. A token signed earlier is as good
    as a new one where tokens have no time limit (``WTF_CSRF_TIME_LIMIT``, the app's default),
    and the signature is made with the app's key over the browser's own secret, kept in its
    session."""
    if current_app.config.get("WTF_CSRF_TIME_LIMIT") is not None:
        return str(generate_csrf())  # a token that expires is signed anew each time
    token: str | None = g.get("csrf_token")  # signed already in this request, for a form
    raw = session.get("csrf_token")
    if token is None and isinstance(raw, str):
        token = signed_tokens.get((current_app.secret_key, raw))
        if token is not None:
            g.csrf_token = token
            return token
    if token is None:
        token = str(generate_csrf())
        raw = session.get("csrf_token")  # made with the first token this browser is given
    if isinstance(raw, str):
        with signed_tokens_lock:
            signed_tokens[(current_app.secret_key, raw)] = token
            while len(signed_tokens) > SIGNED_TOKENS_KEPT:
                del signed_tokens[next(iter(signed_tokens))]  # the first signed
    g.csrf_token = token
    return token


CSRF_MARK = "\x00csrf-token\x00"
FILL_INS: dict[str, Callable[[], str]] = {CSRF_MARK: csrf_token}
"""What differs from browser to browser in a kept page, by the mark that stands for it in the
page as kept (see :func:`per_browser`)."""
LIMIT_BYTES = 32 * 1024 * 1024
ROLE_MARKS = {
    "scorer": (Markup("\x00scorer\x00"), Markup("\x00/scorer\x00")),
    "viewer": (Markup("\x00viewer\x00"), Markup("\x00/viewer\x00")),
}
"""Around what only the scorer sees, or only those looking on, in a page drawn for both."""
ROLE_PARTS = {
    role: re.compile(re.escape(start) + ".*?" + re.escape(end), re.DOTALL)
    for role, (start, end) in ROLE_MARKS.items()
}


@dataclass(frozen=True)
class KeptPage:
    """A page cut at its fill-ins: ``parts[0] + fill-in of marks[0] + parts[1] + ...``."""

    parts: tuple[bytes, ...]
    marks: tuple[str, ...]
    deflated: tuple[bytes, ...]
    last: list[tuple[tuple[bytes, ...], bytes]] = field(default_factory=list, compare=False)
    """The last copy compressed, with its fill-ins: a phone reloading a page it was just sent
    (a table's, a director's) is sent it again as it is."""

    @classmethod
    def of(cls, page: str) -> KeptPage:
        parts, marks = [], []
        rest = page
        known = tuple(FILL_INS)
        while True:
            found = [(rest.find(mark), mark) for mark in known if mark in rest]
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
        """Its bytes, raw and compressed, and as much again for the last copy sent."""
        return sum(map(len, self.parts)) + 2 * sum(map(len, self.deflated))

    def response(self) -> Response:
        """This browser's copy: compressed if it accepts gzip."""
        values = {mark: FILL_INS[mark]().encode() for mark in set(self.marks)}
        between = [values[mark] for mark in self.marks]
        if accepts_gzip():
            fill_ins = tuple(between)
            last = self.last[-1] if self.last else None
            if last is not None and last[0] == fill_ins:
                body = last[1]
            else:
                body = gzip_spliced(self.parts, self.deflated, between)
                self.last[:] = [(fill_ins, body)]
            response = Response(body, mimetype="text/html")
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

    def clear(self) -> None:
        """Forget every page kept (each is drawn again when next asked for)."""
        with self.lock:
            self.pages.clear()
            self.size = 0

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


def per_browser(value: Callable[[], str]) -> str:
    """``value()``; in a page being drawn to keep, a mark that each browser's copy fills in
    with a ``value()`` of its own (the address the share links start with: never another
    browser's Host)."""
    if not drawing_to_keep():
        return value()
    mark = f"\x00{value.__module__}.{value.__qualname__}\x00"
    FILL_INS.setdefault(mark, value)
    return mark


def drawing_for_both_roles() -> bool:
    """Whether the page being drawn is the scorer's and the viewers' at once: what only one of
    them sees must then be marked (``templates/games/_roles.html``)."""
    return bool(g.get("drawing_for_both_roles"))


def as_seen_by(page: str, role: str) -> str:
    """A page drawn for both roles, as ``role`` ("scorer" or "viewer") sees it: the other
    role's parts cut out, and the marks around this role's own taken away."""
    other = "viewer" if role == "scorer" else "scorer"
    start, end = ROLE_MARKS[role]
    return ROLE_PARTS[other].sub("", page).replace(start, "").replace(end, "")


@dataclass(frozen=True)
class ScorerAndViewer:
    """The keys of a page's two copies, asked for by its scorer: the scorer's, and the one
    for those looking on. (A viewer's request draws the viewers' copy alone: drawing the
    scorer's forms would give the viewer's session a form token it has no use for.)"""

    scorer: Hashable
    viewer: Hashable
    alike: Callable[[], bool] = lambda: True
    """Whether, once the page is drawn, the viewers' copy may be cut from it: not where the
    game shows them other names than its scorer sees (a circle's people who chose initials);
    they then draw their own."""


def cached_page(key: Hashable | ScorerAndViewer, draw: Callable[[], str]) -> Response | str:
    """The page kept under ``key``, else ``draw()``'s, kept for the next request.

    ``key`` must name everything the page shows but its fill-ins (the game's version, the
    language, the time zone, whether this browser scores); a page carrying a one-time message
    is not kept. Given :class:`ScorerAndViewer`, the page is drawn for both roles and both
    copies are kept.
    """
    if session.get("_flashes"):
        return draw()
    asked = key.scorer if isinstance(key, ScorerAndViewer) else key
    cache: PageCache = current_app.extensions["page_cache"]
    page = cache.get(asked)
    if page is None:
        # The phones looking on that reload meanwhile wait for the copy drawn for them too.
        # (A scorer takes its lock first, then theirs; they take theirs alone.)
        viewers = (
            cache.drawn_once(key.viewer)
            if isinstance(key, ScorerAndViewer)
            else contextlib.nullcontext()
        )
        with cache.drawn_once(asked), viewers:
            page = cache.get(asked)
            if page is None:
                if isinstance(key, ScorerAndViewer) and cache.get(key.viewer) is not None:
                    key = asked  # a viewer's phone drew theirs first
                page = keep_drawn(cache, key, draw)
    return page.response()


def keep_drawn(
    cache: PageCache, key: Hashable | ScorerAndViewer, draw: Callable[[], str]
) -> KeptPage:
    both = isinstance(key, ScorerAndViewer)
    g.drawing_to_keep, g.drawing_for_both_roles = True, both
    try:
        drawn = draw()
    finally:
        g.drawing_to_keep = g.drawing_for_both_roles = False
    token = g.get("csrf_token")  # set by generate_csrf() when the page has a form
    if token:
        drawn = drawn.replace(token, CSRF_MARK)
    if not isinstance(key, ScorerAndViewer):
        page = KeptPage.of(drawn)
        cache.put(key, page)
        return page
    scorers = KeptPage.of(as_seen_by(drawn, "scorer"))
    if key.alike():
        cache.put(key.viewer, KeptPage.of(as_seen_by(drawn, "viewer")))
    cache.put(key.scorer, scorers)
    return scorers


def kept_page(
    family: Family,
    game_id: str,
    draw: Callable[[], str],
    *varies: Hashable,
    for_both_roles: bool = False,
    opens_the_game: bool = True,
    part: int | None = None,
) -> Response | str:
    """A game's page, kept as drawn under what it shows: its family and id, its version,
    scorer or viewer, the language and the time zone, and what else it ``varies`` with (the
    day, for a form that offers today's date; a club table and its round). A page whose
    template marks what only its scorer or only its viewers see is drawn ``for_both_roles``
    when its scorer asks: the phones looking on then find their copy kept. A page that
    ``opens_the_game`` notes the game among this browser's (not a club table's page, whose
    link gives that table alone). The page of one of the game's ``part``s (a club table's) may
    follow that part's version (``g.part_version``) rather than the game's, and is kept under
    both."""
    versions = page_versions(game_id, family.key, part)
    if versions is None:
        abort(404)
    version, part_version = versions
    g.part_version = part_version
    # The page follows the version read before any of its own reads: a change committed
    # while it is drawn may show in some of them and not in others, and only a version older
    # than all of them makes the phone reload until the page shows that change.
    g.page_version = version
    if opens_the_game:
        remember(game_id)
    scorer = is_scorer(game_id, family.key)

    where = page_place()

    secure = request.is_secure  # over HTTPS a page offers its service worker

    def key(scorer: bool) -> Hashable:
        return (family.key, game_id, version, part, part_version, scorer, secure, *where, *varies)

    # Where every phone scores, the phones looking on are the few given the follow link: they
    # draw their own copy when they ask.
    both = for_both_roles and scorer and not every_phone_scores(family.key)
    alike = [True]

    def drawn() -> str:
        page = draw()
        # Asked while the rows the page was drawn from are at hand: for a game of no circle,
        # without a statement.
        alike[0] = not both or shown_alike(game_id)
        return page

    kept = ScorerAndViewer(key(True), key(False), lambda: alike[0]) if both else key(scorer)
    return cached_page(kept, lambda: drawn_outside_a_transaction(drawn))


OFFLINE = "Scorekeeper-Offline"
"""The header marking a page the phone's service worker keeps for the network's outages
(static/service-worker.js): pages drawn for this phone, which it will need with the network
down. Every other page is let go."""


def kept_offline(page: Response | str) -> Response:
    """``page``, marked for the phone to keep for when the network is down."""
    answer = make_response(page)
    answer.headers[OFFLINE] = "keep"
    return answer


def drawn_outside_a_transaction(draw: Callable[[], str]) -> str:
    """``draw()``, its reads made outside a transaction when none has begun yet.

    Drawing a page only reads. On PostgreSQL a transaction costs two round trips more (BEGIN,
    and ROLLBACK at the end), and each round trip waits for the interpreter while another
    thread computes; its statements would not see one state of the game anyway (each one reads
    what is committed when it starts, PostgreSQL's default). The connection goes back to the
    pool once the page is drawn, so that nothing later in the request writes outside a
    transaction.

    On SQLite the driver begins a transaction only to write: the reads are made outside one
    as they are. There, setting the connection's isolation level back as it returned to the
    pool was a statement more (``PRAGMA read_uncommitted``), which gave up the interpreter and
    waited for it again while other threads computed: under a club night's load, a tenth of
    a table page's time (``bench/waits.py --apart``)."""
    if db.session().in_transaction() or db.engine.dialect.name == "sqlite":
        return draw()
    db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
    try:
        return draw()
    finally:
        db.session.rollback()  # no statement: there is no transaction to end


def init_app(app: Flask) -> None:
    app.extensions["page_cache"] = PageCache()
    app.jinja_env.globals["role_marks"] = ROLE_MARKS
