"""The director's corrections of the results: a result entered, changed, given artificial
scores or deleted, its pairs' seats switched, moved to the board the table played instead."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import flash, redirect, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from scorekeeper.club import bp
from scorekeeper.club.family import (
    CorrectionKind,
    pair_label,
)
from scorekeeper.club.forms import (
    ArtificialForm,
    MoveForm,
    ResultForm,
)
from scorekeeper.club.models import ClubSession
from scorekeeper.club.printouts import boards_of
from scorekeeper.club.rows import ClubResult
from scorekeeper.club.table import TableResults, seated_or_404
from scorekeeper.contract.forms import RESULTS
from scorekeeper.games.entries import EntryKind, EntryWords
from scorekeeper.games.forms import ConfirmForm
from scorekeeper.games.lookup import scorers_game
from scorekeeper.games.models import Correction
from scorekeeper.games.routes import add_entry_routes
from scorekeeper.games.writes import Outcome, drawn_from_now, game_page, write_entry
from scorekeeper.rules.common import Side
from scorekeeper.rules.duplicate import pairs_of
from scorekeeper.rules.movements import (
    Place,
)


class DirectorResults(TableResults):
    """A table's result as the director enters, corrects, gives artificial scores or deletes
    it: confirmed, logged, and the table's phone's forms made stale."""

    endpoint = "director_result"
    deleted = CorrectionKind.DELETED
    words = EntryWords(
        label=_l("Board %(board)d, table %(table)d"),
        corrected=_l("Board %(board)d at table %(table)d saved."),
        unchanged=_l("Board %(board)d at table %(table)d is unchanged."),
        changed_meanwhile=_l(
            "Board %(board)d at table %(table)d was entered or changed since this page was "
            "drawn: it now reads %(now)s. Yours is kept below; save again to put it instead."
        ),
        deleted=_l("Board %(board)d at table %(table)d deleted."),
    )

    def url(self, game: ClubSession, key: Place, action: str = "") -> str:
        return EntryKind.url(self, game, key, action)

    def load(self, game_id: str, route: Mapping[str, Any]) -> ClubSession:
        game = scorers_game(game_id, ClubSession)
        seated_or_404(game, *self.key(**route))
        return game

    def unchangeable(self, game: ClubSession, key: Place, entry: ClubResult) -> str | None:
        return None

    def missing(self, game: ClubSession, key: Place) -> ClubResult | None:
        return self.new(game, key)

    def form(self, game: ClubSession, key: Place, **kwargs: Any) -> Any:
        if request.form.get("action") == "artificial":
            return ArtificialForm(**kwargs)
        return ResultForm(asks_lead=asks_lead_of_director(game), **kwargs)

    def check(self, game: ClubSession, key: Place, form: Any) -> bool:
        if isinstance(form, ArtificialForm):
            return form.check()
        return super().check(game, key, form)

    def lead_checked(self, game: ClubSession, key: Place, form: Any) -> bool:
        """The director's word stands: a board fouled at the table holds other cards than
        its hand record, and its lead is entered as it was made."""
        return True

    def put(self, game: ClubSession, entry: ClubResult, form: Any) -> None:
        """The director's word: a result, or artificial scores; either way, confirmed. The
        row keeps when it was entered (undo takes back the result entered last)."""
        entry.clear()
        if isinstance(form, ArtificialForm):
            entry.artificial_ns, entry.artificial_ew = str(form.scores.data).split("/")
            entry.lead = ""
        else:
            form.put_into(entry)
        entry.confirmed = True

    def render_correction(
        self, game: ClubSession, key: Place, entry: ClubResult, form: Any, status: int = 200
    ) -> tuple[str, int]:
        round_, table, board = key
        existing = self.find(game, key)
        drawn = {"drawn_from": form.drawn_from.data or ""}
        if isinstance(form, ArtificialForm):
            asks_lead = asks_lead_of_director(game)
            result_form, artificial = (
                ResultForm(formdata=None, data=drawn, asks_lead=asks_lead),
                form,
            )
        else:
            result_form, artificial = form, ArtificialForm(formdata=None, data=drawn)
        return render_template(
            "club/edit.html",
            game=game,
            round_=round_,
            table=table,
            board=board,
            existing=existing,
            form=result_form,
            artificial=artificial,
            delete_form=self.stamped(existing),
            move_form=move_form(game, key, existing),
            seats_form=seats_form(game, existing),
            results=RESULTS,
        ), status

    def page(self, game: ClubSession, key: Place) -> Response:
        return game_page(game)


DIRECTOR_RESULTS = DirectorResults()


def asks_lead_of_director(game: ClubSession) -> bool:
    """Whether the director's form of a result has the lead: where the tables give it, or a
    results file gave leads (the director may need to correct one; optional either way)."""
    return game.asks_lead or any(result.lead for result in game.results)


add_entry_routes(
    bp, DIRECTOR_RESULTS, "/results/<int:round_>/<int:table>/<int:board>", entered=False, edit=""
)


def move_token(result: ClubResult) -> str:
    """What a move form is drawn from: the result as it stands, and its board."""
    return f"{DIRECTOR_RESULTS.stamp(result)}@{result.board}"


def move_targets(game: ClubSession, key: Place) -> list[int]:
    """The boards a result may be moved to: the session's others with no result at this
    table in this round."""
    round_, table, board = key
    return [
        other
        for other in boards_of(game)
        if other != board and game.result_at(other, table, round_) is None
    ]


def seats_token(result: ClubResult) -> str:
    """What a seats form is drawn from: the result as it stands, and who sat where."""
    return f"{DIRECTOR_RESULTS.stamp(result)}@{result.ns}-{result.ew}-{result.switched}"


def seats_form(game: ClubSession, result: ClubResult | None) -> ConfirmForm | None:
    if result is None or game.movement is None:
        return None
    return ConfirmForm(formdata=None, data={"drawn_from": seats_token(result)})


@bp.post("/<game_id>/results/<int:round_>/<int:table>/<int:board>/seats")
def switch_seats(game_id: str, round_: int, table: int, board: int) -> Outcome:
    """The pairs sat the other way round on this board: each earns the score of the seats it
    held (in a Mitchell, the North-South pair the East-West score). Sent again, it puts them
    back; the log says it either way."""
    key = (round_, table, board)
    seated: list[str] = []

    def change(game: ClubSession) -> Outcome | None:
        result = game.result_at(board, table, round_)
        form = ConfirmForm()
        if result is None or game.movement is None or not form.validate():
            flash(_("There is no such result; nothing was changed."), "error")
            return game_page(game)
        if not drawn_from_now(form, seats_token(result)):
            flash(_("This result changed since the page was drawn; nothing was changed."), "error")
            return redirect(DIRECTOR_RESULTS.url(game, key, "edit"))
        result.ns, result.ew = result.ew, result.ns
        result.switched = not result.switched
        north = pairs_of(result.table_result(), game.ranking)[0]
        seated.append(pair_label(north))
        game.corrections.append(
            Correction(
                number=board,
                seat=table,
                kind=CorrectionKind.SEATS,
                old=result.code,
                new=seated[0],
            )
        )
        return None

    def saved(game: ClubSession) -> None:
        flash(
            _(
                "Board %(board)d at table %(table)d: %(pair)s sat North-South; everything is "
                "scored again.",
                board=board,
                table=table,
                pair=seated[0],
            )
        )

    return write_entry(
        lambda: scorers_game(game_id, ClubSession),
        change,
        saved,
        lock=lambda game: DIRECTOR_RESULTS.lock(game, key),
    )


def move_form(game: ClubSession, key: Place, result: ClubResult | None) -> MoveForm | None:
    if result is None or game.movement is None or not (targets := move_targets(game, key)):
        return None
    form = MoveForm(formdata=None, data={"drawn_from": move_token(result)})
    form.board.choices = [(board, _("Board %(number)d", number=board)) for board in targets]
    return form


@bp.post("/<game_id>/results/<int:round_>/<int:table>/<int:board>/move")
def move_result(game_id: str, round_: int, table: int, board: int) -> Outcome:
    """A result entered for the wrong board, moved to the board the table played (the pairs
    played that one instead): everything is scored again, and the log says what moved."""
    key = (round_, table, board)
    moved: list[int] = []

    def change(game: ClubSession) -> Outcome | None:
        result = game.result_at(board, table, round_)
        if result is None or game.movement is None:
            flash(_("There is no such result to move; nothing was changed."), "error")
            return game_page(game)
        form = MoveForm()
        form.board.choices = [(other, str(other)) for other in move_targets(game, key)]
        refusal: str | None
        if not form.validate():
            refusal = _("Choose a board with no result at this table in this round.")
        elif not drawn_from_now(form, move_token(result)):
            refusal = _("This result changed since the page was drawn; nothing was moved.")
        else:
            refusal = move_refusal(game, result, int(form.board.data))
        if refusal is not None:
            flash(refusal, "error")
            return redirect(DIRECTOR_RESULTS.url(game, key, "edit"))
        moved.append(int(form.board.data))
        game.corrections.append(
            Correction(
                number=board,
                seat=table,
                kind=CorrectionKind.MOVED,
                old=result.code,
                new=str(moved[0]),
            )
        )
        result.board, result.confirmed = moved[0], True
        return None

    def saved(game: ClubSession) -> None:
        flash(
            _(
                "The result of board %(board)d at table %(table)d is now board %(target)d's; "
                "everything is scored again. Board %(board)d has no result there now: the "
                "table's phone asks for it until it is played or given an artificial score.",
                board=board,
                table=table,
                target=moved[0],
            )
        )

    return write_entry(
        lambda: scorers_game(game_id, ClubSession),
        change,
        saved,
        lock=lambda game: DIRECTOR_RESULTS.lock(game, key),
    )


def move_refusal(game: ClubSession, result: ClubResult, target: int) -> str | None:
    """Why ``result`` may not become board ``target``'s: a pair would hold two results on
    one board, now or once it plays the board where the movement seats it."""
    played = set(pairs_of(result.table_result(), game.ranking))
    for other in game.results:
        if other.board == target and played & set(pairs_of(other.table_result(), game.ranking)):
            return _(
                "These pairs have a result on board %(board)d already, at table %(table)d: "
                "correct that one first.",
                board=target,
                table=other.table,
            )
    movement = game.movement
    assert movement is not None
    for seating in movement.seatings:
        seated = {game.pair_key(seating.ns, Side.NS), game.pair_key(seating.ew, Side.EW)}
        here = (seating.round, seating.table) == (result.round, result.table)
        if (
            target in seating.boards
            and not here  # the board this very result is moved to
            and seated & played
            and not movement.sits_out(seating)
            and game.result_at(target, seating.table, seating.round) is None
        ):
            return _(
                "These pairs still have board %(board)d to play, in round %(round)d at table "
                "%(table)d: give this board an artificial score instead.",
                board=target,
                round=seating.round,
                table=seating.table,
            )
    return None
