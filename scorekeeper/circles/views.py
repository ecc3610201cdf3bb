"""A circle's pages: its league and people for whoever has its address; its links, its people's
names, merges and the games of its history for the phones that keep it; each person's own page
by their own link."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Collection
from datetime import date
from fractions import Fraction
from typing import Any, cast
from urllib.parse import urlsplit

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
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.attributes import set_committed_value
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.circles import outside
from scorekeeper.circles.forms import (
    AddGameForm,
    CircleConfirmForm,
    CircleForm,
    MergeForm,
    PeriodForm,
    PersonNameForm,
    ScorerLinkForm,
    ShowNameForm,
)
from scorekeeper.circles.history import CircleHistory, circle_history
from scorekeeper.circles.models import Circle, CircleChange, CircleChangeKind, Person
from scorekeeper.circles.people import (
    HOOKS,
    hidden_names,
    keeps,
    kept_circle,
    remember_keeper,
    require_keeper,
    shown_to_viewers,
    unkept_circle,
)
from scorekeeper.circles.stats import (
    LeagueTable,
    league_choices,
    league_table,
    person_figures,
    wins_chart,
)
from scorekeeper.circles.transfer import export_circle, export_person, import_circle
from scorekeeper.extensions import db
from scorekeeper.games.entries import sent_fields
from scorekeeper.games.forms import ChangeForm, ImportForm
from scorekeeper.games.helpers import figure
from scorekeeper.games.links import link_base, qr_svg
from scorekeeper.games.lookup import GAME_ID
from scorekeeper.games.models import Game, Player
from scorekeeper.games.registry import FAMILIES, register_circles
from scorekeeper.games.rights import form_key, remember
from scorekeeper.games.transfer import TransferError
from scorekeeper.games.views import new_nonce
from scorekeeper.games.writes import Outcome, write_entry
from scorekeeper.limits import new_games_limit
from scorekeeper.rules.history import name_key, public_names

bp = Blueprint("circles", __name__, url_prefix="/circle")
# The app that serves the circles' pages starts its games in them.
bp.record_once(lambda state: register_circles(cast(Flask, state.app), HOOKS))
bp.add_app_template_global(kept_circle, "kept_circle")
bp.add_app_template_global(unkept_circle, "unkept_circle")


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
        table = league_table(leagues[chosen].games, since, until)
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
    """Each person's own link, for the phones that keep the circle to give them."""
    base = link_base()
    return {
        person.id: base + url_for("circles.person_page", token=person.token)
        for person in circle.current_people
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


# --- Changes to the circle -----------------------------------------------------------------------
#
# Several phones keep a circle at once. A change is checked against what it depends on, not
# against every change made to the circle since its page was drawn: a rename against the name it
# renames (its form's ``drawn_from``), a merge against the two people still being people of
# their own, undo against the change it takes back; two keepers' changes that touch different
# things both apply. A change that finds its thing changed since is shown beside the other
# phone's, with what was typed and one tap to put it in all the same (games/_conflict.html, as a
# game's entries do); one that finds the same change made already says it is done.


class DoneAlready(Exception):
    """The change asked for is made already (by another phone, or by the same form sent twice):
    its message is said as done, nothing more is saved."""


class Answered(Exception):
    """The change answers with a page of its own (``page``): nothing is saved."""

    def __init__(self, page: Any) -> None:
        super().__init__("answered")
        self.page = page


class Conflict(Exception):
    """What this change depends on was changed since its page was drawn: ``conflict`` shows the
    other phone's change beside this one, with one tap to put this one in instead."""

    def __init__(self, conflict: dict[str, Any]) -> None:
        super().__init__(conflict["title"])
        self.conflict = conflict


def hold(circle: Circle) -> Circle:
    """The circle, read once this transaction holds its row: a keeper's change waits for the
    one another keeper is saving, then reads the circle as that one left it, rather than
    failing against it (a write that fails every try loses what was typed). The row is written
    first (as it is) to hold it, on SQLite and PostgreSQL alike."""
    db.session.execute(
        update(Circle)
        .where(Circle.id == circle.id)
        .values(version=Circle.version)
        .execution_options(synchronize_session=False)
    )
    db.session.expire_all()  # what was read before the wait, read again
    return circle


def held_circle(circle_id: str) -> Circle:
    """The circle of this id, for a phone that keeps it, held (see :func:`hold`)."""
    circle = get_circle_or_404(circle_id)
    require_keeper(circle)
    return hold(circle)


def change_circle(
    circle_id: str,
    form_class: type[Any],
    change: Callable[[Circle, Any], str | None],
    failed_page: Callable[[Circle, Any], Any] | None = None,
) -> Any:
    """Load the circle (held: see :func:`hold`), check the form (sent by a phone that keeps
    it), let ``change`` check what it depends on, change it and return its log's message, or
    ``None`` with the form's errors set (drawn again by ``failed_page``, with what was typed),
    or raise :class:`NothingToDo`, :class:`DoneAlready` or :class:`Conflict`; save, and go back
    to the circle's page."""
    message = ""

    def changed(circle: Circle) -> Any:
        nonlocal message
        before = hidden_names(circle)
        form = form_class()
        if isinstance(form, MergeForm):
            form.kept.choices = form.merged.choices = []
        if not form.validate():
            db.session.rollback()
            if "csrf_token" in form.errors:
                flash(_("This form has expired: here is the circle as it is now."), "error")
                return circle_page(circle)
            return refused(circle, form)
        try:
            said = change(circle, form)
        except NothingToDo as nothing:
            db.session.rollback()
            flash(str(nothing), "error")
            return circle_page(circle)
        except DoneAlready as done:
            db.session.rollback()
            flash(str(done))
            return circle_page(circle)
        except Conflict as conflict:
            db.session.rollback()
            return render_circle(circle, 409, conflict=conflict.conflict)
        except Answered as answer:
            db.session.rollback()
            return answer.page
        if said is None:
            db.session.rollback()
            return refused(circle, form)
        shown_anew(circle, before)
        message = said
        return None

    def refused(circle: Circle, form: Any) -> Any:
        if failed_page is not None:
            return failed_page(circle, form)
        flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
        return circle_page(circle)

    return write_entry(
        lambda: held_circle(circle_id),
        changed,
        lambda circle: flash(message),
        page=circle_page,
        busy=lambda: changed_meanwhile(url_for("circles.page", circle_id=circle_id)),
    )


def shown_anew(circle: Circle, before: dict[int, str]) -> None:
    """Count a change in each game of the circle whose names those who do not score it now
    see otherwise than ``before`` (see people.hidden_names: a person shown by their initials,
    by their name again, or by other initials): its pages are drawn anew, and the phones that
    follow them reload. Its row is written as it is but for its version (its place in the home
    page's list stays); a game this change writes anyway counts it itself."""
    after = hidden_names(circle)
    changed = {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}
    if not changed:
        return
    written = {row.id for row in db.session.dirty if isinstance(row, Game)}
    shown = [
        game.id
        for game in circle_games(circle)
        if game.id not in written and names_any(game, changed)
    ]
    if not shown:
        return
    db.session.execute(
        update(Game)
        .where(Game.id.in_(shown))
        .values(version=Game.version + 1, updated_at=Game.updated_at)
        .execution_options(synchronize_session=False)
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
        if any(p.name_key == name_key(name) and p is not person for p in circle.people):
            return _("%(name)s was merged into another person of the circle.", name=name)
        return None
    if person is not None and taken.id == person.id:
        return None
    return _("%(name)s is already one of the circle's people: merge them instead.", name=name)


def newest(circle: Circle) -> str:
    """What the form adding a person is drawn from: the newest of the circle's people, by id
    (a person who joins later has a higher one)."""
    return str(max((person.id for person in circle.people), default=0))


def joined_since(person: Person, form: ChangeForm) -> bool:
    """Whether ``person`` joined the circle after the page of ``form`` was drawn."""
    drawn = form.drawn_from.data or ""
    return drawn.isdigit() and person.id > int(drawn)


def typed_name(form: PersonNameForm) -> str:
    return " ".join((form.name.data or "").split())


@bp.post("/<circle_id>/people")
def add_person(circle_id: str) -> Any:
    """A new person. It depends on nobody of the circle having that name: one who joined since
    the page was drawn, by that name, is this change made already."""

    def change(circle: Circle, form: PersonNameForm) -> str | None:
        name = typed_name(form)
        taken = circle.person_named(name)
        if taken is not None and joined_since(taken, form):
            raise DoneAlready(_("%(name)s joined the circle.", name=taken.name))
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
    """A person's new name. It depends on the name it renames (the form's ``drawn_from``):
    renamed or merged since on another phone, both are shown, and one tap puts this one in."""

    def change(circle: Circle, form: PersonNameForm) -> str | None:
        row = next((p for p in circle.people if p.id == person_id), None)
        if row is None:
            abort(404)
        name = typed_name(form)
        person = row.now
        drawn = form.drawn_from.data or person.name
        if person.name == name and (person is not row or drawn != name):
            raise DoneAlready(_("%(old)s is now called %(new)s.", old=drawn, new=name))
        if person is not row:
            raise Conflict(
                renamed_conflict(
                    circle,
                    person,
                    name,
                    _(
                        "%(name)s was merged into %(other)s on another phone",
                        name=row.name,
                        other=person.name,
                    ),
                )
            )
        if drawn != person.name:
            title = _("%(name)s was renamed on another phone", name=drawn)
            raise Conflict(renamed_conflict(circle, person, name, title))
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


def renamed_conflict(circle: Circle, person: Person, name: str, title: str) -> dict[str, Any]:
    """A rename drawn from a name another phone changed since: theirs and this one, and the
    tap that gives ``person`` this one's ``name`` all the same."""
    return {
        "title": title,
        "theirs": [(_("Name"), person.name)],
        "mine": [(_("Name"), name)],
        "action": url_for("circles.rename", circle_id=circle.id, person_id=person.id),
        "hidden": {**sent_fields(), "drawn_from": person.name},
    }


@bp.post("/<circle_id>/merge")
def merge(circle_id: str) -> Any:
    """Two people who are one: the second's games count as the first's, from now on under the
    first's name. Refused for two people who sat at one game (they are two). It depends on
    both being people of their own: one merged into a third since is shown, with one tap to
    make the three one."""

    def change(circle: Circle, form: MergeForm) -> str | None:
        rows = {person.id: person for person in circle.people}
        kept_row, merged_row = rows.get(form.kept.data), rows.get(form.merged.data)
        if kept_row is None or merged_row is None:
            form.merged.errors = [_("Choose two people of the circle.")]
            return None
        if kept_row.id == merged_row.id:
            form.merged.errors = [_("Choose two different people.")]
            return None
        kept, merged = kept_row.now, merged_row.now
        if kept.id == merged.id:
            raise DoneAlready(
                _(
                    "%(merged)s and %(kept)s are now one person.",
                    merged=merged_row.name,
                    kept=kept_row.name,
                )
            )
        if kept is not kept_row or merged is not merged_row:
            raise Conflict(merged_conflict(circle, (merged_row, merged), (kept_row, kept)))
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


def merged_conflict(
    circle: Circle, merged: tuple[Person, Person], kept: tuple[Person, Person]
) -> dict[str, Any]:
    """A merge of two people, one of whom (each given as it was drawn, and as it is now) was
    merged into a third since: what that phone did, what this one asks, and the tap that makes
    the people they now are one."""
    (merged_row, merged_now), (kept_row, kept_now) = merged, kept
    moved = merged_row if merged_now is not merged_row else kept_row
    return {
        "title": _(
            "%(name)s was merged into %(other)s on another phone",
            name=moved.name,
            other=moved.now.name,
        ),
        "theirs": [(moved.name, _("is %(name)s", name=moved.now.name))],
        "mine": [(merged_row.name, _("is %(name)s", name=kept_row.name))],
        "action": url_for("circles.merge", circle_id=circle.id),
        "hidden": {"merged": str(merged_now.id), "kept": str(kept_now.id)},
        "keep": _("Keep it as it is"),
        "put": _("Merge %(merged)s into %(kept)s", merged=merged_now.name, kept=kept_now.name),
    }


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
    """A game taken out of the circle's history (it counts in no figure), or put back. It
    depends on the game alone: out already (or back), it is said done."""

    def change(circle: Circle, form: CircleConfirmForm) -> str | None:
        game = db.session.get(Game, game_id) if GAME_ID.fullmatch(game_id) else None
        if game is None or game.circle_id != circle.id:
            abort(404)
        out = way == "out"
        when = f"{game.created_at:%Y-%m-%d}"
        said = (
            _("The game of %(day)s is out of the history.", day=when)
            if out
            else _("The game of %(day)s is back in the history.", day=when)
        )
        if game.out_of_history == out:
            raise DoneAlready(said)
        game.out_of_history = out
        kind = CircleChangeKind.TAKEN_OUT if out else CircleChangeKind.PUT_BACK
        log(circle, kind, game_id=game.id)
        return said

    return change_circle(circle_id, CircleConfirmForm, change)


UNDOABLE = {
    CircleChangeKind.RENAMED,
    CircleChangeKind.MERGED,
    CircleChangeKind.TAKEN_OUT,
    CircleChangeKind.PUT_BACK,
    CircleChangeKind.ADDED,
}


def undoable(change: CircleChange) -> bool:
    return (
        not change.undone
        and CircleChangeKind(change.kind) in UNDOABLE
        and (change.person_id is not None or change.game_id is not None)
    )


def last_undoable(circle: Circle) -> CircleChange | None:
    """The change the undo button takes back: the last a keeper made (not a person's own
    choice of the name shown)."""
    return next((change for change in reversed(circle.log) if undoable(change)), None)


def changed_since(circle: Circle, change: CircleChange) -> bool:
    """Whether a later change, not undone, changed what ``change`` changed (the same person,
    the same game): taking ``change`` back would take that one back too."""
    later = (entry for entry in circle.log if entry.id > change.id and undoable(entry))
    return any(
        (change.person_id is not None and entry.person_id == change.person_id)
        or (change.game_id is not None and entry.game_id == change.game_id)
        for entry in later
    )


@bp.post("/<circle_id>/undo")
def undo(circle_id: str) -> Any:
    """Take back the change the page showed as the last (its form's ``drawn_from``), even if
    another phone made one since that changed something else; the log keeps it, marked undone.
    Taken back already, it is said done; changed again since, it is left as it is, and said."""

    def change(circle: Circle, form: CircleConfirmForm) -> str | None:
        drawn = form.drawn_from.data or ""
        last = last_undoable(circle)
        if drawn.isdigit():
            last = next((entry for entry in circle.log if entry.id == int(drawn)), last)
        if last is None or CircleChangeKind(last.kind) not in UNDOABLE:
            raise NothingToDo(_("There is nothing to undo."))
        if last.undone:
            raise DoneAlready(_("“%(change)s” is undone.", change=change_text(last)))
        if changed_since(circle, last):
            raise NothingToDo(
                _(
                    "“%(change)s” was changed again since, on another phone: undo that first.",
                    change=change_text(last),
                )
            )
        message = undone(circle, last)
        last.undone = True
        return message

    return change_circle(circle_id, CircleConfirmForm, change)


def undone(circle: Circle, last: CircleChange) -> str:
    """Take back ``last``; what the page then says."""
    kind = CircleChangeKind(last.kind)
    if kind is CircleChangeKind.RENAMED:
        person = last.person
        if person is None or last.old is None:
            raise NothingToDo(_("This change can no longer be undone."))
        if (problem := name_taken(circle, last.old, person)) is not None:
            raise NothingToDo(problem)
        person.name = last.old
        return _("%(new)s is called %(old)s again.", new=last.new, old=last.old)
    if kind is CircleChangeKind.MERGED:
        person = last.person
        if person is None:
            raise NothingToDo(_("This change can no longer be undone."))
        person.merged_into = None
        return _("%(old)s and %(new)s are two people again.", old=last.old, new=last.new)
    if kind is CircleChangeKind.ADDED:
        game = outside.taken_back(circle, last)
        if game is None:
            raise NothingToDo(_("This change can no longer be undone."))
        day = f"{game.created_at:%Y-%m-%d}"
        return _("The game of %(day)s is no longer in the circle.", day=day)
    game = db.session.get(Game, last.game_id) if last.game_id else None
    if game is None:
        raise NothingToDo(_("This change can no longer be undone."))
    game.out_of_history = kind is CircleChangeKind.PUT_BACK
    day = f"{game.created_at:%Y-%m-%d}"
    return _("The change to the game of %(day)s was undone.", day=day)


# --- A game played outside the circle, added to it ---------------------------------------------

SCORER_LINK = re.compile(r"/([a-z]+)/([A-Za-z0-9_-]{1,16})/score/([A-Za-z0-9_-]+)/?$")
"""A game's scorer link (``/<family>/<game id>/score/<token>``), whatever server it names."""


def in_another_circle() -> str:
    return _("This game is in another circle's history: a game is in one circle at most.")


@bp.post("/<circle_id>/add")
def claim(circle_id: str) -> Any:
    """A game's scorer link, pasted by a keeper: the game is found, and this phone is given
    its scorer's rights as if the link were opened (they are what adds a game to a circle);
    then the game's names are seated."""
    circle = get_circle_or_404(circle_id)
    require_keeper(circle)
    form = ScorerLinkForm()
    if not form.validate():
        return render_circle(circle, 422, link_form=form)
    found = SCORER_LINK.search(urlsplit(form.link.data or "").path)
    game = db.session.get(Game, found.group(2)) if found else None
    if found is None or game is None or game.family != found.group(1):
        form.link.errors = [
            _(
                "This is not a game's scorer link: on the game's page, under “Other phones at "
                "the table”, copy the link “To keep the score too”."
            )
        ]
        return render_circle(circle, 422, link_form=form)
    if not secrets.compare_digest(found.group(3).encode(), game.scorer_token.encode()):
        form.link.errors = [_("This scorer link is not the game's (it was mistyped).")]
        return render_circle(circle, 422, link_form=form)
    if game.circle_id is not None and game.circle_id != circle.id:
        form.link.errors = [in_another_circle()]
        return render_circle(circle, 422, link_form=form)
    remember(game.id, scorer=True)
    return redirect(url_for("circles.add_game", circle_id=circle.id, game_id=game.id))


@bp.route("/<circle_id>/add/<game_id>", methods=["GET", "POST"])
def add_game(circle_id: str, game_id: str) -> Any:
    """A game played outside the circle, added to it by a keeper who scores the game: the
    person each of its names is, chosen, then the game in the circle's history, logged."""
    if request.method in ("GET", "HEAD"):
        circle = get_circle_or_404(circle_id)
        require_keeper(circle)
        try:
            game = claimable(circle, game_id)
        except (DoneAlready, NothingToDo) as said:
            flash(str(said), "error" if isinstance(said, NothingToDo) else "message")
            return circle_page(circle)
        seats = outside.named_seats(game)
        data = {"seats": outside.default_choices(circle, seats)}
        form = AddGameForm(data={**data, "drawn_from": outside.seats_drawn(seats)})
        return render_add_game(circle, game, form)

    def change(circle: Circle, form: AddGameForm) -> str | None:
        game = claimable(circle, game_id)
        seats = outside.named_seats(game)
        if form.drawn_from.data != outside.seats_drawn(seats) or len(form.seats) != len(seats):
            data = {"seats": outside.default_choices(circle, seats)}
            fresh = AddGameForm(
                formdata=None, data={**data, "drawn_from": outside.seats_drawn(seats)}
            )
            fresh.form_errors.append(
                _("The game's names changed since this page was drawn: here they are now.")
            )
            raise Answered(render_add_game(circle, game, fresh, 409))
        people, problems = outside.chosen_people(
            circle, seats, [entry.data or "" for entry in form.seats]
        )
        if problems:
            form.form_errors.extend(problems)
            return None
        joined = outside.add_to_circle(circle, game, seats, people)
        day = f"{game.created_at:%Y-%m-%d}"
        said = [_("The game of %(day)s is in the circle's history.", day=day)]
        if joined:
            said.append(_("Joining the circle with it: %(names)s.", names=", ".join(joined)))
        return " ".join(said)

    def failed(circle: Circle, form: AddGameForm) -> Any:
        return render_add_game(circle, claimable(circle, game_id), form, 422)

    return change_circle(circle_id, AddGameForm, change, failed)


def claimable(circle: Circle, game_id: str) -> Game:
    """The game a keeper adds to the circle: one this phone scores, in no circle yet. Added to
    this circle already (on another phone too), it is said done; the game's scorer link is the
    right this phone lacks otherwise (403)."""
    game = outside.claimed_game(game_id)
    if game is None:
        abort(403)
    if game.circle_id == circle.id:
        raise DoneAlready(
            _(
                "The game of %(day)s is in the circle's history.",
                day=f"{game.created_at:%Y-%m-%d}",
            )
        )
    if game.circle_id is not None:
        raise NothingToDo(in_another_circle())
    return game


def render_add_game(circle: Circle, game: Game, form: AddGameForm, status: int = 200) -> Any:
    seats = outside.named_seats(game)
    for entry, seat in zip(form.seats, seats, strict=False):
        entry.choices = outside.seat_choices(circle, seat)
    page = render_template(
        "circles/add_game.html",
        circle=circle,
        form=form,
        rows=list(zip(form.seats, seats, strict=False)),
        **outside.described(game),
    )
    return page if status == 200 else (page, status)


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
