"""A circle's league and each person's bidding, against a count made independently over
generated seasons (hypothesis)."""

import re
from collections import Counter
from collections.abc import Callable
from datetime import date, timedelta
from fractions import Fraction
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.ascenseur import PRESETS, RoundEntry, plan_game, score_game
from scorekeeper.rules.history import (
    BidCount,
    Finish,
    LeagueRow,
    PairSession,
    PlayedGame,
    RaceGame,
    Record,
    Side,
    SidesGame,
    bidding_record,
    bridge_records,
    by_partner,
    handicaps,
    head_to_head,
    initials,
    league,
    name_key,
    pair_partners,
    partnerships,
    percentages_over_time,
    public_names,
    race_league_game,
    race_record,
    running_wins,
    sides_league_game,
)
from tests.rules.test_ascenseur_properties import draw_entry

PEOPLE = ("anne", "bruno", "chloe", "denis", "emma", "farid", "gael")
OPENING = date(2026, 9, 1)


def ranked(points: list[int]) -> list[int]:
    """Places counted by sorting: one plus the number of players strictly ahead."""
    ordered = sorted(points, reverse=True)
    return [ordered.index(mine) + 1 for mine in points]


@st.composite
def seasons(draw: st.DrawFn, games: int = 30) -> list[PlayedGame]:
    season = []
    for _ in range(games):
        people = draw(st.lists(st.sampled_from(PEOPLE), min_size=2, max_size=6, unique=True))
        points = [draw(st.integers(-60, 120)) for _ in people]
        day = OPENING + timedelta(days=draw(st.integers(0, 120)))
        finishes = zip(people, points, ranked(points), strict=True)
        season.append(PlayedGame(day, tuple(Finish(*finish) for finish in finishes)))
    return season


def counted_league(season: list[PlayedGame]) -> dict[str, tuple[int, int, Fraction, Fraction]]:
    """Each person's games, wins, average place and points per game, person by person."""
    counted = {}
    for person in PEOPLE:
        mine = [f for game in season for f in game.finishes if f.person == person]
        if mine:
            places = [f.place for f in mine]
            counted[person] = (
                len(mine),
                places.count(1),
                Fraction(sum(places)) / len(mine),
                Fraction(sum(f.points for f in mine)) / len(mine),
            )
    return counted


@settings(max_examples=60, deadline=None)
@given(seasons())
def test_the_league_of_a_season_is_the_count_of_each_persons_games(
    season: list[PlayedGame],
) -> None:
    rows = league(season)
    assert {
        row.person: (row.games, row.wins, row.average_place, row.points_per_game) for row in rows
    } == counted_league(season)
    for ahead, behind in pairwise(rows):
        assert ahead.wins >= behind.wins
        if ahead.wins == behind.wins:
            assert ahead.average_place <= behind.average_place
            if ahead.average_place == behind.average_place:
                assert ahead.points_per_game >= behind.points_per_game


@settings(max_examples=60, deadline=None)
@given(seasons(), st.integers(0, 120), st.integers(0, 120))
def test_a_period_counts_the_games_played_in_it_and_no_other(
    season: list[PlayedGame], start: int, length: int
) -> None:
    since = OPENING + timedelta(days=start)
    until = since + timedelta(days=length)
    inside = [game for game in season if since <= game.played_on <= until]
    assert league(season, since, until) == league(inside)
    assert league(season, since=since) == league(g for g in season if g.played_on >= since)


def test_a_shared_first_place_is_a_win_for_each() -> None:
    game = PlayedGame(
        OPENING, (Finish("anne", 30, 1), Finish("bruno", 30, 1), Finish("gael", 2, 3))
    )
    assert [(row.person, row.wins) for row in league([game])] == [
        ("anne", 1),
        ("bruno", 1),
        ("gael", 0),
    ]


@given(seasons(games=8))
def test_the_best_gives_no_handicap_and_fewer_points_never_a_smaller_one(
    season: list[PlayedGame],
) -> None:
    rows = league(season)
    given_back = handicaps(rows)
    best = max(rows, key=lambda row: row.points_per_game)
    assert given_back[best.person] == 0
    for one in rows:
        for other in rows:
            if one.points_per_game <= other.points_per_game:
                assert given_back[one.person] >= given_back[other.person]
        gap = (best.points_per_game - one.points_per_game) * Fraction(4, 5)
        assert abs(given_back[one.person] - gap) <= Fraction(1, 2)


def test_a_handicap_gives_back_four_fifths_of_the_gap_in_whole_points() -> None:
    rows = (
        LeagueRow("anne", 4, 2, Fraction(3, 2), Fraction(40)),
        LeagueRow("bruno", 4, 1, Fraction(2), Fraction(31)),
        LeagueRow("chloe", 4, 1, Fraction(5, 2), Fraction(77, 2)),  # 1.2 back
        LeagueRow("denis", 4, 0, Fraction(3), Fraction(71, 2)),  # 3.6 back
    )
    assert handicaps(rows) == {"anne": 0, "bruno": 7, "chloe": 1, "denis": 4}


AscenseurGame = tuple[tuple[str | None, ...], int, list[RoundEntry]]


@st.composite
def ascenseur_games(draw: st.DrawFn) -> AscenseurGame:
    players = draw(st.integers(3, 5))
    people = tuple(draw(st.permutations([*PEOPLE[:4], None, None]))[:players])
    first_dealer = draw(st.integers(0, players - 1))
    plans = plan_game(PRESETS["ascenseur"], players, first_dealer)
    played = draw(st.integers(1, len(plans)))
    return people, first_dealer, [draw_entry(draw, plan, players) for plan in plans[:played]]


@settings(max_examples=40, deadline=None)
@given(st.lists(ascenseur_games(), min_size=1, max_size=6), st.sampled_from(PEOPLE[:4]))
def test_a_persons_bidding_is_the_count_of_their_rounds(
    games: list[AscenseurGame], person: str
) -> None:
    variant = PRESETS["ascenseur"]
    sheets = []
    rounds = []  # (cards, turn, bid, tricks, dealt, forbidden) for each of their rounds, in order
    for people, first_dealer, entries in games:
        names = tuple(f"Seat {seat}" for seat in range(len(people)))
        sheets.append((score_game(variant, names, first_dealer, entries), people))
        if person not in people:
            continue
        seat = people.index(person)
        players = len(people)
        for number, entry in enumerate(entries, start=1):
            cards = variant_cards(players, number)
            dealer = (first_dealer + number - 1) % players
            turn = (seat - dealer - 1) % players + 1
            before = sum(entry.bids) - entry.bids[dealer]
            hooked = seat == dealer and 0 <= cards - before <= cards
            assert entry.tricks is not None
            rounds.append(
                (cards, turn, entry.bids[seat], entry.tricks[seat], seat == dealer, hooked)
            )
    record = bidding_record(sheets, person)

    def count(selected: list[tuple[int, int, int, int, bool, bool]]) -> BidCount:
        outcomes = Counter((bid > tricks) - (bid < tricks) for _, _, bid, tricks, _, _ in selected)
        return BidCount(made=outcomes[0], over=outcomes[1], under=outcomes[-1])

    assert record.overall == count(rounds)
    assert dict(record.by_cards) == {
        cards: count([r for r in rounds if r[0] == cards]) for cards in {r[0] for r in rounds}
    }
    assert dict(record.by_turn) == {
        turn: count([r for r in rounds if r[1] == turn]) for turn in {r[1] for r in rounds}
    }
    exact = "".join("x" if bid == tricks else "." for _, _, bid, tricks, _, _ in rounds)
    assert record.longest_streak == max(map(len, exact.split(".")))
    assert record.streak == len(exact.split(".")[-1])
    assert record.dealt == sum(r[4] for r in rounds)
    assert record.hooked == sum(r[5] for r in rounds)
    assert record.hooked_made == sum(r[5] and r[2] == r[3] for r in rounds)


def variant_cards(players: int, number: int) -> int:
    """The cards each player holds in round ``number`` of Ascenseur (RULES.md §1, preset
    ``ascenseur``): one more each round up to the top, 12 for four players, 10 for five, 15
    for fewer, played once, then one fewer each round down to one."""
    top = {4: 12, 5: 10}.get(players, 15)
    return [*range(1, top + 1), *range(top - 1, 0, -1)][number - 1]


def test_a_game_with_the_person_absent_counts_nothing() -> None:
    sheet = score_game(PRESETS["ascenseur"], ("A", "B", "C"), 0, [RoundEntry((1, 0, 1), (1, 0, 0))])
    record = bidding_record([(sheet, ("bruno", None, "chloe"))], "anne")
    assert record.overall == BidCount() and record.overall.made_share is None
    assert record.by_cards == () and record.streak == record.longest_streak == 0


@st.composite
def bridge_evenings(draw: st.DrawFn) -> list[SidesGame]:
    games = []
    for _ in range(draw(st.integers(0, 30))):
        seats = draw(st.permutations([*PEOPLE, None, None, None]))[:4]
        totals = draw(st.tuples(st.integers(0, 3000), st.integers(0, 3000)))
        day = OPENING + timedelta(days=draw(st.integers(0, 60)))
        games.append(SidesGame(day, (seats[0], seats[2]), (seats[1], seats[3]), *totals))
    return games


def won_lost_margin(outcomes: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    return (
        len(outcomes),
        sum(1 for mine, theirs in outcomes if mine > theirs),
        sum(1 for mine, theirs in outcomes if mine < theirs),
        sum(mine for mine, _ in outcomes) - sum(theirs for _, theirs in outcomes),
    )


def as_tuple(record: Record) -> tuple[int, int, int, int]:
    return record.played, record.won, record.lost, record.margin


def outcomes_of(
    games: list[SidesGame], on_side: Callable[[Side, Side], bool]
) -> list[tuple[int, int]]:
    """(our total, theirs) in every game where ``on_side(our side, their side)``, looking at
    North-South first, then East-West."""
    found = []
    for game in games:
        ns, ew = game.north_south_points, game.east_west_points
        if on_side(game.north_south, game.east_west):
            found.append((ns, ew))
        if on_side(game.east_west, game.north_south):
            found.append((ew, ns))
    return found


@settings(max_examples=60, deadline=None)
@given(bridge_evenings())
def test_each_person_and_partnership_record_is_the_count_of_their_rubbers(
    games: list[SidesGame],
) -> None:
    records = bridge_records(games)
    for person in PEOPLE:
        counted = won_lost_margin(outcomes_of(games, lambda ours, _, p=person: p in ours))
        assert as_tuple(records.get(person, Record())) == counted
    pairs = partnerships(games)
    for first in PEOPLE:
        for second in PEOPLE:
            if first < second:
                together = outcomes_of(
                    games, lambda ours, _, pair={first, second}: set(ours) == pair
                )
                assert as_tuple(pairs.get((first, second), Record())) == won_lost_margin(together)
    assert all(first < second for first, second in pairs)


@settings(max_examples=60, deadline=None)
@given(bridge_evenings(), st.sampled_from(PEOPLE), st.sampled_from(PEOPLE))
def test_head_to_head_counts_the_games_across_the_table(
    games: list[SidesGame], person: str, opponent: str
) -> None:
    against = outcomes_of(games, lambda ours, theirs: person in ours and opponent in theirs)
    mine = head_to_head(games, person, opponent)
    assert as_tuple(mine) == won_lost_margin(against)
    theirs = head_to_head(games, opponent, person)
    assert (theirs.played, theirs.won, theirs.lost, theirs.margin) == (
        mine.played,
        mine.lost,
        mine.won,
        -mine.margin,
    )


def test_a_chicago_with_equal_totals_is_drawn() -> None:
    game = SidesGame(OPENING, ("anne", "chloe"), ("bruno", "denis"), 620, 620)
    assert bridge_records([game])["anne"] == Record(played=1, won=0, lost=0, margin=0)
    assert partnerships([game])[("bruno", "denis")].margin_per_game == 0


@st.composite
def club_seasons(draw: st.DrawFn) -> list[PairSession]:
    sessions = []
    for _ in range(draw(st.integers(0, 30))):
        partners = tuple(draw(st.permutations([*PEOPLE, None]))[:2])
        percentage = Fraction(draw(st.integers(2000, 8000)), 100)
        day = OPENING + timedelta(days=7 * draw(st.integers(0, 20)))
        sessions.append(PairSession(day, (partners[0], partners[1]), percentage))
    return sessions


@settings(max_examples=60, deadline=None)
@given(club_seasons(), st.sampled_from(PEOPLE))
def test_a_persons_percentages_are_their_sessions_by_day_and_by_partner(
    sessions: list[PairSession], person: str
) -> None:
    mine = [s for s in sessions if person in s.partners]
    over_time = percentages_over_time(sessions, person)
    assert sorted(over_time) == sorted((s.played_on, s.percentage) for s in mine)
    assert [day for day, _ in over_time] == sorted(s.played_on for s in mine)
    records = by_partner(sessions, person)
    for record in records:
        together = [s.percentage for s in mine if record.partner in s.partners]
        assert record.sessions == len(together)
        assert record.average == sum(together) / len(together)
        assert record.best == max(together)
    partners = {p for s in mine for p in s.partners if p not in (person, None)}
    assert {record.partner for record in records} == partners
    assert [r.sessions for r in records] == sorted((r.sessions for r in records), reverse=True)


@given(
    st.lists(
        st.builds(
            RaceGame,
            st.just(OPENING),
            st.tuples(st.sampled_from(PEOPLE[:3]), st.sampled_from(PEOPLE[:3])),
            st.sampled_from((0, 1, None)),
        ),
        max_size=30,
    )
)
def test_a_race_record_counts_the_races_between_the_two(games: list[RaceGame]) -> None:
    anne_bruno = [g for g in games if sorted(g.players) == ["anne", "bruno"]]
    won_by_anne = sum(g.winner is not None and g.players[g.winner] == "anne" for g in anne_bruno)
    won_by_bruno = sum(g.winner is not None and g.players[g.winner] == "bruno" for g in anne_bruno)
    assert race_record(games, "anne", "bruno") == Record(len(anne_bruno), won_by_anne, won_by_bruno)
    assert race_record(games, "bruno", "anne") == Record(len(anne_bruno), won_by_bruno, won_by_anne)
    assert race_record(games, "anne", "anne") == Record()


names = st.text(st.sampled_from("AaBbÉéJjMm- "), min_size=1, max_size=14).filter(str.strip)


@given(st.lists(st.tuples(names, st.booleans()), max_size=12, unique_by=lambda p: name_key(p[0])))
def test_public_names_show_initials_for_who_chose_them_and_never_two_alike(
    people: list[tuple[str, bool]],
) -> None:
    shown = public_names(people)
    assert len({name_key(name) for name in shown}) == len(shown)
    for (name, shows), public in zip(people, shown, strict=True):
        if shows:
            assert public == name
        else:
            assert re.fullmatch(re.escape(initials(name) or "?") + r"( \d+)?", public)
            words = re.split(r"[\s-]+", name)
            assert not any(len(word) > 1 and word in public for word in words)


def test_the_same_name_written_twice_is_one_person() -> None:
    assert name_key("Anne") == name_key("anne ") == name_key(" ANNE")
    assert name_key("Anne Marie") == name_key("anne   marie")
    assert name_key("Anne-Marie") != name_key("Anne Marie")


@given(seasons(games=20))
def test_the_chart_of_wins_ends_where_the_league_s_wins_are(season: list[PlayedGame]) -> None:
    lines = running_wins(season)
    rows = {row.person: row for row in league(season)}
    assert set(lines) == set(rows)
    for person, line in lines.items():
        assert len(line) == len(season) + 1 and line[0] == 0
        assert line[-1] == rows[person].wins
        assert all(later - earlier in (0, 1) for earlier, later in pairwise(line))


@settings(max_examples=60, deadline=None)
@given(bridge_evenings())
def test_rubbers_in_a_league_win_as_their_records_do(games: list[SidesGame]) -> None:
    records = bridge_records(games)
    rows = {row.person: row for row in league(sides_league_game(game) for game in games)}
    for person, record in records.items():
        draws = record.played - record.won - record.lost
        assert rows[person].games == record.played
        assert rows[person].wins == record.won + draws  # a drawn rubber is first for both


@given(
    st.lists(
        st.builds(
            RaceGame,
            st.just(OPENING),
            st.tuples(st.sampled_from(PEOPLE[:2]), st.sampled_from(PEOPLE[2:4])),
            st.sampled_from((0, 1, None)),
        ),
        max_size=20,
    )
)
def test_races_in_a_league_win_as_their_records_do(games: list[RaceGame]) -> None:
    rows = {row.person: row for row in league(race_league_game(game) for game in games)}
    for person, row in rows.items():
        opponents = {p for g in games if person in g.players for p in g.players} - {person}
        records = [race_record(games, person, other) for other in opponents]
        won = sum(r.won for r in records)
        drawn = sum(r.played - r.won - r.lost for r in records)
        assert row.games == sum(r.played for r in records)
        assert row.wins == won + drawn
        assert row.points_per_game == 0


name_words = st.from_regex(r"[A-Za-zÉéï]+(-[A-Za-zÉéï]+)?", fullmatch=True).filter(
    lambda word: word not in ("et", "and")
)
plain_names = st.lists(name_words, min_size=1, max_size=3).map(" ".join)
"""A player's name as a director writes it: words, some hyphenated."""


@given(plain_names, plain_names, st.sampled_from((" – ", " & ", " / ", " et ", " and ")))
def test_a_pair_written_with_its_separator_reads_as_its_two_players(
    first: str, second: str, separator: str
) -> None:
    assert pair_partners(f" {first}{separator}{second} ") == (first, second)
    assert pair_partners(first) is None
