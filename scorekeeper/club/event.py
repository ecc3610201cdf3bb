"""A simultaneous pairs across clubs: the organiser sets the event up with its deals and date,
hands out the link clubs join it by, and follows the field. Each club runs its own section on
its own phones with its own director, as any session; a club that scored on its own server
uploads its section's file when it closes. The field is ranked across every club's results
(RULES.md §2 and §4)."""

from __future__ import annotations

from datetime import date

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from scorekeeper.club import bp, files
from scorekeeper.club.field import event_links, field_or_404
from scorekeeper.club.forms import EndEventForm, EventForm, SectionFileForm, board_list
from scorekeeper.club.hands import deals_at_random, put_deals
from scorekeeper.club.labels import file_message
from scorekeeper.club.models import ClubField, ClubSession
from scorekeeper.club.organisers import (
    direct_every_section,
    invited,
    may_join,
    organises,
    remember_invited,
    remember_organiser,
    token_matches,
)
from scorekeeper.club.transfer import game_from_json
from scorekeeper.extensions import db
from scorekeeper.games.links import qr_svg
from scorekeeper.games.rights import form_key
from scorekeeper.games.transfer import TransferError
from scorekeeper.games.views import import_page, new_nonce
from scorekeeper.games.writes import count_changed_in
from scorekeeper.limits import new_games_limit
from scorekeeper.rules import pbn
from scorekeeper.rules.common import RuleError
from scorekeeper.rules.duplicate import Scoring, SessionRecord
from scorekeeper.rules.hands import Deal, HandError
from scorekeeper.rules.pbn import read_hand_records


def event_or_404(field_id: str) -> ClubField:
    field = field_or_404(field_id)
    if not field.simultaneous:
        abort(404)
    return field


@bp.route("/event/new", methods=["GET", "POST"])
@new_games_limit
def new_event() -> str | Response | tuple[str, int]:
    """A simultaneous set up: its name, date, scoring and deals."""
    if request.method in ("GET", "HEAD"):
        form = EventForm(data={"nonce": new_nonce(), "played_on": date.today()})
        return render_template("club/event_new.html", form=form)
    form = EventForm()
    upload = None
    if form.file.data:
        upload = form.file.data.read(EventForm.MAX_BYTES + 1)
    if not form.validate():
        return render_template("club/event_new.html", form=form), 422
    key = form_key(form.nonce.data)
    if key is not None and (same := event_started_by(key)) is not None:  # a double tap
        remember_organiser(same)
        return redirect(url_for("club.field_page", field_id=same.id))
    deals = event_deals(form, upload)
    if deals is None:
        return render_template("club/event_new.html", form=form), 422
    assert form.played_on.data is not None
    field = ClubField.event(
        form.name.data or "", form.played_on.data, Scoring(form.scoring.data), deals
    )
    field.setup_nonce = key
    db.session.add(field)
    try:
        db.session.commit()
    except IntegrityError:  # the same form sent twice at once: the first one stands
        db.session.rollback()
        field = event_started_by(key) or abort(409)
    remember_organiser(field)
    flash(_("The event is set up: hand the clubs' link to each club taking part."))
    return redirect(url_for("club.field_page", field_id=field.id))


def event_started_by(key: str | None) -> ClubField | None:
    if key is None:
        return None
    return db.session.scalars(select(ClubField).where(ClubField.setup_nonce == key)).one_or_none()


def event_deals(form: EventForm, upload: bytes | None) -> dict[int, str] | None:
    """The event's deals: dealt here, or read from the file (``None``, the form saying why)."""
    if form.deals_from.data == "dealt":
        assert form.boards.data is not None
        return deals_at_random(range(1, form.boards.data + 1))
    try:
        found = read_hand_records(upload or b"")
    except RuleError as error:
        form.file.errors = [file_message(error)]
        return None
    if not found:
        form.file.errors = [_("The file has no deal.")]
        return None
    if 1 not in found:  # a club's movement plays its boards from board 1
        form.file.errors = [
            _(
                "The file's deals begin at board %(first)d: the clubs' movements play their "
                "boards from board 1. Number the deals from 1 in the dealing program.",
                first=min(found),
            )
        ]
        return None
    return {board: deal.to_pbn() for board, deal in sorted(found.items())}


@bp.get("/event/<field_id>/organise/<token>")
def organise_event(field_id: str, token: str) -> Response:
    """The field's own link: this phone organises the simultaneous (follows every club), or
    directs the evening's field (scores every section of it)."""
    field = field_or_404(field_id)
    if not token_matches(token, field.organiser_token):
        abort(404)
    remember_organiser(field)
    direct_every_section(field)
    return redirect(url_for("club.field_page", field_id=field.id))


@bp.get("/event/<field_id>/join/<token>")
def join_event(field_id: str, token: str) -> Response:
    """The clubs' link: this phone may add its club's section to the event."""
    field = event_or_404(field_id)
    if not token_matches(token, field.join_token):
        abort(404)
    remember_invited(field)
    return redirect(url_for("club.joining", field_id=field.id))


@bp.get("/event/<field_id>/join")
def joining(field_id: str) -> str:
    """A club joining the event: its section set up here, or its file uploaded; once the
    organiser has closed the event, no more."""
    field = event_or_404(field_id)
    if not (may_join(field) or (field.ended and invited(field))):
        abort(404)
    return render_template("club/event_join.html", field=field, form=upload_form())


def upload_form() -> SectionFileForm:
    form = SectionFileForm(data={"nonce": new_nonce()})
    form.file.label.text = section_file_label()
    return form


def section_file_label() -> str:
    return _("Your section's file (.json, .pbn or USEBIO .xml)")


@bp.route("/event/<field_id>/upload", methods=["POST"])
@new_games_limit
def upload_section(field_id: str) -> str | Response | tuple[str, int]:
    """A club's section scored on its own server, from its file: taken into the field as any
    other section, closed (it is played)."""
    field = event_or_404(field_id)
    if not may_join(field):
        if field.ended and invited(field):
            flash(_("The organiser has closed the event: no club joins it any more."), "error")
            return redirect(url_for("club.joining", field_id=field.id))
        abort(404)
    # The club's name as typed: the form's own checks have passed once the file is read.
    club = request.form.get("club", "").strip()[:60]
    return import_page(
        lambda data: section_from_file(field, data, club),
        "club/event_join.html",
        section_file_label(),
        _("This file is too large to be a session's results (2 MB at most)."),
        form_class=SectionFileForm,
        field=field,
    )


def section_from_file(field: ClubField, data: bytes, club: str = "") -> ClubSession:
    """A club's section from its game file, PBN or USEBIO: on the event's boards, scored as
    the event is, named by the club typed or the one its file gives (TransferError, its
    message for the page, otherwise)."""
    section = read_section(data)
    club = club or section.club
    if not club:
        raise TransferError(_("The file does not name its club: type your club's name."))
    boards = {result.board for result in section.results}
    deals = field.event_deals
    if not boards:
        raise TransferError(_("The file has no result."))
    if deals and not boards <= set(deals):
        outside = sorted(boards - set(deals))
        raise TransferError(
            ngettext(
                "The event has no board %(boards)s: is this the file of this event?",
                "The event has no boards %(boards)s: is this the file of this event?",
                len(outside),
                boards=board_list(outside),
            )
        )
    other = [
        deal.board
        for deal in section.deals
        if deal.board in deals and not same_deal(deal.deal, deals[deal.board])
    ]
    if other:
        raise TransferError(
            ngettext(
                "The file's board %(boards)s is not the event's deal: was the section played "
                "on the event's boards?",
                "The file's boards %(boards)s are not the event's deals: was the section "
                "played on the event's boards?",
                len(other),
                boards=board_list(sorted(other)),
            )
        )
    db.session.execute(select(ClubField.id).where(ClubField.id == field.id).with_for_update())
    db.session.expire(field, ["sections"])
    section.settings = {
        **section.settings,
        "section": field.next_name(),
        "scoring": field.event_scoring.value,
        "event": field.name,
        "club": club,
        "closed": True,
        "uploaded": True,
        "board_set": "",  # the event's boards, whatever field the file's section was of
        **({"date": field.played_on.isoformat()} if field.played_on else {}),
    }
    if deals:
        section.deals = []
        put_deals(section, {board: deals[board] for board in sorted(boards)})
    section.field_id = field.id
    count_changed_in([other.id for other in field.sections], section.family)
    return section


def same_deal(given: str, event: str) -> bool:
    """Whether a file's deal is the event's (however its PBN text is written); a file's deal
    short of a hand says nothing against it."""
    try:
        return Deal.from_pbn(given).hands == Deal.from_pbn(event).hands
    except HandError:
        return True


def read_section(data: bytes) -> ClubSession:
    """A section's file: this project's game file, or a PBN or USEBIO results file."""
    if data.lstrip()[:1] == b"{":
        try:
            return game_from_json(data)
        except RuleError as error:
            raise TransferError(file_message(error)) from error
    return files.session_from_file(data)


@bp.post("/event/<field_id>/end")
def end_event(field_id: str) -> Response:
    """The organiser closes the event (no club joins any more: once every club's section is
    closed, the hands and the results are everyone's), or opens it again."""
    field = event_or_404(field_id)
    if not organises(field):
        abort(404)
    if not EndEventForm().validate():
        flash(_("The form has expired; try again."), "error")
        return redirect(url_for("club.field_page", field_id=field.id))
    field.ended = not field.ended
    for section in field.sections:  # what their pages show may change
        section.changed()
    try:
        db.session.commit()
    except StaleDataError:  # a club's director changed its section at that very moment
        db.session.rollback()
        flash(_("A club's section changed at the same moment; try again."), "error")
        return redirect(url_for("club.field_page", field_id=field.id))
    if field.ended:
        flash(_("The event is closed: no club joins it any more."))
    else:
        flash(_("The event is open again: clubs may join it."))
    return redirect(url_for("club.field_page", field_id=field.id))


@bp.get("/event/<field_id>/deals.pbn")
def event_deals_file(field_id: str) -> Response:
    """The event's deals as a PBN file, for each club's dealing machine: the organiser's and
    the clubs' directors' (whoever has the clubs' link), everyone's once the event is over."""
    field = event_or_404(field_id)
    if not (organises(field) or invited(field) or field.closed_everywhere):
        abort(404)
    record = SessionRecord(
        results=(), event=field.name, date=field.played_on, deals=field.event_deals
    )
    name = f"event-{field.played_on or date.today():%Y-%m-%d}-{field.id}-deals.pbn"
    return Response(
        pbn.write_pbn(record),
        mimetype="application/x-pbn; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@bp.get("/event/<field_id>/qr/<any(organiser, clubs):link>.svg")
def event_qr(field_id: str, link: str) -> Response:
    field = event_or_404(field_id)
    if not organises(field):
        abort(404)
    response = Response(qr_svg(event_links(field)[link]), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response
