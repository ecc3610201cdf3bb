"""What a circle's pages show of its history: the league of a chosen game over a period, with
its handicaps and its chart, and each person's figures. Everything is counted by
:mod:`scorekeeper.rules.history`; here it is only gathered for a page."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from scorekeeper.chart import Chart, line_chart
from scorekeeper.circles.history import CircleHistory, League
from scorekeeper.games.registry import Family
from scorekeeper.rules.history import (
    LeagueRow,
    PlayedGame,
    handicaps,
    in_period,
    league,
    name_order,
    running_wins,
)

CHART_SIZE = (340, 220, 36)
"""The league's chart fits a phone's width: its ticks are a few wins, not a game's totals."""


def league_choices(leagues: dict[str, League]) -> list[tuple[str, str]]:
    return [(key, league.name) for key, league in leagues.items()]


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


def standing(row: LeagueRow) -> tuple[int, Fraction, Fraction]:
    """What a league ranks on: wins, then the better average place, then points per game."""
    return (-row.wins, row.average_place, -row.points_per_game)


def league_in_order(
    games: list[PlayedGame], since: date | None, until: date | None, names: dict[str, str]
) -> tuple[LeagueRow, ...]:
    """The league over the period, people level in the order of the names shown."""
    rows = league(games, since, until)
    return tuple(
        sorted(rows, key=lambda row: (standing(row), name_order(names.get(row.person, ""))))
    )


def league_table(
    games: list[PlayedGame], since: date | None, until: date | None, names: dict[str, str]
) -> LeagueTable:
    """The league over the period, with each person's handicap."""
    rows = league_in_order(games, since, until, names)
    played = sum(1 for game in games if in_period(game, since, until))
    has_points = any(finish.points for game in games for finish in game.finishes)
    places = tuple(1 + sum(standing(other) < standing(row) for other in rows) for row in rows)
    return LeagueTable(rows, places, handicaps(rows), played, has_points)


def wins_chart(
    games: list[PlayedGame], since: date | None, until: date | None, names: dict[str, str]
) -> Chart | None:
    """The league's chart over time: each person's wins so far, game after game, in the
    league's order (the leader first)."""
    lines = running_wins(games, since, until)
    ranked = [row.person for row in league_in_order(games, since, until, names)]
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
    """A person's figures over the circle's history: their line in each league they played,
    and what each family counts of their games."""

    leagues: tuple[tuple[str, LeagueRow, bool], ...]
    """Their line in each league they played, by the league's name, and whether its games
    score points (a race has none)."""
    families: tuple[tuple[Family, Any], ...]
    """What each family counts of their games (``Family.in_circles.figures``)."""

    def sections(self) -> list[tuple[str, Any]]:
        """Each family's figures with the template that shows them on the person's page."""
        return [
            (family.in_circles.figures_template, figures)
            for family, figures in self.families
            if family.in_circles is not None
        ]

    def as_file(self) -> dict[str, Any]:
        """The figures as the person's history file holds them, each family's by its key."""
        return {"leagues": self.leagues, **{family.key: f for family, f in self.families}}


def person_figures(history: CircleHistory, person: str) -> PersonFigures:
    in_leagues = []
    for played in history.leagues().values():
        has_points = any(finish.points for game in played.games for finish in game.finishes)
        for row in league(played.games):
            if row.person == person:
                in_leagues.append((played.name, row, has_points))
    return PersonFigures(tuple(in_leagues), tuple(history.figures(person)))
