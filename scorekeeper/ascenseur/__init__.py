"""The Ascenseur family at the table: set up a game, enter each round, correct, finish."""

from flask import Blueprint

bp = Blueprint("ascenseur", __name__, url_prefix="/ascenseur")

from scorekeeper.ascenseur import sheet, views  # noqa: E402, F401
