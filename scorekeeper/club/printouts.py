"""The printouts of a session: the movement and table cards, the ranking, the travellers, the
score cards, and the hand records (a dealing program's file, or dealt here)."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.club import bp
from scorekeeper.club.forms import (
    HandsForm,
)
from scorekeeper.club.hands import (
    deals_at_random,
    hand_records,
    put_deals,
    solver,
)
from scorekeeper.club.labels import file_message
from scorekeeper.club.models import ClubSession
from scorekeeper.club.pages import club_session, not_yet, printout
from scorekeeper.games.lookup import scorers_game
from scorekeeper.games.rights import is_scorer
from scorekeeper.games.writes import Outcome, drawn_from_now, write_entry
from scorekeeper.rules.common import RuleError
from scorekeeper.rules.hands import solver_available
from scorekeeper.rules.pbn import read_hand_records


@bp.get("/<game_id>/movement")
def movement_cards(game_id: str) -> str:
    """The movement as a grid, and one card per table: who sits there, which boards, where
    the pairs go next."""
    game = club_session(game_id)
    movement = game.movement
    if movement is None:
        abort(404)
    return render_template(
        "club/movement.html",
        game=game,
        movement=movement,
        grid=movement.progress(game.entered),
        scorer=is_scorer(game.id, game.family),
    )


RANKING = "club/ranking.html"


def session_printout(game_id: str, template: str) -> str | tuple[str, int]:
    """A printout from the session's address: the director's, or what the director shows."""
    game = club_session(game_id)
    scorer = is_scorer(game.id, game.family)
    if not scorer and not (
        game.shows_ranking() if template == RANKING else game.shows_everything()
    ):
        return not_yet(game)
    # The hands only once the session is closed: a board's hands are for those who played it.
    hands = hand_records(game) if scorer or game.hands_public() else {}
    back = url_for(".session", game_id=game.id)
    return printout(game, template, scorer=scorer, back=back, hands=hands)


@bp.get("/<game_id>/ranking")
def ranking(game_id: str) -> str | tuple[str, int]:
    """The ranking, for the notice board."""
    return session_printout(game_id, RANKING)


@bp.get("/<game_id>/travellers")
def travellers(game_id: str) -> str | tuple[str, int]:
    """Every board's traveller, with the matchpoints."""
    return session_printout(game_id, "club/travellers.html")


@bp.get("/<game_id>/cards")
def score_cards(game_id: str) -> str | tuple[str, int]:
    """Each pair's personal score card."""
    return session_printout(game_id, "club/cards.html")


def boards_of(game: ClubSession) -> list[int]:
    """The session's boards: its movement's, or those its results file has."""
    movement = game.movement
    if movement is not None:
        return list(range(1, movement.boards + 1))
    return sorted({result.board for result in game.results})


@bp.route("/<game_id>/hands", methods=["GET", "POST"])
def hands(game_id: str) -> Outcome:
    """The boards' deals: a dealing program's PBN file, or dealt here for a dealing machine;
    each solved double dummy in the background once it is kept."""
    kept: list[int] = []
    scorers_game(game_id, ClubSession)  # the director's page alone: asked before the upload
    form = HandsForm() if request.method == "POST" else None
    upload = None
    if form is not None and form.file.data:
        # Read once, as the write below may be tried again; put back for the size check.
        upload = form.file.data.read(HandsForm.MAX_BYTES + 1)
        form.file.data.seek(0)

    def change(game: ClubSession) -> Outcome | None:
        if form is None:
            return render_hands(game, HandsForm(formdata=None, data={"drawn_from": game.version}))
        if of_event(game):
            flash(_("Every club plays the event's deals: they are the organiser's."), "error")
            return render_hands(game, form, 409)
        if not form.validate():
            return render_hands(game, form, 422)
        if not drawn_from_now(form, game.version):
            flash(_("The session changed since this page was drawn; send again."), "error")
            form.drawn_from.data = str(game.version)  # drawn again from the session as it is
            return render_hands(game, form, 409)
        deals = deals_given(game, form, upload)
        if deals is None:
            return render_hands(game, form, 422)
        put_deals(game, deals)
        kept[:] = sorted(deals)
        return None

    def saved(game: ClubSession) -> None:
        solver().solve_later(game.id)
        flash(
            ngettext(
                "The hands of %(num)d board are kept; what each declarer makes follows in a "
                "moment.",
                "The hands of %(num)d boards are kept; what each declarer makes follows in a "
                "moment.",
                len(kept),
            )
        )

    return write_entry(
        lambda: scorers_game(game_id, ClubSession),
        change,
        saved,
        page=lambda game: redirect(url_for(".hands", game_id=game.id)),
    )


def deals_given(game: ClubSession, form: HandsForm, upload: bytes | None) -> dict[int, str] | None:
    """The deals the director gives the session's boards: dealt here at random (for a session
    played here), or read from the file; ``None``, the form saying why, when there are none."""
    boards = boards_of(game)
    if request.form.get("action") == "deal" and game.movement is not None:
        return deals_at_random(boards)
    if upload is None:
        form.file.errors = [_("Choose a PBN file of hand records.")]
        return None
    try:
        found = read_hand_records(upload)
    except RuleError as error:
        form.file.errors = [file_message(error)]
        return None
    deals = {board: deal.to_pbn() for board, deal in found.items() if board in boards}
    if not deals:
        form.file.errors = [_("The file has no deal for this session's boards.")]
        return None
    return deals


def of_event(game: ClubSession) -> bool:
    """Whether the session is a club's section of a simultaneous: its boards are the event's."""
    return game.field_id is not None and game.field is not None and game.field.simultaneous


def render_hands(game: ClubSession, form: HandsForm, status: int = 200) -> tuple[str, int]:
    records = hand_records(game)
    return render_template(
        "club/hands.html",
        game=game,
        event=game.field if of_event(game) else None,
        form=form,
        boards=boards_of(game),
        records=records,
        solver=solver_available(),
    ), status


@bp.get("/<game_id>/hands/print")
def hand_record_sheets(game_id: str) -> str | tuple[str, int]:
    """The hand records, four boards a page: for the director at any time (a dealing
    machine's sheets), for the players once the session is closed."""
    game = club_session(game_id)
    scorer = is_scorer(game.id, game.family)
    if not scorer and not game.hands_public():
        return not_yet(game)
    records = hand_records(game)
    back = url_for(".hands", game_id=game.id) if scorer else url_for(".session", game_id=game.id)
    return render_template("club/hand_records.html", game=game, records=records, back=back)
