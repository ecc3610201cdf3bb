"""How Ascenseur's games count in a circle's history (scorekeeper.circles, through the
registry's ``in_circles``): a league for each preset, whose points compare, and how each
person bids (:mod:`scorekeeper.rules.history`)."""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.ascenseur.labels import PRESET_NAMES
from scorekeeper.ascenseur.models import AscenseurGame
from scorekeeper.games.registry import CircleGame, InCircles
from scorekeeper.rules.history import BiddingRecord, Finish, PlayedGame, bidding_record


def leagues(games: Sequence[CircleGame]) -> dict[str, list[PlayedGame]]:
    """A league per preset: its finished games, each person of the circle at the table with
    their total and place."""
    found: dict[str, list[PlayedGame]] = {}
    for played in games:
        game = played.game
        assert isinstance(game, AscenseurGame)
        sheet = game.sheet()
        if not sheet.is_complete:
            continue
        finishes = tuple(
            Finish(person, sheet.totals[seat], sheet.places[seat])
            for seat, person in enumerate(played.seats)
            if person is not None
        )
        if finishes:
            league = found.setdefault(f"ascenseur:{game.preset}", [])
            league.append(PlayedGame(game.created_at.date(), finishes))
    return found


def league_name(key: str) -> str:
    preset = key.partition(":")[2]
    return str(PRESET_NAMES.get(preset, preset))


def figures(games: Sequence[CircleGame], person: str) -> BiddingRecord | None:
    """How the person bids, over every game of theirs, finished or not."""
    sheets = []
    for played in games:
        if person in played.seats:
            assert isinstance(played.game, AscenseurGame)
            sheets.append((played.game.sheet(), played.seats))
    record = bidding_record(sheets, person) if sheets else None
    return record if record is not None and record.overall.rounds else None


IN_CIRCLES = InCircles(
    leagues=leagues,
    league_name=league_name,
    figures=figures,
    figures_template="ascenseur/_in_circle.html",
    loaded=("rounds",),
)
