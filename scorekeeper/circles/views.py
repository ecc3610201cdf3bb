"""A circle's pages: its league and people for whoever has its address; its links, its people's
names, merges and the games of its history for the phones that keep it; each person's own page
by their own link."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from datetime import date
from fractions import Fraction
from typing import Any, cast

from flask import (
    Blueprint,
    Flask,
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
from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.circles.forms import (
    CircleConfirmForm,
    CircleForm,
    MergeForm,
    PeriodForm,
    PersonNameForm,
    ShowNameForm,
)
from scorekeeper.circles.history import CircleHistory, circle_history
from scorekeeper.circles.models import Circle, CircleChange, CircleChangeKind, Person
from scorekeeper.circles.people import (
    HOOKS,
    keeps,
    kept_circle,
    remember_keeper,
    require_keeper,
)
from scorekeeper.circles.stats import (
    LeagueTable,
    league_choices,
    league_table,
    person_figures,
    wins_chart,
)
from scorekeeper.circles.transfer import export_circle, export_person, import_circle
from scorekeeper.club.models import ClubPair
from scorekeeper.extensions import db
from scorekeeper.games.entries import Outcome, write_entry
from scorekeeper.games.forms import ImportForm
from scorekeeper.games.helpers import figure
from scorekeeper.games.links import link_base, qr_svg
from scorekeeper.games.lookup import GAME_ID
from scorekeeper.games.models import Game, Player
from scorekeeper.games.registry import FAMILIES, register_circles
from scorekeeper.games.rights import form_key
from scorekeeper.games.transfer import TransferError
from scorekeeper.games.views import new_nonce
from scorekeeper.limits import new_games_limit
from scorekeeper.rules.history import public_names

bp = Blueprint("circles", __name__, url_prefix="/circle")
# The app that serves the circles' pages starts its games in them.
bp.record_once(lambda state: register_circles(cast(Flask, state.app), HOOKS))
bp.add_app_template_global(kept_circle, "kept_circle")


@bp.context_processor
def figures_in_words() -> dict[str, Any]:
    def decimal(value: Fraction | float | None, places: int = 2) -> str:
        if value is None:
            return "–"
        return figure(float(value), "0." + "0" * places if places else "0")

    def percent(value: Fraction | float | None) -> str:
        return "–" if value is None else str(format_percent(float(value), format="0%"))

    return {"decimal": decimal, "percent": percent}


FAMILIES_IN_CIRCLES = ("ascenseur", "bridge", "teams", "echelons", "club")
"""The families whose games name the circle's people (a seat each, a teams match's players,
or a club pair's two players), and so join its history."""


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
        abort(404)
    return person


def family_people(person: Person) -> list[int]:
    """The person's ids: their own, and those of the people merged into them."""
    ids = [p.id for p in person.circle.people if p.now.id == person.id]
    return ids


def public_names_of(circle: Circle) -> dict[str, str]:
    """The name the circle's public pages show for each person, by the history's key."""
    people = circle.current_people
    shown = public_names([(person.name, person.shows_name) for person in people])
    return {str(person.id): name for person, name in zip(people, shown, strict=True)}


# --- A new circle --------------------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
@new_games_limit
def new() -> str | BaseResponse | tuple[str, int]:
    """A new circle: its name and its first people. The same form sent twice is one circle."""
    if request.method == "GET":
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
        table = league_table(leagues[chosen], since, until)
        chart = wins_chart(leagues[chosen], since, until, names)
    drawn_from = str(circle.version)
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
        add_form=forms.get("add_form") or PersonNameForm(data={"drawn_from": drawn_from}),
        merge_form=forms.get("merge_form") or merge_form(circle, drawn_from),
        rename=forms.get("rename"),
        confirm=CircleConfirmForm(data={"drawn_from": drawn_from}),
        drawn_from=drawn_from,
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
    if kind is CircleChangeKind.NAME_SHOWN:
        return _("%(name)s shows their name", name=who)
    return _("%(name)s shows their initials", name=who)


def merge_form(circle: Circle, drawn_from: str) -> MergeForm:
    choices = [(person.id, person.name) for person in circle.current_people]
    # Two different people to start from: the first two.
    first, second = [choice[0] for choice in choices[:2]] + [None] * (2 - len(choices[:2]))
    form = MergeForm(data={"drawn_from": drawn_from, "merged": first, "kept": second})
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
    or in a club pair; those out of the history too."""
    in_pairs = set(
        db.session.scalars(
            select(ClubPair.game_id).where(
                or_(ClubPair.first_person_id.in_(ids), ClubPair.second_person_id.in_(ids))
            )
        )
    )
    return [
        game
        for game in circle_games(circle)
        if game.id in in_pairs or any(player.person_id in ids for player in game.players)
    ]


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
    """Each person's own link, for the phones that keep the circle to give them."""
    base = link_base()
    return {
        person.id: base + url_for("circles.person_page", token=person.token)
        for person in circle.current_people
    }


def start_links(circle: Circle) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each game a family with seats offers, started in the circle."""
    links = []
    for key in FAMILIES_IN_CIRCLES:
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


# --- Changes to the circle -----------------------------------------------------------------------


def change_circle(
    circle_id: str,
    form_class: type[Any],
    change: Callable[[Circle, Any], str | None],
    failed_page: Callable[[Circle, Any], Any] | None = None,
) -> Any:
    """Load the circle, check the form (sent by a phone that keeps it, drawn from the circle
    as it is), let ``change`` change it and return its log's message, or ``None`` with the
    form's errors set; save it, its version counted, and go back to the circle's page."""
    message = ""

    def load() -> Circle:
        circle = get_circle_or_404(circle_id)
        require_keeper(circle)
        return circle

    def changed(circle: Circle) -> Any:
        nonlocal message
        form = form_class()
        if isinstance(form, MergeForm):
            form.kept.choices = form.merged.choices = []
        if not form.validate():
            if form.drawn_from.errors or "csrf_token" in form.errors:
                flash(_("This form has expired: here is the circle as it is now."), "error")
                return circle_page(circle)
            return refused(circle, form)
        if form.drawn_from.data != str(circle.version):
            flash(_("The circle changed since this page was drawn; nothing was changed."), "error")
            return circle_page(circle)
        try:
            said = change(circle, form)
        except NothingToDo as nothing:
            db.session.rollback()
            flash(str(nothing), "error")
            return circle_page(circle)
        if said is None:
            db.session.rollback()
            return refused(circle, form)
        message = said
        return None

    def refused(circle: Circle, form: Any) -> Any:
        if failed_page is not None:
            return failed_page(circle, form)
        flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
        return circle_page(circle)

    return write_entry(
        load,
        changed,
        lambda circle: flash(message),
        page=circle_page,
        busy=lambda: changed_meanwhile(url_for("circles.page", circle_id=circle_id)),
    )


def changed_meanwhile(page: str) -> BaseResponse:
    """Back to ``page``, saying that other phones' changes won every try of this one."""
    flash(_("The circle changed since this page was drawn; nothing was changed."), "error")
    return redirect(page)


def circle_page(circle: Circle) -> BaseResponse:
    return redirect(url_for("circles.page", circle_id=circle.id))


def log(circle: Circle, kind: CircleChangeKind, **values: Any) -> None:
    circle.log.append(CircleChange(kind=kind.value, **values))


def name_taken(circle: Circle, name: str, person: Person | None = None) -> str | None:
    """Why ``name`` cannot be given to ``person`` (a new person if None), if it cannot."""
    taken = circle.person_named(name)
    if taken is None:
        from scorekeeper.rules.history import name_key

        if any(p.name_key == name_key(name) and p is not person for p in circle.people):
            return _("%(name)s was merged into another person of the circle.", name=name)
        return None
    if person is not None and taken.id == person.id:
        return None
    return _("%(name)s is already one of the circle's people: merge them instead.", name=name)


@bp.post("/<circle_id>/people")
def add_person(circle_id: str) -> Any:
    def change(circle: Circle, form: PersonNameForm) -> str | None:
        name = " ".join((form.name.data or "").split())
        if (problem := name_taken(circle, name)) is not None:
            form.name.errors = [problem]
            return None
        circle.people.append(Person(name=name))
        return _("%(name)s joined the circle.", name=name)

    return change_circle(
        circle_id,
        PersonNameForm,
        change,
        lambda circle, form: render_circle(circle, 422, add_form=form),
    )


@bp.post("/<circle_id>/people/<int:person_id>/name")
def rename(circle_id: str, person_id: int) -> Any:
    def change(circle: Circle, form: PersonNameForm) -> str | None:
        person = next((p for p in circle.current_people if p.id == person_id), None)
        if person is None:
            abort(404)
        name = " ".join((form.name.data or "").split())
        if (problem := name_taken(circle, name, person)) is not None:
            form.name.errors = [problem]
            return None
        old = person.name
        if old == name:
            raise NothingToDo(_("%(name)s keeps their name.", name=name))
        person.name = name
        log(circle, CircleChangeKind.RENAMED, person_id=person.id, old=old, new=name)
        return _("%(old)s is now called %(new)s.", old=old, new=name)

    return change_circle(
        circle_id,
        PersonNameForm,
        change,
        lambda circle, form: render_circle(circle, 422, rename=(person_id, form)),
    )


@bp.post("/<circle_id>/merge")
def merge(circle_id: str) -> Any:
    """Two people who are one: the second's games count as the first's, from now on under the
    first's name. Refused for two people who sat at one game (they are two)."""

    def change(circle: Circle, form: MergeForm) -> str | None:
        current = {person.id: person for person in circle.current_people}
        kept, merged = current.get(form.kept.data), current.get(form.merged.data)
        if kept is None or merged is None:
            form.merged.errors = [_("Choose two people of the circle.")]
            return None
        if kept.id == merged.id:
            form.merged.errors = [_("Choose two different people.")]
            return None
        if sat_together(kept, merged):
            form.merged.errors = [
                _(
                    "%(first)s and %(second)s played in the same game: they are two people.",
                    first=kept.name,
                    second=merged.name,
                )
            ]
            return None
        merged.merged_into = kept
        log(circle, CircleChangeKind.MERGED, person_id=merged.id, old=merged.name, new=kept.name)
        if kept.shows_name and not merged.shows_name:  # one of the two chose initials
            kept.shows_name = False
            log(circle, CircleChangeKind.INITIALS, person_id=kept.id)
        return _("%(merged)s and %(kept)s are now one person.", merged=merged.name, kept=kept.name)

    def failed(circle: Circle, form: MergeForm) -> Any:
        choices = [(person.id, person.name) for person in circle.current_people]
        form.kept.choices = form.merged.choices = choices
        return render_circle(circle, 422, merge_form=form)

    return change_circle(circle_id, MergeForm, change, failed)


def sat_together(first: Person, second: Person) -> bool:
    """Whether the two people (with those merged into each) sat at one game."""
    mine, theirs = family_people(first), family_people(second)
    with_first = select(Player.game_id).where(Player.person_id.in_(mine))
    shared = db.session.scalar(
        select(Player.id).where(Player.person_id.in_(theirs), Player.game_id.in_(with_first))
    )
    return shared is not None


@bp.post("/<circle_id>/games/<game_id>/<any(out, back):way>")
def take_out(circle_id: str, game_id: str, way: str) -> Any:
    """A game taken out of the circle's history (it counts in no figure), or put back."""

    def change(circle: Circle, form: CircleConfirmForm) -> str | None:
        game = db.session.get(Game, game_id) if GAME_ID.fullmatch(game_id) else None
        if game is None or game.circle_id != circle.id:
            abort(404)
        out = way == "out"
        if game.out_of_history == out:
            raise NothingToDo(_("Nothing to change."))
        game.out_of_history = out
        kind = CircleChangeKind.TAKEN_OUT if out else CircleChangeKind.PUT_BACK
        log(circle, kind, game_id=game.id)
        when = f"{game.created_at:%Y-%m-%d}"
        if out:
            return _("The game of %(day)s is out of the history.", day=when)
        return _("The game of %(day)s is back in the history.", day=when)

    return change_circle(circle_id, CircleConfirmForm, change)


UNDOABLE = {
    CircleChangeKind.RENAMED,
    CircleChangeKind.MERGED,
    CircleChangeKind.TAKEN_OUT,
    CircleChangeKind.PUT_BACK,
}


@bp.post("/<circle_id>/undo")
def undo(circle_id: str) -> Any:
    """Take back the last change a keeper made (not a person's own choice of name shown): the
    log keeps it, marked undone."""

    def change(circle: Circle, form: CircleConfirmForm) -> str | None:
        last = next(
            (
                entry
                for entry in reversed(circle.log)
                if not entry.undone
                and CircleChangeKind(entry.kind) in UNDOABLE
                and (entry.person_id is not None or entry.game_id is not None)
            ),
            None,
        )
        if last is None:
            raise NothingToDo(_("There is nothing to undo."))
        kind = CircleChangeKind(last.kind)
        if kind is CircleChangeKind.RENAMED:
            person = last.person
            if person is None or last.old is None:
                raise NothingToDo(_("This change can no longer be undone."))
            if (problem := name_taken(circle, last.old, person)) is not None:
                raise NothingToDo(problem)
            person.name = last.old
            message = _("%(new)s is called %(old)s again.", new=last.new, old=last.old)
        elif kind is CircleChangeKind.MERGED:
            person = last.person
            if person is None:
                raise NothingToDo(_("This change can no longer be undone."))
            person.merged_into = None
            message = _("%(old)s and %(new)s are two people again.", old=last.old, new=last.new)
        else:
            game = db.session.get(Game, last.game_id) if last.game_id else None
            if game is None:
                raise NothingToDo(_("This change can no longer be undone."))
            game.out_of_history = kind is CircleChangeKind.PUT_BACK
            day = f"{game.created_at:%Y-%m-%d}"
            message = _("The change to the game of %(day)s was undone.", day=day)
        last.undone = True
        return message

    return change_circle(circle_id, CircleConfirmForm, change)


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
    return render_template(
        "circles/person.html",
        person=person,
        circle=circle,
        token=token,
        games=games,
        figures=person_figures(history, str(person.id)),
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
        person.shows_name = shows
        kind = CircleChangeKind.NAME_SHOWN if shows else CircleChangeKind.INITIALS
        log(person.circle, kind, person_id=person.id)
        return None

    def own_page(person: Person) -> BaseResponse:
        return redirect(url_for("circles.person_page", token=token))

    return write_entry(
        lambda: person_by_token(token).now,
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
    games = games_played(circle, family_people(person))
    document = export_person(person, games, circle_history(circle), public_names_of(circle))
    return json_file(document, f"history-{date.today():%Y-%m-%d}-{person.id}")
