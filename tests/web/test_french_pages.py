"""Every family's pages as a French reader sees them: decimals with a comma, plurals that agree
with their number (0 and 1 take the singular in French), no "(s)", and the no-break space French
puts before ":", ";", "!" and "?". The English pages' plurals agree too."""

from __future__ import annotations

import html
import re

import pytest
from babel.messages.pofile import read_po
from flask import Flask, render_template_string
from flask.testing import FlaskClient
from flask_babel import gettext, ngettext

from scorekeeper.ascenseur.models import AscenseurGame, RoundRecord
from scorekeeper.circles.models import Circle
from scorekeeper.club.labels import file_message
from scorekeeper.extensions import db
from scorekeeper.games.models import Player
from scorekeeper.rules import ascenseur as rules
from scorekeeper.rules.files import FileRule
from scorekeeper.rules.pbn import PbnError
from tests.games import play_out
from tests.web.families import every_familys_pages
from tests.web.table import Table, text
from tests.web.test_bridge import Evening
from tests.web.test_circles import Keeper
from tests.web.test_echelons import Log
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


ELIDED_BEFORE = ["Anne", "Élodie", "Hélène", "Hugo", "Isabelle", "Œdipe", "Ugo", "Yves", "émile"]
NOT_ELIDED_BEFORE = ["Bruno", "Yann", "Yolande", "Zoé", "Chloé", "{name}", "12", "*Anne"]
"""First names French writes d'Anne or de Bruno after "de": a vowel, a mute h and a y before
a consonant elide; a consonant and a y before a vowel do not."""


def named_messages() -> list[tuple[str | tuple[str, str], str]]:
    """Every French message that puts a value right after "de" or "que", with its name."""
    with open(CATALOG / "messages.po", "rb") as po:
        catalog = read_po(po, locale="fr")
    found = []
    for entry in catalog:
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        for string in strings:
            for key in re.findall(r"\b(?:[Dd]e|[Qq]ue) %\((\w+)\)s", string or ""):
                found.append((entry.id, key))
    return found


def filled(message_id: str, key: str, name: str) -> dict[str, object]:
    """Values for every placeholder of a message: ``name`` for ``key``, 3 for the rest."""
    values: dict[str, object] = {k: 3 for k in re.findall(r"%\((\w+)\)d", message_id)}
    values |= {k: "x" for k in re.findall(r"%\((\w+)\)s", message_id)}
    return values | {key: name}


def test_every_french_message_elides_de_before_a_name_with_a_vowel_sound(app: Flask) -> None:
    messages = named_messages()
    assert ("Enter %(name)s's bid.", "name") in messages
    assert ("%(name)s's patience log", "name") in messages
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        for message_id, key in messages:
            singular = message_id[0] if isinstance(message_id, tuple) else message_id
            for name in [*ELIDED_BEFORE, *NOT_ELIDED_BEFORE]:
                values = filled(singular, key, name)
                if isinstance(message_id, tuple):
                    said = ngettext(*message_id, 1, **values)
                    drawn = render_template_string(
                        "{{ ngettext(one, many, 1, **values) }}",
                        one=message_id[0],
                        many=message_id[1],
                        values=values,
                    )
                else:
                    said = gettext(message_id, **values)
                    drawn = render_template_string(
                        "{{ _(m, **values) }}", m=message_id, values=values
                    )
                drawn = html.unescape(drawn)
                for shown in (said, drawn):
                    elided = name in ELIDED_BEFORE
                    assert (f"d'{name}" in shown or f"qu'{name}" in shown) == elided, shown
                    assert (f"de {name}" in shown or f"que {name}" in shown) != elided, shown


def test_the_pages_name_each_player_with_french_elisions(client: FlaskClient) -> None:
    client.set_cookie("language", "fr")
    log = Log(client)
    log.start("Élodie")
    assert "Carnet de réussites d'Élodie" in html.unescape(text(client.get(log.url)))
    table = Table(client)
    table.start("ascenseur", ("Anne", "Bruno", "Hélène"))
    page = html.unescape(text(client.get(table.game_url)))
    # What the script says of a player left without a bid, drawn in each player's row.
    assert "data-missing-text=\"Indiquez l'annonce d'Anne.\"" in page
    assert 'data-missing-text="Indiquez l\'annonce de Bruno."' in page
    refused = html.unescape(text(table.bids(1, (None, 0, None))))
    assert "Indiquez l'annonce d'Anne." in refused and "Indiquez l'annonce d'Hélène." in refused
    table.play(1, (0, 0, 0), (0, 1, 0))
    assert table.correct(1, (1, 1, 0), (0, 1, 0)).status_code == 302
    log_line = html.unescape(text(client.get(table.game_url)))
    assert "annonce d'Anne 0 → 1" in log_line


HYPHEN_FOR_MINUS = re.compile(r"(?<![\w\-–−+/.,:])-\s?\d")
"""A negative figure written with the hyphen-minus ("-7,5"), where the pages print "−"
(U+2212); a date (2026-11-20), a range (1-3) and a word with a hyphen are no figure."""


def circle_with_losses(app: Flask, client: FlaskClient) -> list[str]:
    """A circle whose league and people's pages show figures below zero: an Escalier game
    (every point a point lost) and a rubber bridge evening played in it. Its pages."""
    keeper = Keeper(client)
    url = keeper.start(people="Anne\nBruno\nChloé\nDenis")
    circle_id = url.rsplit("/", 1)[1]
    escalier = rules.PRESETS["escalier"]
    with app.app_context():
        circle = db.session.get(Circle, circle_id)
        assert circle is not None
        names = ("Anne", "Bruno", "Chloé", "Denis")
        for seed in range(2):
            db.session.add(
                AscenseurGame(
                    preset="escalier",
                    first_dealer=0,
                    circle_id=circle_id,
                    players=[
                        Player(seat=seat, name=name, person_id=circle.person_named(name).id)
                        for seat, name in enumerate(names)
                    ],
                    rounds=RoundRecord.from_entries(play_out(escalier, 4, 0, seed)),
                )
            )
        db.session.commit()
    evening = Evening(client)
    evening.start(circle=circle_id)
    evening.played(1, "4S", "N", -2)
    for number in (2, 3):  # North-South win the rubber: East-West lose by a margin
        evening.played(number, "4S", "N", 0)
    return [url, f"{url}?league=escalier", *keeper.person_links()]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_negative_figure_is_written_with_the_minus_sign(
    app: Flask, client: FlaskClient, language: str
) -> None:
    urls = [*every_familys_pages(client), *circle_with_losses(app, client)]
    client.set_cookie("language", language)
    found = []
    for url in urls:
        page = text(client.get(url))
        for line in read(page):
            found += [f"{url}: {line!r}" for _hit in HYPHEN_FOR_MINUS.findall(line)]
    assert not found, "\n".join(found)
