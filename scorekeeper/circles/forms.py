"""The forms of circles: a new circle, a person added, renamed or merged, a change confirmed,
and the league's period."""

from __future__ import annotations

from datetime import date
from urllib.parse import parse_qsl, urlencode

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms import (
    DateField,
    FieldList,
    HiddenField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, Optional

from scorekeeper.circles.models import NAME_LENGTH, SEASON_RULES_LENGTH
from scorekeeper.forms import (
    ExtraValidators,
    Form,
    SelectChoice,
    WholeNumberField,
    printable,
    stripped,
)
from scorekeeper.games.forms import ChangeForm, NewGameForm
from scorekeeper.rules.common import RuleError
from scorekeeper.rules.federations import MAX_NUMBER, Federation, MemberRule, federation_number
from scorekeeper.rules.history import name_key

MOST_PEOPLE = 60
"""The most people a new circle's form names: a large pub league."""


def check_name(name: str) -> str | None:
    """What is wrong with a person's name, if anything."""
    if not name:
        return _("Enter a name.")
    if len(name) > NAME_LENGTH:
        return _("A name has at most %(most)d characters.", most=NAME_LENGTH)
    if not printable(name):
        return _("A name is made of letters, digits and signs.")
    return None


class CircleForm(NewGameForm):
    """A new circle: its name, and the people who play in it (more join by playing)."""

    name = StringField(
        _l("The circle's name"),
        validators=[InputRequired(_l("Name the circle.")), Length(max=60)],
        filters=[stripped],
    )
    people = TextAreaField(
        _l("Its people, one name a line"),
        validators=[Length(max=MOST_PEOPLE * (NAME_LENGTH + 2))],
    )

    def names(self) -> list[str]:
        """The people's names as typed, each once, blank lines left out."""
        lines = (" ".join(line.split()) for line in (self.people.data or "").splitlines())
        return [line for line in lines if line]

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        if self.name.data and not printable(self.name.data):
            unreadable = _("A name is made of letters, digits and signs.")
            self.name.errors = [*self.name.errors, unreadable]
            valid = False
        names = self.names()
        seen: dict[str, str] = {}
        problems = []
        for name in names:
            if (problem := check_name(name)) is not None:
                problems.append(f"{name[:NAME_LENGTH]}…: {problem}")
            elif name_key(name) in seen:
                first = seen[name_key(name)]
                problems.append(_("%(name)s and %(other)s are one person.", name=first, other=name))
            seen.setdefault(name_key(name), name)
        if len(names) > MOST_PEOPLE:
            problems.append(_("A new circle names at most %(most)d people.", most=MOST_PEOPLE))
        if problems:
            self.people.errors = [*self.people.errors, *problems]
            valid = False
        return valid


class PersonNameForm(ChangeForm):
    """A person added to the circle, or renamed."""

    name = StringField(_l("Name"), filters=[stripped])

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        if (problem := check_name(self.name.data or "")) is not None:
            self.name.errors = [*self.name.errors, problem]
            valid = False
        return valid


FEDERATION_NAMES = {
    Federation.FFB: _l("FFB (France)"),
    Federation.EBU: _l("EBU (England)"),
    Federation.ACBL: _l("ACBL (North America)"),
    Federation.OTHER: _l("Another federation"),
}
NUMBER_MESSAGES = {
    MemberRule.FFB_DIGITS: _l("An FFB licence number is 1 to 8 digits."),
    MemberRule.FFB_CHECK: _l(
        "%(value)s is not an FFB licence number: its last digit does not check. Check it on "
        "the licence card."
    ),
    MemberRule.ACBL_FORM: _l(
        "An ACBL player number is 7 characters: digits, the first perhaps a letter from J to R."
    ),
    MemberRule.NUMBER_FORM: _l("A federation number is up to 20 letters, digits and hyphens."),
}


class FederationNumberForm(ChangeForm):
    """A person's federation and their number there, checked for its form where the
    federation's is known; both left empty take the number away."""

    federation = SelectField(
        _l("Federation"),
        choices=[
            SelectChoice("", _l("None")),
            *(SelectChoice(f.value, label) for f, label in FEDERATION_NAMES.items()),
        ],
        validate_choice=False,
    )
    number = StringField(_l("Their number there"), filters=[stripped])

    written: tuple[str, str] | None = None
    """The federation and the number as the federation writes it, once valid (None: none)."""

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        chosen = self.federation.data or ""
        typed = (self.number.data or "")[: 4 * MAX_NUMBER]
        if chosen not in {f.value for f in Federation}:
            if chosen or typed:
                self.federation.errors = [_("Choose the federation of this number.")]
                return False
            self.written = None
            return valid
        if not typed:
            self.number.errors = [_("Enter their number, or choose no federation.")]
            return False
        try:
            self.written = (chosen, federation_number(Federation(chosen), typed))
        except RuleError as error:
            message = NUMBER_MESSAGES[error.rule]  # type: ignore[index]
            self.number.errors = [str(message) % dict(error.values)]
            return False
        return valid


class MergeForm(ChangeForm):
    """Two people of the circle who are one: the second's games become the first's."""

    kept = SelectField(_l("Keep"), coerce=int, validate_choice=False)
    merged = SelectField(_l("Merge into them"), coerce=int, validate_choice=False)


class CircleConfirmForm(ChangeForm):
    """A button that changes the circle (a game taken out or put back, undo)."""


class ScorerLinkForm(Form):
    """A game's scorer link, pasted to add the game (played outside the circle) to it."""

    link = StringField(
        _l("The game's scorer link"),
        validators=[InputRequired(_l("Paste the game's scorer link.")), Length(max=500)],
        filters=[stripped],
    )


class AddGameForm(ChangeForm):
    """The person each name of a game played outside the circle is: one of the circle's
    people (by id), or a new one (``new``). Drawn from the game's names (see
    scorekeeper.circles.outside.seats_drawn)."""

    seats = FieldList(SelectField(validate_choice=False), max_entries=200)


class ShowNameForm(Form):
    """A person's choice of what the circle's public pages show of them."""

    shows = HiddenField()
    place = HiddenField()
    """The person's place (its id) in the circle the choice is for: theirs if none."""


class PlaceForm(Form):
    """A person's change to one of their places (its id): leaving its circle, coming back,
    giving it back."""

    place = HiddenField()
    left_as = HiddenField()


class OwnLinkForm(Form):
    """A person's own link from another circle, pasted on the page of a place offered to them:
    that page's circle joins theirs."""

    link = StringField(
        _l("Your own page's link, from your other circle"),
        validators=[InputRequired(_l("Paste the link of your own page.")), Length(max=500)],
        filters=[stripped],
    )
    nonce = HiddenField(validators=[Length(max=32)])
    """The form's one-time value: sent twice (a double tap), it takes the place once."""


class PeriodForm(Form):
    """The league's period and game, chosen in the page's address (a GET form)."""

    class Meta:
        csrf = False

    league = SelectField(_l("Game"), validate_choice=False)
    since = DateField(_l("From"), validators=[Optional()])
    until = DateField(_l("To"), validators=[Optional()])

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        if self.since.data and self.until.data and self.since.data > self.until.data:
            self.until.errors = [*self.until.errors, _("The period ends before it begins.")]
            valid = False
        return valid


MOST_POINTS = 40
"""Places a ladder's points list may give."""


class KeepSeasonForm(Form):
    """A keeper's keeping of the season page's rules as the club's (its address's query)."""

    rules = HiddenField()


class SeasonForm(Form):
    """The club's season as its page shows it, chosen in the page's address (a GET form): the
    period, how the handicaps are drawn, how the ladder counts, and the session whose
    handicapped ranking is shown."""

    class Meta:
        csrf = False

    since = DateField(_l("From"), validators=[Optional()])
    until = DateField(_l("To"), validators=[Optional()])
    last = WholeNumberField(
        _l("Handicap: the player's last sessions"),
        validators=[Optional()],
        low=1,
        high=100,
        out_of_range=_l("From %(min)d to %(max)d sessions."),
        default=10,
    )
    share = WholeNumberField(
        _l("Share of the gap to 50 %, in %"),
        validators=[Optional()],
        low=0,
        high=100,
        out_of_range=_l("From %(min)d to %(max)d %%."),
        default=50,
    )
    cap = WholeNumberField(
        _l("At most, in points"),
        validators=[Optional()],
        low=0,
        high=50,
        out_of_range=_l("From %(min)d to %(max)d points."),
        default=5,
    )
    best = WholeNumberField(
        _l("Ladder: each member's best results (empty: all)"),
        validators=[Optional()],
        low=1,
        high=500,
        out_of_range=_l("From %(min)d to %(max)d results."),
    )
    points = StringField(
        _l("Or points for 1st, 2nd, … place"),
        validators=[Optional(), Length(max=200)],
        filters=[stripped],
    )
    session = SelectField(_l("Handicapped ranking of"), validate_choice=False)

    def points_given(self) -> tuple[int, ...] | None:
        """The points of each place, as typed ("10 7 5"); ``None`` for none."""
        typed = (self.points.data or "").replace(",", " ").split()
        return tuple(int(word) for word in typed) if typed else None

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        if self.since.data and self.until.data and self.since.data > self.until.data:
            self.until.errors = [*self.until.errors, _("The period ends before it begins.")]
            valid = False
        words = (self.points.data or "").replace(",", " ").split()
        if not all(word.isascii() and word.isdigit() and len(word) <= 4 for word in words):
            self.points.errors = [
                *self.points.errors,
                _("Type each place's points as whole numbers, such as 10 7 5 3."),
            ]
            valid = False
        elif len(words) > MOST_POINTS:
            self.points.errors = [
                *self.points.errors,
                _("At most %(count)d places score points.", count=MOST_POINTS),
            ]
            valid = False
        return valid

    def rules_query(self) -> str:
        """The rules of a valid form, as an address's query (the session shown is not one)."""
        values = []
        for name in SEASON_RULE_FIELDS:
            data = self[name].data
            if data is not None and data != "":
                values.append((name, data.isoformat() if isinstance(data, date) else str(data)))
        return urlencode(values)


SEASON_RULE_FIELDS = ("since", "until", "last", "share", "cap", "best", "points")
"""The season form's fields that make the club's rules."""


def club_rules_of(query: str) -> str | None:
    """Rules to keep as the club's, as the season page writes them in its address; ``None``
    where they are not rules the page takes, or too long to keep."""
    rules = SeasonForm(MultiDict(parse_qsl(query)))
    if not rules.validate():
        return None
    kept = rules.rules_query()
    return kept if len(kept) <= SEASON_RULES_LENGTH else None
