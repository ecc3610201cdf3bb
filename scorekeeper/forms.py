"""The base of every form: Flask-WTF's, with WTForms' own messages in the page's language read
once per language, not from disk again for every form drawn or sent."""

from __future__ import annotations

from functools import cache
from typing import Any

from babel import support
from flask_babel import get_locale
from flask_wtf import FlaskForm
from wtforms.i18n import messages_path


@cache
def wtforms_messages(locale: str) -> support.Translations:
    return support.Translations.load(messages_path(), [locale], domain="wtforms")


class Form(FlaskForm):
    class Meta:
        def get_translations(self, form: Any) -> support.Translations:
            return wtforms_messages(str(get_locale()))
