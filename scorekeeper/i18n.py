"""French and English: the browser's preference, or the choice made in the page footer."""

import os
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Protocol, cast
from urllib.parse import urlsplit

from babel import localedata
from babel.support import NullTranslations
from flask import Blueprint, Flask, current_app, g, redirect, request
from flask_babel import get_locale, get_translations
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Response

from scorekeeper.extensions import babel

LANGUAGES = {"en": "English", "fr": "Français"}
COOKIE = "language"

bp = Blueprint("i18n", __name__)


@cache
def known_locales() -> frozenset[str]:
    """Every locale Babel has data for (en_GB, fr_CA, ... but no en_BR nor fr_US)."""
    return frozenset(localedata.locale_identifiers())


def select_locale() -> str:
    """The language chosen in the footer, else the browser's first French or English.

    The browser's region is kept where Babel knows it (en_GB, fr_CA) so dates and times read
    as at home; a region it does not know for that language (en-BR, fr-US) gives the
    language alone.
    """
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return language_asked(request.headers.get("Accept-Language", ""))


@lru_cache(maxsize=1024)
def language_asked(accept_language: str) -> str:
    """The locale a browser's ``Accept-Language`` asks for. Every page a phone reloads asks
    (a kept page is kept under its language), and a room's phones send a handful of headers
    between them: each is read once, not once a request."""
    for tag, _quality in parse_accept_header(accept_language, LanguageAccept):
        language, _sep, region = tag.replace("_", "-").partition("-")
        language = language.lower()
        if language in LANGUAGES:
            regional = f"{language}_{region.upper()}"
            if region.isalpha() and len(region) == 2 and regional in known_locales():
                return regional
            return language
    return "en"


def page_place() -> tuple[str, str]:
    """The language and the time zone a page is drawn in, as a kept page's key names them:
    what flask_babel's ``get_locale`` and ``get_timezone`` make their objects of, without
    their look-ups through its context (a seventh of a kept page's cost)."""
    return select_locale(), current_app.config["BABEL_DEFAULT_TIMEZONE"]


@bp.get("/language/<code>")
def switch(code: str) -> Response:
    """Remember the language chosen in the footer, and go back to the page it was chosen on."""
    back = request.args.get("next", "/")
    # A browser reads "/\evil.example" as "//evil.example": only a path of this site.
    if "\\" in back or urlsplit(back).netloc or not back.startswith("/") or back.startswith("//"):
        back = "/"
    response = redirect(back)
    if code in LANGUAGES:
        response.set_cookie(
            COOKIE,
            code,
            max_age=365 * 24 * 3600,
            samesite="Lax",
            httponly=True,
            secure=request.is_secure,
        )
    return response


def local_timezone() -> str:
    """The server's own time zone, so the times shown are the table's clock."""
    if os.environ.get("TZ"):
        return os.environ["TZ"]
    target = os.path.realpath("/etc/localtime")
    return target.partition("zoneinfo/")[2] or "UTC"


def request_catalogue() -> NullTranslations:
    """The catalogue of the request's language, found once: flask_babel finds it anew for
    every string, through context lookups that cost more than the translation, and a page asks
    for some fifty. It is found again where the language changes (flask_babel's
    ``force_locale`` or ``refresh``)."""
    if not g:  # no application context: flask_babel's untranslated strings
        return get_translations()
    locale = get_locale()
    kept: tuple[object, NullTranslations] | None = g.get("catalogue")
    if kept is None or kept[0] is not locale:
        kept = g.catalogue = (locale, get_translations())
    return kept[1]


class GettextInstaller(Protocol):
    """A Jinja environment with the i18n extension (Flask-Babel adds it), which gives the
    environment this method when it runs."""

    def install_gettext_callables(
        self,
        gettext: Callable[[str], str],
        ngettext: Callable[[str, str, int], str],
        newstyle: bool | None = None,
        pgettext: Callable[[str, str], str] | None = None,
        npgettext: Callable[[str, str, str, int], str] | None = None,
    ) -> None: ...


def current_language() -> str:
    """The page's language, for its ``lang`` (English outside a request)."""
    locale = get_locale()
    return locale.language if locale else "en"


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_TIMEZONE", local_timezone())
    babel.init_app(app, locale_selector=select_locale)
    cast(GettextInstaller, app.jinja_env).install_gettext_callables(
        gettext=lambda string: request_catalogue().ugettext(string),
        ngettext=lambda singular, plural, n: request_catalogue().ungettext(singular, plural, n),
        pgettext=lambda context, string: request_catalogue().upgettext(context, string),
        npgettext=lambda context, singular, plural, n: request_catalogue().unpgettext(
            context, singular, plural, n
        ),
        newstyle=True,
    )
    app.register_blueprint(bp)
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
    app.jinja_env.globals["current_locale"] = current_language
