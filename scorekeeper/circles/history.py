"""A circle's history read from its games: each family's games as the rules of the history take
them (:mod:`scorekeeper.rules.history`), each seat by the circle's key for its person (the
person's id, as they now are after a merge; None for a seat that names nobody of the circle).
Games taken out of the history are left out; nothing read here is stored."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorekeeper.ascenseur.models import AscenseurGame
from scorekeeper.circles.models import Circle, Person
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.rules.ascenseur import GameSheet
from scorekeeper.rules.history import Finish, PlayedGame

Seats = tuple[str | None, ...]


def person_keys(game: Game, people: dict[int, Person]) -> Seats:
    """The circle's key for the person in each seat of ``game``, by seat."""
    keys: list[str | None] = []
    for player in game.players:
        person = people.get(player.person_id) if player.person_id is not None else None
        keys.append(None if person is None else str(person.now.id))
    return tuple(keys)


def ascenseur_sheets(
    circle: Circle, preset: str | None = None
) -> list[tuple[Game, GameSheet, Seats]]:
    """The circle's Ascenseur games in its history, in the order they were started (of one
    ``preset`` if given, as a league compares points of one scoring), each scored."""
    games = db.session.scalars(
        select(AscenseurGame)
        .where(AscenseurGame.circle_id == circle.id, AscenseurGame.out_of_history.is_(False))
        .order_by(AscenseurGame.created_at, AscenseurGame.id)
        .options(selectinload(AscenseurGame.players), selectinload(AscenseurGame.rounds))
    ).all()
    people = {person.id: person for person in circle.people}
    return [
        (game, game.sheet(), person_keys(game, people))
        for game in games
        if preset is None or game.preset == preset
    ]


def ascenseur_league_games(circle: Circle, preset: str) -> list[PlayedGame]:
    """The circle's finished Ascenseur games of ``preset``, as the league counts them: each
    person of the circle at the table with their total and place."""
    played = []
    for game, sheet, seats in ascenseur_sheets(circle, preset):
        if not sheet.is_complete:
            continue
        finishes = tuple(
            Finish(person, sheet.totals[seat], sheet.places[seat])
            for seat, person in enumerate(seats)
            if person is not None
        )
        played.append(PlayedGame(game.created_at.date(), finishes))
    return played
