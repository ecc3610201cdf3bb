"""The forms of an evening of bridge: the table, a deal, who sits where for the next rubber."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, RadioField, StringField
from wtforms.validators import Length

from scorekeeper.bridge.labels import SEAT_NAMES
from scorekeeper.contract.forms import MAX_NAME, RESULTS, DealForm, choices
from scorekeeper.forms import ExtraValidators, printable, stripped
from scorekeeper.games.forms import ChangeForm, ConfirmForm, NewGameForm
from scorekeeper.rules.bridge import Rounding, Seat

SEATS = tuple(Seat)
HONOURS = ("", "NS-100", "NS-150", "EW-100", "EW-150")


class SetupForm(NewGameForm):
    """A new evening: four names in their seats, rubber or Chicago, the first dealer, and how
    the settlement in hundreds rounds an exact 50."""

    north = StringField(_l("North"), validators=[Length(max=MAX_NAME)], filters=[stripped])
    east = StringField(_l("East"), validators=[Length(max=MAX_NAME)], filters=[stripped])
    south = StringField(_l("South"), validators=[Length(max=MAX_NAME)], filters=[stripped])
    west = StringField(_l("West"), validators=[Length(max=MAX_NAME)], filters=[stripped])
    form = RadioField(
        _l("We play"),
        choices=choices(
            [
                ("rubber", _l("Rubber bridge: rubbers of two games won")),
                ("chicago", _l("Chicago: wheels of four deals")),
            ]
        ),
        default="rubber",
    )
    as_duplicate = BooleanField(_l("Chicago: every deal scored alone, as duplicate"))
    first_dealer = RadioField(
        _l("Deals first"),
        choices=choices([(seat.value, SEAT_NAMES[seat]) for seat in SEATS]),
        default="N",
    )
    rounding = RadioField(
        _l("Settled in hundreds, an exact 50"),
        choices=choices(
            [
                (Rounding.FIFTY_UP.value, _l("rounds up: 950 is 10")),
                (Rounding.FIFTY_DOWN.value, _l("rounds down: 950 is 9")),
            ]
        ),
        default=Rounding.FIFTY_UP.value,
    )

    def names(self) -> list[str]:
        return [str(self[field].data or "") for field in ("north", "east", "south", "west")]

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        seen: set[str] = set()
        for field in (self.north, self.east, self.south, self.west):
            name = field.data or ""
            if not name:
                field.errors = [*field.errors, _("Enter a name for each seat.")]
            elif not printable(name):
                field.errors = [*field.errors, _("A name is made of letters, digits and signs.")]
            elif name.casefold() in seen:
                field.errors = [*field.errors, _("Two players cannot have the same name.")]
            seen.add(name.casefold())
        return valid and not any(self[name].errors for name in ("north", "east", "south", "west"))


class SeatingForm(ChangeForm):
    """Who sits where for the next rubber or wheel: one tap to keep the same seats."""

    north = RadioField(_l("North"), coerce=int, validate_choice=False)
    east = RadioField(_l("East"), coerce=int, validate_choice=False)
    south = RadioField(_l("South"), coerce=int, validate_choice=False)
    west = RadioField(_l("West"), coerce=int, validate_choice=False)

    def seats(self) -> dict[str, int]:
        return {
            seat.value: int(self[field].data)
            for seat, field in zip(SEATS, ("north", "east", "south", "west"), strict=True)
        }

    def check(self, players: int) -> bool:
        valid = self.validate()
        taken = [self[field].data for field in ("north", "east", "south", "west")]
        if any(not isinstance(player, int) or not 0 <= player < players for player in taken):
            self.form_errors.append(_("Choose a player for each seat."))
            return False
        if len(set(taken)) != len(taken):
            self.form_errors.append(_("Each player sits in one seat only."))
            return False
        return valid


__all__ = [
    "MAX_NAME",
    "RESULTS",
    "ConfirmForm",
    "DealForm",
    "SeatingForm",
    "SetupForm",
    "choices",
]
