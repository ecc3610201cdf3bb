"""The forms every family's pages share: a POST-only button, and a game file to import."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField, FileRequired, FileSize
from wtforms import HiddenField
from wtforms.validators import Length

from scorekeeper.forms import Form
from scorekeeper.games.models import Game


class ConfirmForm(Form):
    """A POST-only button (undo, delete): nothing but the CSRF token and the game's version
    (its live version: see Game.live_version)."""

    version = HiddenField()

    @classmethod
    def drawn_from(cls, game: Game) -> bool:
        """Whether the button sent was drawn from the game as it is now: its token valid, its
        version the stored one (another phone's change since makes it stale)."""
        form = cls()
        return bool(form.validate()) and form.version.data == str(game.live_version)


class ImportForm(Form):
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
