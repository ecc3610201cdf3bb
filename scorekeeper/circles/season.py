"""A club's season, on one page to show and print: the ladder of its members over the period,
and a session's handicapped ranking beside its own, each as the page states its rule. Counted
by :mod:`scorekeeper.rules.history` from the sessions of the circle's history (each family that
ranks its sessions says which, through ``InCircles.season``); the rules are chosen in the
page's address, so that a club keeps its own as a link."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from flask import render_template, request

from scorekeeper.circles import bp
from scorekeeper.circles.forms import SeasonForm
from scorekeeper.circles.history import circle_history, families_in_circles
from scorekeeper.circles.views import get_circle_or_404, public_names_of
from scorekeeper.rules.history import (
    HandicappedLine,
    HandicapRule,
    LadderRow,
    LadderRule,
    RankedSession,
    handicapped_ranking,
    ladder,
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


def in_period(session: RankedSession, since: date | None, until: date | None) -> bool:
    return (since is None or session.played_on >= since) and (
        until is None or session.played_on <= until
    )


def handicapped(
    sessions: list[RankedSession], chosen: RankedSession, rule: HandicapRule, since: date | None
) -> HandicappedSession:
    """The chosen session's handicapped ranking: each player's handicap from their sessions of
    the period before its day."""
    before = [s for s in sessions if s.played_on < chosen.played_on]
    handicaps = player_handicaps(pair_sessions_of(before), rule, since=since)
    lines = handicapped_ranking(
        [(pair.pair, pair.partners, pair.percentage) for pair in chosen.pairs], handicaps
    )
    counted: dict[str, int] = {}
    for played in pair_sessions_of(before):
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


@bp.get("/<circle_id>/season")
def season(circle_id: str) -> tuple[str, int] | str:
    """The club's ladder over the period, and the handicapped ranking of one of its sessions
    (the last, unless another is chosen), with their rules as chosen."""
    circle = get_circle_or_404(circle_id)
    history = circle_history(circle)
    sessions = sorted(
        (
            session
            for family, counts in families_in_circles()
            for session in counts.season(history.of(family))
        ),
        key=lambda session: session.played_on,
    )
    form = SeasonForm(request.args)
    valid = form.validate() if request.args else True
    since, until = (form.since.data, form.until.data) if valid else (None, None)
    in_season = [session for session in sessions if in_period(session, since, until)]
    form.session.choices = [(s.session, f"{s.played_on:%Y-%m-%d}") for s in reversed(in_season)]
    points = form.points_given() if valid else None
    best = form.best.data if valid else None
    ladder_rule = LadderRule(best=best, points=points)
    handicap_rule = HandicapRule(
        sessions=(form.last.data if valid and form.last.data else 10),
        share=Fraction(form.share.data if valid and form.share.data is not None else 50, 100),
        cap=Fraction(form.cap.data if valid and form.cap.data is not None else 5),
    )
    rows: tuple[LadderRow, ...] = ladder(season_results(in_season), ladder_rule)
    chosen = next((s for s in in_season if s.session == form.session.data), None)
    if chosen is None and in_season:
        chosen = in_season[-1]
        form.session.data = chosen.session
    shown = handicapped(in_season, chosen, handicap_rule, since) if chosen else None
    page = render_template(
        "circles/season.html",
        circle=circle,
        form=form,
        names=public_names_of(circle),
        rows=rows,
        ladder_rule=ladder_rule,
        handicap_rule=handicap_rule,
        handicapped=shown,
        sessions=in_season,
        since=since,
        until=until,
    )
    return (page, 422) if not valid else page
