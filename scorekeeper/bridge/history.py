"""How bridge at home counts in a circle's history (scorekeeper.circles, through the registry's
``in_circles``): a league of rubbers and one of Chicagos, and each person's record, with each
partner and against each opponent (:mod:`scorekeeper.rules.history`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext as _

from scorekeeper.bridge.evening import score_evening
from scorekeeper.bridge.models import BridgeGame
from scorekeeper.games.registry import CircleGame, InCircles
from scorekeeper.rules.common import RuleError, Side
from scorekeeper.rules.history import (
    PlayedGame,
    Record,
    SidesGame,
    bridge_records,
    head_to_head,
    partnerships,
    sides_league_game,
)


def played(games: Sequence[CircleGame]) -> tuple[list[SidesGame], list[SidesGame]]:
    """Every rubber and every Chicago played out, each side's people and points."""
    rubbers: list[SidesGame] = []
    chicagos: list[SidesGame] = []
    for circle_game in games:
        game, seats = circle_game.game, circle_game.seats
        assert isinstance(game, BridgeGame)
        try:
            evening = score_evening(game)
        except RuleError:  # an evening the engine refuses counts for nothing
            continue
        for round_ in evening.rounds:
            if not round_.finished:
                continue
            ns, ew = round_.partners(Side.NS), round_.partners(Side.EW)
            (chicagos if game.chicago else rubbers).append(
                SidesGame(
                    game.created_at.date(),
                    (seats[ns[0]], seats[ns[1]]),
                    (seats[ew[0]], seats[ew[1]]),
                    round_.totals.ns,
                    round_.totals.ew,
                )
            )
    return rubbers, chicagos


def leagues(games: Sequence[CircleGame]) -> dict[str, list[PlayedGame]]:
    rubbers, chicagos = played(games)
    found = {}
    for key, kind in (("bridge:rubber", rubbers), ("bridge:chicago", chicagos)):
        if kind:
            found[key] = [sides_league_game(game) for game in kind]
    return found


def league_name(key: str) -> str:
    return _("Chicago") if key == "bridge:chicago" else _("Rubber bridge")


@dataclass(frozen=True)
class BridgeFigures:
    """A person's rubbers and Chicagos."""

    rubbers: Record | None
    chicagos: Record | None
    partners: tuple[tuple[str, str, Record], ...]
    """Their record with each partner: kind ("rubber" or "chicago"), partner, record."""
    opponents: tuple[tuple[str, str, Record], ...]
    """Their record against each person they met: kind, opponent, record."""


def figures(games: Sequence[CircleGame], person: str) -> BridgeFigures | None:
    rubbers, chicagos = played(games)
    partners: list[tuple[str, str, Record]] = []
    opponents: list[tuple[str, str, Record]] = []
    for kind, kind_games in (("rubber", rubbers), ("chicago", chicagos)):
        for (first, second), record in partnerships(kind_games).items():
            if person in (first, second):
                partners.append((kind, second if first == person else first, record))
        met = {
            someone
            for game in kind_games
            for side, others, _mine, _theirs in game.sides()
            if person in side
            for someone in others
            if someone is not None
        }
        for other in sorted(met):
            opponents.append((kind, other, head_to_head(kind_games, person, other)))
    found = BridgeFigures(
        bridge_records(rubbers).get(person),
        bridge_records(chicagos).get(person),
        tuple(partners),
        tuple(opponents),
    )
    return found if found.rubbers or found.chicagos else None


IN_CIRCLES = InCircles(
    leagues=leagues,
    league_name=league_name,
    figures=figures,
    figures_template="bridge/_in_circle.html",
    loaded=("deals", "seatings"),
)
