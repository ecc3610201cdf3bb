"""A club's season: the handicapped ranking and the ladder, against counts made independently
over generated seasons of sessions (hypothesis)."""

from collections import defaultdict
from datetime import date, timedelta
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.history import (
    HandicapRule,
    LadderRule,
    PairSession,
    SeasonResult,
    Side,
    handicapped_ranking,
    ladder,
    pair_handicap,
    player_handicaps,
)

MEMBERS = tuple(f"member{number}" for number in range(9))
OPENING = date(2026, 9, 1)

Session = tuple[date, list[tuple[str, Side, Fraction]]]
"""A session as the test draws it: its day, and each pair's key, players and percentage."""


@st.composite
def sessions(draw: st.DrawFn) -> list[Session]:
    season = []
    for number in range(draw(st.integers(1, 12))):
        day = OPENING + timedelta(days=7 * number + draw(st.integers(0, 2)))
        players = draw(st.lists(st.sampled_from(MEMBERS), min_size=2, max_size=8, unique=True))
        guests = draw(st.integers(0, 1))
        seats: list[str | None] = [*players, *([None] * guests)]
        if len(seats) % 2:
            seats.append(None)
        pairs = []
        for index in range(0, len(seats), 2):
            # Percentages in quarters of a point, so that ties happen as at a real club.
            figure = Fraction(draw(st.integers(120, 280)), 4)
            pairs.append((str(index // 2 + 1), (seats[index], seats[index + 1]), figure))
        season.append((day, pairs))
    return season


def pair_sessions(season: list[Session]) -> list[PairSession]:
    return [
        PairSession(day, partners, figure) for day, pairs in season for _, partners, figure in pairs
    ]


handicap_rules = st.builds(
    HandicapRule,
    sessions=st.integers(1, 12),
    share=st.sampled_from([Fraction(1, 2), Fraction(1, 3), Fraction(1)]),
    cap=st.sampled_from([Fraction(3), Fraction(5), Fraction(10)]),
    at_least=st.integers(1, 4),
)


def counted_handicap(season: list[Session], person: str, rule: HandicapRule, day: date) -> Fraction:
    """Walks the season day by day (a day's sessions as drawn), keeping the person's figures
    from before ``day``, then takes the rule's last sessions."""
    figures = []
    for when in sorted({when for when, _ in season}):
        if when >= day:
            break
        for session_day, pairs in season:
            if session_day == when:
                figures.extend(figure for _, partners, figure in pairs if person in partners)
    if len(figures) < rule.at_least:
        return Fraction(0)
    last = figures[len(figures) - rule.sessions :] if len(figures) > rule.sessions else figures
    if not last:
        return Fraction(0)
    gap = rule.share * (Fraction(50) - Fraction(sum(last), len(last)))
    return sorted([-rule.cap, gap, rule.cap])[1]


@settings(max_examples=200, deadline=None)
@given(season=sessions(), rule=handicap_rules)
def test_each_sessions_handicapped_ranking_agrees_with_a_count_of_the_results_before_it(
    season: list[Session], rule: HandicapRule
) -> None:
    history = pair_sessions(season)
    for day, pairs in season:
        handicaps = player_handicaps(history, rule, before=day)
        ranked = handicapped_ranking(pairs, handicaps)
        expected = {}
        for key, (first, second), figure in pairs:
            mine = [
                counted_handicap(season, p, rule, day) if p else Fraction(0)
                for p in (first, second)
            ]
            expected[key] = (figure, (mine[0] + mine[1]) / 2)
        assert {line.pair: (line.percentage, line.handicap) for line in ranked} == expected
        totals = [figure + handicap for figure, handicap in expected.values()]
        for line in ranked:
            assert line.handicapped == line.percentage + line.handicap
            assert line.place == 1 + len([t for t in totals if t > line.handicapped])
            assert line.tied == (totals.count(line.handicapped) > 1)
            assert abs(line.handicap) <= rule.cap
        assert [line.handicapped for line in ranked] == sorted(totals, reverse=True)


def test_a_handicap_leaves_out_the_session_it_is_played_with_and_a_guest_counts_nothing() -> None:
    history = [
        PairSession(OPENING, ("anne", "bruno"), Fraction(62)),
        PairSession(OPENING + timedelta(days=7), ("anne", None), Fraction(40)),
    ]
    rule = HandicapRule(sessions=10, share=Fraction(1, 2), cap=Fraction(5))
    assert player_handicaps(history, rule, before=OPENING + timedelta(days=7)) == {
        "anne": Fraction(-5),
        "bruno": Fraction(-5),
    }
    assert player_handicaps(history, rule) == {"anne": Fraction(-1, 2), "bruno": Fraction(-5)}
    assert pair_handicap(("anne", None), {"anne": Fraction(-1, 2)}) == Fraction(-1, 4)
    at_least_two = HandicapRule(at_least=2)
    assert player_handicaps(history, at_least_two) == {"anne": Fraction(-1, 2), "bruno": 0}


ladder_rules = st.builds(
    LadderRule,
    best=st.one_of(st.none(), st.integers(1, 8)),
    points=st.one_of(st.none(), st.lists(st.integers(0, 20), min_size=1, max_size=8).map(tuple)),
)


def season_results(season: list[Session]) -> list[SeasonResult]:
    """Each member's result in each session, placed as the session's ranking places pairs."""
    results = []
    for day, pairs in season:
        figures = [figure for _, _, figure in pairs]
        for _, partners, figure in pairs:
            place = 1 + sum(other > figure for other in figures)
            for person in partners:
                if person is not None:
                    results.append(SeasonResult(day, person, figure, place, figures.count(figure)))
    return results


def counted_ladder(season: list[Session], rule: LadderRule) -> dict[str, Fraction]:
    """Each session's pairs set out in order, one position each; a run of pairs level shares
    the points of its positions; each member's scores sorted, the best ones added."""
    scores: dict[str, list[Fraction]] = defaultdict(list)
    for _, pairs in season:
        ordered = sorted(pairs, key=lambda pair: pair[2], reverse=True)
        position = 0
        while position < len(ordered):
            run = [pair for pair in ordered if pair[2] == ordered[position][2]]
            points = rule.points or ()
            positions = range(position, position + len(run))
            share = Fraction(sum(points[p] if p < len(points) else 0 for p in positions), len(run))
            for _, partners, figure in run:
                for person in partners:
                    if person is not None:
                        scores[person].append(figure if rule.points is None else share)
            position += len(run)
    return {
        person: sum(sorted(mine, reverse=True)[: rule.best] if rule.best else mine, Fraction(0))
        for person, mine in scores.items()
    }


@settings(max_examples=300, deadline=None)
@given(season=sessions(), rule=ladder_rules)
def test_the_ladder_agrees_with_a_count_of_each_members_best_results(
    season: list[Session], rule: LadderRule
) -> None:
    rows = ladder(season_results(season), rule)
    expected = counted_ladder(season, rule)
    assert {row.person: row.score for row in rows} == expected
    for row in rows:
        assert row.place == 1 + len([s for s in expected.values() if s > row.score])
        assert len(row.counted) == (row.played if rule.best is None else min(rule.best, row.played))
    assert [row.score for row in rows] == sorted(expected.values(), reverse=True)


@settings(max_examples=200, deadline=None)
@given(season=sessions(), points=st.lists(st.integers(0, 20), min_size=1, max_size=8))
def test_a_sessions_points_are_all_given_however_its_pairs_tie(
    season: list[Session], points: list[int]
) -> None:
    """Pairs level share their places' points: a session's pairs get, between them, the points
    of as many places as there are pairs."""
    rule = LadderRule(points=tuple(points))
    for day, pairs in season:
        figures = [figure for _, _, figure in pairs]
        shares = [
            rule.result_score(
                SeasonResult(
                    day, key, figure, 1 + sum(f > figure for f in figures), figures.count(figure)
                )
            )
            for key, _, figure in pairs
        ]
        assert sum(shares, Fraction(0)) == sum(points[: len(pairs)])
