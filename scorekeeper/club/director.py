"""The director's pages: a session set up, the director's page (what is in, what is missing,
the ranking), the session closed or opened again, what the players see, the pairs' names."""

from __future__ import annotations

from flask import abort, flash, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select
from werkzeug.wrappers import Response

from scorekeeper.club import bp
from scorekeeper.club.checked import published_sheet
from scorekeeper.club.evening import (
    added_table_form,
    arrow_switch_form,
    late_pair_form,
    leaving_pair_form,
)
from scorekeeper.club.family import (
    FAMILY,
    improbable_text,
)
from scorekeeper.club.forms import (
    LeadForm,
    NamesForm,
    SetupForm,
    ShownForm,
)
from scorekeeper.club.hands import (
    hand_records,
    put_deals,
)
from scorekeeper.club.models import ClubField, ClubSession
from scorekeeper.club.organisers import directs
from scorekeeper.club.pages import club_session, refused, scored, table_links, table_path
from scorekeeper.club.rows import ClubPair, ClubResult, ClubTable
from scorekeeper.extensions import db
from scorekeeper.games.entries import page_context
from scorekeeper.games.forms import ConfirmForm
from scorekeeper.games.links import qr_svg, share_base
from scorekeeper.games.lookup import game_started_by, scorers_game
from scorekeeper.games.models import SentForm, new_scorer_token
from scorekeeper.games.registry import circles
from scorekeeper.games.rights import form_key, is_scorer
from scorekeeper.games.views import new_game_form
from scorekeeper.games.writes import (
    Outcome,
    count_changed_in,
    drawn_from_now,
    game_page,
    write_entry,
)
from scorekeeper.limits import new_games_limit
from scorekeeper.rules.field import section_name
from scorekeeper.rules.history import pair_partners
from scorekeeper.rules.movements import (
    still_missing,
)
from scorekeeper.serving import kept_page


@bp.route("/new", methods=["GET", "POST"])
@new_games_limit
def setup() -> str | Response | tuple[str, int]:
    """A new session: movement, tables, boards a round, scoring."""
    return new_game_form(SetupForm, "club/setup.html", new_session)


def new_session(form: SetupForm) -> ClubSession:
    """A session, the first section of a field of several, or a section added to a field."""
    joined = form.joined() if form.field.data else None
    if joined is not None:
        return added_section(form, joined)
    count = int(form.sections.data or 1)
    if count == 1:
        return one_session(form, "")
    field = ClubField(organiser_token=new_scorer_token())
    sections = [one_session(form, section_name(index)) for index in range(count)]
    field.sections = sections
    return sections[0]


def added_section(form: SetupForm, field: ClubField) -> ClubSession:
    """A section more for a field: the next letter (the field's row locked until the section
    is stored, so that two directors adding one at once get two letters), scored as the
    field's other sections are. The form sent again (a double tap) is the same section."""
    db.session.execute(select(ClubField.id).where(ClubField.id == field.id).with_for_update())
    db.session.expire(field, ["sections"])
    again = game_started_by(form_key(form.nonce.data))
    sent_before = isinstance(again, ClubSession) and again.field_id == field.id
    name = again.section if sent_before and isinstance(again, ClubSession) else field.next_name()
    if field.simultaneous:  # a club's section of the event: its deals, its scoring
        section = one_session(form, name, scoring=field.event_scoring.value)
        section.setting("event", field.name)
        if field.played_on is not None:
            section.setting("date", field.played_on.isoformat())
        movement = section.movement
        assert movement is not None
        deals = field.event_deals  # those of the boards its movement plays
        put_deals(section, {b: deals[b] for b in range(1, movement.boards + 1) if b in deals})
    else:
        section = one_session(form, name, scoring=field.sections[0].scoring.value)
        if form.board_set.data == "own":
            section.setting("board_set", section.section)
    section.field_id = field.id  # not through the relationship: not flushed before its nonce
    # The other sections' figures change with the new one's N: their pages are drawn again.
    count_changed_in([other.id for other in field.sections], section.family)
    return section


def one_session(form: SetupForm, section: str, scoring: str | None = None) -> ClubSession:
    tables = int(form.tables.data)
    settings = {
        "movement": form.movement.data,
        "tables": tables,
        "boards_per_round": int(form.boards_per_round.data),
        "pairs": form.pair_count(),
        "scoring": scoring or form.scoring.data,
        "event": form.event.data or "",
        **({"club": form.club.data} if form.club.data else {}),
        "shown": form.shown.data,
        **({"section": section} if section else {}),
        **({"asks_lead": True} if form.lead.data == "asked" else {}),
    }
    game = ClubSession(settings=settings)
    movement = game.movement
    assert movement is not None
    game.tables = [ClubTable(number=number) for number in range(1, tables + 1)]
    game.pairs = [
        ClubPair(number=number, direction=direction or "")
        for number, direction in movement.pairs_listed()
    ]
    return game


def render_session(game: ClubSession) -> str:
    scorer = is_scorer(game.id, game.family)
    movement = game.movement
    score, problem = scored(game, scorer) if scorer or game.shows_ranking() else (None, None)
    grid = movement.progress(game.entered) if movement is not None else ()
    expected = sum(cell.expected for row in grid for cell in row)
    return render_template(
        "club/session.html",
        game=game,
        movement=movement,
        score=score,
        sheet=published_sheet(game, score),
        problem=problem,
        grid=grid,
        expected=expected,
        missing=still_missing(grid, max((r.round for r in game.results), default=0)),
        scorer=scorer,
        directs_field=scorer and game.field is not None and directs(game.field),
        table_links=table_links(game) if scorer and movement is not None else [],
        close_form=ConfirmForm(data={"drawn_from": game.version}) if scorer else None,
        shown_form=ShownForm(
            data={
                "drawn_from": game.version,
                "shown": game.shown.value,
                "names": "shown" if game.names_shown else "hidden",
            }
        )
        if scorer and movement is not None
        else None,
        lead_form=LeadForm(
            data={"drawn_from": game.version, "lead": "asked" if game.asks_lead else "no"}
        )
        if scorer and movement is not None
        else None,
        everything=scorer or game.shows_everything(),
        late_form=late_pair_form(game) if scorer else None,
        switch_form=arrow_switch_form(game) if scorer else None,
        added_form=added_table_form(game) if scorer else None,
        leaving_form=leaving_pair_form(game) if scorer else None,
        improbable=to_check(game) if scorer else [],
        arrived_late=arrived_late(game) if scorer else [],
        **page_context(
            game, url_for(".session", game_id=game.id), scorer=scorer, drawn_from=game.live_version
        ),
    )


def to_check(game: ClubSession) -> list[tuple[ClubResult, str]]:
    """The results far from what the cards make double dummy, each said."""
    records = hand_records(game)
    found = []
    for result in game.results:
        said = improbable_text(records, result.table_result())
        if said is not None:
            found.append((result, said))
    return found


LATE_AFTER = 10
"""Seconds a table's phone kept a result (the network down) beyond which the director is told."""


def arrived_late(game: ClubSession) -> list[tuple[SentForm, ClubResult | None]]:
    """The tables' entries that a phone kept a while before they arrived, first arrived first,
    each with the result at its place now (``None``: there is none)."""
    sent = db.session.scalars(
        select(SentForm)
        .where(
            SentForm.game_id == game.id,
            SentForm.seat.is_not(None),
            SentForm.kept_for >= LATE_AFTER,
        )
        .order_by(SentForm.arrived_at)
    )
    results: dict[tuple[int | None, int | None], ClubResult] = {
        (result.board, result.table): result for result in game.results
    }
    return [(entry, results.get((entry.number, entry.seat))) for entry in sent]


@bp.get("/<game_id>")
def session(game_id: str) -> Response | str:
    """The director's page (the ranking alone for those looking on)."""

    def draw() -> str:
        return render_session(club_session(game_id))

    return kept_page(FAMILY, game_id, draw)


@bp.get("/<game_id>/table/<int:table>/qr.svg")
def table_qr(game_id: str, table: int) -> Response:
    """The QR code of a table's link, for its phone's camera (the director's page only)."""
    game = scorers_game(game_id, ClubSession)
    if game.table(table) is None:
        abort(404)
    response = Response(qr_svg(share_base() + table_path(game, table)), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/<game_id>/close")
def close(game_id: str) -> Outcome:
    """Close the session (no more entries from the tables), or open it again. The button
    depends on the session's own row (open or closed), not on the tables' entries, which go
    on while the director closes."""

    def change(game: ClubSession) -> Outcome | None:
        form = ConfirmForm()
        if not form.validate() or not drawn_from_now(form, game.version):
            flash(_("The session changed since this page was drawn; try again."), "error")
            return game_page(game)
        game.setting("closed", not game.closed)
        for table in game.tables:  # a table's form drawn before the change is now stale
            table.changed()
        return None

    def done(game: ClubSession) -> None:
        flash(_("The session is closed.") if game.closed else _("The session is open again."))

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


@bp.post("/<game_id>/shown")
def change_shown(game_id: str) -> Outcome:
    """What the tables and those looking on see before the session closes."""

    def change(game: ClubSession) -> Outcome | None:
        form = ShownForm()
        invalid = None if form.validate() else _("Choose what the players see.")
        # The session's own row: the tables' entries meanwhile change nothing of this choice.
        if (refusal := refused(game, form, invalid)) is not None:
            return refusal
        game.setting("shown", form.shown.data)
        game.setting("names_shown", form.names.data == "shown")
        return None

    def done(game: ClubSession) -> None:
        flash(_("What the players see is changed."))

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


@bp.post("/<game_id>/lead")
def change_lead(game_id: str) -> Outcome:
    """Whether the tables' phones ask for the opening lead with each result."""

    def change(game: ClubSession) -> Outcome | None:
        form = LeadForm()
        invalid = None if form.validate() else _("Choose whether the tables give the lead.")
        if (refusal := refused(game, form, invalid)) is not None:
            return refusal
        game.setting("asks_lead", form.lead.data == "asked")
        return None

    def done(game: ClubSession) -> None:
        if game.asks_lead:
            flash(_("The tables' phones ask for the opening lead."))
        else:
            flash(_("The tables' phones no longer ask for the opening lead."))

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


@bp.route("/<game_id>/pairs", methods=["GET", "POST"])
def names(game_id: str) -> Outcome:
    """The players of each pair (optional)."""

    def change(game: ClubSession) -> Outcome | None:
        if request.method in ("GET", "HEAD"):
            data = {"drawn_from": game.version, "names": [p.names for p in game.pairs]}
            form = NamesForm(data=data)
            return render_names(game, form)
        form = NamesForm()
        if not drawn_from_now(form, game.version):
            flash(
                _("The session changed since this page was drawn; check and send again."), "error"
            )
            # Drawn again as the session is now (a pair may have come), with what was typed.
            typed = [field.data or "" for field in form.names]
            names = [*typed[: len(game.pairs)], *(p.names for p in game.pairs[len(typed) :])]
            form = NamesForm(formdata=None, data={"drawn_from": game.version, "names": names})
            return render_names(game, form, 409)
        if not form.validate() or len(form.names) != len(game.pairs):
            return render_names(game, form, 422)
        if game.circle_id is not None and not people_named(form):
            return render_names(game, form, 422)
        for pair, field in zip(game.pairs, form.names, strict=True):
            if pair.names != (field.data or ""):  # a file's numbers were its players' alone
                pair.first_number = pair.second_number = None
            pair.names = field.data or ""
            if game.circle_id is not None:  # each pair's two players are the circle's people
                partners = pair_partners(pair.names)
                first, second = (
                    (circles().person_named(game, name) for name in partners)
                    if partners
                    else (None, None)
                )
                pair.first_person_id, pair.second_person_id = first, second
        return None

    def saved(game: ClubSession) -> None:
        flash(_("The pairs' names are saved."))

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, saved)


def people_named(form: NamesForm) -> bool:
    """Whether each pair's two players, in a session played in a circle, can be the circle's
    people: names it can keep (a pair's line that does not read as two players is kept as
    written, and names nobody)."""
    fine = True
    for field in form.names:
        for name in pair_partners(field.data or "") or ():
            if (problem := circles().name_problem(name)) is not None:
                field.errors = [*field.errors, f"{name}: {problem}"]
                fine = False
    return fine


def render_names(game: ClubSession, form: NamesForm, status: int = 200) -> tuple[str, int]:
    rows = list(zip(game.pairs, form.names, strict=False))
    circle = circles().circle_name(game)
    offered = circles().pair_names(game) if circle else []
    page = render_template(
        "club/names.html", game=game, form=form, rows=rows, circle=circle, offered=offered
    )
    return page, status
