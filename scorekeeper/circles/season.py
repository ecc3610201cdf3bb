"""A club's season, on one page to show and print: the ladder of its members over the period,
and a session's handicapped ranking beside its own, each as the page states its rule. Counted
by :mod:`scorekeeper.rules.history` from the sessions of the circle's history (each family that
ranks its sessions says which, through ``InCircles.season``). The rules are chosen in the
page's address; a keeper keeps them as the club's, which the page then shows when opened
without any, and each member's page counts its ladder line by."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any
from urllib.parse import parse_qsl

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.circles import bp
from scorekeeper.circles.changes import changed_meanwhile, held_circle
from scorekeeper.circles.forms import KeepSeasonForm, SeasonForm, club_rules_of
from scorekeeper.circles.history import CircleHistory, circle_history, families_in_circles
from scorekeeper.circles.models import Circle
from scorekeeper.circles.people import keeps
from scorekeeper.circles.views import get_circle_or_404, public_names_of
from scorekeeper.games.writes import Outcome, write_entry
from scorekeeper.rules.history import (
    HandicappedLine,
    HandicapRule,
    LadderRow,
    LadderRule,
    RankedSession,
    handicapped_ranking,
    ladder,
    name_order,
    pair_sessions_of,
    player_handicaps,
    season_results,
)


@dataclass(frozen=True)
class PlayerHandicap:
    """A player's line in the handicaps' table: the sessions their figure is drawn from."""

    person: str
    sessions: int
    handicap: Fraction


@dataclass(frozen=True)
class HandicappedSession:
    session: RankedSession
    lines: tuple[HandicappedLine, ...]
    players: tuple[PlayerHandicap, ...]
    partners: dict[str, tuple[str | None, str | None]]
    """Each pair's two players, by the pair's label."""


@dataclass(frozen=True)
class Season:
    """The season as the page shows it, by the rules of its form."""

    form: SeasonForm
    valid: bool
    sessions: list[RankedSession]
    """The sessions of the period, in the order of their days."""
    since: date | None
    until: date | None
    ladder_rule: LadderRule
    handicap_rule: HandicapRule
    rows: tuple[LadderRow, ...]
    handicapped: HandicappedSession | None


def in_period(session: RankedSession, since: date | None, until: date | None) -> bool:
    return (since is None or session.played_on >= since) and (
        until is None or session.played_on <= until
    )


def ranked_sessions(history: CircleHistory) -> list[RankedSession]:
    """Every session of the circle's history that a family ranks, in the order of the days."""
    return sorted(
        (
            session
            for family, counts in families_in_circles()
            for session in counts.season(history.of(family))
        ),
        key=lambda session: session.played_on,
    )


def handicapped(
    sessions: list[RankedSession], chosen: RankedSession, rule: HandicapRule, since: date | None
) -> HandicappedSession:
    """The chosen session's handicapped ranking: each player's handicap from their sessions of
    the period before its day."""
    before = pair_sessions_of(s for s in sessions if s.played_on < chosen.played_on)
    handicaps = player_handicaps(before, rule, since=since)
    lines = handicapped_ranking(
        [(pair.pair, pair.partners, pair.percentage) for pair in chosen.pairs], handicaps
    )
    counted: dict[str, int] = {}
    for played in before:
        for person in dict.fromkeys(played.partners):
            if person is not None and (since is None or played.played_on >= since):
                counted[person] = counted.get(person, 0) + 1
    players = tuple(
        PlayerHandicap(
            person, min(counted.get(person, 0), rule.sessions), handicaps.get(person, Fraction(0))
        )
        for pair in chosen.pairs
        for person in pair.partners
        if person is not None
    )
    return HandicappedSession(
        chosen, lines, players, {pair.pair: pair.partners for pair in chosen.pairs}
    )


def kept_rules(circle: Circle) -> MultiDict[str, str]:
    """The club's rules as its keeper kept them (none: the page's own)."""
    return MultiDict(parse_qsl(circle.season_rules or ""))


def season_of(history: CircleHistory, args: MultiDict[str, str], names: dict[str, str]) -> Season:
    """The season by the rules of ``args`` (the page's address's, or the club's kept ones);
    members level in the ladder in the order of the ``names`` shown."""
    form = SeasonForm(args)
    valid = form.validate() if args else True
    since, until = (form.since.data, form.until.data) if valid else (None, None)
    sessions = [s for s in ranked_sessions(history) if in_period(s, since, until)]
    form.session.choices = [(s.session, f"{s.played_on:%Y-%m-%d}") for s in reversed(sessions)]
    ladder_rule = LadderRule(
        best=form.best.data if valid else None, points=form.points_given() if valid else None
    )
    handicap_rule = HandicapRule(
        sessions=(form.last.data if valid and form.last.data else 10),
        share=Fraction(form.share.data if valid and form.share.data is not None else 50, 100),
        cap=Fraction(form.cap.data if valid and form.cap.data is not None else 5),
    )
    chosen = next((s for s in sessions if s.session == form.session.data), None)
    if chosen is None and sessions:
        chosen = sessions[-1]
        form.session.data = chosen.session
    return Season(
        form=form,
        valid=valid,
        sessions=sessions,
        since=since,
        until=until,
        ladder_rule=ladder_rule,
        handicap_rule=handicap_rule,
        rows=tuple(
            sorted(
                ladder(season_results(sessions), ladder_rule),
                key=lambda row: (row.place, name_order(names.get(row.person, ""))),
            )
        ),
        handicapped=handicapped(sessions, chosen, handicap_rule, since) if chosen else None,
    )


@bp.get("/<circle_id>/season")
def season(circle_id: str) -> tuple[str, int] | str:
    """The club's ladder over the period, and the handicapped ranking of one of its sessions
    (the last, unless another is chosen), by the rules chosen, else by the club's kept ones."""
    circle = get_circle_or_404(circle_id)
    chosen = {key: value for key, value in request.args.items() if key != "session"}
    args = (
        request.args if chosen else MultiDict([*kept_rules(circle).items(), *request.args.items()])
    )
    names = public_names_of(circle)
    shown = season_of(circle_history(circle), args, names)
    keeper = keeps(circle)
    query = shown.form.rules_query() if shown.valid else ""
    page = render_template(
        "circles/season.html",
        circle=circle,
        season=shown,
        form=shown.form,
        names=names,
        keeper=keeper,
        keep_form=KeepSeasonForm(data={"rules": query}) if keeper else None,
        kept=query == (circle.season_rules or ""),
    )
    return (page, 422) if not shown.valid else page


@bp.post("/<circle_id>/season/rules")
def keep_season_rules(circle_id: str) -> Outcome:
    """A keeper keeps the page's rules as the club's."""
    form = KeepSeasonForm()
    season_page = url_for("circles.season", circle_id=circle_id)

    def change(circle: Circle) -> BaseResponse | None:
        if not form.validate():
            flash(_("This form has expired: here is the season as it is now."), "error")
            return redirect(season_page)
        query = club_rules_of(form.rules.data or "")
        if query is None:
            flash(_("These rules cannot be kept: check them and show the season again."), "error")
            return redirect(season_page)
        if circle.season_rules == (query or None):  # the same form sent twice: kept already
            flash(_("These are now the club's rules for its season."))
            return redirect(season_page)
        circle.season_rules = query or None
        return None

    def page(circle: Circle) -> BaseResponse:
        return redirect(season_page)

    return write_entry(
        lambda: held_circle(circle_id),
        change,
        lambda circle: flash(_("These are now the club's rules for its season.")),
        page=page,
        busy=lambda: changed_meanwhile(season_page),
    )


def ladder_line(circle: Circle, history: CircleHistory, person: str) -> tuple[Any, ...] | None:
    """A member's line in the club's ladder by its kept rules, with the ladder's length and
    rule; ``None`` where the circle has no ranked session or the member no result."""
    shown = season_of(history, kept_rules(circle), public_names_of(circle))
    row = next((row for row in shown.rows if row.person == person), None)
    if row is None:
        return None
    return row, len(shown.rows), shown.ladder_rule


def season_url(game: Any) -> str:
    """Where a session played in a club's circle shows its handicapped ranking; "" for a
    session played outside any circle."""
    if getattr(game, "circle_id", None) is None or game.family != "club":
        return ""
    return url_for("circles.season", circle_id=game.circle_id, session=game.id)
