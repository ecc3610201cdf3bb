"""Every family's pages as a French reader sees them: decimals with a comma, plurals that agree
with their number (0 and 1 take the singular in French), no "(s)", and the no-break space French
puts before ":", ";", "!" and "?". The English pages' plurals agree too."""

from __future__ import annotations

import html
import re

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.club.labels import file_message
from scorekeeper.rules.files import FileRule
from scorekeeper.rules.pbn import PbnError
from tests.web.families import every_familys_pages
from tests.web.table import text
from tests.web.test_bridge import Evening
from tests.web.test_i18n import CATALOG

DECIMAL_POINT = re.compile(r"(?<!PBN )(?<!USEBIO )\d\.\d")
"""A figure written the English way; a file format's version (PBN 2.0) is part of its name."""
HAND_MADE_PLURAL = re.compile(r"\w\((e?s|x)\)")
FRENCH_PLURAL_AFTER_ONE = re.compile(r"(?<![\d,.])[01] (\w+s)\b")
ENGLISH_PLURAL_AFTER_ONE = re.compile(r"(?<![\d,.])1 ([A-Za-z]+s)\b")
NO_SPACE_BEFORE = re.compile(r"(?<![\u00a0\u202f])[;!?]|(?<![\u00a0\u202f\d]):(?!//)")
"""French puts a no-break space before these signs (the catalog's U+00A0, or a narrow one);
a time (20:30) and an address (http://) are not punctuation."""


def read(page: str) -> list[str]:
    """What a reader sees or hears of a page: the text of each element, and its labels."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    labels = re.findall(r'(?:aria-label|title|alt|placeholder)="([^"]*)"', page)
    texts = re.split(r"<[^>]+>", page)
    # Whitespace as HTML collapses it: the no-break spaces stay.
    return [re.sub(r"[ \t\r\n]+", " ", html.unescape(t)) for t in [*texts, *labels] if t.strip()]


def test_every_familys_pages_read_as_french_is_written(client: FlaskClient) -> None:
    urls = every_familys_pages(client)
    client.get("/")  # the last entry's message, said in English, shown and gone
    client.set_cookie("language", "fr")
    found = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        for line in read(text(response)):
            faults = [
                *DECIMAL_POINT.findall(line),
                *HAND_MADE_PLURAL.findall(line),
                *FRENCH_PLURAL_AFTER_ONE.findall(line),
                *NO_SPACE_BEFORE.findall(line),
            ]
            if faults:
                found.append(f"{url}: {line!r} {faults}")
    assert not found, "\n".join(found)


def test_every_familys_pages_in_english_say_one_in_the_singular(client: FlaskClient) -> None:
    found = []
    for url in every_familys_pages(client):
        for line in read(text(client.get(url))):
            if ENGLISH_PLURAL_AFTER_ONE.search(line) or HAND_MADE_PLURAL.search(line):
                found.append(f"{url}: {line!r}")
    assert not found, "\n".join(found)


def test_every_french_message_puts_a_no_break_space_before_its_punctuation() -> None:
    with open(CATALOG / "messages.po", "rb") as po:
        catalog = read_po(po, locale="fr")
    found = []
    for entry in catalog:
        if not entry.id:
            continue  # the header
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        found += [string for string in strings if string and NO_SPACE_BEFORE.search(string)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "6♠ can make at most 1 overtrick: 13 tricks is all there are."),
        ("fr", "6♠ peut faire au plus 1 levée de mieux\u00a0: il n'y a que 13 levées."),
    ],
)
def test_a_contract_refused_says_one_overtrick_in_the_singular(
    client: FlaskClient, language: str, message: str
) -> None:
    evening = Evening(client)
    evening.start()
    client.set_cookie("language", language)
    response = evening.deal(1, level=6, strain="S", declarer="N", doubled=0, result=2)
    assert response.status_code == 422 and message in html.unescape(text(response))


def test_a_files_figures_in_a_message_are_written_as_the_reader_writes_numbers(
    app: Flask,
) -> None:
    too_large = PbnError(FileRule.TOO_LARGE, size=6_000_000, most=5_000_000)
    with app.test_request_context(headers={"Accept-Language": "fr-FR"}):
        assert file_message(too_large) == (
            "Le fichier fait 6\u202f000\u202f000 octets\u00a0; un fichier de résultats est lu"
            " jusqu'à 5\u202f000\u202f000."
        )
    with app.test_request_context(headers={"Accept-Language": "en-GB"}):
        assert "6,000,000 bytes" in file_message(too_large)
