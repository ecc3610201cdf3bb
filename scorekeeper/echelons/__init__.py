"""Échelons (Klondike patience): the player's log, and the two-player race."""

from flask import Blueprint

bp: Blueprint = Blueprint("echelons", __name__, url_prefix="/echelons")

from scorekeeper.echelons import views  # noqa: E402, F401
from scorekeeper.echelons.family import FAMILY  # noqa: E402
from scorekeeper.games.routes import add_table_routes  # noqa: E402

add_table_routes(bp, FAMILY)
