"""French Tarot as the Fédération Française de Tarot scores it (its rules of 2012), at 3, 4 and
5 players (RULES.md §5).

Seats are numbered 0 to ``players − 1`` clockwise round the table. Play and the deal turn
anticlockwise: each next dealer is the seat to the dealer's right (:func:`dealer`), and the
player to the dealer's right speaks first (:func:`first_to_speak`).

A deal is entered as the table tells it (:class:`TarotDeal`): the taker, the contract, at 5
players the partner (or the taker alone), the bouts and the card points in the taker's side's
tricks, and the bonuses that happened. Its marks (:func:`deal_marks`) sum to zero: the deal's
value for one defender, V, is paid by each defender to the taker's side, or the other way.

The first worked deal of RULES.md §5: 4 players, a Garde with 2 bouts and 49 points, 41 needed.

>>> deal = TarotDeal(4, taker=0, contract=Contract.GARDE, bouts=2, points=49)
>>> score_deal(deal).value, deal_marks(deal)
(66, (198, -66, -66, -66))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from scorekeeper.rules.common import Rule, RuleError

__all__ = [
    "CARD_POINTS",
    "PLAYERS",
    "Camp",
    "Chelem",
    "Contract",
    "DealScore",
    "Poignee",
    "TarotDeal",
    "TarotError",
    "TarotRule",
    "TarotSheet",
    "deal_marks",
    "dealer",
    "first_to_speak",
    "score_deal",
    "target",
]

PLAYERS = (3, 4, 5)
"""The tables Tarot is played at."""
CARD_POINTS = 91
"""The card points of the 78 cards: a bout or a king 4.5, a queen 3.5, a cavalier 2.5, a jack
1.5, any other card 0.5."""
PETIT_AU_BOUT = 10
"""The Petit in the last trick, per defender, before the contract's multiplier."""
CONTRACT_BASE = 25
"""What a contract is worth, per defender, before the points over or under and the
multiplier."""


class TarotRule(Rule):
    """The rules a Tarot deal can break (see :class:`TarotError`)."""

    PLAYERS = "players"
    SEAT = "seat"
    CONTRACT = "contract"
    BOUTS = "bouts"
    POINTS = "points"
    HALF_POINT = "half-point"
    PARTNER = "partner"
    CAMP = "camp"
    POIGNEE = "poignee"
    CHELEM = "chelem"
    DEAL_NUMBER = "deal-number"

    @property
    def english(self) -> str:
        return _ENGLISH[self]


_ENGLISH = {
    TarotRule.PLAYERS: "Tarot is played by 3, 4 or 5 players, not {value!r}.",
    TarotRule.SEAT: "The {role} is a seat from 0 to {last}, not {value!r}.",
    TarotRule.CONTRACT: "The contract is a Prise, a Garde, a Garde sans or a Garde contre, "
    "not {value!r}.",
    TarotRule.BOUTS: "There are 3 bouts: the taker's side has 0 to 3 of them, not {value!r}.",
    TarotRule.POINTS: f"The cards hold {CARD_POINTS} points: the taker's side has 0 to "
    f"{CARD_POINTS}, not {{value}}.",
    TarotRule.HALF_POINT: "At 4 players the points are whole, not {value}; a half point is "
    "only possible at 3 and 5 players, and only a half.",
    TarotRule.PARTNER: "Only at 5 players does the taker have a partner, called by a king.",
    TarotRule.CAMP: "The side is the taker's or the defence's, not {value!r}.",
    TarotRule.POIGNEE: "A poignée is simple, double or triple, shown by the taker's side or "
    "the defence, not {value!r}.",
    TarotRule.CHELEM: "A chelem is announced and made, made, announced and failed, or the "
    "defence's, not {value!r}.",
    TarotRule.DEAL_NUMBER: "Deals are numbered from 1, not {value!r}.",
}


class TarotError(RuleError):
    """A deal that cannot have happened (4 bouts, 92 points, a partner at 4 players ...)."""


class Contract(StrEnum):
    """The contracts, lowest first."""

    PRISE = "prise"
    """A Prise (or Petite): the taker takes the chien."""
    GARDE = "garde"
    """A Garde: the taker takes the chien, for twice the stake."""
    GARDE_SANS = "garde-sans"
    """A Garde sans le chien: the chien, unseen, counts for the taker."""
    GARDE_CONTRE = "garde-contre"
    """A Garde contre le chien: the chien, unseen, counts for the defence."""

    @property
    def multiplier(self) -> int:
        """What the contract multiplies a deal's stake by (RULES.md §5).

        >>> [contract.multiplier for contract in Contract]
        [1, 2, 4, 6]
        """
        return {"prise": 1, "garde": 2, "garde-sans": 4, "garde-contre": 6}[self.value]


class Camp(StrEnum):
    """The two sides of a deal."""

    TAKER = "taker"
    """The taker, with the partner at 5 players."""
    DEFENCE = "defence"
    """The other players."""


class Poignee(StrEnum):
    """A poignée: trumps shown before the first card is played."""

    SIMPLE = "simple"
    DOUBLE = "double"
    TRIPLE = "triple"

    @property
    def bonus(self) -> int:
        """What it is worth per defender, never multiplied, to the side that wins the deal.

        >>> [poignee.bonus for poignee in Poignee]
        [20, 30, 40]
        """
        return {"simple": 20, "double": 30, "triple": 40}[self.value]

    def trumps(self, players: int) -> int:
        """The trumps it shows at a table of ``players``.

        >>> [Poignee.SIMPLE.trumps(players) for players in (3, 4, 5)]
        [13, 10, 8]
        """
        _check_players(players)
        shown = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}[players]
        return shown[list(Poignee).index(self)]


class Chelem(StrEnum):
    """A chelem: one side took every trick."""

    ANNOUNCED_MADE = "announced-made"
    """Announced by the taker and made: +400."""
    MADE = "made"
    """Made by the taker, unannounced: +200."""
    ANNOUNCED_FAILED = "announced-failed"
    """Announced by the taker and not made: −200."""
    DEFENCE = "defence"
    """The defence took every trick: each defender +200 more."""

    @property
    def bonus(self) -> int:
        """Its part of the deal's value, per defender, from the taker's side, never
        multiplied.

        >>> [chelem.bonus for chelem in Chelem]
        [400, 200, -200, -200]
        """
        return {"announced-made": 400, "made": 200, "announced-failed": -200, "defence": -200}[
            self.value
        ]


def target(bouts: int) -> int:
    """The card points the taker's side needs, by its bouts (the 21, the Petit, the Excuse).

    >>> [target(bouts) for bouts in range(4)]
    [56, 51, 41, 36]
    """
    if not _is_whole(bouts) or not 0 <= bouts <= 3:
        raise TarotError(TarotRule.BOUTS, value=bouts)
    return (56, 51, 41, 36)[bouts]


@dataclass(frozen=True, slots=True)
class TarotDeal:
    """A deal as the table enters it (RULES.md §5).

    ``players`` 3, 4 or 5; ``taker`` and ``partner`` seats; at 5 players ``partner`` is the
    holder of the called king, or ``None`` (or the taker's own seat) when the taker plays
    alone; ``bouts`` and ``points`` those in the taker's side's tricks (``points`` whole at 4
    players, with a half possible at 3 and 5: an ``int``, or a ``Fraction``/``float`` such as
    40.5); ``petit_au_bout`` the side that took the Petit in the last trick; ``poignees`` one
    ``(Camp, Poignee)`` for each poignée shown; ``chelem`` if one side took every trick.

    >>> TarotDeal(4, taker=0, contract=Contract.PRISE, bouts=4, points=50)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.tarot.TarotError: There are 3 bouts: the taker's side has 0 to 3 ...
    >>> TarotDeal(4, taker=0, contract=Contract.PRISE, bouts=1, points=Fraction(81, 2))
    Traceback (most recent call last):
    ...
    scorekeeper.rules.tarot.TarotError: At 4 players the points are whole, not 81/2; ...
    """

    players: int
    taker: int
    contract: Contract
    bouts: int
    points: int | Fraction
    partner: int | None = None
    petit_au_bout: Camp | None = None
    poignees: tuple[tuple[Camp, Poignee], ...] = ()
    chelem: Chelem | None = None

    def __post_init__(self) -> None:
        _check_players(self.players)
        _check_seat(self.taker, self.players, "taker")
        try:
            object.__setattr__(self, "contract", Contract(self.contract))
        except ValueError:
            raise TarotError(TarotRule.CONTRACT, value=self.contract) from None
        target(self.bouts)  # 0 to 3
        object.__setattr__(self, "points", _points(self.points, self.players))
        if self.partner is not None:
            if self.players != 5:
                raise TarotError(TarotRule.PARTNER)
            _check_seat(self.partner, self.players, "partner")
            if self.partner == self.taker:  # the taker called a king of their own
                object.__setattr__(self, "partner", None)
        if self.petit_au_bout is not None:
            object.__setattr__(self, "petit_au_bout", _camp(self.petit_au_bout))
        shown = []
        for poignee in self.poignees:
            if not isinstance(poignee, tuple) or len(poignee) != 2:
                raise TarotError(TarotRule.POIGNEE, value=poignee)
            try:
                shown.append((_camp(poignee[0]), Poignee(poignee[1])))
            except ValueError:
                raise TarotError(TarotRule.POIGNEE, value=poignee) from None
        object.__setattr__(self, "poignees", tuple(shown))
        if self.chelem is not None:
            try:
                object.__setattr__(self, "chelem", Chelem(self.chelem))
            except ValueError:
                raise TarotError(TarotRule.CHELEM, value=self.chelem) from None

    @property
    def alone(self) -> bool:
        """Whether the taker plays alone against every other player: always at 3 and 4
        players; at 5 when the called king was in the chien or in the taker's own hand."""
        return self.partner is None

    @property
    def target(self) -> int:
        """The points the taker's side needs (:func:`target`)."""
        return target(self.bouts)


@dataclass(frozen=True, slots=True)
class DealScore:
    """A deal scored: whether the contract is made, the taker's side's points as counted
    (a half point given to the side that wins the deal), by how much it is made or down,
    V (what each defender pays the taker's side, negative when the taker's side pays), and
    each seat's mark."""

    made: bool
    counted: int
    difference: int
    value: int
    marks: tuple[int, ...]


def score_deal(deal: TarotDeal) -> DealScore:
    """Score a deal (RULES.md §5). V, per defender, from the taker's side:

    - the contract: (25 + |points − target|) × multiplier, for the taker's side if made (its
      points reach the target), against it if down; a half point goes to the side that wins
      the deal (40.5 with 2 bouts is 40, down 1; 41.5 is 42, made by 1);
    - the Petit au bout: 10 × multiplier to the side that took the last trick with it;
    - each poignée: its bonus, never multiplied, to the side that wins the deal, whoever
      showed it;
    - a chelem: +400 announced and made, +200 made unannounced, −200 announced and failed,
      −200 made by the defence.

    The marks: at 3 players the taker +2V; at 4 +3V; at 5 with a partner the taker +2V and the
    partner +V; at 5 alone +4V; each defender −V.

    The worked deals of RULES.md §5, after the first (in the module's docstring):

    >>> score_deal(TarotDeal(4, 0, Contract.PRISE, 1, 47, petit_au_bout=Camp.DEFENCE)).marks
    (-117, 39, 39, 39)
    >>> poignee = ((Camp.TAKER, Poignee.SIMPLE),)
    >>> score_deal(TarotDeal(5, 0, Contract.GARDE_SANS, 3, 52, partner=2, poignees=poignee))
    DealScore(made=True, counted=52, difference=16, value=184, marks=(368, -184, 184, -184, -184))
    >>> score_deal(TarotDeal(3, 1, Contract.GARDE, 2, Fraction(81, 2)))
    DealScore(made=False, counted=40, difference=1, value=-52, marks=(52, -104, 52))
    >>> poignee = ((Camp.DEFENCE, Poignee.DOUBLE),)
    >>> score_deal(TarotDeal(4, 3, Contract.GARDE, 1, 51, poignees=poignee)).marks
    (-80, -80, -80, 240)
    """
    made = deal.points >= deal.target
    # The half point goes to the side that wins the deal.
    counted = math.ceil(deal.points) if made else math.floor(deal.points)
    difference = abs(counted - deal.target)
    multiplier = deal.contract.multiplier
    winner = 1 if made else -1
    value = winner * (CONTRACT_BASE + difference) * multiplier
    if deal.petit_au_bout is not None:
        value += (1 if deal.petit_au_bout is Camp.TAKER else -1) * PETIT_AU_BOUT * multiplier
    value += winner * sum(poignee.bonus for _camp, poignee in deal.poignees)
    if deal.chelem is not None:
        value += deal.chelem.bonus
    return DealScore(made, counted, difference, value, _marks(deal, value))


def deal_marks(deal: TarotDeal) -> tuple[int, ...]:
    """Each seat's mark for the deal, summing to zero (:func:`score_deal`).

    >>> deal_marks(TarotDeal(5, 4, Contract.PRISE, 0, 60))
    (-29, -29, -29, -29, 116)
    """
    return score_deal(deal).marks


def _marks(deal: TarotDeal, value: int) -> tuple[int, ...]:
    marks = [-value] * deal.players
    if deal.partner is not None:
        marks[deal.taker], marks[deal.partner] = 2 * value, value
    else:
        marks[deal.taker] = (deal.players - 1) * value
    return tuple(marks)


def dealer(first: int, deal_number: int, players: int) -> int:
    """The seat that deals deal ``deal_number``: deal 1 by ``first``, each next by the seat to
    the dealer's right (the deal turns anticlockwise), a deal all passed included.

    >>> [dealer(2, number, 4) for number in range(1, 6)]
    [2, 1, 0, 3, 2]
    """
    _check_players(players)
    _check_seat(first, players, "first dealer")
    if not _is_whole(deal_number) or deal_number < 1:
        raise TarotError(TarotRule.DEAL_NUMBER, value=deal_number)
    return (first - (deal_number - 1)) % players


def first_to_speak(dealer_seat: int, players: int) -> int:
    """The seat that speaks first, and leads the first trick: the dealer's right.

    >>> first_to_speak(0, 5)
    4
    """
    _check_players(players)
    _check_seat(dealer_seat, players, "dealer")
    return (dealer_seat - 1) % players


@dataclass(frozen=True, slots=True)
class TarotSheet:
    """A game: its deals in order (``None`` for a deal all passed, which scores nothing and
    passes the deal on), each seat's marks, the running totals and the places.

    >>> sheet = TarotSheet(4, first=0, deals=(
    ...     TarotDeal(4, 0, Contract.GARDE, 2, 49), None,
    ...     TarotDeal(4, 2, Contract.PRISE, 1, 47, petit_au_bout=Camp.DEFENCE)))
    >>> sheet.totals
    ((198, -66, -66, -66), (198, -66, -66, -66), (237, -27, -183, -27))
    >>> sheet.places, sheet.next_dealer
    ((1, 2, 4, 2), 1)
    """

    players: int
    first: int = 0
    """The seat that deals the first deal."""
    deals: tuple[TarotDeal | None, ...] = ()

    def __post_init__(self) -> None:
        _check_players(self.players)
        _check_seat(self.first, self.players, "first dealer")
        object.__setattr__(self, "deals", tuple(self.deals))
        for deal in self.deals:
            if deal is not None and deal.players != self.players:
                raise TarotError(TarotRule.PLAYERS, value=deal.players)

    @property
    def scores(self) -> tuple[DealScore | None, ...]:
        """Each deal scored; ``None`` for a deal all passed."""
        return tuple(None if deal is None else score_deal(deal) for deal in self.deals)

    @property
    def marks(self) -> tuple[tuple[int, ...], ...]:
        """Each deal's marks, by seat (zeros for a deal all passed)."""
        nothing = (0,) * self.players
        return tuple(nothing if score is None else score.marks for score in self.scores)

    @property
    def totals(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's running total after each deal."""
        running = [0] * self.players
        totals = []
        for marks in self.marks:
            running = [total + mark for total, mark in zip(running, marks, strict=True)]
            totals.append(tuple(running))
        return tuple(totals)

    @property
    def standing(self) -> tuple[int, ...]:
        """Each seat's total now (zeros before the first deal)."""
        return self.totals[-1] if self.deals else (0,) * self.players

    @property
    def places(self) -> tuple[int, ...]:
        """Each seat's place: 1 + the seats with a higher total (equal totals share it)."""
        standing = self.standing
        return tuple(1 + sum(other > mine for other in standing) for mine in standing)

    @property
    def turns(self) -> int:
        """The whole turns of the deal played: each player has dealt as often as every other
        (a deal all passed too: its dealer dealt)."""
        return len(self.deals) // self.players

    @property
    def after_last_turn(self) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """Each seat's total and place after the last whole turn of the deal, as a game that
        ends is counted (each player having dealt as often as the others); ``None`` before
        the first.

        >>> sheet = TarotSheet(3, deals=(TarotDeal(3, 0, Contract.GARDE, 2, 49), None, None,
        ...                              TarotDeal(3, 1, Contract.PRISE, 0, 20)))
        >>> sheet.turns, sheet.after_last_turn
        (1, ((132, -66, -66), (1, 2, 2)))
        """
        if not self.turns:
            return None
        totals = self.totals[self.turns * self.players - 1]
        return totals, tuple(1 + sum(other > mine for other in totals) for mine in totals)

    def dealer_of(self, deal_number: int) -> int:
        """The seat that deals deal ``deal_number`` (:func:`dealer`)."""
        return dealer(self.first, deal_number, self.players)

    @property
    def next_dealer(self) -> int:
        """The seat that deals the next deal."""
        return self.dealer_of(len(self.deals) + 1)


def _check_players(players: object) -> None:
    if not _is_whole(players) or players not in PLAYERS:
        raise TarotError(TarotRule.PLAYERS, value=players)


def _check_seat(seat: object, players: int, role: str) -> None:
    if not _is_whole(seat) or not 0 <= seat < players:  # type: ignore[operator]
        raise TarotError(TarotRule.SEAT, role=role, last=players - 1, value=seat)


def _camp(value: object) -> Camp:
    if isinstance(value, str) and value in {camp.value for camp in Camp}:
        return Camp(value)
    raise TarotError(TarotRule.CAMP, value=value)


def _points(points: object, players: int) -> int | Fraction:
    """The points as an ``int``, or a ``Fraction`` with a half; refused beyond 0 to 91, or
    with a half at 4 players (a float is taken as the decimal it prints as)."""
    if isinstance(points, bool) or not isinstance(points, int | float | Fraction):
        raise TarotError(TarotRule.POINTS, value=points)
    if isinstance(points, float) and not math.isfinite(points):
        raise TarotError(TarotRule.POINTS, value=points)
    exact = Fraction(repr(points)) if isinstance(points, float) else Fraction(points)
    if not 0 <= exact <= CARD_POINTS:
        raise TarotError(TarotRule.POINTS, value=points)
    if exact.denominator == 1:
        return int(exact)
    if exact.denominator != 2 or players == 4:
        raise TarotError(TarotRule.HALF_POINT, value=exact)
    return exact


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
