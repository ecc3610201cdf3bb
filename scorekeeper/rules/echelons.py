"""Échelons (Klondike patience): the player's log and the two-player race (RULES.md §3).

A game of patience is won when all 52 cards reach the foundations; otherwise it counts the
cards that did. The log tells whether the player is getting better: games, wins, the win rate,
streaks, the best and the average, over the whole log and week by week or month by month. In a
race each player plays their own deck; the first to place every card wins, and when neither
can, the one with fewer cards left (stock and tableau). The log is read in the order the games
were played: by their day, and in the order logged within a day (RULES.md §4, "Échelons
streaks"), so a game logged late for an earlier day takes its place in the history.

>>> from datetime import date
>>> log = [PatienceGame(52, date(2026, 11, 2)), PatienceGame(31, date(2026, 11, 3)),
...        PatienceGame(52, date(2026, 11, 4)), PatienceGame(52, date(2026, 11, 5))]
>>> stats = log_statistics(log)
>>> stats.wins, stats.win_rate, stats.current_streak, stats.longest_streak, stats.average_cards
(3, 0.75, 2, 2, 46.75)
>>> race_winner(0, 7), race_winner(12, 5), race_winner(4, 4)
(0, 1, None)
>>> race_tally([0, 1, 0, None])
(2, 1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum
from typing import TypeGuard

from scorekeeper.rules.common import Rule, RuleError

__all__ = [
    "CARDS",
    "EchelonsError",
    "EchelonsRule",
    "LogStatistics",
    "PatienceGame",
    "Period",
    "PeriodStatistics",
    "in_order_of_play",
    "log_statistics",
    "race_tally",
    "race_winner",
    "statistics_by_period",
]

CARDS = 52
"""The cards of the deck, all of which reach the foundations in a game won."""


class EchelonsRule(Rule):
    """The rules of Échelons an entry can break (see :class:`RuleError`)."""

    CARDS_HOME = "cards-home"
    CARDS_LEFT = "cards-left"
    BOTH_FINISHED = "both-finished"
    MINUTES = "minutes"
    PLAYED_ON = "played-on"
    WINNER = "winner"

    @property
    def english(self) -> str:
        return _ENGLISH[self]


_ENGLISH = {
    EchelonsRule.CARDS_HOME: "The cards on the foundations are from 0 to 52, not {value!r}.",
    EchelonsRule.CARDS_LEFT: "The cards left are from 0 to 52, not {value!r}.",
    EchelonsRule.BOTH_FINISHED: "Only one player of a race can be first to place every card.",
    EchelonsRule.MINUTES: "The time taken is a whole number of minutes from 1, not {value!r}.",
    EchelonsRule.PLAYED_ON: "The day a game was played is a date, not {value!r}.",
    EchelonsRule.WINNER: "A race's winner is player 0, player 1 or nobody, not {value!r}.",
}


class EchelonsError(RuleError):
    """An entry of the log or of a race that Échelons does not allow."""


def _is_whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class PatienceGame:
    """One game of patience: the cards that reached the foundations (52 is a win), the day it
    was played, and the minutes it took if they were noted.

    >>> PatienceGame(52, date(2026, 11, 23)).won
    True
    """

    cards_home: int
    played_on: date
    minutes: int | None = None

    def __post_init__(self) -> None:
        if not _is_whole(self.cards_home) or not 0 <= self.cards_home <= CARDS:
            raise EchelonsError(EchelonsRule.CARDS_HOME, value=self.cards_home)
        if not isinstance(self.played_on, date):
            raise EchelonsError(EchelonsRule.PLAYED_ON, value=self.played_on)
        if self.minutes is not None and (not _is_whole(self.minutes) or self.minutes < 1):
            raise EchelonsError(EchelonsRule.MINUTES, value=self.minutes)

    @property
    def won(self) -> bool:
        """Whether every card reached the foundations."""
        return self.cards_home == CARDS


def in_order_of_play(games: Iterable[PatienceGame]) -> list[PatienceGame]:
    """The games in the order they were played (RULES.md §4, "Échelons streaks"): by their day;
    games of the same day in the order given, the order they were logged. (The rule orders a
    day's games by their time first: a game's time is not asked for, so the order logged
    stands for it.)

    >>> late = PatienceGame(31, date(2026, 10, 28))
    >>> [g.played_on.day for g in in_order_of_play([PatienceGame(52, date(2026, 11, 2)), late])]
    [28, 2]
    """
    return sorted(games, key=lambda game: game.played_on)


@dataclass(frozen=True, slots=True)
class LogStatistics:
    """What a log of games says, read in the order they were played."""

    games: int
    wins: int
    win_rate: float
    """Wins over games, from 0 to 1 (0 for an empty log)."""
    current_streak: int
    """Wins in a row ending with the last game played."""
    longest_streak: int
    best_cards: int
    """The most cards that reached the foundations in one game (0 for an empty log)."""
    average_cards: float
    """The cards that reached the foundations, on average (0 for an empty log)."""


def log_statistics(games: Iterable[PatienceGame]) -> LogStatistics:
    """The log's statistics, its games taken in the order they were played
    (:func:`in_order_of_play`): a loss logged late for an earlier day ends the streak it
    interrupted, not the current one.

    >>> won = [PatienceGame(52, date(2026, 11, day)) for day in (20, 21, 22)]
    >>> stats = log_statistics([*won, PatienceGame(12, date(2026, 11, 21))])
    >>> stats.current_streak, stats.longest_streak
    (1, 2)
    >>> log_statistics([]).win_rate
    0.0
    """
    played = in_order_of_play(games)
    streak = longest = 0
    for game in played:
        streak = streak + 1 if game.won else 0
        longest = max(longest, streak)
    wins = sum(1 for game in played if game.won)
    cards = [game.cards_home for game in played]
    return LogStatistics(
        games=len(played),
        wins=wins,
        win_rate=wins / len(played) if played else 0.0,
        current_streak=streak,
        longest_streak=longest,
        best_cards=max(cards, default=0),
        average_cards=sum(cards) / len(cards) if cards else 0.0,
    )


class Period(StrEnum):
    """A span of the log's chart."""

    WEEK = "week"
    """Monday to Sunday."""
    MONTH = "month"
    """A calendar month."""

    def start(self, day: date) -> date:
        """The first day of the period ``day`` falls in.

        >>> Period.WEEK.start(date(2026, 11, 26)), Period.MONTH.start(date(2026, 11, 26))
        (datetime.date(2026, 11, 23), datetime.date(2026, 11, 1))
        """
        if self is Period.WEEK:
            return day - timedelta(days=day.weekday())
        return day.replace(day=1)


@dataclass(frozen=True, slots=True)
class PeriodStatistics:
    """The statistics of the games played in one week or month."""

    start: date
    statistics: LogStatistics


def statistics_by_period(
    games: Iterable[PatienceGame], period: Period
) -> tuple[PeriodStatistics, ...]:
    """The log cut into weeks or months, each with its own statistics (streaks inside the
    period), in order; periods without a game are left out.

    >>> [(p.start.isoformat(), p.statistics.wins) for p in statistics_by_period(
    ...     [PatienceGame(52, date(2026, 10, 30)), PatienceGame(52, date(2026, 11, 2))],
    ...     Period.MONTH)]
    [('2026-10-01', 1), ('2026-11-01', 1)]
    """
    by_start: dict[date, list[PatienceGame]] = {}
    for game in games:
        by_start.setdefault(period.start(game.played_on), []).append(game)
    return tuple(
        PeriodStatistics(start, log_statistics(by_start[start])) for start in sorted(by_start)
    )


def race_winner(left_a: int, left_b: int) -> int | None:
    """The winner of a race game (RULES.md §3): the player with fewer cards left in stock and
    tableau (0 for the one who placed every card), as 0 or 1; ``None`` for a draw. Both
    players at 0 cannot be: only one is first to finish.

    >>> try:
    ...     race_winner(0, 0)
    ... except EchelonsError as error:
    ...     error.rule
    <EchelonsRule.BOTH_FINISHED: 'both-finished'>
    """
    for left in (left_a, left_b):
        if not _is_whole(left) or not 0 <= left <= CARDS:
            raise EchelonsError(EchelonsRule.CARDS_LEFT, value=left)
    if left_a == left_b == 0:
        raise EchelonsError(EchelonsRule.BOTH_FINISHED)
    if left_a == left_b:
        return None
    return 0 if left_a < left_b else 1


def race_tally(winners: Sequence[int | None]) -> tuple[int, int, int]:
    """A race match's tally from its games' winners (:func:`race_winner`): the wins of player
    0, those of player 1, and the draws."""
    for winner in winners:
        if winner not in (0, 1, None) or isinstance(winner, bool):
            raise EchelonsError(EchelonsRule.WINNER, value=winner)
    return (
        sum(1 for winner in winners if winner == 0),
        sum(1 for winner in winners if winner == 1),
        sum(1 for winner in winners if winner is None),
    )
