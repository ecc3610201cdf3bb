"""The pages of a teams match: a new match, the match page with the next table's result and
the running score, corrections, the printed match sheet and its CSV. Links, the live version,
undo and the game file come from the table core (scorekeeper.games)."""

from __future__ import annotations

from typing import Any

from flask import flash, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from scorekeeper.contract.labels import SEAT_NAMES, rule_message
from scorekeeper.games.entries import EntryKind, EntryWords, page_context
from scorekeeper.games.lookup import get_game_or_404
from scorekeeper.games.models import Player
from scorekeeper.games.rights import is_scorer
from scorekeeper.games.routes import add_entry_routes
from scorekeeper.games.spreadsheet import csv_download
from scorekeeper.games.views import new_game_form
from scorekeeper.games.writes import Outcome, game_page
from scorekeeper.limits import new_games_limit
from scorekeeper.serving import kept_page
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

    def build(form: SetupForm) -> TeamsGame:
        return TeamsGame(
            team_names=(form.team_a.data, form.team_b.data),
            boards=form.boards.data,
            first_board=form.first_board.data,
            players=[Player(seat=seat, name=name) for seat, name in form.players()],
        )

    return new_game_form(SetupForm, "teams/setup.html", build)


# --- The match page ---------------------------------------------------------------------------


def render_match(
    game: TeamsGame,
    form: ResultForm | None = None,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
    *,
    match: Match | None = None,
) -> tuple[str, int]:
    match = match or score_match(game)
    scorer = is_scorer(game.id, game.family)
    if scorer and form is None and match.next is not None:
        data = {"drawn_from": game.version}
        form = ResultForm(game, match.next[1], formdata=None, data=data)
    return render_template(
        "teams/match.html",
        game=game,
        match=match,
        form=form,
        results=RESULTS,
        scorer=scorer,
        **page_context(game, url_for(".match", game_id=game.id), scorer=scorer, conflict=conflict),
        keep_awake=not match.finished,
    ), status


@bp.get("/<game_id>")
def match(game_id: str) -> Response | str:
    """The next table's result to enter, the boards so far, the IMPs and victory points."""

    def draw() -> str:
        return render_match(teams_game(game_id))[0]

    return kept_page(FAMILY, game_id, draw)


class Results(EntryKind[TeamsGame, TableResult]):
    """Each table's result on each board, found by the board and the table."""

    game = TeamsGame
    endpoint = "result"
    listed = "results"
    corrected = CorrectionKind.RESULT
    score = staticmethod(score_match)
    explain = staticmethod(rule_message)
    draw = staticmethod(render_match)
    words = EntryWords(
        label=_l("Board %(board)d, table %(table)d"),
        entered=_l("Board %(board)d, table %(table)d entered: %(entry)s."),
        corrected=_l("Board %(board)d, table %(table)d corrected; the match is scored again."),
        unchanged=_l("Board %(board)d, table %(table)d is unchanged."),
        changed_meanwhile=_l(
            "This result was changed on another phone while you corrected it: it now reads "
            "%(now)s. Yours is kept below; save again to put it instead."
        ),
        not_now=_l("That result is entered already; nothing was changed."),
    )

    def text(self, game: TeamsGame, entry: TableResult) -> str:
        return result_text(entry)

    def key(self, **route: Any) -> tuple[int, int]:
        return route["board"], route["table"]

    def route(self, key: tuple[int, int]) -> dict[str, Any]:
        return {"board": key[0], "table": key[1]}

    def logged_at(self, key: tuple[int, int]) -> tuple[int, int | None]:
        return key[0], None

    def find(self, game: TeamsGame, key: tuple[int, int]) -> TableResult | None:
        return game.result(*key)

    def refuse(self, game: TeamsGame, key: tuple[int, int]) -> Outcome | None:
        match = score_match(game)
        if match.next != key:
            message = (
                _("The match is over; nothing was changed.")
                if match.finished
                else _("That is not the board and table to enter now; nothing was changed.")
            )
            flash(message, "error")
            return game_page(game)
        return None

    def form(self, game: TeamsGame, key: tuple[int, int], **kwargs: Any) -> ResultForm:
        return ResultForm(game, key[1] if key[1] in TABLES else 1, **kwargs)

    def form_data(self, game: TeamsGame, entry: TableResult) -> dict[str, Any]:
        return ResultForm.data_of(entry)

    def new(self, game: TeamsGame, key: tuple[int, int]) -> TableResult:
        return TableResult(board=key[0], table=key[1])

    def code(self, entry: TableResult) -> str:
        return logged_code(entry)

    def render_correction(
        self,
        game: TeamsGame,
        key: tuple[int, int],
        entry: TableResult,
        form: Any,
        status: int = 200,
    ) -> tuple[str, int]:
        return render_template(
            "teams/edit.html", game=game, record=entry, form=form, results=RESULTS
        ), status


RESULTS_KIND = Results()
add_entry_routes(bp, RESULTS_KIND, "/boards/<int:board>/tables/<int:table>")


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
