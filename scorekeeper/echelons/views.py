"""The pages of Échelons: a new log or race, the log with its statistics and chart, the race
with its tally, corrections. Links, the live version, undo and the game file come from the
table core (scorekeeper.games)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from flask import abort, flash, render_template, request, url_for
from flask_babel import get_timezone
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.echelons import bp
from scorekeeper.echelons.family import FAMILY, CorrectionKind
from scorekeeper.echelons.forms import LogForm, RaceForm, SetupForm
from scorekeeper.echelons.models import EchelonsGame, PatienceRecord
from scorekeeper.games.entries import Outcome, game_page, start_new_game, write_entry
from scorekeeper.games.forms import ConfirmForm
from scorekeeper.games.links import share_links
from scorekeeper.games.lookup import get_game_or_404, scorers_game
from scorekeeper.games.models import Correction, Player
from scorekeeper.games.rights import is_scorer
from scorekeeper.games.routes import kept_game_page
from scorekeeper.games.views import new_nonce
from scorekeeper.limits import new_games_limit
from scorekeeper.rules import echelons

CHART_GAMES = 30
"""The chart shows the last games, up to this many."""
WEEKS_SHOWN = 8
"""The table week by week shows the last weeks with games, up to this many."""
MONTHS_SHOWN = 12
"""The table month by month shows the last months with games, up to this many."""


def table_today() -> date:
    """Today at the table (the server's time zone)."""
    return datetime.now(get_timezone()).date()


@bp.route("/new", methods=["GET", "POST"])
@new_games_limit
def setup() -> str | Response | tuple[str, int]:
    """A log for one player, or a race match for two."""
    if request.method == "GET":
        form = SetupForm(data={"nonce": new_nonce()})
        return render_template("echelons/setup.html", form=form)
    form = SetupForm()
    if not form.validate():
        return render_template("echelons/setup.html", form=form), 422
    game = EchelonsGame(
        race=form.kind.data == "race",
        players=[Player(seat=seat, name=name) for seat, name in enumerate(form.names())],
    )
    return start_new_game(game, form.nonce.data)


@dataclass(frozen=True)
class Bar:
    x: float
    height: float
    won: bool
    cards: int


def chart(games: list[echelons.PatienceGame]) -> list[Bar]:
    """The last games played as bars: the cards that reached the foundations, 52 for a win."""
    shown = echelons.in_order_of_play(games)[-CHART_GAMES:]
    return [
        Bar(
            x=index * 10,
            height=game.cards_home * 100 / echelons.CARDS,
            won=game.won,
            cards=game.cards_home,
        )
        for index, game in enumerate(shown)
    ]


def entry_form(game: EchelonsGame, **kwargs: Any) -> LogForm | RaceForm:
    form: LogForm | RaceForm = RaceForm(**kwargs) if game.race else LogForm(**kwargs)
    if isinstance(form, RaceForm):
        form.left_a.label.text = _("%(name)s: cards left", name=game.names[0])
        form.left_b.label.text = _("%(name)s: cards left", name=game.names[1])
    return form


def render_page(
    game: EchelonsGame, form: LogForm | RaceForm | None = None, status: int = 200
) -> tuple[str, int]:
    scorer = is_scorer(game.id, game.family)
    if scorer and form is None:
        form = entry_form(
            game, formdata=None, data={"version": game.version, "played_on": table_today()}
        )
    games = game.patience_games
    return render_template(
        "echelons/page.html",
        game=game,
        form=form,
        scorer=scorer,
        stats=echelons.log_statistics(games),
        weeks=echelons.statistics_by_period(games, echelons.Period.WEEK)[-WEEKS_SHOWN:],
        months=echelons.statistics_by_period(games, echelons.Period.MONTH)[-MONTHS_SHOWN:],
        weeks_shown=WEEKS_SHOWN,
        months_shown=MONTHS_SHOWN,
        bars=chart(games),
        tally=echelons.race_tally(game.winners),
        undo_form=ConfirmForm(data={"version": game.version}) if scorer else None,
        links=share_links(game) if scorer else None,
        here=url_for(".page", game_id=game.id),
        live_game=game,
    ), status


@bp.get("/<game_id>")
def page(game_id: str) -> Response | str:
    """The log and its statistics, or the race and its tally; and the next game to log."""

    def draw() -> str:
        return render_page(get_game_or_404(game_id, EchelonsGame))[0]

    return kept_game_page(FAMILY, game_id, draw, table_today())


def put_entry(record: PatienceRecord, form: LogForm | RaceForm) -> None:
    record.played_on = form.played_on.data
    if isinstance(form, RaceForm):
        record.left_a, record.left_b = form.left_a.data, form.left_b.data
    else:
        record.cards_home, record.minutes = form.cards, form.minutes.data


@bp.post("/<game_id>/games")
def enter_game(game_id: str) -> Outcome:
    """Log one game of patience, or one race game."""

    def change(game: EchelonsGame) -> Outcome | None:
        form = entry_form(game)
        if not form.check():
            return render_page(game, form, 422)
        if form.version.data != str(game.version) and game.entries:
            latest = PatienceRecord()
            put_entry(latest, form)
            if latest.code == game.entries[-1].code:  # the same form sent twice
                return game_page(game)
        number = max((r.number for r in game.entries), default=0) + 1
        record = PatienceRecord(number=number)
        put_entry(record, form)
        game.entries.append(record)
        return None

    return write_entry(lambda: scorers_game(game_id, EchelonsGame), change)


def entry_or_404(game: EchelonsGame, number: int) -> PatienceRecord:
    if not 0 < number <= len(game.entries):
        abort(404)
    return game.entries[number - 1]


@bp.route("/<game_id>/games/<int:number>/edit", methods=["GET", "POST"])
def edit_game(game_id: str, number: int) -> Outcome:
    """Correct a game of the log or of the race; logged."""

    def change(game: EchelonsGame) -> Outcome | None:
        record = entry_or_404(game, number)
        if request.method == "GET":
            data: dict[str, Any] = {"played_on": record.played_on, "version": game.version}
            if game.race:
                data.update(left_a=record.left_a, left_b=record.left_b)
            else:
                data.update(
                    cards_home=record.cards_home if record.cards_home != 52 else None,
                    minutes=record.minutes,
                )
            return render_edit(game, record, entry_form(game, data=data))
        form = entry_form(game)
        if not form.check():
            return render_edit(game, record, form, 422)
        old = record.code
        put_entry(record, form)
        if record.code == old:
            flash(_("Game %(number)d is unchanged.", number=number))
            return game_page(game)
        game.corrections.append(
            Correction(number=number, kind=CorrectionKind.GAME, old=old, new=record.code)
        )
        return None

    def corrected(game: EchelonsGame) -> None:
        flash(_("Game %(number)d corrected.", number=number))

    return write_entry(lambda: scorers_game(game_id, EchelonsGame), change, corrected)


def render_edit(
    game: EchelonsGame, record: PatienceRecord, form: LogForm | RaceForm, status: int = 200
) -> tuple[str, int]:
    return render_template(
        "echelons/edit.html",
        game=game,
        record=record,
        number=game.entries.index(record) + 1,
        form=form,
        delete_form=ConfirmForm(data={"version": game.version}),
    ), status


@bp.post("/<game_id>/games/<int:number>/delete")
def delete_game(game_id: str, number: int) -> Outcome:
    """Delete a game of the log or of the race; logged."""

    def change(game: EchelonsGame) -> Outcome | None:
        record = entry_or_404(game, number)
        if not ConfirmForm.drawn_from(game):
            flash(_("The game changed since this page was drawn; nothing was deleted."), "error")
            return game_page(game)
        game.entries.remove(record)
        game.corrections.append(
            Correction(number=number, kind=CorrectionKind.DELETED, old=record.code)
        )
        return None

    def deleted(game: EchelonsGame) -> None:
        flash(_("Game %(number)d deleted.", number=number))

    return write_entry(lambda: scorers_game(game_id, EchelonsGame), change, deleted)
