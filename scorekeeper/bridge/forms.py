"""The forms of an evening of bridge: the table, a deal, who sits where for the next rubber."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, RadioField, SelectChoice, StringField
from wtforms.validators import Length

from scorekeeper.bridge.labels import SEAT_NAMES, strain_label
from scorekeeper.games.forms import ConfirmForm
from scorekeeper.rules.bridge import Seat, Strain

MAX_NAME = 24
SEATS = tuple(Seat)
RESULTS = (0, *range(1, 7), *range(-1, -14, -1))
"""The results a deal can have, as buttons: made, +1 to +6, −1 to −13."""
HONOURS = ("", "NS-100", "NS-150", "EW-100", "EW-150")


def stripped(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else value


def choices(pairs: list[tuple[Any, Any]]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


class SetupForm(FlaskForm):
    """A new evening: four names in their seats, rubber or Chicago, the first dealer."""

    nonce = HiddenField(validators=[Length(max=32)])
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

    def names(self) -> list[str]:
        return [str(self[field].data or "") for field in ("north", "east", "south", "west")]

    def validate(self, extra_validators: Any = None) -> bool:
        valid = super().validate(extra_validators)
        seen: set[str] = set()
        for field in (self.north, self.east, self.south, self.west):
            name = field.data or ""
            if not name:
                field.errors = [*field.errors, _("Enter a name for each seat.")]
            elif not name.isprintable():
                field.errors = [*field.errors, _("A name is made of letters, digits and signs.")]
            elif name.casefold() in seen:
                field.errors = [*field.errors, _("Two players cannot have the same name.")]
            seen.add(name.casefold())
        return valid and not any(self[name].errors for name in ("north", "east", "south", "west"))


class DealForm(FlaskForm):
    """A deal in a few taps: level, strain, declarer (doubled, honours only when they were),
    and the result, whose buttons send the form."""

    version = HiddenField()
    level = RadioField(_l("Level"), choices=choices([(n, str(n)) for n in range(1, 8)]), coerce=int)
    strain = RadioField(
        _l("Strain"),
        choices=choices([(strain.value, strain.value) for strain in Strain]),
    )
    declarer = RadioField(
        _l("Declarer"), choices=choices([(seat.value, seat.value) for seat in SEATS])
    )
    doubled = RadioField(
        _l("Doubled"),
        choices=choices([(0, _l("no")), (1, "X"), (2, "XX")]),
        coerce=int,
        default=0,
    )
    honours = RadioField(
        _l("Honours claimed"),
        choices=choices(
            [
                ("", _l("none")),
                ("NS-100", _l("100 N-S")),
                ("NS-150", _l("150 N-S")),
                ("EW-100", _l("100 E-W")),
                ("EW-150", _l("150 E-W")),
            ]
        ),
        default="",
    )
    result = HiddenField()
    """Sent by the result button tapped: "passed", or a number from -13 to 6."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.strain.choices = choices([(strain.value, strain_label(strain)) for strain in Strain])

    def passed_out(self) -> bool:
        return self.result.data == "passed"

    def check(self) -> bool:
        """Validate: a result tapped, and for a played deal its contract and declarer."""
        valid = self.validate()
        contract_fields = (self.level, self.strain, self.declarer, self.doubled, self.honours)
        if self.result.data not in ("passed", *map(str, RESULTS)):
            self.form_errors.append(_("Tap the result of the deal, or Passed out."))
            return False
        if self.passed_out():  # whatever else was tapped, nobody bid
            for field in contract_fields:
                field.errors = []
            return not self.form_errors and not any(field.errors for field in self)
        for field, message in (
            (self.level, _("Choose the level of the contract.")),
            (self.strain, _("Choose the strain of the contract.")),
            (self.declarer, _("Choose who played the contract.")),
        ):
            if field.data in (None, "", "None"):
                field.errors = [message]
                valid = False
        if valid:
            tricks = 6 + int(self.level.data) + int(self.result.data)
            if not 0 <= tricks <= 13:
                most = 7 - int(self.level.data) if tricks > 13 else 6 + int(self.level.data)
                message = (
                    _("At this level the declarer can take at most %(most)d overtricks.", most=most)
                    if tricks > 13
                    else _("At this level the declarer can go at most %(most)d down.", most=most)
                )
                self.form_errors.append(message)
                valid = False
        return valid

    @property
    def tricks(self) -> int:
        return 6 + int(self.level.data) + int(self.result.data)

    @property
    def honours_claim(self) -> tuple[str | None, int | None]:
        if not self.honours.data:
            return None, None
        side, points = str(self.honours.data).split("-")
        return side, int(points)


class SeatingForm(FlaskForm):
    """Who sits where for the next rubber or wheel: one tap to keep the same seats."""

    version = HiddenField()
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


__all__ = ["ConfirmForm", "DealForm", "SeatingForm", "SetupForm"]
