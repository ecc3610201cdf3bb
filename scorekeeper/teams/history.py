"""How a teams match counts in a circle's history (scorekeeper.circles, through the registry's
``in_circles``): a league of matches played out, each person with their team's IMPs
(:mod:`scorekeeper.rules.history`)."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext as _

from scorekeeper.games.registry import CircleGame, InCircles
from scorekeeper.rules.common import RuleError
from scorekeeper.rules.history import Finish, PlayedGame
from scorekeeper.teams.match import score_match
from scorekeeper.teams.models import SEATS, TeamsGame, team_at


def leagues(games: Sequence[CircleGame]) -> dict[str, list[PlayedGame]]:
    """The matches played out, the team with more IMPs first (both first when level)."""
    found = []
    for played in games:
        game = played.game
        assert isinstance(game, TeamsGame)
        try:
            match = score_match(game)
        except RuleError:  # a match the engine refuses counts for nothing
            continue
        if not match.finished:
            continue
        finishes = []
        for player, person in zip(game.players, played.seats, strict=True):
            if person is None:
                continue
            table, seat = divmod(player.seat, len(SEATS))
            team = team_at(table + 1, SEATS[seat].side)
            mine, theirs = match.imps[team], match.imps[1 - team]
            finishes.append(Finish(person, mine, 2 if mine < theirs else 1))
        if finishes:
            found.append(PlayedGame(game.created_at.date(), tuple(finishes)))
    return {"bridge:teams": found} if found else {}


def league_name(key: str) -> str:
    return _("Teams matches")


IN_CIRCLES = InCircles(leagues=leagues, league_name=league_name, loaded=("results",))
