"""Bridge at home: rubber bridge or Chicago for four friends, on a pad as they keep it."""

from flask import Blueprint

bp: Blueprint = Blueprint("bridge", __name__, url_prefix="/bridge")

from scorekeeper.bridge import views  # noqa: E402, F401
from scorekeeper.bridge.family import FAMILY  # noqa: E402
from scorekeeper.games.routes import add_table_routes  # noqa: E402

add_table_routes(bp, FAMILY)
