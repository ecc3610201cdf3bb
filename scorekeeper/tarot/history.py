"""How French Tarot counts in a circle's history (scorekeeper.circles, through the registry's
``in_circles``): a league for each size of table, a game counted as it stood after its last
whole turn of the deal, and how often each person took, and made, by contract."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass

from flask_babel import gettext as _

from scorekeeper.games.registry import CircleGame, InCircles
from scorekeeper.rules.history import Finish, PlayedGame
from scorekeeper.rules.tarot import Contract, TarotError, TarotSheet, score_deal


def sheets(games: Sequence[CircleGame]) -> list[tuple[CircleGame, TarotSheet]]:
    """Each game scored, those the engine refuses left out (they count for nothing)."""
    found = []
    for played in games:
        with suppress(TarotError):
            found.append((played, played.game.sheet()))  # type: ignore[attr-defined]
    return found


def leagues(games: Sequence[CircleGame]) -> dict[str, list[PlayedGame]]:
    """A league per size of table (marks of 3 and of 5 players do not compare)."""
    found: dict[str, list[PlayedGame]] = {}
    for played, sheet in sheets(games):
        ended = sheet.after_last_turn
        if ended is None:
            continue
        totals, places = ended
        finishes = tuple(
            Finish(person, totals[seat], places[seat])
            for seat, person in enumerate(played.seats)
            if person is not None
        )
        if finishes:
            day = played.game.created_at.date()
            found.setdefault(f"tarot:{sheet.players}", []).append(PlayedGame(day, finishes))
    return found


def league_name(key: str) -> str:
    return _("French Tarot, %(num)s players", num=key.partition(":")[2])


@dataclass(frozen=True)
class TarotFigures:
    """A person's deals: as taker, by contract (taken, made), and as the called partner."""

    deals: int
    """The deals they played (all passed ones left out)."""
    taken: tuple[tuple[Contract, int, int], ...]
    """Each contract they took: how often, and how often made."""
    called: int
    called_made: int


def figures(games: Sequence[CircleGame], person: str) -> TarotFigures | None:
    played = [0, 0, 0]  # deals, called as partner, made so
    taken = {contract: [0, 0] for contract in Contract}
    for game, sheet in sheets(games):
        seats = {seat for seat, someone in enumerate(game.seats) if someone == person}
        for deal in (deal for deal in sheet.deals if deal is not None and seats):
            made = score_deal(deal).made
            played[0] += 1
            if deal.taker in seats:
                taken[deal.contract][0] += 1
                taken[deal.contract][1] += made
            if deal.partner in seats:
                played[1:] = [played[1] + 1, played[2] + made]
    if not played[0]:
        return None
    found = tuple((contract, n, m) for contract, (n, m) in taken.items() if n)
    return TarotFigures(played[0], found, played[1], played[2])


IN_CIRCLES = InCircles(
    leagues=leagues,
    league_name=league_name,
    figures=figures,
    figures_template="tarot/_in_circle.html",
    loaded=("deals",),
)
