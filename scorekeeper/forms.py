"""The base of every form: Flask-WTF's, with WTForms' own messages in the page's language read
once per language, not from disk again for every form drawn or sent; and what every name field
shares."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, TypeAlias

from babel import support
from flask_babel import get_locale
from flask_wtf import FlaskForm

# SelectChoice, an option of a select or radio field, is new in WTForms 3.3: types-WTForms
# (3.2) has not caught up with it. Every form takes it from here.
from wtforms import SelectChoice as SelectChoice  # type: ignore[attr-defined]
from wtforms.form import BaseForm
from wtforms.i18n import messages_path

from scorekeeper.rules.text import clean_text

ExtraValidators: TypeAlias = Mapping[str, Sequence[Any]] | None
"""The validators a form's ``validate`` is given beside its fields' own, by field name."""


@cache
def wtforms_messages(locale: str) -> support.NullTranslations:
    return support.Translations.load(messages_path(), [locale], domain="wtforms")


class Form(FlaskForm):
    class Meta:
        def get_translations(self, form: BaseForm) -> support.NullTranslations:
            return wtforms_messages(str(get_locale()))


def stripped(value: str | None) -> str | None:
    """A typed name without the spaces around it (a filter of every name field)."""
    return value.strip() if isinstance(value, str) else value


def printable(name: str) -> bool:
    """Whether a typed name is kept as typed: it holds no control character, tab or line
    break, which every file read cleans away (clean_text). A name a form takes comes back
    the same from the game's files."""
    return clean_text(name) == name
