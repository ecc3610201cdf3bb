"""A circle's people and history.

Its people: when two names are one person, and the names its public pages show (initials for
who chose them). Its history, derived from the games the circle played as the tables entered
them: the league over a period and its handicap; how each person bids at Ascenseur; each
person's, partnership's and head-to-head record at rubber bridge and Chicago; a person's club
percentages over time and with each partner; the Échelons races between two people.

Nothing here is stored: a person's record is counted again from the games each time, so a game
corrected, taken out of the history or put back changes it at once. A person is the circle's
key for them, not the name on a seat, which stays as it was at the table.

>>> from datetime import date
>>> season = [
...     PlayedGame(date(2026, 9, 6), (Finish("anne", 42, 1), Finish("bruno", 30, 2))),
...     PlayedGame(date(2026, 9, 13), (Finish("anne", 18, 2), Finish("bruno", 25, 1))),
...     PlayedGame(date(2026, 9, 20), (Finish("anne", 33, 1), Finish("bruno", 33, 1))),
... ]
>>> [(row.person, row.games, row.wins, str(row.average_place)) for row in league(season)]
[('anne', 3, 2, '4/3'), ('bruno', 3, 2, '4/3')]
>>> [row.person for row in league(season, until=date(2026, 9, 13))]
['anne', 'bruno']
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from scorekeeper.rules.ascenseur import GameSheet

# --- People -----------------------------------------------------------------------------------


def name_key(name: str) -> str:
    """What two names of one circle must differ in to be two people: letter case and the
    spaces around and between words do not count, so "Anne" and "anne " are one person.

    >>> name_key("  Anne  Marie ") == name_key("anne marie")
    True
    """
    return " ".join(name.split()).casefold()


def name_order(name: str) -> str:
    """Where a name comes in a list whose lines nothing else tells apart (people level in a
    league or a ladder): as in a dictionary, letter case and accents do not count.

    >>> sorted(["fanny", "Émile", "Denis", "emile"], key=name_order)
    ['Denis', 'Émile', 'emile', 'fanny']
    """
    spelled = unicodedata.normalize("NFD", name_key(name))
    return "".join(letter for letter in spelled if not unicodedata.combining(letter))


def initials(name: str) -> str:
    """A name as its initials, for a person who chose not to show their name on the circle's
    public pages: the first letter of each word, and of each part of a hyphenated word.

    >>> initials("Anne"), initials("jean-pierre  Dupont"), initials("Élodie de la Tour")
    ('A.', 'J.-P. D.', 'É. D. L. T.')
    >>> initials("- Anne")
    'A.'
    """
    words = (
        "-".join(f"{part[:1].upper()}." for part in w.split("-") if part) for w in name.split()
    )
    return " ".join(word for word in words if word)


def public_names(people: Sequence[tuple[str, bool]]) -> tuple[str, ...]:
    """The names the circle's public pages show, for its people in the order they joined it:
    each person's own name where they chose to show it, else their initials; initials that
    another person's public name already shows are numbered (2, 3, ...), so that two people
    never look like one, nor a hidden name like a shown one.

    >>> public_names([("Anne Martin", True), ("Alain Moreau", False), ("Anne Morel", False)])
    ('Anne Martin', 'A. M.', 'A. M. 2')
    """
    shown: list[str] = []
    taken = {name_key(name) for name, shows in people if shows}
    for name, shows in people:
        if shows:
            shown.append(name)
            continue
        base = initials(name) or "?"
        public, number = base, 1
        while name_key(public) in taken:
            number += 1
            public = f"{base} {number}"
        taken.add(name_key(public))
        shown.append(public)
    return tuple(shown)


# --- The league -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finish:
    """How one person ended one game: their points and their place (1 the best; equal
    results share a place, as every family's sheet ranks them)."""

    person: str
    points: int
    place: int


@dataclass(frozen=True)
class PlayedGame:
    """A game the circle played to its end, on the day it was played. A league is drawn over
    games whose points compare: those of one family (one scoring)."""

    played_on: date
    finishes: tuple[Finish, ...]


@dataclass(frozen=True)
class LeagueRow:
    """One person's line in the league over a period."""

    person: str
    games: int
    wins: int
    """First places, shared or not: two players level at the top both won."""
    average_place: Fraction
    points_per_game: Fraction


def league(
    games: Iterable[PlayedGame], since: date | None = None, until: date | None = None
) -> tuple[LeagueRow, ...]:
    """The league over the games played from ``since`` to ``until`` (both days counted;
    either open): each person who played, with their games, wins, average place and points
    per game. Ranked by wins, then the better average place, then more points per game; people
    level on all three follow their keys' order.
    """
    played: dict[str, list[Finish]] = defaultdict(list)
    for game in games:
        if in_period(game, since, until):
            for finish in game.finishes:
                played[finish.person].append(finish)
    rows = [
        LeagueRow(
            person=person,
            games=len(finishes),
            wins=sum(finish.place == 1 for finish in finishes),
            average_place=Fraction(sum(finish.place for finish in finishes), len(finishes)),
            points_per_game=Fraction(sum(finish.points for finish in finishes), len(finishes)),
        )
        for person, finishes in played.items()
    ]
    return tuple(
        sorted(rows, key=lambda r: (-r.wins, r.average_place, -r.points_per_game, r.person))
    )


def in_period(game: PlayedGame, since: date | None, until: date | None) -> bool:
    """Whether the game was played from ``since`` to ``until`` (both days counted)."""
    return (since is None or game.played_on >= since) and (until is None or game.played_on <= until)


def running_wins(
    games: Iterable[PlayedGame], since: date | None = None, until: date | None = None
) -> dict[str, tuple[int, ...]]:
    """Each person's wins so far after each game of the period, in the order given (the order
    played): the league's chart over time. A person's line starts at 0 before the first game.

    >>> season = [
    ...     PlayedGame(date(2026, 9, 6), (Finish("anne", 42, 1), Finish("bruno", 30, 2))),
    ...     PlayedGame(date(2026, 9, 13), (Finish("anne", 18, 2), Finish("chloé", 25, 1))),
    ... ]
    >>> running_wins(season)
    {'anne': (0, 1, 1), 'bruno': (0, 0, 0), 'chloé': (0, 0, 1)}
    """
    chosen = [game for game in games if in_period(game, since, until)]
    people = sorted({finish.person for game in chosen for finish in game.finishes})
    wins = dict.fromkeys(people, 0)
    lines: dict[str, list[int]] = {person: [0] for person in people}
    for game in chosen:
        for finish in game.finishes:
            wins[finish.person] += finish.place == 1
        for person in people:
            lines[person].append(wins[person])
    return {person: tuple(line) for person, line in lines.items()}


HANDICAP_SHARE = Fraction(4, 5)
"""The share of the gap to the league's best that a handicap gives back."""


def handicaps(rows: Sequence[LeagueRow], share: Fraction = HANDICAP_SHARE) -> dict[str, int]:
    """The points each person starts a game with, in a league that plays with a handicap:
    ``share`` of the gap between the league's best points per game and their own, in whole
    points (a half rounded up); the best starts from 0.

    >>> rows = (LeagueRow("anne", 4, 2, Fraction(3, 2), Fraction(40)),
    ...         LeagueRow("bruno", 4, 1, Fraction(2), Fraction(31)))
    >>> handicaps(rows)
    {'anne': 0, 'bruno': 7}
    """
    if not rows:
        return {}
    best = max(row.points_per_game for row in rows)
    return {row.person: _half_up((best - row.points_per_game) * share) for row in rows}


def _half_up(value: Fraction) -> int:
    return int((value + Fraction(1, 2)) // 1)


# --- Ascenseur: how a person bids -------------------------------------------------------------


@dataclass(frozen=True)
class BidCount:
    """Bids made exactly, and missed by bidding over or under the tricks taken."""

    made: int = 0
    over: int = 0
    """Bid more tricks than taken."""
    under: int = 0
    """Bid fewer tricks than taken."""

    @property
    def rounds(self) -> int:
        return self.made + self.over + self.under

    @property
    def made_share(self) -> Fraction | None:
        """The share of contracts made; None before any round."""
        return Fraction(self.made, self.rounds) if self.rounds else None

    def counted(self, bid: int, tricks: int) -> BidCount:
        return BidCount(
            self.made + (bid == tricks), self.over + (bid > tricks), self.under + (bid < tricks)
        )


@dataclass(frozen=True)
class BiddingRecord:
    """How a person bid over the Ascenseur games they played (rounds whose tricks are in)."""

    overall: BidCount
    by_cards: tuple[tuple[int, BidCount], ...]
    """By the cards each player held, fewest first."""
    by_turn: tuple[tuple[int, BidCount], ...]
    """By their turn in the bidding: 1 bids first, the last is the dealer's."""
    longest_streak: int
    """The most bids made exactly in a row, from one game to the next in the order played."""
    streak: int
    """Bids made exactly in a row up to their last round."""
    dealt: int
    """Rounds they dealt."""
    hooked: int
    """Rounds they dealt where the hook forbade them a bid (RULES.md §1)."""
    hooked_made: int
    """Of those, the rounds where they made the bid they were left with."""


def bidding_record(
    games: Iterable[tuple[GameSheet, Sequence[str | None]]], person: str
) -> BiddingRecord:
    """``person``'s bidding over ``games`` in the order they were played: each game's sheet
    with the person at each of its seats (None for a seat that names nobody of the circle).
    """
    overall = BidCount()
    by_cards: dict[int, BidCount] = {}
    by_turn: dict[int, BidCount] = {}
    longest = streak = dealt = hooked = hooked_made = 0
    for sheet, people in games:
        seats = [seat for seat, someone in enumerate(people) if someone == person]
        for scored in sheet.rounds:
            if not scored.is_played:
                continue
            plan = scored.plan
            for seat in seats:
                result = scored.results[seat]
                assert result.tricks is not None  # the round is played
                bid, tricks = result.bid, result.tricks
                turn = plan.bidding_order.index(seat) + 1
                overall = overall.counted(bid, tricks)
                by_cards[plan.cards] = by_cards.get(plan.cards, BidCount()).counted(bid, tricks)
                by_turn[turn] = by_turn.get(turn, BidCount()).counted(bid, tricks)
                streak = streak + 1 if bid == tricks else 0
                longest = max(longest, streak)
                if seat == plan.dealer:
                    dealt += 1
                    others = [scored.results[s].bid for s in plan.bidding_order[:-1]]
                    if plan.forbidden_bid(others) is not None:
                        hooked += 1
                        hooked_made += bid == tricks
    return BiddingRecord(
        overall=overall,
        by_cards=tuple(sorted(by_cards.items())),
        by_turn=tuple(sorted(by_turn.items())),
        longest_streak=longest,
        streak=streak,
        dealt=dealt,
        hooked=hooked,
        hooked_made=hooked_made,
    )


# --- Bridge at home: rubbers, Chicago, partnerships -------------------------------------------


Side = tuple[str | None, str | None]
"""Two partners, the circle's people (None for a seat that names nobody of the circle)."""


@dataclass(frozen=True)
class SidesGame:
    """A rubber or a Chicago played to its end: who sat North-South and East-West, and each
    side's total (RULES.md §2). The larger total wins, as :attr:`.bridge.Rubber.winner` has
    it (Law 74); equal totals are a draw."""

    played_on: date
    north_south: Side
    east_west: Side
    north_south_points: int
    east_west_points: int

    def sides(self) -> tuple[tuple[Side, Side, int, int], ...]:
        """Each side, its opponents, its total and theirs."""
        ns, ew = self.north_south, self.east_west
        ns_points, ew_points = self.north_south_points, self.east_west_points
        return ((ns, ew, ns_points, ew_points), (ew, ns, ew_points, ns_points))


@dataclass(frozen=True)
class Record:
    """Games played, won and lost (the rest drawn), and the points scored over the opponents'
    in all of them."""

    played: int = 0
    won: int = 0
    lost: int = 0
    margin: int = 0
    """The side's total less the opponents', summed over the games."""

    @property
    def margin_per_game(self) -> Fraction | None:
        return Fraction(self.margin, self.played) if self.played else None

    def counted(self, mine: int, theirs: int) -> Record:
        return Record(
            self.played + 1,
            self.won + (mine > theirs),
            self.lost + (mine < theirs),
            self.margin + mine - theirs,
        )


def sides_league_game(game: SidesGame) -> PlayedGame:
    """A rubber or a Chicago as the league counts it: each person of the circle at the table
    with their side's total, the larger total first, equal totals sharing first place.

    >>> rubber = SidesGame(date(2026, 9, 6), ("anne", "bruno"), ("chloé", None), 820, 350)
    >>> [(f.person, f.points, f.place) for f in sides_league_game(rubber).finishes]
    [('anne', 820, 1), ('bruno', 820, 1), ('chloé', 350, 2)]
    """
    finishes = []
    for side, _opponents, mine, theirs in game.sides():
        for person in side:
            if person is not None:
                finishes.append(Finish(person, mine, 2 if mine < theirs else 1))
    return PlayedGame(game.played_on, tuple(finishes))


def bridge_records(games: Iterable[SidesGame]) -> dict[str, Record]:
    """Each person's record over rubbers (or Chicagos): played, won, lost, points over the
    opponents'."""
    records: dict[str, Record] = {}
    for game in games:
        for side, _opponents, mine, theirs in game.sides():
            for person in side:
                if person is not None:
                    records[person] = records.get(person, Record()).counted(mine, theirs)
    return records


def partnerships(games: Iterable[SidesGame]) -> dict[tuple[str, str], Record]:
    """Each partnership's record (two people who sat on one side, in their keys' order)."""
    records: dict[tuple[str, str], Record] = {}
    for game in games:
        for (first, second), _opponents, mine, theirs in game.sides():
            if first is not None and second is not None and first != second:
                pair = (min(first, second), max(first, second))
                records[pair] = records.get(pair, Record()).counted(mine, theirs)
    return records


def head_to_head(games: Iterable[SidesGame], person: str, opponent: str) -> Record:
    """``person``'s record in the games where ``opponent`` sat on the other side."""
    record = Record()
    for game in games:
        for side, opponents, mine, theirs in game.sides():
            if person in side and opponent in opponents:
                record = record.counted(mine, theirs)
    return record


# --- The club's sessions: a person's percentages ----------------------------------------------


@dataclass(frozen=True)
class PairSession:
    """A club session as one pair played it: the two partners and the pair's percentage of
    the top (RULES.md §2, matchpoints)."""

    played_on: date
    partners: Side
    percentage: Fraction


PARTNER_SEPARATORS = (" – ", " — ", " - ", " & ", " / ", "/", " et ", " and ", ", ")
"""How a club's director writes a pair's two players, the most telling first."""


def pair_partners(names: str) -> tuple[str, str] | None:
    """The two players of a club pair, as its director typed them; ``None`` where the names
    do not read as two people.

    >>> pair_partners("Anne Martin – Bruno Petit")
    ('Anne Martin', 'Bruno Petit')
    >>> pair_partners("Anne-Marie & Jean-Pierre"), pair_partners("anne/bruno ")
    (('Anne-Marie', 'Jean-Pierre'), ('anne', 'bruno'))
    >>> pair_partners("Les Martin") is None, pair_partners("Anne – ") is None
    (True, True)
    """
    for separator in PARTNER_SEPARATORS:
        parts = [" ".join(part.split()) for part in names.split(separator)]
        if len(parts) == 2 and all(parts):
            return parts[0], parts[1]
    return None


def percentages_over_time(
    sessions: Iterable[PairSession], person: str
) -> tuple[tuple[date, Fraction], ...]:
    """``person``'s percentage in each session they played, in the order of the days (the
    sessions of one day in the order given)."""
    mine = [(s.played_on, s.percentage) for s in sessions if person in s.partners]
    return tuple(sorted(mine, key=lambda session: session[0]))


@dataclass(frozen=True)
class PartnerRecord:
    """How a person fared with one partner: sessions together, their average percentage and
    the best."""

    partner: str
    sessions: int
    average: Fraction
    best: Fraction


def by_partner(sessions: Iterable[PairSession], person: str) -> tuple[PartnerRecord, ...]:
    """``person``'s record with each partner of the circle, the most sessions first (then the
    better average)."""
    with_partner: dict[str, list[Fraction]] = defaultdict(list)
    for session in sessions:
        first, second = session.partners
        if person in session.partners and first != second:
            partner = second if first == person else first
            if partner is not None:
                with_partner[partner].append(session.percentage)
    records = [
        PartnerRecord(partner, len(scores), sum(scores, Fraction(0)) / len(scores), max(scores))
        for partner, scores in with_partner.items()
    ]
    return tuple(sorted(records, key=lambda r: (-r.sessions, -r.average, r.partner)))


# --- Échelons: races between people -----------------------------------------------------------


@dataclass(frozen=True)
class RaceGame:
    """A race game between two of the circle's people, and its winner: 0 the first named, 1
    the second, None a draw (RULES.md §3, :func:`.echelons.race_winner`)."""

    played_on: date
    players: tuple[str, str]
    winner: int | None


def race_league_game(game: RaceGame) -> PlayedGame:
    """A race game as the league counts it: the winner first, both first in a draw; a race
    has no points.

    >>> [(f.person, f.place) for f in race_league_game(
    ...     RaceGame(date(2026, 9, 6), ("anne", "bruno"), 1)).finishes]
    [('anne', 2), ('bruno', 1)]
    """
    return PlayedGame(
        game.played_on,
        tuple(
            Finish(person, 0, 1 if game.winner in (None, seat) else 2)
            for seat, person in enumerate(game.players)
        ),
    )


def race_record(games: Iterable[RaceGame], person: str, opponent: str) -> Record:
    """``person``'s record in the races against ``opponent``: played, won, lost (the rest
    drawn). A race has no points: its margin stays 0."""
    played = won = lost = 0
    for game in games:
        if person != opponent and set(game.players) == {person, opponent}:
            played += 1
            if game.winner is not None:
                mine = game.winner == game.players.index(person)
                won, lost = won + mine, lost + (not mine)
    return Record(played, won, lost)


# --- The club's season: handicapped pairs and the ladder --------------------------------------


@dataclass(frozen=True)
class HandicapRule:
    """How a club handicaps its pairs, as its page and printout state it: a player's handicap
    is ``share`` of the gap between 50 % and their average percentage over their last
    ``sessions`` sessions of the period, at most ``cap`` points either way; with fewer than
    ``at_least`` sessions there, none. A pair's handicap is the average of its two players'
    (a guest's is 0), and is added to the pair's percentage: a strong player's handicap is
    below 0, a newer player's above.

    >>> rule = HandicapRule()
    >>> [str(rule.of(figures)) for figures in ([56, 60], [45], [10], [])]
    ['-4', '5/2', '5', '0']
    """

    sessions: int = 10
    share: Fraction = Fraction(1, 2)
    cap: Fraction = Fraction(5)
    at_least: int = 1

    def of(self, percentages: Sequence[Fraction]) -> Fraction:
        """The handicap of a player whose sessions of the period, oldest first, scored
        ``percentages``."""
        played = list(percentages)
        last = played[-self.sessions :] if self.sessions > 0 else []
        if not last or len(played) < self.at_least:
            return Fraction(0)
        average = sum(last, Fraction(0)) / len(last)
        gap = (50 - average) * self.share
        return max(-self.cap, min(self.cap, gap))


def player_handicaps(
    sessions: Iterable[PairSession],
    rule: HandicapRule,
    since: date | None = None,
    before: date | None = None,
) -> dict[str, Fraction]:
    """Each person's handicap from their sessions played from ``since`` (counted) to
    ``before`` (not counted: a session's own result is no part of the handicap it is played
    with), the sessions of one day in the order given."""
    played: dict[str, list[tuple[date, Fraction]]] = defaultdict(list)
    for session in sessions:
        if (since is None or session.played_on >= since) and (
            before is None or session.played_on < before
        ):
            for person in dict.fromkeys(session.partners):
                if person is not None:
                    played[person].append((session.played_on, session.percentage))
    return {
        person: rule.of([percentage for _day, percentage in sorted(mine, key=lambda s: s[0])])
        for person, mine in played.items()
    }


def pair_handicap(partners: Side, handicaps: Mapping[str, Fraction]) -> Fraction:
    """A pair's handicap: the average of its two players', a guest's (or a player's without
    one) counted as 0."""
    return (
        sum((handicaps.get(person, Fraction(0)) for person in partners if person), Fraction(0)) / 2
    )


@dataclass(frozen=True)
class HandicappedLine:
    """A pair's line in a session's handicapped ranking."""

    pair: str
    percentage: Fraction
    handicap: Fraction
    handicapped: Fraction
    """The pair's percentage with its handicap added."""
    place: int
    tied: bool
    """Whether another pair has the same handicapped percentage (and so the same place)."""


def handicapped_ranking(
    pairs: Iterable[tuple[str, Side, Fraction]], handicaps: Mapping[str, Fraction]
) -> tuple[HandicappedLine, ...]:
    """A session's pairs (each its key, its two players and its percentage) ranked on their
    percentage with their handicap added, the best first; pairs level share a place, and
    follow the order given.

    >>> ranked = handicapped_ranking(
    ...     [("1", ("anne", "bruno"), Fraction(58)), ("2", ("chloé", None), Fraction(54))],
    ...     {"anne": Fraction(-4), "bruno": Fraction(-2), "chloé": Fraction(4)},
    ... )
    >>> [(line.pair, str(line.handicapped), line.place, line.tied) for line in ranked]
    [('2', '56', 1, False), ('1', '55', 2, False)]
    """
    lines = []
    for key, partners, percentage in pairs:
        handicap = pair_handicap(partners, handicaps)
        lines.append((key, percentage, handicap, percentage + handicap))
    ranked = sorted(lines, key=lambda line: -line[3])
    return tuple(
        HandicappedLine(
            pair=key,
            percentage=percentage,
            handicap=handicap,
            handicapped=total,
            place=1 + sum(other[3] > total for other in ranked),
            tied=sum(other[3] == total for other in ranked) > 1,
        )
        for key, percentage, handicap, total in ranked
    )


@dataclass(frozen=True)
class SeasonResult:
    """A person's result in one session of the club's season: their pair's percentage, and
    its place among the pairs ranked with it (``tied`` pairs sharing that place)."""

    played_on: date
    person: str
    percentage: Fraction
    place: int
    tied: int = 1


@dataclass(frozen=True)
class RankedPair:
    """A pair of a club session as its ranking placed it: its label, its two players (the
    circle's keys, ``None`` for a guest), its percentage and its place, shared by ``tied``
    pairs."""

    pair: str
    partners: Side
    percentage: Fraction
    place: int
    tied: int = 1


@dataclass(frozen=True)
class RankedSession:
    """A club session of the season: its day, its key, and its pairs as ranked (each ranking
    of a two-winner session apart)."""

    played_on: date
    session: str
    pairs: tuple[RankedPair, ...]


def season_results(sessions: Iterable[RankedSession]) -> list[SeasonResult]:
    """Each member's result in each session of the season: their pair's percentage and place
    (a guest has none)."""
    return [
        SeasonResult(session.played_on, person, pair.percentage, pair.place, pair.tied)
        for session in sessions
        for pair in session.pairs
        for person in dict.fromkeys(pair.partners)
        if person is not None
    ]


def pair_sessions_of(sessions: Iterable[RankedSession]) -> list[PairSession]:
    """The season's sessions as each pair played them, for the handicaps."""
    return [
        PairSession(session.played_on, pair.partners, pair.percentage)
        for session in sessions
        for pair in session.pairs
    ]


@dataclass(frozen=True)
class LadderRule:
    """How a club's ladder counts, as its page and printout state it: each member's ``best``
    results of the season (all of them where ``None``), each result its percentage, or, where
    the club gives ``points`` (the points of 1st, 2nd, ... place), its place's points: pairs
    tied share the points of the places they cover, and a place past the list scores 0.

    >>> LadderRule(points=(10, 7, 5)).result_score(SeasonResult(date(2026, 9, 1), "anne",
    ...     Fraction(55), place=2, tied=2))
    Fraction(6, 1)
    """

    best: int | None = None
    points: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.best is not None and self.best < 1:
            raise ValueError("A ladder counts at least one result of each member.")

    def result_score(self, result: SeasonResult) -> Fraction:
        if self.points is None:
            return result.percentage
        covered = range(result.place - 1, result.place - 1 + max(result.tied, 1))
        won = sum(self.points[place] for place in covered if 0 <= place < len(self.points))
        return Fraction(won, max(result.tied, 1))


@dataclass(frozen=True)
class LadderRow:
    """A member's line in the ladder."""

    person: str
    place: int
    score: Fraction
    """The sum of the results counted."""
    played: int
    counted: tuple[Fraction, ...]
    """The results counted, the best first."""


def ladder(
    results: Iterable[SeasonResult],
    rule: LadderRule,
    since: date | None = None,
    until: date | None = None,
) -> tuple[LadderRow, ...]:
    """The club's ladder over the season from ``since`` to ``until`` (both days counted):
    each member's score is the sum of their ``rule.best`` best results, so that playing more
    sessions counts up to that many; members level share a place and follow their keys' order.

    >>> season = [SeasonResult(date(2026, 9, day), person, Fraction(figure), place)
    ...           for day, person, figure, place in [(1, "anne", 60, 1), (1, "bruno", 40, 2),
    ...                                                (8, "anne", 45, 2), (8, "bruno", 55, 1)]]
    >>> [(row.person, str(row.score)) for row in ladder(season, LadderRule(best=1))]
    [('anne', '60'), ('bruno', '55')]
    >>> by_points = ladder(season, LadderRule(points=(2, 1)))
    >>> [(row.person, str(row.score), row.place) for row in by_points]
    [('anne', '3', 1), ('bruno', '3', 1)]
    """
    scores: dict[str, list[Fraction]] = defaultdict(list)
    for result in results:
        if (since is None or result.played_on >= since) and (
            until is None or result.played_on <= until
        ):
            scores[result.person].append(rule.result_score(result))
    rows = []
    for person, mine in scores.items():
        best_first = sorted(mine, reverse=True)
        counted = tuple(best_first if rule.best is None else best_first[: max(rule.best, 0)])
        rows.append((person, sum(counted, Fraction(0)), len(mine), counted))
    rows.sort(key=lambda row: (-row[1], row[0]))
    return tuple(
        LadderRow(
            person=person,
            place=1 + sum(other[1] > score for other in rows),
            score=score,
            played=played,
            counted=counted,
        )
        for person, score, played, counted in rows
    )
