"""The pages of an evening of bridge: a new evening, the pad with the next deal, corrections,
the next rubber's seats, the printed pad. Links, the live version, undo and the game file come
from the table core (scorekeeper.games)."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.bridge import bp
from scorekeeper.bridge.evening import Evening, score_evening
from scorekeeper.bridge.family import FAMILY, CorrectionKind, deal_code
from scorekeeper.bridge.forms import RESULTS, SEATS, DealForm, SeatingForm, SetupForm, choices
from scorekeeper.bridge.labels import deal_text, rule_message
from scorekeeper.bridge.models import BridgeGame, DealRecord, SeatingRecord
from scorekeeper.games.entries import Outcome, game_page, start_new_game, write_entry
from scorekeeper.games.forms import ConfirmForm
from scorekeeper.games.links import share_links
from scorekeeper.games.lookup import get_game_or_404, scorers_game
from scorekeeper.games.models import Correction, Player
from scorekeeper.games.rights import is_scorer
from scorekeeper.games.routes import kept_game_page
from scorekeeper.games.views import new_nonce
from scorekeeper.limits import new_games_limit
from scorekeeper.rules.common import RuleError


def bridge_game(game_id: str) -> BridgeGame:
    return get_game_or_404(game_id, BridgeGame)


@bp.route("/new", methods=["GET", "POST"])
@new_games_limit
def setup() -> str | Response | tuple[str, int]:
    """Four players in their seats, rubber or Chicago, the first dealer, the settlement's
    rounding; then start."""
    if request.method == "GET":
        form = SetupForm(data={"nonce": new_nonce()})
        return render_template("bridge/setup.html", form=form)
    form = SetupForm()
    if not form.validate():
        return render_template("bridge/setup.html", form=form), 422
    game = BridgeGame(
        chicago=form.form.data == "chicago",
        as_duplicate=form.form.data == "chicago" and bool(form.as_duplicate.data),
        first_dealer=form.first_dealer.data,
        rounding=form.rounding.data,
        players=[Player(seat=seat, name=name) for seat, name in enumerate(form.names())],
        seatings=[SeatingRecord(number=1, seats={seat.value: n for n, seat in enumerate(SEATS)})],
    )
    return start_new_game(game, form.nonce.data)


# --- The pad ----------------------------------------------------------------------------------


def deal_form(game: BridgeGame, seating: SeatingRecord, **kwargs: Any) -> DealForm:
    """The deal form, its declarer buttons named after who sat there for the deal's rubber."""
    form = DealForm(**kwargs)
    form.declarer.choices = choices(
        [(seat.value, game.names[seating.player_at(seat)]) for seat in SEATS]
    )
    return form


def seating_of(game: BridgeGame, record: DealRecord) -> SeatingRecord:
    return next(s for s in game.seatings if s.number == record.rubber)


def seating_form(game: BridgeGame, evening: Evening, **kwargs: Any) -> SeatingForm:
    """Who sits where next, starting from where everyone sits now."""
    current = evening.current
    data = {
        field: current.player(seat)
        for field, seat in zip(("north", "east", "south", "west"), SEATS, strict=True)
    }
    form = SeatingForm(data={**data, "version": game.version}, **kwargs)
    players = choices(list(enumerate(game.names)))
    for field in ("north", "east", "south", "west"):
        form[field].choices = players
    return form


def render_pad(
    game: BridgeGame,
    evening: Evening | None = None,
    form: DealForm | None = None,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
    seating: SeatingForm | None = None,
) -> tuple[str, int]:
    evening = evening or score_evening(game)
    scorer = is_scorer(game.id, game.family)
    current = evening.current
    if scorer and form is None and not current.finished:
        data = {"version": game.version}
        form = deal_form(game, current.seating, formdata=None, data=data)
    if scorer and seating is None and current.finished:
        seating = seating_form(game, evening, formdata=None)
    pairings = {
        action: [
            [game.names[seats["N"]], game.names[seats["S"]]],
            [game.names[seats["E"]], game.names[seats["W"]]],
        ]
        for action, seats in partnerships(current.seating).items()
    }
    return render_template(
        "bridge/pad.html",
        game=game,
        evening=evening,
        current=current,
        form=form,
        seating=seating,
        pairings=pairings,
        results=RESULTS,
        scorer=scorer,
        undo_form=ConfirmForm(data={"version": game.version}) if scorer else None,
        links=share_links(game) if scorer else None,
        conflict=conflict,
        conflict_form=ConfirmForm() if conflict else None,
        here=url_for(".pad", game_id=game.id),
        live_game=game,
        keep_awake=True,
    ), status


@bp.get("/<game_id>")
def pad(game_id: str) -> Response | str:
    """The pad: the next deal to enter, the rubber so far, the evening's totals."""

    def draw() -> str:
        return render_pad(bridge_game(game_id))[0]

    return kept_game_page(FAMILY, game_id, draw)


def put_deal(record: DealRecord, form: DealForm) -> None:
    """The form's deal in the record (a passed-out deal keeps nothing else)."""
    form.put_into(record)
    record.honours_side, record.honours = (None, None) if form.passed_out() else form.honours_claim


def checked(game: BridgeGame, form: DealForm) -> bool:
    """The deal form's checks, and honours only where they score: a Chicago scored as
    duplicate has none (its form does not offer them)."""
    if not form.check():
        return False
    if game.as_duplicate and form.honours.data and not form.passed_out():
        form.form_errors.append(_("Honours do not count when every deal is scored as duplicate."))
        return False
    return True


def rescored(game: BridgeGame, form: DealForm) -> Evening | None:
    """The evening with the changed deals, or ``None`` with the engine's refusal on the form."""
    try:
        return score_evening(game)
    except RuleError as error:
        form.form_errors.append(rule_message(error))
        return None


@bp.post("/<game_id>/deals/<int:number>")
def enter_deal(game_id: str, number: int) -> Outcome:
    """Store the next deal, once the engine takes it."""

    def change(game: BridgeGame) -> Outcome | None:
        evening = score_evening(game)
        form = deal_form(game, evening.current.seating)
        if len(game.deals) + 1 != number:
            return entered_elsewhere(game, evening, form, number)
        if evening.current.finished:
            over = (
                _("This Chicago wheel is over: choose who sits where for the next one.")
                if game.chicago
                else _("This rubber is over: choose who sits where for the next one.")
            )
            flash(over, "error")
            return game_page(game)
        if not checked(game, form):
            return render_pad(game, evening, form, 422)
        record = DealRecord(number=next_number(game), rubber=evening.current.number)
        put_deal(record, form)
        # The last deal again, from a page drawn before it was entered (the back button):
        # asked, not entered twice. The question's form is drawn from the game as it is.
        if repeats_the_last_deal(game, record) and not ConfirmForm.drawn_from(game):
            return render_pad(game, evening, status=409, conflict=entered_already(game, number))
        game.deals.append(record)
        if rescored(game, form) is None:
            game.deals.remove(record)
            return render_pad(game, evening, form, 422)
        return None

    def entered(game: BridgeGame) -> None:
        deal = deal_text(game.deals[-1])
        flash(_("Deal %(number)d entered: %(deal)s.", number=number, deal=deal))

    return write_entry(lambda: scorers_game(game_id, BridgeGame), change, entered)


def repeats_the_last_deal(game: BridgeGame, record: DealRecord) -> bool:
    return bool(game.deals) and record.values == game.deals[-1].values


def entered_already(game: BridgeGame, number: int) -> dict[str, Any]:
    """The deal just entered, sent again from a page drawn before it was (the back button):
    entered once already, or played twice? One tap enters it again."""
    last = len(game.deals)
    return {
        "title": _("This deal is already entered as deal %(number)d: enter it again?", number=last),
        "theirs": [(_("Deal %(number)d", number=last), deal_text(game.deals[-1]))],
        "action": url_for(".enter_deal", game_id=game.id, number=number),
        "hidden": {"version": str(game.live_version), **posted_deal()},
        "keep": _("No, it is entered"),
        "put": _("Enter it again as deal %(number)d", number=number),
    }


def entered_elsewhere(game: BridgeGame, evening: Evening, form: DealForm, number: int) -> Outcome:
    """A deal already entered: the same again changes nothing; another phone's is shown beside
    mine, and one tap puts mine in its place."""
    record = game.deals[number - 1] if 0 < number <= len(game.deals) else None
    if record is None or not checked(game, form):
        flash(_("That deal is not the one being played; nothing was changed."), "error")
        return game_page(game)
    mine = DealRecord(number=number, rubber=record.rubber)
    put_deal(mine, form)
    if mine.values == record.values:
        return game_page(game)
    conflict = {
        "title": _("Deal %(number)d was entered on another phone", number=number),
        "theirs": [(_("Deal %(number)d", number=number), deal_text(record))],
        "mine": [(_("Deal %(number)d", number=number), deal_text(mine))],
        "action": url_for(".edit_deal", game_id=game.id, number=number),
        "hidden": {
            "original": deal_code(record),
            **posted_deal(),
        },
    }
    return render_pad(game, evening, status=409, conflict=conflict)


DEAL_FIELDS = ("level", "strain", "declarer", "doubled", "honours", "result")


def posted_deal() -> dict[str, str]:
    """The deal's fields as this request sent them, to send again from a conflict's form."""
    return {name: request.form[name] for name in DEAL_FIELDS if name in request.form}


# --- Corrections ------------------------------------------------------------------------------


def next_number(game: BridgeGame) -> int:
    """The next deal's key: deals keep theirs when an earlier one is deleted."""
    return max((record.number for record in game.deals), default=0) + 1


def deal_or_404(game: BridgeGame, number: int) -> DealRecord:
    """The deal at this place in the evening, from 1."""
    if not 0 < number <= len(game.deals):
        abort(404)
    return game.deals[number - 1]


def form_data(record: DealRecord) -> dict[str, Any]:
    """A deal as its correction form starts."""
    if record.is_passed_out:
        return {"result": "passed"}
    honours = f"{record.honours_side}-{record.honours}" if record.honours else ""
    return {
        "level": record.level,
        "strain": record.strain,
        "declarer": record.declarer,
        "doubled": record.doubled,
        "honours": honours,
        "result": str((record.tricks or 0) - 6 - (record.level or 0)),
    }


@bp.route("/<game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def edit_deal(game_id: str, number: int) -> Outcome:
    """Correct a deal: the pad is redrawn from the entries, and the change logged."""

    def change(game: BridgeGame) -> Outcome | None:
        record = deal_or_404(game, number)
        seating = seating_of(game, record)
        if request.method == "GET":
            form = deal_form(game, seating, data={**form_data(record), "version": game.version})
            return render_edit(game, record, form)
        form = deal_form(game, seating)
        original = request.form.get("original")
        if original is not None and original != deal_code(record):
            form.form_errors.append(
                _(
                    "Deal %(number)d was changed on another phone while you corrected it: it "
                    "now reads %(now)s. Yours is kept below; save again to put it instead.",
                    number=number,
                    now=deal_text(record),
                )
            )
            return render_edit(game, record, form, 409)
        if not checked(game, form):
            return render_edit(game, record, form, 422)
        old, saved = deal_code(record), record.values
        put_deal(record, form)
        if deal_code(record) == old:
            flash(_("Deal %(number)d is unchanged.", number=number))
            return game_page(game)
        if rescored(game, form) is None:  # the deal as it was, shown and compared again
            for name, value in saved.items():
                setattr(record, name, value)
            return render_edit(game, record, form, 422)
        game.corrections.append(
            Correction(number=number, kind=CorrectionKind.DEAL, old=old, new=deal_code(record))
        )
        return None

    def corrected(game: BridgeGame) -> None:
        flash(_("Deal %(number)d corrected; the pad is redrawn.", number=number))

    return write_entry(lambda: scorers_game(game_id, BridgeGame), change, corrected)


def render_edit(
    game: BridgeGame, record: DealRecord, form: DealForm, status: int = 200
) -> tuple[str, int]:
    return render_template(
        "bridge/edit.html",
        game=game,
        record=record,
        form=form,
        results=RESULTS,
        original=deal_code(record),
        delete_form=ConfirmForm(data={"version": game.version}),
    ), status


@bp.post("/<game_id>/deals/<int:number>/delete")
def delete_deal(game_id: str, number: int) -> Outcome:
    """Delete a deal; the later ones move up one place, and the change is logged."""

    def change(game: BridgeGame) -> Outcome | None:
        record = deal_or_404(game, number)
        if not ConfirmForm.drawn_from(game):
            flash(_("The game changed since this page was drawn; nothing was deleted."), "error")
            return game_page(game)
        game.deals.remove(record)
        try:
            score_evening(game)
        except RuleError as error:
            flash(rule_message(error), "error")
            return game_page(game)
        game.corrections.append(
            Correction(number=number, kind=CorrectionKind.DELETED, old=deal_code(record))
        )
        return None

    def deleted(game: BridgeGame) -> None:
        flash(_("Deal %(number)d deleted; the pad is redrawn.", number=number))

    return write_entry(lambda: scorers_game(game_id, BridgeGame), change, deleted)


@bp.post("/<game_id>/seating")
def next_rubber(game_id: str) -> Outcome:
    """Start the next rubber or wheel, with the seats as the table cut them."""

    def change(game: BridgeGame) -> Outcome | None:
        evening = score_evening(game)
        if not evening.current.finished:
            return game_page(game)  # sent twice: the next rubber has begun
        form = seating_form(game, evening, formdata=request.form)
        action = request.form.get("action", "")
        pairings = partnerships(evening.current.seating)
        if action in pairings:
            seats = pairings[action]
        elif not form.check(len(game.players)):
            return render_pad(game, evening, status=422, seating=form)
        else:
            seats = form.seats()
        game.seatings.append(SeatingRecord(number=evening.current.number + 1, seats=dict(seats)))
        return None

    return write_entry(lambda: scorers_game(game_id, BridgeGame), change)


def partnerships(seating: SeatingRecord) -> dict[str, dict[str, int]]:
    """The three ways four players can pair up, North staying where they are: the same seats,
    North with East's player, North with West's."""
    north, east, south, west = (seating.player_at(seat) for seat in SEATS)
    return {
        "same": dict(seating.seats),
        "with-east": {"N": north, "S": east, "E": south, "W": west},
        "with-west": {"N": north, "S": west, "E": east, "W": south},
    }


@bp.get("/<game_id>/sheet")
def sheet(game_id: str) -> str:
    """The whole evening on paper: every rubber's pad and the players' totals."""
    game = bridge_game(game_id)
    return render_template(
        "bridge/sheet.html", game=game, evening=score_evening(game), live_game=game
    )
