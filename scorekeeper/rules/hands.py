"""Hand records: the four hands of a deal, the tricks each declarer takes double dummy, par
(RULES.md §4, "Double dummy and par"), and the opening lead checked against the hands.

A deal is read from and written to PBN's notation: the first seat, a colon, then four hands
clockwise, each its spades, hearts, diamonds and clubs separated by dots, ``T`` for the ten.

>>> deal = Deal.from_pbn("N:KQT6.AJT.T984.65 A2.K9876.72.9742 J543.43.AQ5.AKJ3 987.Q52.KJ63.QT8")
>>> deal.hand(Seat.SOUTH), deal.high_card_points(Seat.SOUTH)
(('J543', '43', 'AQ5', 'AKJ3'), 15)

The double-dummy table comes from a solver (:func:`double_dummy`); par is worked out here from
the table alone:

>>> table = DoubleDummyTable.from_text("796a844634797a844634")
>>> table.tricks(Seat.NORTH, Strain.SPADES)
10
>>> result = par(table, Vulnerability.NONE, dealer=Seat.NORTH)
>>> result.score, [str(contract) for contract in result.contracts]
(420, ['4♠ N 10', '4♠ S 10'])

The opening lead is made by the defender on declarer's left: a card that hand does not hold
says that the declarer (or the board) was entered wrongly.

>>> check_lead(deal, Seat.SOUTH, parse_card("S3"))
Traceback (most recent call last):
...
scorekeeper.rules.hands.HandError: The 3♠ lead is not in West's hand: check the declarer.
>>> check_lead(deal, Seat.SOUTH, parse_card("S9"))
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.util import find_spec

from scorekeeper.rules.bridge import Contract, Strain, Vulnerability, contract_score
from scorekeeper.rules.cards import RANK_NAMES, Card, Suit
from scorekeeper.rules.common import Rule, RuleError, Seat, Side

__all__ = [
    "RANKS",
    "Deal",
    "DoubleDummyTable",
    "HandError",
    "HandRule",
    "Par",
    "ParContract",
    "SolverMissing",
    "card_text",
    "check_lead",
    "deck",
    "double_dummy",
    "double_dummy_tables",
    "opening_leader",
    "par",
    "parse_card",
    "solver_available",
]

RANKS = "AKQJT98765432"
"""The ranks as PBN writes them, highest first."""

SEATS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
STRAINS = tuple(Strain)
"""Clubs, diamonds, hearts, spades, no trump: lowest first, as bids rank."""

Hand = tuple[str, str, str, str]
"""A hand's spades, hearts, diamonds and clubs (PBN's order), each its ranks highest first."""

_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
_HAND_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""The suits in a hand's order (PBN's): spades first."""
_HONOURS = {"A": 4, "K": 3, "Q": 2, "J": 1}


class HandRule(Rule):
    """What a deal or a double-dummy table can get wrong (see :class:`RuleError`)."""

    DEAL_TEXT = "deal-text"
    HAND_MISSING = "hand-missing"
    RANK = "rank"
    HAND_SIZE = "hand-size"
    CARD_TWICE = "card-twice"
    TABLE_TEXT = "table-text"
    CARD_TEXT = "card-text"
    LEAD_NOT_HELD = "lead-not-held"

    @property
    def english(self) -> str:
        return _ENGLISH[self]


_ENGLISH = {
    HandRule.DEAL_TEXT: (
        "A deal is written like N:KQT6.AJT.T984.65 and three more hands, not {value!r}."
    ),
    HandRule.HAND_MISSING: "A hand record needs all four hands; {seat}'s is not given.",
    HandRule.RANK: "{seat}'s {suit} hold {value!r}: the ranks are A K Q J T 9 8 7 6 5 4 3 2.",
    HandRule.HAND_SIZE: "{seat}'s hand has {count} cards, not 13.",
    HandRule.CARD_TWICE: "{card} is dealt twice.",
    HandRule.TABLE_TEXT: (
        "A double-dummy table is 20 figures from 0 to 13 (written 0-9, a-d), not {value!r}."
    ),
    HandRule.CARD_TEXT: "A card is written like S3, HT or DA (suit, then rank), not {value!r}.",
    HandRule.LEAD_NOT_HELD: "The {card} lead is not in {seat}'s hand: check the declarer.",
}


class HandError(RuleError):
    """A deal or a double-dummy table that cannot be (a ``ValueError``)."""


class SolverMissing(RuntimeError):
    """The double-dummy solver (endplay, the ``club`` extra) is not installed."""


def _sorted_ranks(ranks: str) -> str:
    return "".join(sorted(ranks, key=RANKS.index))


@dataclass(frozen=True)
class Deal:
    """The four hands of a board: 52 different cards, 13 a hand. ``hands`` are North's,
    East's, South's and West's; ``first`` is the seat the PBN text names first (it changes
    nothing of the deal, only how it is written).

    >>> Deal.from_pbn("N:AKQJT98765432 - - -")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.hands.HandError: A deal is written like N:KQT6.AJT.T984.65 and three more hands, not 'N:AKQJT98765432 - - -'.
    """  # noqa: E501

    hands: tuple[Hand, Hand, Hand, Hand]
    first: Seat = Seat.NORTH

    def __post_init__(self) -> None:
        seen: set[tuple[int, str]] = set()
        hands = []
        for seat, hand in zip(SEATS, self.hands, strict=True):
            for suit, ranks in enumerate(hand):
                if not isinstance(ranks, str) or any(rank not in RANKS for rank in ranks.upper()):
                    seat_name, suit_name = seat.name.title(), _SUIT_NAMES[suit]
                    raise HandError(HandRule.RANK, seat=seat_name, suit=suit_name, value=ranks)
                for rank in ranks.upper():
                    if (suit, rank) in seen:
                        raise HandError(HandRule.CARD_TWICE, card=f"{rank}{'♠♥♦♣'[suit]}")
                    seen.add((suit, rank))
            count = sum(map(len, hand))
            if count != 13:
                raise HandError(HandRule.HAND_SIZE, seat=seat.name.title(), count=count)
            spades, hearts, diamonds, clubs = (_sorted_ranks(ranks.upper()) for ranks in hand)
            hands.append((spades, hearts, diamonds, clubs))
        object.__setattr__(self, "hands", tuple(hands))
        object.__setattr__(self, "first", Seat(self.first))

    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        """The deal a PBN ``Deal`` tag gives: ``"N:KQT6.AJT.T984.65 A2.K9876.72.9742 ..."``.
        Case and runs of spaces do not matter; a hand written ``-`` (not known) is refused,
        as is anything that is not 52 different cards, 13 a hand."""
        if not isinstance(text, str):
            raise HandError(HandRule.DEAL_TEXT, value=text)
        first, colon, rest = text.strip().partition(":")
        written = rest.split()
        if not colon or first.upper() not in "NESW" or len(first) != 1 or len(written) != 4:
            raise HandError(HandRule.DEAL_TEXT, value=text)
        seat = Seat(first.upper())
        by_seat: dict[Seat, Hand] = {}
        for offset, hand in enumerate(written):
            if hand == "-":
                raise HandError(HandRule.HAND_MISSING, seat=seat.after(offset).name.title())
            suits = hand.split(".")
            if len(suits) != 4:
                raise HandError(HandRule.DEAL_TEXT, value=text)
            by_seat[seat.after(offset)] = (suits[0], suits[1], suits[2], suits[3])
        n, e, s, w = (by_seat[seat] for seat in SEATS)
        return cls((n, e, s, w), first=seat)

    def to_pbn(self) -> str:
        """The deal in PBN's notation, from the seat it names first.

        >>> text = "E:Q3.A92.A863.AQ97 T7.KT6.T94.KJT83 A9652.J5.KQJ5.52 KJ84.Q8743.72.64"
        >>> Deal.from_pbn(text).to_pbn() == text
        True
        """
        hands = (".".join(self.hand(self.first.after(offset))) for offset in range(4))
        return f"{self.first.value}:{' '.join(hands)}"

    def hand(self, seat: Seat) -> Hand:
        """A seat's hand: its spades, hearts, diamonds and clubs, highest first."""
        return self.hands[SEATS.index(seat)]

    def holder(self, card: Card) -> Seat:
        """The seat dealt ``card``."""
        suit, rank = _HAND_SUITS.index(card.suit), _rank_letter(card.rank)
        return next(seat for seat in SEATS if rank in self.hand(seat)[suit])

    def high_card_points(self, seat: Seat) -> int:
        """A hand's high-card points: 4 an ace, 3 a king, 2 a queen, 1 a jack."""
        return sum(_HONOURS.get(rank, 0) for ranks in self.hand(seat) for rank in ranks)

    @classmethod
    def at_random(cls, chance: random.Random, first: Seat = Seat.NORTH) -> Deal:
        """A deal shuffled by ``chance`` (a seeded ``random.Random`` deals the same again),
        for a dealing machine's hand records."""
        cards = [(suit, rank) for suit in range(4) for rank in RANKS]
        chance.shuffle(cards)
        hands = []
        for seat in range(4):
            held = cards[13 * seat : 13 * seat + 13]
            hand = tuple("".join(rank for s, rank in held if s == suit) for suit in range(4))
            hands.append((hand[0], hand[1], hand[2], hand[3]))
        return cls((hands[0], hands[1], hands[2], hands[3]), first=first)


def _rank_letter(rank: int) -> str:
    """A card's rank as PBN writes it: A K Q J T, then 9 to 2."""
    return "T" if rank == 10 else RANK_NAMES.get(rank, str(rank))


_SUIT_LETTERS = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}
_SUIT_LETTERS.update({suit.symbol: suit for suit in Suit})
_RANK_LETTERS = {_rank_letter(rank): rank for rank in range(2, 15)} | {"10": 10}


def deck() -> tuple[Card, ...]:
    """The 52 cards, as hand records and a lead keypad list them: spades first, each suit
    from the ace down."""
    return tuple(Card(rank, suit) for suit in _HAND_SUITS for rank in range(14, 1, -1))


def card_text(card: Card) -> str:
    """A card as results files write a lead (PBN's ScoreTable, USEBIO's ``LEAD``): its suit's
    letter, then its rank, ``T`` for the ten: "S3", "HT", "DA".

    >>> card_text(Card(10, Suit.HEARTS)), card_text(Card(14, Suit.SPADES))
    ('HT', 'SA')
    """
    return f"{card.suit.value}{_rank_letter(card.rank)}"


def parse_card(text: str) -> Card:
    """A card as :func:`card_text` writes it, or as club programs do: the suit by its letter
    or its symbol, then the rank, the ten as ``T`` or ``10``; in either case.

    >>> str(parse_card("S3")), str(parse_card("h10")), str(parse_card("♦Q"))
    ('3♠', '10♥', 'Q♦')
    """
    written = text.strip().upper() if isinstance(text, str) else ""
    suit, rank = _SUIT_LETTERS.get(written[:1]), _RANK_LETTERS.get(written[1:])
    if suit is None or rank is None:
        raise HandError(HandRule.CARD_TEXT, value=text)
    return Card(rank, suit)


def opening_leader(declarer: Seat) -> Seat:
    """Who makes the opening lead: the defender on declarer's left (Laws of Duplicate Bridge,
    Law 41A), the next seat clockwise.

    >>> opening_leader(Seat.SOUTH), opening_leader(Seat.WEST)
    (<Seat.WEST: 'W'>, <Seat.NORTH: 'N'>)
    """
    return Seat(declarer).after(1)


def check_lead(deal: Deal, declarer: Seat, lead: Card) -> None:
    """Check a table's opening lead against the board's hand record: the card must be in the
    hand of declarer's left-hand opponent (:func:`opening_leader`). One that is not raises
    :class:`HandError` (``LEAD_NOT_HELD``: the card, ``leader`` the seat that should have led
    it, ``holder`` the seat that holds it; ``seat``, the leader's name in English): the
    declarer or the board is wrong, and the table is told before East-West confirm."""
    leader = opening_leader(declarer)
    holder = deal.holder(lead)
    if holder is not leader:
        raise HandError(
            HandRule.LEAD_NOT_HELD,
            card=str(lead),
            seat=leader.name.title(),
            leader=leader,
            holder=holder,
        )


@dataclass(frozen=True)
class DoubleDummyTable:
    """The tricks each of the four declarers takes in each of the five strains, with every
    hand seen and best play by all. ``rows`` are North's, East's, South's and West's, each in
    clubs, diamonds, hearts, spades, no trump."""

    rows: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        rows = tuple(tuple(row) for row in self.rows)
        if len(rows) != 4 or any(len(row) != 5 for row in rows):
            raise HandError(HandRule.TABLE_TEXT, value=self.rows)
        if any(type(tricks) is not int or not 0 <= tricks <= 13 for row in rows for tricks in row):
            raise HandError(HandRule.TABLE_TEXT, value=self.rows)
        object.__setattr__(self, "rows", rows)

    def tricks(self, declarer: Seat, strain: Strain) -> int:
        """The tricks ``declarer`` takes in ``strain``."""
        return self.rows[SEATS.index(declarer)][STRAINS.index(Strain(strain))]

    def side_tricks(self, side: Side, strain: Strain) -> int:
        """The tricks a side takes in ``strain``, from the better-placed of its two hands."""
        return max(self.tricks(seat, strain) for seat in SEATS if seat.side is side)

    @classmethod
    def from_tricks(cls, tricks: Mapping[tuple[Seat, Strain], int]) -> DoubleDummyTable:
        """A table from the tricks of every declarer and strain."""
        try:
            rows = tuple(tuple(tricks[seat, strain] for strain in STRAINS) for seat in SEATS)
        except KeyError as missing:
            raise HandError(HandRule.TABLE_TEXT, value=str(missing)) from None
        return cls(rows)

    def to_text(self) -> str:
        """The table in 20 figures, a letter for 10 to 13, North's five strains first (clubs
        to no trump), then East's, South's and West's: how it is kept."""
        return "".join(format(tricks, "x") for row in self.rows for tricks in row)

    @classmethod
    def from_text(cls, text: str) -> DoubleDummyTable:
        """The table :meth:`to_text` wrote."""
        if not isinstance(text, str) or len(text) != 20:
            raise HandError(HandRule.TABLE_TEXT, value=text)
        try:
            figures = [int(figure, 16) for figure in text]
        except ValueError:
            raise HandError(HandRule.TABLE_TEXT, value=text) from None
        return cls(tuple(tuple(figures[5 * seat : 5 * seat + 5]) for seat in range(4)))


_SOLVED_AT_ONCE = 40
"""The most deals DDS solves in one call for all five strains."""

_ONE_SOLVE_AT_A_TIME = threading.Lock()
"""DDS keeps its work in one state per process: two threads solving at once would share it."""


def solver_available() -> bool:
    """Whether the double-dummy solver (endplay, with Bo Haglund's DDS) is installed."""
    return find_spec("endplay") is not None


def double_dummy(deal: Deal) -> DoubleDummyTable:
    """The double-dummy table of a deal, from Bo Haglund's solver (DDS, through endplay);
    :class:`SolverMissing` when it is not installed."""
    return double_dummy_tables([deal])[0]


def double_dummy_tables(deals: Iterable[Deal]) -> list[DoubleDummyTable]:
    """The double-dummy tables of many deals at once (the solver shares its work among the
    machine's cores)."""
    deals = list(deals)
    if not deals:
        return []
    try:
        from endplay.dds import calc_all_tables
        from endplay.types import Deal as SolverDeal
    except ImportError:
        raise SolverMissing("Install endplay (the club extra) to analyse deals.") from None
    with _ONE_SOLVE_AT_A_TIME:
        solved = [
            table
            for start in range(0, len(deals), _SOLVED_AT_ONCE)
            for table in calc_all_tables(
                [SolverDeal(deal.to_pbn()) for deal in deals[start : start + _SOLVED_AT_ONCE]]
            )
        ]
    tables = []
    for table in solved:
        # endplay's rows are strains (spades, hearts, diamonds, clubs, no trump), its columns
        # the declarers North, East, South, West.
        by_strain = dict(zip("SHDCN", table.to_list(), strict=True))
        rows = [[by_strain[strain.value[0]][seat] for strain in STRAINS] for seat in range(4)]
        tables.append(DoubleDummyTable(tuple(tuple(row) for row in rows)))
    return tables


@dataclass(frozen=True)
class ParContract:
    """A par contract: the contract (doubled where the declarer goes down), who plays it, and
    the tricks they take."""

    contract: Contract
    declarer: Seat
    tricks: int

    def __str__(self) -> str:
        return f"{self.contract} {self.declarer.value} {self.tricks}"

    @property
    def difference(self) -> int:
        """Overtricks (positive) or undertricks (negative); 0 when just made."""
        return self.tricks - self.contract.tricks_needed


@dataclass(frozen=True)
class Par:
    """The par of a board: the score from North-South's side (negative when East-West gain,
    0 when the board should be passed out), and the contracts that reach it."""

    score: int
    contracts: tuple[ParContract, ...]


_BIDS = tuple((level, strain) for level in range(1, 8) for strain in STRAINS)
"""Every bid, lowest first: 1♣ to 7NT."""


def par(table: DoubleDummyTable, vulnerability: Vulnerability, *, dealer: Seat) -> Par:
    """Par, when both sides bid to the best contract knowing the double-dummy table.

    The auction is a game between the two sides, the dealer's side first: each bids higher or
    passes, and a pass leaves the last bid standing. A contract that makes is not doubled (the
    defenders would lose by it); one that goes down is (a sacrifice is doubled). Each side
    plays in its better hand for the strain. A par contract scores par, and its opponents have
    no higher contract they would rather play; of those in a strain, the lowest.

    >>> table = DoubleDummyTable.from_text("796a844634797a844634")
    >>> par(table, Vulnerability.ALL, dealer=Seat.EAST).score
    620
    """
    vulnerability = Vulnerability(vulnerability)

    @cache
    def outcome(bid: int, side: Side) -> int:
        """North-South's score when ``side``'s bid stands."""
        level, strain = _BIDS[bid]
        tricks = table.side_tricks(side, strain)
        doubled = 0 if tricks >= 6 + level else 1
        vulnerable = vulnerability.is_vulnerable(side)
        score = contract_score(level, strain.value, doubled, vulnerable, tricks)
        return score if side is Side.NS else -score

    def better(side: Side, scores: Iterable[int]) -> int:
        return max(scores) if side is Side.NS else min(scores)

    @cache
    def after(bid: int, side: Side) -> int:
        """North-South's score with ``side``'s bid the last, its opponents to speak."""
        opponents = side.opponents
        higher = (after(next_bid, opponents) for next_bid in range(bid + 1, len(_BIDS)))
        return better(opponents, [outcome(bid, side), *higher])

    def opening(side: Side) -> int:
        """North-South's score when ``side`` opens the bidding rather than pass."""
        return better(side, (after(bid, side) for bid in range(len(_BIDS))))

    first = dealer.side
    second = first.opponents
    second_speaks = better(second, (0, opening(second)))
    score = better(first, (opening(first), second_speaks))

    # A par contract stands: it scores par, and its opponents have no higher contract they
    # would rather play (doubled, where it goes down); of those, the lowest.
    standing = {
        (bid, side)
        for bid in range(len(_BIDS))
        for side in Side
        if outcome(bid, side) == score
        and all(
            better(side.opponents, (score, outcome(higher, side.opponents))) == score
            for higher in range(bid + 1, len(_BIDS))
        )
    }
    if score == 0 and not standing:
        return Par(0, ())
    return Par(score, _par_contracts(table, standing))


def _par_contracts(
    table: DoubleDummyTable, standing: set[tuple[int, Side]]
) -> tuple[ParContract, ...]:
    lowest: dict[tuple[Strain, Side, bool], int] = {}
    for bid, side in sorted(standing):
        level, strain = _BIDS[bid]
        made = table.side_tricks(side, strain) >= 6 + level
        lowest.setdefault((strain, side, made), level)
    contracts = []
    for (strain, side, made), level in lowest.items():
        tricks = table.side_tricks(side, strain)
        for seat in SEATS:
            if seat.side is side and table.tricks(seat, strain) == tricks:
                contract = Contract(level, strain, 0 if made else 1)
                contracts.append(ParContract(contract, seat, tricks))
    contracts.sort(
        key=lambda c: (c.contract.level, STRAINS.index(c.contract.strain), SEATS.index(c.declarer))
    )
    return tuple(contracts)
