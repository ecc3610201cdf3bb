"""Contract bridge scoring: duplicate, pairs, teams, rubber and Chicago (RULES.md §2).

Everything is derived from what the table entered: a contract and the tricks taken, a board
number, the scores of a board at every table, or the deals of a rubber in order. Nothing here
does I/O, so a corrected deal simply means scoring again.

Scores are always from a side's point of view: ``contract_score`` for the declarer's side,
``score_ns`` for North-South (East-West score the opposite).

>>> contract_score(4, "S", 0, True, 10)
620
>>> board_dealer(3), board_vulnerability(3)
(<Seat.SOUTH: 'S'>, <Vulnerability.EW: 'EW'>)
>>> imps(620 - 170)
10
>>> matchpoints([420, 420, 400, -50])
[5.0, 5.0, 2.0, 0.0]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import Generic, TypeGuard, TypeVar

from scorekeeper.rules.common import Rule, RuleError, Seat, Side

__all__ = [
    "Artificial",
    "BoardError",
    "BoardMatchpoints",
    "BoardResult",
    "BridgeRule",
    "BySide",
    "Chicago",
    "ChicagoDeal",
    "Contract",
    "ContractError",
    "ContractPoints",
    "DealError",
    "ExactMatchpoints",
    "Honours",
    "PadEntry",
    "PadItem",
    "PairTotal",
    "PairsResult",
    "PairsSession",
    "Rounding",
    "Rubber",
    "RubberDeal",
    "RubberGame",
    "RubberOverError",
    "ScoredRubberDeal",
    "Seat",
    "Side",
    "Strain",
    "TeamMatch",
    "Vulnerability",
    "board_dealer",
    "board_matchpoints",
    "board_vulnerability",
    "butler_datum",
    "butler_imps",
    "chicago_vulnerability",
    "contract_points",
    "contract_score",
    "imps",
    "matchpoints",
    "neuberg",
    "rounded",
    "score_board",
    "score_chicago",
    "score_pairs_session",
    "score_rubber",
    "score_team_match",
    "session_percentage",
    "session_total",
    "settle_in_hundreds",
    "team_board_imps",
    "victory_points",
]


class BridgeRule(Rule):
    """The rules of bridge an entry can break (see :class:`RuleError`)."""

    STRAIN = "strain"
    DOUBLED = "doubled"
    CONTRACT_TEXT = "contract-text"
    LEVEL = "level"
    TRICKS = "tricks"
    VULNERABLE = "vulnerable"
    BOARD_NUMBER = "board-number"
    SEATING_NUMBER = "seating-number"
    DECLARER = "declarer"
    SCORE_DIFFERENCE = "score-difference"
    IMP_MARGIN = "imp-margin"
    MATCH_BOARDS = "match-boards"
    TEAM_MATCH_EMPTY = "team-match-empty"
    DATUM_EMPTY = "datum-empty"
    SCORE = "score"
    NEUBERG_COUNTS = "neuberg-counts"
    MATCHPOINTS_TYPE = "matchpoints-type"
    MATCHPOINTS_RANGE = "matchpoints-range"
    ARTIFICIAL = "artificial"
    REAL_AND_ARTIFICIAL = "real-and-artificial"
    ARTIFICIAL_ONE_SIDE = "artificial-one-side"
    RESULT_TYPE = "result-type"
    EXPECTED_RESULTS = "expected-results"
    TOP = "top"
    PAIR_MISSING = "pair-missing"
    PAIR_TWICE = "pair-twice"
    DECLARER_SIDE = "declarer-side"
    HONOURS_SIDE = "honours-side"
    HONOURS_POINTS = "honours-points"
    PASSED_OUT = "passed-out"
    CONTRACT_TYPE = "contract-type"
    HONOURS_TYPE = "honours-type"
    NOTRUMP_HONOURS = "notrump-honours"
    RUBBER_OVER = "rubber-over"
    DEAL_NUMBER = "deal-number"
    ROUNDS_ORDER = "rounds-order"
    ROUND_SEATS = "round-seats"
    ROUND_UNFINISHED = "round-unfinished"
    WHEEL_OVER = "wheel-over"

    @property
    def english(self) -> str:
        return _ENGLISH[self]


_ENGLISH = {
    BridgeRule.STRAIN: "The strain must be one of C, D, H, S, NT, not {value!r}.",
    BridgeRule.DOUBLED: (
        "Doubled must be 0 (not doubled), 1 (doubled) or 2 (redoubled), not {value!r}."
    ),
    BridgeRule.CONTRACT_TEXT: "A contract is written like 4S or 3NTX, not {value!r}.",
    BridgeRule.LEVEL: "The level must be from 1 to 7, not {value!r}.",
    BridgeRule.TRICKS: "The tricks taken must be from 0 to 13, not {value!r}.",
    BridgeRule.VULNERABLE: "Vulnerable must be true or false, not {value!r}.",
    BridgeRule.BOARD_NUMBER: "Boards are numbered from 1, not {value!r}.",
    BridgeRule.SEATING_NUMBER: "Tables, rounds and pairs are numbered from 1, not {value!r}.",
    BridgeRule.DECLARER: "The declarer sits N, E, S or W, not {value!r}.",
    BridgeRule.SCORE_DIFFERENCE: "A score difference is a whole number, not {value!r}.",
    BridgeRule.IMP_MARGIN: "An IMP margin is a whole number, not {value!r}.",
    BridgeRule.MATCH_BOARDS: "A match has 1 board or more, not {value!r}.",
    BridgeRule.TEAM_MATCH_EMPTY: "A team match needs at least one board.",
    BridgeRule.DATUM_EMPTY: "A board needs at least one result to have a datum.",
    BridgeRule.SCORE: "A score is a whole number, not {value!r}.",
    BridgeRule.NEUBERG_COUNTS: (
        "Neuberg scales 1 to {expected!r} results obtained to the {expected!r} expected, "
        "not {value!r}."
    ),
    BridgeRule.MATCHPOINTS_TYPE: "Matchpoints are a number, not {value!r}.",
    BridgeRule.MATCHPOINTS_RANGE: (
        "Among {obtained} results a score earns 0 to {most} matchpoints, not {value!r}."
    ),
    BridgeRule.ARTIFICIAL: "An artificial score is A+, A= or A-, not {value!r}.",
    BridgeRule.REAL_AND_ARTIFICIAL: "A board has a real score or artificial scores, not both.",
    BridgeRule.ARTIFICIAL_ONE_SIDE: "An artificial result gives a score to both sides.",
    BridgeRule.RESULT_TYPE: "A board's result is a score or a BoardResult, not {value!r}.",
    BridgeRule.EXPECTED_RESULTS: (
        "A board with {results} results expects {least} or more, not {value!r}."
    ),
    BridgeRule.TOP: "A session's top is 1 matchpoint or more, not {value!r}.",
    BridgeRule.PAIR_MISSING: "Pair {pair} has no result in this session.",
    BridgeRule.PAIR_TWICE: "Pair {pair} has two results on board {board}.",
    BridgeRule.DECLARER_SIDE: "The declaring side is NS or EW, not {value!r}.",
    BridgeRule.HONOURS_SIDE: "The side holding the honours is NS or EW, not {value!r}.",
    BridgeRule.HONOURS_POINTS: "Honours are worth 100 or 150, not {value!r}.",
    BridgeRule.PASSED_OUT: (
        "A passed-out deal has no declarer, contract, tricks or honours; "
        "a played deal needs both a declarer and a contract."
    ),
    BridgeRule.CONTRACT_TYPE: "The contract must be a Contract, not {value!r}.",
    BridgeRule.HONOURS_TYPE: "Honours must be Honours, not {value!r}.",
    BridgeRule.NOTRUMP_HONOURS: "At no trump only the four aces in one hand count: 150.",
    BridgeRule.RUBBER_OVER: (
        "The rubber ended on deal {ended}; deal {value} belongs to a new rubber."
    ),
    BridgeRule.DEAL_NUMBER: "Deals are numbered from 1, not {value!r}.",
    BridgeRule.ROUNDS_ORDER: ("The deals come rubber after rubber: rubber {value} comes too late."),
    BridgeRule.ROUND_SEATS: "Rubber {value} has deals but nobody sitting at the table.",
    BridgeRule.ROUND_UNFINISHED: "Rubber {value} must be over before the next one begins.",
    BridgeRule.WHEEL_OVER: "Chicago wheel {value} has four deals already.",
}


class ContractError(RuleError):
    """A contract, the tricks taken or the vulnerability is not one bridge allows."""


class BoardError(RuleError):
    """A board number, or the results of a board, cannot be scored."""


class DealError(RuleError):
    """A deal of rubber bridge or Chicago is entered in a way the rules do not allow."""


class RubberOverError(DealError):
    """A deal is entered after the rubber has ended."""


def _is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is an ``int`` that is not a ``bool`` (``True`` is not a level)."""
    return isinstance(value, int) and not isinstance(value, bool)


# --- The vocabulary ------------------------------------------------------------------------------


class Vulnerability(StrEnum):
    """Which sides are vulnerable on a deal, spelled as on a duplicate board."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"

    def is_vulnerable(self, side: Side) -> bool:
        """Whether ``side`` is vulnerable.

        >>> Vulnerability.EW.is_vulnerable(Side.EW), Vulnerability.EW.is_vulnerable(Side.NS)
        (True, False)
        """
        return self is Vulnerability.ALL or self.value == side.value

    @classmethod
    def from_sides(cls, *, ns: bool, ew: bool) -> Vulnerability:
        """The vulnerability in which exactly the sides named are vulnerable.

        >>> Vulnerability.from_sides(ns=True, ew=True)
        <Vulnerability.ALL: 'All'>
        """
        if ns and ew:
            return cls.ALL
        if ns:
            return cls.NS
        return cls.EW if ew else cls.NONE


class Strain(StrEnum):
    """The denomination of a contract, lowest first: ♣ ♦ ♥ ♠ NT."""

    CLUBS = "C"
    """♣, a minor: 20 a trick."""
    DIAMONDS = "D"
    """♦, a minor: 20 a trick."""
    HEARTS = "H"
    """♥, a major: 30 a trick."""
    SPADES = "S"
    """♠, a major: 30 a trick."""
    NOTRUMP = "NT"
    """No trump: 40 for the first trick, 30 for each next."""

    @property
    def symbol(self) -> str:
        """The strain as players write it.

        >>> Strain.SPADES.symbol, Strain.NOTRUMP.symbol
        ('♠', 'NT')
        """
        return _STRAIN_SYMBOLS[self]

    @property
    def first_trick(self) -> int:
        """Trick points for the first odd trick, undoubled (Law 77)."""
        return {Strain.CLUBS: 20, Strain.DIAMONDS: 20, Strain.NOTRUMP: 40}.get(self, 30)

    @property
    def next_trick(self) -> int:
        """Trick points for each odd trick after the first, and for an undoubled overtrick."""
        return 20 if self in (Strain.CLUBS, Strain.DIAMONDS) else 30


_STRAIN_SYMBOLS = {
    Strain.CLUBS: "♣",
    Strain.DIAMONDS: "♦",
    Strain.HEARTS: "♥",
    Strain.SPADES: "♠",
    Strain.NOTRUMP: "NT",
}

_STRAIN_SPELLINGS = {
    **{strain.value: strain for strain in Strain},
    **{symbol: strain for strain, symbol in _STRAIN_SYMBOLS.items()},
    "N": Strain.NOTRUMP,
    "SA": Strain.NOTRUMP,  # sans-atout, as French players write it
}

_DOUBLED_NAMES = ("", "X", "XX")


Member = TypeVar("Member", bound=StrEnum)


def _member(kind: type[Member], value: object, error: ValueError) -> Member:
    """``value`` (a member or its letters) as a member of ``kind``; else ``error`` is raised."""
    if isinstance(value, str):
        try:
            return kind(value)
        except ValueError:
            pass
    raise error


def _strain(value: object) -> Strain:
    error = ContractError(BridgeRule.STRAIN, value=value)
    return _member(Strain, value, error)


# --- One contract (Law 77) -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Contract:
    """A final contract: a level from 1 to 7, a strain, and 0 (undoubled), 1 (doubled) or 2
    (redoubled) (RULES.md §2). The declarer needs ``6 + level`` tricks.

    The strain may be given as its letter (``"NT"`` for no trump).

    >>> Contract(3, "NT")
    Contract(level=3, strain=<Strain.NOTRUMP: 'NT'>, doubled=0)
    >>> str(Contract(4, Strain.HEARTS, 1)), Contract(4, "H", 1).trick_points
    ('4♥X', 240)
    """

    level: int
    strain: Strain
    doubled: int = 0

    def __post_init__(self) -> None:
        _check_level(self.level)
        object.__setattr__(self, "strain", _strain(self.strain))
        if not _is_whole(self.doubled) or self.doubled not in (0, 1, 2):
            raise ContractError(BridgeRule.DOUBLED, value=self.doubled)

    @classmethod
    def parse(cls, text: str) -> Contract:
        """A contract as players write it: level, strain, then X or XX.

        The strain is a letter (C, D, H, S; NT, N or SA for no trump) or a suit symbol; case
        and spaces do not matter.

        >>> Contract.parse("4SX")
        Contract(level=4, strain=<Strain.SPADES: 'S'>, doubled=1)
        >>> str(Contract.parse("3nt")), str(Contract.parse("6 ♥ xx")), str(Contract.parse("2SA"))
        ('3NT', '6♥XX', '2NT')
        """
        if not isinstance(text, str):
            raise ContractError(BridgeRule.CONTRACT_TEXT, value=text)
        compact = "".join(text.split()).upper()
        body = compact.rstrip("X")
        doubled = len(compact) - len(body)
        level, strain = body[:1], _STRAIN_SPELLINGS.get(body[1:])
        if not (level.isascii() and level.isdigit()) or strain is None or doubled > 2:
            raise ContractError(BridgeRule.CONTRACT_TEXT, value=text)
        return cls(int(level), strain, doubled)

    def __str__(self) -> str:
        return f"{self.level}{self.strain.symbol}{_DOUBLED_NAMES[self.doubled]}"

    @property
    def tricks_needed(self) -> int:
        """The tricks the declarer must take: six plus the level."""
        return 6 + self.level

    @property
    def trick_points(self) -> int:
        """Trick points for the odd tricks contracted for, doubled ×2, redoubled ×4 (Law 77).

        >>> Contract(3, "NT").trick_points, Contract(2, "C", 2).trick_points
        (100, 160)
        """
        per_contract = self.strain.first_trick + self.strain.next_trick * (self.level - 1)
        return per_contract * (1, 2, 4)[self.doubled]

    @property
    def is_game(self) -> bool:
        """Whether making the contract alone scores 100 trick points or more.

        >>> Contract(4, "D").is_game, Contract(2, "H", 1).is_game
        (False, True)
        """
        return self.trick_points >= 100


def _check_level(level: object) -> int:
    if not _is_whole(level) or not 1 <= level <= 7:
        raise ContractError(BridgeRule.LEVEL, value=level)
    return level


def _check_tricks(tricks: object) -> int:
    if not _is_whole(tricks) or not 0 <= tricks <= 13:
        raise ContractError(BridgeRule.TRICKS, value=tricks)
    return tricks


def _check_vulnerable(vulnerable: object) -> bool:
    if not isinstance(vulnerable, bool):
        raise ContractError(BridgeRule.VULNERABLE, value=vulnerable)
    return vulnerable


def _undertrick_penalty(doubled: int, vulnerable: bool, down: int) -> int:
    """What the defenders score for ``down`` undertricks (Law 77 table)."""
    if doubled == 0:
        return down * (100 if vulnerable else 50)
    if vulnerable:
        penalty = 200 + 300 * (down - 1)
    else:
        penalty = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return penalty * doubled  # redoubled is twice doubled


@dataclass(frozen=True, slots=True)
class ContractPoints:
    """The Law 77 items of one played contract, apart from the game or part-score bonus,
    which depends on the form of scoring (duplicate, rubber, Chicago).

    A made contract has trick points and maybe overtricks, a slam bonus and an insult bonus;
    a defeated one has only the undertrick penalty the defenders score.
    """

    trick_points: int = 0
    """Odd tricks contracted for: below the line in rubber bridge."""
    overtricks: int = 0
    slam: int = 0
    insult: int = 0
    """50 for making a doubled contract, 100 redoubled."""
    undertricks: int = 0
    """The penalty, scored by the defenders."""

    @property
    def made(self) -> bool:
        """Whether the declarer made the contract (every contract has trick points)."""
        return self.trick_points > 0

    @property
    def bonuses(self) -> int:
        """Overtricks, slam and insult: the declarer's points above the line."""
        return self.overtricks + self.slam + self.insult


def contract_points(contract: Contract, *, vulnerable: bool, tricks: int) -> ContractPoints:
    """The Law 77 items of ``contract`` played by a declarer who took ``tricks`` tricks.

    >>> contract_points(Contract(6, "S"), vulnerable=True, tricks=13)
    ContractPoints(trick_points=180, overtricks=30, slam=750, insult=0, undertricks=0)
    >>> contract_points(Contract(4, "H", 1), vulnerable=True, tricks=8).undertricks
    500
    """
    vulnerable = _check_vulnerable(vulnerable)
    tricks = _check_tricks(tricks)
    over = tricks - contract.tricks_needed
    if over < 0:
        return ContractPoints(undertricks=_undertrick_penalty(contract.doubled, vulnerable, -over))
    if contract.doubled:
        per_overtrick = (200 if vulnerable else 100) * contract.doubled
    else:
        per_overtrick = contract.strain.next_trick
    slam = {6: 750 if vulnerable else 500, 7: 1500 if vulnerable else 1000}.get(contract.level, 0)
    return ContractPoints(
        trick_points=contract.trick_points,
        overtricks=over * per_overtrick,
        slam=slam,
        insult=50 * contract.doubled,
    )


def _game_bonus(vulnerable: bool) -> int:
    return 500 if vulnerable else 300


def _duplicate_score(contract: Contract, vulnerable: bool, tricks: int) -> int:
    points = contract_points(contract, vulnerable=vulnerable, tricks=tricks)
    if not points.made:
        return -points.undertricks
    bonus = _game_bonus(vulnerable) if points.trick_points >= 100 else 50
    return points.trick_points + bonus + points.bonuses


def contract_score(level: int, strain: str, doubled: int, vulnerable: bool, tricks: int) -> int:
    """The declaring side's duplicate score for one contract, by Law 77 (RULES.md §2).

    Made: trick points, plus 50 for a part-score or 300 for a game (500 vulnerable), plus
    500/750 for a small slam or 1000/1500 for a grand slam, plus 50 (doubled) or 100
    (redoubled) for the insult, plus the overtricks. Defeated: minus the undertrick penalty.

    ``strain`` is one of "C", "D", "H", "S", "NT"; ``doubled`` is 0, 1 (doubled) or 2
    (redoubled); ``tricks`` are the tricks the declarer took. Anything else raises
    :class:`ContractError` (a ``ValueError``).

    >>> contract_score(3, "NT", 0, False, 9), contract_score(7, "NT", 2, True, 13)
    (400, 2980)
    >>> contract_score(3, "NT", 1, False, 6)
    -500
    >>> contract_score(8, "S", 0, False, 13)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.bridge.ContractError: The level must be from 1 to 7, not 8.
    """
    # Contract checks the level and doubling; contract_points the vulnerability and tricks.
    return _duplicate_score(Contract(level, _strain(strain), doubled), vulnerable, tricks)


# --- Duplicate boards ----------------------------------------------------------------------------

_BOARD_VULNERABILITY = (
    Vulnerability.NONE,
    Vulnerability.NS,
    Vulnerability.EW,
    Vulnerability.ALL,
    Vulnerability.NS,
    Vulnerability.EW,
    Vulnerability.ALL,
    Vulnerability.NONE,
    Vulnerability.EW,
    Vulnerability.ALL,
    Vulnerability.NONE,
    Vulnerability.NS,
    Vulnerability.ALL,
    Vulnerability.NONE,
    Vulnerability.NS,
    Vulnerability.EW,
)


def _check_board(board: object) -> int:
    if not _is_whole(board) or board < 1:
        raise BoardError(BridgeRule.BOARD_NUMBER, value=board)
    return board


def board_dealer(board: int) -> Seat:
    """The dealer of a duplicate board: North on board 1, then clockwise (RULES.md §2).

    >>> [board_dealer(board).value for board in (1, 2, 3, 4, 5, 16, 17)]
    ['N', 'E', 'S', 'W', 'N', 'W', 'N']
    """
    return Seat.NORTH.after(_check_board(board) - 1)


def board_vulnerability(board: int) -> Vulnerability:
    """Who is vulnerable on a duplicate board, by the 16-board cycle (RULES.md §2).

    >>> [board_vulnerability(board).value for board in (1, 2, 3, 4, 13, 17)]
    ['None', 'NS', 'EW', 'All', 'All', 'None']
    """
    return _BOARD_VULNERABILITY[(_check_board(board) - 1) % 16]


# --- Teams: IMPs and victory points --------------------------------------------------------------

_IMP_THRESHOLDS = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip
"""The smallest difference worth 1, 2, ... 24 IMPs (Law 78B)."""


def imps(difference: int) -> int:
    """International match points for a score difference, by the standard scale (Law 78B),
    signed like the difference.

    Differences are multiples of 10; any whole number is placed by the lower bound of each
    band (20-40 is 1 IMP, so 15 is 0 and 45 is 1).

    >>> imps(0), imps(20), imps(-450), imps(4000), imps(7600)
    (0, 1, -10, 24, 24)
    """
    if not _is_whole(difference):
        raise BoardError(BridgeRule.SCORE_DIFFERENCE, value=difference)
    size = sum(1 for threshold in _IMP_THRESHOLDS if abs(difference) >= threshold)
    return size if difference >= 0 else -size


def team_board_imps(table1_ns: int, table2_ns: int) -> int:
    """IMPs won by team A on a board of a team match, team A sitting North-South at table 1
    and East-West at table 2 (RULES.md §2).

    >>> team_board_imps(620, 170), team_board_imps(-100, 140)
    (10, -6)
    """
    return imps(table1_ns - table2_ns)


_TAU = (math.sqrt(5) - 1) / 2


@cache
def _victory_point_scale(boards: int) -> tuple[int, ...]:
    """The WBF continuous scale for a match of ``boards`` boards, in hundredths of a VP, for
    IMP margins 0, 1, ... up to the first margin worth 20 VPs.

    Each entry is 10 + 10 × (1 − τ^(3m/B)) / (1 − τ³), B = 15√boards, at most 20, rounded to
    two decimals. Rounding can make one IMP worth more than the one before it, which the WBF
    scale never allows (each extra IMP gains no more than the previous one); as in the WBF's
    algorithm, the margin in the middle of such a bump gets 0.01 more until none is left. Near
    the top of a long match this can raise a figure by a few hundredths.
    """
    blitz = 15 * math.sqrt(boards)
    scale = []
    for margin in range(math.ceil(blitz) + 1):
        exact = 10 + 10 * (1 - _TAU ** (3 * margin / blitz)) / (1 - _TAU**3)
        scale.append(min(2000, math.floor(exact * 100 + 0.5)))
    bump = _first_bump(scale, 1)
    while bump is not None:
        scale[bump] += 1
        bump = _first_bump(scale, max(bump - 1, 1))  # only the steps around it changed
    return tuple(scale)


def _first_bump(scale: list[int], start: int) -> int | None:
    """The first margin from ``start`` whose next IMP gains more than its own did."""
    for margin in range(start, len(scale) - 1):
        if scale[margin + 1] - scale[margin] > scale[margin] - scale[margin - 1]:
            return margin
    return None


def victory_points(imp_margin: int, boards: int) -> tuple[float, float]:
    """Victory points of team A and team B on the WBF 2013 continuous 20-point scale, for a
    match of ``boards`` boards that team A won by ``imp_margin`` IMPs (negative: lost).

    The winner gets 10 + 10 × (1 − τ^(3 × margin / B)) / (1 − τ³), where τ = (√5 − 1) / 2 and
    B = 15 × √boards is the blitz margin, to two decimals and at most 20; the loser gets
    20 minus the winner's rounded figure. Where rounding would make an IMP worth more than
    the one before, the figure is raised by 0.01, as in the WBF's published scales.

    >>> victory_points(0, 16), victory_points(1, 16), victory_points(-10, 16)
    ((10.0, 10.0), (10.31, 9.69), (7.2, 12.8))
    >>> victory_points(60, 16), victory_points(75, 16)
    ((20.0, 0.0), (20.0, 0.0))
    """
    if not _is_whole(imp_margin):
        raise BoardError(BridgeRule.IMP_MARGIN, value=imp_margin)
    if not _is_whole(boards) or boards < 1:
        raise BoardError(BridgeRule.MATCH_BOARDS, value=boards)
    scale = _victory_point_scale(boards)
    winner = scale[min(abs(imp_margin), len(scale) - 1)]
    if imp_margin < 0:
        return (2000 - winner) / 100, winner / 100
    return winner / 100, (2000 - winner) / 100


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """A team match scored board by board, from team A's point of view."""

    board_imps: tuple[int, ...]
    """IMPs on each board: positive when team A gained."""
    imps_a: int
    """IMPs team A won, on the boards it gained."""
    imps_b: int
    """IMPs team B won, on the boards it gained."""
    victory_points: tuple[float, float]
    """Team A's and team B's victory points (:func:`victory_points`)."""

    @property
    def margin(self) -> int:
        """Team A's IMPs less team B's."""
        return self.imps_a - self.imps_b


def score_team_match(boards: Iterable[tuple[int, int]]) -> TeamMatch:
    """Score a team match from the North-South scores of each board at both tables.

    Each board is ``(table1_ns, table2_ns)``: team A sits North-South at table 1 and
    East-West at table 2, so it gains the difference (:func:`team_board_imps`).

    >>> match = score_team_match([(620, 170), (-100, 140), (420, 420)])
    >>> match.board_imps, match.imps_a, match.imps_b, match.victory_points
    ((10, -6, 0), 10, 6, (12.61, 7.39))
    """
    board_imps = tuple(team_board_imps(first, second) for first, second in boards)
    if not board_imps:
        raise BoardError(BridgeRule.TEAM_MATCH_EMPTY)
    imps_a = sum(imp for imp in board_imps if imp > 0)
    imps_b = -sum(imp for imp in board_imps if imp < 0)
    return TeamMatch(board_imps, imps_a, imps_b, victory_points(imps_a - imps_b, len(board_imps)))


def butler_datum(scores: Sequence[int]) -> int:
    """The datum of a board for Butler scoring: the mean of its North-South scores, leaving
    out the highest and the lowest when there are five results or more, rounded to the
    nearest 10 (a mean ending in 5 rounds away from zero, so both directions agree).

    >>> butler_datum([420, 450, 400, -100, 1430])
    420
    >>> butler_datum([100, 110])
    110
    """
    results = sorted(_check_score(score) for score in scores)
    if not results:
        raise BoardError(BridgeRule.DATUM_EMPTY)
    if len(results) >= 5:
        results = results[1:-1]
    mean = Fraction(sum(results), len(results))
    tens = math.floor(abs(mean) / 10 + Fraction(1, 2))
    return 10 * tens if mean >= 0 else -10 * tens


def butler_imps(scores: Sequence[int]) -> list[int]:
    """Each North-South result's IMPs against the board's datum (:func:`butler_datum`), in the
    order given; East-West score the opposite.

    >>> butler_imps([420, 450, 400, -100, 1430])
    [0, 1, -1, -11, 14]
    """
    datum = butler_datum(scores)
    return [imps(score - datum) for score in scores]


# --- Pairs: matchpoints --------------------------------------------------------------------------


def _check_score(score: object) -> int:
    if not _is_whole(score):
        raise BoardError(BridgeRule.SCORE, value=score)
    return score


def _exact_matchpoints(scores: Sequence[int]) -> list[int]:
    return [
        sum(2 if other < score else 1 if other == score else 0 for other in scores) - 1
        for score in scores
    ]  # the - 1 takes out the result's tie with itself


def matchpoints(scores: Sequence[int]) -> list[float]:
    """Matchpoints of each score of one board in one direction: 2 for every other score it
    beats and 1 for every other score it ties (RULES.md §2), in the order given.

    >>> matchpoints([420, 170, 420, -50, 450])
    [5.0, 2.0, 5.0, 0.0, 8.0]
    """
    return [float(points) for points in _exact_matchpoints([_check_score(s) for s in scores])]


def _exact_neuberg(points: Fraction, expected: int, obtained: int) -> Fraction:
    return (points + 1) * expected / obtained - 1


def neuberg(matchpoints: float, expected: int, obtained: int) -> float:
    """Matchpoints scaled by Neuberg's formula, for a board that got ``obtained`` results out
    of the ``expected`` ones: (M + 1) × N / n − 1 (RULES.md §2, EBU).

    >>> round(neuberg(27, 22, 21), 2)
    28.33
    """
    if not _is_whole(expected) or not _is_whole(obtained) or not 1 <= obtained <= expected:
        raise BoardError(BridgeRule.NEUBERG_COUNTS, expected=expected, value=obtained)
    if isinstance(matchpoints, bool) or not isinstance(matchpoints, int | float):
        raise BoardError(BridgeRule.MATCHPOINTS_TYPE, value=matchpoints)
    if not 0 <= matchpoints <= 2 * (obtained - 1):
        raise BoardError(
            BridgeRule.MATCHPOINTS_RANGE,
            obtained=obtained,
            most=2 * (obtained - 1),
            value=matchpoints,
        )
    return float(_exact_neuberg(Fraction(matchpoints), expected, obtained))


def _round_half_up(value: Fraction, places: int) -> Fraction:
    scale = 10**places
    return Fraction(math.floor(value * scale + Fraction(1, 2)), scale)


class Artificial(StrEnum):
    """An artificial score given to a side that could not play a board (Law 12C2)."""

    AVERAGE_PLUS = "A+"
    """60 % of the top."""
    AVERAGE = "A="
    """50 % of the top."""
    AVERAGE_MINUS = "A-"
    """40 % of the top."""

    @property
    def share(self) -> Fraction:
        """The share of the top the side scores.

        >>> Artificial.AVERAGE_PLUS.share
        Fraction(3, 5)
        """
        return {"A+": Fraction(3, 5), "A=": Fraction(1, 2), "A-": Fraction(2, 5)}[self.value]


def _artificial(value: object) -> Artificial:
    error = BoardError(BridgeRule.ARTIFICIAL, value=value)
    return _member(Artificial, value, error)


@dataclass(frozen=True, slots=True)
class BoardResult:
    """One table's result on a board: a real North-South score, or an artificial score for
    each side (A+ / A= / A-) when the board could not be played there.

    >>> BoardResult(420).is_artificial, BoardResult.adjusted("A+", "A-").is_artificial
    (False, True)
    """

    score_ns: int | None = None
    artificial_ns: Artificial | None = None
    artificial_ew: Artificial | None = None

    def __post_init__(self) -> None:
        sides = (self.artificial_ns, self.artificial_ew)
        if self.score_ns is not None:
            _check_score(self.score_ns)
            if sides != (None, None):
                raise BoardError(BridgeRule.REAL_AND_ARTIFICIAL)
            return
        if None in sides:
            raise BoardError(BridgeRule.ARTIFICIAL_ONE_SIDE)
        object.__setattr__(self, "artificial_ns", _artificial(self.artificial_ns))
        object.__setattr__(self, "artificial_ew", _artificial(self.artificial_ew))

    @classmethod
    def adjusted(cls, ns: Artificial | str, ew: Artificial | str) -> BoardResult:
        """An artificial result: ``ns`` to North-South, ``ew`` to East-West."""
        return cls(None, _artificial(ns), _artificial(ew))

    @property
    def is_artificial(self) -> bool:
        """Whether the board was not played at this table."""
        return self.score_ns is None


@dataclass(frozen=True, slots=True)
class BoardMatchpoints:
    """The matchpoints of one result of a board, for both directions, as published: to 0.1
    when Neuberg-scaled."""

    ns: float
    ew: float
    top: int
    """The most a result can earn on the board: 2 × (results expected − 1)."""

    @property
    def ns_percentage(self) -> float:
        """North-South's share of the top, in percent (50 when nothing could be compared)."""
        return 100 * self.ns / self.top if self.top else 50.0

    @property
    def ew_percentage(self) -> float:
        """East-West's share of the top, in percent."""
        return 100 * self.ew / self.top if self.top else 50.0


@dataclass(frozen=True, slots=True)
class ExactMatchpoints:
    """The matchpoints of one result of a board, exactly: a Neuberg-scaled figure is a
    fraction (28⅓), kept whole through totals and percentages (RULES.md §4).

    >>> ExactMatchpoints(Fraction(85, 3), Fraction(41, 3), 42, artificial=False).shown
    BoardMatchpoints(ns=28.3, ew=13.7, top=42)
    """

    ns: Fraction
    ew: Fraction
    top: int
    """The most a result can earn on the board: 2 × (results expected − 1)."""
    artificial: bool
    """Whether the figures are artificial scores (each side its own share of the top)."""

    @property
    def published(self) -> tuple[Fraction, Fraction]:
        """North-South's and East-West's figures as a sheet publishes them: to 0.1, half up;
        on a real result East-West get the top less North-South's figure, so that the two
        add up to the top."""
        ns = _round_half_up(self.ns, 1)
        ew = _round_half_up(self.ew, 1) if self.artificial else self.top - ns
        return ns, ew

    @property
    def shown(self) -> BoardMatchpoints:
        """The :attr:`published` figures, as :func:`score_board` gives them."""
        ns, ew = self.published
        return BoardMatchpoints(float(ns), float(ew), self.top)


def board_matchpoints(
    results: Sequence[BoardResult | int], *, expected: int | None = None
) -> list[ExactMatchpoints]:
    """Matchpoint one board for both directions, exactly, one entry per result in the order
    given (RULES.md §2).

    ``results`` are :class:`BoardResult` values or plain North-South scores; ``expected`` is
    N, the number of results the board should have had (all of them, by default). The top is
    2 × (N − 1).

    - A real score gets 2 per lower real score and 1 per equal one; with fewer real results
      than expected (n < N), Neuberg's formula scales it: (M + 1) × N / n − 1. East-West get
      the top less North-South's figure.
    - An artificial score is not one of the n real results; each side gets its own share of
      the top: A+ 60 %, A= 50 %, A- 40 %.

    >>> [(m.ns, m.ew) for m in board_matchpoints([110, -50], expected=3)]
    [(Fraction(7, 2), Fraction(1, 2)), (Fraction(1, 2), Fraction(7, 2))]
    """
    entries = []
    for result in results:
        if isinstance(result, BoardResult):
            entries.append(result)
        elif _is_whole(result):
            entries.append(BoardResult(result))
        else:
            raise BoardError(BridgeRule.RESULT_TYPE, value=result)
    wanted = len(entries) if expected is None else expected
    if not _is_whole(wanted) or wanted < max(len(entries), 1):
        raise BoardError(
            BridgeRule.EXPECTED_RESULTS,
            results=len(entries),
            least=max(len(entries), 1),
            value=wanted,
        )
    top = 2 * (wanted - 1)
    real = [entry.score_ns for entry in entries if entry.score_ns is not None]
    real_points = iter(_exact_matchpoints(real))
    scored = []
    for entry in entries:
        if entry.artificial_ns is not None and entry.artificial_ew is not None:
            ns = entry.artificial_ns.share * top
            ew = entry.artificial_ew.share * top
            scored.append(ExactMatchpoints(ns, ew, top, artificial=True))
            continue
        ns = Fraction(next(real_points))
        if len(real) < wanted:
            ns = _exact_neuberg(ns, wanted, len(real))
        scored.append(ExactMatchpoints(ns, top - ns, top, artificial=False))
    return scored


def score_board(
    results: Sequence[BoardResult | int], *, expected: int | None = None
) -> list[BoardMatchpoints]:
    """Matchpoint one board for both directions as a sheet publishes it, one entry per result
    in the order given: :func:`board_matchpoints`, each figure shown to 0.1 (half up), East-West
    the top less North-South's figure on a real result.

    >>> [(m.ns, m.ew) for m in score_board([420, 420, 400, BoardResult.adjusted("A+", "A+")])]
    [(4.3, 1.7), (4.3, 1.7), (0.3, 5.7), (3.6, 3.6)]
    """
    return [points.shown for points in board_matchpoints(results, expected=expected)]


def rounded(value: Fraction | float, places: int) -> Decimal:
    """A figure as it is shown: to ``places`` decimals, half up. Only what is shown is
    rounded (RULES.md §4); a float is taken as the decimal it prints as.

    >>> rounded(Fraction(217, 3), 1), rounded(Fraction(217, 3), 2), rounded(0.25, 1)
    (Decimal('72.3'), Decimal('72.33'), Decimal('0.3'))
    """
    exact = Fraction(repr(float(value))) if isinstance(value, float) else Fraction(value)
    return Decimal(math.floor(exact * 10**places + Fraction(1, 2))).scaleb(-places)


def _tenths(value: float) -> int:
    """``value`` in tenths, rounded half up like every published figure."""
    return int(_round_half_up(Fraction(repr(float(value))), 1) * 10)


def session_total(board_matchpoints: Iterable[float]) -> float:
    """A pair's session total: the sum of its matchpoints on each board as published (to 0.1),
    so the total agrees with the sheet the players read.

    >>> session_total([28.3, 13.7, 25.2, 0.1])
    67.3
    """
    return sum(_tenths(points) for points in board_matchpoints) / 10


def session_percentage(total: float, top: int) -> float:
    """A session total as a percentage of the most it could have been, to two decimals (half
    up); ``top`` is the sum of the tops of the boards the pair has a result on, boards × top
    when every board has the same top.

    >>> session_percentage(771.2, 30 * 42)
    61.21
    """
    if not _is_whole(top) or top < 1:
        raise BoardError(BridgeRule.TOP, value=top)
    return float(_round_half_up(Fraction(_tenths(total), 10) * 100 / top, 2))


@dataclass(frozen=True, slots=True)
class PairsResult:
    """One table's result on one board of a pairs session."""

    board: int
    pair_ns: int
    pair_ew: int
    result: BoardResult


@dataclass(frozen=True, slots=True)
class PairTotal:
    """A pair's session: its total matchpoints and percentage."""

    pair: int
    matchpoints: float
    """The sum of the published per-board matchpoints (:func:`session_total`)."""
    top: int
    """The most the pair could have scored: the tops of its boards added up."""
    boards: int
    """Boards the pair has a result on, artificial ones included."""

    @property
    def percentage(self) -> float:
        """The total as a percentage of ``top``, to two decimals."""
        return session_percentage(self.matchpoints, self.top)


@dataclass(frozen=True, slots=True)
class PairsSession:
    """A pairs session scored: every result's matchpoints, and every pair's total."""

    matchpoints: tuple[BoardMatchpoints, ...]
    """One per result, in the order the results were given."""
    totals: tuple[PairTotal, ...]
    """One per pair, the highest total first (equal totals by pair number)."""

    def total_of(self, pair: int) -> PairTotal:
        """The total of pair number ``pair``."""
        for total in self.totals:
            if total.pair == pair:
                return total
        raise BoardError(BridgeRule.PAIR_MISSING, pair=pair)


def score_pairs_session(
    results: Sequence[PairsResult], *, expected: int | None = None
) -> PairsSession:
    """Score a pairs session: each board by :func:`score_board`, then each pair's total and
    percentage (RULES.md §2).

    ``expected`` is the number of results every board should have; by default, each board
    expects as many results as it has, artificial ones included.

    >>> session = score_pairs_session([
    ...     PairsResult(1, 1, 2, BoardResult(420)), PairsResult(1, 3, 4, BoardResult(-50)),
    ...     PairsResult(2, 1, 4, BoardResult(110)), PairsResult(2, 3, 2, BoardResult(140))])
    >>> [(t.pair, t.matchpoints, t.percentage) for t in session.totals]
    [(4, 4.0, 100.0), (1, 2.0, 50.0), (3, 2.0, 50.0), (2, 0.0, 0.0)]
    """
    by_board: dict[int, list[int]] = {}
    pairs_seen: set[tuple[int, int]] = set()
    for index, row in enumerate(results):
        number = _check_board(row.board)
        for pair in (row.pair_ns, row.pair_ew):
            if (number, pair) in pairs_seen:
                raise BoardError(BridgeRule.PAIR_TWICE, pair=pair, board=number)
            pairs_seen.add((number, pair))
        by_board.setdefault(number, []).append(index)
    by_result: dict[int, BoardMatchpoints] = {}
    for indexes in by_board.values():
        board = score_board([results[i].result for i in indexes], expected=expected)
        by_result.update(zip(indexes, board, strict=True))
    scored = tuple(by_result[index] for index in range(len(results)))
    tenths: dict[int, int] = {}
    tops: dict[int, int] = {}
    boards: dict[int, int] = {}
    for row, points in zip(results, scored, strict=True):
        for pair, figure in ((row.pair_ns, points.ns), (row.pair_ew, points.ew)):
            tenths[pair] = tenths.get(pair, 0) + _tenths(figure)
            tops[pair] = tops.get(pair, 0) + points.top
            boards[pair] = boards.get(pair, 0) + 1
    totals = [PairTotal(pair, tenths[pair] / 10, tops[pair], boards[pair]) for pair in tenths]
    totals.sort(key=lambda total: (-tenths[total.pair], total.pair))
    return PairsSession(scored, tuple(totals))


# --- Rubber bridge and Chicago -------------------------------------------------------------------

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class BySide(Generic[T]):
    """One value for each side, read as ``.ns`` / ``.ew`` or by :class:`Side`.

    >>> BySide(620, -620)[Side.EW]
    -620
    """

    ns: T
    ew: T

    def __getitem__(self, side: Side) -> T:
        return self.ns if side is Side.NS else self.ew


def _side(value: object, rule: BridgeRule) -> Side:
    return _member(Side, value, DealError(rule, value=value))


@dataclass(frozen=True, slots=True)
class Honours:
    """Honours held in one hand and claimed at rubber bridge or Chicago: 100 for four of the
    five trump honours, 150 for all five, or for the four aces at no trump. Whoever holds
    them scores them, declarer's side or defenders (RULES.md §2)."""

    side: Side
    points: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "side", _side(self.side, BridgeRule.HONOURS_SIDE))
        if not _is_whole(self.points) or self.points not in (100, 150):
            raise DealError(BridgeRule.HONOURS_POINTS, value=self.points)


@dataclass(frozen=True, slots=True)
class RubberDeal:
    """One deal of rubber bridge or Chicago as entered: the declaring side, the contract and
    the tricks the declarer took, and any honours claimed.

    A passed-out deal has no declarer and no contract: ``RubberDeal.passed_out()``.

    >>> RubberDeal("NS", Contract.parse("4S"), 10, Honours("EW", 100)).honours
    Honours(side=<Side.EW: 'EW'>, points=100)
    """

    declarer: Side | None
    contract: Contract | None
    tricks: int = 0
    honours: Honours | None = None

    def __post_init__(self) -> None:
        if self.contract is None or self.declarer is None:
            if (self.contract, self.declarer, self.tricks, self.honours) != (None, None, 0, None):
                raise DealError(BridgeRule.PASSED_OUT)
            return
        object.__setattr__(self, "declarer", _side(self.declarer, BridgeRule.DECLARER_SIDE))
        if not isinstance(self.contract, Contract):
            raise DealError(BridgeRule.CONTRACT_TYPE, value=self.contract)
        _check_tricks(self.tricks)
        if self.honours is not None:
            if not isinstance(self.honours, Honours):
                raise DealError(BridgeRule.HONOURS_TYPE, value=self.honours)
            if self.contract.strain is Strain.NOTRUMP and self.honours.points != 150:
                raise DealError(BridgeRule.NOTRUMP_HONOURS)

    @classmethod
    def passed_out(cls) -> RubberDeal:
        """A deal on which all four players passed."""
        return cls(None, None)

    @property
    def is_passed_out(self) -> bool:
        """Whether nobody bid."""
        return self.contract is None


class PadItem(StrEnum):
    """What a figure on the score pad is for."""

    OVERTRICKS = "overtricks"
    INSULT = "insult"
    """Making a doubled (50) or redoubled (100) contract."""
    SLAM = "slam"
    UNDERTRICKS = "undertricks"
    """The defenders' penalty."""
    HONOURS = "honours"
    RUBBER = "rubber"
    """700 for a rubber won 2-0, 500 for 2-1."""
    UNFINISHED_GAME = "unfinished game"
    """300 to the only side with a game when a rubber stops unfinished."""
    UNFINISHED_PART_SCORE = "unfinished part-score"
    """100 to a side with a part-score in the game in progress when a rubber stops."""


@dataclass(frozen=True, slots=True)
class PadEntry:
    """One figure written above the line: its points, what for, and the deal that earned it
    (``None`` for the bonuses of a rubber that stops unfinished)."""

    points: int
    item: PadItem
    deal: int | None


@dataclass(frozen=True, slots=True)
class RubberGame:
    """One game of a rubber: the trick points each side wrote below the line, in order."""

    below: BySide[tuple[int, ...]]
    winner: Side | None
    """The side that reached 100; ``None`` for the game in progress."""


@dataclass(frozen=True, slots=True)
class ScoredRubberDeal:
    """One deal of a rubber as scored."""

    number: int
    """Deals are numbered from 1, passed-out deals included."""
    deal: RubberDeal
    dealer: Seat
    vulnerability: Vulnerability
    """Who was vulnerable when the deal was played: a side that has won a game."""
    points: BySide[int]
    """What each side scored on the deal, below and above the line."""
    game_won_by: Side | None
    """The side whose trick points reached 100 on this deal, if any."""


@dataclass(frozen=True, slots=True)
class Rubber:
    """A rubber scored as a pad: each game below the line, the premiums above it, the games
    won, and the totals (RULES.md §2)."""

    deals: tuple[ScoredRubberDeal, ...]
    games: tuple[RubberGame, ...]
    """Games in order; while the rubber goes on, the last is the game in progress."""
    above: BySide[tuple[PadEntry, ...]]
    """Everything above the line, in the order it was written."""
    games_won: BySide[int]
    finished: bool
    """Whether a side has won two games."""
    next_dealer: Seat
    unfinished: BySide[tuple[PadEntry, ...]]
    """While the rubber goes on, the bonuses it gets if play stops now (RULES.md §2): 300 to
    the only side that has won a game, 100 to each side with a part-score in the game in
    progress. Empty once the rubber is over."""
    totals: BySide[int]
    """Every figure added up, below and above the line, with ``unfinished``."""

    @property
    def vulnerable(self) -> Vulnerability:
        """Who is vulnerable on the next deal: each side that has won a game."""
        return Vulnerability.from_sides(ns=self.games_won.ns > 0, ew=self.games_won.ew > 0)

    @property
    def rubber_bonus(self) -> PadEntry | None:
        """The 700 or 500 written for winning the rubber, once it is over."""
        for side in Side:
            for entry in self.above[side]:
                if entry.item is PadItem.RUBBER:
                    return entry
        return None

    @property
    def winner(self) -> Side | None:
        """The side with the larger total, who wins the rubber once it is over (Law 74; the
        side that won two games usually, not always); ``None`` when level."""
        if self.totals.ns == self.totals.ew:
            return None
        return Side.NS if self.totals.ns > self.totals.ew else Side.EW


def score_rubber(deals: Sequence[RubberDeal], *, first_dealer: Seat = Seat.NORTH) -> Rubber:
    """Score a rubber from its deals in order (RULES.md §2).

    Trick points go below the line, everything else above: overtricks, slam and insult
    bonuses as in duplicate, undertricks to the defenders, honours to whoever held them.
    There is no part-score or game bonus. A game is won by 100 trick points below the line
    (part-scores add up within a game; the next game starts both sides from 0); a side that
    has won a game is vulnerable; the rubber ends when a side wins two games, with 700
    (2-0) or 500 (2-1). A passed-out deal scores nothing and the next player deals.

    Entering a deal after the rubber ended raises :class:`RubberOverError`.

    >>> rubber = score_rubber([RubberDeal("NS", Contract.parse("4S"), 10),
    ...                        RubberDeal("NS", Contract.parse("3NT"), 10)])
    >>> rubber.finished, rubber.totals, rubber.rubber_bonus
    (True, BySide(ns=950, ew=0), PadEntry(points=700, item=<PadItem.RUBBER: 'rubber'>, deal=2))
    """
    games_won = {Side.NS: 0, Side.EW: 0}
    below: dict[Side, list[int]] = {Side.NS: [], Side.EW: []}
    games: list[RubberGame] = []
    above: dict[Side, list[PadEntry]] = {Side.NS: [], Side.EW: []}
    scored: list[ScoredRubberDeal] = []
    finished = False
    for number, deal in enumerate(deals, start=1):
        if finished:
            raise RubberOverError(BridgeRule.RUBBER_OVER, ended=number - 1, value=number)
        vulnerability = Vulnerability.from_sides(
            ns=games_won[Side.NS] > 0, ew=games_won[Side.EW] > 0
        )
        points = {Side.NS: 0, Side.EW: 0}
        entries: list[tuple[Side, int, PadItem]] = []
        game_won_by = None
        if deal.contract is not None and deal.declarer is not None:
            declarer = deal.declarer
            result = contract_points(
                deal.contract, vulnerable=vulnerability.is_vulnerable(declarer), tricks=deal.tricks
            )
            if result.made:
                below[declarer].append(result.trick_points)
                points[declarer] += result.trick_points
                entries += [
                    (declarer, result.overtricks, PadItem.OVERTRICKS),
                    (declarer, result.insult, PadItem.INSULT),
                    (declarer, result.slam, PadItem.SLAM),
                ]
            else:
                entries.append((declarer.opponents, result.undertricks, PadItem.UNDERTRICKS))
            if deal.honours is not None:
                entries.append((deal.honours.side, deal.honours.points, PadItem.HONOURS))
            if result.made and sum(below[declarer]) >= 100:
                game_won_by = declarer
                games_won[declarer] += 1
                games.append(RubberGame(_by_side_tuple(below), declarer))
                below = {Side.NS: [], Side.EW: []}
                if games_won[declarer] == 2:
                    finished = True
                    bonus = 700 if games_won[declarer.opponents] == 0 else 500
                    entries.append((declarer, bonus, PadItem.RUBBER))
        for side, figure, item in entries:
            if figure:
                above[side].append(PadEntry(figure, item, number))
                points[side] += figure
        scored.append(
            ScoredRubberDeal(
                number=number,
                deal=deal,
                dealer=first_dealer.after(number - 1),
                vulnerability=vulnerability,
                points=BySide(points[Side.NS], points[Side.EW]),
                game_won_by=game_won_by,
            )
        )
    unfinished: dict[Side, list[PadEntry]] = {Side.NS: [], Side.EW: []}
    if not finished:
        games.append(RubberGame(_by_side_tuple(below), None))
        for side in Side:
            if games_won[side] and not games_won[side.opponents]:
                unfinished[side].append(PadEntry(300, PadItem.UNFINISHED_GAME, None))
            if below[side]:
                unfinished[side].append(PadEntry(100, PadItem.UNFINISHED_PART_SCORE, None))
    totals = {
        side: sum(sum(game.below[side]) for game in games)
        + sum(entry.points for entry in (*above[side], *unfinished[side]))
        for side in Side
    }
    return Rubber(
        deals=tuple(scored),
        games=tuple(games),
        above=BySide(tuple(above[Side.NS]), tuple(above[Side.EW])),
        games_won=BySide(games_won[Side.NS], games_won[Side.EW]),
        finished=finished,
        next_dealer=first_dealer.after(len(scored)),
        unfinished=BySide(tuple(unfinished[Side.NS]), tuple(unfinished[Side.EW])),
        totals=BySide(totals[Side.NS], totals[Side.EW]),
    )


def _by_side_tuple(values: dict[Side, list[int]]) -> BySide[tuple[int, ...]]:
    return BySide(tuple(values[Side.NS]), tuple(values[Side.EW]))


@dataclass(frozen=True, slots=True)
class ChicagoDeal:
    """One deal of Chicago as scored."""

    number: int
    """The deal's number, from 1; a passed-out deal is dealt again under the same number."""
    deal: RubberDeal
    dealer: Seat
    vulnerability: Vulnerability
    points: BySide[int]
    """What each side scored on the deal."""
    game_won_by: Side | None
    """The side that made or completed a game on this deal."""
    part_scores: BySide[int]
    """Trick points each side carries toward game after the deal."""


@dataclass(frozen=True, slots=True)
class Chicago:
    """A game of Chicago scored deal by deal (RULES.md §2)."""

    deals: tuple[ChicagoDeal, ...]
    totals: BySide[int]
    next_number: int
    """The number of the next deal to play."""
    next_dealer: Seat
    next_vulnerability: Vulnerability

    @property
    def wheel_complete(self) -> bool:
        """Whether a whole number of four-deal wheels has been played."""
        return self.next_number > 1 and (self.next_number - 1) % 4 == 0


def chicago_vulnerability(number: int, dealer: Seat) -> Vulnerability:
    """Who is vulnerable on deal ``number`` of Chicago, dealt by ``dealer`` (RULES.md §2,
    ACBL): deal 1 neither side, deals 2 and 3 the dealer's side, deal 4 both; then again
    from deal 5.

    With North dealing first, deal 2 is East's, so East-West are vulnerable, and deal 3 is
    South's, so North-South are.

    >>> [chicago_vulnerability(n, Seat.NORTH.after(n - 1)).value for n in range(1, 6)]
    ['None', 'EW', 'NS', 'All', 'None']
    """
    if not _is_whole(number) or number < 1:
        raise DealError(BridgeRule.DEAL_NUMBER, value=number)
    position = (number - 1) % 4
    if position == 0:
        return Vulnerability.NONE
    if position == 3:
        return Vulnerability.ALL
    return Vulnerability.NS if dealer.side is Side.NS else Vulnerability.EW


def score_chicago(
    deals: Sequence[RubberDeal], *, first_dealer: Seat = Seat.NORTH, as_duplicate: bool = False
) -> Chicago:
    """Score Chicago (four-deal bridge, ACBL) from its deals in order (RULES.md §2).

    The dealer moves clockwise each deal; vulnerability follows
    :func:`chicago_vulnerability`. Each deal scores as in duplicate for game and slam
    bonuses (game 300 not vulnerable, 500 vulnerable), but part-scores add up toward game
    across the deals: a part-score that brings its side to 100 trick points completes a game,
    with the game bonus of that side's vulnerability on that deal, and any game, by either
    side, wipes out both sides' earlier part-scores. There is no part-score bonus, except 100
    to a side that makes a part-score on the fourth deal without completing a game. Honours
    entered count for whoever held them.

    Play may go on in wheels of four deals, deal 5 being like deal 1; part-scores left after
    the fourth deal of a wheel do not carry into the next one, which starts both sides from
    0 as the first wheel did. A passed-out deal is dealt again by the same dealer with the
    same vulnerability and does not count as one of the four.

    With ``as_duplicate``, as some clubs play, every deal is scored alone exactly as
    duplicate (:func:`contract_score`: 50 for a part-score, nothing carried, no honours).

    >>> chicago = score_chicago([RubberDeal("NS", Contract.parse("2S"), 8),
    ...                          RubberDeal("NS", Contract.parse("2D"), 8)])
    >>> [deal.points.ns for deal in chicago.deals], chicago.next_vulnerability
    ([60, 340], <Vulnerability.NS: 'NS'>)
    """
    part_scores = {Side.NS: 0, Side.EW: 0}
    totals = {Side.NS: 0, Side.EW: 0}
    scored: list[ChicagoDeal] = []
    number = 1
    dealer = first_dealer
    for deal in deals:
        vulnerability = chicago_vulnerability(number, dealer)
        points = {Side.NS: 0, Side.EW: 0}
        game_won_by = None
        if deal.contract is not None and deal.declarer is not None:
            declarer = deal.declarer
            vulnerable = vulnerability.is_vulnerable(declarer)
            result = contract_points(deal.contract, vulnerable=vulnerable, tricks=deal.tricks)
            if not result.made:
                points[declarer.opponents] += result.undertricks
            elif as_duplicate:
                points[declarer] += _duplicate_score(deal.contract, vulnerable, deal.tricks)
                game_won_by = declarer if deal.contract.is_game else None
            else:
                points[declarer] += result.trick_points + result.bonuses
                if part_scores[declarer] + result.trick_points >= 100:
                    game_won_by = declarer
                    points[declarer] += _game_bonus(vulnerable)
                    part_scores = {Side.NS: 0, Side.EW: 0}
                else:
                    part_scores[declarer] += result.trick_points
                    if number % 4 == 0:
                        points[declarer] += 100
            if deal.honours is not None and not as_duplicate:  # duplicate has no honours
                points[deal.honours.side] += deal.honours.points
            if number % 4 == 0:
                part_scores = {Side.NS: 0, Side.EW: 0}
        for side in Side:
            totals[side] += points[side]
        scored.append(
            ChicagoDeal(
                number=number,
                deal=deal,
                dealer=dealer,
                vulnerability=vulnerability,
                points=BySide(points[Side.NS], points[Side.EW]),
                game_won_by=game_won_by,
                part_scores=BySide(part_scores[Side.NS], part_scores[Side.EW]),
            )
        )
        if not deal.is_passed_out:
            number += 1
            dealer = dealer.after(1)
    return Chicago(
        deals=tuple(scored),
        totals=BySide(totals[Side.NS], totals[Side.EW]),
        next_number=number,
        next_dealer=dealer,
        next_vulnerability=chicago_vulnerability(number, dealer),
    )


class Rounding(StrEnum):
    """How a margin settled in hundreds rounds an exact 50 (RULES.md §4: clubs differ, so the
    table chooses; 50 up unless it says otherwise)."""

    FIFTY_UP = "50-up"
    """An exact 50 counts as a whole hundred: 950 settles as 10."""
    FIFTY_DOWN = "50-down"
    """An exact 50 counts for nothing: 950 settles as 9."""


def settle_in_hundreds(points: int, rounding: Rounding = Rounding.FIFTY_UP) -> int:
    """A rubber's or a Chicago wheel's margin as the table settles it: in hundreds, to the
    nearest hundred, an exact 50 rounded as the table chose (RULES.md §4). A negative margin
    settles the same way for the losers.

    >>> [settle_in_hundreds(points) for points in (40, 50, 149, 150, 950, -50, -40)]
    [0, 1, 1, 2, 10, -1, 0]
    >>> [settle_in_hundreds(points, Rounding.FIFTY_DOWN) for points in (50, 51, 150, 950, -950)]
    [0, 1, 1, 9, -9]
    """
    if not _is_whole(points):
        raise BoardError(BridgeRule.SCORE, value=points)
    hundreds, rest = divmod(abs(points), 100)
    halfway = 51 if rounding == Rounding.FIFTY_DOWN else 50
    settled = hundreds + (1 if rest >= halfway else 0)
    return settled if points >= 0 else -settled
