"""The forms of Échelons: a new log or race, a game of patience, a race game."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import DateField, HiddenField, RadioField, StringField
from wtforms.validators import InputRequired, Length, Optional

from scorekeeper.forms import ExtraValidators, SelectChoice, WholeNumberField, printable, stripped
from scorekeeper.games.forms import ChangeForm, NewGameForm

MAX_NAME = 24


class SetupForm(NewGameForm):
    """A patience log for one player, or a race match for two."""

    kind = RadioField(
        _l("What to keep"),
        choices=[
            SelectChoice("log", _l("My patience log: each game, won or not")),
            SelectChoice("race", _l("A race match between two players")),
        ],
        default="log",
    )
    player_a = StringField(_l("Player"), validators=[Length(max=MAX_NAME)], filters=[stripped])
    player_b = StringField(
        _l("Second player (a race)"),
        validators=[Length(max=MAX_NAME)],
        filters=[stripped],
    )

    def names(self) -> list[str]:
        names = [str(self.player_a.data or "")]
        return [*names, str(self.player_b.data or "")] if self.kind.data == "race" else names

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        fields = [self.player_a, self.player_b] if self.kind.data == "race" else [self.player_a]
        for field in fields:
            name = field.data or ""
            if not name:
                field.errors = [*field.errors, _("Enter a name.")]
            elif not printable(name):
                field.errors = [*field.errors, _("A name is made of letters, digits and signs.")]
        if (
            self.kind.data == "race"
            and (self.player_a.data or "").casefold() == (self.player_b.data or "").casefold()
            and self.player_a.data
        ):
            self.player_b.errors = [
                *self.player_b.errors,
                _("Two players cannot have the same name."),
            ]
        return valid and not self.player_a.errors and not self.player_b.errors


def date_field() -> DateField:
    return DateField(
        _l("Played on"), validators=[InputRequired(_l("Enter the day it was played."))]
    )


class LogForm(ChangeForm):
    """A game of patience in two taps: Won; or the cards that reached the foundations."""

    result = HiddenField()
    """Sent by the button tapped: "won", or "cards" with the number typed."""
    cards_home = WholeNumberField(
        _l("Cards on the foundations"),
        validators=[Optional()],
        low=0,
        high=51,
        out_of_range=_l("The cards on the foundations of a game not won are from 0 to 51."),
    )
    minutes = WholeNumberField(
        _l("Minutes it took (if you noted them)"),
        validators=[Optional()],
        low=1,
        high=1440,
        out_of_range=_l("The time taken is from 1 to 1440 minutes."),
    )
    played_on = date_field()

    def check(self) -> bool:
        valid = self.validate()
        if self.result.data == "won":
            self.cards_home.errors = []
            return not self.form_errors and not any(field.errors for field in self)
        if self.result.data != "cards":
            self.form_errors.append(_("Tap Won, or type the cards on the foundations and log it."))
            return False
        if self.cards_home.data is None and not self.cards_home.errors:
            self.cards_home.errors = [_("Type how many cards reached the foundations.")]
            return False
        return valid

    @property
    def cards(self) -> int:
        """The cards that reached the foundations (a number where not won: ``check`` saw it)."""
        if self.result.data == "won":
            return 52
        assert self.cards_home.data is not None
        return self.cards_home.data


class RaceForm(ChangeForm):
    """A race game: each player's cards left in stock and tableau (0 for whoever finished)."""

    left_a = WholeNumberField(
        validators=[InputRequired(_l("Type the cards each player has left."))],
        low=0,
        high=52,
        out_of_range=_l("The cards left are from 0 to 52."),
    )
    left_b = WholeNumberField(
        validators=[InputRequired(_l("Type the cards each player has left."))],
        low=0,
        high=52,
        out_of_range=_l("The cards left are from 0 to 52."),
    )
    played_on = date_field()

    def check(self) -> bool:
        valid = self.validate()
        if valid and self.left_a.data == 0 and self.left_b.data == 0:
            self.form_errors.append(
                _("Both players cannot have placed every card: only one finished first.")
            )
            return False
        return valid
