"""French and English stay complete: every message of the code and templates is translated,
and the compiled catalog the app loads is the one its source gives."""

from __future__ import annotations

import gettext
import io
import re
from datetime import datetime
from pathlib import Path

import pytest
from babel import localedata
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, render_template_string
from flask.testing import FlaskClient
from flask_babel import force_locale, format_datetime, get_locale, refresh

from scorekeeper import errors
from scorekeeper.i18n import known_locales
from tests.web.table import Table, text

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "scorekeeper" / "translations" / "fr" / "LC_MESSAGES"
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "_l": None, "lazy_gettext": None}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


def source_messages() -> set[str]:
    methods = [("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2")]
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map=methods, keywords=KEYWORDS
    ):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def french() -> object:
    with open(CATALOG / "messages.po", "rb") as po:
        return read_po(po, locale="fr")


def test_every_message_has_a_french_translation() -> None:
    catalog = french()
    messages = source_messages()
    assert "Start a game" in messages and "Enter %(name)s's bid." in messages
    missing = []
    for message_id in sorted(messages):
        entry = catalog.get(message_id)  # type: ignore[attr-defined]
        strings = entry.string if entry else None
        strings = strings if isinstance(strings, tuple) else (strings,)
        if entry is None or entry.fuzzy or not all(strings):
            missing.append(message_id)
    assert not missing, "untranslated (run the README's translation commands):\n" + "\n".join(
        missing
    )


def test_translations_keep_every_placeholder() -> None:
    for entry in french():  # type: ignore[attr-defined]
        if not entry.id:
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        wanted = sorted(set(PLACEHOLDER.findall(ids[-1])))
        for string in strings:
            assert sorted(set(PLACEHOLDER.findall(string))) == wanted, (ids, string)


def loaded(compiled: bytes) -> dict[object, str]:
    """A compiled catalog as gettext loads it: every translation, and the plural rule of its
    header. The rest of the header (the Babel version that compiled it) says nothing of what
    a reader sees, so a newer Babel does not make an up-to-date catalog look stale."""
    translations = gettext.GNUTranslations(io.BytesIO(compiled))
    messages = dict(translations._catalog)  # type: ignore[attr-defined]
    header = messages.pop("")
    messages["plural rule"] = re.search(r"^Plural-Forms: (.*)$", header, re.MULTILINE)[1]  # type: ignore[index]
    return messages


def test_the_compiled_catalog_is_up_to_date() -> None:
    compiled = io.BytesIO()
    write_mo(compiled, french())  # type: ignore[arg-type]
    assert loaded((CATALOG / "messages.mo").read_bytes()) == loaded(compiled.getvalue()), (
        "messages.mo is older than messages.po: run pybabel compile (README, Translations)"
    )


# --- Any browser's language header gives a page in French or English -------------------------


def browser_language_tags() -> list[str]:
    """Real tags as browsers send them: every language-region pair Babel knows (pt-BR, de-CH),
    and French and English with every region, known to Babel for them or not (en-BR, fr-US)."""
    identifiers = localedata.locale_identifiers()
    regions = sorted({i.split("_")[-1] for i in identifiers if len(i.split("_")[-1]) == 2})
    tags = {i.replace("_", "-") for i in identifiers if i.count("_") == 1}
    tags |= {f"{language}-{region}" for language in ("en", "fr") for region in regions}
    return sorted(tags)


def accept_language(tag: str) -> str:
    """A header as a phone set to ``tag`` sends it: its language, then English in its region."""
    language, _sep, region = tag.partition("-")
    return f"{tag},{language};q=0.9,en-{region or 'US'};q=0.8,fr-{region or 'FR'};q=0.7"


def test_every_browser_language_gives_french_or_english(app: Flask) -> None:
    tags = browser_language_tags()
    assert len(tags) > 500 and "en-BR" in tags and "fr-US" in tags and "pt-BR" in tags
    for tag in tags:
        with app.test_request_context(headers={"Accept-Language": accept_language(tag)}):
            locale = get_locale()
            assert locale is not None and locale.language in ("en", "fr"), tag
            assert format_datetime(datetime(2026, 11, 23, 20, 30)), tag
            regional = tag.replace("-", "_")
            if re.fullmatch("(en|fr)_[A-Z]{2}", regional) and regional in known_locales():
                assert str(locale) == regional  # the region kept where Babel knows it


def test_templates_follow_a_language_changed_within_the_request(app: Flask) -> None:
    """A template's strings come from the request's catalogue, found once a request; a
    language changed within the request is followed."""
    dealer = '{{ _("Dealer") }} {{ ngettext("%(num)d card", "%(num)d cards", 2) }}'
    with app.test_request_context(headers={"Accept-Language": "fr-FR,fr;q=0.9"}):
        assert render_template_string(dealer) == "Donneur 2 cartes"
        with force_locale("en"):
            assert render_template_string(dealer) == "Dealer 2 cards"
        assert render_template_string(dealer) == "Donneur 2 cartes"
        refresh()  # the language chosen again, as after a change of the language cookie
        assert render_template_string(dealer) == "Donneur 2 cartes"


ISSUE_HEADERS = [
    "pt-BR,pt;q=0.9,en-BR;q=0.8",
    "en-MX",
    "en-JP,ja;q=0.5",
    "fr-DE",
    "fr-US,en;q=0.5",
    "fr-GB",
    "fr-ES",
    "en_BR",
    "EN-br",
    "fr-419",
    "fr-Latn-FR",
    "*",
    ";;;,,,q=x",
    "x" * 300,
]


def test_every_page_kind_answers_in_every_language(game: Table) -> None:
    sample = browser_language_tags()[::9]
    headers = ISSUE_HEADERS + [accept_language(tag) for tag in sample]
    game_url = game.game_url
    pages = [
        "/",
        "/ascenseur/new",
        "/ascenseur/new/ascenseur",
        "/ascenseur/new/ascenseur/preview?players-0=A&players-1=B",
        game_url,
        f"{game_url}/sheet",
        f"{game_url}/sheet.csv",
        f"{game_url}/game.json",
        f"{game_url}/rounds/1/edit",
        f"{game_url}/qr/viewer.svg",
        "/ascenseur/import",
        "/language/fr?next=/",
        "/no-such-page",
        f"{game_url}-nope",
    ]
    for header in headers:
        for url in pages:
            response = game.client.get(url, headers={"Accept-Language": header})
            assert response.status_code in (200, 302, 404), (header, url, response.status_code)
            if response.status_code != 302 and text(response).startswith("<!doctype html>"):
                assert re.search(r'<html lang="(en|fr)">', text(response)), (header, url)


def test_an_error_page_that_cannot_be_drawn_still_answers(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("the layout itself fails")

    monkeypatch.setattr(errors, "render_template", broken)
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert "Error 404" in text(response) and "Retour aux parties" in text(response)


@pytest.mark.parametrize(
    "back", ["//evil.example/", "/\\evil.example/", "/\\/evil.example", "https://evil.example/"]
)
def test_the_language_switch_goes_back_only_to_this_site(client: FlaskClient, back: str) -> None:
    response = client.get("/language/fr", query_string={"next": back})
    assert response.status_code == 302 and response.headers["Location"] == "/"
