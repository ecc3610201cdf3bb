"""The home page."""

from flask import current_app, render_template

from scorekeeper.access import opened_games, private_server
from scorekeeper.ascenseur.labels import PRESET_NAMES
from scorekeeper.extensions import db
from scorekeeper.main import bp
from scorekeeper.models import Game


@bp.get("/")
def home() -> str:
    """The games in progress, to resume, and the finished ones."""
    newest_first = db.select(Game).order_by(Game.updated_at.desc()).limit(100)
    if not private_server():  # a club or public server: only this browser's own games
        newest_first = newest_first.where(opened_games())
    games = db.session.execute(newest_first).scalars()
    sheets = []
    for game in games:
        try:
            sheets.append((game, game.sheet()))
        except ValueError:  # a game the engine cannot score must not hide all the others
            current_app.logger.exception("Game %s cannot be scored", game.id)
    in_progress = [(game, sheet) for game, sheet in sheets if not sheet.is_complete]
    finished = [(game, sheet) for game, sheet in sheets if sheet.is_complete]
    return render_template(
        "home.html", in_progress=in_progress, finished=finished, preset_names=PRESET_NAMES
    )


@bp.app_template_filter("seat_names")
def seat_names(seats: tuple[int, ...], names: tuple[str, ...]) -> str:
    """The names of players given by seat, as one line."""
    return ", ".join(names[seat] for seat in seats)
