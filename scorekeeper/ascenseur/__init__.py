"""The Ascenseur family at the table: set up a game, enter each round, correct, finish."""

from flask import Blueprint

bp: Blueprint = Blueprint("ascenseur", __name__, url_prefix="/ascenseur")

from scorekeeper.ascenseur import sheet, views  # noqa: E402, F401
from scorekeeper.ascenseur.family import FAMILY  # noqa: E402
from scorekeeper.games.routes import add_table_routes  # noqa: E402
from scorekeeper.games.views import import_game  # noqa: E402

add_table_routes(bp, FAMILY)
# The import page's first address, kept for the links and bookmarks that have it.
bp.add_url_rule("/import", "import_game", import_game, methods=["GET", "POST"])
