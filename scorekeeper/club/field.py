"""A field of sections: the director's page with every section side by side and the field's
ranking, how the field is scored, and the ranking to print."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from flask import abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from scorekeeper.club import bp, field_scores, files
from scorekeeper.club.family import pair_label
from scorekeeper.club.forms import FieldForm
from scorekeeper.club.models import ClubField, ClubSession
from scorekeeper.contract.labels import rule_message
from scorekeeper.extensions import db
from scorekeeper.games.lookup import GAME_ID
from scorekeeper.games.rights import is_scorer
from scorekeeper.rules.common import RuleError, Side
from scorekeeper.rules.field import FieldScore, FieldStanding


@dataclass(frozen=True)
class FieldLine:
    """One line of the field's ranking as a page shows it."""

    rank: int
    tied: bool
    section: str
    pair: str
    names: str
    total: Fraction
    percentage: Fraction | None
    own: bool
    """Whether the pair is of the section whose page shows the line."""


def field_or_404(field_id: str) -> ClubField:
    if not GAME_ID.fullmatch(field_id):
        abort(404)
    found = db.session.get(ClubField, field_id)
    if found is None or not found.sections:
        abort(404)
    return found


def directs(field: ClubField) -> bool:
    """Whether this browser directs the field: it scores every one of its sections."""
    return all(is_scorer(section.id, section.family) for section in field.sections)


def field_rankings(
    field: ClubField, *, scorer: bool, section: ClubSession | None = None
) -> tuple[list[tuple[Side | None, list[FieldLine]]], str | None]:
    """The field's rankings as a page shows them (one per direction where every section
    ranks so), or the engine's refusal. Names where each section's director shows them."""
    try:
        score = field.score()
    except RuleError as error:
        return [], rule_message(error)
    return [
        (side, lines(field, score, found, scorer, section)) for side, found in score.overall
    ], None


def lines(
    field: ClubField,
    score: FieldScore,
    standings: tuple[FieldStanding, ...],
    scorer: bool,
    shown_in: ClubSession | None,
) -> list[FieldLine]:
    sections = {section.section: section for section in field.sections}
    found = []
    for standing in standings:
        section = sections[standing.pair.section]
        found.append(
            FieldLine(
                standing.rank,
                standing.tied,
                standing.pair.section,
                pair_label(standing.pair.pair),
                section.public_name_of(standing.pair.pair, scorer),
                standing.total,
                standing.percentage,
                shown_in is not None and section.id == shown_in.id,
            )
        )
    return found


def progress(section: ClubSession) -> tuple[int, int]:
    """The results in, and those the movement expects (counted for every section of the
    field at once)."""
    return field_scores.progress(section)


@bp.get("/field/<field_id>")
def field_page(field_id: str) -> str:
    """The director's page of a field: its sections side by side, the field's ranking."""
    field = field_or_404(field_id)
    if not directs(field):
        abort(404)
    rankings, problem = field_rankings(field, scorer=True)
    first = field.sections[0]
    return render_template(
        "club/field.html",
        field=field,
        first=first,
        sections=[(section, *progress(section)) for section in field.sections],
        rankings=rankings,
        problem=problem,
        scoring=first.scoring,
        form=FieldForm(
            data={
                "across": "across" if field.across else "apart",
                "overall": "overall" if field.overall else "section",
            }
        ),
    )


@bp.post("/field/<field_id>")
def change_field(field_id: str) -> Response:
    """How the field is scored, and which ranking the players see."""
    field = field_or_404(field_id)
    if not directs(field):
        abort(404)
    form = FieldForm()
    if not form.validate():
        flash(_("Choose how the field is scored and what the players see."), "error")
        return redirect(url_for(".field_page", field_id=field.id))
    field.across = form.across.data == "across"
    field.overall = form.overall.data == "overall"
    for section in field.sections:  # their pages show the field's figures
        section.changed()
    try:
        db.session.commit()
    except StaleDataError:  # a section's director changed it at that very moment
        db.session.rollback()
        flash(_("A section changed at the same moment; choose again."), "error")
        return redirect(url_for(".field_page", field_id=field_id))
    flash(_("The field's scoring is saved."))
    return redirect(url_for(".field_page", field_id=field.id))


@bp.get("/field/<field_id>/ranking")
def field_ranking(field_id: str) -> str:
    """The field's ranking to print: for its director, or for everyone where the director
    shows the players the whole field."""
    field = field_or_404(field_id)
    scorer = directs(field)
    if not scorer and not field.shown_to_players():
        abort(404)
    rankings, problem = field_rankings(field, scorer=scorer)
    return render_template(
        "club/field_ranking.html",
        field=field,
        scorer=scorer,
        first=field.sections[0],
        rankings=rankings,
        problem=problem,
        scoring=field.sections[0].scoring,
    )


@bp.get("/field/<field_id>/field.xml")
def field_usebio(field_id: str) -> Response:
    """The field's USEBIO file: for its director, or for everyone once every section's files
    are everyone's."""
    field = field_or_404(field_id)
    director = directs(field)
    if not director and not all(s.results_files_for_everyone() for s in field.sections):
        abort(404)
    try:
        data = files.field_usebio(field, director=director)
    except RuleError as error:
        flash(rule_message(error), "error")
        if director:
            return redirect(url_for(".field_page", field_id=field.id))
        return redirect(url_for(".session", game_id=field.sections[0].id))
    first = field.sections[0]
    name = f"field-{first.created_at:%Y-%m-%d}-{field.id}-usebio.xml"
    return Response(
        data,
        mimetype="application/xml",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
