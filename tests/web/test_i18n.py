"""French and English stay complete: every message of the code and templates is translated,
and the compiled catalog the app loads is the one its source gives."""

from __future__ import annotations

import io
import re
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

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


def test_the_compiled_catalog_is_up_to_date() -> None:
    compiled = io.BytesIO()
    write_mo(compiled, french())  # type: ignore[arg-type]
    assert (CATALOG / "messages.mo").read_bytes() == compiled.getvalue(), (
        "messages.mo is older than messages.po: run pybabel compile (README, Translations)"
    )
