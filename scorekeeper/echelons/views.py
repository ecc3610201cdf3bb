"""The pages of Échelons: a new log or race, the log with its statistics and chart, the race
with its tally, corrections. Links, the live version, undo and the game file come from the
table core (scorekeeper.games)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from flask import render_template, url_for
from flask_babel import get_timezone
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from scorekeeper.echelons import bp
from scorekeeper.echelons.family import FAMILY, CorrectionKind, game_line
from scorekeeper.echelons.forms import LogForm, RaceForm, SetupForm
from scorekeeper.echelons.models import EchelonsGame, PatienceRecord
from scorekeeper.games.entries import EntryKind, EntryWords, page_context
from scorekeeper.games.lookup import get_game_or_404
from scorekeeper.games.models import Player
from scorekeeper.games.rights import is_scorer
from scorekeeper.games.routes import add_entry_routes
from scorekeeper.games.views import new_game_form
from scorekeeper.games.writes import Outcome
from scorekeeper.limits import new_games_limit
from scorekeeper.rules import echelons
from scorekeeper.serving import kept_page

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

    def build(form: SetupForm) -> EchelonsGame:
        return EchelonsGame(
            race=form.kind.data == "race",
            players=[Player(seat=seat, name=name) for seat, name in enumerate(form.names())],
        )

    return new_game_form(SetupForm, "echelons/setup.html", build)


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
    game: EchelonsGame,
    form: LogForm | RaceForm | None = None,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
) -> tuple[str, int]:
    scorer = is_scorer(game.id, game.family)
    if scorer and form is None:
        data = {"drawn_from": game.version, "played_on": table_today()}
        form = entry_form(game, formdata=None, data=data)
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
        by_day_played=latest_first(game),
        tally=echelons.race_tally(game.winners),
        next_game=len(game.entries) + 1,
        **page_context(game, url_for(".page", game_id=game.id), scorer=scorer, conflict=conflict),
    ), status


def latest_first(game: EchelonsGame) -> list[tuple[int, PatienceRecord]]:
    """The games logged, each with its number (the order it was logged in), the last played
    first: by the day it was played, then by the order logged, as the history counts them
    (RULES.md §4), so that a game logged late for an earlier day stands among that day's."""
    numbered = enumerate(game.entries, start=1)
    return sorted(numbered, key=lambda entry: (entry[1].played_on, entry[0]), reverse=True)


@bp.get("/<game_id>")
def page(game_id: str) -> Response | str:
    """The log and its statistics, or the race and its tally; and the next game to log."""

    def draw() -> str:
        return render_page(get_game_or_404(game_id, EchelonsGame))[0]

    return kept_page(FAMILY, game_id, draw, table_today())


class PatienceGames(EntryKind[EchelonsGame, PatienceRecord]):
    """A game of patience of a log, or a game of a race, numbered by its place."""

    game = EchelonsGame
    endpoint = "game"
    listed = "entries"
    corrected = CorrectionKind.GAME
    draw = staticmethod(render_page)
    deleted = CorrectionKind.DELETED
    words = EntryWords(
        label=_l("Game %(number)d"),
        entered=_l("Game %(number)d logged: %(entry)s."),
        corrected=_l("Game %(number)d corrected."),
        unchanged=_l("Game %(number)d is unchanged."),
        changed_meanwhile=_l(
            "Game %(number)d was changed on another phone while you corrected it: it now reads "
            "%(now)s. Yours is kept below; save again to put it instead."
        ),
        not_now=_l("That game is not the next one to log; nothing was changed."),
        deleted=_l("Game %(number)d deleted."),
    )

    def refuse(self, game: EchelonsGame, key: int) -> Outcome | None:
        if key != len(game.entries) + 1:
            return self.not_now(game, key)
        return None

    def after(self, game: EchelonsGame, key: int) -> int:
        """A game sent from a page drawn before another phone logged its own is the next."""
        return len(game.entries) + 1

    def form(self, game: EchelonsGame, key: int, **kwargs: Any) -> LogForm | RaceForm:
        return entry_form(game, **kwargs)

    def form_data(self, game: EchelonsGame, entry: PatienceRecord) -> dict[str, Any]:
        if game.race:
            return {"played_on": entry.played_on, "left_a": entry.left_a, "left_b": entry.left_b}
        won = entry.cards_home == echelons.CARDS
        return {
            "played_on": entry.played_on,
            "cards_home": None if won else entry.cards_home,
            "minutes": entry.minutes,
        }

    def new(self, game: EchelonsGame, key: int) -> PatienceRecord:
        return PatienceRecord(number=max((r.number for r in game.entries), default=0) + 1)

    def put(self, game: EchelonsGame, entry: PatienceRecord, form: Any) -> None:
        entry.played_on = form.played_on.data
        if isinstance(form, RaceForm):
            entry.left_a, entry.left_b = form.left_a.data, form.left_b.data
        else:
            entry.cards_home, entry.minutes = form.cards, form.minutes.data

    def text(self, game: EchelonsGame, entry: PatienceRecord) -> str:
        return game_line(game, entry)

    def again(self, game: EchelonsGame, key: int, mine: PatienceRecord) -> list[tuple[str, str]]:
        return self.last_alike(game, mine)

    def render_correction(
        self, game: EchelonsGame, key: int, entry: PatienceRecord, form: Any, status: int = 200
    ) -> tuple[str, int]:
        return render_template(
            "echelons/edit.html",
            game=game,
            number=key,
            form=form,
            delete_form=self.stamped(entry),
        ), status


GAMES = PatienceGames()
add_entry_routes(bp, GAMES, "/games/<int:number>")
