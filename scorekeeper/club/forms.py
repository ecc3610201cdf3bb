"""The forms of a club session: the session set up, the pairs' names, a table's result, the
director's artificial scores."""

from __future__ import annotations

from typing import Any

from flask import request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf.file import FileField, FileSize
from wtforms import (
    DateField,
    FieldList,
    HiddenField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.validators import Length, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from scorekeeper.club.models import ClubField, Shown
from scorekeeper.club.organisers import directs, invited, may_join
from scorekeeper.contract.forms import DealForm
from scorekeeper.contract.labels import SEAT_NAMES
from scorekeeper.extensions import db
from scorekeeper.forms import (
    ExtraValidators,
    Form,
    SelectChoice,
    WholeNumberField,
    printable,
    stripped,
)
from scorekeeper.games.forms import ChangeForm, ImportForm, NewGameForm
from scorekeeper.games.lookup import GAME_ID
from scorekeeper.rules.common import Seat
from scorekeeper.rules.duplicate import Scoring
from scorekeeper.rules.hands import HandError, card_text, deck, parse_card
from scorekeeper.rules.movements import MovementKind, howell, mitchell

MAX_EVENT = 60
MAX_NAMES = 60
MITCHELL_TABLES = range(3, 16)
HOWELL_TABLES = range(3, 9)
BOARDS_PER_ROUND = range(1, 7)
SECTIONS = range(1, 7)


def numbers(values: range) -> list[SelectChoice]:
    return [SelectChoice(value, str(value)) for value in values]


def board_list(boards: list[int]) -> str:
    """Boards named for a message: "5, 6", or "5 to 36" for a run of more than two."""
    if len(boards) > 2 and boards[-1] - boards[0] == len(boards) - 1:
        return _("%(first)d to %(last)d", first=boards[0], last=boards[-1])
    return ", ".join(str(board) for board in boards)


def scoring_field() -> RadioField:
    return RadioField(
        _l("Scoring"),
        choices=[
            SelectChoice(Scoring.MATCHPOINTS.value, _l("Matchpoints, in percent")),
            SelectChoice(Scoring.BUTLER.value, _l("Butler: IMPs against the datum")),
            SelectChoice(
                Scoring.CROSS_IMPS.value,
                _l("Cross-IMPs: IMPs against every other result, averaged"),
            ),
        ],
        default=Scoring.MATCHPOINTS.value,
    )


def shown_field() -> RadioField:
    """What the players see before the session closes: the director's choice."""
    return RadioField(
        _l("Before the session closes"),
        choices=[
            SelectChoice(
                Shown.PLAYED.value,
                _l(
                    "Each table's phone shows the travellers of the boards both its pairs have "
                    "played; everyone sees the ranking as it stands"
                ),
            ),
            SelectChoice(
                Shown.ROUNDS.value,
                _l(
                    "The same travellers; the ranking as it stood at the end of the last round "
                    "every table has finished"
                ),
            ),
            SelectChoice(
                Shown.AT_THE_END.value,
                _l("No result and no ranking for the players until the session closes"),
            ),
            SelectChoice(
                Shown.ALL.value,
                _l("Every result as it comes in, for everyone with the session's link"),
            ),
        ],
        default=Shown.PLAYED.value,
    )


def lead_field() -> RadioField:
    """Whether the tables' phones ask for the opening lead: the director's choice."""
    return RadioField(
        _l("The opening lead"),
        choices=[
            SelectChoice("no", _l("Not asked")),
            SelectChoice(
                "asked",
                _l(
                    "Asked at each table with the result; with hand records, a lead from the "
                    "wrong hand is refused"
                ),
            ),
        ],
        default="no",
    )


class SetupForm(NewGameForm):
    """A new session: the movement, how many tables, boards a round, and how it is scored."""

    event = StringField(
        _l("Session"), validators=[Length(max=MAX_EVENT)], filters=[stripped], default=""
    )
    club = StringField(
        _l("Club"), validators=[Length(max=MAX_EVENT)], filters=[stripped], default=""
    )
    movement = RadioField(
        _l("Movement"),
        choices=[
            SelectChoice(
                MovementKind.MITCHELL.value,
                _l("Mitchell: North-South stay, East-West move; a ranking for each direction"),
            ),
            SelectChoice(
                MovementKind.HOWELL.value,
                _l("Howell: every pair meets every other; one ranking (3 to 8 tables)"),
            ),
        ],
        default=MovementKind.MITCHELL.value,
    )
    tables = RadioField(_l("Tables"), choices=numbers(MITCHELL_TABLES), coerce=int, default=7)
    boards_per_round = RadioField(
        _l("Boards a round"), choices=numbers(BOARDS_PER_ROUND), coerce=int, default=3
    )
    pairs = RadioField(
        _l("Pairs"),
        choices=[
            SelectChoice("even", _l("Every table full")),
            SelectChoice("odd", _l("One pair short: a pair sits out each round")),
        ],
        default="even",
    )
    scoring = scoring_field()

    shown = shown_field()
    lead = lead_field()
    sections = RadioField(_l("Sections"), choices=numbers(SECTIONS), coerce=int, default=1)
    field = HiddenField(default="", filters=[stripped])
    """The field a section is added to (``?field=``), if any."""
    board_set = RadioField(
        _l("Boards"),
        choices=[
            SelectChoice("same", _l("The same boards as the field's other sections")),
            SelectChoice("own", _l("A set of its own, scored apart")),
        ],
        default="same",
    )

    def pair_count(self) -> int:
        full = 2 * int(self.tables.data)
        return full - 1 if self.pairs.data == "odd" else full

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        if (
            valid
            and self.movement.data == MovementKind.HOWELL
            and self.tables.data not in HOWELL_TABLES
        ):
            self.tables.errors = [_("A Howell is for 3 to 8 tables; choose a Mitchell for more.")]
            return False
        for field in (self.event, self.club):
            if field.data and not printable(field.data):
                field.errors = [_("A name is made of letters, digits and signs.")]
                return False
        if valid and self.field.data:
            joined = self.joined()
            asked = field_of(self.field.data)
            if joined is None and asked is not None and asked.ended and invited(asked):
                self.form_errors.append(
                    _("The organiser has closed the event: no club joins it any more.")
                )
                return False
            if joined is None:
                self.form_errors.append(
                    _("This field is not one you direct: open it from its director's phone.")
                )
                return False
            if joined.simultaneous and not self.club.data:
                self.club.errors = [_("Give your club's name: the event's ranking names it.")]
                return False
            if not joined.simultaneous or not joined.deals:
                return valid
            missing = sorted(set(range(1, self.boards() + 1)) - set(joined.event_deals))
            if missing:
                self.boards_per_round.errors = [
                    ngettext(
                        "This movement plays boards 1 to %(boards)d; the event has no deal "
                        "for board %(missing)s.",
                        "This movement plays boards 1 to %(boards)d; the event has no deal "
                        "for boards %(missing)s.",
                        len(missing),
                        boards=self.boards(),
                        missing=board_list(missing),
                    )
                ]
                return False
        return valid

    def joining_event(self) -> ClubField | None:
        """The simultaneous the form adds a club's section to (``?field=``), if it is one."""
        found = field_of(self.field.data or request.args.get("field", ""))
        return found if found is not None and found.simultaneous else None

    def boards(self) -> int:
        """The boards the movement chosen plays."""
        build = mitchell if self.movement.data == MovementKind.MITCHELL else howell
        return build(int(self.tables.data), int(self.boards_per_round.data)).boards

    def joined(self) -> ClubField | None:
        """The field a section is added to: an evening's whose every section this browser
        directs, or a simultaneous it was given the clubs' link of."""
        found = field_of(self.field.data)
        if found is None:
            return None
        return found if directs(found) or may_join(found) else None


def field_of(asked: object) -> ClubField | None:
    """The field a form names by its id, if it is one (an id of another form is none, and is
    never sent to the database: PostgreSQL refuses some characters outright)."""
    text = str(asked or "")
    return db.session.get(ClubField, text) if GAME_ID.fullmatch(text) else None


class NamesForm(ChangeForm):
    """The players of each pair, one line each; names are optional."""

    names = FieldList(
        StringField(validators=[Length(max=MAX_NAMES)], filters=[stripped]), min_entries=0
    )

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        for field in self.names:
            if field.data and not printable(field.data):
                field.errors = [*field.errors, _("A name is made of letters, digits and signs.")]
                valid = False
        return valid


LEADS = {card_text(card): str(card) for card in deck()}
"""The cards a lead may be, as the form sends them ("S3", "HT") and as they show ("3♠")."""


class ResultForm(DealForm):
    """A table's result on a board: the contract in a few taps and the result, or a pass; and,
    where the form ``asks_lead``, the opening lead in one tap of a card (``lead_required`` at
    a table's phone, where the director asks for it)."""

    lead = RadioField(
        _l("Opening lead"),
        choices=[
            *(SelectChoice(value, label) for value, label in LEADS.items()),
            SelectChoice("", _l("not noted")),
        ],
        default="",
        validate_choice=False,  # said by check, in words of its own
    )

    def __init__(
        self, *args: Any, asks_lead: bool = False, lead_required: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.declarer.choices = [SelectChoice(seat.value, SEAT_NAMES[seat]) for seat in Seat]
        self.asks_lead = asks_lead
        self.lead_required = asks_lead and lead_required

    def check(self) -> bool:
        valid = super().check()
        if not self.asks_lead or self.passed_out():
            return valid
        lead = self.lead.data or ""
        if lead and lead not in LEADS:
            self.lead.errors = [_("Tap the card led from the cards shown.")]
            return False
        if not lead and self.lead_required:
            self.lead.errors = [_("Tap the opening lead.")]
            return False
        return valid

    @staticmethod
    def data_of(record: Any) -> dict[str, Any]:
        data = DealForm.data_of(record)
        lead = getattr(record, "lead", None) or ""
        if data and lead:
            data["lead"] = lead_value(lead)
        return data

    def put_into(self, record: Any) -> None:
        """The deal, and the lead where the form asks it (a passed-out deal has none; a form
        that does not ask leaves a lead a results file gave as it was)."""
        super().put_into(record)
        if self.passed_out():
            record.lead = ""
        elif self.asks_lead:
            record.lead = self.lead.data or ""


def lead_value(written: str) -> str:
    """A stored lead as the form's cards send it ("S3"): a results file's own way of writing
    it ("s10", "♠3") read; one that is no card kept as written."""
    try:
        return card_text(parse_card(written))
    except HandError:
        return written


class ArtificialForm(ChangeForm):
    """An artificial score for each side, where the board could not be played."""

    scores = RadioField(
        _l("Artificial scores"),
        choices=[
            SelectChoice("A+/A+", _l("Average-plus to both (60 %)")),
            SelectChoice("A=/A=", _l("Average to both (50 %)")),
            SelectChoice("A-/A-", _l("Average-minus to both (40 %)")),
            SelectChoice("A+/A-", _l("Average-plus to North-South, average-minus to East-West")),
            SelectChoice("A-/A+", _l("Average-minus to North-South, average-plus to East-West")),
            SelectChoice("A+/A=", _l("Average-plus to North-South, average to East-West")),
            SelectChoice("A=/A+", _l("Average to North-South, average-plus to East-West")),
            SelectChoice("A=/A-", _l("Average to North-South, average-minus to East-West")),
            SelectChoice("A-/A=", _l("Average-minus to North-South, average to East-West")),
        ],
    )

    def check(self) -> bool:
        if not self.validate() or not self.scores.data:
            self.scores.errors = [_("Choose the artificial scores.")]
            return False
        return True


class HandsForm(ChangeForm):
    """The boards' deals: a PBN file of hand records, or dealt here at random."""

    MAX_BYTES = 2_000_000

    file = FileField(
        _l("Hand records (.pbn)"),
        validators=[FileSize(MAX_BYTES, message=_l("This file is too large to be hand records."))],
    )


class LatePairForm(ChangeForm):
    """A pair arriving after the start: it takes the sit-out's place from a round on."""

    from_round = SelectField(_l("It plays from round"), coerce=int, validate_choice=True)
    names = StringField(
        _l("Its players (optional)"), validators=[Length(max=MAX_NAMES)], filters=[stripped]
    )

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        if self.names.data and not printable(self.names.data):
            self.names.errors = [
                *self.names.errors,
                _("A name is made of letters, digits and signs."),
            ]
            valid = False
        return valid


class AddedTableForm(ChangeForm):
    """One or two pairs arriving after the start of a full Mitchell: one more table from a
    round on."""

    from_round = SelectField(_l("The new table plays from round"), coerce=int, validate_choice=True)
    pairs = RadioField(
        _l("Late pairs"),
        choices=[
            SelectChoice("2", _l("Two: the new table is full")),
            SelectChoice("1", _l("One: a North-South pair sits out each round")),
        ],
        default="2",
    )
    names = StringField(
        _l("The North-South pair's players (optional)"),
        validators=[Length(max=MAX_NAMES)],
        filters=[stripped],
    )
    other_names = StringField(
        _l("The East-West pair's players (optional)"),
        validators=[Length(max=MAX_NAMES)],
        filters=[stripped],
    )

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        for field in (self.names, self.other_names):
            if field.data and not printable(field.data):
                field.errors = [*field.errors, _("A name is made of letters, digits and signs.")]
                valid = False
        return valid


class LeavingPairForm(ChangeForm):
    """A pair leaving before the end: from a round on, the pairs it would have met sit out."""

    pair = SelectField(_l("The pair leaving"), validate_choice=True)
    from_round = SelectField(_l("Its first round not played"), coerce=int, validate_choice=True)


class ArrowSwitchForm(ChangeForm):
    """The rounds of a Mitchell in which East-West sit North-South and North-South East-West,
    so that the room is ranked as one field."""

    rounds = SelectMultipleField(
        _l("Rounds with an arrow switch"),
        coerce=int,
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
    )


class LeadForm(ChangeForm):
    """Whether the tables' phones ask for the opening lead with each result."""

    lead = lead_field()


class MoveForm(ChangeForm):
    """A result entered for the wrong board, moved to the board the table played."""

    board = SelectField(_l("The board this table played"), coerce=int, validate_choice=True)


class ShownForm(ChangeForm):
    """What the tables and those looking on see before the session closes, and whether they
    see the pairs' names."""

    shown = shown_field()
    names = RadioField(
        _l("The pairs' names"),
        choices=[
            SelectChoice("shown", _l("Shown with the results, on every page")),
            SelectChoice(
                "hidden", _l("Pair numbers only: the names for the director's eyes alone")
            ),
        ],
        default="shown",
    )


class FieldForm(Form):
    """How a field of sections is scored, and which ranking its players see."""

    across = RadioField(
        _l("Scoring"),
        choices=[
            SelectChoice(
                "across", _l("Across the field: each board against every section's results")
            ),
            SelectChoice("apart", _l("Each section on its own")),
        ],
        default="across",
    )
    overall = RadioField(
        _l("The players' ranking"),
        choices=[
            SelectChoice("section", _l("Their own section's")),
            SelectChoice("overall", _l("The whole field's, every section together")),
        ],
        default="section",
    )


EVENT_BOARDS = (1, 64)


class EventForm(Form):
    """A simultaneous set up by its organiser: its name, date, scoring and deals."""

    MAX_BYTES = 2_000_000

    nonce = HiddenField(validators=[Length(max=32)])
    name = StringField(
        _l("Event"), validators=[Length(max=MAX_EVENT)], filters=[stripped], default=""
    )
    played_on = DateField(_l("Played on"), validators=[Optional()])
    scoring = scoring_field()
    deals_from = RadioField(
        _l("Deals"),
        choices=[
            SelectChoice("dealt", _l("Dealt here at random")),
            SelectChoice("file", _l("From a dealing program's PBN file")),
        ],
        default="dealt",
    )
    boards = WholeNumberField(
        _l("Boards dealt here"),
        validators=[Optional()],
        low=EVENT_BOARDS[0],
        high=EVENT_BOARDS[1],
        out_of_range=_l("From %(min)d to %(max)d boards."),
        default=36,
    )
    file = FileField(
        _l("Hand records (.pbn)"),
        validators=[FileSize(MAX_BYTES, message=_l("This file is too large to be hand records."))],
    )

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        if not self.name.data:
            self.name.errors = [*self.name.errors, _("Give the event a name.")]
            valid = False
        elif not printable(self.name.data):
            self.name.errors = [_("A name is made of letters, digits and signs.")]
            valid = False
        if valid and self.played_on.data is None:
            self.played_on.errors = [_("Give the day the event is played.")]
            valid = False
        if valid and self.deals_from.data == "dealt" and self.boards.data is None:
            self.boards.errors = [_("Say how many boards to deal.")]
            valid = False
        if valid and self.deals_from.data == "file" and not self.file.data:
            self.file.errors = [_("Choose a PBN file of hand records.")]
            valid = False
        return valid


class SectionFileForm(ImportForm):
    """A club's section of a simultaneous, scored on the club's own computer: its file."""

    club = StringField(
        _l("Club"), validators=[Length(max=MAX_EVENT)], filters=[stripped], default=""
    )

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        if self.club.data and not printable(self.club.data):
            self.club.errors = [_("A name is made of letters, digits and signs.")]
            return False
        return valid


class EndEventForm(Form):
    """The organiser closes the event, or opens it again."""
