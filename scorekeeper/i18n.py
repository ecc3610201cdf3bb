"""French and English: the browser's preference, or the choice made in the page footer; and
French's elisions before the names a message is given (d'Anne, de Bruno)."""

import os
import re
import unicodedata
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any
from urllib.parse import urlsplit

from babel import localedata
from babel.support import NullTranslations
from flask import Blueprint, Flask, current_app, g, redirect, request
from flask_babel import Domain, get_locale, get_translations
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
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


ELIDING = re.compile(r"\b([Dd]e|[Qq]ue) %\((\w+)\)s")
"""The words French elides before a vowel, when a name follows them in a message."""


def begins_with_a_vowel_sound(name: str) -> bool:
    """Whether French elides "de" and "que" before ``name``: it begins with a vowel (accented
    or not, Élodie, Œdipe), an h (mute in the first names a table writes: Hélène, Hugo), or a y
    before a consonant (Yves, but Yann)."""
    # Each letter without its accents (É is E and an acute accent).
    first, second = (unicodedata.normalize("NFD", c)[0] for c in f"{name[:2].casefold():2}")
    if first == "y":
        return second.isalpha() and second not in "aeiouy"
    return first in "aeiouhœæ"


def with_elisions(message: str, variables: Mapping[str, Any]) -> str:
    """A translated message, before its names are put in: "de %(name)s" becomes
    "d'%(name)s" where the name begins with a vowel sound, and "que" "qu'" (the French
    messages write "de" and "que" before every name; English has nothing of the kind)."""
    if "e %(" not in message:
        return message

    def elided(found: re.Match[str]) -> str:
        name = variables.get(found[2])
        if isinstance(name, str) and begins_with_a_vowel_sound(name):
            return f"{found[1][:-1]}'%({found[2]})s"
        return found[0]

    return ELIDING.sub(elided, message)


def put_in(message: object, values: Mapping[str, Any]) -> str:
    """A message translated earlier (a lazy string), with its ``values`` put in."""
    return with_elisions(str(message), values) % values


class ElidingDomain(Domain):
    """Flask-Babel's messages, with French's elisions before the names they are given."""

    def gettext(self, string: str, **variables: Any) -> str:
        message = self.get_translations().ugettext(string)
        return with_elisions(message, variables) % variables if variables else message

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str:
        variables.setdefault("num", num)
        message = self.get_translations().ungettext(singular, plural, num)
        return with_elisions(message, variables) % variables

    def pgettext(self, context: str, string: str, **variables: Any) -> str:
        message = self.get_translations().upgettext(context, string)
        return with_elisions(message, variables) % variables if variables else message

    def npgettext(
        self, context: str, singular: str, plural: str, num: int, **variables: Any
    ) -> str:
        variables.setdefault("num", num)
        message = self.get_translations().unpgettext(context, singular, plural, num)
        return with_elisions(message, variables) % variables


def page_message(context: Context, message: str, variables: Mapping[str, Any]) -> str:
    """A template's message with its values put in, as Jinja's i18n extension does it (a
    page's message is markup, its values escaped), and French's elisions."""
    message = with_elisions(message, variables)
    return (Markup(message) if context.eval_ctx.autoescape else message) % variables


@pass_context
def page_gettext(context: Context, string: str, **variables: Any) -> str:
    return page_message(context, request_catalogue().ugettext(string), variables)


@pass_context
def page_ngettext(context: Context, singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    message = request_catalogue().ungettext(singular, plural, num)
    return page_message(context, message, variables)


@pass_context
def page_pgettext(context: Context, msgctxt: str, string: str, **variables: Any) -> str:
    return page_message(context, request_catalogue().upgettext(msgctxt, string), variables)


@pass_context
def page_npgettext(
    context: Context, msgctxt: str, singular: str, plural: str, num: int, **variables: Any
) -> str:
    variables.setdefault("num", num)
    message = request_catalogue().unpgettext(msgctxt, singular, plural, num)
    return page_message(context, message, variables)


def current_language() -> str:
    """The page's language, for its ``lang`` (English outside a request)."""
    locale = get_locale()
    return locale.language if locale else "en"


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_TIMEZONE", local_timezone())
    babel.init_app(app, locale_selector=select_locale)
    babel.domain_instance = ElidingDomain()
    # In place of the calls Flask-Babel gives Jinja's i18n extension, which find the catalogue
    # anew for each message, and which put its values in without French's elisions.
    app.jinja_env.globals.update(
        gettext=page_gettext,
        ngettext=page_ngettext,
        pgettext=page_pgettext,
        npgettext=page_npgettext,
    )
    app.register_blueprint(bp)
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
    app.jinja_env.globals["current_locale"] = current_language
