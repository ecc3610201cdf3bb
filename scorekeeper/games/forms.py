"""The forms every family's pages share: a POST-only button, a new game's one-time value, and a
game file to import."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField, FileRequired, FileSize
from wtforms import HiddenField
from wtforms.validators import Length

from scorekeeper.forms import ExtraValidators, Form
from scorekeeper.games.models import Game
from scorekeeper.games.registry import circles


class ChangeForm(Form):
    """A form that changes a game. It carries what it was drawn from (the version of the game,
    or of the club table it enters for, or the entry it corrects, as a code), which is checked
    before anything changes: a form drawn before another phone's change is caught."""

    drawn_from = HiddenField()


class ConfirmForm(ChangeForm):
    """A POST-only button (undo, delete, close): nothing but the CSRF token and what it was
    drawn from."""

    @classmethod
    def sent_as_drawn(cls, game: Game) -> bool:
        """Whether the button sent was drawn from the game as it is now (its live version: see
        Game.live_version), its token valid."""
        form = cls()
        return bool(form.validate()) and form.drawn_from.data == str(game.live_version)


class NewGameForm(Form):
    """A form that starts a game. Its one-time value, tied to the browser, makes the same form
    sent twice one game (see start_new_game); the circle it is started in, if any, names the
    people in its seats."""

    nonce = HiddenField(validators=[Length(max=32)])
    circle = HiddenField(validators=[Length(max=16)])
    outside = HiddenField(validators=[Length(max=16)])
    """The circle whose link opened the form on a phone that does not keep it: the game is
    played outside it, and the form says so before it starts (and how it may join later)."""

    def names(self) -> list[str]:
        """The names typed in the game's seats (none for a game that has no seats)."""
        return []

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        """The form's own checks, and, for a game started in a circle, the circle's (see
        scorekeeper.circles.people.check_seats)."""
        valid = super().validate(extra_validators)
        if not self.circle.data:
            return valid
        return circles().check_seats(self) and valid


class ImportForm(NewGameForm):
    """A game file exported from Scorekeeper."""

    MAX_BYTES = 2_000_000
    """Room for a game's longest log of corrections (10,000 lines)."""
    file = FileField(
        _l("Game file (.json)"),
        validators=[
            FileRequired(_l("Choose a game file.")),
            FileSize(MAX_BYTES, message=_l("This file is too large to be a game.")),
        ],
    )
