"""How Échelons counts in a circle's history (scorekeeper.circles, through the registry's
``in_circles``): a league of the races, and each person's patience log and record against each
opponent (:mod:`scorekeeper.rules.history`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext as _

from scorekeeper.echelons.models import EchelonsGame
from scorekeeper.games.registry import CircleGame, InCircles
from scorekeeper.rules.echelons import LogStatistics, PatienceGame, log_statistics, race_winner
from scorekeeper.rules.history import PlayedGame, RaceGame, Record, race_league_game, race_record


def races(games: Sequence[CircleGame]) -> list[RaceGame]:
    """Every race between two of the circle's people, in the order played."""
    found = []
    for played in games:
        game, seats = played.game, played.seats
        assert isinstance(game, EchelonsGame)
        if game.race and len(seats) == 2 and seats[0] is not None and seats[1] is not None:
            players = (seats[0], seats[1])
            for record in game.entries:
                if record.left_a is not None and record.left_b is not None:
                    winner = race_winner(record.left_a, record.left_b)
                    found.append(RaceGame(record.played_on, players, winner))
    return found


def leagues(games: Sequence[CircleGame]) -> dict[str, list[PlayedGame]]:
    raced = races(games)
    return {"echelons:race": [race_league_game(game) for game in raced]} if raced else {}


def league_name(key: str) -> str:
    return _("Échelons races")


@dataclass(frozen=True)
class EchelonsFigures:
    """A person's patience log (every log of theirs together) and races."""

    log: LogStatistics | None
    races: tuple[tuple[str, Record], ...]
    """Their record against each person they raced."""


def figures(games: Sequence[CircleGame], person: str) -> EchelonsFigures | None:
    logged: list[PatienceGame] = []
    for played in games:
        game = played.game
        assert isinstance(game, EchelonsGame)
        if not game.race and played.seats[:1] == (person,):
            logged.extend(game.patience_games)
    raced = races(games)
    others = sorted({p for game in raced if person in game.players for p in game.players})
    records = tuple(
        (other, race_record(raced, person, other)) for other in others if other != person
    )
    if not logged and not records:
        return None
    return EchelonsFigures(log_statistics(logged) if logged else None, records)


IN_CIRCLES = InCircles(
    leagues=leagues,
    league_name=league_name,
    figures=figures,
    figures_template="echelons/_in_circle.html",
    loaded=("entries",),
)
