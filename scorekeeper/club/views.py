"""The pages of a club session: set up, the director's page (what is in, what is missing, the
ranking), each table's phone, corrections and artificial scores, the printouts and the results
files. Links, the live version, undo and the game file come from the table core."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from scorekeeper.club import bp, files
from scorekeeper.club.family import FAMILY, CorrectionKind, table_result_label, table_token
from scorekeeper.club.forms import ArtificialForm, NamesForm, ResultForm, SetupForm, ShownForm
from scorekeeper.club.models import ClubPair, ClubResult, ClubSession, ClubTable, seating_at
from scorekeeper.contract.forms import RESULTS
from scorekeeper.contract.labels import rule_message
from scorekeeper.extensions import db
from scorekeeper.games.entries import ATTEMPTS, Outcome, game_page, start_new_game, write_entry
from scorekeeper.games.forms import ConfirmForm, ImportForm
from scorekeeper.games.links import link_base, qr_svg, share_base, share_links
from scorekeeper.games.lookup import game_started_by, get_game_or_404, scorers_game
from scorekeeper.games.models import Correction, utcnow
from scorekeeper.games.registry import file_stem
from scorekeeper.games.rights import form_key, is_scorer, remember, require_scorer
from scorekeeper.games.routes import kept_game_page
from scorekeeper.games.transfer import TransferError
from scorekeeper.games.views import new_nonce, store_imported
from scorekeeper.limits import imports_limit, new_games_limit
from scorekeeper.rules.common import RuleError, Side
from scorekeeper.rules.duplicate import Ranking, SessionScore
from scorekeeper.rules.movements import Movement, MovementKind, Seating


def club_session(game_id: str) -> ClubSession:
    return get_game_or_404(game_id, ClubSession)


# --- Set up --------------------------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
@new_games_limit
def setup() -> str | Response | tuple[str, int]:
    """A new session: movement, tables, boards a round, scoring."""
    if request.method == "GET":
        form = SetupForm(data={"nonce": new_nonce()})
        return render_template("club/setup.html", form=form)
    form = SetupForm()
    if not form.validate():
        return render_template("club/setup.html", form=form), 422
    tables = int(form.tables.data)
    settings = {
        "movement": form.movement.data,
        "tables": tables,
        "boards_per_round": int(form.boards_per_round.data),
        "pairs": form.pair_count(),
        "scoring": form.scoring.data,
        "event": form.event.data or "",
        "shown": form.shown.data,
    }
    game = ClubSession(settings=settings)
    movement = game.movement
    assert movement is not None
    game.tables = [ClubTable(number=number) for number in range(1, tables + 1)]
    game.pairs = [
        ClubPair(number=pair.number, direction=pair.direction or "")
        for pair in movement_pairs(movement)
    ]
    return start_new_game(game, form.nonce.data)


@dataclass(frozen=True)
class PairSeat:
    number: int
    direction: Side | None


def movement_pairs(movement: Movement) -> list[PairSeat]:
    """The real pairs of a movement (the phantom left out), in the order they are listed."""
    if movement.ranking is Ranking.BY_DIRECTION:
        found = [PairSeat(n, Side.NS) for n in range(1, movement.tables + 1)]
        found += [
            PairSeat(n, Side.EW) for n in range(1, movement.tables + 1) if n != movement.phantom
        ]
        return found
    return [PairSeat(n, None) for n in range(1, 2 * movement.tables + 1) if n != movement.phantom]


# --- The director's page -------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRound:
    """One table in one round, as the director's grid shows it."""

    seating: Seating
    entered: int
    expected: int
    sits_out: bool
    shared: tuple[int, ...]
    missing: tuple[int, ...]
    """The boards this table has still to enter in this round."""

    @property
    def done(self) -> bool:
        return self.entered >= self.expected


def progress(game: ClubSession, movement: Movement) -> list[list[TableRound]]:
    """Round by round, each table: how many of its boards are in."""
    entered: dict[tuple[int, int], list[ClubResult]] = {}
    for result in game.results:
        entered.setdefault((result.round, result.table), []).append(result)
    grid = []
    for number in range(1, movement.rounds + 1):
        row = []
        for seating in sorted(movement.round_seatings(number), key=lambda s: s.table):
            results = entered.get((number, seating.table), [])
            sits_out = movement.sits_out(seating)
            boards_in = {r.board for r in results}
            missing = () if sits_out else tuple(b for b in seating.boards if b not in boards_in)
            row.append(
                TableRound(
                    seating,
                    len(results),
                    0 if sits_out else len(seating.boards),
                    sits_out,
                    movement.shared_with(seating),
                    missing,
                )
            )
        grid.append(row)
    return grid


def scored(game: ClubSession) -> tuple[SessionScore | None, str | None]:
    """The session scored, or the engine's refusal (a session is only as good as its rows)."""
    try:
        return game.score(), None
    except RuleError as error:
        return None, rule_message(error)


def render_session(game: ClubSession) -> str:
    scorer = is_scorer(game.id, game.family)
    movement = game.movement
    score, problem = scored(game) if scorer or game.shows_ranking() else (None, None)
    grid = progress(game, movement) if movement is not None else []
    expected = sum(cell.expected for row in grid for cell in row)
    return render_template(
        "club/session.html",
        game=game,
        movement=movement,
        score=score,
        problem=problem,
        grid=grid,
        expected=expected,
        missing=still_missing(game, grid),
        scorer=scorer,
        links=share_links(game) if scorer else None,
        table_links=table_links(game) if scorer and movement is not None else [],
        undo_form=ConfirmForm(data={"version": game.live_version}) if scorer else None,
        close_form=ConfirmForm(data={"version": game.live_version}) if scorer else None,
        shown_form=ShownForm(data={"version": game.version, "shown": game.shown.value})
        if scorer and movement is not None
        else None,
        everything=scorer or game.shows_everything(),
        here=url_for(".session", game_id=game.id),
        live_game=game,
    )


def still_missing(game: ClubSession, grid: list[list[TableRound]]) -> list[TableRound]:
    """The tables' rounds still short of a result, up to the latest round under way: a round
    no table has begun is not missing anything yet."""
    under_way = max((result.round for result in game.results), default=0)
    return [cell for row in grid[:under_way] for cell in row if not cell.sits_out and not cell.done]


def table_links(game: ClubSession) -> list[tuple[int, str]]:
    return [(table.number, link_base() + table_path(game, table.number)) for table in game.tables]


def table_path(game: ClubSession, table: int, **arguments: Any) -> str:
    return url_for(
        ".table_page", game_id=game.id, table=table, token=table_token(game, table), **arguments
    )


@bp.get("/<game_id>")
def session(game_id: str) -> Response | str:
    """The director's page (the ranking alone for those looking on)."""

    def draw() -> str:
        return render_session(club_session(game_id))

    return kept_game_page(FAMILY, game_id, draw)


@bp.get("/<game_id>/table/<int:table>/qr.svg")
def table_qr(game_id: str, table: int) -> Response:
    """The QR code of a table's link, for its phone's camera (the director's page only)."""
    game = scorers_game(game_id, ClubSession)
    if game.table(table) is None:
        abort(404)
    response = Response(qr_svg(share_base() + table_path(game, table)), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/<game_id>/close")
def close(game_id: str) -> Outcome:
    """Close the session (no more entries from the tables), or open it again."""

    def change(game: ClubSession) -> Outcome | None:
        if not ConfirmForm.drawn_from(game):
            flash(_("The session changed since this page was drawn; try again."), "error")
            return game_page(game)
        game.setting("closed", not game.closed)
        for table in game.tables:  # a table's form drawn before the change is now stale
            table.changed()
        return None

    def done(game: ClubSession) -> None:
        flash(_("The session is closed.") if game.closed else _("The session is open again."))

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


@bp.post("/<game_id>/shown")
def change_shown(game_id: str) -> Outcome:
    """What the tables and those looking on see before the session closes."""

    def change(game: ClubSession) -> Outcome | None:
        form = ShownForm()
        if not form.validate():
            flash(_("Choose what the players see."), "error")
            return game_page(game)
        # The session's own row: the tables' entries meanwhile change nothing of this choice.
        if form.version.data != str(game.version):
            flash(_("The session changed since this page was drawn; try again."), "error")
            return game_page(game)
        game.setting("shown", form.shown.data)
        return None

    def done(game: ClubSession) -> None:
        flash(_("What the players see is changed."))

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


# --- Pairs' names --------------------------------------------------------------------------------


@bp.route("/<game_id>/pairs", methods=["GET", "POST"])
def names(game_id: str) -> Outcome:
    """The players of each pair (optional)."""

    def change(game: ClubSession) -> Outcome | None:
        if request.method == "GET":
            form = NamesForm(data={"version": game.version, "names": [p.names for p in game.pairs]})
            return render_names(game, form)
        form = NamesForm()
        if not form.validate() or len(form.names) != len(game.pairs):
            return render_names(game, form, 422)
        if form.version.data != str(game.version):
            flash(
                _("The session changed since this page was drawn; check and send again."), "error"
            )
            return render_names(game, form, 409)
        for pair, field in zip(game.pairs, form.names, strict=True):
            pair.names = field.data or ""
        return None

    def saved(game: ClubSession) -> None:
        flash(_("The pairs' names are saved."))

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, saved)


def render_names(game: ClubSession, form: NamesForm, status: int = 200) -> tuple[str, int]:
    rows = list(zip(game.pairs, form.names, strict=False))
    return render_template("club/names.html", game=game, form=form, rows=rows), status


# --- A table's phone -----------------------------------------------------------------------------


def table_or_404(game: ClubSession, table: int, token: str) -> Movement:
    """The session's movement, for a phone holding this table's link."""
    movement = game.movement
    if movement is None or game.table(table) is None:
        abort(404)
    if not secrets.compare_digest(token.encode(), table_token(game, table).encode()):
        abort(403)
    return movement


def current_round(game: ClubSession, movement: Movement, table: int) -> int | None:
    """The round this table is at: the first in which it still has a board to enter. A round
    it sits out lasts as long as another table still plays that round."""
    entered = {(r.round, r.table, r.board) for r in game.results}

    def unfinished(seating: Seating) -> bool:
        return any((seating.round, seating.table, b) not in entered for b in seating.boards)

    for seating in sorted(movement.table_seatings(table), key=lambda s: s.round):
        if not movement.sits_out(seating):
            if unfinished(seating):
                return seating.round
        elif any(
            unfinished(other)
            for other in movement.round_seatings(seating.round)
            if not movement.sits_out(other)
        ):
            return seating.round
    return None


def render_table(
    game: ClubSession,
    movement: Movement,
    table: int,
    round_: int | None,
    form: ResultForm | None = None,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
) -> tuple[str, int]:
    shown = round_ or current_round(game, movement, table)
    seating = seating_at(movement, shown, table) if shown else None
    boards = []
    next_board = None
    if seating is not None and not movement.sits_out(seating):
        for board in seating.boards:
            result = game.result_at(board, table, seating.round)
            boards.append((board, result))
            if result is None and next_board is None:
                next_board = board
    stored = game.table(table).version  # type: ignore[union-attr]
    # A refused form keeps the version it was drawn from: corrected and sent again, it is
    # still checked against what the table entered meanwhile.
    version = form.version.data if form is not None and form.version.data else stored
    if form is None and next_board is not None:
        form = ResultForm(formdata=None, data={"version": stored})
    return render_template(
        "club/table.html",
        game=game,
        movement=movement,
        table=table,
        seating=seating,
        shown=shown,
        boards=boards,
        next_board=next_board,
        form=form,
        results=RESULTS,
        version=version,
        rounds=[s for s in sorted(movement.table_seatings(table), key=lambda s: s.round)],
        next_move=next_move(movement, seating) if seating is not None else None,
        conflict=conflict,
        conflict_form=ConfirmForm() if conflict else None,
        confirm_form=ConfirmForm(data={"version": stored}),
        table_url=lambda **arguments: table_path(game, table, **arguments),
        travellers_url=url_for(
            ".table_travellers", game_id=game.id, table=table, token=table_token(game, table)
        ),
        here=table_path(game, table, round=shown) if shown else table_path(game, table),
        keep_awake=True,
    ), status


def next_move(movement: Movement, seating: Seating) -> dict[str, Any] | None:
    """Where the two pairs go after this round."""
    if seating.round >= movement.rounds:
        return None
    direction_ns = Side.NS if movement.ranking is Ranking.BY_DIRECTION else None
    direction_ew = Side.EW if movement.ranking is Ranking.BY_DIRECTION else None
    return {
        "ns": movement.next_move(seating.ns, seating.round, direction_ns),
        "ew": movement.next_move(seating.ew, seating.round, direction_ew),
    }


@bp.get("/<game_id>/table/<int:table>/<token>")
def table_page(game_id: str, table: int, token: str) -> tuple[str, int]:
    """A table's phone: the board to play, its dealer and vulnerability, and its result."""
    game = club_session(game_id)
    movement = table_or_404(game, table, token)
    round_ = request.args.get("round", type=int)
    if round_ is not None and not 1 <= round_ <= movement.rounds:
        round_ = None
    return render_table(game, movement, table, round_)


def put_result(result: ClubResult, form: ResultForm) -> None:
    result.clear()  # artificial scores too
    form.put_into(result)


def save_table(table: ClubTable) -> bool:
    """Commit a table's change, unless this table's results changed since they were loaded;
    the other tables are not in the way."""
    table.changed()
    try:
        db.session.commit()
    except (StaleDataError, IntegrityError, OperationalError) as error:
        db.session.rollback()
        if isinstance(error, OperationalError) and "locked" not in str(error):
            raise
        return False
    return True


@bp.post("/<game_id>/table/<int:table>/<token>/<int:round_>/<int:board>")
def enter_result(game_id: str, table: int, token: str, round_: int, board: int) -> Outcome:
    """North enters the table's result on a board."""
    for _attempt in range(ATTEMPTS):
        game = club_session(game_id)
        movement = table_or_404(game, table, token)
        seating = seating_at(movement, round_, table)
        if seating is None or board not in seating.boards or movement.sits_out(seating):
            abort(404)
        here = table_path(game, table, round=round_)
        if game.closed:
            flash(_("The session is closed: ask the director to change a result."), "error")
            return redirect(here)
        row = game.table(table)
        assert row is not None
        form = ResultForm()
        if not form.check():
            return render_table(game, movement, table, round_, form, 422)
        existing = game.result_at(board, table, round_)
        mine = ClubResult(board=board, table=table, round=round_, ns=seating.ns, ew=seating.ew)
        put_result(mine, form)
        try:
            mine.table_result()
        except RuleError as error:
            form.form_errors.append(rule_message(error))
            return render_table(game, movement, table, round_, form, 422)
        if existing is not None and existing.code == mine.code:  # the same form sent twice
            return redirect(here)
        if existing is not None and existing.confirmed:
            flash(_("East-West confirmed this result: ask the director to correct it."), "error")
            return redirect(here)
        if form.version.data != str(row.version) and (
            existing is not None or taken_away(game, board, table)
        ):
            # Entered on another phone meanwhile, or deleted or taken back by the director:
            # a form drawn before that puts nothing back without being asked.
            return render_table(
                game,
                movement,
                table,
                round_,
                form,
                409,
                conflict=result_conflict(game, existing, mine, row, board, round_),
            )
        if existing is not None:
            put_result(existing, form)
            existing.entered_at = utcnow()
        else:
            game.results.append(mine)
        if save_table(row):
            flash(
                _(
                    "Board %(board)d: %(result)s.",
                    board=board,
                    result=table_result_label(mine.table_result()),
                )
            )
            return redirect(here)
    abort(409)


def taken_away(game: ClubSession, board: int, table: int) -> bool:
    """Whether the director deleted or took back a result of this board at this table."""
    return any(
        change.kind in (CorrectionKind.DELETED, CorrectionKind.UNDO)
        and (change.number, change.seat) == (board, table)
        for change in game.corrections
    )


def result_conflict(
    game: ClubSession,
    theirs: ClubResult | None,
    mine: ClubResult,
    row: ClubTable,
    board: int,
    round_: int,
) -> dict[str, Any]:
    label = _("Board %(number)d", number=board)
    if theirs is None:
        buttons = {"keep": _("Leave it out"), "put": _("Enter mine again")}
        title = _("Board %(number)d: the director took this result away", number=board)
        stored = _("no result")
    else:
        buttons = {}
        title = _("Board %(number)d was entered on another phone", number=board)
        stored = table_result_label(theirs.table_result())
    return {
        **buttons,
        "title": title,
        "theirs": [(label, stored)],
        "mine": [(label, table_result_label(mine.table_result()))],
        "action": url_for(
            ".enter_result",
            game_id=game.id,
            table=row.number,
            token=table_token(game, row.number),
            round_=round_,
            board=board,
        ),
        "hidden": {
            "version": str(row.version),
            **{
                name: request.form.get(name, "")
                for name in ("level", "strain", "declarer", "doubled", "result")
            },
        },
    }


@bp.post("/<game_id>/table/<int:table>/<token>/<int:round_>/<int:board>/confirm")
def confirm_result(game_id: str, table: int, token: str, round_: int, board: int) -> Response:
    """East-West agree to the score North entered."""
    for _attempt in range(ATTEMPTS):
        game = club_session(game_id)
        table_or_404(game, table, token)
        here = table_path(game, table, round=round_)
        result = game.result_at(board, table, round_)
        row = game.table(table)
        form = ConfirmForm()
        if result is None or row is None or not form.validate():
            flash(_("There is no such result to confirm."), "error")
            return redirect(here)
        if game.closed:
            flash(_("The session is closed: ask the director to change a result."), "error")
            return redirect(here)
        if form.version.data != str(row.version) and not result.confirmed:
            flash(
                _("The result changed since this page was drawn: check it and confirm again."),
                "error",
            )
            return redirect(here)
        if result.confirmed:
            return redirect(here)
        result.confirmed = True
        if save_table(row):
            flash(_("Board %(board)d confirmed by East-West.", board=board))
            return redirect(here)
    abort(409)


# --- The director's corrections ------------------------------------------------------------------


def seated_or_404(game: ClubSession, round_: int, table: int, board: int) -> tuple[int, int]:
    """The pairs at this table in this round, if this board is played there."""
    movement = game.movement
    if movement is None:
        result = game.result_at(board, table, round_)
        if result is None:
            abort(404)
        return result.ns, result.ew
    seating = seating_at(movement, round_, table)
    if seating is None or board not in seating.boards or movement.sits_out(seating):
        abort(404)
    return seating.ns, seating.ew


def result_form_data(result: ClubResult | None) -> dict[str, Any]:
    if result is None or result.artificial_ns:
        return {}
    if result.level is None:
        return {"result": "passed"}
    return {
        "level": result.level,
        "strain": result.strain,
        "declarer": result.declarer,
        "doubled": result.doubled,
        "result": str((result.tricks or 0) - 6 - result.level),
    }


@bp.route("/<game_id>/results/<int:round_>/<int:table>/<int:board>", methods=["GET", "POST"])
def edit_result(game_id: str, round_: int, table: int, board: int) -> Outcome:
    """The director enters or corrects a result, gives artificial scores or deletes a result;
    logged. The forms carry the session's live version: a table's entry since they were drawn
    makes them stale."""
    action = request.form.get("action", "result")

    def change(game: ClubSession) -> Outcome | None:
        ns, ew = seated_or_404(game, round_, table, board)
        existing = game.result_at(board, table, round_)
        if request.method == "GET":
            return render_edit(game, round_, table, board, existing)
        if action == "delete":
            return delete_result(game, existing)
        mine = ClubResult(board=board, table=table, round=round_, ns=ns, ew=ew)
        refused = director_result(game, mine, existing, action)
        if refused is not None:
            return refused
        if existing is not None and existing.code == mine.code:
            flash(_("Board %(board)d at table %(table)d is unchanged.", board=board, table=table))
            return game_page(game)
        if request.form.get("version") != str(game.live_version):
            flash(
                _("The session changed since this page was drawn; check and send again."), "error"
            )
            return redirect(request.path)
        kind = CorrectionKind.ARTIFICIAL if mine.artificial_ns else CorrectionKind.RESULT
        old = existing.code if existing is not None else None
        if existing is None:
            existing = mine
            game.results.append(mine)
        else:
            copy_result(mine, existing)
        existing.confirmed = True
        game.corrections.append(
            Correction(number=board, seat=table, kind=kind, old=old, new=mine.code)
        )
        touch_table(game, table)
        return None

    def saved(game: ClubSession) -> None:
        flash(_("Board %(board)d at table %(table)d saved.", board=board, table=table))

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, saved)


def director_result(
    game: ClubSession, mine: ClubResult, existing: ClubResult | None, action: str
) -> Outcome | None:
    """The director's form read into ``mine``; the page again, with what is wrong, if it is."""
    round_, table, board = mine.round, mine.table, mine.board
    if action == "artificial":
        artificial = ArtificialForm()
        if not artificial.check():
            return render_edit(
                game, round_, table, board, existing, artificial=artificial, status=422
            )
        mine.clear()  # nothing of a contract stays beside artificial scores
        mine.artificial_ns, mine.artificial_ew = str(artificial.scores.data).split("/")
        return None
    form = ResultForm()
    if not form.check():
        return render_edit(game, round_, table, board, existing, form=form, status=422)
    put_result(mine, form)
    try:
        mine.table_result()
    except RuleError as error:
        form.form_errors.append(rule_message(error))
        return render_edit(game, round_, table, board, existing, form=form, status=422)
    return None


def copy_result(source: ClubResult, target: ClubResult) -> None:
    """A correction keeps the row (and when it was first entered, and its lead): only what
    the table made of the board changes."""
    for name in (
        "level",
        "strain",
        "doubled",
        "declarer",
        "tricks",
        "artificial_ns",
        "artificial_ew",
    ):
        setattr(target, name, getattr(source, name))


def delete_result(game: ClubSession, existing: ClubResult | None) -> Outcome | None:
    if existing is None or not ConfirmForm.drawn_from(game):
        flash(_("The session changed since this page was drawn; nothing was deleted."), "error")
        return game_page(game)
    game.results.remove(existing)
    game.corrections.append(
        Correction(
            number=existing.board,
            seat=existing.table,
            kind=CorrectionKind.DELETED,
            old=existing.code,
        )
    )
    touch_table(game, existing.table)
    return None


def touch_table(game: ClubSession, table: int) -> None:
    """The director's change is that table's change too: its phone's forms are now stale."""
    row = game.table(table)
    if row is not None:
        row.changed()


def render_edit(
    game: ClubSession,
    round_: int,
    table: int,
    board: int,
    existing: ClubResult | None,
    *,
    form: ResultForm | None = None,
    artificial: ArtificialForm | None = None,
    status: int = 200,
) -> tuple[str, int]:
    version = {"version": request.form.get("version") or game.live_version}
    if form is None:
        form = ResultForm(formdata=None, data={**version, **result_form_data(existing)})
    if artificial is None:
        artificial = ArtificialForm(formdata=None, data=version)
    return render_template(
        "club/edit.html",
        game=game,
        round_=round_,
        table=table,
        board=board,
        existing=existing,
        form=form,
        artificial=artificial,
        delete_form=ConfirmForm(data={"version": game.live_version}),
        results=RESULTS,
    ), status


# --- Printouts -----------------------------------------------------------------------------------


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
        grid=progress(game, movement),
        next_move=next_move,
        scorer=is_scorer(game.id, game.family),
    )


RANKING = "club/ranking.html"


def printout(game: ClubSession, template: str, *, scorer: bool, **context: Any) -> str:
    score, problem = scored(game)
    return render_template(
        template, game=game, score=score, problem=problem, scorer=scorer, **context
    )


def session_printout(game_id: str, template: str) -> str | tuple[str, int]:
    """A printout from the session's address: the director's, or what the director shows."""
    game = club_session(game_id)
    scorer = is_scorer(game.id, game.family)
    if not scorer and not (
        game.shows_ranking() if template == RANKING else game.shows_everything()
    ):
        return not_yet(game)
    return printout(game, template, scorer=scorer, back=url_for(".session", game_id=game.id))


def not_yet(game: ClubSession) -> tuple[str, int]:
    """What the players may not see yet, by the director's choice."""
    return render_template("club/not_yet.html", game=game), 403


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


@bp.get("/<game_id>/table/<int:table>/<token>/travellers")
def table_travellers(game_id: str, table: int, token: str) -> str:
    """The travellers a table's phone shows: of the boards both pairs seated there now have
    played, or every board, as the director chose."""
    game = club_session(game_id)
    movement = table_or_404(game, table, token)
    seating = seating_at(movement, current_round(game, movement, table) or movement.rounds, table)
    assert seating is not None
    return printout(
        game,
        "club/travellers.html",
        scorer=False,
        boards=sorted(game.boards_shown_at(seating)),
        back=table_path(game, table),
        table=table,
    )


# --- Results files -------------------------------------------------------------------------------


def shared_file(game_id: str) -> ClubSession:
    """The session, for whoever may have its results files now."""
    game = club_session(game_id)
    if not FAMILY.file_for_everyone(game):
        require_scorer(game)
    return game


@bp.get("/<game_id>/session.pbn")
def export_pbn(game_id: str) -> Response:
    game = shared_file(game_id)
    return Response(
        files.pbn_of(game),
        mimetype="application/x-pbn",
        headers={"Content-Disposition": f'attachment; filename="{file_stem(game)}.pbn"'},
    )


@bp.get("/<game_id>/session.xml")
def export_usebio(game_id: str) -> Response:
    game = shared_file(game_id)
    return Response(
        files.usebio_of(game),
        mimetype="application/xml",
        headers={"Content-Disposition": f'attachment; filename="{file_stem(game)}-usebio.xml"'},
    )


@bp.route("/import", methods=["GET", "POST"])
@imports_limit
def import_results() -> str | Response | tuple[str, int]:
    """A session scored elsewhere, from its PBN or USEBIO results file: checked and published
    here."""
    form = ImportForm()
    form.file.label.text = _("Results file (.pbn or USEBIO .xml)")
    if form.validate_on_submit():
        key = form_key(form.nonce.data)
        if (same := game_started_by(key)) is not None:
            remember(same.id, scorer=True)
            return game_page(same)
        try:
            game = files.session_from_file(form.file.data.read(ImportForm.MAX_BYTES + 1))
        except TransferError as error:
            form.file.errors.append(str(error))
        else:
            return store_imported(game, key)
    if not form.nonce.data:
        form.nonce.data = new_nonce()
    status = 422 if form.is_submitted() else 200
    return render_template("club/import.html", form=form), status


__all__ = ["MovementKind"]
