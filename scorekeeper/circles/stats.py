"""What a circle's pages show of its history: the league of a chosen game over a period, with
its handicaps and its chart, and each person's figures. Everything is counted by
:mod:`scorekeeper.rules.history`; here it is only gathered for a page."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from flask_babel import gettext as _

from scorekeeper.ascenseur.chart import Chart, line_chart
from scorekeeper.ascenseur.labels import PRESET_NAMES
from scorekeeper.circles.history import CircleHistory
from scorekeeper.rules.echelons import LogStatistics, log_statistics
from scorekeeper.rules.history import (
    BiddingRecord,
    LeagueRow,
    PartnerRecord,
    PlayedGame,
    Record,
    bidding_record,
    bridge_records,
    by_partner,
    handicaps,
    head_to_head,
    in_period,
    league,
    partnerships,
    percentages_over_time,
    race_record,
    running_wins,
)

CHART_SIZE = (340, 220, 36)
"""The league's chart fits a phone's width: its ticks are a few wins, not a game's totals."""


def league_name(key: str) -> str:
    family, _sep, kind = key.partition(":")
    if family == "ascenseur":
        return str(PRESET_NAMES.get(kind, kind))
    if key == "bridge:rubber":
        return _("Rubber bridge")
    if key == "bridge:chicago":
        return _("Chicago")
    if key == "bridge:teams":
        return _("Teams matches")
    return _("Échelons races")


def league_choices(leagues: dict[str, list[PlayedGame]]) -> list[tuple[str, str]]:
    return [(key, league_name(key)) for key in leagues]


@dataclass(frozen=True)
class LeagueTable:
    rows: tuple[LeagueRow, ...]
    places: tuple[int, ...]
    """Each row's place: people level on wins, average place and points per game share it."""
    handicaps: dict[str, int]
    games: int
    """Games played in the period."""
    has_points: bool
    """Whether its games score points (a race has none)."""


def league_table(games: list[PlayedGame], since: date | None, until: date | None) -> LeagueTable:
    """The league over the period, with each person's handicap."""
    rows = league(games, since, until)
    played = sum(1 for game in games if in_period(game, since, until))
    has_points = any(finish.points for game in games for finish in game.finishes)

    def standing(row: LeagueRow) -> tuple[int, Fraction, Fraction]:
        return (-row.wins, row.average_place, -row.points_per_game)

    places = tuple(1 + sum(standing(other) < standing(row) for other in rows) for row in rows)
    return LeagueTable(rows, places, handicaps(rows), played, has_points)


def wins_chart(
    games: list[PlayedGame], since: date | None, until: date | None, names: dict[str, str]
) -> Chart | None:
    """The league's chart over time: each person's wins so far, game after game, in the
    league's order (the leader first)."""
    lines = running_wins(games, since, until)
    ranked = [row.person for row in league(games, since, until)]
    if not ranked:
        return None
    return line_chart(
        [names.get(person, "?") for person in ranked],
        [lines[p] for p in ranked],
        label=str,
        size=CHART_SIZE,
    )


@dataclass(frozen=True)
class PersonFigures:
    """A person's figures over the circle's history."""

    leagues: tuple[tuple[str, LeagueRow, bool], ...]
    """Their line in each league they played, by the league's name, and whether its games
    score points (a race has none)."""
    bidding: BiddingRecord | None
    rubbers: Record | None
    chicagos: Record | None
    partners: tuple[tuple[str, str, Record], ...]
    """Their record with each partner, at rubber bridge or Chicago: kind, partner, record."""
    opponents: tuple[tuple[str, str, Record], ...]
    """Their record against each person they met: kind, opponent, record."""
    races: tuple[tuple[str, Record], ...]
    log: LogStatistics | None
    club: tuple[tuple[date, Fraction], ...]
    """Their percentage in each club session, in the order of the days."""
    club_partners: tuple[PartnerRecord, ...]


def person_figures(history: CircleHistory, person: str) -> PersonFigures:
    in_leagues = []
    for key, games in history.leagues().items():
        has_points = any(finish.points for game in games for finish in game.finishes)
        for row in league(games):
            if row.person == person:
                in_leagues.append((league_name(key), row, has_points))
    sheets = [(sheet, seats) for _game, sheet, seats in history.ascenseur if person in seats]
    bidding = bidding_record(sheets, person) if sheets else None
    partners: list[tuple[str, str, Record]] = []
    opponents: list[tuple[str, str, Record]] = []
    kinds: dict[str, Any] = {_("Rubber bridge"): history.rubbers, _("Chicago"): history.chicagos}
    for kind, games in kinds.items():
        for (first, second), record in partnerships(games).items():
            if person in (first, second):
                partners.append((kind, second if first == person else first, record))
        met = {
            someone
            for game in games
            for side, others, _mine, _theirs in game.sides()
            if person in side
            for someone in others
            if someone is not None
        }
        for other in sorted(met):
            opponents.append((kind, other, head_to_head(games, person, other)))
    raced = sorted(
        {p for game in history.races if person in game.players for p in game.players} - {person}
    )
    races = tuple((other, race_record(history.races, person, other)) for other in raced)
    log_games = history.logs.get(person)
    return PersonFigures(
        leagues=tuple(in_leagues),
        bidding=bidding,
        rubbers=bridge_records(history.rubbers).get(person),
        chicagos=bridge_records(history.chicagos).get(person),
        partners=tuple(partners),
        opponents=tuple(opponents),
        races=races,
        log=log_statistics(log_games) if log_games else None,
        club=percentages_over_time(history.club, person),
        club_partners=by_partner(history.club, person),
    )
