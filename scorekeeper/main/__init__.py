"""The home page: start a game, resume one, look at the finished ones."""

from flask import Blueprint

bp = Blueprint("main", __name__)

from scorekeeper.main import views  # noqa: E402, F401
