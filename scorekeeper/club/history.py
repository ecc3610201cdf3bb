"""How a club session counts in a circle's history (scorekeeper.circles, through the
registry's ``in_circles``): each pair of the session whose players are the circle's people,
with its percentage, and each person's percentages over time and with each partner
(:mod:`scorekeeper.rules.history`). A session has no seats: its pairs name its players."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from flask_babel import gettext as _

from scorekeeper.club.models import FROM_FILE, ClubSession
from scorekeeper.club.rows import ClubPair
from scorekeeper.games.models import Game
from scorekeeper.games.registry import CircleGame, InCircles, NamedPlace
from scorekeeper.rules.common import RuleError
from scorekeeper.rules.history import (
    PairSession,
    PartnerRecord,
    RankedPair,
    RankedSession,
    by_partner,
    pair_partners,
    percentages_over_time,
)


def pair_sessions(games: Sequence[CircleGame]) -> list[PairSession]:
    """Each pair of a session closed (or read from its results file) with at least one of the
    circle's people, and its percentage: the published one, for a session read from a file
    that published it."""
    found = []
    for played in games:
        game = played.game
        assert isinstance(game, ClubSession)
        if not (game.closed or game.movement_kind == FROM_FILE):
            continue
        try:
            score = game.score()
        except RuleError:  # a session the engine refuses counts for nothing
            continue
        for pair in game.pairs:
            people = (played.person(pair.first_person_id), played.person(pair.second_person_id))
            if people == (None, None):
                continue
            percentage = published_percentage(pair)
            if percentage is None:
                standing = score.standing_of(pair.key)
                percentage = standing.percentage if standing is not None else None
            if percentage is not None:
                found.append(PairSession(played_day(game), people, percentage))
    return found


def played_day(game: ClubSession) -> date:
    """The day the session was played: its results file's, else the day it was started."""
    return game.played_on or game.created_at.date()


def published_percentage(pair: ClubPair) -> Fraction | None:
    published = pair.published
    if published is None or published.percentage is None:
        return None
    return Fraction(published.percentage)


@dataclass(frozen=True)
class SessionLine:
    """A person's session of the season: their pair's percentage and place in its ranking
    (``tied``: shared), and their partner (the circle's key; ``None`` for a name that is
    nobody of the circle)."""

    played_on: date
    percentage: Fraction
    place: int
    tied: bool
    partner: str | None


@dataclass(frozen=True)
class ClubFigures:
    """A person's club sessions."""

    sessions: tuple[tuple[date, Fraction], ...]
    """Their percentage in each session, in the order of the days."""
    partners: tuple[PartnerRecord, ...]
    season: tuple[SessionLine, ...] = ()
    """Each session with its place and partner, in the order of the days."""


def figures(games: Sequence[CircleGame], person: str) -> ClubFigures | None:
    sessions = pair_sessions(games)
    over_time = percentages_over_time(sessions, person)
    if not over_time:
        return None
    lines = [
        SessionLine(
            ranked.played_on,
            pair.percentage,
            pair.place,
            pair.tied > 1,
            pair.partners[1] if pair.partners[0] == person else pair.partners[0],
        )
        for ranked in season(games)
        for pair in ranked.pairs
        if person in pair.partners
    ]
    lines.sort(key=lambda line: line.played_on)
    return ClubFigures(tuple(over_time), by_partner(sessions, person), tuple(lines))


def places(game: Game) -> list[NamedPlace]:
    """Each pair's two players, by pair: the names a session holds for its people."""
    assert isinstance(game, ClubSession)
    found = []
    for pair in sorted(game.pairs, key=lambda pair: (pair.direction, pair.number)):
        label = " ".join([_("Pair %(number)d", number=pair.number), pair.direction]).strip()
        for partner, name in enumerate(pair_partners(pair.names) or ()):
            found.append(NamedPlace(label, name, pair.person_ids[partner], pair.seater(partner)))
    return found


def shown(game: Game, hidden: Mapping[int, str]) -> list[tuple[Any, str, str]]:
    """Each pair whose names name someone shown by other words (their initials): the pair's
    names as shown, each of its two players by their own."""
    assert isinstance(game, ClubSession)
    found: list[tuple[Any, str, str]] = []
    for pair in game.pairs:
        partners = pair_partners(pair.names)
        if partners is None or not any(person in hidden for person in pair.person_ids):
            continue
        names = [
            hidden.get(person, name) if person is not None else name
            for person, name in zip(pair.person_ids, partners, strict=True)
        ]
        found.append((pair, "names", " – ".join(names)))
    return found


def season(games: Sequence[CircleGame]) -> list[RankedSession]:
    """Each session of the circle closed (or read from its results file), its pairs as its
    ranking placed them (each direction's apart in a two-winner session): the published
    percentage and place where its file gave them."""
    found = []
    for played in games:
        game = played.game
        assert isinstance(game, ClubSession)
        if not (game.closed or game.movement_kind == FROM_FILE):
            continue
        try:
            score = game.score()
        except RuleError:
            continue
        ranked: list[RankedPair] = []
        for pair in game.pairs:
            standing = score.standing_of(pair.key)
            percentage = published_percentage(pair)
            if percentage is None and standing is not None:
                percentage = standing.percentage
            if standing is None or percentage is None:
                continue
            (ranking,) = [ranks for _side, ranks in score.rankings if standing in ranks]
            ranked.append(
                RankedPair(
                    " ".join([_("Pair %(number)d", number=pair.number), pair.direction]).strip(),
                    (played.person(pair.first_person_id), played.person(pair.second_person_id)),
                    percentage,
                    standing.rank,
                    sum(1 for other in ranking if other.rank == standing.rank),
                )
            )
        if ranked:
            found.append(RankedSession(played_day(game), game.id, tuple(ranked)))
    return found


IN_CIRCLES = InCircles(
    figures=figures,
    figures_template="club/_in_circle.html",
    loaded=("pairs", "results"),
    places=places,
    shown=shown,
    season=season,
)
