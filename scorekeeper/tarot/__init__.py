"""French Tarot at the table: 3, 4 or 5 players, each deal's taker, contract, bouts and points."""

from flask import Blueprint

bp: Blueprint = Blueprint("tarot", __name__, url_prefix="/tarot")

from scorekeeper.games.routes import add_table_routes  # noqa: E402
from scorekeeper.tarot import views  # noqa: E402, F401
from scorekeeper.tarot.family import FAMILY  # noqa: E402

add_table_routes(bp, FAMILY)
