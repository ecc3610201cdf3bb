"""A person's own page, by their own link: their figures and games in each circle they have a
place in, what each circle's pages show of them, their whole history to download.

A person's own link may take their place in another circle: that circle's keeper gives them
the link of their place there (the offer), and they paste their own link on its page. From then
on their page shows both circles, each league in its circle, and the place's own link is new
and given to nobody: each circle's keepers still see only their circle. Giving a place back,
leaving a circle (shown there since by their initials or as "a former member", as they chose)
and coming back are the person's, by their own link alone; each is logged in the circle.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Response,
    abort,
    flash,
    redirect,
    render_template,
    url_for,
)
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm.attributes import set_committed_value
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.circles import bp
from scorekeeper.circles.changes import changed_meanwhile, hold, log, shown_anew
from scorekeeper.circles.forms import OwnLinkForm, PlaceForm, ShowNameForm
from scorekeeper.circles.history import circle_history
from scorekeeper.circles.models import Circle, CircleChangeKind, Left, Person
from scorekeeper.circles.people import hidden_names, shown_to_viewers
from scorekeeper.circles.season import ladder_line
from scorekeeper.circles.stats import person_figures
from scorekeeper.circles.transfer import export_person
from scorekeeper.circles.views import (
    family_people,
    games_played,
    json_file,
    no_such_person,
    person_by_token,
    public_names_of,
    seat_names_for,
)
from scorekeeper.errors import LinkOpensNothing
from scorekeeper.extensions import db
from scorekeeper.games.models import Game, new_scorer_token
from scorekeeper.games.registry import FAMILIES
from scorekeeper.games.rights import form_key
from scorekeeper.games.views import new_nonce
from scorekeeper.games.writes import Outcome, arrived_before, keep_token, write_entry

OWN_LINK = re.compile(r"/person/([A-Za-z0-9_-]{8,64})/?$")


@dataclass(frozen=True)
class Place:
    """The person in one circle: what their page shows of it."""

    person: Person
    circle: Circle
    games: list[Game]
    leagues: tuple[Any, ...]
    sections: list[tuple[str, Any]]
    names: dict[str, str]
    public_name: str
    seat_names: Any
    home: bool
    """Whether it is the place of the link the page is opened by."""
    ladder: tuple[Any, ...] | None
    """Their line in the club's ladder, by its kept rules (see season.ladder_line)."""


def places_of(home: Person) -> list[Person]:
    """The person's places: their own, then those their link took in other circles (each as
    it now is, after a merge there), in the order they were taken."""
    taken = db.session.scalars(
        select(Person).where(Person.home_id == home.id).order_by(Person.id)
    ).all()
    found = [home]
    for place in taken:
        if place.now not in found:
            found.append(place.now)
    return found


def place_page(person: Person, home: bool) -> Place:
    circle = person.circle
    names = public_names_of(circle)
    history = circle_history(circle)
    figures = person_figures(history, str(person.id))
    return Place(
        person=person,
        circle=circle,
        games=games_played(circle, family_people(person)),
        leagues=figures.leagues,
        sections=figures.sections(),
        names=names,
        public_name=names[str(person.id)],
        seat_names=seat_names_for(circle, names),
        home=home,
        ladder=ladder_line(circle, history, str(person.id)),
    )


def holds_places(person: Person) -> bool:
    """Whether the person's own link took places in other circles."""
    found = db.session.scalar(select(Person.id).where(Person.home_id == person.id).limit(1))
    return found is not None


def reached(row: Person) -> Person | None:
    """The person a link of this row opens: the person it now is, unless that is a place
    taken by someone of another circle (whose own link alone reaches it) or, through the link
    of a row merged into them, a person whose link holds places elsewhere: the links of a
    circle's rows are its keepers' to see."""
    person = row.now
    if person.home_id is not None:
        return None
    if person is not row and holds_places(person):
        return None
    return person


def home_by_token(token: str) -> Person:
    """The person whose own link this is, as they now are (see :func:`reached`)."""
    person = reached(person_by_token(token))
    if person is None:
        no_such_person()
    return person


@bp.get("/person/<token>")
def person_page(token: str) -> str:
    """Every game the person played in each circle they have a place in, and their figures;
    their choice of what each circle's public pages show of them."""
    return render_person(token, OwnLinkForm(data={"nonce": new_nonce()}))


def render_person(token: str, link_form: OwnLinkForm) -> str:
    """The person's page, with the form of a link pasted to put this place on another page."""
    home = home_by_token(token)
    return render_template(
        "circles/person.html",
        person=home,
        token=token,
        places=[place_page(person, person is home) for person in places_of(home)],
        form=ShowNameForm(),
        place_form=PlaceForm(),
        link_form=link_form,
        left=Left,
        family_name=lambda game: FAMILIES[game.family].name(),
    )


def own_page(token: str) -> BaseResponse:
    return redirect(url_for("circles.person_page", token=token))


def person_change(token: str, form: Any, change: Any, said: Any, *, holding: Any = None) -> Outcome:
    """A change the person makes to one of their places (the form's ``place``): loaded with
    that place's circle held (see changes.hold), changed, its circle's games drawn anew where
    what they show of the person changed, and back to the person's page."""
    if not form.validate():
        flash(_("This form has expired: here is your page as it is now."), "error")
        return own_page(token)
    message = ""

    def load() -> Person:
        hold(place_of(home_by_token(token), form.place.data).circle)
        return place_of(home_by_token(token), form.place.data)  # as the held circle has it

    def changed(place: Person) -> BaseResponse | None:
        nonlocal message
        before = hidden_names(place.circle)
        answer = change(place)
        if isinstance(answer, str):
            flash(answer)
            return own_page(token)
        message = said(place)
        shown_anew(place.circle, before)
        return None

    return write_entry(
        load,
        changed,
        lambda place: flash(message),
        lock=lambda place: place.circle,  # the circle's pages change with it
        page=lambda place: own_page(token),
        busy=lambda: changed_meanwhile(url_for("circles.person_page", token=token)),
    )


def place_of(home: Person, place_id: str | None) -> Person:
    """The person's place of this id (their own where none is given); 404 for another's."""
    if not place_id:
        return home
    if not (place_id.isascii() and place_id.isdigit() and len(place_id) <= 12):
        abort(404)
    for place in places_of(home):
        if place.id == int(place_id):
            return place
    abort(404)


@bp.post("/person/<token>/name-shown")
def show_name(token: str) -> Outcome:
    """The person's choice: their name on a circle's public pages, or their initials."""
    form = ShowNameForm()
    if form.validate() and form.shows.data not in ("yes", "no"):
        flash(_("Choose to show your name or your initials."), "error")
        return own_page(token)
    shows = form.shows.data == "yes"

    def change(person: Person) -> str | None:
        if person.shows_name == shows:
            return said(person)
        person.shows_name = shows
        kind = CircleChangeKind.NAME_SHOWN if shows else CircleChangeKind.INITIALS
        log(person.circle, kind, person_id=person.id)
        return None

    def said(person: Person) -> str:
        if shows:
            return _("%(circle)s's pages show your name.", circle=person.circle.name)
        return _("%(circle)s's pages show your initials, not your name.", circle=person.circle.name)

    return person_change(token, form, change, said)


@bp.post("/person/<token>/leave")
def leave(token: str) -> Outcome:
    """The person leaves a circle: its pages show them since by their initials, or as "a
    former member", as they chose; their games there stay on their own page."""
    form = PlaceForm()
    if form.validate() and form.left_as.data not in {way.value for way in Left}:
        flash(_("Choose how the circle's pages show you once you have left."), "error")
        return own_page(token)
    way = form.left_as.data

    def change(person: Person) -> str | None:
        if person.left_as == way:
            return said(person)
        person.left_as = way
        log(person.circle, CircleChangeKind.LEFT, person_id=person.id, new=way)
        return None

    def said(person: Person) -> str:
        if way == Left.FORMER:
            return _(
                "You left %(circle)s: its pages show you as a former member.",
                circle=person.circle.name,
            )
        return _("You left %(circle)s: its pages show your initials.", circle=person.circle.name)

    return person_change(token, form, change, said)


@bp.post("/person/<token>/come-back")
def come_back(token: str) -> Outcome:
    """The person who left a circle comes back: its pages show them as before they left."""
    form = PlaceForm()

    def change(person: Person) -> str | None:
        if person.left_as is None:
            return said(person)
        person.left_as = None
        log(person.circle, CircleChangeKind.CAME_BACK, person_id=person.id)
        return None

    def said(person: Person) -> str:
        return _("You are back in %(circle)s.", circle=person.circle.name)

    return person_change(token, form, change, said)


@bp.post("/person/<token>/give-back")
def give_back(token: str) -> Outcome:
    """The person gives back a place their link took in another circle: it leaves their page,
    and its own link is new, for that circle's keepers to give again."""
    form = PlaceForm()

    def change(person: Person) -> str | None:
        rows = [row for row in person.circle.people if row.now is person and row.home_id]
        if not rows:
            return _("This place is your own: leave its circle instead.")
        for row in rows:
            row.home_id = None
        person.token = new_scorer_token()
        log(person.circle, CircleChangeKind.PLACE_GIVEN_BACK, person_id=person.id)
        return None

    def said(person: Person) -> str:
        return _("Your place in %(circle)s is given back.", circle=person.circle.name)

    return person_change(token, form, change, said)


@bp.post("/person/<token>/take-place")
def take_place(token: str) -> Outcome:
    """The place of this link (the offer its circle's keeper gave) taken by the person whose
    own link, from another circle, is pasted: their page shows this circle's games from then
    on, and this link opens nothing any more (its place is theirs, by their own link)."""
    form = OwnLinkForm()
    if not form.validate():
        return render_offer(token, form, 422)
    # Sent again once taken (a double tap), when both links are new already: where it went.
    sent_as = form_key(form.nonce.data)
    if (arrived := taken_already(sent_as)) is not None:
        return arrived
    found = OWN_LINK.search(urlsplit(form.link.data or "").path)
    home_token = found.group(1) if found else ""
    message = home_token_found = ""

    def load() -> Person:
        offered = home_by_token(token)
        pasted = db.session.scalar(select(Person).where(Person.token == home_token))
        # Both circles held, in one order for every request: two takes at once wait in turn.
        circles = {offered.circle_id: offered.circle}
        if pasted is not None:
            circles[pasted.now.circle_id] = pasted.now.circle
        for circle_id in sorted(circles):
            hold(circles[circle_id])
        return home_by_token(token)  # read again as the held circles have it

    def change(place: Person) -> BaseResponse | tuple[str, int] | None:
        nonlocal message, home_token_found
        pasted = db.session.scalar(select(Person).where(Person.token == home_token))
        home = reached(pasted) if pasted is not None else None
        if pasted is None or home is None or (pasted is not home and holds_places(home)):
            form.link.errors = [_("This is no person's own link on this server.")]
            return render_offer(token, form, 422)
        if home is place or home.circle_id == place.circle_id:
            form.link.errors = [_("This is a link of this circle: paste your own page's link.")]
            return render_offer(token, form, 422)
        held = {other.circle_id for other in places_of(home)}
        joining = places_of(place)
        if any(other.circle_id in held for other in joining):
            form.link.errors = [_("Your page has a place in this circle already.")]
            return render_offer(token, form, 422)
        for other in joining[1:]:  # the places this link took come along
            for row in other.circle.people:
                if row.home_id == place.id:
                    row.home_id = home.id
        place.home_id = home.id
        place.token = new_scorer_token()
        # The home's link was its circle's keepers' to see: it is new, the person's alone.
        home.token = new_scorer_token()
        log(place.circle, CircleChangeKind.PLACE_TAKEN, person_id=place.id)
        message = _(
            "Your page now shows %(circle)s too. Its link is new: keep this one, the old ones "
            "open nothing now.",
            circle=place.circle.name,
        )
        home_token_found = home.token
        if sent_as is not None:
            keep_token(sent_as, home, own_page(home.token), None)
        return None

    try:
        return write_entry(
            load,
            change,
            lambda place: flash(message),
            lock=lambda place: place.circle,
            page=lambda place: own_page(home_token_found),
            busy=lambda: changed_meanwhile(url_for("circles.person_page", token=token)),
        )
    except LinkOpensNothing:
        # The first of a double tap saved while this one waited for the circles: the browser
        # shows this answer alone, and it must lead to the page's new link.
        if (arrived := taken_already(sent_as)) is not None:
            return arrived
        raise


def taken_already(sent_as: str | None) -> BaseResponse | None:
    """Where a take-place form went when it was applied already, saying its link is new."""
    arrived = arrived_before(sent_as) if sent_as is not None else None
    if arrived is not None:
        flash(_("Its link is new: keep this one, the old ones open nothing now."))
    return arrived


def render_offer(token: str, form: OwnLinkForm, status: int) -> tuple[str, int]:
    """The place's page drawn again with the link typed and what is wrong with it."""
    return render_person(token, form), status


@bp.get("/person/<token>/history.json")
def person_json(token: str) -> Response:
    """The person's whole history: every game they played in each circle they have a place
    in, and their figures there."""
    home = home_by_token(token)
    documents = []
    for place in places_of(home):
        circle = place.circle
        ids = family_people(place)
        games = games_played(circle, ids)
        for game in games:  # the others as the circle's pages show them; the person as typed
            for row, attribute, value in shown_to_viewers(game, own=ids):
                set_committed_value(row, attribute, value)
        documents.append(
            export_person(place, games, circle_history(circle), public_names_of(circle))
        )
    document = {**documents[0], "elsewhere": documents[1:]} if len(documents) > 1 else documents[0]
    return json_file(document, f"history-{date.today():%Y-%m-%d}-{home.id}")
