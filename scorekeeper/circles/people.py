"""Who may change a circle, and the people a game started in it seats.

A circle's scorer link, like a game's, marks the browser that opens it as one that keeps the
circle: it may start games in it, add, rename and merge its people, and take games out of its
history. The circle's own address shows its public pages (its league, its people by the names
they chose to show). A person's page opens by that person's own link alone, in every server
mode. The keeper's rights come from the keeper link alone, on a private server (the family's
laptop) too, where every phone scores every game: a circle's page shows its people's real names
only to its keepers, and a person who chose initials is shown by them to every other phone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any

from flask import abort, session
from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError

from scorekeeper.circles.forms import check_name
from scorekeeper.circles.history import circle_history, families_in_circles
from scorekeeper.circles.models import Circle, Left, Person
from scorekeeper.extensions import db
from scorekeeper.games.forms import NewGameForm
from scorekeeper.games.lookup import GAME_ID
from scorekeeper.games.models import Game
from scorekeeper.games.registry import FAMILIES, Circles
from scorekeeper.games.rights import browser_id, private_server
from scorekeeper.rules.history import public_names

KEEPER_OF = "circles"
"""The session's list of the circles this browser keeps, the most recent first."""
RECENT = 60


def keeps(circle: Circle) -> bool:
    """Whether this browser keeps the circle (see the module's docstring)."""
    return circle.id in session.get(KEEPER_OF, [])


def remember_keeper(circle: Circle) -> None:
    """Note that this browser keeps the circle (its scorer link was opened, or it made it)."""
    browser_id()
    session.permanent = True  # a phone keeps its circles when the browser is closed
    known = session.get(KEEPER_OF, [])
    if known[:1] != [circle.id]:
        session[KEEPER_OF] = [circle.id, *(other for other in known if other != circle.id)][:RECENT]


def kept_circles() -> list[Circle]:
    """The circles this browser keeps, the most recently opened first (on a private server,
    every circle)."""
    if private_server():
        return list(db.session.scalars(db.select(Circle).order_by(Circle.name)).all())
    ids = [circle_id for circle_id in session.get(KEEPER_OF, []) if isinstance(circle_id, str)]
    found = {c.id: c for c in db.session.scalars(db.select(Circle).where(Circle.id.in_(ids)))}
    return [found[circle_id] for circle_id in ids if circle_id in found]


def kept_circle(circle_id: str | None) -> Circle | None:
    """The circle of this id, if there is one and this browser keeps it."""
    if not circle_id or not GAME_ID.fullmatch(circle_id):
        return None
    circle = db.session.get(Circle, circle_id)
    return circle if circle is not None and keeps(circle) else None


def unkept_circle(circle_id: str | None) -> Circle | None:
    """The circle of this id, if there is one and this browser does not keep it (a new game's
    form opened by its link then says the game is played outside it)."""
    if not circle_id or not GAME_ID.fullmatch(circle_id):
        return None
    circle = db.session.get(Circle, circle_id)
    return circle if circle is not None and not keeps(circle) else None


def kept_circle_id(circle_id: str | None) -> str:
    circle = kept_circle(circle_id)
    return circle.id if circle is not None else ""


def listed_circles() -> list[Circle]:
    """The circles the home page lists: those this browser keeps, every one on a private
    server."""
    return kept_circles() if session.get(KEEPER_OF) or private_server() else []


def check_seats(form: NewGameForm) -> bool:
    """Whether a new game's form may start the game in its circle: this phone still keeps the
    circle, and no two seats name one of its people. The form's ``circle`` field says what is
    wrong (``templates/_forms.html`` shows it); a circle no longer kept is left out of the
    form, drawn again with every name typed, to start the game outside it."""
    circle = kept_circle(form.circle.data)
    if circle is None:
        form.outside.data, form.circle.data = form.circle.data, ""
        form.circle.errors = [
            *form.circle.errors,
            _(
                "This phone no longer keeps the circle: send the form again to play the "
                "game outside it, or open the circle's link again."
            ),
        ]
        return False
    valid = True
    seated: dict[int, str] = {}
    for name in form.names():
        person = circle.person_called(name) if name.strip() else None
        if person is None:
            continue
        if person.now.id in seated:
            form.circle.errors = [
                *form.circle.errors,
                _(
                    "%(first)s and %(second)s are one person of the circle (%(person)s): "
                    "seat each person once.",
                    first=seated[person.now.id],
                    second=name,
                    person=person.now.name,
                ),
            ]
            valid = False
        seated.setdefault(person.now.id, name)
    return valid


def require_keeper(circle: Circle) -> None:
    if not keeps(circle):
        abort(403)


def seat_people(game: Game, circle_id: str) -> None:
    """Start ``game`` in the circle: each named seat names the circle's person of that name,
    who joins the circle if new. The name on the seat stays as typed at the table. A circle this
    browser does not keep is refused (403): its form came from elsewhere."""
    circle = kept_circle(circle_id)
    if circle is None:
        abort(403)
    game.circle_id = circle.id
    for player in game.players:
        if player.name.strip():
            player.person_id = person_for(circle, player.name).id


def person_for(circle: Circle, name: str) -> Person:
    """The circle's person who goes, or went before a rename, by ``name``, or a new one; two
    phones adding the same new name at once find one person."""
    person = circle.person_called(name)
    if person is not None:
        return person
    person = Person(circle_id=circle.id, name=" ".join(name.split()))
    try:
        with db.session.begin_nested():
            db.session.add(person)
    except IntegrityError:  # another request added them meanwhile
        db.session.expire(circle, ["people"])
        found = circle.person_called(name)
        if found is None:
            raise
        return found
    circle.people.append(person)
    return person


def shown_names(people: Sequence[Person]) -> tuple[str, ...]:
    """The names the circle's public pages show for these people (in the order they joined):
    their own, their initials where they chose them or left the circle as initials, "a former
    member" (numbered where several are) where they left as one."""
    public = public_names([(person.name, person.shown_by_name) for person in people])
    former = [person for person in people if person.left_as == Left.FORMER]
    numbered = {
        person.id: _("A former member") if number == 1 else f"{_('A former member')} {number}"
        for number, person in enumerate(former, 1)
    }
    return tuple(numbered.get(person.id, name) for person, name in zip(people, public, strict=True))


def hidden_names(circle: Circle) -> dict[int, str]:
    """What the circle's games show in place of the name of each of its people who chose to
    show their initials or left the circle (by the id of each row of theirs, merged ones too):
    what the circle's public pages show of them (see :func:`shown_names`)."""
    people = circle.current_people
    public = shown_names(people)
    hidden = {p.id: name for p, name in zip(people, public, strict=True) if not p.shown_by_name}
    return {row.id: hidden[row.now.id] for row in circle.people if row.now.id in hidden}


def shown_to_viewers(game: Game, own: Collection[int] = ()) -> list[tuple[Any, str, str]]:
    """Each name of ``game`` that names one of its circle's people who chose to show their
    initials, with those initials: a seat's name, or one its family holds elsewhere (a club
    pair's); (row, attribute, what is shown). The people of ``own`` (a person's own ids, in
    their own file) keep their names."""
    circle = circle_of(game)
    if circle is None:
        return []
    hidden = {key: name for key, name in hidden_names(circle).items() if key not in own}
    if not hidden:
        return []
    shown: list[tuple[Any, str, str]] = [
        (player, "name", hidden[player.person_id])
        for player in game.players
        if player.person_id in hidden and player.name != hidden[player.person_id]
    ]
    counts = FAMILIES[game.family].in_circles if game.family in FAMILIES else None
    if counts is not None:
        shown.extend(counts.shown(game, hidden))
    return shown


def circle_of(game: Game) -> Circle | None:
    """The circle the game was played in, if any."""
    return db.session.get(Circle, game.circle_id) if game.circle_id is not None else None


def circle_name(game: Game) -> str:
    circle = circle_of(game)
    return circle.name if circle is not None else ""


def person_named(game: Game, name: str) -> int | None:
    """The id of the person of the game's circle who goes by ``name``, added if new."""
    circle = circle_of(game)
    return person_for(circle, name).id if circle is not None else None


def federation_numbers(ids: Collection[int]) -> dict[int, str]:
    """The federation number of each of these people who has one and shows their name: a
    number would name one who chose their initials."""
    if not ids:
        return {}
    found = db.session.scalars(db.select(Person).where(Person.id.in_(set(ids)))).all()
    return {
        person.id: number
        for person in found
        if (number := person.now.federation_number)
        and person.now.federation
        and person.now.shown_by_name
    }


MOST_PARTNERSHIPS = 60


def pair_names(game: Game) -> list[str]:
    """The circle's regular partnerships, the most sessions together first, then each of its
    people who has not left it, as a session's director names its pairs (see
    Circles.pair_names)."""
    circle = circle_of(game)
    if circle is None:
        return []
    # Those shown by their initials, or who left, are named by nobody but the director.
    people = {str(person.id): person for person in circle.current_people if person.shown_by_name}
    history = circle_history(circle)
    together: Counter[tuple[str, str]] = Counter()
    for family, counts in families_in_circles():
        for played in counts.season(history.of(family)):
            for pair in played.pairs:
                first, second = sorted(pair.partners, key=lambda key: int(key or 0))
                if first in people and second in people and first != second:
                    together[(first, second)] += 1
    regular = [
        f"{people[first].name} – {people[second].name}"
        for (first, second), _count in together.most_common(MOST_PARTNERSHIPS)
    ]
    return [*regular, *(person.name for person in people.values())]


HOOKS = Circles(
    kept=kept_circle_id,
    check_seats=check_seats,
    seat=seat_people,
    listed=listed_circles,
    shown_to_viewers=shown_to_viewers,
    person_named=person_named,
    circle_name=circle_name,
    name_problem=check_name,
    federation_numbers=federation_numbers,
    pair_names=pair_names,
)
"""What the circles add to the core's new games and home page (see registry.Circles)."""
