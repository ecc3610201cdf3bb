"""The deal form every bridge page shares: a contract in a few taps (level, strain, declarer,
doubled, honours when claimed) and the result, whose buttons send it."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from wtforms import HiddenField, RadioField

from scorekeeper.contract.labels import contract_label, strain_label
from scorekeeper.forms import SelectChoice
from scorekeeper.games.forms import ChangeForm
from scorekeeper.rules.bridge import Seat, Strain

MAX_NAME = 24
"""A player's name at a bridge table, as the pad and the sheets have room for it."""
SEATS = tuple(Seat)
RESULTS = (0, *range(1, 7), *range(-1, -14, -1))
"""The results a deal can have, as buttons: made, +1 to +6, −1 to −13."""


def choices(pairs: list[tuple[Any, Any]]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


class DealForm(ChangeForm):
    """A deal in a few taps: level, strain, declarer (doubled, honours only when they were),
    and the result, whose buttons send the form."""

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
        if valid and not 0 <= self.tricks <= 13:
            self.form_errors.append(self.impossible_result())
            valid = False
        return valid

    def impossible_result(self) -> str:
        """Why the result tapped cannot be: more than 13 tricks, or fewer than none."""
        level = int(self.level.data)
        if self.tricks < 0:
            return ngettext(
                "At this level the declarer can go at most %(num)d down.",
                "At this level the declarer can go at most %(num)d down.",
                6 + level,
            )
        contract = contract_label(level, str(self.strain.data), int(self.doubled.data or 0))
        if level == 7:
            return _(
                "%(contract)s cannot make an overtrick: 13 tricks is all there are.",
                contract=contract,
            )
        return ngettext(
            "%(contract)s can make at most %(num)d overtrick: 13 tricks is all there are.",
            "%(contract)s can make at most %(num)d overtricks: 13 tricks is all there are.",
            7 - level,
            contract=contract,
        )

    @staticmethod
    def data_of(record: Any) -> dict[str, Any]:
        """A record's deal as the form starts to correct it (the reverse of put_into); an
        artificial score leaves the form empty."""
        if getattr(record, "artificial_ns", None):
            return {}
        if record.level is None:
            return {"result": "passed"}
        honours = getattr(record, "honours", None)
        return {
            "level": record.level,
            "strain": record.strain,
            "declarer": record.declarer,
            "doubled": record.doubled,
            "honours": f"{record.honours_side}-{honours}" if honours else "",
            "result": str((record.tricks or 0) - 6 - record.level),
        }

    def put_into(self, record: Any) -> None:
        """The deal in a record's level, strain, declarer, doubled and tricks (all empty, and
        not doubled, for a passed-out deal)."""
        if self.passed_out():
            record.level = record.strain = record.declarer = record.tricks = None
            record.doubled = 0
            return
        record.level = int(self.level.data)
        record.strain = str(self.strain.data)
        record.declarer = str(self.declarer.data)
        record.doubled = int(self.doubled.data or 0)
        record.tricks = self.tricks

    @property
    def tricks(self) -> int:
        """The tricks taken, by the result tapped (a number: ``check`` saw it first)."""
        result = self.result.data
        assert result is not None
        return 6 + int(self.level.data) + int(result)

    @property
    def honours_claim(self) -> tuple[str | None, int | None]:
        if not self.honours.data:
            return None, None
        side, points = str(self.honours.data).split("-")
        return side, int(points)
