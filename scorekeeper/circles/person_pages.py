"""A person's own page, by their own link: their figures and games, whether their name is
shown, their whole history to download."""

from __future__ import annotations

from datetime import date

from flask import (
    Response,
    flash,
    redirect,
    render_template,
    url_for,
)
from flask_babel import gettext as _
from sqlalchemy.orm.attributes import set_committed_value
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.circles import bp
from scorekeeper.circles.changes import changed_meanwhile, hold, log, shown_anew
from scorekeeper.circles.forms import (
    ShowNameForm,
)
from scorekeeper.circles.history import CircleHistory, circle_history
from scorekeeper.circles.models import CircleChangeKind, Person
from scorekeeper.circles.people import (
    hidden_names,
    shown_to_viewers,
)
from scorekeeper.circles.stats import (
    person_figures,
)
from scorekeeper.circles.transfer import export_person
from scorekeeper.circles.views import (
    family_people,
    games_played,
    json_file,
    person_by_token,
    public_names_of,
    seat_names_for,
)
from scorekeeper.games.registry import FAMILIES
from scorekeeper.games.writes import Outcome, write_entry

# --- A person's own page -------------------------------------------------------------------------


@bp.get("/person/<token>")
def person_page(token: str) -> str:
    """Every game the person played in the circle, and their figures; their choice of the name
    the circle's public pages show."""
    person = person_by_token(token).now
    circle = person.circle
    history: CircleHistory = circle_history(circle)
    names = public_names_of(circle)
    ids = family_people(person)
    games = games_played(circle, ids)
    figures = person_figures(history, str(person.id))
    return render_template(
        "circles/person.html",
        person=person,
        circle=circle,
        token=token,
        games=games,
        leagues=figures.leagues,
        sections=figures.sections(),
        names=names,
        public_name=names[str(person.id)],
        form=ShowNameForm(),
        family_name=lambda game: FAMILIES[game.family].name(),
        seat_names=seat_names_for(circle, names),
    )


@bp.post("/person/<token>/name-shown")
def show_name(token: str) -> Outcome:
    """The person's choice: their name on the circle's public pages, or their initials."""
    form = ShowNameForm()
    if not form.validate():
        flash(_("This form has expired: here is your page as it is now."), "error")
        return redirect(url_for("circles.person_page", token=token))
    if form.shows.data not in ("yes", "no"):
        flash(_("Choose to show your name or your initials."), "error")
        return redirect(url_for("circles.person_page", token=token))
    shows = form.shows.data == "yes"

    def done(person: Person) -> None:
        if shows:
            flash(_("The circle's pages show your name."))
        else:
            flash(_("The circle's pages show your initials, not your name."))

    def change(person: Person) -> BaseResponse | None:
        if person.shows_name == shows:
            done(person)
            return own_page(person)
        before = hidden_names(person.circle)
        person.shows_name = shows
        kind = CircleChangeKind.NAME_SHOWN if shows else CircleChangeKind.INITIALS
        log(person.circle, kind, person_id=person.id)
        shown_anew(person.circle, before)
        return None

    def own_page(person: Person) -> BaseResponse:
        return redirect(url_for("circles.person_page", token=token))

    def load() -> Person:
        person = person_by_token(token)
        hold(person.circle)
        return person.now

    return write_entry(
        load,
        change,
        done,
        lock=lambda person: person.circle,  # the circle's pages change with it
        page=own_page,
        busy=lambda: changed_meanwhile(url_for("circles.person_page", token=token)),
    )


@bp.get("/person/<token>/history.json")
def person_json(token: str) -> Response:
    """The person's own history: every game they played in the circle, and their figures."""
    person = person_by_token(token).now
    circle = person.circle
    ids = family_people(person)
    games = games_played(circle, ids)
    for game in games:  # the others as the circle's pages show them; the person as typed
        for row, attribute, value in shown_to_viewers(game, own=ids):
            set_committed_value(row, attribute, value)
    document = export_person(person, games, circle_history(circle), public_names_of(circle))
    return json_file(document, f"history-{date.today():%Y-%m-%d}-{person.id}")
