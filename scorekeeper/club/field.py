"""A field of sections: the director's page with every section side by side and the field's
ranking, how the field is scored, and the ranking to print."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import abort, flash, redirect, render_template, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from scorekeeper.club import bp, field_scores, files
from scorekeeper.club.family import figure, pair_label, percentage
from scorekeeper.club.forms import EndEventForm, FieldForm
from scorekeeper.club.hands import HandRecord, hand_records
from scorekeeper.club.models import ClubField, ClubSession
from scorekeeper.club.organisers import direct_every_section, directs, organises
from scorekeeper.club.pages import club_session
from scorekeeper.contract.labels import rule_message
from scorekeeper.extensions import db
from scorekeeper.games.links import link_base
from scorekeeper.games.lookup import GAME_ID, as_seen_here
from scorekeeper.games.rights import is_scorer
from scorekeeper.i18n import put_in
from scorekeeper.rules.common import RuleError, Side
from scorekeeper.rules.duplicate import Pair, Scoring
from scorekeeper.rules.field import FieldResult, FieldScore, FieldStanding


@dataclass(frozen=True)
class FieldLine:
    """One line of the field's ranking as a page shows it, its figures written as the page
    writes them, in its language (a field's ranking writes two thousand lines: written here,
    not each through the template's calls)."""

    rank: int
    tied: bool
    label: str
    """The pair as the field names it ("B NS 3")."""
    club: str
    """The club the pair played at, in a simultaneous ("" otherwise)."""
    club_rank: int
    club_tied: bool
    names: str
    total: str
    percentage: str
    own: bool
    """Whether the pair is of the section whose page shows the line."""


def field_or_404(field_id: str) -> ClubField:
    """The field (a simultaneous may have no club's section yet)."""
    if not GAME_ID.fullmatch(field_id):
        abort(404)
    found = db.session.get(ClubField, field_id)
    if found is None or not (found.sections or found.simultaneous):
        abort(404)
    return found


def field_rankings(
    field: ClubField,
    *,
    scorer: bool,
    section: ClubSession | None = None,
    seen_from: ClubSession | None = None,
    rounds: int | None = None,
    leaders: int | None = None,
) -> tuple[list[tuple[Side | None, list[FieldLine]]], str | None]:
    """The field's rankings as a page shows them (one per direction where every section
    ranks so), or the engine's refusal: the whole field, or as a club of a simultaneous may
    see it (``seen_from``, its results of its first ``rounds`` alone where given); each its
    first ``leaders`` lines alone where given. Names for the field's director, or where each
    section's director shows them."""
    try:
        score = field.score(seen_from, rounds)
    except RuleError as error:
        return [], rule_message(error)
    return [
        (side, lines(field, score, side, leading(found, leaders), scorer, section))
        for side, found in score.overall
    ], None


FIELD_PAGE_LEADERS = 20
"""The lines of each ranking the field's page shows (a simultaneous ranks thousands of
pairs), with the pairs level with the last of them: the whole ranking is its own page's."""


def leading(standings: tuple[FieldStanding, ...], count: int | None) -> tuple[FieldStanding, ...]:
    """The first ``count`` standings and those sharing the last one's place (all of them for
    ``None``)."""
    if count is None or count >= len(standings):
        return standings
    end = count
    while 0 < end < len(standings) and standings[end].rank == standings[end - 1].rank:
        end += 1
    return standings[:end]


def lines(
    field: ClubField,
    score: FieldScore,
    side: Side | None,
    standings: tuple[FieldStanding, ...],
    scorer: bool,
    shown_in: ClubSession | None,
) -> list[FieldLine]:
    sections = {section.section: section for section in field.sections}
    places = {
        standing.pair: standing
        for placed in score.standings_by_section(side).values()
        for standing in placed
    }
    # The names the field was scored with, read with its results: not each section's pairs
    # loaded again, a statement a section. A circle's section shows a viewer the names its
    # people chose to show (their initials), as its own pages do.
    names = {scored.name: scored.record.names for scored in score.sections}

    def name(section: ClubSession, pair: Pair) -> str:
        if section.circle_id is not None:
            return as_seen_here(section).public_name_of(pair, scorer)
        return names[section.section].get(pair, "") if scorer or section.names_shown else ""

    locale, scoring = get_locale(), field_scoring(field)
    # Translated once for the page, each line's values put in.
    shown_as = _("%(section)s %(pair)s")
    found = []
    for standing in standings:
        section = sections[standing.pair.section]
        in_club = places[standing.pair]
        pair = pair_label(standing.pair.pair)
        found.append(
            FieldLine(
                standing.rank,
                standing.tied,
                put_in(shown_as, {"section": standing.pair.section, "pair": pair}),
                section.club if field.simultaneous else "",
                in_club.rank,
                in_club.tied,
                name(section, standing.pair.pair),
                figure(standing.total, scoring, locale),
                percentage(standing.percentage, locale),
                shown_in is not None and section.id == shown_in.id,
            )
        )
    return found


def progress(section: ClubSession) -> tuple[int, int, int]:
    """The results in, those the movement expects, and the rounds every table has finished
    (read for every section of the field at once)."""
    field = section.field if section.field_id is not None else None
    return field_scores.progress(section, field.sections if field is not None else [section])


@bp.get("/field/<field_id>")
def field_page(field_id: str) -> str:
    """The director's page of a field: its sections side by side, the field's ranking; for a
    simultaneous, its organiser's: the clubs and how far each has got, the links to hand out."""
    field = field_or_404(field_id)
    if not directs(field):
        abort(404)
    if organises(field):  # sections added since the field's link was opened here
        direct_every_section(field)
    rankings, problem = field_rankings(field, scorer=True, leaders=FIELD_PAGE_LEADERS)
    # The score the rankings were drawn from, kept: how many pairs each ranking has in all.
    ranked = 0 if problem else sum(len(found) for _side, found in field.score().overall)
    return render_template(
        "club/field.html",
        field=field,
        first=field.sections[0] if field.sections else None,
        sections=[(section, *progress(section)) for section in field.sections],
        rankings=rankings,
        leaders_only=ranked > sum(len(found) for _side, found in rankings),
        problem=problem,
        scoring=field_scoring(field),
        links=event_links(field) if field.organiser_token else None,
        end_form=EndEventForm(),
        form=FieldForm(
            data={
                "across": "across" if field.across else "apart",
                "overall": "overall" if field.overall else "section",
            }
        ),
    )


def field_scoring(field: ClubField) -> Scoring:
    if field.simultaneous:
        return field.event_scoring
    return field.sections[0].scoring


def event_links(field: ClubField) -> dict[str, str]:
    """The field's own link (for another phone of its director's or organiser's) and, for a
    simultaneous, the link clubs join it by."""
    base = link_base()
    links = {
        "organiser": base
        + url_for(".organise_event", field_id=field.id, token=field.organiser_token),
    }
    if field.simultaneous:
        links["clubs"] = base + url_for(".join_event", field_id=field.id, token=field.join_token)
    return links


@bp.post("/field/<field_id>")
def change_field(field_id: str) -> Response:
    """How the field is scored, and which ranking the players see (an evening's field: a
    simultaneous is scored across, each club showing what its director chooses)."""
    field = field_or_404(field_id)
    if not directs(field) or field.simultaneous:
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


def public_field(field: ClubField) -> bool:
    """Whether everyone with the field's address may see its ranking: an evening's where its
    director shows the players the whole field; a simultaneous's once every club has closed."""
    if field.simultaneous:
        return field.closed_everywhere
    return field.shown_to_players()


@bp.get("/field/<field_id>/ranking")
def field_ranking(field_id: str) -> str:
    """The field's ranking to print: for its director, or for everyone where it is public."""
    field = field_or_404(field_id)
    scorer = directs(field)
    if not scorer and not public_field(field):
        abort(404)
    rankings, problem = field_rankings(field, scorer=scorer)
    return render_ranking(field, rankings, problem, scorer=scorer)


def render_ranking(
    field: ClubField,
    rankings: list[tuple[Side | None, list[FieldLine]]],
    problem: str | None,
    *,
    scorer: bool,
    section: ClubSession | None = None,
    rounds: int | None = None,
) -> str:
    return render_template(
        "club/field_ranking.html",
        field=field,
        scorer=scorer,
        first=section or (field.sections[0] if field.sections else None),
        section=section,
        rounds=rounds,
        rankings=rankings,
        problem=problem,
        scoring=field_scoring(field),
        travellers=section is None and public_travellers(field),
    )


@bp.get("/<game_id>/field")
def section_field_ranking(game_id: str) -> str | Response:
    """The field's ranking as a club's players see it from their section's page: as their
    director shows their own ranking (as it stands, round by round, at the end), of the
    boards their club has played (nothing of a board is seen at a club before it is played
    there)."""
    game = club_session(game_id)
    field = game.field if game.field_id is not None else None
    if field is None:
        abort(404)
    if not field.simultaneous:
        return redirect(url_for(".field_ranking", field_id=field.id))
    scorer = is_scorer(game.id, game.family)
    if not (scorer or game.shows_ranking()):
        abort(404)
    rounds = game.ranking_shown_after(scorer)
    rankings: list[tuple[Side | None, list[FieldLine]]] = []
    problem = None
    if rounds != 0:
        rankings, problem = field_rankings(
            field, scorer=False, section=game, seen_from=game, rounds=rounds
        )
    return render_ranking(field, rankings, problem, scorer=False, section=game, rounds=rounds)


@dataclass(frozen=True)
class FieldBoard:
    """One board's traveller across the field: every section's results, with its hands
    where the page's reader may see them."""

    number: int
    boards: str
    """The set of boards it is of ("" the field's own)."""
    results: tuple[FieldResult, ...]
    hands: HandRecord | None


def public_travellers(field: ClubField) -> bool:
    """Whether everyone may see the field's travellers: once every section shows every
    result, and its hands."""
    return bool(field.sections) and all(
        section.shows_everything() and section.hands_public() for section in field.sections
    )


@bp.get("/field/<field_id>/travellers")
def field_travellers(field_id: str) -> str | Response:
    """Every board's traveller across the field, each section's results together: for its
    director, or for everyone once everything is shown everywhere."""
    field = field_or_404(field_id)
    scorer = directs(field)
    if not field.sections or not (scorer or public_travellers(field)):
        abort(404)
    try:
        score = field.score()
    except RuleError as error:
        flash(rule_message(error), "error")
        return redirect(url_for(".field_page", field_id=field.id))
    records: dict[tuple[str, int], HandRecord] = {}
    for section in field.sections:
        for board, record in hand_records(section).items():
            records.setdefault((section.board_set, board), record)
    sets = {section.section: section.board_set for section in field.sections}
    numbers = sorted({(sets[r.section], r.scored.result.board) for r in score.results})
    boards = [
        FieldBoard(number, boards, score.board(number, boards), records.get((boards, number)))
        for boards, number in numbers
    ]
    clubs = {section.section: section.club for section in field.sections}
    return render_template(
        "club/field_travellers.html",
        field=field,
        first=field.sections[0],
        scorer=scorer,
        boards=boards,
        clubs=clubs if field.simultaneous else {},
        scoring=field_scoring(field),
    )


@bp.get("/field/<field_id>/field.xml")
def field_usebio(field_id: str) -> Response:
    """The field's USEBIO file: for its director, or for everyone once every section's files
    are everyone's."""
    return field_file(
        field_id,
        lambda field, director: files.field_usebio(field, director=director),
        "usebio.xml",
        "application/xml",
    )


@bp.get("/field/<field_id>/field.pbn")
def field_pbn(field_id: str) -> Response:
    """The field's PBN file, every section's boards: for its director, or for everyone once
    every section's files are everyone's."""
    return field_file(
        field_id,
        lambda field, director: files.field_pbn(field, director=director).encode(),
        "results.pbn",
        "application/x-pbn; charset=utf-8",
    )


def field_file(
    field_id: str, write: Callable[[ClubField, bool], bytes], suffix: str, mimetype: str
) -> Response:
    field = field_or_404(field_id)
    director = directs(field)
    if not field.sections or (
        not director and not all(s.results_files_for_everyone() for s in field.sections)
    ):
        abort(404)
    try:
        data = write(field, director)
    except RuleError as error:
        flash(rule_message(error), "error")
        if director:
            return redirect(url_for(".field_page", field_id=field.id))
        return redirect(url_for(".session", game_id=field.sections[0].id))
    day = field.played_on or field.sections[0].created_at.date()
    name = f"field-{day:%Y-%m-%d}-{field.id}-{suffix}"
    return Response(
        data, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )
