"""A circle's history read from its games: each family's games as the rules of the history take
them (:mod:`scorekeeper.rules.history`), each seat by the circle's key for its person (the
person's id, as they now are after a merge; None for a seat that names nobody of the circle).
Games taken out of the history are left out; nothing read here is stored."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorekeeper.ascenseur.models import AscenseurGame
from scorekeeper.bridge.evening import score_evening
from scorekeeper.bridge.models import BridgeGame
from scorekeeper.circles.models import Circle, Person
from scorekeeper.club.models import FROM_FILE, ClubSession
from scorekeeper.echelons.models import EchelonsGame
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.rules.ascenseur import GameSheet
from scorekeeper.rules.common import RuleError, Side
from scorekeeper.rules.echelons import PatienceGame, race_winner
from scorekeeper.rules.history import (
    Finish,
    PairSession,
    PlayedGame,
    RaceGame,
    SidesGame,
    race_league_game,
    sides_league_game,
)
from scorekeeper.teams.match import score_match
from scorekeeper.teams.models import SEATS, TeamsGame, team_at

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


@dataclass
class CircleHistory:
    """Everything the circle's pages count, read once: each family's games in the history,
    in the order they were started, as :mod:`scorekeeper.rules.history` takes them."""

    ascenseur: list[tuple[Game, GameSheet, Seats]] = field(default_factory=list)
    rubbers: list[SidesGame] = field(default_factory=list)
    chicagos: list[SidesGame] = field(default_factory=list)
    races: list[RaceGame] = field(default_factory=list)
    logs: dict[str, list[PatienceGame]] = field(default_factory=lambda: defaultdict(list))
    """Each person's patience log, every log of theirs together."""
    club: list[PairSession] = field(default_factory=list)
    """Each pair of the club's sessions whose two players are the circle's people."""
    club_sessions: dict[str, list[Game]] = field(default_factory=lambda: defaultdict(list))
    """The club sessions each person played, by their key (a session has no seats)."""
    teams: list[PlayedGame] = field(default_factory=list)
    """Each teams match played out, each person with their team's IMPs."""

    def leagues(self) -> dict[str, list[PlayedGame]]:
        """The circle's leagues, by key (``ascenseur:<preset>``, ``bridge:rubber``,
        ``bridge:chicago``, ``echelons:race``): the games of each whose points compare."""
        found: dict[str, list[PlayedGame]] = {}
        for game, sheet, seats in self.ascenseur:
            if sheet.is_complete:
                finishes = tuple(
                    Finish(person, sheet.totals[seat], sheet.places[seat])
                    for seat, person in enumerate(seats)
                    if person is not None
                )
                if finishes:
                    key = f"ascenseur:{game.preset}"  # type: ignore[attr-defined]
                    found.setdefault(key, []).append(PlayedGame(game.created_at.date(), finishes))
        for key, games in (("bridge:rubber", self.rubbers), ("bridge:chicago", self.chicagos)):
            if games:
                found[key] = [sides_league_game(game) for game in games]
        if self.teams:
            found["bridge:teams"] = self.teams
        if self.races:
            found["echelons:race"] = [race_league_game(game) for game in self.races]
        return found


def in_history(circle: Circle, kind: type[Game]) -> list[Game]:
    return list(
        db.session.scalars(
            select(kind)
            .where(kind.circle_id == circle.id, kind.out_of_history.is_(False))
            .order_by(kind.created_at, kind.id)
            .options(selectinload(kind.players))
        ).all()
    )


def circle_history(circle: Circle) -> CircleHistory:
    """The circle's history, read from its games (those taken out of it left out)."""
    people = {person.id: person for person in circle.people}
    history = CircleHistory(ascenseur=ascenseur_sheets(circle))
    for game in in_history(circle, BridgeGame):
        assert isinstance(game, BridgeGame)
        seats = person_keys(game, people)
        try:
            evening = score_evening(game)
        except RuleError:  # an evening the engine refuses counts for nothing
            continue
        for round_ in evening.rounds:
            if not round_.finished:
                continue
            ns, ew = round_.partners(Side.NS), round_.partners(Side.EW)
            played = SidesGame(
                game.created_at.date(),
                (seats[ns[0]], seats[ns[1]]),
                (seats[ew[0]], seats[ew[1]]),
                round_.totals.ns,
                round_.totals.ew,
            )
            (history.chicagos if game.chicago else history.rubbers).append(played)
    for game in in_history(circle, EchelonsGame):
        assert isinstance(game, EchelonsGame)
        seats = person_keys(game, people)
        if game.race:
            if len(seats) == 2 and seats[0] is not None and seats[1] is not None:
                players = (seats[0], seats[1])
                for record in game.entries:
                    if record.left_a is not None and record.left_b is not None:
                        winner = race_winner(record.left_a, record.left_b)
                        history.races.append(RaceGame(record.played_on, players, winner))
        elif seats and seats[0] is not None:
            history.logs[seats[0]].extend(game.patience_games)
    for game in in_history(circle, ClubSession):
        assert isinstance(game, ClubSession)
        read_club_session(circle, game, history)
    for game in in_history(circle, TeamsGame):
        assert isinstance(game, TeamsGame)
        read_teams_match(game, person_keys(game, people), history)
    return history


def read_teams_match(game: TeamsGame, seats: Seats, history: CircleHistory) -> None:
    """A match played out, as the league counts it: each of the circle's people with their
    team's IMPs, the team with more first (both first when level)."""
    try:
        match = score_match(game)
    except RuleError:  # a match the engine refuses counts for nothing
        return
    if not match.finished:
        return
    finishes = []
    for player, person in zip(game.players, seats, strict=True):
        if person is None:
            continue
        table, seat = divmod(player.seat, len(SEATS))
        team = team_at(table + 1, SEATS[seat].side)
        mine, theirs = match.imps[team], match.imps[1 - team]
        finishes.append(Finish(person, mine, 2 if mine < theirs else 1))
    if finishes:
        history.teams.append(PlayedGame(game.created_at.date(), tuple(finishes)))


def read_club_session(circle: Circle, game: ClubSession, history: CircleHistory) -> None:
    """The session's pairs whose players are the circle's people, with their percentages: a
    session closed, or read from its results file (one still played counts once closed)."""
    if not (game.closed or game.movement_kind == FROM_FILE):
        return
    try:
        score = game.score()
    except RuleError:  # a session the engine refuses counts for nothing
        return
    people = {person.id: person for person in circle.people}
    for pair in game.pairs:
        standing = score.standing_of(pair.key)
        if standing is None or standing.percentage is None:
            continue
        keys = tuple(
            str(people[person_id].now.id) if person_id in people else None
            for person_id in (pair.first_person_id, pair.second_person_id)
        )
        if all(key is None for key in keys):
            continue
        played = PairSession(game.created_at.date(), (keys[0], keys[1]), standing.percentage)
        history.club.append(played)
        for key in keys:
            if key is not None:
                history.club_sessions[key].append(game)
