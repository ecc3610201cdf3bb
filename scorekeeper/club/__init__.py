"""Duplicate bridge at the club: a pairs session from movement to ranking."""

from typing import cast

from flask import Blueprint, Flask

bp: Blueprint = Blueprint("club", __name__, url_prefix="/club")

from scorekeeper.club import hands, views  # noqa: E402, F401
from scorekeeper.club.family import FAMILY  # noqa: E402
from scorekeeper.games.routes import add_table_routes  # noqa: E402

add_table_routes(bp, FAMILY)
bp.record_once(lambda state: hands.init_app(cast(Flask, state.app)))
