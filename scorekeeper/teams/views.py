"""The pages of a teams match: a new match, the match page with the next table's result and
the running score, corrections, the printed match sheet and its CSV. Links, the live version,
undo and the game file come from the table core (scorekeeper.games)."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.contract.labels import SEAT_NAMES, rule_message
from scorekeeper.games.entries import Outcome, game_page, start_new_game, write_entry
from scorekeeper.games.forms import ConfirmForm
from scorekeeper.games.links import share_links
from scorekeeper.games.lookup import get_game_or_404, scorers_game
from scorekeeper.games.models import Correction, Player
from scorekeeper.games.rights import is_scorer
from scorekeeper.games.routes import kept_game_page
from scorekeeper.games.spreadsheet import csv_download
from scorekeeper.games.views import new_nonce
from scorekeeper.limits import new_games_limit
from scorekeeper.rules.common import RuleError
from scorekeeper.teams import bp
from scorekeeper.teams.family import FAMILY, CorrectionKind, logged_code, points, result_text
from scorekeeper.teams.forms import RESULTS, ResultForm, SetupForm
from scorekeeper.teams.match import Match, score_match
from scorekeeper.teams.models import SEATS, TABLES, TableResult, TeamsGame, team_at


def teams_game(game_id: str) -> TeamsGame:
    return get_game_or_404(game_id, TeamsGame)


@bp.route("/new", methods=["GET", "POST"])
@new_games_limit
def setup() -> str | Response | tuple[str, int]:
    """The two teams, who sits where, the boards; then start."""
    if request.method == "GET":
        form = SetupForm(data={"nonce": new_nonce()})
        return render_template("teams/setup.html", form=form)
    form = SetupForm()
    if not form.validate():
        return render_template("teams/setup.html", form=form), 422
    game = TeamsGame(
        team_names=(form.team_a.data, form.team_b.data),
        boards=form.boards.data,
        first_board=form.first_board.data,
        players=[Player(seat=seat, name=name) for seat, name in form.players()],
    )
    return start_new_game(game, form.nonce.data)


# --- The match page ---------------------------------------------------------------------------


def render_match(
    game: TeamsGame,
    match: Match | None = None,
    form: ResultForm | None = None,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
) -> tuple[str, int]:
    match = match or score_match(game)
    scorer = is_scorer(game.id, game.family)
    if scorer and form is None and match.next is not None:
        form = ResultForm(game, match.next[1], formdata=None, data={"version": game.version})
    return render_template(
        "teams/match.html",
        game=game,
        match=match,
        form=form,
        results=RESULTS,
        scorer=scorer,
        undo_form=ConfirmForm(data={"version": game.version}) if scorer else None,
        links=share_links(game) if scorer else None,
        conflict=conflict,
        conflict_form=ConfirmForm() if conflict else None,
        here=url_for(".match", game_id=game.id),
        live_game=game,
        keep_awake=not match.finished,
    ), status


@bp.get("/<game_id>")
def match(game_id: str) -> Response | str:
    """The next table's result to enter, the boards so far, the IMPs and victory points."""

    def draw() -> str:
        return render_match(teams_game(game_id))[0]

    return kept_game_page(FAMILY, game_id, draw)


def put_result(record: TableResult, form: ResultForm) -> None:
    """The form's result in the record (a passed-out board keeps nothing else)."""
    form.put_into(record)


def scores(game: TeamsGame, form: ResultForm) -> bool:
    """Whether the engine scores the match as changed; if not, its refusal is on the form."""
    try:
        score_match(game)
    except RuleError as error:
        form.form_errors.append(rule_message(error))
        return False
    return True


@bp.post("/<game_id>/boards/<int:board>/tables/<int:table>")
def enter_result(game_id: str, board: int, table: int) -> Outcome:
    """Store the next table's result."""

    def change(game: TeamsGame) -> Outcome | None:
        match = score_match(game)
        form = ResultForm(game, table if table in TABLES else 1)
        if (stored := game.result(board, table)) is not None:
            return entered_elsewhere(game, match, form, stored)
        if match.next != (board, table):
            message = (
                _("The match is over; nothing was changed.")
                if match.finished
                else _("That is not the board and table to enter now; nothing was changed.")
            )
            flash(message, "error")
            return game_page(game)
        if not form.check():
            return render_match(game, match, form, 422)
        record = TableResult(board=board, table=table)
        put_result(record, form)
        game.results.append(record)
        if not scores(game, form):
            game.results.remove(record)
            return render_match(game, match, form, 422)
        return None

    def entered(game: TeamsGame) -> None:
        text = result_text(game.results[-1])
        flash(
            _(
                "Board %(board)d, table %(table)d entered: %(result)s.",
                board=board,
                table=table,
                result=text,
            )
        )

    return write_entry(lambda: scorers_game(game_id, TeamsGame), change, entered)


def entered_elsewhere(
    game: TeamsGame, match: Match, form: ResultForm, stored: TableResult
) -> Outcome:
    """A result already entered: the same again changes nothing; another phone's is shown
    beside mine, and one tap puts mine in its place."""
    if not form.check():
        flash(_("That result is entered already; nothing was changed."), "error")
        return game_page(game)
    mine = TableResult(board=stored.board, table=stored.table)
    put_result(mine, form)
    if mine.values == stored.values:
        return game_page(game)
    where = _("Board %(board)d, table %(table)d", board=stored.board, table=stored.table)
    conflict = {
        "title": _(
            "Board %(board)d, table %(table)d was entered on another phone",
            board=stored.board,
            table=stored.table,
        ),
        "theirs": [(where, result_text(stored))],
        "mine": [(where, result_text(mine))],
        "action": url_for(".edit_result", game_id=game.id, board=stored.board, table=stored.table),
        "hidden": {
            "original": stored.code,
            **{name: request.form.get(name, "") for name in RESULT_FIELDS},
        },
    }
    return render_match(game, match, status=409, conflict=conflict)


RESULT_FIELDS = ("level", "strain", "declarer", "doubled", "result")


# --- Corrections ------------------------------------------------------------------------------


def result_or_404(game: TeamsGame, board: int, table: int) -> TableResult:
    record = game.result(board, table)
    if record is None:
        abort(404)
    return record


def form_data(record: TableResult) -> dict[str, Any]:
    """A result as its correction form starts."""
    if record.is_passed_out:
        return {"result": "passed"}
    return {
        "level": record.level,
        "strain": record.strain,
        "declarer": record.declarer,
        "doubled": record.doubled,
        "result": str((record.tricks or 0) - 6 - (record.level or 0)),
    }


@bp.route("/<game_id>/boards/<int:board>/tables/<int:table>/edit", methods=["GET", "POST"])
def edit_result(game_id: str, board: int, table: int) -> Outcome:
    """Correct a table's result: the match is scored again from the results, and the change
    logged."""

    def change(game: TeamsGame) -> Outcome | None:
        record = result_or_404(game, board, table)
        if request.method == "GET":
            data = {**form_data(record), "version": game.version}
            return render_edit(game, record, ResultForm(game, table, data=data))
        form = ResultForm(game, table)
        original = request.form.get("original")
        if original is not None and original != record.code:
            form.form_errors.append(
                _(
                    "This result was changed on another phone while you corrected it: it now "
                    "reads %(now)s. Yours is kept below; save again to put it instead.",
                    now=result_text(record),
                )
            )
            return render_edit(game, record, form, 409)
        if not form.check():
            return render_edit(game, record, form, 422)
        old, saved = logged_code(record), record.values
        put_result(record, form)
        if logged_code(record) == old:
            flash(_("Board %(board)d, table %(table)d is unchanged.", board=board, table=table))
            return game_page(game)
        if not scores(game, form):
            for name, value in saved.items():
                setattr(record, name, value)
            return render_edit(game, record, form, 422)
        game.corrections.append(
            Correction(number=board, kind=CorrectionKind.RESULT, old=old, new=logged_code(record))
        )
        return None

    def corrected(game: TeamsGame) -> None:
        flash(
            _(
                "Board %(board)d, table %(table)d corrected; the match is scored again.",
                board=board,
                table=table,
            )
        )

    return write_entry(lambda: scorers_game(game_id, TeamsGame), change, corrected)


def render_edit(
    game: TeamsGame, record: TableResult, form: ResultForm, status: int = 200
) -> tuple[str, int]:
    return render_template(
        "teams/edit.html",
        game=game,
        record=record,
        form=form,
        results=RESULTS,
        original=record.code,
    ), status


# --- On paper and in a spreadsheet ------------------------------------------------------------


@bp.get("/<game_id>/sheet")
def sheet(game_id: str) -> str:
    """The match sheet: every board at both tables, the IMPs, the totals and the victory
    points, on one A4 page."""
    game = teams_game(game_id)
    match = score_match(game)
    return render_template(
        "teams/sheet.html",
        game=game,
        match=match,
        lines={line.number: line for line in match.lines},
        lineups=lineups(game),
        live_game=game,
    )


def lineups(game: TeamsGame) -> tuple[list[str], list[str]]:
    """Each team's players named, with where they sat."""
    teams: tuple[list[str], list[str]] = ([], [])
    for table in TABLES:
        for seat in SEATS:
            if (name := game.player_name(table, seat)) is not None:
                teams[team_at(table, seat.side)].append(
                    _(
                        "%(name)s (table %(table)d, %(seat)s)",
                        name=name,
                        table=table,
                        seat=SEAT_NAMES[seat],
                    )
                )
    return teams


def sheet_rows(game: TeamsGame, match: Match) -> list[list[Any]]:
    """The match sheet as rows of cells: a header, a row a board, the totals."""
    first, second = game.team_names
    rows: list[list[Any]] = [
        [
            _("Board"),
            _("Dealer"),
            _("Vulnerable"),
            _("Table 1"),
            _("Table 1, N-S"),
            _("Table 2"),
            _("Table 2, N-S"),
            first,
            second,
            _("%(team)s, total", team=first),
            _("%(team)s, total", team=second),
        ]
    ]
    for line in match.lines:
        cells: list[Any] = [line.number, line.dealer.value, line.vulnerability.value]
        for result, score in zip(line.results, line.ns_scores, strict=True):
            cells += [result_text(result), score] if result is not None else ["", ""]
        if line.imps is None:
            cells += ["", "", "", ""]
        else:
            cells += [line.imps_a or "", line.imps_b or "", *line.running]
        rows.append(cells)
    rows.append([_("Total"), "", "", "", "", "", "", *match.imps, "", ""])
    rows.append(
        [_("Victory points"), "", "", "", "", "", "", *map(points, match.victory_points), "", ""]
    )
    return rows


@bp.get("/<game_id>/sheet.csv")
def sheet_csv(game_id: str) -> Response:
    """The match sheet as a CSV file, for a spreadsheet."""
    game = teams_game(game_id)
    return csv_download(game, sheet_rows(game, score_match(game)))
