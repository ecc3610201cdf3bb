"""One way to enter, correct and delete an entry, for every family.

A family declares its kind of entry (a round, a deal, a table's result, a game of patience) as
an :class:`EntryKind`: how to find one, its form, how the form is put into it, what makes two
the same, how it reads, how the game is scored again. The core draws the routes and does the
rest the same way for all: a form drawn from the game as it was is caught (one ``drawn_from``
token on every form that changes a game), the same form sent twice changes nothing, another
phone's entry is shown beside this one with one tap to put this one instead, what the engine
refuses is shown on the form with nothing changed, a correction is logged, and the write is
tried again when another phone wrote at that very moment (optimistic locking on the version of
the row the write locks: the game's, or one club table's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic

from flask import abort, flash, request, url_for
from flask_babel import format_time
from flask_babel import gettext as _
from sqlalchemy import inspect
from werkzeug.wrappers import Response

from scorekeeper.games.forms import ChangeForm, ConfirmForm
from scorekeeper.games.links import share_links
from scorekeeper.games.lookup import get_game_or_404, scorers_game
from scorekeeper.games.models import Correction, Game
from scorekeeper.games.registry import family_of
from scorekeeper.games.writes import (
    E,
    G,
    Outcome,
    as_it_stands,
    drawn_from_now,
    game_page,
    write_entry,
)
from scorekeeper.i18n import put_in
from scorekeeper.rules.common import RuleError


def page_context(
    game: Game,
    here: str,
    *,
    scorer: bool,
    conflict: Mapping[str, Any] | None = None,
    drawn_from: object = None,
) -> dict[str, Any]:
    """What a game's page draws from the table core: for its scorer, the links to share and the
    undo button (drawn from the game's version, or ``drawn_from``); another phone's entry
    shown beside this one; the page's own address; and the game whose live version it follows."""
    drawn = game.version if drawn_from is None else drawn_from
    return {
        "links": share_links(game) if scorer else None,
        "undo_form": ConfirmForm(data={"drawn_from": drawn}) if scorer else None,
        "conflict": conflict,
        "conflict_form": ConfirmForm() if conflict else None,
        "here": here,
        "live_game": game,
    }


@dataclass(frozen=True)
class EntryWords:
    """What the pages say of a kind of entry, each a message of the family's own taking the
    entry's key as named arguments (``%(number)d``, ``%(board)d`` ...)."""

    label: Any
    """The entry's name: "Deal %(number)d"."""
    not_now: Any = None
    """An entry sent for another than the one being played."""
    entered: Any = None
    """Said once it is entered (nothing, where the page says it); also given ``%(entry)s``, the
    entry in words."""
    corrected: Any = None
    unchanged: Any = None
    changed_meanwhile: Any = None
    """A correction form drawn before another phone changed the entry; given ``%(now)s``."""
    deleted: Any = None


def not_given(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError


class EntryKind(Generic[G, E]):
    """A family's kind of entry, and the hooks the core calls on it. The defaults fit an entry
    kept in a list of the game's (``listed``), numbered by its place (``number``), locked by the
    game's row, scored again by the family's engine (``score``) and drawn on the family's page
    (``draw``); a family overrides what is its own."""

    game: type[G]
    words: EntryWords
    corrected: str
    """The corrections log's kind for a correction."""
    deleted: str | None = None
    """The log's kind for a deletion; ``None`` where entries are not deleted."""
    endpoint: str
    """The name of its routes in the family's blueprint (then ``_edit`` and ``_delete``)."""
    listed: str = ""
    """The game's list of these entries (``deals``), in the order they were entered."""
    score: Callable[[G], object] = staticmethod(lambda game: None)
    """The family's engine: the game scored from its entries, or a :class:`RuleError`."""
    explain: Callable[[RuleError], str] = staticmethod(str)
    """The engine's refusal, in the reader's language."""
    draw: Callable[..., tuple[str, int]] = staticmethod(not_given)
    """The page the entry form is on: ``draw(game, form, status, conflict)`` (or override
    :meth:`render_page`, which is given the entry's key too)."""

    # --- Which entry --------------------------------------------------------------------------

    def key(self, **route: Any) -> Any:
        """The entry a route names."""
        return route["number"]

    def route(self, key: Any) -> dict[str, Any]:
        """The route arguments of an entry (the reverse of :meth:`key`)."""
        return {"number": key}

    def names(self, key: Any) -> dict[str, Any]:
        """The key as the messages take it."""
        return self.route(key)

    def entries(self, game: G) -> list[E]:
        return getattr(game, self.listed)  # type: ignore[no-any-return]

    def find(self, game: G, key: Any) -> E | None:
        """The entry at this place, from 1."""
        entries = self.entries(game)
        return entries[key - 1] if 0 < key <= len(entries) else None

    def missing(self, game: G, key: Any) -> E | None:
        """An entry its correction page may enter where there is none yet (the director's
        result for a table); ``None``: no such page."""
        return None

    def unchangeable(self, game: G, key: Any, entry: E) -> str | None:
        """Why an entry may not be corrected from here (a session closed, a result East-West
        confirmed), or ``None``."""
        return None

    def load(self, game_id: str, route: Mapping[str, Any]) -> G:
        """The game, for whoever may enter (default: its scorer)."""
        return scorers_game(game_id, self.game)

    def seen(self, game_id: str, route: Mapping[str, Any]) -> G:
        """The game, for whoever may look at it (default: anyone with its address)."""
        return get_game_or_404(game_id, self.game)

    def lock(self, game: G, key: Any) -> Any:
        """The row whose version guards the write: the game's, unless the family keeps entries
        under rows of their own (a club table)."""
        return game

    def drawn_from(self, game: G, key: Any) -> object:
        """What an entry form is drawn from: the locked row's version."""
        return self.lock(game, key).version

    # --- The entry and its form ----------------------------------------------------------------

    def form(self, game: G, key: Any, **kwargs: Any) -> ChangeForm:
        raise NotImplementedError

    def form_data(self, game: G, entry: E) -> dict[str, Any]:
        """The correction form's fields, as the entry stands."""
        raise NotImplementedError

    def valid(self, game: G, key: Any, form: Any) -> bool:
        """The form's own checks: each field as the form takes it."""
        return bool(form.check())

    def check(self, game: G, key: Any, form: Any) -> bool:
        """The form's checks, then what the engine says of the entry itself."""
        return self.valid(game, key, form)

    def new(self, game: G, key: Any) -> E:
        raise NotImplementedError

    def put(self, game: G, entry: E, form: Any) -> None:
        form.put_into(entry)

    def code(self, entry: E) -> str:
        """The entry in a few letters: what makes two entries the same, what the log keeps."""
        return str(entry.code)  # type: ignore[attr-defined]

    def stamp(self, entry: E | None) -> str:
        """What a form that corrects or deletes ``entry`` is drawn from: the stored row and
        what it holds. Two entries alike (two passed-out deals) have stamps of their own, so
        a deletion sent twice deletes one; ``""`` where there is no entry yet."""
        if entry is None:
            return ""
        row = inspect(entry).identity or ()
        return "-".join(map(str, row)) + ":" + self.code(entry)

    def stamped(self, entry: E | None) -> ConfirmForm:
        """The form that deletes ``entry``."""
        return ConfirmForm(data={"drawn_from": self.stamp(entry)})

    def text(self, game: G, entry: E) -> str:
        """The entry in words."""
        raise NotImplementedError

    def shown(self, game: G, key: Any, entry: E) -> list[tuple[str, str]]:
        """The entry as a conflict shows it: (name, value) pairs."""
        return [(self.label(key), self.text(game, entry))]

    def label(self, key: Any) -> str:
        return put_in(self.words.label, self.names(key))

    def say(self, message: Any, key: Any, **more: Any) -> str:
        return put_in(message, {**self.names(key), **more})

    # --- Entering --------------------------------------------------------------------------------

    def closed(self, game: G, key: Any) -> str | None:
        """Why nothing may be entered here at all (a session closed), or ``None``: asked before
        anything else, an entry made already included."""
        return None

    def refuse(self, game: G, key: Any) -> Outcome | None:
        """Why this entry is not the one to enter now (a page, or a message and the game), or
        ``None``."""
        return None

    def not_now(self, game: G, key: Any) -> Response:
        """The game's page, saying this entry is not the one to enter now."""
        flash(self.say(self.words.not_now, key), "error")
        return game_page(game)

    def after(self, game: G, key: Any) -> Any:
        """Where an entry goes that was sent for a place another phone has taken since with
        another entry: ``None`` (the phone is asked which one stands), or the key of the place
        it takes instead (a log takes it as the next game)."""
        return None

    def again(self, game: G, key: Any, mine: E) -> list[tuple[str, str]]:
        """What the last change did or undid, as the page shows it, when an entry sent from a
        form drawn before it repeats that (the last entry sent again from the back button, a
        result the director took away): then the phone is asked. Empty: nothing repeated."""
        return []

    def last_alike(self, game: G, mine: E) -> list[tuple[str, str]]:
        """An ``again`` for a list of entries: the last one, if this one is alike (the back
        button brought back the page it was sent from)."""
        entries = self.entries(game)
        if not entries or self.code(entries[-1]) != self.code(mine):
            return []
        return [(self.label(len(entries)), self.text(game, entries[-1]))]

    def add(self, game: G, entry: E) -> None:
        self.entries(game).append(entry)

    def remove(self, game: G, entry: E) -> None:
        self.entries(game).remove(entry)

    def corrects(self) -> EntryKind[G, Any]:
        """The kind whose correction page puts this one's entry in place of another phone's."""
        return self

    def replacement(self, game: G, key: Any, theirs: E, mine: E) -> dict[str, str]:
        """The correction form's fields that put ``mine`` in place of ``theirs``."""
        return sent_fields()

    # --- Correcting -----------------------------------------------------------------------------

    def logged(
        self, game: G, key: Any, old: str, before: Mapping[str, Any], entry: E
    ) -> list[Correction]:
        """The log's lines for a correction from ``old`` (the entry's code before; ``before``,
        its stored values)."""
        return [self.log_line(key, self.corrected, old, self.code(entry))]

    def log_line(self, key: Any, kind: str, old: str | None, new: str | None = None) -> Correction:
        number, seat = self.logged_at(key)
        return Correction(number=number, seat=seat, kind=kind, old=old, new=new)

    def logged_at(self, key: Any) -> tuple[int, int | None]:
        """Where the log's line is: its number (a round, a deal, a board) and seat (a table)."""
        return int(key), None

    # --- Pages ----------------------------------------------------------------------------------

    def render_page(
        self,
        game: G,
        key: Any,
        form: Any = None,
        status: int = 200,
        conflict: dict[str, Any] | None = None,
    ) -> tuple[str, int]:
        """The page the entry form is on, with this form, or a conflict."""
        return self.draw(game, form, status, conflict)

    def render_correction(
        self, game: G, key: Any, entry: E, form: Any, status: int = 200
    ) -> tuple[str, int]:
        raise NotImplementedError

    def page(self, game: G, key: Any) -> Response:
        """Where the phone goes once the entry is made."""
        return game_page(game)

    def url(self, game: G, key: Any, action: str = "") -> str:
        name = f"{family_of(game).key}.{self.endpoint}" + (f"_{action}" if action else "")
        return url_for(name, game_id=game.id, **self.route(key))


PRIVATE = ("csrf_token", "drawn_from", "sent_as", "kept_for")
"""A form's fields that belong to its drawing and its sending, not to the entry."""


def sent_fields() -> dict[str, str]:
    """The entry's fields as the phone sent them, to send again with one tap."""
    return {name: value for name, value in request.form.items() if name not in PRIVATE}


def rescored(kind: EntryKind[G, E], game: G) -> str | None:
    """The engine's refusal of the game as changed, in words; ``None`` if it scores."""
    try:
        kind.score(game)
    except RuleError as error:
        return kind.explain(error)
    return None


def snapshot(entry: Any) -> dict[str, Any]:
    """An entry's stored values, to put back if the engine refuses a correction."""
    return {attr.key: getattr(entry, attr.key) for attr in inspect(entry).mapper.column_attrs}


def enter(kind: EntryKind[G, E], game_id: str, route: Mapping[str, Any]) -> Outcome:
    """A new entry, as the phone at the table sends it."""
    key = kind.key(**route)

    def change(game: G) -> Outcome | None:
        at = key
        if (reason := kind.closed(game, at)) is not None:
            flash(reason, "error")
            return kind.page(game, at)
        form = kind.form(game, at)
        theirs = kind.find(game, at)
        if theirs is not None:
            if (answer := entered_already(kind, game, at, theirs, form)) is not None:
                return answer
            at = kind.after(game, at)
        if (refused := kind.refuse(game, at)) is not None:
            return refused
        if not kind.check(game, at, form):
            return kind.render_page(game, at, form, 422)
        mine = kind.new(game, at)
        kind.put(game, mine, form)
        stale = not drawn_from_now(form, kind.drawn_from(game, at))
        if stale and (repeated := kind.again(game, at, mine)):
            conflict = asked_again(kind, game, at, repeated, mine)
            return kind.render_page(game, at, status=409, conflict=conflict)
        kind.add(game, mine)
        if (refusal := rescored(kind, game)) is not None:
            kind.remove(game, mine)
            form.form_errors.append(refusal)
            return kind.render_page(game, at, form, 422)
        if kind.words.entered is not None:  # said before the commit, which expires the rows
            said[:] = [kind.say(kind.words.entered, at, entry=kind.text(game, mine))]
        return None

    def entered(game: G) -> None:
        for message in said:
            flash(message)

    said: list[str] = []
    return write_entry(
        lambda: kind.load(game_id, route),
        change,
        entered,
        lock=lambda game: kind.lock(game, key),
        page=lambda game: kind.page(game, key),
        at=kind.logged_at(key),
    )


def entered_already(
    kind: EntryKind[G, E], game: G, key: Any, theirs: E, form: Any
) -> Outcome | None:
    """An entry already made. The same again (a double tap, a retry) changes nothing; another
    phone's is shown beside this one, and one tap puts this one in its place, unless the kind
    takes it ``after`` the other (``None``: enter it there)."""
    mine = None
    if kind.valid(game, key, form):
        mine = kind.new(game, key)
        kind.put(game, mine, form)
        if kind.code(mine) == kind.code(theirs):
            as_it_stands()
            return kind.page(game, key)
    if kind.after(game, key) is not None:
        return None
    if mine is None or not kind.check(game, key, form):
        flash(kind.say(kind.words.not_now, key), "error")
        return kind.page(game, key)
    corrects = kind.corrects()
    if (reason := corrects.unchangeable(game, key, theirs)) is not None:
        flash(reason, "error")
        return kind.page(game, key)
    conflict = {
        "title": _("%(entry)s was entered on another phone", entry=kind.label(key)),
        "theirs": kind.shown(game, key, theirs),
        "mine": kind.shown(game, key, mine),
        "action": corrects.url(game, key, "edit"),
        "hidden": {
            "drawn_from": corrects.stamp(corrects.find(game, key)),
            **kind.replacement(game, key, theirs, mine),
        },
    }
    return kind.render_page(game, key, status=409, conflict=conflict)


def asked_again(
    kind: EntryKind[G, E], game: G, key: Any, repeated: list[tuple[str, str]], mine: E
) -> dict[str, Any]:
    """An entry sent from a page drawn before the last change, which repeats what that change
    did or undid: what it was, and one tap to enter this one all the same."""
    return {
        "title": _("%(entry)s: the game changed since this page was drawn", entry=kind.label(key)),
        "theirs": repeated,
        "mine": kind.shown(game, key, mine),
        "action": kind.url(game, key),
        "hidden": {
            "drawn_from": str(kind.drawn_from(game, key)),
            **sent_fields(),
        },
        "keep": _("Keep it as it is"),
        "put": _("Enter mine all the same"),
    }


def correct(kind: EntryKind[G, E], game_id: str, route: Mapping[str, Any]) -> Outcome:
    """The correction page of an entry, and its correction: the game scored again, the change
    logged."""
    key = kind.key(**route)

    def change(game: G) -> Outcome | None:
        said.clear()  # from an attempt another phone's write made void
        entry = kind.find(game, key)
        new = entry is None
        if entry is None and (entry := kind.missing(game, key)) is None:
            abort(404)
        now = kind.stamp(None if new else entry)
        if request.method in ("GET", "HEAD"):
            data = {**kind.form_data(game, entry), "drawn_from": now}
            return kind.render_correction(game, key, entry, kind.form(game, key, data=data))
        if (reason := kind.unchangeable(game, key, entry)) is not None:
            flash(reason, "error")
            return kind.page(game, key)
        form = kind.form(game, key)
        old = "" if new else kind.code(entry)
        if not drawn_from_now(form, now):
            if not new and kind.check(game, key, form) and as_sent(kind, game, entry, form) == old:
                said[:] = [kind.say(kind.words.corrected, key)]  # the same correction again
                as_it_stands()
                return kind.page(game, key)
            form.drawn_from.data = now  # one more tap puts these values instead
            stands = _("no result") if new else kind.text(game, entry)
            form.form_errors.append(kind.say(kind.words.changed_meanwhile, key, now=stands))
            return kind.render_correction(game, key, entry, form, 409)
        if not kind.check(game, key, form):
            return kind.render_correction(game, key, entry, form, 422)
        saved = snapshot(entry)
        kind.put(game, entry, form)
        if kind.code(entry) == old:
            said[:] = [kind.say(kind.words.unchanged, key)]
            as_it_stands()
            return kind.page(game, key)
        if new:
            kind.add(game, entry)
        if (refusal := rescored(kind, game)) is not None:
            if new:
                kind.remove(game, entry)
            for name, value in saved.items():
                setattr(entry, name, value)
            form.form_errors.append(refusal)
            return kind.render_correction(game, key, entry, form, 422)
        game.corrections.extend(kind.logged(game, key, old, saved, entry))
        said[:] = [kind.say(kind.words.corrected, key)]
        return None

    said: list[str] = []
    answer = write_entry(
        lambda: kind.load(game_id, route),
        change,
        lock=lambda game: kind.lock(game, key),
        page=lambda game: kind.page(game, key),
        at=kind.logged_at(key),
    )
    for message in said if isinstance(answer, Response) and answer.status_code == 302 else ():
        flash(message)
    return answer


def as_sent(kind: EntryKind[G, E], game: G, entry: E, form: Any) -> str:
    """The code ``entry`` would have with the form put into it (it is left as it is)."""
    saved = snapshot(entry)
    kind.put(game, entry, form)
    code = kind.code(entry)
    for name, value in saved.items():
        setattr(entry, name, value)
    return code


def delete(kind: EntryKind[G, E], game_id: str, route: Mapping[str, Any]) -> Outcome:
    """Delete an entry: the game scored again, the deletion logged."""
    key = kind.key(**route)
    assert kind.deleted is not None

    def change(game: G) -> Outcome | None:
        entry = kind.find(game, key)
        form = ConfirmForm()
        if entry is None or not form.validate() or not drawn_from_now(form, kind.stamp(entry)):
            if form.validate() and deleted_last(kind, game, key, str(form.drawn_from.data)):
                flash(kind.say(kind.words.deleted, key))  # the same deletion sent twice
                as_it_stands()
                return kind.page(game, key)
            flash(_("The game changed since this page was drawn; nothing was deleted."), "error")
            return kind.page(game, key)
        kind.remove(game, entry)
        if (refusal := rescored(kind, game)) is not None:
            flash(refusal, "error")
            return kind.page(game, key)
        assert kind.deleted is not None
        game.corrections.append(kind.log_line(key, kind.deleted, kind.code(entry)))
        return None

    return write_entry(
        lambda: kind.load(game_id, route),
        change,
        lambda game: flash(kind.say(kind.words.deleted, key)),
        lock=lambda game: kind.lock(game, key),
        page=lambda game: kind.page(game, key),
        at=kind.logged_at(key),
    )


def deleted_last(kind: EntryKind[G, E], game: G, key: Any, stamp: str) -> bool:
    """Whether the game's last change deleted the entry a deletion form was drawn from."""
    last = game.corrections[-1] if game.corrections else None
    code = stamp.partition(":")[2]
    return (
        last is not None
        and last.kind == kind.deleted
        and (last.number, last.seat) == kind.logged_at(key)
        and last.old == code
    )


def describer(
    lines: Mapping[str, Any],
    logged: Callable[[Game, Correction, str | None], str],
    details: Callable[[Game, Correction], dict[str, Any]] = lambda game, change: {},
) -> Callable[[Game, Correction], str]:
    """A family's ``describe``: a line of the log from its kind's message (``lines``), given the
    change's ``number``, ``time``, ``old`` and ``new`` (as ``logged`` says them in words) and
    the family's own ``details``."""

    def describe(game: Game, change: Correction) -> str:
        message = lines.get(change.kind) or list(lines.values())[-1]
        said = {
            "number": change.number,
            "time": format_time(change.made_at, "short"),
            "old": logged(game, change, change.old),
            "new": logged(game, change, change.new),
            **details(game, change),
        }
        return put_in(message, said)

    return describe
