"""Duplicate bridge at the club: a pairs session from movement to ranking."""

from flask import Blueprint

bp: Blueprint = Blueprint("club", __name__, url_prefix="/club")

from scorekeeper.club import views  # noqa: E402, F401
from scorekeeper.club.family import FAMILY  # noqa: E402
from scorekeeper.games.routes import add_table_routes  # noqa: E402

add_table_routes(bp, FAMILY)
