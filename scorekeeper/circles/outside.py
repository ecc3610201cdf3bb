"""Games played outside a circle, added to it afterwards.

A game started from a circle's link on a phone that does not keep the circle is played outside
it (the setup page says so before it starts). A keeper of the circle may add it afterwards, on
showing the right to change the game itself: its scorer link, opened on the keeper's phone or
pasted in the circle's page (which is opening it). A game's viewer link is not enough, nor is
keeping the circle: nobody pulls another table's game into their circle. The keeper chooses the
person each of the game's names is, one of the circle's or a new one; the game then counts in
the history as if it had been started in the circle, and the addition is logged, with undo.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper.circles.forms import check_name
from scorekeeper.circles.models import Circle, CircleChange, CircleChangeKind, Person
from scorekeeper.circles.people import person_for
from scorekeeper.extensions import db
from scorekeeper.games.lookup import GAME_ID
from scorekeeper.games.models import Game, Player
from scorekeeper.games.registry import FAMILIES, NamedPlace
from scorekeeper.games.rights import is_scorer, private_server, scored_games
from scorekeeper.rules.history import name_key

LISTED = 10
"""The most games of this phone's that the circle's page offers to add."""
NEW = "new"
"""The choice of a seat whose name is a new person of the circle."""


def families_in_circles() -> list[str]:
    """The families whose games name the circle's people (a seat each, or as a club pair's
    two players), and so may join its history."""
    return [key for key, family in FAMILIES.items() if family.in_circles is not None]


def seat_player(player: Player) -> Callable[[int | None], None]:
    def seat(person_id: int | None) -> None:
        player.person_id = person_id

    return seat


def named_seats(game: Game) -> list[NamedPlace]:
    """Every name of ``game`` that names a player, in the order of its seats, then those its
    family holds elsewhere (a club session's pairs' players)."""
    seats = [
        NamedPlace(
            _("Seat %(number)d", number=player.seat + 1),
            player.name.strip(),
            player.person_id,
            seat_player(player),
        )
        for player in game.players
        if player.name.strip()
    ]
    return [*seats, *places_elsewhere(game)]


def places_elsewhere(game: Game) -> Sequence[NamedPlace]:
    """The names a game holds for its players outside its seats, as its family says."""
    counts = FAMILIES[game.family].in_circles if game.family in FAMILIES else None
    return counts.places(game) if counts is not None else ()


def seats_drawn(seats: Sequence[NamedPlace]) -> str:
    """What the form seating a game is drawn from: the game's names, in a few letters (a club
    pair's names may change while the keeper chooses)."""
    names = "\n".join(seat.name for seat in seats)
    return hashlib.sha256(names.encode()).hexdigest()[:16]


def games_outside() -> list[Game]:
    """The games this phone scores that are in no circle, the most recently changed first: the
    ones it may add to a circle it keeps with one tap."""
    query = (
        select(Game)
        .where(Game.circle_id.is_(None), Game.family.in_(families_in_circles()))
        .order_by(Game.updated_at.desc(), Game.id)
        .limit(4 * LISTED)
    )
    if not private_server():  # at home every phone scores every game: no need to ask
        query = query.where(scored_games())
    found = db.session.scalars(query).all()
    return [game for game in found if is_scorer(game.id, game.family)][:LISTED]


def claimed_game(game_id: str) -> Game | None:
    """The game of this id, if this phone may change it (it scores it); else ``None``."""
    game = db.session.get(Game, game_id) if GAME_ID.fullmatch(game_id) else None
    if game is None or game.family not in families_in_circles():
        return None
    return game if is_scorer(game.id, game.family, sure=True) else None


def default_choices(circle: Circle, seats: Sequence[NamedPlace]) -> list[str]:
    """Each seat's person to start from: the circle's person who goes, or went, by its name,
    else a new one."""
    found = (circle.person_called(seat.name) for seat in seats)
    return [str(person.id) if person is not None else NEW for person in found]


def seat_choices(circle: Circle, seat: NamedPlace) -> list[tuple[str, str]]:
    """What a seat may name: each of the circle's people, and a new person of the seat's name
    where nobody of the circle goes by it."""
    people = [(str(person.id), person.name) for person in circle.current_people]
    if circle.person_called(seat.name) is None and check_name(seat.name) is None:
        people.append((NEW, _("A new person: %(name)s", name=seat.name)))
    return people


def chosen_people(
    circle: Circle, seats: Sequence[NamedPlace], chosen: Sequence[str]
) -> tuple[list[Person | str], list[str]]:
    """The person each seat names (a name, for a new person), and what is wrong with the
    choices: a choice that is none of the circle's people, a new person by a name taken or
    unfit, one person in two seats."""
    people: dict[str, Person] = {str(person.id): person for person in circle.people}
    found: list[Person | str] = []
    problems: list[str] = []
    seated: dict[object, str] = {}
    for seat, choice in zip(seats, chosen, strict=True):
        person: Person | str | None
        if choice == NEW:
            person = circle.person_called(seat.name) or seat.name
            if (problem := check_name(seat.name)) is not None:
                problems.append(f"{seat.name}: {problem}")
        else:
            row = people.get(choice)
            person = row.now if row is not None else None
        if person is None:
            problems.append(_("%(name)s: choose one of the circle's people.", name=seat.name))
            continue
        key = person.id if isinstance(person, Person) else name_key(person)
        if key in seated:
            problems.append(
                _(
                    "%(first)s and %(second)s are one person of the circle (%(person)s): "
                    "seat each person once.",
                    first=seated[key],
                    second=seat.name,
                    person=person.name if isinstance(person, Person) else person,
                )
            )
        seated.setdefault(key, seat.name)
        found.append(person)
    return found, problems


def add_to_circle(
    circle: Circle, game: Game, seats: Sequence[NamedPlace], people: Sequence[Person | str]
) -> list[str]:
    """Put ``game`` in the circle, each seat naming its person (a name: a new person, who
    joins the circle), and log it; the names of those who joined."""
    game.circle_id = circle.id
    game.out_of_history = False
    there = {person.id for person in circle.people}
    circle.log.append(CircleChange(kind=CircleChangeKind.ADDED.value, game_id=game.id))
    joined = []
    for seat, chosen in zip(seats, people, strict=True):
        person = person_for(circle, chosen) if isinstance(chosen, str) else chosen
        if person.id not in there:
            there.add(person.id)
            joined.append(person.name)
            change = CircleChange(
                kind=CircleChangeKind.JOINED.value, person=person, game_id=game.id, new=person.name
            )
            circle.log.append(change)
        seat.seat(person.id)
    return joined


def taken_back(circle: Circle, change: CircleChange) -> Game | None:
    """Take a game added to the circle (``change``) back out of it, as it was before: its seats
    naming nobody, and the people who joined with it gone if they have played nothing else
    and nothing else was done with them. The game, or ``None`` if it is no longer the
    circle's."""
    game = db.session.get(Game, change.game_id) if change.game_id else None
    if game is None or game.circle_id != circle.id:
        return None
    game.circle_id = None
    game.out_of_history = False
    for place in named_seats(game):
        place.seat(None)
    for joined in circle.log:
        if joined.kind == CircleChangeKind.JOINED.value and joined.game_id == game.id:
            joined.undone = True
            person = joined.person
            if person is not None and alone(circle, person, game, joined):
                circle.people.remove(person)
    return game


def alone(circle: Circle, person: Person, game: Game, joined: CircleChange) -> bool:
    """Whether ``person``, who joined the circle with ``game``, has nothing else in it: no
    other game, nobody merged into them nor they into anyone, no later change of theirs."""
    if person.merged_into_id is not None:
        return False
    if any(other.merged_into_id == person.id for other in circle.people):
        return False
    if any(c.person_id == person.id and c.id > joined.id for c in circle.log if c is not joined):
        return False
    seated = db.session.scalar(
        select(Player.id).where(Player.person_id == person.id, Player.game_id != game.id)
    )
    if seated is not None:
        return False
    others = db.session.scalars(
        select(Game).where(Game.circle_id == circle.id, Game.id != game.id)
    ).all()
    return not any(
        place.person_id == person.id for other in others for place in places_elsewhere(other)
    )


def described(game: Game) -> dict[str, Any]:
    """A game as the circle's pages name it: its day, its family, and its list entry."""
    family = FAMILIES[game.family]
    return {
        "game": game,
        "day": game.created_at,
        "family": family.name(),
        "summary": family.summary(game),
    }
