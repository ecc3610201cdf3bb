"""The base of every form: Flask-WTF's, with WTForms' own messages in the page's language read
once per language, not from disk again for every form drawn or sent; what every name field
shares; and the one field every whole number is typed in."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, TypeAlias

from babel import support
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_wtf import FlaskForm

# SelectChoice, an option of a select or radio field, is new in WTForms 3.3: types-WTForms
# (3.2) has not caught up with it. Every form takes it from here.
from wtforms import IntegerField
from wtforms import SelectChoice as SelectChoice  # type: ignore[attr-defined]
from wtforms.form import BaseForm
from wtforms.i18n import messages_path
from wtforms.validators import ValidationError
from wtforms.widgets import TextInput

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


WHOLE_NUMBER = re.compile(r"([-−+]?)0*([0-9]+)")
"""A whole number as typed: digits 0 to 9 alone, after a sign (the hyphen, or the minus sign
the pages print)."""
MOST_DIGITS = 9
"""Digits beyond which a number is out of every field's range, whatever they are."""


class WholeNumberField(IntegerField):
    """A whole number from ``low`` to ``high``, typed with the phone's number keypad; anything
    else is refused with a message in the page, and what was typed is drawn again to correct.

    WTForms' own field takes digits of every script (Arabic-Indic, full-width) for numbers and
    its ``NumberRange`` compares through a float, which a number of 309 digits or more breaks.
    A text box (with the numeric keypad) rather than ``type=number``: a browser sends nothing
    of what such a box cannot read ("2,5"), so the page could not say what was wrong with it.
    ``out_of_range`` may name ``%(min)d`` and ``%(max)d``."""

    widget = TextInput()

    def __init__(
        self,
        label: Any = None,
        validators: list[Any] | None = None,
        *,
        low: int,
        high: int,
        out_of_range: Any,
        **kwargs: Any,
    ) -> None:
        kwargs["render_kw"] = {"inputmode": "numeric", **kwargs.get("render_kw", {})}
        super().__init__(label, validators, **kwargs)
        self.low, self.high, self.out_of_range = low, high, out_of_range

    def range_message(self) -> str:
        return str(self.out_of_range) % {"min": self.low, "max": self.high}

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist:
            return
        typed = str(valuelist[0]).strip()
        self.data = None
        if not typed:
            return  # the field's InputRequired or Optional says whether that will do
        number = WHOLE_NUMBER.fullmatch(typed)
        if number is None:
            raise ValueError(_("Type a whole number, in figures (such as 12)."))
        sign, digits = number.groups()
        if len(digits) > MOST_DIGITS:
            raise ValueError(self.range_message())
        self.data = -int(digits) if sign in ("-", "−") else int(digits)

    def post_validate(self, form: BaseForm, validation_stopped: bool) -> None:
        if validation_stopped or self.data is None:
            return
        if not self.low <= self.data <= self.high:
            raise ValidationError(self.range_message())
