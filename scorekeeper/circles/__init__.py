"""Circles: the people who play together, across every family of games, and the history each
person owns. What a circle keeps is its people and which of its games are in its history; every
figure of that history is derived (:mod:`scorekeeper.rules.history`)."""

from typing import cast

from flask import Blueprint, Flask

from scorekeeper.games.registry import register_circles

bp = Blueprint("circles", __name__, url_prefix="/circle")

# The pages, by what they do; each adds its routes to the blueprint when imported.
from scorekeeper.circles import changes, claims, person_pages, season, views  # noqa: E402
from scorekeeper.circles.people import HOOKS, kept_circle, unkept_circle  # noqa: E402

# The app that serves the circles' pages starts its games in them.
bp.record_once(lambda state: register_circles(cast(Flask, state.app), HOOKS))
bp.add_app_template_global(kept_circle, "kept_circle")
bp.add_app_template_global(unkept_circle, "unkept_circle")
bp.add_app_template_global(season.season_url, "season_url")

__all__ = ["bp", "changes", "claims", "person_pages", "season", "views"]
