"""Removing the games that were started and never played, for a public server's operator."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, exists, func, select

from scorekeeper.extensions import db
from scorekeeper.games.models import Correction, Game
from scorekeeper.games.registry import FAMILIES


def remove_unplayed_games(before: datetime, *, dry_run: bool = False) -> int:
    """Delete the games started before ``before`` in which nothing was ever entered (no entry
    in any family's tables, no correction); their players and the browsers' notes of them go
    with them. Returns how many there were."""
    unplayed = (Game.created_at < before) & ~exists().where(Correction.game_id == Game.id)
    for family in FAMILIES.values():
        for entries in family.entries:
            unplayed &= ~exists().where(entries.game_id == Game.id)
    count = db.session.execute(select(func.count()).select_from(Game).where(unplayed)).scalar_one()
    if not dry_run and count:
        db.session.execute(
            delete(Game).where(unplayed), execution_options={"synchronize_session": False}
        )
    return int(count)
