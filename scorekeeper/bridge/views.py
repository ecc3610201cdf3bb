"""The pages of an evening of bridge: a new evening, the pad with the next deal, corrections,
the next rubber's seats, the printed pad. Links, the live version, undo and the game file come
from the table core (scorekeeper.games)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from flask import flash, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from scorekeeper.bridge import bp
from scorekeeper.bridge.evening import Evening, Round, score_evening
from scorekeeper.bridge.family import FAMILY, CorrectionKind, deal_code, partners_label
from scorekeeper.bridge.forms import RESULTS, SEATS, DealForm, SeatingForm, SetupForm, choices
from scorekeeper.bridge.labels import deal_text, rule_message
from scorekeeper.bridge.models import BridgeGame, DealRecord, SeatingRecord
from scorekeeper.games.entries import EntryKind, EntryWords, page_context
from scorekeeper.games.lookup import get_game_or_404, scorers_game
from scorekeeper.games.models import Player
from scorekeeper.games.rights import is_scorer
from scorekeeper.games.routes import add_entry_routes
from scorekeeper.games.views import new_game_form
from scorekeeper.games.writes import Outcome, as_it_stands, game_page, write_entry
from scorekeeper.limits import new_games_limit
from scorekeeper.rules.bridge import Side
from scorekeeper.serving import kept_page


def bridge_game(game_id: str) -> BridgeGame:
    return get_game_or_404(game_id, BridgeGame)


@bp.route("/new", methods=["GET", "POST"])
@new_games_limit
def setup() -> str | Response | tuple[str, int]:
    """Four players in their seats, rubber or Chicago, the first dealer, the settlement's
    rounding; then start."""

    def build(form: SetupForm) -> BridgeGame:
        return BridgeGame(
            chicago=form.form.data == "chicago",
            as_duplicate=form.form.data == "chicago" and bool(form.as_duplicate.data),
            first_dealer=form.first_dealer.data,
            rounding=form.rounding.data,
            players=[Player(seat=seat, name=name) for seat, name in enumerate(form.names())],
            seatings=[SeatingRecord(number=1, seats={s.value: n for n, s in enumerate(SEATS)})],
        )

    return new_game_form(SetupForm, "bridge/setup.html", build)


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
    form = SeatingForm(data={**data, "drawn_from": drawn_after(current)}, **kwargs)
    players = choices(list(enumerate(game.names)))
    for field in (form.north, form.east, form.south, form.west):
        field.choices = players
    return form


def render_pad(
    game: BridgeGame,
    form: DealForm | None = None,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
    *,
    evening: Evening | None = None,
    seating: SeatingForm | None = None,
) -> tuple[str, int]:
    evening = evening or score_evening(game)
    scorer = is_scorer(game.id, game.family)
    current = evening.current
    if scorer and form is None and not current.finished:
        data = {"drawn_from": game.version}
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
        **page_context(game, url_for(".pad", game_id=game.id), scorer=scorer, conflict=conflict),
        keep_awake=True,
    ), status


@bp.get("/<game_id>")
def pad(game_id: str) -> Response | str:
    """The pad: the next deal to enter, the rubber so far, the evening's totals."""

    def draw() -> str:
        return render_pad(bridge_game(game_id))[0]

    return kept_page(FAMILY, game_id, draw)


class Deals(EntryKind[BridgeGame, DealRecord]):
    """The deals of an evening, numbered by their place in it."""

    game = BridgeGame
    endpoint = "deal"
    listed = "deals"
    corrected = CorrectionKind.DEAL
    deleted = CorrectionKind.DELETED
    score = staticmethod(score_evening)
    explain = staticmethod(rule_message)
    draw = staticmethod(render_pad)
    words = EntryWords(
        label=_l("Deal %(number)d"),
        entered=_l("Deal %(number)d entered: %(entry)s."),
        corrected=_l("Deal %(number)d corrected; the pad is redrawn."),
        unchanged=_l("Deal %(number)d is unchanged."),
        changed_meanwhile=_l(
            "Deal %(number)d was changed on another phone while you corrected it: it now reads "
            "%(now)s. Yours is kept below; save again to put it instead."
        ),
        not_now=_l("That deal is not the one being played; nothing was changed."),
        deleted=_l("Deal %(number)d deleted; the pad is redrawn."),
    )

    def text(self, game: BridgeGame, entry: DealRecord) -> str:
        return deal_text(entry)

    def refuse(self, game: BridgeGame, key: int) -> Outcome | None:
        if key != len(game.deals) + 1:
            return self.not_now(game, key)
        if score_evening(game).current.finished:
            over = (
                _("This Chicago wheel is over: choose who sits where for the next one.")
                if game.chicago
                else _("This rubber is over: choose who sits where for the next one.")
            )
            flash(over, "error")
            return game_page(game)
        return None

    def seating(self, game: BridgeGame, key: int) -> SeatingRecord:
        """Who sat where for the deal: its rubber's seats, or the seats of the rubber played."""
        record = self.find(game, key)
        return seating_of(game, record) if record else score_evening(game).current.seating

    def form(self, game: BridgeGame, key: int, **kwargs: Any) -> DealForm:
        return deal_form(game, self.seating(game, key), **kwargs)

    def form_data(self, game: BridgeGame, entry: DealRecord) -> dict[str, Any]:
        return DealForm.data_of(entry)

    def check(self, game: BridgeGame, key: int, form: Any) -> bool:
        """The deal form's checks, and honours only where they score: a Chicago scored as
        duplicate has none (its form does not offer them)."""
        if not self.valid(game, key, form):
            return False
        if game.as_duplicate and form.honours.data and not form.passed_out():
            form.form_errors.append(
                _("Honours do not count when every deal is scored as duplicate.")
            )
            return False
        return True

    def new(self, game: BridgeGame, key: int) -> DealRecord:
        record = self.find(game, key)
        rubber = record.rubber if record else score_evening(game).current.number
        return DealRecord(number=next_number(game), rubber=rubber)

    def put(self, game: BridgeGame, entry: DealRecord, form: Any) -> None:
        """The form's deal in the record (a passed-out deal keeps nothing else)."""
        form.put_into(entry)
        entry.honours_side, entry.honours = (
            (None, None) if form.passed_out() else form.honours_claim
        )

    def code(self, entry: DealRecord) -> str:
        return deal_code(entry)

    def again(self, game: BridgeGame, key: int, mine: DealRecord) -> list[tuple[str, str]]:
        return self.last_alike(game, mine)

    def render_correction(
        self, game: BridgeGame, key: int, entry: DealRecord, form: Any, status: int = 200
    ) -> tuple[str, int]:
        return render_template(
            "bridge/edit.html",
            game=game,
            number=key,
            record=entry,
            form=form,
            results=RESULTS,
            delete_form=self.stamped(entry),
        ), status


DEALS = Deals()
add_entry_routes(bp, DEALS, "/deals/<int:number>")


def next_number(game: BridgeGame) -> int:
    """The next deal's key: deals keep theirs when an earlier one is deleted."""
    return max((record.number for record in game.deals), default=0) + 1


@bp.post("/<game_id>/seating")
def next_rubber(game_id: str) -> Outcome:
    """Start the next rubber or wheel, with the seats as the table cut them; or, sent with
    ``instead``, seat the rubber another phone began (no deal played in it yet) as this one
    asked."""

    def change(game: BridgeGame) -> Outcome | None:
        evening = score_evening(game)
        current = evening.current
        replacing = (
            request.form.get("instead", "") == str(current.number)
            and len(evening.rounds) > 1
            and not current.records
        )
        after = evening.rounds[-2] if replacing else current
        drawn = request.form.get("drawn_from", "")
        if not replacing and drawn.startswith(DRAWN_AFTER):
            # Drawn at the end of an earlier rubber (kept on a phone, a page left open): the
            # rubber it asked for was begun since, and it seats no later one.
            begun = next(
                (
                    later
                    for played, later in pairwise(evening.rounds)
                    if drawn == drawn_after(played)
                ),
                None,
            )
            if begun is not None:
                return begun_already(game, evening, begun)
            if drawn != drawn_after(current) or not current.finished:
                # Its rubber is not over now (its last deal taken back), or is gone.
                return not_over(game, evening)
        if not current.finished and not replacing:
            return begun_already(game, evening)
        seats = asked_seats(game, evening, after)
        if isinstance(seats, tuple):
            return seats
        if replacing:
            current.seating.seats = dict(seats)
        else:
            game.seatings.append(SeatingRecord(number=current.number + 1, seats=dict(seats)))
        return None

    return write_entry(lambda: scorers_game(game_id, BridgeGame), change)


def asked_seats(
    game: BridgeGame, evening: Evening, after: Round
) -> dict[str, int] | tuple[str, int]:
    """The seats the form asks for after the rubber ``after``: one of its three pairings, or
    each seat as chosen; the pad with what is wrong when the choice is not four players."""
    form = seating_form(game, evening, formdata=request.form)
    action = request.form.get("action", "")
    pairings = partnerships(after.seating)
    if action in pairings:
        return pairings[action]
    if not form.check(len(game.players)):
        return render_pad(game, status=422, evening=evening, seating=form)
    return form.seats()


DRAWN_AFTER = "after-"


def drawn_after(played: Round) -> str:
    """What a seating form is drawn from: the rubber or wheel it follows."""
    return f"{DRAWN_AFTER}{played.number}"


def not_over(game: BridgeGame, evening: Evening) -> Outcome:
    """A seating sent while the rubber or wheel it would follow is not over: refused."""
    if game.chicago:
        flash(_("This Chicago wheel is not over: the next one is seated when it is."), "error")
    else:
        flash(_("This rubber is not over: the next one is seated when it is."), "error")
    return render_pad(game, status=409, evening=evening)


def begun_already(game: BridgeGame, evening: Evening, begun: Round | None = None) -> Outcome:
    """A seating sent while a rubber is in progress (``begun``, by default the last). Sent
    twice, or by two phones alike: the rubber it asked for has begun with those seats, and that
    is what the game holds. Begun by another phone with other seats: both shown, with one tap
    to seat this phone's choice while no deal is played in it. A rubber not over (a deal
    deleted since): refused."""
    current = evening.current
    if begun is None:
        begun = current if len(evening.rounds) > 1 else None
    if begun is None:
        return not_over(game, evening)
    before = evening.rounds[evening.rounds.index(begun) - 1]
    action = request.form.get("action", "")
    pairings = partnerships(before.seating)
    if action in pairings:
        asked: dict[str, int] | None = pairings[action]
    else:
        form = seating_form(game, evening, formdata=request.form)
        asked = form.seats() if form.check(len(game.players)) else None
    if asked == {seat: int(player) for seat, player in begun.seating.seats.items()}:
        as_it_stands()
        return game_page(game)
    label = (
        _("Chicago wheel %(number)d", number=begun.number)
        if game.chicago
        else _("Rubber %(number)d", number=begun.number)
    )
    conflict: dict[str, Any] = {
        "title": _("%(entry)s was begun on another phone", entry=label),
        "theirs": seated(game, begun.seating),
        "mine": seated(game, SeatingRecord(number=begun.number, seats=asked)) if asked else None,
        "keep": _("Keep theirs"),
    }
    if asked and begun is current and not current.records:
        conflict["action"] = url_for(".next_rubber", game_id=game.id)
        conflict["hidden"] = {
            "drawn_from": drawn_after(before),
            "instead": current.number,
            **{name: asked[seat.value] for name, seat in zip(SEAT_FIELDS, SEATS, strict=True)},
        }
        conflict["put"] = _("Seat mine instead")
    return render_pad(game, status=409, evening=evening, conflict=conflict)


SEAT_FIELDS = ("north", "east", "south", "west")


def seated(game: BridgeGame, seating: SeatingRecord) -> list[tuple[str, str]]:
    return [
        (_("North-South"), partners_label(game, seating, Side.NS)),
        (_("East-West"), partners_label(game, seating, Side.EW)),
    ]


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
