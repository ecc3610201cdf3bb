"""The forms of a Tarot game: the table, and a deal in a few taps (taker, contract, at 5 the
partner, bouts, the points' tens and units, then the bonuses that happened); and what the pages
call contracts, sides, poignées, chelems and the engine's refusals, in the reader's language."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, FieldList, HiddenField, RadioField, StringField
from wtforms.validators import Length

from scorekeeper.forms import ExtraValidators, SelectChoice, printable, stripped
from scorekeeper.games.forms import ChangeForm, NewGameForm
from scorekeeper.games.helpers import as_reader_writes
from scorekeeper.rules.common import RuleError
from scorekeeper.rules.tarot import PLAYERS, Camp, Chelem, Contract, Poignee, TarotRule
from scorekeeper.tarot.models import BONUSES

MAX_NAME = 24
CONTRACTS = dict(
    zip(Contract, (_l("Prise"), _l("Garde"), _l("Garde sans"), _l("Garde contre")), strict=True)
)
CAMPS = dict(zip(Camp, (_l("taker's side"), _l("defence")), strict=True))
POIGNEES = dict(zip(Poignee, (_l("simple"), _l("double"), _l("triple")), strict=True))
CHELEMS = {
    Chelem.ANNOUNCED_MADE: _l("announced and made"),
    Chelem.MADE: _l("made, not announced"),
    Chelem.ANNOUNCED_FAILED: _l("announced, failed"),
    Chelem.DEFENCE: _l("made by the defence"),
}
RULE_MESSAGES = {  # what a deal entered or read from a file can break beyond its fields' checks
    TarotRule.BOUTS: _l("There are 3 bouts: the taker's side has 0 to 3 of them."),
    TarotRule.POINTS: _l("The cards hold 91 points: the taker's side has 0 to 91, not %(value)s."),
    TarotRule.HALF_POINT: _l("At 4 players the points are whole: no half point."),
    TarotRule.PARTNER: _l("Only at 5 players does the taker have a partner, called by a king."),
}


def rule_message(error: RuleError) -> str:
    """The engine's refusal, in the reader's language."""
    template = RULE_MESSAGES.get(error.rule)  # type: ignore[call-overload]
    values = {
        name: as_reader_writes(float(value) if isinstance(value, Fraction) else value)
        for name, value in error.values.items()
    }
    return str(template) % values if template is not None else str(error)


def options(pairs: Any) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


def digits(label: Any, last: int, default: int | None = None) -> RadioField:
    numbers = options((n, str(n)) for n in range(last + 1))
    return RadioField(label, coerce=int, choices=numbers, default=default)


class SetupForm(NewGameForm):
    """A new game: 3, 4 or 5 names in seating order (clockwise), and who deals first."""

    players = FieldList(
        StringField(_l("Name"), validators=[Length(max=MAX_NAME)], filters=[stripped]),
        min_entries=max(PLAYERS),
        max_entries=max(PLAYERS),
    )
    first_dealer = digits(_l("Deals first"), max(PLAYERS) - 1, default=0)

    def names(self) -> list[str]:
        return [str(name) for name in self.players.data if name]

    @property
    def dealer_seat(self) -> int:
        """The first dealer's seat: the names typed above their row."""
        return len([name for name in self.players.data[: self.first_dealer.data] if name])

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        seen: set[str] = set()
        for entry, name in ((entry, entry.data) for entry in self.players if entry.data):
            if not printable(name):
                entry.errors = [*entry.errors, _("A name is made of letters, digits and signs.")]
            elif name.casefold() in seen:
                entry.errors = [*entry.errors, _("Two players cannot have the same name.")]
            seen.add(name.casefold())
        if len(self.names()) not in PLAYERS:
            self.form_errors.append(_("Tarot is for 3, 4 or 5 players: type their names."))
        elif not self.first_dealer.errors and not self.players.data[self.first_dealer.data]:
            self.first_dealer.errors = [_("The first dealer's row has no name.")]
        rows = [*self.players, self.first_dealer]
        return valid and not self.form_errors and not any(row.errors for row in rows)


def bonus(label: Any, pairs: Any) -> RadioField:
    return RadioField(label, choices=options([("", _l("no")), *pairs]), default="")


class DealForm(ChangeForm):
    """A deal, one radio group each (the points as tens and units, and a half at 3 and 5
    players); the button tapped, Done or All passed, sends it (``action``)."""

    taker = RadioField(_l("Taker"), coerce=int)
    contract = RadioField(_l("Contract"), choices=options(CONTRACTS.items()))
    partner = RadioField(_l("Partner (the called king)"))
    bouts = digits(_l("Bouts"), 3)
    tens = digits(_l("Points: tens"), 9)
    units = digits(_l("Points: units"), 9)
    half = BooleanField(_l("and a half"))
    petit_au_bout = bonus(_l("Petit au bout"), CAMPS.items())
    poignee_taker = bonus(_l("Poignée of the taker's side"), POIGNEES.items())
    poignee_defence = bonus(_l("Poignée of the defence"), POIGNEES.items())
    chelem = bonus(_l("Chelem"), CHELEMS.items())
    action = HiddenField()

    def passed(self) -> bool:
        return self.action.data == "passed"

    def check(self) -> bool:
        """Validate: Done or All passed tapped, and for a deal played each group chosen."""
        self.validate()
        if self.action.data not in ("deal", "passed"):
            self.form_errors.append(_("Tap Done to enter the deal, or All passed."))
            return False
        for field, message in (
            (self.taker, _("Choose the taker.")),
            (self.contract, _("Choose the contract.")),
            (self.partner, _("Choose the partner, or Alone.")),
            (self.bouts, _("Choose the taker's side's bouts.")),
            (self.tens, _("Choose the tens of the taker's side's points.")),
            (self.units, _("Choose the units of the taker's side's points.")),
        ):
            if field is not None and field.data in (None, "", "None"):
                field.errors = [message]
        if self.passed():  # whatever else was tapped, nobody took
            for each in self:
                each.errors = each.errors if each.name == "csrf_token" else []
        return not self.form_errors and not any(field.errors for field in self)

    def put_into(self, record: Any) -> None:
        """The deal in a record; a deal all passed keeps nothing but its number."""
        for name in ("taker", "partner", "bouts", "half_points", "contract", *BONUSES):
            setattr(record, name, None)
        if self.passed():
            return
        record.taker, record.contract = self.taker.data, self.contract.data
        record.bouts = self.bouts.data
        partner = self.partner.data if self.partner is not None else "alone"
        record.partner = None if partner in ("alone", str(record.taker)) else int(partner)
        half = self.half is not None and bool(self.half.data)
        record.half_points = 20 * self.tens.data + 2 * self.units.data + half
        for name in BONUSES:
            setattr(record, name, self[name].data or None)

    @staticmethod
    def data_of(record: Any) -> dict[str, Any]:
        """A record's deal as the correction form starts from it (the reverse of put_into)."""
        if record.taker is None:
            return {"action": "passed"}
        whole, half = divmod(record.half_points or 0, 2)
        return {
            **{name: getattr(record, name) or "" for name in ("contract", *BONUSES)},
            "taker": record.taker,
            "partner": "alone" if record.partner is None else str(record.partner),
            **{"bouts": record.bouts, "tens": whole // 10, "units": whole % 10, "half": half},
        }


def deal_form(names: tuple[str, ...], **kwargs: Any) -> DealForm:
    """The deal form of this table: its players as takers and, at 5 players, as partners (or
    Alone); the half point only where there can be one."""
    form = DealForm(**kwargs)
    form.taker.choices = options(enumerate(names))
    if len(names) == max(PLAYERS):
        form.partner.choices = options([*enumerate(names), ("alone", _("Alone"))])
    else:
        del form.partner
    if len(names) == 4:
        del form.half
    return form
