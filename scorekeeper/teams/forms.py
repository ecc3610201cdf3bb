"""The forms of a teams match: the two teams and the match's boards, and a table's result."""

from __future__ import annotations

from typing import Any, cast

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import StringField
from wtforms.validators import InputRequired, Length

from scorekeeper.contract.forms import MAX_NAME, RESULTS, DealForm, choices
from scorekeeper.forms import ExtraValidators, WholeNumberField, printable, stripped
from scorekeeper.games.forms import NewGameForm
from scorekeeper.rules.bridge import Seat
from scorekeeper.teams.models import (
    HIGHEST_FIRST_BOARD,
    MAX_TEAM,
    MOST_BOARDS,
    SEATS,
    TeamsGame,
    player_seat,
)

LINEUP = {
    "a": ((1, Seat.NORTH), (1, Seat.SOUTH), (2, Seat.EAST), (2, Seat.WEST)),
    "b": ((1, Seat.EAST), (1, Seat.WEST), (2, Seat.NORTH), (2, Seat.SOUTH)),
}
"""Where each team's four players sit: team A North-South at table 1, East-West at table 2."""


def player_field(label: Any) -> StringField:
    return StringField(label, validators=[Length(max=MAX_NAME)], filters=[stripped])


class SetupForm(NewGameForm):
    """A new match: the teams' names, who sits where (optional), the boards."""

    team_a = StringField(_l("Team A's name"), validators=[Length(max=MAX_TEAM)], filters=[stripped])
    team_b = StringField(_l("Team B's name"), validators=[Length(max=MAX_TEAM)], filters=[stripped])
    a_1_n = player_field(_l("Table 1, North"))
    a_1_s = player_field(_l("Table 1, South"))
    a_2_e = player_field(_l("Table 2, East"))
    a_2_w = player_field(_l("Table 2, West"))
    b_1_e = player_field(_l("Table 1, East"))
    b_1_w = player_field(_l("Table 1, West"))
    b_2_n = player_field(_l("Table 2, North"))
    b_2_s = player_field(_l("Table 2, South"))
    boards = WholeNumberField(
        _l("Boards in the match"),
        default=8,
        validators=[InputRequired(_l("Enter how many boards the match has."))],
        low=1,
        high=MOST_BOARDS,
        out_of_range=_l("A match has 1 to %(max)d boards."),
    )
    first_board = WholeNumberField(
        _l("Number of the first board"),
        default=1,
        validators=[InputRequired(_l("Enter the number of the first board."))],
        low=1,
        high=HIGHEST_FIRST_BOARD,
        out_of_range=_l("Boards are numbered from 1 to %(max)d."),
    )

    def player_fields(self, team: str) -> list[tuple[StringField, int]]:
        """A team's player fields, each with the seat number it stands for."""
        return [
            (
                cast(StringField, self[f"{team}_{table}_{seat.value.lower()}"]),
                player_seat(table, seat),
            )
            for table, seat in LINEUP[team]
        ]

    def names(self) -> list[str]:
        return [name for _seat, name in self.players()]

    def players(self) -> list[tuple[int, str]]:
        """The players named, with their seat numbers, table 1's first."""
        named = [
            (seat, str(field.data))
            for team in LINEUP
            for field, seat in self.player_fields(team)
            if field.data
        ]
        return sorted(named)

    def validate(self, extra_validators: ExtraValidators = None) -> bool:
        valid = super().validate(extra_validators)
        teams = (self.team_a, self.team_b)
        for field in teams:
            if not field.data:
                field.errors = [*field.errors, _("Enter the name of each team.")]
            elif not printable(field.data):
                field.errors = [*field.errors, _("A name is made of letters, digits and signs.")]
        first, second = self.team_a.data or "", self.team_b.data or ""
        if first and first.casefold() == second.casefold():
            self.team_b.errors = [*self.team_b.errors, _("The two teams need different names.")]
        seen: set[str] = set()
        players = [field for team in LINEUP for field, _seat in self.player_fields(team)]
        for field in players:
            name = field.data or ""
            if name and not printable(name):
                field.errors = [*field.errors, _("A name is made of letters, digits and signs.")]
            elif name and name.casefold() in seen:
                field.errors = [*field.errors, _("Two players cannot have the same name.")]
            seen.add(name.casefold())
        return valid and not any(field.errors for field in (*teams, *players))


class ResultForm(DealForm):
    """A table's result in the taps of a deal at home: level, strain, declarer (doubled only
    when it was), and the result, whose buttons send the form. Its declarer buttons name who
    sat there. Duplicate scores no honours: that field of the deal form is never drawn, and
    never read."""

    def __init__(self, game: TeamsGame, table: int, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.declarer.choices = choices([(seat.value, game.sitting(table, seat)) for seat in SEATS])


__all__ = ["RESULTS", "ResultForm", "SetupForm"]
