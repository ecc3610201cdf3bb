"""The director's changes to the evening: a late pair, a table added for late pairs, a pair
leaving, an arrow switch."""

from __future__ import annotations

import functools

from flask import flash
from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.club import bp
from scorekeeper.club.family import (
    CorrectionKind,
    short_pair,
)
from scorekeeper.club.forms import (
    AddedTableForm,
    ArrowSwitchForm,
    LatePairForm,
    LeavingPairForm,
)
from scorekeeper.club.models import ClubSession
from scorekeeper.club.pages import refused
from scorekeeper.club.rows import ClubPair, ClubTable
from scorekeeper.games.lookup import scorers_game
from scorekeeper.games.models import Correction
from scorekeeper.games.writes import Outcome, game_page, write_entry
from scorekeeper.rules.common import Side
from scorekeeper.rules.movements import (
    MAX_MITCHELL_TABLES,
    MovementError,
    MovementKind,
    mitchell,
)


def late_rounds(game: ClubSession) -> list[int]:
    """The rounds a late pair may start from: the round being played on, or a later one (a
    table added for one late pair is there from its first round)."""
    movement = game.movement
    if movement is None or movement.phantom is None or game.late_from is not None:
        return []
    first = max(game.last_round_begun, movement.added_from or 1)
    return list(range(first, movement.rounds + 1))


def late_pair_form(game: ClubSession) -> LatePairForm | None:
    rounds = late_rounds(game)
    if not rounds or game.closed:
        return None
    form = LatePairForm(formdata=None, data={"drawn_from": game.version})
    form.from_round.choices = [(r, _("Round %(number)d", number=r)) for r in rounds]
    return form


@bp.post("/<game_id>/late-pair")
def late_pair(game_id: str) -> Outcome:
    """A pair arriving after the start takes the sit-out's place from a round on: the results
    so far stay, the tables' phones seat it, and the boards the sit-out missed before it came
    are scored with Neuberg's formula."""

    def change(game: ClubSession) -> Outcome | None:
        form = LatePairForm()
        form.from_round.choices = [(r, str(r)) for r in late_rounds(game)]
        movement = game.movement
        if movement is None or movement.phantom is None or not form.from_round.choices:
            flash(_("This session has no sit-out for a late pair to take."), "error")
            return game_page(game)
        invalid = None
        if not form.validate() or game.closed:
            invalid = _("Choose the round the late pair starts from.")
            if form.names.errors:
                invalid = _("The late pair's names: %(error)s", error=form.names.errors[0])
        if (refusal := refused(game, form, invalid)) is not None:
            return refusal
        from_round = int(form.from_round.data)
        game.setting("late_from", from_round)
        direction = Side.EW.value if movement.ranking.numbered_by_direction else ""
        pair = next(
            (p for p in game.pairs if (p.number, p.direction) == (movement.phantom, direction)),
            None,
        )
        if pair is None:
            pair = ClubPair(number=movement.phantom, direction=direction)
            game.pairs.append(pair)
        pair.names = form.names.data or pair.names
        label = short_pair(pair.number, Side.EW, movement.ranking)
        game.corrections.append(
            Correction(number=from_round, kind=CorrectionKind.LATE_PAIR, new=label)
        )
        game.reseat()
        return None

    def done(game: ClubSession) -> None:
        flash(
            _(
                "The late pair plays from round %(round)d in the sit-out's place; the tables' "
                "phones seat it.",
                round=game.late_from,
            )
        )

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


@functools.lru_cache(maxsize=1024)
def table_can_be_added(tables: int, boards_per_round: int, from_round: int) -> bool:
    """Whether a full Mitchell of ``tables`` tables can take one more from ``from_round``."""
    try:
        mitchell(tables, boards_per_round).with_added_table(from_round)
    except MovementError:
        return False
    return True


def added_rounds(game: ClubSession) -> list[int]:
    """The rounds a table added for late pairs may play from: those no table has begun,
    where the movement can take it; none but in a full Mitchell not changed yet."""
    movement = game.movement
    if (
        movement is None
        or movement.kind is not MovementKind.MITCHELL
        or movement.phantom is not None
        or game.added_from is not None
        or game.closed
        or movement.tables >= MAX_MITCHELL_TABLES
    ):
        return []
    return [
        number
        for number in range(game.last_round_begun + 1, movement.rounds + 1)
        if table_can_be_added(game.table_count, game.boards_per_round, number)
    ]


def added_table_form(game: ClubSession) -> AddedTableForm | None:
    rounds = added_rounds(game)
    if not rounds:
        return None
    form = AddedTableForm(formdata=None, data={"drawn_from": game.version})
    form.from_round.choices = [(r, _("Round %(number)d", number=r)) for r in rounds]
    return form


@bp.post("/<game_id>/added-table")
def added_table(game_id: str) -> Outcome:
    """One or two pairs arriving after the start of a full Mitchell: one more table from a
    round no table has begun. The results so far stay, the new table's phone has its link,
    and each round one East-West pair plays there on its usual boards (see
    Movement.with_added_table)."""

    def change(game: ClubSession) -> Outcome | None:
        form = AddedTableForm()
        form.from_round.choices = [(r, str(r)) for r in added_rounds(game)]
        if not form.from_round.choices:
            flash(_("This session cannot take one more table now."), "error")
            return game_page(game)
        invalid = None
        if not form.validate():
            invalid = _("Choose the round the new table plays from.")
            if errors := form.names.errors or form.other_names.errors:
                invalid = _("The late pair's names: %(error)s", error=errors[0])
        if (refusal := refused(game, form, invalid)) is not None:
            return refusal
        late = int(form.pairs.data)
        game.setting("added_from", int(form.from_round.data))
        game.setting("added_pairs", late)
        movement = game.movement
        assert movement is not None
        number = movement.tables
        names = [(Side.NS, form.names.data)] + ([(Side.EW, form.other_names.data)] * (late == 2))
        for side, players in names:
            game.pairs.append(ClubPair(number=number, direction=side.value, names=players or ""))
        game.tables.append(ClubTable(number=number))
        labels = [short_pair(number, side, movement.ranking) for side, _names in names]
        game.corrections.append(
            Correction(
                number=game.added_from,
                seat=number,
                kind=CorrectionKind.ADDED_TABLE,
                new=", ".join(labels),
            )
        )
        game.reseat()
        return None

    def done(game: ClubSession) -> None:
        flash(
            _(
                "Table %(table)d plays from round %(round)d: its link is with the others'. "
                "Each round one East-West pair plays there on its usual boards; the phones "
                "say which.",
                table=len(game.tables),
                round=game.added_from,
            )
        )

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


def leaving_choices(game: ClubSession) -> tuple[list[tuple[str, str]], list[int]]:
    """The pairs that may leave ("NS3", "7") and the rounds they may leave from: those no
    table has begun. None once a pair has left, or the session is closed."""
    movement = game.movement
    if movement is None or movement.left is not None or game.closed:
        return [], []
    rounds = list(range(max(game.last_round_begun + 1, 2), movement.rounds + 1))
    pairs = [
        (f"{direction or ''}{number}", short_pair(number, direction or Side.NS, movement.ranking))
        for number, direction in movement.pairs_listed()
    ]
    return pairs, rounds


def leaving_pair_form(game: ClubSession) -> LeavingPairForm | None:
    pairs, rounds = leaving_choices(game)
    if not rounds:
        return None
    form = LeavingPairForm(formdata=None, data={"drawn_from": game.version})
    form.pair.choices = pairs
    form.from_round.choices = [(r, _("Round %(number)d", number=r)) for r in rounds]
    return form


@bp.post("/<game_id>/pair-leaves")
def pair_leaves(game_id: str) -> Outcome:
    """A pair leaving before the end: from a round no table has begun, the pairs it would
    have met sit out; its results so far stay, and the boards played fewer times are scored
    with Neuberg's formula."""

    def change(game: ClubSession) -> Outcome | None:
        form = LeavingPairForm()
        pairs, rounds = leaving_choices(game)
        form.pair.choices = pairs
        form.from_round.choices = [(r, str(r)) for r in rounds]
        if not rounds:
            flash(_("No pair can leave this session now."), "error")
            return game_page(game)
        invalid = None
        if not form.validate():
            invalid = _("Choose the pair leaving and its first round not played.")
        if (refusal := refused(game, form, invalid)) is not None:
            return refusal
        movement = game.movement
        assert movement is not None
        code = str(form.pair.data)
        direction = code[:2] if code[:2] in ("NS", "EW") else ""
        number = int(code[len(direction) :])
        from_round = int(form.from_round.data)
        game.setting("left_pair", number)
        game.setting("left_direction", direction)
        game.setting("left_from", from_round)
        label = short_pair(number, Side(direction) if direction else Side.NS, movement.ranking)
        game.corrections.append(Correction(number=from_round, kind=CorrectionKind.LEFT, new=label))
        game.reseat()
        return None

    def done(game: ClubSession) -> None:
        flash(
            _(
                "From round %(round)d the pairs it would have met sit out; its results so far "
                "stay.",
                round=game.left_from,
            )
        )

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


def open_rounds(game: ClubSession) -> list[int]:
    """The rounds of a Mitchell whose seats may still change: those no table has begun."""
    movement = game.movement
    if movement is None or movement.kind is not MovementKind.MITCHELL or game.closed:
        return []
    return list(range(game.last_round_begun + 1, movement.rounds + 1))


def arrow_switch_form(game: ClubSession) -> ArrowSwitchForm | None:
    rounds = open_rounds(game)
    if not rounds:
        return None
    chosen = sorted(game.switched_rounds & set(rounds))
    form = ArrowSwitchForm(formdata=None, data={"drawn_from": game.version, "rounds": chosen})
    form.rounds.choices = [(r, _("Round %(number)d", number=r)) for r in rounds]
    return form


@bp.post("/<game_id>/arrow-switch")
def arrow_switch(game_id: str) -> Outcome:
    """The rounds of a Mitchell in which East-West sit North-South and North-South East-West:
    chosen among the rounds no table has begun, those begun keep the seats they were played
    in. With any, the room is ranked as one field."""

    def change(game: ClubSession) -> Outcome | None:
        form = ArrowSwitchForm()
        form.rounds.choices = [(r, str(r)) for r in open_rounds(game)]
        movement = game.movement
        if movement is None or movement.kind is not MovementKind.MITCHELL or game.closed:
            flash(_("An arrow switch is for a Mitchell still under way."), "error")
            return game_page(game)
        if not form.rounds.choices:
            flash(_("Every round has begun: their seats stay as they were played."), "error")
            return game_page(game)
        invalid = None
        if not form.validate():
            invalid = _("A round chosen has begun meanwhile: choose again.")
        if (refusal := refused(game, form, invalid)) is not None:
            return refusal
        kept = game.switched_rounds - set(open_rounds(game))
        rounds = sorted(kept | set(form.rounds.data or ()))
        game.setting("switched_rounds", rounds)
        game.corrections.append(
            Correction(
                number=min(rounds, default=1),
                kind=CorrectionKind.ARROW_SWITCH,
                new=", ".join(str(number) for number in rounds) or "–",
            )
        )
        game.reseat()
        return None

    def done(game: ClubSession) -> None:
        rounds = sorted(game.switched_rounds)
        if rounds:
            flash(
                ngettext(
                    "Arrow switch in round %(rounds)s: East-West sit North-South there. The "
                    "room is ranked as one field.",
                    "Arrow switch in rounds %(rounds)s: East-West sit North-South there. The "
                    "room is ranked as one field.",
                    len(rounds),
                    rounds=", ".join(str(number) for number in rounds),
                )
            )
        else:
            flash(_("No arrow switch: each direction is ranked apart."))

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)
