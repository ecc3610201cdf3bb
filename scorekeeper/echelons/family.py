"""Échelons as the table core knows it: a log or a race match, how one reads in the list of
games, its game file, how its last game is taken back, its log's lines; and the helpers its
own pages use (registered for its blueprint alone)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from flask import url_for
from flask_babel import (
    format_date,
    format_datetime,
    format_percent,
    ngettext,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorekeeper.echelons import bp
from scorekeeper.echelons.history import IN_CIRCLES
from scorekeeper.echelons.models import EchelonsGame, PatienceRecord
from scorekeeper.echelons.transfer import game_from_json, game_to_json
from scorekeeper.games.entries import describer
from scorekeeper.games.helpers import figure
from scorekeeper.games.models import Correction, Game
from scorekeeper.games.registry import Family, NewGame, Summary, TakenBack, register
from scorekeeper.rules import echelons


class CorrectionKind(StrEnum):
    """What a line of a log's or a match's corrections log records."""

    GAME = "game"
    """A game corrected (old and new: the entry's code)."""
    DELETED = "game-deleted"
    UNDO_GAME = "undo-game"


def new_games() -> list[NewGame]:
    return [
        NewGame(
            url_for("echelons.setup"),
            str(_l("Échelons (Klondike patience)")),
            str(_l("A log of your games, to see whether you are getting better; or a race.")),
        )
    ]


def summary(game: Game) -> Summary:
    assert isinstance(game, EchelonsGame)
    when = _("last change %(when)s", when=format_datetime(game.updated_at, "short"))
    if game.race:
        wins_a, wins_b, draws = echelons.race_tally(game.winners)
        detail = _("Race: %(a)d – %(b)d", a=wins_a, b=wins_b)
        if draws:
            detail = _("%(tally)s, %(draws)s", tally=detail, draws=drawn_games(draws))
    else:
        stats = echelons.log_statistics(game.patience_games)
        detail = ngettext(
            "Patience log: %(num)d game, %(rate)s won",
            "Patience log: %(num)d games, %(rate)s won",
            stats.games,
            rate=format_percent(stats.win_rate),
        )
    return Summary(", ".join(game.names), f"{detail} · {when}", finished=False)


def take_back(game: Game) -> TakenBack | None:
    assert isinstance(game, EchelonsGame)
    if not game.entries:
        return None
    record = game.entries[-1]
    game.entries.remove(record)
    place = len(game.entries) + 1
    logged = [Correction(number=place, kind=CorrectionKind.UNDO_GAME, old=record.code)]
    return TakenBack(logged, _("Game %(number)d: taken back.", number=place))


def outcome_text(game: EchelonsGame, record: PatienceRecord) -> str:
    """How a game ended, in words: "won", "31 cards home, 14 minutes", "Zoé 5, Yann 7 — Zoé
    wins"."""
    if record.cards_home is None:
        winner = echelons.race_winner(record.left_a or 0, record.left_b or 0)
        names = game.names
        result = _("a draw") if winner is None else _("%(name)s wins", name=names[winner])
        return _(
            "%(a)s %(left_a)d, %(b)s %(left_b)d — %(result)s",
            a=names[0],
            left_a=record.left_a or 0,
            b=names[1],
            left_b=record.left_b or 0,
            result=result,
        )
    if record.cards_home == echelons.CARDS:
        text = _("won")
    else:
        text = ngettext("%(num)d card home", "%(num)d cards home", record.cards_home)
    if record.minutes:
        minutes = ngettext("%(num)d minute", "%(num)d minutes", record.minutes)
        text = _("%(outcome)s, %(minutes)s", outcome=text, minutes=minutes)
    return text


def game_line(game: EchelonsGame, record: PatienceRecord) -> str:
    """A game in the list of games logged: "Nov 23, 2026: won"."""
    day = format_date(record.played_on, "medium")
    return _("%(day)s: %(outcome)s", day=day, outcome=outcome_text(game, record))


def logged_game(game: EchelonsGame, code: str | None) -> str:
    """A game a line of the corrections log names: "Nov 23, 2026, won"."""
    record = PatienceRecord.from_code(code)
    if record is None or (record.cards_home is None) != game.race:  # from a file, for another
        return code or ""
    day = format_date(record.played_on, "medium")
    return _("%(day)s, %(outcome)s", day=day, outcome=outcome_text(game, record))


describe = describer(
    {
        CorrectionKind.GAME: _l("Game %(number)d corrected at %(time)s: %(old)s → %(new)s"),
        CorrectionKind.DELETED: _l("Game %(number)d deleted at %(time)s (%(old)s)"),
        CorrectionKind.UNDO_GAME: _l("Game %(number)d at %(time)s: taken back (%(old)s)"),
    },
    lambda game, change, code: logged_game(game, code),  # type: ignore[arg-type]
)


def file_kind(game: Game) -> str:
    assert isinstance(game, EchelonsGame)
    return "echelons-race" if game.race else "echelons-log"


FAMILY = register(
    Family(
        key="echelons",
        name=lambda: str(_l("Échelons (patience)")),
        game=EchelonsGame,
        entries=(PatienceRecord,),
        page="echelons.page",
        start="echelons.setup",
        new_games=new_games,
        summary=summary,
        export=game_to_json,
        read_file=game_from_json,
        take_back=take_back,
        describe=describe,
        file_kind=file_kind,
        in_circles=IN_CIRCLES,
    )
)


def drawn_games(draws: int) -> str:
    """A race's drawn games, as the home page and the race's own page say them: "1 draw"."""
    return ngettext("%(num)d draw", "%(num)d draws", draws)


def cards_average(value: float) -> str:
    """An average of cards home to a tenth, with the reader's decimal mark: 38.6, 38,6."""
    return figure(value, "0.0")


@bp.context_processor
def template_helpers() -> dict[str, Any]:
    return {
        "format_percent": format_percent,
        "game_line": game_line,
        "cards_average": cards_average,
        "drawn_games": drawn_games,
    }
