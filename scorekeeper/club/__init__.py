"""Duplicate bridge at the club: a pairs session from movement to ranking."""

from typing import cast

from flask import Blueprint, Flask

bp: Blueprint = Blueprint("club", __name__, url_prefix="/club")

# The pages, by whom they serve; each adds its routes to the blueprint when imported.
from scorekeeper.club import (  # noqa: E402, F401
    corrections,
    director,
    evening,
    event,
    field,
    hands,
    printouts,
    results_files,
    table,
)
from scorekeeper.club.family import FAMILY  # noqa: E402
from scorekeeper.games.routes import add_table_routes  # noqa: E402

add_table_routes(bp, FAMILY)
bp.record_once(lambda state: hands.init_app(cast(Flask, state.app)))
