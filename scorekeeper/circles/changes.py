"""Changes to a circle by the phones that keep it: people added and renamed, merges, games taken
out of its history and put back, undo."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import (
    abort,
    flash,
    redirect,
    url_for,
)
from flask_babel import gettext as _
from sqlalchemy import select, update
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.circles import bp, outside
from scorekeeper.circles.forms import (
    CircleConfirmForm,
    FederationNumberForm,
    MergeForm,
    PersonNameForm,
)
from scorekeeper.circles.models import Circle, CircleChange, CircleChangeKind, Person
from scorekeeper.circles.people import (
    hidden_names,
    require_keeper,
)
from scorekeeper.circles.views import (
    UNDOABLE,
    NothingToDo,
    change_text,
    changed_since,
    circle_games,
    family_people,
    get_circle_or_404,
    last_undoable,
    names_any,
    render_circle,
)
from scorekeeper.extensions import db
from scorekeeper.games.entries import sent_fields
from scorekeeper.games.forms import ChangeForm
from scorekeeper.games.lookup import GAME_ID
from scorekeeper.games.models import Game, Player
from scorekeeper.games.writes import as_it_stands, write_entry
from scorekeeper.rules.common import RuleError
from scorekeeper.rules.federations import Federation, federation_number
from scorekeeper.rules.history import name_key

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
            as_it_stands()
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


@bp.post("/<circle_id>/people/<int:person_id>/federation")
def give_number(circle_id: str, person_id: int) -> Any:
    """A person's federation number, given, changed or taken away. It depends on the number
    the page showed (the form's ``drawn_from``): changed since on another phone, both are
    shown, and one tap puts this one in."""

    def change(circle: Circle, form: FederationNumberForm) -> str | None:
        row = next((p for p in circle.people if p.id == person_id), None)
        if row is None:
            abort(404)
        person = row.now
        old = person.federation_line
        new = " ".join(form.written) if form.written else None
        drawn = form.drawn_from.data or None
        if old == new:
            if drawn != new:
                raise DoneAlready(numbered_text(person.name, new))
            raise NothingToDo(_("%(name)s's number is as it was.", name=person.name))
        if person is not row or drawn != old:
            title = _("%(name)s's number was changed on another phone", name=person.name)
            raise Conflict(
                {
                    "title": title,
                    "theirs": [(_("Federation number"), old or _("No number"))],
                    "mine": [(_("Federation number"), new or _("No number"))],
                    "action": url_for(
                        "circles.give_number", circle_id=circle.id, person_id=person.id
                    ),
                    "hidden": {**sent_fields(), "drawn_from": old or ""},
                }
            )
        person.number_with(new)
        log(circle, CircleChangeKind.NUMBERED, person_id=person.id, old=old, new=new)
        return numbered_text(person.name, new)

    return change_circle(
        circle_id,
        FederationNumberForm,
        change,
        lambda circle, form: render_circle(circle, 422, numbering=(person_id, form)),
    )


def well_formed(line: str) -> bool:
    """Whether a :attr:`Person.federation_line` is a number of its federation's form, written
    as the federation writes it."""
    federation, _space, number = line.partition(" ")
    try:
        return federation_number(Federation(federation), number) == number
    except (ValueError, RuleError):
        return False


def numbered_text(name: str, line: str | None) -> str:
    if line is None:
        return _("%(name)s has no federation number.", name=name)
    return _("%(name)s's federation number is %(number)s.", name=name, number=line)


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
        if kept.left_as or merged.left_as:  # their choice, by their own link alone
            left = kept if kept.left_as else merged
            form.merged.errors = [
                _("%(name)s left the circle: they cannot be merged.", name=left.name)
            ]
            return None
        both = [row for row in circle.people if row.now in (kept, merged)]
        holding = db.session.scalar(
            select(Person.id).where(Person.home_id.in_([row.id for row in both])).limit(1)
        )
        if holding is not None or any(row.home_id is not None for row in both):
            form.merged.errors = [
                _(
                    "%(first)s and %(second)s: one of them has their own page across circles; "
                    "they cannot be merged.",
                    first=kept.name,
                    second=merged.name,
                )
            ]
            return None
        merged.merged_into = kept
        log(circle, CircleChangeKind.MERGED, person_id=merged.id, old=merged.name, new=kept.name)
        if kept.federation_line is None and merged.federation_line is not None:
            kept.number_with(merged.federation_line)  # one person's number, kept with them
            log(circle, CircleChangeKind.NUMBERED, person_id=kept.id, new=kept.federation_line)
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
    if kind is CircleChangeKind.NUMBERED:
        person = last.person
        if person is None:
            raise NothingToDo(_("This change can no longer be undone."))
        if last.old is not None and not well_formed(last.old):  # a log read from a file
            raise NothingToDo(_("This change can no longer be undone."))
        person.number_with(last.old)
        return numbered_text(person.name, last.old)
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
