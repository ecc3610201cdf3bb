"""A circle as a file, and read back on another server: its people (merges included), each of
its games as its family's own file with the person in each seat, and its log. Read back, it
gives the same history and statistics; its links are new (a link is a secret of its server).
A person's own history as a file: every game they played, and their figures."""

from __future__ import annotations

import dataclasses
import json
from datetime import date, datetime
from fractions import Fraction
from typing import Annotated, Any, Literal

from flask_babel import gettext as _
from pydantic import Field

from scorekeeper.circles.forms import club_rules_of
from scorekeeper.circles.history import CircleHistory
from scorekeeper.circles.models import (
    NAME_LENGTH,
    SEASON_RULES_LENGTH,
    Circle,
    CircleChange,
    CircleChangeKind,
    Left,
    Person,
)
from scorekeeper.circles.outside import places_elsewhere
from scorekeeper.circles.stats import person_figures
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.games.registry import FAMILIES, NamedPlace
from scorekeeper.games.transfer import (
    Schema,
    Text,
    TransferError,
    When,
    read_game_file,
    read_schema,
)
from scorekeeper.rules.common import RuleError
from scorekeeper.rules.federations import MAX_NUMBER, Federation, federation_number
from scorekeeper.rules.history import name_key

FORMAT = "scorekeeper-circle"
PERSON_FORMAT = "scorekeeper-person"
VERSION = 1
MOST_GAMES = 5_000
MOST_PEOPLE = 2_000


class PersonFile(Schema):
    id: Annotated[int, Field(ge=1, le=10_000_000)]
    name: Text(NAME_LENGTH, shortest=1)  # type: ignore[valid-type]
    shows_name: bool = True
    merged_into: Annotated[int, Field(ge=1, le=10_000_000)] | None = None
    federation: Federation | None = None
    federation_number: Text(MAX_NUMBER, shortest=1) | None = None  # type: ignore[valid-type]
    left_as: Left | None = None


class CircleGameFile(Schema):
    out_of_history: bool = False
    seats: Annotated[tuple[Annotated[int, Field(ge=1)] | None, ...], Field(max_length=40)]
    """The person in each of the game's seats, by their id in the file."""
    places: Annotated[tuple[Annotated[int, Field(ge=1)] | None, ...], Field(max_length=4_000)] = ()
    """The person in each of the game's places outside its seats (a club pair's players), in
    the order its family lists them, by their id in the file."""
    game: dict[str, Any]
    """The game's own file, as its family exports it."""


class ChangeFile(Schema):
    kind: CircleChangeKind
    at: When
    person: Annotated[int, Field(ge=1)] | None = None
    game: Annotated[int, Field(ge=1)] | None = None
    """The game, by its place in the file's list of games (from 1)."""
    old: Text(NAME_LENGTH) | None = None  # type: ignore[valid-type]
    new: Text(NAME_LENGTH) | None = None  # type: ignore[valid-type]
    undone: bool = False


class CircleFile(Schema):
    format: Literal["scorekeeper-circle"]
    version: Literal[1]
    name: Text(60, shortest=1)  # type: ignore[valid-type]
    created_at: When | None = None
    season_rules: Text(SEASON_RULES_LENGTH) | None = None  # type: ignore[valid-type]
    """A club's rules for its season, as its season page writes them in its address."""
    people: Annotated[tuple[PersonFile, ...], Field(max_length=MOST_PEOPLE)]
    games: Annotated[tuple[CircleGameFile, ...], Field(max_length=MOST_GAMES)] = ()
    log: Annotated[tuple[ChangeFile, ...], Field(max_length=100_000)] = ()


def export_circle(circle: Circle) -> dict[str, Any]:
    """The circle as its file."""
    games = list(
        db.session.scalars(
            db.select(Game).where(Game.circle_id == circle.id).order_by(Game.created_at, Game.id)
        ).all()
    )
    place = {game.id: number for number, game in enumerate(games, 1)}
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": circle.name,
        "created_at": circle.created_at.isoformat(timespec="seconds"),
        **({"season_rules": circle.season_rules} if circle.season_rules else {}),
        "people": [
            {
                "id": person.id,
                "name": person.name,
                "shows_name": person.shows_name,
                "merged_into": person.merged_into_id,
                **({"left_as": person.left_as} if person.left_as else {}),
                **(
                    {"federation": person.federation, "federation_number": person.federation_number}
                    if person.federation_line
                    else {}
                ),
            }
            for person in circle.people
        ],
        "games": [
            {
                "out_of_history": game.out_of_history,
                "seats": [player.person_id for player in game.players],
                "places": [place.person_id for place in places_elsewhere(game)],
                "game": FAMILIES[game.family].export(game),
            }
            for game in games
            if game.family in FAMILIES
        ],
        "log": [
            {
                "kind": change.kind,
                "at": change.made_at.isoformat(timespec="seconds"),
                "person": change.person_id,
                "game": place.get(change.game_id) if change.game_id else None,
                "old": change.old,
                "new": change.new,
                "undone": change.undone,
            }
            for change in circle.log
        ],
    }


def import_circle(raw: bytes) -> Circle:
    """A new circle from its file, with its games, added to the database session (the caller
    commits), or :class:`TransferError` saying what is wrong (nothing added)."""
    document = read_schema(CircleFile, raw)
    circle = Circle(name=document.name)
    if document.created_at is not None:
        circle.created_at = document.created_at
    if document.season_rules:
        circle.season_rules = club_rules_of(document.season_rules)
        if circle.season_rules is None:
            raise TransferError(_("In the file, the club's rules for its season do not read."))
    people: dict[int, Person] = {}
    keys: set[str] = set()
    for member in document.people:
        if member.id in people:
            raise TransferError(_("In the file, person %(id)d is named twice.", id=member.id))
        if name_key(member.name) in keys:
            raise TransferError(_("In the file, %(name)s is named twice.", name=member.name))
        keys.add(name_key(member.name))
        people[member.id] = Person(
            name=member.name,
            shows_name=member.shows_name,
            left_as=member.left_as.value if member.left_as else None,
        )
        people[member.id].number_with(federation_line(member))
    for member in document.people:
        if member.merged_into is not None:
            into = people.get(member.merged_into)
            if into is None or member.merged_into == member.id:
                raise TransferError(
                    _("In the file, person %(id)d is merged into nobody.", id=member.id)
                )
            people[member.id].merged_into = into
    for person in people.values():  # a merge that comes back to where it started is no person
        seen, walking = set(), person
        while walking.merged_into is not None:
            if id(walking) in seen:
                raise TransferError(_("In the file, the people's merges go round in a circle."))
            seen.add(id(walking))
            walking = walking.merged_into
    circle.people = list(people.values())
    games = []
    placed: list[tuple[NamedPlace, Person]] = []
    for number, entry in enumerate(document.games, 1):
        try:
            game = read_game_file(json.dumps(entry.game).encode())
        except TransferError as error:
            raise TransferError(
                _("In the file, game %(number)d: %(problem)s", number=number, problem=error)
            ) from None
        if len(entry.seats) != len(game.players):
            raise TransferError(
                _("In the file, game %(number)d: its seats and players differ.", number=number)
            )
        for player, seat in zip(game.players, entry.seats, strict=True):
            if seat is not None:
                if seat not in people:
                    raise TransferError(
                        _("In the file, game %(number)d names nobody of the circle.", number=number)
                    )
                people[seat].seats.append(player)
        elsewhere = places_elsewhere(game)
        if entry.places and len(entry.places) != len(elsewhere):
            raise TransferError(
                _("In the file, game %(number)d: its places and players differ.", number=number)
            )
        for place, placed_id in zip(elsewhere, entry.places, strict=False):
            if placed_id is not None:
                if placed_id not in people:
                    raise TransferError(
                        _("In the file, game %(number)d names nobody of the circle.", number=number)
                    )
                placed.append((place, people[placed_id]))
        game.out_of_history = entry.out_of_history
        circle.games.append(game)
        games.append(game)
    for change in document.log:
        named = people.get(change.person) if change.person is not None else None
        about = None
        if change.game is not None:
            if change.game > len(games):
                raise TransferError(_("In the file, the log names a game it does not hold."))
            about = games[change.game - 1]
        circle.log.append(
            CircleChange(
                kind=CircleChangeKind(change.kind).value,
                made_at=change.at,
                person=named,
                game=about,
                old=change.old,
                new=change.new,
                undone=change.undone,
            )
        )
    db.session.add(circle)
    db.session.add_all(games)
    if placed:  # a place names its person by id: the people are given theirs
        db.session.flush()
        for place, person in placed:
            place.seat(person.id)
    return circle


def plain(value: Any) -> Any:
    """A figure as JSON holds it: a share as its exact fraction ("2/3"), a day as ISO text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {item.name: plain(getattr(value, item.name)) for item in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, date | datetime):
        return value.isoformat()
    return value


def export_person(
    person: Person, games: list[Game], history: CircleHistory, names: dict[str, str]
) -> dict[str, Any]:
    """The person's own history: the circle, every game they played in it (``games``) as its
    family's file, and their figures, which name the circle's people by their keys
    (``people`` gives the name the circle's pages show for each)."""
    ids = {p.id for p in person.circle.people if p.now.id == person.id}
    played = [
        {
            "in_history": not game.out_of_history,
            "my_seats": [player.seat for player in game.players if player.person_id in ids],
            "game": FAMILIES[game.family].export(game),
        }
        for game in sorted(games, key=lambda game: (game.created_at, game.id))
        if game.family in FAMILIES
    ]
    return {
        "format": PERSON_FORMAT,
        "version": VERSION,
        "name": person.name,
        "circle": person.circle.name,
        "person": str(person.id),
        "people": names,
        "games": played,
        "figures": plain(person_figures(history, str(person.id)).as_file()),
    }


def federation_line(member: PersonFile) -> str | None:
    """A person's federation number in a circle's file, checked as one typed on the page."""
    if member.federation is None and member.federation_number is None:
        return None
    if member.federation is None or member.federation_number is None:
        raise TransferError(
            _(
                "In the file, person %(id)d has a federation number without its federation.",
                id=member.id,
            )
        )
    try:
        number = federation_number(member.federation, member.federation_number)
    except RuleError:
        raise TransferError(
            _(
                "In the file, person %(id)d's federation number is not of its federation's form.",
                id=member.id,
            )
        ) from None
    return f"{member.federation.value} {number}"
