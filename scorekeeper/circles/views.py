"""A circle's pages: its league and people for whoever has its address; its links, its people's
names, merges and the games of its history for the phones that keep it; each person's own page
by their own link."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Collection
from datetime import date
from fractions import Fraction
from typing import Any, NoReturn

from flask import (
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import format_percent
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.circles import bp, outside
from scorekeeper.circles.forms import (
    FEDERATION_NAMES,
    CircleConfirmForm,
    CircleForm,
    MergeForm,
    PeriodForm,
    PersonNameForm,
    ScorerLinkForm,
)
from scorekeeper.circles.history import circle_history
from scorekeeper.circles.models import Circle, CircleChange, CircleChangeKind, Left, Person
from scorekeeper.circles.people import (
    keeps,
    remember_keeper,
    require_keeper,
    shown_names,
)
from scorekeeper.circles.stats import (
    LeagueTable,
    league_choices,
    league_table,
    wins_chart,
)
from scorekeeper.circles.transfer import export_circle, import_circle
from scorekeeper.errors import LinkOpensNothing
from scorekeeper.extensions import db
from scorekeeper.games.forms import ImportForm
from scorekeeper.games.helpers import figure
from scorekeeper.games.links import link_base, qr_svg
from scorekeeper.games.lookup import GAME_ID
from scorekeeper.games.models import Game
from scorekeeper.games.registry import FAMILIES
from scorekeeper.games.rights import form_key
from scorekeeper.games.transfer import TransferError
from scorekeeper.games.views import new_nonce
from scorekeeper.limits import new_games_limit


@bp.context_processor
def figures_in_words() -> dict[str, Any]:
    def decimal(value: Fraction | float | None, places: int = 2) -> str:
        if value is None:
            return "–"
        return figure(float(value), "0." + "0" * places if places else "0")

    def percent(value: Fraction | float | None) -> str:
        return "–" if value is None else str(format_percent(float(value), format="0%"))

    return {"decimal": decimal, "percent": percent}


class NothingToDo(Exception):
    """A change that finds nothing to change: its message is shown, nothing is saved."""


# --- Finding a circle, and who may do what -------------------------------------------------------


def get_circle_or_404(circle_id: str) -> Circle:
    circle = db.session.get(Circle, circle_id) if GAME_ID.fullmatch(circle_id) else None
    if circle is None:
        abort(404)
    return circle


def person_by_token(token: str) -> Person:
    person = db.session.scalar(select(Person).where(Person.token == token))
    if person is None or not secrets.compare_digest(token.encode(), person.token.encode()):
        no_such_person()
    return person


def no_such_person() -> NoReturn:
    """A person's link that opens nothing: mistyped, or one that was renewed (their page took
    a place in another circle, their keeper gave a new one). Nothing says which, nor where the
    new one is: the old one was the keepers' to see."""
    raise LinkOpensNothing(
        lambda: _(
            "This link opens no one's page. A person's link is new once their page holds "
            "another circle, and when their circle's keeper gives a new one: if you have just "
            "joined your circles, yours is the link you were sent to; otherwise ask the keeper."
        )
    )


def family_people(person: Person) -> list[int]:
    """The person's ids: their own, and those of the people merged into them."""
    ids = [p.id for p in person.circle.people if p.now.id == person.id]
    return ids


def public_names_of(circle: Circle) -> dict[str, str]:
    """The name the circle's public pages show for each person, by the history's key."""
    people = circle.current_people
    shown = shown_names(people)
    return {str(person.id): name for person, name in zip(people, shown, strict=True)}


# --- A new circle --------------------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
@new_games_limit
def new() -> str | BaseResponse | tuple[str, int]:
    """A new circle: its name and its first people. The same form sent twice is one circle."""
    if request.method in ("GET", "HEAD"):
        return render_template("circles/new.html", form=CircleForm(data={"nonce": new_nonce()}))
    form = CircleForm()
    if not form.validate():
        return render_template("circles/new.html", form=form), 422
    key = form_key(form.nonce.data)
    circle = circle_started_by(key)
    first_names = [person.name for person in circle.people] if circle is not None else []
    if circle is not None and (circle.name, first_names) != (form.name.data, form.names()):
        circle, key = None, None  # the form was changed and sent again: a circle of its own
    if circle is None:
        circle = Circle(name=form.name.data)
        circle.people = [Person(name=name) for name in form.names()]
        circle = stored_once(circle, key)
    remember_keeper(circle)
    return redirect(url_for("circles.page", circle_id=circle.id))


@bp.route("/import", methods=["GET", "POST"])
@new_games_limit
def import_file() -> str | BaseResponse | tuple[str, int]:
    """A circle from another server's file: its people, its games and its log. The same file
    sent twice is one circle."""
    form = ImportForm()
    form.file.label.text = _("Circle file (.json)")
    if form.validate_on_submit():
        key = form_key(form.nonce.data)
        same = circle_started_by(key)
        if same is not None:
            remember_keeper(same)
            return redirect(url_for("circles.page", circle_id=same.id))
        try:
            circle = import_circle(form.file.data.read())
        except TransferError as error:
            form.file.errors = [*form.file.errors, str(error)]
        else:
            circle = stored_once(circle, key)
            remember_keeper(circle)
            flash(_("The circle was imported."))
            return redirect(url_for("circles.page", circle_id=circle.id))
    if not form.nonce.data:
        form.nonce.data = new_nonce()
    status = 422 if form.is_submitted() else 200
    return render_template("circles/import.html", form=form), status


def circle_started_by(key: str | None) -> Circle | None:
    """The circle a one-time form (new circle, import) already started, if any."""
    if key is None:
        return None
    return db.session.scalar(select(Circle).where(Circle.setup_nonce == key))


def stored_once(circle: Circle, key: str | None) -> Circle:
    """Store a new circle under its form's one-time key: the same form sent twice at once
    stores the first one, which both requests go on with."""
    circle.setup_nonce = key
    db.session.add(circle)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        first = circle_started_by(key)
        if first is None:
            raise
        return first
    return circle


# --- The circle's page ---------------------------------------------------------------------------


@bp.get("/<circle_id>")
def page(circle_id: str) -> Any:
    """The circle's league over the chosen period, its people and its games; for the phones
    that keep it, its links and what they may change."""
    circle = get_circle_or_404(circle_id)
    return render_circle(circle)


def render_circle(circle: Circle, status: int = 200, **forms: Any) -> Any:
    history = circle_history(circle)
    keeper = keeps(circle)
    names = public_names_of(circle)
    period = PeriodForm(request.args)
    leagues = history.leagues()
    period.league.choices = league_choices(leagues)
    chosen = period.league.data if period.league.data in leagues else None
    if chosen is None and leagues:
        chosen = next(iter(leagues))
        period.league.data = chosen
    valid_period = period.validate() if request.args else True
    since, until = (period.since.data, period.until.data) if valid_period else (None, None)
    table: LeagueTable | None = None
    chart = None
    if chosen is not None:
        table = league_table(leagues[chosen].games, since, until, names)
        chart = wins_chart(leagues[chosen].games, since, until, names)
    page_html = render_template(
        "circles/circle.html",
        circle=circle,
        keeper=keeper,
        names=names,
        period=period,
        table=table,
        chart=chart,
        games=circle_games(circle),
        seat_names=seat_names_for(circle, names),
        links=circle_links(circle) if keeper else None,
        person_links=person_links(circle) if keeper else {},
        start=start_links(circle) if keeper else [],
        add_form=forms.get("add_form") or PersonNameForm(data={"drawn_from": newest(circle)}),
        merge_form=forms.get("merge_form") or merge_form(circle),
        rename=forms.get("rename"),
        numbering=forms.get("numbering"),
        federations=FEDERATION_NAMES,
        confirm=CircleConfirmForm(),
        undone_next=last_undoable(circle),
        link_form=forms.get("link_form") or ScorerLinkForm(),
        games_outside=[outside.described(game) for game in outside.games_outside()]
        if keeper
        else [],
        conflict=forms.get("conflict"),
        conflict_form=CircleConfirmForm() if forms.get("conflict") else None,
        here=url_for("circles.page", circle_id=circle.id),
        family_name=lambda game: FAMILIES[game.family].name(),
        change_text=change_text,
    )
    return (page_html, status) if status != 200 else page_html


def change_text(change: CircleChange) -> str:
    """A line of the circle's log, in the reader's language."""
    kind = CircleChangeKind(change.kind)
    day = f"{change.game.created_at:%Y-%m-%d}" if change.game is not None else "?"
    who = change.person.name if change.person is not None else "?"
    if kind is CircleChangeKind.RENAMED:
        return _("%(old)s renamed %(new)s", old=change.old, new=change.new)
    if kind is CircleChangeKind.MERGED:
        return _("%(old)s merged into %(new)s", old=change.old, new=change.new)
    if kind is CircleChangeKind.TAKEN_OUT:
        return _("The game of %(day)s taken out of the history", day=day)
    if kind is CircleChangeKind.PUT_BACK:
        return _("The game of %(day)s put back in the history", day=day)
    if kind is CircleChangeKind.ADDED:
        return _("The game of %(day)s, played outside the circle, added to it", day=day)
    if kind is CircleChangeKind.JOINED:
        return _("%(name)s joined the circle with the game of %(day)s", name=change.new, day=day)
    if kind is CircleChangeKind.NUMBERED:
        if change.new is None:
            return _("%(name)s's federation number %(old)s taken away", name=who, old=change.old)
        return _("%(name)s's federation number: %(number)s", name=who, number=change.new)
    if kind is CircleChangeKind.PLACE_TAKEN:
        return _("%(name)s's place taken with their own page from another circle", name=who)
    if kind is CircleChangeKind.PLACE_GIVEN_BACK:
        return _("%(name)s's place given back: their link here is new", name=who)
    if kind is CircleChangeKind.LEFT:
        if change.new == Left.FORMER:
            return _("%(name)s left the circle, shown as a former member", name=who)
        return _("%(name)s left the circle, shown by their initials", name=who)
    if kind is CircleChangeKind.CAME_BACK:
        return _("%(name)s came back to the circle", name=who)
    if kind is CircleChangeKind.NAME_SHOWN:
        return _("%(name)s shows their name", name=who)
    return _("%(name)s shows their initials", name=who)


def merge_form(circle: Circle) -> MergeForm:
    """Two people who are one, by their ids: what a merge depends on is in its fields (that
    both are still people of their own), not in its ``drawn_from``."""
    choices = [(person.id, person.name) for person in circle.current_people]
    # Two different people to start from: the first two.
    first, second = [choice[0] for choice in choices[:2]] + [None] * (2 - len(choices[:2]))
    form = MergeForm(data={"merged": first, "kept": second})
    form.kept.choices = choices
    form.merged.choices = choices
    return form


def circle_games(circle: Circle) -> list[Game]:
    """Every game played in the circle, the newest first, those out of its history too."""
    return list(
        db.session.scalars(
            select(Game)
            .where(Game.circle_id == circle.id)
            .order_by(Game.created_at.desc(), Game.id)
            .options(selectinload(Game.players))
        ).all()
    )


def games_played(circle: Circle, ids: list[int]) -> list[Game]:
    """Every game of the circle a person (by their ids) played, the newest first: in a seat,
    or where its family names them otherwise (a club pair); those out of the history too."""
    return [game for game in circle_games(circle) if names_any(game, ids)]


def names_any(game: Game, ids: Collection[int]) -> bool:
    """Whether ``game`` names one of the people of these ids, in a seat or elsewhere."""
    return any(player.person_id in ids for player in game.players) or any(
        place.person_id in ids for place in outside.places_elsewhere(game)
    )


def seat_names_for(circle: Circle, names: dict[str, str]) -> Callable[[Game], str]:
    """How a game of the circle lists its people on the circle's pages: by their public names
    (a seat that names nobody of the circle shows as a question mark)."""
    people = {person.id: person for person in circle.people}

    def seats(game: Game) -> str:
        shown = []
        for player in game.players:
            person = people.get(player.person_id) if player.person_id is not None else None
            shown.append(names.get(str(person.now.id), "?") if person is not None else "?")
        return ", ".join(shown)

    return seats


def circle_links(circle: Circle) -> dict[str, str]:
    base = link_base()
    return {
        "viewer": base + url_for("circles.page", circle_id=circle.id),
        "keeper": base
        + url_for("circles.join_as_keeper", circle_id=circle.id, token=circle.scorer_token),
    }


def person_links(circle: Circle) -> dict[int, str]:
    """Each person's own link, for the phones that keep the circle to give them: none for a
    place another circle's person took, whose link is theirs alone."""
    base = link_base()
    taken = {row.now.id for row in circle.people if row.home_id is not None}
    ids = [row.id for row in circle.people]
    holding = db.session.scalars(select(Person.home_id).where(Person.home_id.in_(ids))).all()
    taken |= {row.now.id for row in circle.people if row.id in set(holding)}
    return {
        person.id: base + url_for("circles.person_page", token=person.token)
        for person in circle.current_people
        if person.id not in taken
    }


def start_links(circle: Circle) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each game a family with seats offers, started in the circle."""
    links = []
    for key in outside.families_in_circles():
        family = FAMILIES[key]
        games = [
            (game.name, game.url + ("&" if "?" in game.url else "?") + f"circle={circle.id}")
            for game in family.new_games()
        ]
        links.append((family.name(), games))
    return links


@bp.get("/<circle_id>/keep/<token>")
def join_as_keeper(circle_id: str, token: str) -> BaseResponse:
    """The circle's scorer link: this phone may now start games in the circle and change it."""
    circle = get_circle_or_404(circle_id)
    if not secrets.compare_digest(token.encode(), circle.scorer_token.encode()):
        abort(403)
    remember_keeper(circle)
    flash(_("This phone can now start games in this circle and keep its people."))
    return redirect(url_for("circles.page", circle_id=circle.id))


@bp.get("/<circle_id>/qr/<any(viewer, keeper):link>.svg")
def qr_code(circle_id: str, link: str) -> Response:
    circle = get_circle_or_404(circle_id)
    if link == "keeper":
        require_keeper(circle)
    response = Response(qr_svg(circle_links(circle)[link]), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store" if link == "keeper" else "private, max-age=86400"
    return response


UNDOABLE = {
    CircleChangeKind.RENAMED,
    CircleChangeKind.MERGED,
    CircleChangeKind.TAKEN_OUT,
    CircleChangeKind.PUT_BACK,
    CircleChangeKind.ADDED,
    CircleChangeKind.NUMBERED,
}


def newest(circle: Circle) -> str:
    """What the form adding a person is drawn from: the newest of the circle's people, by id
    (a person who joins later has a higher one)."""
    return str(max((person.id for person in circle.people), default=0))


def undoable(change: CircleChange) -> bool:
    return (
        not change.undone
        and CircleChangeKind(change.kind) in UNDOABLE
        and (change.person_id is not None or change.game_id is not None)
    )


def changed_since(circle: Circle, change: CircleChange) -> bool:
    """Whether a later change, not undone, changed what ``change`` changed (the same person,
    the same game): taking ``change`` back would take that one back too."""
    later = (entry for entry in circle.log if entry.id > change.id and undoable(entry))
    return any(
        (
            change.person_id is not None
            and entry.person_id == change.person_id
            and touches_alike(change, entry)
        )
        or (change.game_id is not None and entry.game_id == change.game_id)
        for entry in later
    )


SEPARATE = {CircleChangeKind.RENAMED, CircleChangeKind.NUMBERED}
"""Changes to a person that touch what the other does not: a name, a number."""


def touches_alike(first: CircleChange, second: CircleChange) -> bool:
    """Whether two changes to one person may change the same thing of theirs (a rename and
    a number do not; a merge touches everything)."""
    kinds = {CircleChangeKind(first.kind), CircleChangeKind(second.kind)}
    return not (kinds <= SEPARATE and len(kinds) == 2)


def last_undoable(circle: Circle) -> CircleChange | None:
    """The change the undo button takes back: the last a keeper made (not a person's own
    choice of the name shown)."""
    return next((change for change in reversed(circle.log) if undoable(change)), None)


# --- Files ---------------------------------------------------------------------------------------


@bp.get("/<circle_id>/circle.json")
def circle_json(circle_id: str) -> Response:
    """The whole circle (its people, its games, its log), for another server's import."""
    circle = get_circle_or_404(circle_id)
    require_keeper(circle)
    return json_file(export_circle(circle), f"circle-{date.today():%Y-%m-%d}-{circle.id}")


def json_file(document: dict[str, Any], stem: str) -> Response:
    return Response(
        json.dumps(document, ensure_ascii=False, indent=2),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{stem}.json"'},
    )
