"""Échelons (RULES.md §3): the patience log's statistics against an independent count, and the
race's winner and tally, with examples and properties."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.echelons import (
    CARDS,
    EchelonsError,
    EchelonsRule,
    PatienceGame,
    Period,
    in_order_of_play,
    log_statistics,
    race_tally,
    race_winner,
    statistics_by_period,
)

DAY = date(2026, 11, 2)

games = st.lists(
    st.builds(
        PatienceGame,
        st.one_of(st.just(CARDS), st.integers(0, CARDS)),
        st.dates(date(2025, 1, 1), date(2027, 12, 31)),
        st.none() | st.integers(1, 600),
    ),
    max_size=60,
)


def test_a_game_is_won_when_all_52_cards_reach_the_foundations() -> None:
    assert PatienceGame(52, DAY).won and not PatienceGame(51, DAY).won


@pytest.mark.parametrize(
    ("arguments", "rule"),
    [
        ((53, DAY), EchelonsRule.CARDS_HOME),
        ((-1, DAY), EchelonsRule.CARDS_HOME),
        ((True, DAY), EchelonsRule.CARDS_HOME),
        ((10, "2026-11-02"), EchelonsRule.PLAYED_ON),
        ((10, DAY, 0), EchelonsRule.MINUTES),
    ],
)
def test_a_game_outside_the_rules_is_refused(arguments: tuple, rule: EchelonsRule) -> None:  # type: ignore[type-arg]
    with pytest.raises(EchelonsError) as raised:
        PatienceGame(*arguments)
    assert raised.value.rule is rule


def test_a_month_of_games_gives_its_streaks_best_and_average() -> None:
    cards = [52, 52, 40, 52, 52, 52, 17, 52]
    log = [PatienceGame(n, DAY + timedelta(days=i)) for i, n in enumerate(cards)]
    stats = log_statistics(log)
    assert (stats.games, stats.wins) == (8, 6)
    assert stats.win_rate == 0.75
    assert (stats.current_streak, stats.longest_streak) == (1, 3)
    assert stats.best_cards == 52 and stats.average_cards == sum(cards) / 8


def test_an_empty_log_says_nothing_is_played() -> None:
    stats = log_statistics([])
    assert (stats.games, stats.wins, stats.win_rate, stats.best_cards) == (0, 0, 0.0, 0)


def test_a_game_logged_late_counts_on_the_day_it_was_played() -> None:
    """RULES.md §4: streaks follow the days played, then the order logged within a day."""
    log = [
        PatienceGame(52, DAY),
        PatienceGame(52, DAY + timedelta(days=1)),
        PatienceGame(30, DAY + timedelta(days=2)),
        PatienceGame(52, DAY - timedelta(days=20)),  # last month's win, logged last
        PatienceGame(12, DAY + timedelta(days=1)),  # logged after that day's win
    ]
    stats = log_statistics(log)
    assert (stats.current_streak, stats.longest_streak) == (0, 3)
    assert [game.cards_home for game in in_order_of_play(log)] == [52, 52, 52, 12, 30]


@given(games)
def test_the_statistics_match_an_independent_count(log: list[PatienceGame]) -> None:
    stats = log_statistics(log)
    by_day: dict[date, str] = {}
    for game in log:
        by_day[game.played_on] = by_day.get(game.played_on, "") + ("W" if game.won else "L")
    outcomes = "".join(by_day[day] for day in sorted(by_day))
    assert stats.wins == outcomes.count("W")
    assert stats.longest_streak == max((len(run) for run in outcomes.split("L")), default=0)
    assert stats.current_streak == len(outcomes) - len(outcomes.rstrip("W"))
    assert 0 <= stats.win_rate <= 1
    if log:
        assert stats.win_rate == pytest.approx(stats.wins / len(log))
        assert stats.best_cards == max(game.cards_home for game in log)
        assert stats.average_cards == pytest.approx(sum(g.cards_home for g in log) / len(log))


@given(games, st.sampled_from(Period))
def test_periods_share_out_the_log(log: list[PatienceGame], period: Period) -> None:
    periods = statistics_by_period(log, period)
    assert sum(p.statistics.games for p in periods) == len(log)
    assert sum(p.statistics.wins for p in periods) == log_statistics(log).wins
    assert [p.start for p in periods] == sorted({period.start(g.played_on) for g in log})
    for entry in periods:
        if period is Period.WEEK:
            assert entry.start.weekday() == 0
        else:
            assert entry.start.day == 1


def test_a_race_is_won_by_the_first_to_finish_or_with_fewer_cards_left() -> None:
    assert race_winner(0, 9) == 0 and race_winner(9, 0) == 1
    assert race_winner(7, 3) == 1 and race_winner(5, 5) is None


def test_both_players_cannot_finish_first() -> None:
    with pytest.raises(EchelonsError) as raised:
        race_winner(0, 0)
    assert raised.value.rule is EchelonsRule.BOTH_FINISHED


@pytest.mark.parametrize("left", [-1, 53, 2.5, None, True])
def test_cards_left_outside_the_deck_are_refused(left: object) -> None:
    with pytest.raises(EchelonsError):
        race_winner(left, 3)  # type: ignore[arg-type]


@given(st.lists(st.tuples(st.integers(0, 52), st.integers(0, 52)).filter(lambda p: p != (0, 0))))
def test_the_tally_counts_every_game_once(match: list[tuple[int, int]]) -> None:
    winners = [race_winner(a, b) for a, b in match]
    wins_a, wins_b, draws = race_tally(winners)
    assert wins_a + wins_b + draws == len(match)
    assert wins_a == sum(1 for a, b in match if a < b)
    assert draws == sum(1 for a, b in match if a == b)


def test_a_tally_of_something_else_is_refused() -> None:
    with pytest.raises(EchelonsError):
        race_tally([0, 2])
