"""A game played outside a circle, added to its history by a keeper with the game's scorer link."""

from __future__ import annotations

import re
import secrets
from typing import Any
from urllib.parse import urlsplit

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from scorekeeper.circles import bp, outside
from scorekeeper.circles.changes import Answered, DoneAlready, change_circle, circle_page
from scorekeeper.circles.forms import (
    AddGameForm,
    ScorerLinkForm,
)
from scorekeeper.circles.models import Circle
from scorekeeper.circles.people import (
    require_keeper,
)
from scorekeeper.circles.views import NothingToDo, get_circle_or_404, render_circle
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.games.rights import remember

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
