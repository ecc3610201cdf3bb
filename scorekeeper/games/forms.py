"""The forms every family's pages share: a POST-only button, and a game file to import."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired, FileSize
from wtforms import HiddenField
from wtforms.validators import Length


class ConfirmForm(FlaskForm):
    """A POST-only button (undo): nothing but the CSRF token and the game's version."""

    version = HiddenField()


class ImportForm(FlaskForm):
    """A game file exported from Scorekeeper."""

    MAX_BYTES = 2_000_000
    """Room for a game's longest log of corrections (10,000 lines)."""

    nonce = HiddenField(validators=[Length(max=32)])
    file = FileField(
        _l("Game file (.json)"),
        validators=[
            FileRequired(_l("Choose a game file.")),
            FileSize(MAX_BYTES, message=_l("This file is too large to be a game.")),
        ],
    )
