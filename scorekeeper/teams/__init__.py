"""A bridge teams match: two teams of four at two tables playing the same boards, scored in
IMPs board by board and in victory points for the match."""

from flask import Blueprint

bp: Blueprint = Blueprint("teams", __name__, url_prefix="/teams")

from scorekeeper.games.routes import add_table_routes  # noqa: E402
from scorekeeper.teams import views  # noqa: E402, F401
from scorekeeper.teams.family import FAMILY  # noqa: E402

add_table_routes(bp, FAMILY)
